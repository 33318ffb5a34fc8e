//! Typed errors, each naming the rule that was broken.

use thiserror::Error;

use crate::action::{JettyPair, Location, Step};
use crate::expansion::Expansion;
use crate::figure::FollowerKind;
use crate::geometry::{Pos, Rotation, Side};
use crate::tile::TileKind;

/// A game cannot be set up this way.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum SetupError {
    #[error("a game has {min} to {max} players, not {players}")]
    PlayerCount { players: usize, min: usize, max: usize },
    #[error("expansion {0} is named twice")]
    DuplicateExpansion(Expansion),
    #[error("unknown expansion '{0}' (known: {known})", known = Expansion::ALL.map(Expansion::name).join(", "))]
    UnknownExpansion(String),
    #[error("unknown edition '{0}' (c3 or c2)")]
    UnknownEdition(String),
    #[error("tiny-city-scoring is 4 (standard) or 2 (a completed two-tile city scores as if incomplete), not {0}")]
    TinyCityScoring(u32),
    #[error("{what} cannot be in play without {expansion}")]
    NotInPlay { what: String, expansion: Expansion },
    #[error("a player starts with {min} to {max} {}s, not {count}", .figure.noun())]
    FigureCount { figure: FollowerKind, count: u8, min: u8, max: u8 },
    #[error("unknown figure '{0}' (known: {known})", known = FollowerKind::ALL.map(FollowerKind::name).join(", "))]
    UnknownFigureName(String),
    #[error("the {} belongs to no expansion this program plays yet", .0.noun())]
    UnknownFigure(FollowerKind),
    #[error("a player starts with 0 to {max} abbeys, not {count}")]
    AbbeyCount { count: u8, max: u8 },
}

impl SetupError {
    /// Whether a rule variant (a record's `setup.rules`) is at fault.
    pub fn is_rule_option(&self) -> bool {
        !matches!(
            self,
            SetupError::PlayerCount { .. }
                | SetupError::DuplicateExpansion(_)
                | SetupError::UnknownExpansion(_)
                | SetupError::UnknownEdition(_)
        )
    }

    /// A stable name of what is wrong, for tests and programs.
    pub fn kind(&self) -> &'static str {
        match self {
            SetupError::PlayerCount { .. } => "player-count",
            SetupError::DuplicateExpansion(_) => "duplicate-expansion",
            SetupError::UnknownExpansion(_) => "unknown-expansion",
            SetupError::UnknownEdition(_) => "unknown-edition",
            SetupError::TinyCityScoring(_) => "tiny-city-scoring",
            SetupError::NotInPlay { .. } => "not-in-play",
            SetupError::FigureCount { .. } => "figure-count",
            SetupError::AbbeyCount { .. } => "abbey-count",
            SetupError::UnknownFigure(_) => "unknown-figure",
            SetupError::UnknownFigureName(_) => "unknown-figure",
        }
    }
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
    #[error("tile {tile} cannot be drawn yet: tiles that come before it, such as {before}, are still in the bag")]
    NotDrawnYet { tile: TileKind, before: TileKind },
    #[error("{0} already holds a tile")]
    Occupied(Pos),
    #[error("a tile must share an edge with a placed tile, and {0} touches none")]
    NotTouching(Pos),
    #[error("tile {tile} turned {rot} at {at} does not match the edge of its neighbour to the {side}")]
    EdgeMismatch { tile: TileKind, rot: Rotation, at: Pos, side: Side },
    #[error("tile {0} fits on the board, so it must be placed; only a tile that fits nowhere is discarded")]
    MustPlace(TileKind),
    #[error("river tile {tile} at {at} does not continue the river: its river must join the river on the board")]
    RiverNotContinued { tile: TileKind, at: Pos },
    #[error("river tile {tile} at {at} would turn the river back on itself: the cells its open end needs are taken")]
    RiverTurnsBack { tile: TileKind, at: Pos },
    #[error("no follower is left in supply")]
    NoFollowerInSupply,
    #[error("no {} is left in supply", .0.noun())]
    NoFigureInSupply(FollowerKind),
    /// A figure this game has none of: its expansion is not in play (or
    /// the rules in play give none).
    #[error("{}", not_in_game(*.figure, *.expansion))]
    FigureNotInGame { figure: FollowerKind, expansion: Option<Expansion> },
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
    #[error("an abbey goes only into a hole: {0} must be empty with a tile on each of its four sides")]
    NotAHole(Pos),
    #[error("{} may not stand on {location}: {why}", .figure.with_article())]
    WrongFeatureForFigure { figure: FollowerKind, location: Location, why: &'static str },
    #[error("a barn goes on a corner where four fields meet, and {0} of the tile just placed is not one")]
    NotAFieldCorner(Location),
    #[error("the farm at {0} already has a barn: a farm takes one barn")]
    FarmHasBarn(Location),
    #[error("the wagon may not move to {to} at {at}: {why}")]
    WagonMove { at: Pos, to: Location, why: &'static str },
    #[error("you have no abbot at {0} to take back")]
    NoAbbotThere(Pos),
    #[error("the abbot at {0} stays: its monastery or garden is surrounded and scores at the end of this turn")]
    AbbotScoresNow(Pos),
}

impl PlayError {
    /// A stable name of the refusal, for tests and programs (the message
    /// is for people and may change).
    pub fn kind(&self) -> &'static str {
        match self {
            PlayError::GameOver => "game-over",
            PlayError::WrongStep { .. } => "wrong-step",
            PlayError::NotInBag(_) => "not-in-bag",
            PlayError::NotDrawnYet { .. } => "not-drawn-yet",
            PlayError::Occupied(_) => "occupied",
            PlayError::NotTouching(_) => "not-touching",
            PlayError::EdgeMismatch { .. } => "edge-mismatch",
            PlayError::MustPlace(_) => "must-place",
            PlayError::RiverNotContinued { .. } => "river-not-continued",
            PlayError::RiverTurnsBack { .. } => "river-turns-back",
            PlayError::NoFollowerInSupply => "no-follower-in-supply",
            PlayError::NoFigureInSupply(_) => "no-figure-in-supply",
            PlayError::FigureNotInGame { .. } => "figure-not-in-game",
            PlayError::NoSuchFeature(_) => "no-such-feature",
            PlayError::FeatureOccupied(_) => "feature-occupied",
            PlayError::NotJetties(_) => "not-jetties",
            PlayError::NoFerry(_) => "no-ferry",
            PlayError::NotJettiesOf { .. } => "not-jetties-of",
            PlayError::FerryNotMovable(_) => "ferry-not-movable",
            PlayError::FerryMovedAlready(_) => "ferry-moved-already",
            PlayError::SameJetties { .. } => "same-jetties",
            PlayError::NotAHole(_) => "not-a-hole",
            PlayError::WrongFeatureForFigure { .. } => "wrong-feature-for-figure",
            PlayError::NotAFieldCorner(_) => "not-a-field-corner",
            PlayError::FarmHasBarn(_) => "farm-has-barn",
            PlayError::WagonMove { .. } => "wagon-move",
            PlayError::NoAbbotThere(_) => "no-abbot-there",
            PlayError::AbbotScoresNow(_) => "abbot-scores-now",
        }
    }

    /// The board position the refusal is about, if it names one.
    pub fn at(&self) -> Option<Pos> {
        match self {
            PlayError::Occupied(at)
            | PlayError::NotTouching(at)
            | PlayError::NoFerry(at)
            | PlayError::FerryNotMovable(at)
            | PlayError::FerryMovedAlready(at)
            | PlayError::EdgeMismatch { at, .. }
            | PlayError::RiverNotContinued { at, .. }
            | PlayError::RiverTurnsBack { at, .. }
            | PlayError::NotJettiesOf { at, .. }
            | PlayError::SameJetties { at, .. }
            | PlayError::NotAHole(at)
            | PlayError::NoAbbotThere(at)
            | PlayError::AbbotScoresNow(at)
            | PlayError::WagonMove { at, .. } => Some(*at),
            _ => None,
        }
    }

    /// The numbered ruling the refusal applies (`docs/rules.md`), if the
    /// rule broken has one; the base game's rules are not numbered.
    pub fn ruling(&self) -> Option<&'static str> {
        match self {
            PlayError::NotJetties(_) => Some("F3"),
            PlayError::FerryNotMovable(_) => Some("F6"),
            PlayError::FerryMovedAlready(_) => Some("F7"),
            PlayError::NotJettiesOf { .. } | PlayError::SameJetties { .. } => Some("F8"),
            _ => None,
        }
    }
}

fn not_in_game(figure: FollowerKind, expansion: Option<Expansion>) -> String {
    match expansion {
        Some(e) => format!("this game has no {}: it comes with {}, which is not in play", figure.noun(), e.title()),
        None => format!("this game has no {}: the rules in play give none", figure.noun()),
    }
}
