//! What a rules module's hooks see and hand back: a read-only view of the
//! board, the table an action may change, a feature being scored, and the
//! pieces a turn touched. Below every rules module and the dispatch of
//! `rules`, so that a module never reaches up.

use crate::board::Board;
use crate::features::{Features, PieceId, Totals};
use crate::figure::Follower;
use crate::tile::FeatureKind;

/// What a hook may read: the board, its features, the tile placed this turn.
#[derive(Clone, Copy)]
pub(crate) struct View<'a> {
    pub board: &'a Board,
    pub features: &'a Features,
    pub placed: usize,
}

/// What a hook playing an action may change: the features (the board and
/// the figures on it stay as they are), and who acts.
pub(crate) struct Table<'a> {
    pub board: &'a Board,
    pub features: &'a mut Features,
    pub followers: &'a [Follower],
    pub placed: usize,
    pub acting: usize,
}

/// A feature being scored, with what its points depend on.
pub(crate) struct Feature {
    pub kind: FeatureKind,
    /// Tiles it spans, each once.
    pub tiles: u32,
    pub totals: Totals,
    /// A monastery's surrounding cells that hold tiles.
    pub neighbours: u32,
    /// A farm's bordering completed cities.
    pub cities: u32,
}

/// Pieces of features a turn touched beyond the tile placed, which step 5
/// scores if they are complete.
pub(crate) struct Touched {
    /// Room for every jetty of every lake (eight lakes of four at most),
    /// and the pieces of the tile placed.
    pieces: [PieceId; 40],
    len: usize,
}

impl Default for Touched {
    fn default() -> Touched {
        Touched { pieces: [crate::features::NONE; 40], len: 0 }
    }
}

impl Touched {
    pub(crate) fn push(&mut self, p: PieceId) {
        self.pieces[self.len] = p;
        self.len += 1;
    }

    pub(crate) fn pieces(&self) -> impl Iterator<Item = PieceId> + '_ {
        self.pieces[..self.len].iter().copied()
    }
}
