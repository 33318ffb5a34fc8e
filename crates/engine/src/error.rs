//! Typed errors, each naming the rule that was broken.

use thiserror::Error;

use crate::action::{JettyPair, Location, Step};
use crate::geometry::{Pos, Rotation, Side};
use crate::setup::Expansion;
use crate::tile::TileKind;

/// A game cannot be set up this way.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum SetupError {
    #[error("a game has 2 to 5 players, not {0}")]
    PlayerCount(usize),
    #[error("expansion {0} is named twice")]
    DuplicateExpansion(Expansion),
    #[error("tiny-city-scoring is 4 (standard) or 2 (a completed two-tile city scores as if incomplete), not {0}")]
    TinyCityScoring(u32),
}

/// An action that the rules do not allow now. The state is left unchanged.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum PlayError {
    #[error("the game is over: the bag is empty")]
    GameOver,
    #[error("cannot {tried} now: the turn is at the step '{step}'")]
    WrongStep { tried: &'static str, step: Step },
    #[error("tile {0} is not in the bag")]
    NotInBag(TileKind),
    #[error("{0} already holds a tile")]
    Occupied(Pos),
    #[error("a tile must share an edge with a placed tile, and {0} touches none")]
    NotTouching(Pos),
    #[error("tile {tile} turned {rot} at {at} does not match the edge of its neighbour to the {side}")]
    EdgeMismatch { tile: TileKind, rot: Rotation, at: Pos, side: Side },
    #[error("tile {0} fits on the board, so it must be placed; only a tile that fits nowhere is discarded")]
    MustPlace(TileKind),
    #[error("no follower is left in supply")]
    NoFollowerInSupply,
    #[error("the tile just placed has no {0}")]
    NoSuchFeature(Location),
    #[error("the feature at {0} already holds a follower, counting every tile it spans")]
    FeatureOccupied(Location),
    #[error("the lake just placed has no jetties {0}: a ferry joins two of its jetties")]
    NotJetties(JettyPair),
    #[error("there is no ferry at {0}")]
    NoFerry(Pos),
    #[error("the lake at {at} has no jetties {ferry}: a ferry moves to two jetties of its own lake (F8)")]
    NotJettiesOf { at: Pos, ferry: JettyPair },
    #[error(
        "the ferry at {0} may not move: no road of the tile just placed reaches it without passing another ferry (F6)"
    )]
    FerryNotMovable(Pos),
    #[error("the ferry at {0} was moved this turn already; each ferry moves at most once a turn (F7)")]
    FerryMovedAlready(Pos),
    #[error("the ferry at {at} already joins {ferry}: putting it back is no move (F8)")]
    SameJetties { at: Pos, ferry: JettyPair },
}
