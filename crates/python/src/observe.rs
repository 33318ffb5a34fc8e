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

use carcassonne_engine::board::PlacedTile;
use carcassonne_engine::geometry::{Pos, Side};
use carcassonne_engine::tile::{EdgeKind, FeatureKind, NO_PIECE};
use carcassonne_engine::{Action, Expansion, FollowerKind, State, Step, TileKind};

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

    /// The groups of planes of the expansions in play, in order, after the
    /// players' planes.
    fn extra_groups(&self) -> impl Iterator<Item = &'static [&'static str]> + '_ {
        [
            (Expansion::River, &RIVER_PLANES[..]),
            (Expansion::Abbot, &ABBOT_PLANES[..]),
            (Expansion::Labyrinth, &LABYRINTH_PLANES[..]),
        ]
        .into_iter()
        .filter(|(e, _)| self.ids.has(*e))
        .map(|(_, planes)| planes)
    }

    /// The planes of the expansions in play, after the players'.
    fn extra_planes(&self) -> Vec<&'static str> {
        self.extra_groups().flatten().copied().collect()
    }

    /// The plane named `name` among the expansions' planes, if in play.
    fn extra_plane(&self, name: &str) -> Option<usize> {
        self.extra_groups().flatten().position(|n| *n == name).map(|i| PLANES.len() + self.players + i)
    }

    pub fn planes(&self) -> usize {
        PLANES.len() + self.players + self.extra_groups().map(|g| g.len()).sum::<usize>()
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

    /// Values of the board planes.
    pub fn board_size(&self) -> usize {
        self.planes() * self.side() * self.side()
    }

    /// Values after the board planes (the numbers: step, actor, bag, ...).
    pub fn numbers_size(&self) -> usize {
        self.size() - self.board_size()
    }

    /// Writes the observation of `state` by `observer` into `out`, which
    /// holds [`size`](Self::size) values.
    pub fn write(&self, state: &State, observer: usize, out: &mut [f32]) {
        Observer::new(*self).write(state, observer, out);
    }
}

/// What a tile turned so shows on the planes that never change once it is
/// placed: a bit per plane of [`PLANES`] (below [`EXTRA`]), bits from
/// [`EXTRA`] on for the expansions' planes (river sides, garden,
/// labyrinth: where they go depends on the game), and its pennants.
#[derive(Clone, Copy, Default)]
struct Look {
    planes: u64,
    pennants: u8,
}

/// The first of [`Look`]'s bits for the expansions' planes: the river's
/// four sides, then a garden, then the labyrinth.
const EXTRA: u32 = 48;
const EXTRA_GARDEN: u32 = EXTRA + 4;
const EXTRA_LABYRINTH: u32 = EXTRA + 5;

/// Every tile kind's look at each rotation, by kind index.
fn looks() -> &'static [[Look; 4]] {
    static LOOKS: std::sync::OnceLock<Vec<[Look; 4]>> = std::sync::OnceLock::new();
    LOOKS.get_or_init(|| {
        TileKind::all()
            .map(|kind| {
                let info = kind.info();
                let mut looks = [Look::default(); 4];
                for (q, look) in looks.iter_mut().enumerate() {
                    let mut planes = 1u64 << 0;
                    let signature = info.oriented[q].signature;
                    for s in Side::ALL {
                        match (signature >> (2 * s.index())) & 3 {
                            1 => planes |= 1 << (ROAD + s.index()),
                            2 => planes |= 1 << (CITY + s.index()),
                            e if e == EdgeKind::River as u8 => planes |= 1 << (EXTRA as usize + s.index()),
                            _ => {}
                        }
                    }
                    if info.garden != NO_PIECE {
                        planes |= 1 << EXTRA_GARDEN;
                    }
                    if info.expansion == Some(Expansion::Labyrinth) {
                        planes |= 1 << EXTRA_LABYRINTH;
                    }
                    if info.monastery != NO_PIECE {
                        planes |= 1 << MONASTERY;
                    }
                    if info.lake {
                        planes |= 1 << LAKE;
                    }
                    let pennants: u32 = info.def.features.iter().map(|f| u32::from(f.pennants)).sum();
                    *look = Look { planes, pennants: pennants.min(255) as u8 };
                }
                looks
            })
            .collect()
    })
}

/// A [`Shape`] with what writing its observations needs worked out once:
/// the chance ids of the kinds and the expansions' planes. Writing
/// allocates nothing.
pub struct Observer {
    pub shape: Shape,
    /// By kind index: its chance id, if this game draws it.
    kind_ids: Vec<Option<u16>>,
    /// The kinds chance's ids number, in id order.
    kinds: Vec<TileKind>,
    /// The plane of each of [`Look`]'s bits from [`EXTRA`] on, in this game.
    extra: [Option<usize>; 6],
    abbot: Option<usize>,
    board_size: usize,
    numbers_size: usize,
}

impl Observer {
    pub fn new(shape: Shape) -> Observer {
        let river = shape.extra_plane(RIVER_PLANES[0]);
        let mut extra = [None; 6];
        for (i, e) in extra.iter_mut().take(4).enumerate() {
            *e = river.map(|r| r + i);
        }
        extra[4] = shape.extra_plane(ABBOT_PLANES[0]);
        extra[5] = shape.extra_plane(LABYRINTH_PLANES[0]);
        let kinds: Vec<TileKind> = shape.ids.kinds().collect();
        let mut kind_ids = vec![None; TileKind::all().count()];
        for (id, k) in kinds.iter().enumerate() {
            kind_ids[k.index()] = Some(id as u16);
        }
        let board_size = shape.board_size();
        let numbers_size = shape.size() - board_size;
        Observer { shape, kind_ids, kinds, extra, abbot: shape.extra_plane(ABBOT_PLANES[1]), board_size, numbers_size }
    }

    pub fn size(&self) -> usize {
        self.board_size + self.numbers_size
    }

    pub fn board_size(&self) -> usize {
        self.board_size
    }

    pub fn numbers_size(&self) -> usize {
        self.numbers_size
    }

    /// Writes the observation of `state` by `observer` into `out`, which
    /// holds [`size`](Self::size) values.
    pub fn write(&self, state: &State, observer: usize, out: &mut [f32]) {
        let (board, rest) = out.split_at_mut(self.board_size);
        let corner = self.write_board(state, observer, board);
        self.write_numbers(state, observer, corner, rest);
    }

    /// Writes the board planes ([`board_size`](Self::board_size) values, as
    /// `f32` or, compact, as `u8`: every value is a small count) and
    /// returns the window's corner, the board position of row 0, column 0.
    pub fn write_board<V: Plane>(&self, state: &State, observer: usize, board: &mut [V]) -> (i64, i64) {
        let mut canvas = Canvas::default();
        self.redraw(state, observer, board, &mut canvas, false);
        canvas.corner.unwrap_or_default()
    }

    /// As [`write_board`](Self::write_board), into a board that `canvas`
    /// says what it holds: it was written by this function for the same
    /// game, a few actions ago, and nothing else wrote to it since. Only
    /// the difference is written (the tiles placed since, and the figures,
    /// ferries and fits, cleared and drawn again) unless the window moved.
    pub fn update_board<V: Plane>(
        &self,
        state: &State,
        observer: usize,
        board: &mut [V],
        canvas: &mut Canvas,
    ) -> (i64, i64) {
        let tiles = state.board().tiles();
        let before = canvas.corner;
        if before.is_none() || canvas.tiles > tiles.len() {
            return self.redraw(state, observer, board, canvas, true);
        }
        let corner = self.corner(tiles, canvas);
        if before != Some(corner) {
            return self.redraw(state, observer, board, canvas, true);
        }
        for at in canvas.dynamic.drain(..) {
            board[at as usize] = V::of(0);
        }
        self.draw_tiles(&tiles[canvas.tiles..], corner, board);
        canvas.tiles = tiles.len();
        self.draw_dynamic(state, observer, corner, board, Some(&mut canvas.dynamic));
        corner
    }

    fn redraw<V: Plane>(
        &self,
        state: &State,
        observer: usize,
        board: &mut [V],
        canvas: &mut Canvas,
        record: bool,
    ) -> (i64, i64) {
        board.fill(V::of(0));
        let tiles = state.board().tiles();
        *canvas = Canvas { dynamic: std::mem::take(&mut canvas.dynamic), ..Canvas::default() };
        canvas.dynamic.clear();
        let corner = self.corner(tiles, canvas);
        canvas.corner = Some(corner);
        self.draw_tiles(tiles, corner, board);
        canvas.tiles = tiles.len();
        self.draw_dynamic(state, observer, corner, board, record.then_some(&mut canvas.dynamic));
        corner
    }

    /// The window's corner: centred on the placed tiles' bounding box,
    /// which `canvas` keeps for the tiles it has seen.
    fn corner(&self, tiles: &[PlacedTile], canvas: &mut Canvas) -> (i64, i64) {
        if canvas.tiles == 0 {
            canvas.lo = Pos::new(i32::MAX, i32::MAX);
            canvas.hi = Pos::new(i32::MIN, i32::MIN);
        }
        for t in &tiles[canvas.tiles..] {
            canvas.lo = Pos::new(canvas.lo.x.min(t.pos.x), canvas.lo.y.min(t.pos.y));
            canvas.hi = Pos::new(canvas.hi.x.max(t.pos.x), canvas.hi.y.max(t.pos.y));
        }
        let r = self.shape.radius as i64;
        let (lo, hi) = (canvas.lo, canvas.hi);
        ((i64::from(lo.x) + i64::from(hi.x)).div_euclid(2) - r, (i64::from(lo.y) + i64::from(hi.y)).div_euclid(2) - r)
    }

    /// The cell of the window at board position `p`, if inside.
    fn cell(&self, corner: (i64, i64), p: Pos) -> Option<usize> {
        let side = self.shape.side();
        let (col, row) = (i64::from(p.x) - corner.0, i64::from(p.y) - corner.1);
        let inside = |c: i64| (0..side as i64).contains(&c);
        (inside(col) && inside(row)).then(|| row as usize * side + col as usize)
    }

    /// The planes a tile keeps once placed: its edges, pennants, monastery,
    /// lake and the expansions' own.
    fn draw_tiles<V: Plane>(&self, tiles: &[PlacedTile], corner: (i64, i64), board: &mut [V]) {
        let plane = self.shape.side() * self.shape.side();
        let looks = looks();
        for t in tiles {
            let Some(at) = self.cell(corner, t.pos) else { continue };
            let look = looks[t.kind.index()][t.rot.quarters() as usize];
            let mut bits = look.planes;
            while bits != 0 {
                let bit = bits.trailing_zeros();
                if bit < EXTRA {
                    board[bit as usize * plane + at] = V::of(1);
                } else if let Some(p) = self.extra[(bit - EXTRA) as usize] {
                    board[p * plane + at] = V::of(1);
                }
                bits &= bits - 1;
            }
            if look.pennants > 0 {
                board[PENNANTS * plane + at] = V::of(look.pennants);
            }
        }
    }

    /// The planes that change as the game goes on: ferries, the tile
    /// placed this turn, where the drawn tile fits, the figures. With
    /// `record`, the indices written are pushed there (to clear next time).
    fn draw_dynamic<V: Plane>(
        &self,
        state: &State,
        observer: usize,
        corner: (i64, i64),
        board: &mut [V],
        mut record: Option<&mut Vec<u32>>,
    ) {
        let players = self.shape.players;
        let rel = |p: usize| (p + players - observer % players) % players;
        let plane = self.shape.side() * self.shape.side();
        let mut set = |plane_index: usize, at: usize| {
            let i = plane_index * plane + at;
            board[i] = V::of(1);
            if let Some(r) = record.as_deref_mut() {
                r.push(i as u32);
            }
        };
        for ferry in state.ferries().all() {
            let Some(at) = self.cell(corner, state.board().tile(ferry.tile as usize).pos) else { continue };
            for s in ferry.jetties.sides() {
                set(FERRY + s.index(), at);
            }
        }
        if let Some(at) = state.placed_tile().and_then(|t| self.cell(corner, t.pos)) {
            set(PLACED, at);
        }
        if let (Step::Place, Some(kind)) = (state.step(), state.drawn()) {
            if kind.info().river != 0 {
                // A river tile fits where it continues the river, not only by its edges.
                for a in state.legal_action_list() {
                    if let Action::Place(p) = a {
                        if let Some(at) = self.cell(corner, p.pos) {
                            set(FITS + p.rot.quarters() as usize, at);
                        }
                    }
                }
            } else {
                let oriented = &kind.info().oriented;
                for open in state.board().open_cells() {
                    let Some(at) = self.cell(corner, open.pos) else { continue };
                    for (q, o) in oriented.iter().enumerate() {
                        if open.accepts(o.signature) {
                            set(FITS + q, at);
                        }
                    }
                }
            }
        }
        for f in state.followers() {
            let (pos, loc) = state.piece_location(f.piece);
            let Some(at) = self.cell(corner, pos) else { continue };
            let kind = match loc.kind() {
                FeatureKind::Road => 0,
                FeatureKind::City => 1,
                FeatureKind::Field => 2,
                FeatureKind::Monastery | FeatureKind::Garden => 3,
            };
            set(FOLLOWER_KIND + kind, at);
            if let (Some(a), FollowerKind::Abbot) = (self.abbot, f.kind) {
                set(a, at);
            }
            set(FOLLOWER_OF + rel(usize::from(f.player)), at);
        }
    }

    /// Writes the numbers after the board planes
    /// ([`numbers_size`](Self::numbers_size) values).
    pub fn write_numbers(&self, state: &State, observer: usize, corner: (i64, i64), rest: &mut [f32]) {
        rest.fill(0.0);
        let players = self.shape.players;
        let rel = |p: usize| (p + players - observer % players) % players;
        // The numbers, piece by piece as in `layout`.
        let k = self.kinds.len();
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
        if let Some(i) = state.drawn().and_then(|kind| self.kind_ids[kind.index()]) {
            drawn[usize::from(i)] = 1.0;
        }
        let bag = state.bag();
        for (kind, v) in self.kinds.iter().zip(pieces.next(k)) {
            *v = f32::from(bag.count(*kind));
        }
        let scores = pieces.next(players);
        for (p, s) in state.scores().iter().enumerate() {
            scores[rel(p)] = *s as f32;
        }
        let supply = pieces.next(players);
        for (p, s) in state.supply().iter().enumerate() {
            supply[rel(p)] = f32::from(*s);
        }
        let window = pieces.next(2);
        window[0] = corner.0 as f32;
        window[1] = corner.1 as f32;
        pieces.next(1)[0] = f32::from(bag.total());
        if self.shape.ids.has(Expansion::Abbot) {
            let abbots = pieces.next(players);
            for (p, s) in state.supply_of(FollowerKind::Abbot).iter().enumerate() {
                abbots[rel(p)] = f32::from(*s);
            }
        }
    }
}

/// What a board written by [`Observer::update_board`] holds: the window's
/// corner, the tiles drawn (the first so many of the board's, whose
/// bounding box is `lo`..`hi`), and the indices of the values that change
/// (figures, ferries, fits), to clear before they are drawn again.
#[derive(Clone, Debug, Default)]
pub struct Canvas {
    corner: Option<(i64, i64)>,
    tiles: usize,
    lo: Pos,
    hi: Pos,
    dynamic: Vec<u32>,
}

impl Canvas {
    /// Forgets what the board holds: the next update writes it whole.
    pub fn forget(&mut self) {
        self.corner = None;
        self.tiles = 0;
        self.dynamic.clear();
    }
}

/// A value of a board plane: `f32` in the flat observation, `u8` in the
/// compact one.
pub trait Plane: Copy + Send {
    fn of(value: u8) -> Self;
}

impl Plane for f32 {
    fn of(value: u8) -> f32 {
        f32::from(value)
    }
}

impl Plane for u8 {
    fn of(value: u8) -> u8 {
        value
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
