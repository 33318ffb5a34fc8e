//! The Ferries (mini expansion #3): lake tiles, placing and moving ferries.
//!
//! It plugs into the base game at three points: its [`TILES`], two steps of
//! the turn plan (`PlaceFerry` and `MoveFerries`, rulings F3 to F8), and the
//! roads it touched, which step 5 checks for completion (F9, F10). A ferry is
//! a link between two jetty road pieces of its lake; moving it takes the
//! roads through that lake apart and joins them again (`State::rejoin`).

use crate::action::{Action, JettyPair};
use crate::error::PlayError;
use crate::event::{Event, EventSink};
use crate::features::{Joint, PieceId, PieceSet, NONE};
use crate::geometry::HalfEdge::{Ene, Ese, Nne, Nnw, Sse, Ssw, Wnw, Wsw};
use crate::geometry::Pos;
use crate::geometry::Side::{self, E, N, S, W};
use crate::setup::Expansion;
use crate::state::{rotate_sides, State};
use crate::tile::{city, field, jetty, TileDef, TileSet};

/// The 8 lake tiles (F1). Each is like L, W or X of the base game with a
/// lake where the village is: every road ends at a jetty.
pub static TILES: TileSet = TileSet {
    expansion: Some(Expansion::Ferries),
    tiles: &[
        (
            TileDef {
                id: "FC",
                features: &[
                    city(&[N]),
                    jetty(E),
                    jetty(S),
                    jetty(W),
                    field(&[Wnw, Ene], &[0]),
                    field(&[Wsw, Ssw], &[]),
                    field(&[Ese, Sse], &[]),
                ],
            },
            3,
            3,
        ),
        (
            TileDef {
                id: "F3",
                features: &[
                    jetty(E),
                    jetty(S),
                    jetty(W),
                    field(&[Wnw, Nnw, Nne, Ene], &[]),
                    field(&[Ese, Sse], &[]),
                    field(&[Ssw, Wsw], &[]),
                ],
            },
            3,
            4,
        ),
        (
            TileDef {
                id: "F4",
                features: &[
                    jetty(N),
                    jetty(E),
                    jetty(S),
                    jetty(W),
                    field(&[Wnw, Nnw], &[]),
                    field(&[Nne, Ene], &[]),
                    field(&[Ese, Sse], &[]),
                    field(&[Ssw, Wsw], &[]),
                ],
            },
            2,
            1,
        ),
    ],
};

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
    ferries: Vec<Ferry>,
    /// Ferries (bit per index) that may move this turn (F6, fixed by F7).
    movable: u32,
    /// Ferries moved this turn.
    moved: u32,
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

    fn index_on(&self, tile: usize) -> Option<usize> {
        self.ferries.iter().position(|f| f.tile as usize == tile)
    }

    /// Ferries that may still move this turn.
    fn pending(&self) -> u32 {
        self.movable & !self.moved
    }
}

impl State {
    /// The ferry on the lake at `at`, if any.
    pub fn ferry_at(&self, at: Pos) -> Option<Ferry> {
        let t = self.board.tile_index(at)?;
        self.ferries.index_on(t).map(|i| self.ferries.ferries[i])
    }

    /// Ferries that may still move this turn (during the MoveFerries step).
    pub fn movable_ferries(&self) -> impl Iterator<Item = Pos> + '_ {
        let pending = self.ferries.pending();
        self.ferries
            .ferries
            .iter()
            .enumerate()
            .filter(move |(i, _)| pending & (1 << i) != 0)
            .map(|(_, f)| self.board.tile(f.tile as usize).pos)
    }
}

/// Jetty sides of a lake tile as it lies on the board.
fn jetty_sides(state: &State, tile: usize) -> u8 {
    let t = state.board.tile(tile);
    rotate_sides(t.kind.info().jetties, t.rot)
}

/// Every pair of jetties among `sides`.
fn pairs(sides: u8) -> impl Iterator<Item = JettyPair> {
    (1u8..16).filter(move |m| m.count_ones() == 2 && m & !sides == 0).map(JettyPair::from_mask)
}

fn jetty_piece(state: &State, tile: usize, side: Side) -> PieceId {
    let t = state.board.tile(tile);
    let local = t.kind.info().oriented[t.rot.quarters() as usize].side_piece[side.index()];
    t.first_piece + local as PieceId
}

/// Step 3 applies when the tile just placed has a lake.
pub(crate) fn enter_place(state: &mut State) -> bool {
    state.rules.has(Expansion::Ferries) && state.board.tile(state.placed).kind.info().lake
}

/// Step 4 applies when some ferry may move (F6); the set is fixed now (F7).
pub(crate) fn enter_moves(state: &mut State) -> bool {
    state.ferries.moved = 0;
    state.ferries.movable = if state.ferries.ferries.is_empty() { 0 } else { reachable_ferries(state) };
    state.ferries.movable != 0
}

/// F6: follow every road of the new tile away from it, across edges, and
/// collect the first ferry met on each branch. A jetty ends the walk: with a
/// ferry it is that ferry; without one, the road ends there.
fn reachable_ferries(state: &State) -> u32 {
    let new = state.placed;
    let t = state.board.tile(new);
    // A ferry the new tile's roads reach lies on one of their roads: skip
    // the walk when those roads hold no ferry but the one just placed.
    let n = t.kind.info().pieces() as PieceId;
    let mut roots = [NONE; 4];
    let mut k = 0;
    let mut links = 0;
    for p in t.first_piece..t.first_piece + n {
        if state.features.info(p).kind == crate::tile::FeatureKind::Road {
            let r = state.features.find(p);
            if !roots[..k].contains(&r) && k < roots.len() {
                roots[k] = r;
                k += 1;
                links += state.features.totals(r).links;
            }
        }
    }
    let own = state.ferries.index_on(new).is_some() as u16;
    if links <= own {
        return 0;
    }
    // With one other ferry on those roads, nothing stands between it and
    // the new tile: it is the one reached, and no walk is needed.
    if links == own + 1 {
        for (i, f) in state.ferries.ferries.iter().enumerate() {
            if f.tile as usize != new {
                let r = state.features.find(jetty_piece(state, f.tile as usize, f.jetties.sides()[0]));
                if roots[..k].contains(&r) {
                    return 1 << i;
                }
            }
        }
    }
    let mut stack: Vec<PieceId> = Vec::new();
    for p in t.first_piece..t.first_piece + n {
        if state.features.info(p).kind != crate::tile::FeatureKind::Road {
            continue;
        }
        let sides = state.piece_sides(p);
        for s in Side::ALL {
            if sides & s.bit() != 0 {
                stack.extend(state.piece_across(new, s));
            }
        }
    }
    let mut seen = PieceSet::default();
    let mut found = 0u32;
    while let Some(p) = stack.pop() {
        if !seen.insert(p) {
            continue;
        }
        let tile = state.features.info(p).tile as usize;
        let sides = state.piece_sides(p);
        let info = state.board.tile(tile).kind.info();
        if info.def.features[state.features.info(p).local as usize].jetty {
            if let Some(i) = state.ferries.index_on(tile) {
                if state.ferries.ferries[i].jetties.mask() & sides != 0 {
                    found |= 1 << i;
                }
            }
            continue;
        }
        for s in Side::ALL {
            if sides & s.bit() != 0 {
                if let Some(q) = state.piece_across(tile, s) {
                    if state.features.info(q).tile as usize != new && !seen.contains(q) {
                        stack.push(q);
                    }
                }
            }
        }
    }
    found
}

pub(crate) fn legal_actions(state: &State, out: &mut Vec<Action>) {
    match state.step() {
        crate::action::Step::PlaceFerry => {
            out.extend(pairs(jetty_sides(state, state.placed)).map(Action::PlaceFerry));
        }
        crate::action::Step::MoveFerries => {
            let pending = state.ferries.pending();
            for (i, f) in state.ferries.ferries.iter().enumerate() {
                if pending & (1 << i) == 0 {
                    continue;
                }
                let at = state.board.tile(f.tile as usize).pos;
                for pair in pairs(jetty_sides(state, f.tile as usize)) {
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

pub(crate) fn check(state: &State, action: Action) -> Result<(), PlayError> {
    use crate::action::Step;
    match action {
        Action::PlaceFerry(pair) => {
            if state.step() != Step::PlaceFerry {
                return Err(PlayError::WrongStep { tried: "place a ferry", step: state.step() });
            }
            if pair.mask() & !jetty_sides(state, state.placed) != 0 {
                return Err(PlayError::NotJetties(pair));
            }
            Ok(())
        }
        Action::MoveFerry { at, ferry } => {
            if state.step() != Step::MoveFerries {
                return Err(PlayError::WrongStep { tried: "move a ferry", step: state.step() });
            }
            let tile = state.board.tile_index(at).ok_or(PlayError::NoFerry(at))?;
            let i = state.ferries.index_on(tile).ok_or(PlayError::NoFerry(at))?;
            if state.ferries.movable & (1 << i) == 0 {
                return Err(PlayError::FerryNotMovable(at));
            }
            if state.ferries.moved & (1 << i) != 0 {
                return Err(PlayError::FerryMovedAlready(at));
            }
            if ferry.mask() & !jetty_sides(state, tile) != 0 {
                return Err(PlayError::NotJettiesOf { at, ferry });
            }
            if state.ferries.ferries[i].jetties == ferry {
                return Err(PlayError::SameJetties { at, ferry });
            }
            Ok(())
        }
        _ => unreachable!("only ferry actions come here"),
    }
}

/// Plays a checked ferry action.
pub(crate) fn apply<E: EventSink>(state: &mut State, action: Action, events: &mut E) {
    let player = state.current_player();
    match action {
        Action::PlaceFerry(pair) => {
            let tile = state.placed;
            let [a, b] = pair.sides().map(|s| jetty_piece(state, tile, s));
            state.ferries.ferries.push(Ferry { tile: tile as u16, jetties: pair });
            state.features.set_link(a, b);
            state.features.join(a, b, Joint::Link);
            if E::ENABLED {
                events.push(Event::FerryPlaced { player, at: state.board.tile(tile).pos, ferry: pair });
            }
        }
        Action::MoveFerry { at, ferry } => {
            let tile = state.board.tile_index(at).expect("move was checked");
            let i = state.ferries.index_on(tile).expect("move was checked");
            let from = state.ferries.ferries[i].jetties;
            // Take apart every road through this lake, relink, join again (F9).
            let mut pieces = PieceSet::default();
            for s in Side::ALL {
                if jetty_sides(state, tile) & s.bit() != 0 {
                    let jetty = jetty_piece(state, tile, s);
                    if !pieces.contains(jetty) {
                        for m in state.features.members(jetty) {
                            pieces.insert(m);
                        }
                    }
                }
            }
            let [a, _] = from.sides().map(|s| jetty_piece(state, tile, s));
            state.features.set_link(a, NONE);
            let [a, b] = ferry.sides().map(|s| jetty_piece(state, tile, s));
            state.features.set_link(a, b);
            state.rejoin(&pieces);
            state.ferries.ferries[i].jetties = ferry;
            state.ferries.moved |= 1 << i;
            if E::ENABLED {
                events.push(Event::FerryMoved { player, at, from, to: ferry });
            }
        }
        _ => unreachable!("only ferry actions come here"),
    }
}

/// Ferries (bit per index) moved this turn: step 5 checks the roads through
/// their lakes for completion (F9, F10).
pub(crate) fn moved_this_turn(state: &State) -> u32 {
    state.ferries.moved & state.ferries.movable
}

/// The jetty road pieces of ferry `i`'s lake, [`NONE`] where there is none.
pub(crate) fn jetty_pieces(state: &State, i: usize) -> [PieceId; 4] {
    let tile = state.ferries.ferries[i].tile as usize;
    let sides = jetty_sides(state, tile);
    Side::ALL.map(|s| if sides & s.bit() != 0 { jetty_piece(state, tile, s) } else { NONE })
}
