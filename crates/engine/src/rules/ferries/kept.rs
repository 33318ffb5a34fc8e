//! What The Ferries keeps in the state: the ferries on their lakes and,
//! during step 4, which may move. Data below the state.

use crate::action::JettyPair;
use crate::board::Board;
use crate::geometry::Pos;

/// A ferry on a lake.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Ferry {
    /// Index of its lake tile, in placing order.
    pub tile: u16,
    /// The jetties it joins, as sides on the board.
    pub jetties: JettyPair,
}

/// The ferries on the board and, during step 4, which of them may move.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Ferries {
    pub(super) ferries: Vec<Ferry>,
    /// Ferries (bit per index) that may move this turn (F6, fixed by F7).
    pub(super) movable: u32,
    /// Ferries moved this turn.
    pub(super) moved: u32,
}

impl Clone for Ferries {
    fn clone(&self) -> Self {
        Ferries { ferries: self.ferries.clone(), movable: self.movable, moved: self.moved }
    }

    fn clone_from(&mut self, source: &Self) {
        self.ferries.clone_from(&source.ferries);
        self.movable = source.movable;
        self.moved = source.moved;
    }
}

impl Ferries {
    pub fn all(&self) -> &[Ferry] {
        &self.ferries
    }

    pub(super) fn index_on(&self, tile: usize) -> Option<usize> {
        self.ferries.iter().position(|f| f.tile as usize == tile)
    }

    /// Ferries that may still move this turn.
    pub(super) fn pending(&self) -> u32 {
        self.movable & !self.moved
    }
}

impl Ferries {
    /// The ferry on the lake tile at index `tile`, if any.
    pub(crate) fn on(&self, tile: usize) -> Option<Ferry> {
        self.index_on(tile).map(|i| self.ferries[i])
    }

    /// Where the ferries that may still move this turn lie.
    pub(crate) fn movable<'a>(&'a self, board: &'a Board) -> impl Iterator<Item = Pos> + 'a {
        let pending = self.pending();
        self.ferries
            .iter()
            .enumerate()
            .filter(move |(i, _)| pending & (1 << i) != 0)
            .map(|(_, f)| board.tile(f.tile as usize).pos)
    }
}
