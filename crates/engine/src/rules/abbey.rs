//! Abbey & Mayor as a rules module: its 12 tiles, the abbey each player may
//! place in a hole instead of drawing, the mayor, the wagon and the barn.
//!
//! Its hooks: its [`TILES`] (ids `M1` to `M12`, and the abbey `AB`, which
//! is never in the bag), its [`FIGURES`] (a mayor, a wagon and a barn
//! each; their strength is in [`super::strength`]), the step before the
//! draw ([`Step::Abbey`]), where each figure may stand ([`stands_on`]),
//! the features an abbey ends ([`touched`]), the barn's corners and farms,
//! and where a wagon may go once its feature is scored ([`wagon_targets`],
//! the second edition's rule: JCloisterZone's default `wagon-move: C2`).
//!
//! The state keeps what the board does not show: the abbeys still in
//! hand, where each barn stands, the wagons waiting to move, and the final
//! round of abbeys after the last tile ([`AbbeyMayor`]).

use crate::action::{Location, Step};
use crate::board::Board;
use crate::features::{Features, PieceId};
use crate::geometry::HalfEdge::{Ene, Ese, Nne, Nnw, Sse, Ssw, Wnw, Wsw};
use crate::geometry::Side::{E, N, S, W};
use crate::geometry::{Corner, Pos, Side};
use crate::setup::{Expansion, MAX_PLAYERS};
use crate::state::{Follower, FollowerKind};
use crate::tile::{
    city, city_with_pennant, city_with_pennants, field, monastery, road, tile, FeatureKind, TileKind, TileSet, NO_PIECE,
};

use super::{Touched, View};

/// Figures each player has besides the base game's: a mayor, a wagon and a barn.
pub const FIGURES: &[(FollowerKind, u8)] =
    &[(FollowerKind::Mayor, 1), (FollowerKind::Wagon, 1), (FollowerKind::Barn, 1)];

/// Abbeys each player has (not in the bag), unless the rules say otherwise.
pub const ABBEYS: u8 = 1;

/// The abbey tile's id.
pub const ABBEY: &str = "AB";

/// Points per completed city a farm scores to its farmers when a barn joins it.
pub(crate) const BARN_PLACED_FARM_POINTS: u32 = 3;
/// Points per completed city a farm with a barn scores to farmers a new
/// tile joins to it (and at the end, to any farmers still there).
pub(crate) const BARN_JOINED_FARM_POINTS: u32 = 1;
/// Points per completed city a farm scores at the end to each player with
/// a barn there.
pub(crate) const BARN_END_POINTS: u32 = 4;

/// Its step before the draw.
pub const STEPS_BEFORE_DRAW: &[Step] = &[Step::Abbey];

/// The 12 tiles of JCloisterZone's set `abbey-and-mayor:1`, one of each,
/// at rotation 0, and the abbey (count 0: each player holds one).
pub static TILES: TileSet = TileSet {
    expansion: Some(Expansion::Abbey),
    tiles: &[
        // C with two pennants.
        tile!("M1", 1, [city_with_pennants(&[N, E, S, W], 2)]),
        // Two cities crossing, N-S with a pennant and W-E, with a field
        // inside each pair of corners between them.
        tile!("M2", 1, [city_with_pennant(&[N, S]), city(&[W, E]), field(&[], &[0, 1]), field(&[], &[0, 1])]),
        // A cap N with a pennant over a band W-E; a field inside between
        // them and one along the south edge (JCloisterZone has it border
        // both cities).
        tile!("M3", 1, [city_with_pennant(&[N]), city(&[W, E]), field(&[], &[0, 1]), field(&[Sse, Ssw], &[0, 1])]),
        // Caps N and W; roads from E and from S end at them.
        tile!(
            "M4",
            1,
            [
                city(&[N]),
                city(&[W]),
                road(&[E]),
                road(&[S]),
                field(&[Ene], &[0]),
                field(&[Ssw], &[1]),
                field(&[Ese, Sse], &[0, 1]),
            ]
        ),
        // X with a monastery where the four roads end.
        tile!(
            "M5",
            1,
            [
                monastery(),
                road(&[N]),
                road(&[W]),
                road(&[S]),
                road(&[E]),
                field(&[Nnw, Wnw], &[]),
                field(&[Nne, Ene], &[]),
                field(&[Ese, Sse], &[]),
                field(&[Ssw, Wsw], &[]),
            ]
        ),
        // A cap N; a road from W ends at it.
        tile!("M6", 1, [city(&[N]), road(&[W]), field(&[Wnw], &[0]), field(&[Ene, Ese, Sse, Ssw, Wsw], &[0])]),
        // J with its north-east field cut off by the city wall.
        tile!(
            "M7",
            1,
            [city(&[N]), road(&[E, S]), field(&[Ssw, Wsw, Wnw], &[0]), field(&[Ene], &[0]), field(&[Ese, Sse], &[])]
        ),
        // K with its north-west field cut off by the city wall.
        tile!(
            "M8",
            1,
            [city(&[N]), road(&[S, W]), field(&[Ene, Ese, Sse], &[0]), field(&[Wnw], &[0]), field(&[Ssw, Wsw], &[])]
        ),
        // A cap W with a pennant, its wall cutting three fields apart.
        tile!(
            "M9",
            1,
            [city_with_pennant(&[W]), field(&[Nnw, Nne], &[0]), field(&[Ene, Ese], &[0]), field(&[Sse, Ssw], &[0])]
        ),
        // A road from S that ends in the middle of one field.
        tile!("M10", 1, [road(&[S]), field(&[Nnw, Nne, Ene, Ese, Sse, Ssw, Wsw, Wnw], &[])]),
        // A roundabout: one road with three legs, N, E and W (a branched road).
        tile!(
            "M11",
            1,
            [road(&[N, E, W]), field(&[Nnw, Wnw], &[]), field(&[Nne, Ene], &[]), field(&[Ese, Sse, Ssw, Wsw], &[])]
        ),
        // A band W-E with a pennant; the road N-S runs under it.
        tile!(
            "M12",
            1,
            [
                city_with_pennant(&[W, E]),
                road(&[N, S]),
                field(&[Sse, Ssw], &[0]),
                field(&[Nnw], &[0]),
                field(&[Nne], &[0]),
            ]
        ),
        // The abbey: a monastery whose edges match anything.
        tile!("AB", 0, [monastery()]),
    ],
};

/// The abbey tile kind.
pub fn abbey_tile() -> TileKind {
    TileKind::parse(ABBEY).expect("the catalogue has the abbey")
}

/// A barn on the board: its owner's figure stands on `piece`, the field of
/// tile `tile` at `corner`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Barn {
    pub player: u8,
    pub tile: u16,
    pub corner: Corner,
    pub piece: PieceId,
}

/// A wagon whose feature was scored, waiting for its owner to move it on
/// from the tile it stood on (and the feature it stood on there).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct WaitingWagon {
    pub player: u8,
    pub tile: u16,
    pub location: Location,
    /// The piece it stood on, of the feature just scored.
    pub piece: PieceId,
}

/// What Abbey & Mayor keeps in the state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AbbeyMayor {
    /// Abbeys each player still holds.
    pub abbeys: [u8; MAX_PLAYERS],
    pub barns: Vec<Barn>,
    /// Wagons to move after this turn's scoring, in the order their owners decide.
    pub waiting: Vec<WaitingWagon>,
    /// After the last tile: how many players are still to be offered their
    /// abbey (`None` before that final round).
    pub final_round: Option<u8>,
    /// A barn placed this turn: the farm it joined scores at once.
    pub new_barn: Option<PieceId>,
}

impl AbbeyMayor {
    pub(crate) fn new(rules: &crate::setup::Rules) -> AbbeyMayor {
        let mut abbeys = [0; MAX_PLAYERS];
        abbeys[..rules.players()].fill(rules.abbeys());
        AbbeyMayor { abbeys, ..AbbeyMayor::default() }
    }

    pub(crate) fn clone_from(&mut self, source: &AbbeyMayor) {
        self.abbeys = source.abbeys;
        self.barns.clone_from(&source.barns);
        self.waiting.clone_from(&source.waiting);
        self.final_round = source.final_round;
        self.new_barn = source.new_barn;
    }
}

/// Whether `pos` is a hole: empty, with a tile on each of its four sides.
pub(crate) fn is_hole(board: &Board, pos: Pos) -> bool {
    board.tile_index(pos).is_none() && Side::ALL.into_iter().all(|s| board.tile_index(pos.step(s)).is_some())
}

/// Every hole of the board.
pub(crate) fn holes(board: &Board) -> impl Iterator<Item = Pos> + '_ {
    board.open_cells().iter().filter(|c| c.surrounded()).map(|c| c.pos)
}

/// Whether a figure of `kind` may stand on a feature of kind `on`; if not,
/// why, in the words of the rules. The barn stands on field corners only
/// ([`barn_corner`]).
pub(crate) fn stands_on(kind: FollowerKind, on: FeatureKind) -> Result<(), &'static str> {
    match (kind, on) {
        (FollowerKind::Mayor, FeatureKind::City) => Ok(()),
        (FollowerKind::Mayor, _) => Err("the mayor goes only into a city"),
        (FollowerKind::Wagon, FeatureKind::Field) => {
            Err("a wagon goes on a road, a city or a monastery, never a field")
        }
        (FollowerKind::Barn, _) => Err("a barn stands on a corner of the tile where four fields meet"),
        _ => Ok(()),
    }
}

/// The field piece of the tile at index `tile` at `corner`, if the four
/// tiles around that corner are placed and each has one field holding both
/// its halves there.
pub(crate) fn barn_corner(board: &Board, tile: usize, corner: Corner) -> Option<PieceId> {
    let t = board.tile(tile);
    let mut piece = None;
    for (pos, c) in corner.cells(t.pos) {
        let n = board.tile(board.tile_index(pos)?);
        let o = &n.kind.info().oriented[n.rot.quarters() as usize];
        let [a, b] = c.halves();
        let local = o.half_piece[a.index()];
        if local == NO_PIECE || local != o.half_piece[b.index()] {
            return None;
        }
        if pos == t.pos {
            piece = Some(n.first_piece + local as PieceId);
        }
    }
    piece
}

/// Whether the farm of `p` holds a barn.
pub(crate) fn has_barn(features: &Features, followers: &[Follower], p: PieceId) -> bool {
    let root = features.find(p);
    followers.iter().any(|f| f.kind == FollowerKind::Barn && features.find(f.piece) == root)
}

/// An abbey ends the roads and cities that reach it: they are scored if
/// that completes them.
pub(crate) fn touched(view: View, out: &mut Touched) {
    let t = view.board.tile(view.placed);
    if !t.kind.info().abbey {
        return;
    }
    for s in Side::ALL {
        if let Some(p) = crate::state::piece_across(view.board, view.placed, s) {
            out.push(p);
        }
    }
}

/// Whether a wagon may go to piece `p` of the tile at `pos`: a road, city
/// or monastery, unfinished and without any figure.
fn wagon_may_go(board: &Board, features: &Features, pos: Pos, p: PieceId) -> bool {
    let kind = features.info(p).kind;
    if kind == FeatureKind::Field {
        return false;
    }
    let totals = features.totals(p);
    if totals.followers > 0 {
        return false;
    }
    match kind {
        FeatureKind::Monastery => pos.surrounding().any(|q| board.tile_index(q).is_none()),
        _ => totals.open > 0,
    }
}

/// Where the wagon that stood on tile `from` may go (second edition, and
/// JCloisterZone's default): a road, city or monastery on that tile or one
/// of the eight around it, unfinished and without any figure.
pub(crate) fn wagon_targets(
    board: &Board,
    features: &Features,
    from: usize,
    mut f: impl FnMut(Pos, Location, PieceId),
) {
    let at = board.tile(from).pos;
    for pos in std::iter::once(at).chain(at.surrounding()) {
        let Some(i) = board.tile_index(pos) else { continue };
        let t = board.tile(i);
        for local in 0..t.kind.info().pieces() {
            let p = t.first_piece + local as PieceId;
            if wagon_may_go(board, features, pos, p) {
                f(pos, crate::state::location_of(t, local as u8), p);
            }
        }
    }
}

/// The features each tile links for a wagon under the first edition's
/// rule (`wagon-move: C1`), as pieces of the tile in the order of its
/// definition: a road ending at a monastery or city, the roads of a
/// crossing. The links are JCloisterZone's tile data; tiles not named here
/// link nothing (lakes never do).
fn wagon_links(id: &str) -> &'static [&'static [u8]] {
    match id {
        // The base game: the monastery and its road; the city and its road
        // (S, T); the roads of a crossing (L without its city, W, X).
        "A" | "S" | "T" => &[&[0, 1]],
        "L" => &[&[1, 2, 3]],
        "W" => &[&[0, 1, 2]],
        "X" => &[&[0, 1, 2, 3]],
        // Inns & Cathedrals.
        "I2" | "I10" => &[&[0, 1], &[0, 2]],
        "I5" => &[&[0, 1, 2, 3]],
        "I8" | "I9" | "I11" => &[&[0, 1]],
        "I14" => &[&[0, 1, 2]],
        // Abbey & Mayor.
        "M4" => &[&[0, 2], &[1, 3]],
        "M5" => &[&[0, 1], &[0, 2], &[0, 3], &[0, 4]],
        "M6" => &[&[0, 1]],
        // Traders & Builders.
        "T7" | "T8" | "T19" => &[&[0, 1], &[0, 2]],
        "T9" | "T10" | "T23" => &[&[0, 2]],
        "T11" | "T12" | "T13" | "T16" | "T17" | "T18" | "T21" | "T22" => &[&[0, 1]],
        "T20" => &[&[0, 1], &[0, 2], &[0, 3]],
        _ => &[],
    }
}

/// Where a wagon whose feature (holding piece `scored`) was just scored may
/// go under the first edition's rule: every unfinished, empty feature a
/// tile of the scored feature links to it ([`wagon_links`]), and the
/// monastery of an abbey that closed it.
pub(crate) fn linked_wagon_targets(
    board: &Board,
    features: &Features,
    scored: PieceId,
    mut f: impl FnMut(Pos, Location, PieceId),
) {
    let root = features.find(scored);
    let mut seen: Vec<PieceId> = Vec::new();
    let mut offer = |pos: Pos, t: &crate::board::PlacedTile, local: u8, f: &mut dyn FnMut(Pos, Location, PieceId)| {
        let p = t.first_piece + local as PieceId;
        if !seen.contains(&p) && wagon_may_go(board, features, pos, p) {
            seen.push(p);
            f(pos, crate::state::location_of(t, local), p);
        }
    };
    for (i, t) in board.tiles().iter().enumerate() {
        for group in wagon_links(t.kind.id()) {
            if group.iter().any(|&l| features.find(t.first_piece + l as PieceId) == root) {
                for &l in group.iter() {
                    offer(t.pos, t, l, &mut f);
                }
            }
        }
        if t.kind.info().abbey
            && Side::ALL
                .into_iter()
                .any(|s| crate::state::piece_across(board, i, s).is_some_and(|p| features.find(p) == root))
        {
            offer(t.pos, t, 0, &mut f);
        }
    }
}
