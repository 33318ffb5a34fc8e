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

use crate::action::{Action, Location, Step};
use crate::board::{Board, PlacedTile, Placement};
use crate::error::PlayError;
use crate::event::{Event, EventSink, Scoring};
use crate::features::{Features, PieceId};
use crate::figure::{Follower, FollowerKind};
use crate::geometry::{Corner, Pos, Rotation, Side};
use crate::setup::{WagonMove, MAX_PLAYERS};
use crate::state::{Spots, State};
use crate::tile::{FeatureKind, TileKind};

use super::context::{Touched, View};

/// Figures each player has besides the base game's: a mayor, a wagon and a barn.
pub const FIGURES: &[(FollowerKind, u8)] =
    &[(FollowerKind::Mayor, 1), (FollowerKind::Wagon, 1), (FollowerKind::Barn, 1)];

/// Abbeys each player has (not in the bag), unless the rules say otherwise.
pub const ABBEYS: u8 = 1;

/// The abbey tile's id.
pub const ABBEY: &str = "AB";

/// Points per completed city a farm without a barn scores at the end.
const FARM_POINTS: u32 = super::base::FARM_POINTS;
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

pub(crate) mod tiles;
pub use tiles::TILES;

pub(crate) mod kept;
pub use kept::{AbbeyMayor, Barn, WaitingWagon};

/// The abbey tile kind.
pub fn abbey_tile() -> TileKind {
    TileKind::parse(ABBEY).expect("the catalogue has the abbey")
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

/// The corners of the tile at index `tile` (a bit per [`Corner`]) where
/// the four tiles around the corner are placed and each has one field
/// holding both its halves there: where a barn may stand, farms apart.
pub(crate) fn barn_corners(board: &Board, tile: usize) -> u8 {
    let field = |n: &PlacedTile, c: Corner| n.field_corners() & 1 << c as u8 != 0;
    let t = board.tile(tile);
    // The tile itself first: most corners fail there, before a look at the
    // grid; then the tiles beside it: a corner needs both its sides'.
    let mut maybe = t.field_corners();
    if maybe == 0 {
        return 0;
    }
    let beside = |s: Side| board.tile_near(tile, t.pos.step(s)).is_some();
    let (n, e, s, w) = (beside(Side::N), beside(Side::E), beside(Side::S), beside(Side::W));
    maybe &= u8::from(n && w) << Corner::Nw as u8
        | u8::from(n && e) << Corner::Ne as u8
        | u8::from(s && e) << Corner::Se as u8
        | u8::from(s && w) << Corner::Sw as u8;
    let mut corners = 0;
    while maybe != 0 {
        let corner = Corner::ALL[maybe.trailing_zeros() as usize & 3];
        maybe &= maybe - 1;
        let cells = corner.cells(t.pos);
        if cells[1..].iter().all(|&(pos, c)| board.tile_near(tile, pos).is_some_and(|n| field(n, c))) {
            corners |= 1 << corner as u8;
        }
    }
    corners
}

/// The field piece of the tile at index `tile` at `corner`, if a barn may
/// stand there, farms apart ([`barn_corners`]).
pub(crate) fn barn_corner(board: &Board, tile: usize, corner: Corner) -> Option<PieceId> {
    (barn_corners(board, tile) & 1 << corner as u8 != 0).then(|| corner_field(board.tile(tile), corner))
}

/// The field piece at `corner` of a placed tile with a field there.
fn corner_field(t: &PlacedTile, corner: Corner) -> PieceId {
    t.first_piece + t.oriented().half_piece[corner.halves()[0].index()] as PieceId
}

/// Whether the farm of `p` holds a barn.
pub(crate) fn has_barn(features: &Features, barns: &[Barn], p: PieceId) -> bool {
    // Barns never leave the board: the list of them is every barn there.
    let root = features.find(p);
    barns.iter().any(|b| features.find(b.piece) == root)
}

/// An abbey ends the roads and cities that reach it: they are scored if
/// that completes them.
pub(crate) fn touched(view: View, out: &mut Touched) {
    let t = view.board.tile(view.placed);
    if !t.info().wild_edges {
        return;
    }
    for s in Side::ALL {
        if let Some(p) = crate::pieces::piece_across(view.board, view.placed, s) {
            out.push(p);
        }
    }
}

/// Whether a wagon may go to piece `p` of the tile at `pos`: a road, city
/// or monastery, unfinished and without any figure (or where the rules in
/// play let a figure join the others there: a free leg of a road parted
/// by the labyrinth, [`State::may_move_onto_held`]).
fn wagon_may_go(state: &State, pos: Pos, p: PieceId) -> bool {
    let (board, features) = (&state.board, &state.features);
    let kind = features.info(p).kind;
    // Not a field, nor a garden (which holds only an abbot).
    if !matches!(kind, FeatureKind::Road | FeatureKind::City | FeatureKind::Monastery) {
        return false;
    }
    let totals = features.totals(p);
    if totals.followers > 0 && !state.may_move_onto_held(p) {
        return false;
    }
    match kind {
        FeatureKind::Monastery => board.tiles_around(pos) < 8,
        _ => totals.open > 0,
    }
}

/// Where the wagon that stood on tile `from` may go (second edition, and
/// JCloisterZone's default): a road, city or monastery on that tile or one
/// of the eight around it, unfinished and without any figure.
pub(crate) fn wagon_targets(state: &State, from: usize, mut f: impl FnMut(Pos, Location, PieceId)) {
    let board = &state.board;
    let at = board.tile(from).pos;
    for pos in std::iter::once(at).chain(at.surrounding()) {
        let Some(i) = board.tile_index(pos) else { continue };
        let t = board.tile(i);
        for local in 0..t.info().pieces() {
            let p = t.first_piece + local as PieceId;
            if wagon_may_go(state, pos, p) {
                f(pos, crate::pieces::location_of(t, local as u8), p);
            }
        }
    }
}

/// Where a wagon whose feature (holding piece `scored`) was just scored may
/// go under the first edition's rule: every unfinished, empty feature a
/// tile of the scored feature links to it (its tile data's
/// [`links`](crate::tile::TileDef::links)), and the
/// monastery of an abbey that closed it.
pub(crate) fn linked_wagon_targets(state: &State, scored: PieceId, mut f: impl FnMut(Pos, Location, PieceId)) {
    let (board, features) = (&state.board, &state.features);
    let root = features.find(scored);
    let mut seen: Vec<PieceId> = Vec::new();
    let mut offer = |pos: Pos, t: &crate::board::PlacedTile, local: u8, f: &mut dyn FnMut(Pos, Location, PieceId)| {
        let p = t.first_piece + local as PieceId;
        if !seen.contains(&p) && wagon_may_go(state, pos, p) {
            seen.push(p);
            f(pos, crate::pieces::location_of(t, local), p);
        }
    };
    for (i, t) in board.tiles().iter().enumerate() {
        for group in t.info().def.links {
            if group.iter().any(|&l| features.find(t.first_piece + l as PieceId) == root) {
                for &l in group.iter() {
                    offer(t.pos, t, l, &mut f);
                }
            }
        }
        if t.info().wild_edges
            && Side::ALL
                .into_iter()
                .any(|s| crate::pieces::piece_across(board, i, s).is_some_and(|p| features.find(p) == root))
        {
            offer(t.pos, t, 0, &mut f);
        }
    }
}

// ----- the state: what Abbey & Mayor keeps, as players and programs see it

impl State {
    /// What Abbey & Mayor keeps: abbeys in hand, barns, wagons waiting to move.
    pub fn abbey_mayor(&self) -> &AbbeyMayor {
        &self.ext.abbey
    }

    /// Abbeys each player still holds (Abbey & Mayor; none otherwise).
    pub fn abbeys(&self) -> &[u8] {
        &self.ext.abbey.abbeys[..self.rules.players()]
    }

    /// Where a barn stands: the tile and its corner, as on the board.
    pub fn barn_at(&self, piece: PieceId) -> Option<(Pos, Corner)> {
        let b = self.ext.abbey.barns.iter().find(|b| b.piece == piece)?;
        Some((self.board.tile(b.tile as usize).pos, b.corner))
    }
}

// ----- the figures: where the mayor, the wagon and the barn go ------------

/// The deployments of a figure of `kind` on the tile just placed.
pub(crate) fn deployments(kind: FollowerKind, state: &State, spots: &Spots<'_>, out: &mut Vec<Action>) {
    if kind == FollowerKind::Barn {
        let corners = barn_corners(&state.board, state.placed);
        let t = state.board.tile(state.placed);
        for c in Corner::ALL {
            if corners & 1 << c as u8 != 0 && !has_barn(&state.features, &state.ext.abbey.barns, corner_field(t, c)) {
                out.push(Action::Deploy(kind, Location::Corner(c)));
            }
        }
    } else {
        out.extend(spots.names().filter(|l| stands_on(kind, l.kind()).is_ok()).map(|l| Action::Deploy(kind, l)));
    }
}

/// Checks deploying a figure of `kind` on `loc` of the tile just placed.
pub(crate) fn check_deployment(kind: FollowerKind, loc: Location, state: &State) -> Result<(), PlayError> {
    if kind == FollowerKind::Barn {
        return barn_check(state, loc);
    }
    state.check_follower(kind, loc).map(|_| ())
}

/// Whether a barn may stand at `loc` of the tile just placed.
fn barn_check(state: &State, loc: Location) -> Result<(), PlayError> {
    let Location::Corner(c) = loc else {
        let why = "a barn stands on a corner of the tile where four fields meet";
        return Err(PlayError::WrongFeatureForFigure { figure: FollowerKind::Barn, location: loc, why });
    };
    let p = barn_corner(&state.board, state.placed, c).ok_or(PlayError::NotAFieldCorner(loc))?;
    if has_barn(&state.features, &state.ext.abbey.barns, p) {
        return Err(PlayError::FarmHasBarn(loc));
    }
    Ok(())
}

/// A figure of `kind` was deployed on piece `p`: a barn is kept with its
/// corner, and its farm scores at the end of this turn.
pub(crate) fn deployed(kind: FollowerKind, loc: Location, p: PieceId, state: &mut State) {
    if let (FollowerKind::Barn, Location::Corner(corner)) = (kind, loc) {
        let barn = Barn { player: state.acting, tile: state.placed as u16, corner, piece: p };
        state.ext.abbey.barns.push(barn);
        state.ext.abbey.new_barn = Some(p);
    }
}

/// A wagon whose feature scored waits for its owner to move it on.
pub(crate) fn wagon_waits(f: Follower, state: &mut State) {
    let (_, location) = state.piece_location(f.piece);
    let tile = state.features.info(f.piece).tile;
    state.ext.abbey.waiting.push(WaitingWagon { player: f.player, tile, location, piece: f.piece });
}

// ----- the steps: the abbey before the draw, the wagon after scoring -------

/// The abbey step is offered when the player holds an abbey and there is a
/// hole; the wagon's, while a wagon waits.
pub(crate) fn enter(step: Step, state: &mut State) -> bool {
    match step {
        Step::Abbey => state.ext.abbey.abbeys[state.acting as usize] > 0 && holes(&state.board).next().is_some(),
        _ => !state.ext.abbey.waiting.is_empty(),
    }
}

pub(crate) fn legal_actions(step: Step, state: &State, out: &mut Vec<Action>) {
    match step {
        Step::Abbey => out.extend(holes(&state.board).map(Action::PlaceAbbey)),
        _ => wagon_moves(state, |at, to, _| out.push(Action::MoveWagon { at, to })),
    }
    out.push(Action::Pass);
}

pub(crate) fn check(action: Action, state: &State) -> Result<(), PlayError> {
    match action {
        Action::PlaceAbbey(at) => {
            if state.step != Step::Abbey {
                return Err(state.wrong_step("place an abbey"));
            }
            if !is_hole(&state.board, at) {
                return Err(PlayError::NotAHole(at));
            }
            Ok(())
        }
        Action::MoveWagon { at, to } => {
            if state.step != Step::MoveWagon {
                return Err(state.wrong_step("move a wagon"));
            }
            wagon_check(state, at, to)
        }
        _ => unreachable!("only the abbey's and the wagon's actions"),
    }
}

pub(crate) fn apply<E: EventSink>(action: Action, state: &mut State, events: &mut E) {
    match action {
        Action::PlaceAbbey(pos) => {
            state.ext.abbey.abbeys[state.acting as usize] -= 1;
            let kind = abbey_tile();
            let placement = Placement { pos, rot: Rotation::R0 };
            state.placed = state.put_tile(kind, placement);
            state.drawn = None;
            if E::ENABLED {
                events.push(Event::TilePlaced { player: state.current as usize, tile: kind, placement });
            }
            // The turn goes on as after placing a tile.
            state.next_step(Step::Place, events);
        }
        Action::Pass if state.step == Step::Abbey => {
            if state.ext.abbey.final_round.is_some() {
                // After the last tile there is nothing to draw: the turn is over.
                state.finish_turn(events);
            } else {
                state.next_step(Step::Abbey, events);
            }
        }
        Action::MoveWagon { at, to } => {
            let w = state.ext.abbey.waiting.remove(0);
            let tile = state.board.tile_index(at).expect("the move was checked");
            let p = state.resolve(tile, to).expect("the move was checked");
            state.stand(Follower { player: w.player, kind: FollowerKind::Wagon, piece: p });
            if E::ENABLED {
                let from = state.board.tile(w.tile as usize).pos;
                events.push(Event::WagonMoved {
                    player: w.player as usize,
                    from,
                    from_location: w.location,
                    at,
                    location: to,
                });
            }
            next_wagon(state, events);
        }
        // A pass at the wagon's step takes the wagon back.
        _ => {
            let w = state.ext.abbey.waiting.remove(0);
            state.supply[FollowerKind::Wagon as usize][w.player as usize] += 1;
            if E::ENABLED {
                let at = state.board.tile(w.tile as usize).pos;
                events.push(Event::FollowerReturned { player: w.player as usize, at, location: w.location });
            }
            next_wagon(state, events);
        }
    }
}

/// After the turn's other scoring: the barns score, then the wagons whose
/// features scored are asked where they go; true when one is (the wagons'
/// step then ends the turn).
pub(crate) fn after_scoring<E: EventSink>(state: &mut State, events: &mut E) -> bool {
    // Only a farm that scored now sends farmers back: only then may a
    // figure be left without its owner's follower (every turn's check cost
    // games with barns a tenth of their time).
    if score_barns(state, events) {
        super::interactions::after_barn_scoring(state, events);
    }
    if state.ext.abbey.waiting.is_empty() {
        return false;
    }
    order_waiting_wagons(state);
    next_wagon(state, events);
    true
}

/// Wagons whose features scored move in seat order from the player
/// whose turn it is; one player's wagons in the order the tiles they
/// stood on were placed (mostly the order they were deployed in, as
/// JCloisterZone numbers them).
fn order_waiting_wagons(state: &mut State) {
    let (n, current) = (state.rules.players() as u8, state.current);
    state.ext.abbey.waiting.sort_by_key(|w| ((w.player + n - current) % n, w.tile));
}

/// Asks the next waiting wagon's owner where it goes; a wagon with
/// nowhere to go goes back to its owner. Once none waits, the turn ends.
fn next_wagon<E: EventSink>(state: &mut State, events: &mut E) {
    while let Some(&w) = state.ext.abbey.waiting.first() {
        let mut any = false;
        wagon_moves(state, |_, _, _| any = true);
        if any {
            state.step = Step::MoveWagon;
            state.acting = w.player;
            return;
        }
        state.ext.abbey.waiting.remove(0);
        state.supply[FollowerKind::Wagon as usize][w.player as usize] += 1;
        if E::ENABLED {
            let at = state.board.tile(w.tile as usize).pos;
            events.push(Event::FollowerReturned { player: w.player as usize, at, location: w.location });
        }
    }
    state.acting = state.current;
    state.finish_turn(events);
}

/// Whether the waiting wagon may move to `to` at `at`, or why not.
fn wagon_check(state: &State, at: Pos, to: Location) -> Result<(), PlayError> {
    let w = state.ext.abbey.waiting[0];
    let bad = |why| Err(PlayError::WagonMove { at, to, why });
    let from = state.board.tile(w.tile as usize).pos;
    let near = (at.x - from.x).abs() <= 1 && (at.y - from.y).abs() <= 1;
    if !near && state.rules.wagon_move() == WagonMove::C2 {
        return bad("a wagon moves to the tile it stood on or one of the eight around it");
    }
    let Some(tile) = state.board.tile_index(at) else {
        return bad("there is no tile there");
    };
    let Some(p) = state.resolve(tile, to) else {
        return bad("that tile has no such feature");
    };
    let mut ok = false;
    wagon_moves(state, |_, _, q| ok |= q == p);
    if ok {
        return Ok(());
    }
    if to.kind() == FeatureKind::Field {
        return bad("a wagon goes on a road, a city or a monastery, never a field");
    }
    if to.kind() == FeatureKind::Garden {
        return bad("only an abbot stands on a garden");
    }
    if state.features.totals(p).followers > 0 {
        return bad("a wagon goes only where no figure stands");
    }
    let finished = match to.kind() {
        FeatureKind::Monastery => state.board.tiles_around(at) == 8,
        _ => state.features.totals(p).open == 0,
    };
    if state.rules.wagon_move() == WagonMove::C2 || finished {
        return bad("that feature is finished");
    }
    bad("under the first edition's rule (C1) a wagon moves only to a feature linked to the one scored")
}

/// Where the first waiting wagon may go, as the rules in play say.
fn wagon_moves(state: &State, f: impl FnMut(Pos, Location, PieceId)) {
    let w = state.ext.abbey.waiting[0];
    match state.rules.wagon_move() {
        WagonMove::C2 => wagon_targets(state, w.tile as usize, f),
        WagonMove::C1 => linked_wagon_targets(state, w.piece, f),
    }
}

/// The bag is empty: each player in turn, from the one after the last
/// tile's, may still place an abbey. True when one is offered it now;
/// false once the round is over (the game then ends).
pub(crate) fn last_round(state: &mut State) -> bool {
    let players = state.rules.players() as u8;
    let mut left = match state.ext.abbey.final_round {
        None => players,
        Some(n) => n.saturating_sub(1),
    };
    loop {
        state.ext.abbey.final_round = Some(left);
        if left == 0 {
            return false;
        }
        if state.enter(Step::Abbey) {
            state.step = Step::Abbey;
            return true;
        }
        // This player has no abbey or no hole: the next one is offered.
        left -= 1;
        state.current = super::base::next_player(&state.rules, state.current);
        state.acting = state.current;
    }
}

// ----- scoring: the barn ---------------------------------------------------

/// A barn placed this turn scores its farm's farmers at once; farmers the
/// new tile joined to a farm with a barn score too. Either way they go back.
fn score_barns<E: EventSink>(state: &mut State, events: &mut E) -> bool {
    let mut scored = false;
    if let Some(p) = state.ext.abbey.new_barn.take() {
        let root = state.features.find_mut(p);
        scored |= score_farm_now(state, root, BARN_PLACED_FARM_POINTS, events);
    }
    if state.ext.abbey.barns.is_empty() {
        return scored;
    }
    let t = *state.board.tile(state.placed);
    let n = t.info().pieces() as PieceId;
    for p in t.first_piece..t.first_piece + n {
        if state.features.info(p).kind == FeatureKind::Field && has_barn(&state.features, &state.ext.abbey.barns, p) {
            let root = state.features.find_mut(p);
            scored |= score_farm_now(state, root, BARN_JOINED_FARM_POINTS, events);
        }
    }
    scored
}

/// Scores the farm of `root` now, at `per_city` a completed city, to
/// its farmers' majority, if it holds any figure but barns; they go back.
/// True if it scored.
fn score_farm_now<E: EventSink>(state: &mut State, root: PieceId, per_city: u32, events: &mut E) -> bool {
    let farmers = state.followers.iter().any(|f| f.kind != FollowerKind::Barn && state.features.find(f.piece) == root);
    if !farmers {
        return false;
    }
    let cities = state.completed_cities_bordered(root);
    let won = super::interactions::farm_now(state, root, cities, per_city);
    for (s, w) in state.scores.iter_mut().zip(won) {
        *s += w;
    }
    if E::ENABLED {
        let tiles = state.feature_tiles(root);
        events.push(Event::Scored(Scoring {
            kind: FeatureKind::Field,
            completed: false,
            end_of_game: false,
            tiles: state.tile_positions(&tiles),
            points: won[..state.rules.players()].to_vec(),
        }));
    }
    state.return_figures(root, events);
    true
}

/// What a farm scores at the end with Abbey & Mayor in play: as in the
/// base game without a barn; with one, its farmers' majority scores at the
/// joined rate and each player with a barn there scores once (however many
/// barns they have there).
pub(crate) fn farm_at_end(
    state: &State,
    root: PieceId,
    cities: u32,
    strength: [u8; MAX_PLAYERS],
) -> (u32, [u32; MAX_PLAYERS]) {
    let owners = state.owners_of(FollowerKind::Barn, root);
    let barns = owners.contains(&true);
    let per_city = if barns { BARN_JOINED_FARM_POINTS } else { FARM_POINTS };
    let mut won = state.won_by(strength, FeatureKind::Field, per_city * cities);
    if barns {
        for (w, owner) in won.iter_mut().zip(owners) {
            if owner {
                *w += BARN_END_POINTS * cities;
            }
        }
    }
    (per_city * cities, won)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Actor;
    use crate::setup::{Edition, Rules};
    use crate::state::with_bag;

    /// JCloisterZone's abbey-merge game up to its hole at [1, -1], with the
    /// bag empty after it: the last tile is Bob's.
    fn abbey_round(alice_takes_it: bool) -> State {
        let rules = Rules::new(2, &[crate::setup::Expansion::Abbey], Edition::default()).unwrap();
        let mut state = with_bag(State::new(rules), &[("D", 1), ("P", 1), ("U", 1), ("N", 3)]);
        let turns = [
            ("D", "place at [1, 0] turned 0", "deploy on city:N"),
            ("P", "place at [0, -1] turned 180", "deploy on city:E"),
            ("U", "place at [2, 0] turned 0", "pass"),
            ("N", "place at [2, -1] turned 0", "deploy on city:N"),
            ("N", "place at [2, -2] turned 270", "pass"),
            ("N", "place at [1, -2] turned 180", "pass"),
        ];
        for (tile, place, deploy) in turns {
            state.play(Action::Draw(crate::tile::TileKind::parse(tile).unwrap())).unwrap();
            state.play(place.parse().unwrap()).unwrap();
            state.play(deploy.parse().unwrap()).unwrap();
        }
        // The bag is empty: from the player after the last tile's, each may still place an abbey.
        assert_eq!((state.step(), state.actor()), (Step::Abbey, Some(Actor::Player(0))));
        assert!(!state.is_over());
        if alice_takes_it {
            state.play("abbey at [1, -1]".parse().unwrap()).unwrap();
            state.play(Action::Pass).unwrap();
        } else {
            state.play(Action::Pass).unwrap();
        }
        state
    }

    #[test]
    fn after_the_last_tile_each_player_in_turn_may_place_an_abbey() {
        // Alice fills the only hole: Bob is offered nothing, and the game ends.
        let state = abbey_round(true);
        assert!(state.is_over());
        assert_eq!(state.scores(), &[2, 10]);
        assert_eq!(state.turns(), 7);
        // Alice passes: Bob may still place his, then the game ends.
        let mut state = abbey_round(false);
        assert_eq!((state.step(), state.actor()), (Step::Abbey, Some(Actor::Player(1))));
        assert_eq!(state.legal_action_list(), vec![Action::PlaceAbbey(Pos::new(1, -1)), Action::Pass]);
        state.play("abbey at [1, -1]".parse().unwrap()).unwrap();
        state.play(Action::Pass).unwrap();
        assert!(state.is_over());
        assert_eq!(state.scores(), &[2, 10]);
        assert_eq!(state.abbeys(), &[1, 0]);
        assert_eq!(state.turns(), 8);
    }

    /// A barn's corners found at once, from the tile's own cell, are those
    /// a look at each corner's four cells by position finds, at every
    /// placement of random games with Abbey & Mayor (abbeys included).
    #[test]
    fn barn_corners_are_those_the_four_cells_of_each_corner_show() {
        use rand::SeedableRng;
        let rules = Rules::new(2, &[crate::setup::Expansion::Abbey], Edition::default()).unwrap();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let (mut buf, mut some) = (Vec::new(), 0);
        for _ in 0..40 {
            let mut state = State::new(rules);
            while let Some(a) = crate::playout::random_action(&state, &mut rng, &mut buf) {
                state.play_unchecked(a);
                if !matches!(a, Action::Place(_) | Action::PlaceAbbey(_)) {
                    continue;
                }
                let (board, tile) = (&state.board, state.placed);
                let t = board.tile(tile);
                let mut naive = 0;
                for corner in Corner::ALL {
                    let all = corner
                        .cells(t.pos)
                        .into_iter()
                        .all(|(pos, c)| board.tile_at(pos).is_some_and(|n| n.field_corners() & 1 << c as u8 != 0));
                    naive |= u8::from(all) << corner as u8;
                }
                assert_eq!(barn_corners(board, tile), naive, "at {}", t.pos);
                some += usize::from(naive != 0);
            }
        }
        assert!(some > 100, "only {some} placements with a barn corner");
    }
}
