//! The Ferries (mini expansion #3) as a rules module: lake tiles, placing
//! and moving ferries.
//!
//! Its hooks: its [`TILES`], two [`STEPS`] of the turn plan (`PlaceFerry`
//! and `MoveFerries`, rulings F3 to F8), and the roads it touched, which
//! step 5 checks for completion (F9, F10). A ferry is a link between two
//! jetty road pieces of its lake; moving it takes the road it held
//! together apart and joins it again ([`crate::pieces::rejoin`]), and the
//! new link joins what it reaches. It sees the game only through [`View`]
//! and [`Table`].

use crate::action::{Action, JettyPair, Step};
use crate::board::Board;
use crate::error::PlayError;
use crate::event::{Event, EventSink};
use crate::features::{Joint, PieceId, PieceList, PieceSet, NONE};
use crate::geometry::Side::{self};
use crate::geometry::{rotate_sides, Pos};
use crate::pieces::{piece_across, piece_sides, rejoin};
use crate::state::State;

use super::context::{Table, Touched, View};

/// Its steps, after the base game's: place the ferry, then move ferries (F3).
pub const STEPS: &[Step] = &[Step::PlaceFerry, Step::MoveFerries];

pub(crate) mod tiles;
pub use tiles::TILES;

pub(crate) mod kept;
pub use kept::{Ferries, Ferry};

impl State {
    /// What The Ferries keeps: the ferries on their lakes.
    pub fn ferries(&self) -> &Ferries {
        &self.ext.ferries
    }

    /// The ferry on the lake at `at`, if any.
    pub fn ferry_at(&self, at: Pos) -> Option<Ferry> {
        self.ext.ferries.on(self.board.tile_index(at)?)
    }

    /// Ferries that may still move this turn (during the MoveFerries step).
    pub fn movable_ferries(&self) -> impl Iterator<Item = Pos> + '_ {
        self.ext.ferries.movable(&self.board)
    }
}

/// Jetty sides of a lake tile as it lies on the board.
fn jetty_sides(board: &Board, tile: usize) -> u8 {
    let t = board.tile(tile);
    rotate_sides(t.info().jetties, t.rot)
}

/// Every pair of jetties among `sides`.
fn pairs(sides: u8) -> impl Iterator<Item = JettyPair> {
    // The masks of two sides, in increasing order.
    const PAIRS: [u8; 6] = [0b0011, 0b0101, 0b0110, 0b1001, 0b1010, 0b1100];
    PAIRS.into_iter().filter(move |m| m & !sides == 0).map(JettyPair::from_mask)
}

fn jetty_piece(board: &Board, tile: usize, side: Side) -> PieceId {
    let t = board.tile(tile);
    let local = t.oriented().side_piece[side.index()];
    t.first_piece + local as PieceId
}

/// Step 3 applies when the tile just placed has a lake; step 4 when some
/// ferry may move (F6), and the set is fixed now (F7).
#[inline]
pub(crate) fn enter(step: Step, ferries: &mut Ferries, view: View) -> bool {
    if step == Step::PlaceFerry {
        return view.board.tile(view.placed).info().lake;
    }
    ferries.moved = 0;
    // Most turns end here, without the call out of line: no ferry is
    // reached from a tile without roads, nor when the only ferry is the
    // one this tile brought (placed this turn, so the last one).
    let own = ferries.ferries.last().is_some_and(|f| f.tile as usize == view.placed) as u8;
    ferries.movable = if ferries.ferries.len() <= own as usize || view.board.tile(view.placed).info().road_pieces == 0 {
        0
    } else {
        reachable_ferries(ferries, view, own)
    };
    ferries.movable != 0
}

/// F6: follow every road of the new tile away from it, across edges, and
/// collect the first ferry met on each branch. A jetty ends the walk: with a
/// ferry it is that ferry; without one, the road ends there. Out of line:
/// entering the steps is asked twice a turn and is a flag test most times.
/// The tile has roads, and another ferry than its own (`own`: 1 if it
/// brought one) is on the board.
#[inline(never)]
fn reachable_ferries(ferries: &Ferries, view: View, own: u8) -> u32 {
    let View { board, features, placed: new } = view;
    let t = board.tile(new);
    // A ferry the new tile's roads reach lies on one of their roads: skip
    // the walk when those roads hold no ferry but the one just placed.
    let roads = t.info().road_pieces;
    // Compared in line: `contains` on u16 is a call out of line.
    #[allow(clippy::manual_contains)]
    let seen = |roots: &[PieceId], r: PieceId| roots.iter().any(|&q| q == r);
    let mut roots = [NONE; 4];
    let mut k = 0;
    let mut links = 0;
    for p in t.pieces_in(roads) {
        let r = features.find(p);
        if k < roots.len() && !seen(&roots[..k], r) {
            roots[k] = r;
            k += 1;
            links += features.root_totals(r).links;
        }
    }
    if links <= own {
        return 0;
    }
    // With one other ferry on those roads, nothing stands between it and
    // the new tile: it is the one reached, and no walk is needed.
    if links == own + 1 {
        for (i, f) in ferries.ferries.iter().enumerate() {
            if f.tile as usize != new {
                let r = features.find(jetty_piece(board, f.tile as usize, f.jetties.sides()[0]));
                if seen(&roots[..k], r) {
                    return 1 << i;
                }
            }
        }
    }
    walk_to_ferries(ferries, view)
}

/// The walk of [`reachable_ferries`], when two or more other ferries lie
/// on the new tile's roads.
#[cold]
#[inline(never)]
fn walk_to_ferries(ferries: &Ferries, view: View) -> u32 {
    let View { board, features, placed: new } = view;
    let t = board.tile(new);
    let mut stack: Vec<PieceId> = Vec::new();
    for p in t.pieces_in(t.info().road_pieces) {
        let sides = piece_sides(board, features, p);
        for s in Side::ALL {
            if sides & s.bit() != 0 {
                stack.extend(piece_across(board, new, s));
            }
        }
    }
    let mut seen = PieceSet::default();
    let mut found = 0u32;
    while let Some(p) = stack.pop() {
        if !seen.insert(p) {
            continue;
        }
        let tile = features.info(p).tile as usize;
        let sides = piece_sides(board, features, p);
        let info = board.tile(tile).info();
        if info.def.features[features.info(p).local as usize].jetty {
            if let Some(i) = ferries.index_on(tile) {
                if ferries.ferries[i].jetties.mask() & sides != 0 {
                    found |= 1 << i;
                }
            }
            continue;
        }
        for s in Side::ALL {
            if sides & s.bit() != 0 {
                if let Some(q) = piece_across(board, tile, s) {
                    if features.info(q).tile as usize != new && !seen.contains(q) {
                        stack.push(q);
                    }
                }
            }
        }
    }
    found
}

pub(crate) fn legal_actions(step: Step, ferries: &Ferries, view: View, out: &mut Vec<Action>) {
    let board = view.board;
    match step {
        Step::PlaceFerry => {
            out.extend(pairs(jetty_sides(board, view.placed)).map(Action::PlaceFerry));
        }
        Step::MoveFerries => {
            let pending = ferries.pending();
            for (i, f) in ferries.ferries.iter().enumerate() {
                if pending & (1 << i) == 0 {
                    continue;
                }
                let at = board.tile(f.tile as usize).pos;
                for pair in pairs(jetty_sides(board, f.tile as usize)) {
                    if pair != f.jetties {
                        out.push(Action::MoveFerry { at, ferry: pair });
                    }
                }
            }
            out.push(Action::Pass);
        }
        _ => {}
    }
}

pub(crate) fn check(action: Action, step: Step, ferries: &Ferries, view: View) -> Result<(), PlayError> {
    let board = view.board;
    match action {
        Action::PlaceFerry(pair) => {
            if step != Step::PlaceFerry {
                return Err(PlayError::WrongStep { tried: "place a ferry", step });
            }
            if pair.mask() & !jetty_sides(board, view.placed) != 0 {
                return Err(PlayError::NotJetties(pair));
            }
            Ok(())
        }
        Action::MoveFerry { at, ferry } => {
            if step != Step::MoveFerries {
                return Err(PlayError::WrongStep { tried: "move a ferry", step });
            }
            let tile = board.tile_index(at).ok_or(PlayError::NoFerry(at))?;
            let i = ferries.index_on(tile).ok_or(PlayError::NoFerry(at))?;
            if ferries.movable & (1 << i) == 0 {
                return Err(PlayError::FerryNotMovable(at));
            }
            if ferries.moved & (1 << i) != 0 {
                return Err(PlayError::FerryMovedAlready(at));
            }
            if ferry.mask() & !jetty_sides(board, tile) != 0 {
                return Err(PlayError::NotJettiesOf { at, ferry });
            }
            if ferries.ferries[i].jetties == ferry {
                return Err(PlayError::SameJetties { at, ferry });
            }
            Ok(())
        }
        _ => unreachable!("only ferry actions come here"),
    }
}

/// Plays a checked ferry action (or the pass that ends the moves); true
/// when its step is over.
pub(crate) fn apply<E: EventSink>(action: Action, ferries: &mut Ferries, table: Table, events: &mut E) -> bool {
    let Table { board, features, followers, placed, acting: player } = table;
    match action {
        Action::PlaceFerry(pair) => {
            let [a, b] = pair.sides().map(|s| jetty_piece(board, placed, s));
            ferries.ferries.push(Ferry { tile: placed as u16, jetties: pair });
            features.set_link(a, b);
            features.join(a, b, Joint::Link);
            if E::ENABLED {
                events.push(Event::FerryPlaced { player, at: board.tile(placed).pos, ferry: pair });
            }
            true
        }
        Action::MoveFerry { at, ferry } => {
            let tile = board.tile_index(at).expect("move was checked");
            let i = ferries.index_on(tile).expect("move was checked");
            let from = ferries.ferries[i].jetties;
            // Only the road the ferry held together comes apart (F9): the
            // roads of the other jetties are whole, and the new link joins
            // what it reaches.
            let [a, _] = from.sides().map(|s| jetty_piece(board, tile, s));
            let mut set = PieceSet::default();
            let mut pieces = PieceList::<64>::new();
            for m in features.members(a) {
                set.insert(m);
                pieces.push(m);
            }
            features.set_link(a, NONE);
            let [c, d] = ferry.sides().map(|s| jetty_piece(board, tile, s));
            features.set_link(c, d);
            rejoin(board, features, followers, &set, pieces.as_slice());
            if !set.contains(c) && !set.contains(d) {
                features.join(c, d, Joint::Link);
            }
            ferries.ferries[i].jetties = ferry;
            ferries.moved |= 1 << i;
            if E::ENABLED {
                events.push(Event::FerryMoved { player, at, from, to: ferry });
            }
            false
        }
        Action::Pass => true,
        _ => unreachable!("only ferry actions come here"),
    }
}

/// Whether a ferry moved this turn.
#[inline]
pub(crate) fn touched_any(ferries: &Ferries) -> bool {
    ferries.moved & ferries.movable != 0
}

/// The jetty road pieces of the lakes whose ferries moved this turn: step
/// 5 checks the roads through them for completion (F9, F10).
pub(crate) fn touched(ferries: &Ferries, view: View, out: &mut Touched) {
    let mut moved = ferries.moved & ferries.movable;
    while moved != 0 {
        let i = moved.trailing_zeros() as usize;
        moved &= moved - 1;
        let tile = ferries.ferries[i].tile as usize;
        let sides = jetty_sides(view.board, tile);
        for s in Side::ALL {
            if sides & s.bit() != 0 {
                out.push(jetty_piece(view.board, tile, s));
            }
        }
    }
}
