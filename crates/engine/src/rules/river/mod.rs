//! The River (in the base box of the third edition): the spring starts
//! the game in place of D, which goes into the bag; the river's tiles are
//! drawn before the rest, its lake after them (the tile data's stages,
//! which the bag follows), and each placement continues the river without
//! letting it turn back on itself. Roads, cities, monasteries and fields on
//! river tiles are as on any tile; the river itself holds no figure and
//! scores nothing, and its lake takes no ferry.
//!
//! The placement rule is JCloisterZone's: a river tile must join its river
//! to the river on the board, and for every end of its river left open,
//! the cell beyond it, the two beside that cell and the three beyond it
//! must still be empty, so that the next tiles can carry the river on
//! without bending back into it.

pub mod tiles;

use crate::board::Placement;
use crate::error::PlayError;
use crate::geometry::{Rotation, Side};
use crate::state::State;
use crate::tile::{KindInfo, TileKind};

/// Whether this kind's placements follow more than the edges: a river tile.
#[inline]
pub(crate) fn restricts(kind: &KindInfo) -> bool {
    kind.river != 0
}

/// Checks a placement of a river tile that fits by its edges.
pub(crate) fn check(state: &State, kind: TileKind, p: Placement) -> Result<(), PlayError> {
    let board = state.board();
    let river = kind.info().river;
    let sides = Side::ALL.into_iter().filter(|s| river & s.bit() != 0).map(|s| s.rotated(p.rot));
    let mut joined = false;
    for side in sides {
        let next = p.pos.step(side);
        if board.tile_index(next).is_some() {
            joined = true;
            continue;
        }
        // An open end: what the river would need to go on must be free.
        let beyond = next.step(side);
        let (left, right) = (side.rotated(Rotation::R270), side.rotated(Rotation::R90));
        let needed = [next.step(left), next.step(right), beyond, beyond.step(left), beyond.step(right)];
        if needed.iter().any(|c| board.tile_index(*c).is_some()) {
            return Err(PlayError::RiverTurnsBack { tile: kind, at: p.pos });
        }
    }
    if !joined {
        return Err(PlayError::RiverNotContinued { tile: kind, at: p.pos });
    }
    Ok(())
}
