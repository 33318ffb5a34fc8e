//! The observation: feature planes of the board around the placed tiles,
//! then the state's numbers, as one flat `f32` vector. `docs/python.md`
//! documents the layout; [`layout`] gives it as (name, shape) pieces.
//!
//! The board part is a square window of `2r + 1` cells a side centred on
//! the middle of the placed tiles' bounding box; tiles beyond it are left
//! out. Its planes are, per cell: a tile is there; road and city on each
//! side (N, E, S, W); pennants; monastery; lake; the ferry there joins each
//! side; the tile placed this turn; the drawn tile fits there turned 0, 90,
//! 180, 270 (at the placement step); a follower on a road, city, field,
//! monastery; then a follower of each player; then, only in games with
//! them, The River's planes (the river on each side), The Abbot's (a
//! garden, an abbot there) and The Labyrinth's (the labyrinth there).
//! Players are counted from the observer: plane or entry 0 is the
//! observer, 1 the next seat, and so on.

use carcassonne_engine::geometry::{Pos, Side};
use carcassonne_engine::tile::{EdgeKind, FeatureKind, NO_PIECE};
use carcassonne_engine::{Action, Expansion, FollowerKind, State, Step};

use crate::actions::Ids;

/// Board planes before the players' follower planes.
const PLANES: [&str; 25] = [
    "tile",
    "road_n",
    "road_e",
    "road_s",
    "road_w",
    "city_n",
    "city_e",
    "city_s",
    "city_w",
    "pennants",
    "monastery",
    "lake",
    "ferry_n",
    "ferry_e",
    "ferry_s",
    "ferry_w",
    "placed_this_turn",
    "fits_0",
    "fits_90",
    "fits_180",
    "fits_270",
    "follower_road",
    "follower_city",
    "follower_field",
    "follower_monastery",
];
const ROAD: usize = 1;
const CITY: usize = 5;
const PENNANTS: usize = 9;
const MONASTERY: usize = 10;
const LAKE: usize = 11;
const FERRY: usize = 12;
const PLACED: usize = 16;
const FITS: usize = 17;
const FOLLOWER_KIND: usize = 21;
const FOLLOWER_OF: usize = 25;

/// The River's planes, after the players' (in games with it).
const RIVER_PLANES: [&str; 4] = ["river_n", "river_e", "river_s", "river_w"];
/// The Abbot's planes, after those (in games with it).
const ABBOT_PLANES: [&str; 2] = ["garden", "follower_abbot"];
/// The Labyrinth's plane, last (in games with it).
const LABYRINTH_PLANES: [&str; 1] = ["labyrinth"];

/// The steps in the order of the `step` entries.
const STEPS: [Step; 6] = [Step::Draw, Step::Place, Step::Deploy, Step::PlaceFerry, Step::MoveFerries, Step::GameOver];

/// The shape of an observation: players, the window's radius `r`, and the
/// game's ids (the tile kinds it may draw, the expansions whose planes it has).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Shape {
    pub players: usize,
    pub radius: usize,
    pub ids: Ids,
}

impl Shape {
    pub fn side(&self) -> usize {
        2 * self.radius + 1
    }

    /// The planes of the expansions in play, after the players': their
    /// names and where each group starts.
    fn extra_planes(&self) -> Vec<&'static str> {
        let mut names = Vec::new();
        for (e, planes) in [
            (Expansion::River, &RIVER_PLANES[..]),
            (Expansion::Abbot, &ABBOT_PLANES[..]),
            (Expansion::Labyrinth, &LABYRINTH_PLANES[..]),
        ] {
            if self.ids.has(e) {
                names.extend_from_slice(planes);
            }
        }
        names
    }

    /// The plane named `name` among the expansions' planes, if in play.
    fn extra_plane(&self, name: &str) -> Option<usize> {
        self.extra_planes().iter().position(|n| *n == name).map(|i| PLANES.len() + self.players + i)
    }

    pub fn planes(&self) -> usize {
        PLANES.len() + self.players + self.extra_planes().len()
    }

    /// Names of the board planes, in order.
    pub fn plane_names(&self) -> Vec<String> {
        let mut names: Vec<String> = PLANES.iter().map(|s| s.to_string()).collect();
        names.extend((0..self.players).map(|p| format!("follower_player_{p}")));
        names.extend(self.extra_planes().iter().map(|s| s.to_string()));
        names
    }

    /// The pieces of the flat vector, in order: name and shape.
    pub fn layout(&self) -> Vec<(&'static str, Vec<usize>)> {
        let (p, k) = (self.players, self.ids.chance_outcomes() as usize);
        let mut pieces = vec![
            ("board", vec![self.planes(), self.side(), self.side()]),
            ("step", vec![STEPS.len()]),
            ("actor", vec![p]),
            ("drawn", vec![k]),
            ("bag", vec![k]),
            ("scores", vec![p]),
            ("supply", vec![p]),
            ("window", vec![2]),
            ("tiles_left", vec![1]),
        ];
        if self.ids.has(Expansion::Abbot) {
            pieces.push(("abbots", vec![p]));
        }
        pieces
    }

    pub fn size(&self) -> usize {
        self.layout().iter().map(|(_, s)| s.iter().product::<usize>()).sum()
    }

    /// Writes the observation of `state` by `observer` into `out`, which
    /// holds [`size`](Self::size) values.
    pub fn write(&self, state: &State, observer: usize, out: &mut [f32]) {
        out.fill(0.0);
        let (players, side) = (self.players, self.side());
        let rel = |p: usize| (p + players - observer % players) % players;
        let (board, rest) = out.split_at_mut(self.planes() * side * side);

        // The window: centred on the placed tiles' bounding box.
        let tiles = state.board().tiles();
        let (mut lo, mut hi) = (Pos::new(i32::MAX, i32::MAX), Pos::new(i32::MIN, i32::MIN));
        for t in tiles {
            lo = Pos::new(lo.x.min(t.pos.x), lo.y.min(t.pos.y));
            hi = Pos::new(hi.x.max(t.pos.x), hi.y.max(t.pos.y));
        }
        let r = self.radius as i64;
        let corner = (
            (i64::from(lo.x) + i64::from(hi.x)).div_euclid(2) - r,
            (i64::from(lo.y) + i64::from(hi.y)).div_euclid(2) - r,
        );
        let cell = |p: Pos| -> Option<usize> {
            let (col, row) = (i64::from(p.x) - corner.0, i64::from(p.y) - corner.1);
            let inside = |c: i64| (0..side as i64).contains(&c);
            (inside(col) && inside(row)).then(|| row as usize * side + col as usize)
        };
        let river = self.extra_plane(RIVER_PLANES[0]);
        let (garden, abbot) = (self.extra_plane(ABBOT_PLANES[0]), self.extra_plane(ABBOT_PLANES[1]));
        let labyrinth = self.extra_plane(LABYRINTH_PLANES[0]);
        let mut set = |plane: usize, at: usize, value: f32| board[plane * side * side + at] = value;

        for t in tiles {
            let Some(at) = cell(t.pos) else { continue };
            let info = t.kind.info();
            set(0, at, 1.0);
            let signature = info.oriented[t.rot.quarters() as usize].signature;
            for s in Side::ALL {
                match (signature >> (2 * s.index())) & 3 {
                    1 => set(ROAD + s.index(), at, 1.0),
                    2 => set(CITY + s.index(), at, 1.0),
                    e if e == EdgeKind::River as u8 => {
                        if let Some(r) = river {
                            set(r + s.index(), at, 1.0);
                        }
                    }
                    _ => {}
                }
            }
            if let (Some(g), true) = (garden, info.garden != NO_PIECE) {
                set(g, at, 1.0);
            }
            if let (Some(l), Some(Expansion::Labyrinth)) = (labyrinth, info.expansion) {
                set(l, at, 1.0);
            }
            let pennants: u32 = info.def.features.iter().map(|f| u32::from(f.pennants)).sum();
            set(PENNANTS, at, pennants as f32);
            if info.monastery != NO_PIECE {
                set(MONASTERY, at, 1.0);
            }
            if info.lake {
                set(LAKE, at, 1.0);
                if let Some(ferry) = state.ferry_at(t.pos) {
                    for s in ferry.jetties.sides() {
                        set(FERRY + s.index(), at, 1.0);
                    }
                }
            }
        }
        if let Some(at) = state.placed_tile().and_then(|t| cell(t.pos)) {
            set(PLACED, at, 1.0);
        }
        if let (Step::Place, Some(kind)) = (state.step(), state.drawn()) {
            if kind.info().river != 0 {
                // A river tile fits where it continues the river, not only by its edges.
                for a in state.legal_action_list() {
                    if let Some((p, at)) = if let Action::Place(p) = a { cell(p.pos).map(|at| (p, at)) } else { None } {
                        set(FITS + p.rot.quarters() as usize, at, 1.0);
                    }
                }
            } else {
                let oriented = &kind.info().oriented;
                for open in state.board().open_cells() {
                    let Some(at) = cell(open.pos) else { continue };
                    for (q, o) in oriented.iter().enumerate() {
                        if open.accepts(o.signature) {
                            set(FITS + q, at, 1.0);
                        }
                    }
                }
            }
        }
        for f in state.followers() {
            let (pos, loc) = state.piece_location(f.piece);
            let Some(at) = cell(pos) else { continue };
            let kind = match loc.kind() {
                FeatureKind::Road => 0,
                FeatureKind::City => 1,
                FeatureKind::Field => 2,
                FeatureKind::Monastery | FeatureKind::Garden => 3,
            };
            set(FOLLOWER_KIND + kind, at, 1.0);
            if let (Some(a), FollowerKind::Abbot) = (abbot, f.kind) {
                set(a, at, 1.0);
            }
            set(FOLLOWER_OF + rel(usize::from(f.player)), at, 1.0);
        }

        // The numbers, piece by piece as in `layout`.
        let k = self.ids.chance_outcomes() as usize;
        let mut pieces = Pieces { out: rest, at: 0 };
        let step = pieces.next(STEPS.len());
        if let Some(i) = STEPS.iter().position(|s| *s == state.step()) {
            step[i] = 1.0;
        }
        let actor = pieces.next(players);
        if let Some(carcassonne_engine::Actor::Player(p)) = state.actor() {
            actor[rel(p)] = 1.0;
        }
        let drawn = pieces.next(k);
        if let Some(i) = state.drawn().and_then(|kind| self.ids.kind_id(kind)) {
            drawn[i as usize] = 1.0;
        }
        for (kind, v) in self.ids.kinds().zip(pieces.next(k)) {
            *v = f32::from(state.bag().count(kind));
        }
        let scores = pieces.next(players);
        for (p, s) in state.scores().iter().enumerate() {
            scores[rel(p)] = *s as f32;
        }
        let supply = pieces.next(players);
        for (p, s) in crate::supplies(state).iter().enumerate() {
            supply[rel(p)] = *s as f32;
        }
        let window = pieces.next(2);
        window[0] = corner.0 as f32;
        window[1] = corner.1 as f32;
        pieces.next(1)[0] = f32::from(state.bag().total());
        if self.ids.has(Expansion::Abbot) {
            let abbots = pieces.next(players);
            for (p, s) in state.supply_of(FollowerKind::Abbot).iter().enumerate() {
                abbots[rel(p)] = f32::from(*s);
            }
        }
    }
}

/// The flat vector's numbers, handed out piece by piece.
struct Pieces<'a> {
    out: &'a mut [f32],
    at: usize,
}

impl Pieces<'_> {
    fn next(&mut self, n: usize) -> &mut [f32] {
        let start = self.at;
        self.at += n;
        &mut self.out[start..start + n]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne_engine::playout::random_action;
    use carcassonne_engine::{Edition, Expansion, Rules};
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn the_layout_adds_up_and_every_tile_of_a_game_is_seen() {
        let rules = Rules::new(3, &[Expansion::Ferries], Edition::C3).unwrap();
        let shape = Shape { players: 3, radius: 40, ids: Ids::for_rules(&rules) };
        let mut out = vec![0.0; shape.size()];
        let mut state = State::new(rules);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut buf = Vec::new();
        while let Some(a) = random_action(&state, &mut rng, &mut buf) {
            state.play(a).unwrap();
        }
        shape.write(&state, 1, &mut out);
        let cells = shape.side() * shape.side();
        let tiles: f32 = out[..cells].iter().sum();
        assert_eq!(tiles as usize, state.board().tiles().len());
        let followers: f32 = out[FOLLOWER_OF * cells..shape.planes() * cells].iter().sum();
        assert_eq!(followers as usize, state.followers().len());
        // The game is over: the step is the last one, the bag empty.
        let numbers = &out[shape.planes() * cells..];
        assert_eq!(&numbers[..6], &[0.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
        assert_eq!(*numbers.last().unwrap(), 0.0);
    }

    #[test]
    fn the_fit_planes_hold_exactly_the_legal_placements() {
        let rules = Rules::new(2, &[Expansion::Ferries], Edition::C3).unwrap();
        let shape = Shape { players: 2, radius: 80, ids: Ids::for_rules(&rules) };
        let mut out = vec![0.0; shape.size()];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let mut buf = Vec::new();
        let mut state = State::new(rules);
        let mut checked = 0;
        while let Some(a) = random_action(&state, &mut rng, &mut buf) {
            if state.step() == Step::Place {
                shape.write(&state, 0, &mut out);
                let cells = shape.side() * shape.side();
                let fits: f32 = out[FITS * cells..(FITS + 4) * cells].iter().sum();
                let legal = state
                    .legal_action_list()
                    .iter()
                    .filter(|a| matches!(a, carcassonne_engine::Action::Place(_)))
                    .count();
                assert_eq!(fits as usize, legal);
                checked += 1;
            }
            state.play(a).unwrap();
        }
        assert!(checked > 70);
    }
}
