//! The state of a game and the turn it is in.
//!
//! A game is its [`Rules`] plus a sequence of actions, chance's draws among
//! them, so the state holds no random generator and no bag order: it is
//! exactly what every player may see. It keeps no history either, so it is
//! cheap to clone for search; records live beside it ([`crate::record`]).
//!
//! Its rooms: [`pieces`] (followers, supplies, pieces and their names, tiles
//! joining the board), `turn` (the turn plan: legal actions, checks, playing)
//! and `scoring` (majorities, points, the end of the game). What differs
//! between the base game and the expansions is asked of [`crate::rules`],
//! whose hooks get the state itself as their context: its fields and
//! helpers are the crate's, so that an expansion's rules may read the
//! board and move figures and tiles, while nothing here names an expansion.

mod pieces;
pub(crate) mod scoring;
mod turn;

pub use crate::figure::{Follower, FollowerKind};

use crate::action::{Actor, Location, Step};
use crate::bag::Bag;
use crate::board::{Board, PlacedTile};
use crate::features::{Features, PieceId, Totals};
use crate::geometry::Pos;
use crate::pieces::{local_piece, location_of};
use crate::plan::TurnPlan;
use crate::rules::kept::Extensions;
use crate::setup::{Rules, MAX_PLAYERS};
use crate::tile::TileKind;

/// Equality is structural: two states are equal when every part is, which
/// is what the conformance tests compare after clone-then-play and replay.
#[derive(Debug, PartialEq, Eq)]
pub struct State {
    pub(crate) rules: Rules,
    /// The steps of a turn under these rules, computed once.
    pub(crate) plan: TurnPlan,
    pub(crate) board: Board,
    pub(crate) features: Features,
    pub(crate) bag: Bag,
    pub(crate) scores: [u32; MAX_PLAYERS],
    /// Figures in supply, by kind and then seat.
    pub(crate) supply: [[u8; MAX_PLAYERS]; FollowerKind::COUNT],
    pub(crate) followers: Vec<Follower>,
    /// The pieces of those that stand on monasteries (or what scores as
    /// one), an entry a figure: the end of a turn looks at these for a
    /// surrounded one before it looks at every figure.
    pub(crate) monks: Vec<PieceId>,
    /// The seat whose turn it is.
    pub(crate) current: u8,
    /// The seat to decide now: the current one, unless a rule lets another
    /// player decide out of turn.
    pub(crate) acting: u8,
    pub(crate) step: Step,
    pub(crate) drawn: Option<TileKind>,
    /// Index of the tile placed this turn (valid after the Place step).
    pub(crate) placed: usize,
    pub(crate) turns: u32,
    /// What each expansion in play keeps, apart from the base game.
    pub(crate) ext: Extensions,
}

impl Clone for State {
    fn clone(&self) -> Self {
        let mut s = State {
            rules: self.rules,
            plan: self.plan,
            board: self.board.clone(),
            features: self.features.clone(),
            bag: self.bag.clone(),
            scores: self.scores,
            supply: self.supply,
            followers: self.followers.clone(),
            monks: self.monks.clone(),
            current: self.current,
            acting: self.acting,
            step: self.step,
            drawn: self.drawn,
            placed: self.placed,
            turns: self.turns,
            ext: self.ext.clone(),
        };
        s.followers.reserve(self.followers.capacity() - self.followers.len());
        s.monks.reserve(self.monks.capacity() - self.monks.len());
        s
    }

    /// Copies `source` into this state's buffers without allocating (once
    /// they are large enough): search copies a state every iteration.
    fn clone_from(&mut self, source: &Self) {
        self.rules = source.rules;
        self.plan = source.plan;
        self.board.clone_from(&source.board);
        self.features.clone_from(&source.features);
        self.bag.clone_from(&source.bag);
        self.scores = source.scores;
        self.supply = source.supply;
        self.followers.clone_from(&source.followers);
        self.monks.clone_from(&source.monks);
        self.current = source.current;
        self.acting = source.acting;
        self.step = source.step;
        self.drawn = source.drawn;
        self.placed = source.placed;
        self.turns = source.turns;
        self.ext.clone_from(&source.ext);
    }
}

impl State {
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn bag(&self) -> &Bag {
        &self.bag
    }

    pub fn step(&self) -> Step {
        self.step
    }

    pub fn is_over(&self) -> bool {
        self.step == Step::GameOver
    }

    /// The seat whose turn it is.
    pub fn current_player(&self) -> usize {
        self.current as usize
    }

    /// Who acts now, or `None` once the game is over. A player may act out
    /// of turn where a rule says so; otherwise it is the current player.
    pub fn actor(&self) -> Option<Actor> {
        match self.step {
            Step::GameOver => None,
            Step::Draw => Some(Actor::Chance),
            _ => Some(Actor::Player(self.acting as usize)),
        }
    }

    /// The tile drawn this turn, until the turn ends.
    pub fn drawn(&self) -> Option<TileKind> {
        self.drawn
    }

    /// The tile placed this turn, during the steps after placing.
    pub fn placed_tile(&self) -> Option<&PlacedTile> {
        let before = matches!(self.step, Step::Draw | Step::Place | Step::GameOver) || self.plan.before_draw(self.step);
        (!before).then(|| self.board.tile(self.placed))
    }

    /// Points of each player so far, without end-of-game scoring.
    pub fn scores(&self) -> &[u32] {
        &self.scores[..self.rules.players()]
    }

    /// Normal followers each player has in supply.
    pub fn supply(&self) -> &[u8] {
        self.supply_of(FollowerKind::Normal)
    }

    /// Figures of `kind` each player has in supply.
    pub fn supply_of(&self, kind: FollowerKind) -> &[u8] {
        &self.supply[kind as usize][..self.rules.players()]
    }

    /// Followers on the board.
    pub fn followers(&self) -> &[Follower] {
        &self.followers
    }

    /// Turns played, discards included (entries of a game record).
    pub fn turns(&self) -> u32 {
        self.turns
    }

    pub fn features(&self) -> &Features {
        &self.features
    }

    /// The steps a turn may go through under these rules, in order.
    pub fn turn_plan(&self) -> &[Step] {
        self.plan.steps()
    }

    // ----- pieces and their names -------------------------------------------

    /// Where a piece lies and its canonical name there.
    pub fn piece_location(&self, p: PieceId) -> (Pos, Location) {
        let info = self.features.info(p);
        let t = self.board.tile(info.tile as usize);
        (t.pos, location_of(t, info.local))
    }

    /// The piece named `loc` on the tile at index `tile`.
    pub fn resolve(&self, tile: usize, loc: Location) -> Option<PieceId> {
        let t = self.board.tile(tile);
        local_piece(t, loc).map(|local| t.first_piece + local as PieceId)
    }

    /// The feature totals of the piece named `loc` on the tile at `at`.
    pub fn feature_at(&self, at: Pos, loc: Location) -> Option<Totals> {
        let p = self.resolve(self.board.tile_index(at)?, loc)?;
        Some(self.features.totals(p))
    }
}

/// Where a follower may go on the tile just placed ([`State::spots`]).
pub(crate) struct Spots<'a> {
    pub(super) tile: &'a PlacedTile,
    /// The free pieces, a bit per piece of the tile.
    pub(crate) free: u16,
    /// How many there are (counted as they are found: cheaper than
    /// counting the bits without a population count instruction).
    pub(crate) count: u8,
}

impl Spots<'_> {
    /// The names of the free pieces, in the order of the tile's pieces.
    pub(crate) fn names(&self) -> impl Iterator<Item = Location> + '_ {
        let mut free = self.free;
        std::iter::from_fn(move || {
            (free != 0).then(|| {
                let local = free.trailing_zeros();
                free &= free - 1;
                location_of(self.tile, local as u8)
            })
        })
    }
}

/// The state with exactly these tiles left in the bag, for tests of the
/// end of a game.
#[cfg(test)]
pub(crate) fn with_bag(mut state: State, tiles: &[(&str, u8)]) -> State {
    for kind in crate::tile::TileKind::all() {
        let want = tiles.iter().find(|(id, _)| *id == kind.id()).map_or(0, |t| t.1);
        while state.bag.count(kind) > want {
            state.bag.remove(kind);
        }
    }
    state
}
