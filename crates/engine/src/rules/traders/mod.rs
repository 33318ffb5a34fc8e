//! Traders & Builders as a rules module: its 24 tiles, the trade goods on
//! their cities, the builder and the second turn it gives, and the pig.
//!
//! Its hooks: its [`TILES`] (ids `T1` to `T24`; docs/rules.md lists them
//! beside JCloisterZone's), its [`FIGURES`] (a builder and a pig each, which
//! win no majority: [`super::strength`]), where they may stand
//! ([`builder_may_join`], [`pig_may_join`]), the goods a completed city
//! gives the player who completed it ([`goods_of`]), the pig's bonus on a
//! farm, and the goods' end scoring ([`end_of_game`]).
//!
//! The state keeps the goods each player holds and where the turn stands
//! with the builder's second turn ([`Traders`]).

use crate::action::{Action, Location};
use crate::error::PlayError;
use crate::event::{Event, EventSink};
use crate::features::{Features, PieceId, NONE};
use crate::figure::{Follower, FollowerKind};
use crate::setup::MAX_PLAYERS;
use crate::state::State;
use crate::tile::{FeatureKind, Good};

use super::context::Touched;

/// Figures each player has besides the base game's: a builder and a pig.
pub const FIGURES: &[(FollowerKind, u8)] = &[(FollowerKind::Builder, 1), (FollowerKind::Pig, 1)];

/// Points each player with the most tokens of a good (at least one) scores
/// for it at the end.
pub const GOOD_MAJORITY_POINTS: u32 = 10;

/// Points a pig adds per completed city to its owner's farm, when the owner
/// scores the farm.
pub(crate) const PIG_POINTS_PER_CITY: u32 = 1;

pub(crate) mod tiles;
pub use tiles::TILES;

pub(crate) mod kept;
pub use kept::{SecondTurn, Traders};

/// The goods shown on the pieces of the city holding `root`, by [`Good`].
pub(crate) fn goods_of(features: &Features, root: PieceId, defs: impl Fn(PieceId) -> Option<Good>) -> [u8; 3] {
    let mut goods = [0u8; 3];
    for m in features.members(root) {
        if let Some(g) = defs(m) {
            goods[g as usize] = goods[g as usize].saturating_add(1);
        }
    }
    goods
}

/// Whether `kind` is a follower that lets its owner's builder or pig join
/// its feature (the builder and the pig themselves and the barn are not).
pub(crate) fn is_follower(kind: FollowerKind) -> bool {
    FOLLOWER_KINDS & 1 << kind as u32 != 0
}

/// The kinds of [`is_follower`], a bit each.
const FOLLOWER_KINDS: u32 = 1 << FollowerKind::Normal as u32
    | 1 << FollowerKind::Big as u32
    | 1 << FollowerKind::Mayor as u32
    | 1 << FollowerKind::Wagon as u32;

/// Whether `player` has a follower on the feature of `root`.
pub(crate) fn has_follower(features: &Features, followers: &[Follower], player: u8, root: PieceId) -> bool {
    followers.iter().any(|f| f.player == player && is_follower(f.kind) && features.find(f.piece) == root)
}

/// The kinds of figure (a bit per [`FollowerKind`]) `player` has on the
/// feature of `root`: one look at the figures answers both questions a
/// builder or pig asks (a follower of its owner there, and no figure of
/// its own kind).
fn kinds_on(features: &Features, followers: &[Follower], player: u8, root: PieceId) -> u32 {
    followers
        .iter()
        .filter(|f| f.player == player && features.find(f.piece) == root)
        .fold(0, |kinds, f| kinds | 1 << f.kind as u32)
}

/// Whether `player`'s builder may join the feature of `p` (a road or city
/// piece of the tile just placed), or why not, in the words of the rules.
pub(crate) fn builder_may_join(
    features: &Features,
    followers: &[Follower],
    player: u8,
    p: PieceId,
) -> Result<(), &'static str> {
    let root = features.find(p);
    if !matches!(features.info(root).kind, FeatureKind::Road | FeatureKind::City) {
        return Err("the builder goes on a road or a city");
    }
    let totals = features.root_totals(root);
    if totals.open == 0 {
        return Err("the builder goes only on an unfinished road or city");
    }
    let kinds = if totals.followers == 0 { 0 } else { kinds_on(features, followers, player, root) };
    if kinds & FOLLOWER_KINDS == 0 {
        return Err("the builder joins a road or city that holds one of its owner's followers");
    }
    if kinds & 1 << FollowerKind::Builder as u32 != 0 {
        return Err("a player's builders do not stack");
    }
    Ok(())
}

/// Whether `player`'s pig may join the farm of `p` (a field piece of the
/// tile just placed), or why not.
pub(crate) fn pig_may_join(
    features: &Features,
    followers: &[Follower],
    player: u8,
    p: PieceId,
) -> Result<(), &'static str> {
    let root = features.find(p);
    if features.info(root).kind != FeatureKind::Field {
        return Err("the pig goes on a field");
    }
    let kinds = if features.root_totals(root).followers == 0 { 0 } else { kinds_on(features, followers, player, root) };
    if kinds & FOLLOWER_KINDS == 0 {
        return Err("the pig joins a farm that holds one of its owner's farmers");
    }
    if kinds & 1 << FollowerKind::Pig as u32 != 0 {
        return Err("a player's pigs do not stack");
    }
    Ok(())
}

/// The goods' end scoring: for each good, every player with the most tokens
/// of it (at least one) scores [`GOOD_MAJORITY_POINTS`].
pub(crate) fn end_of_game(traders: &Traders, players: usize, scores: &mut [u32]) {
    for g in Good::ALL {
        let best = traders.goods[..players].iter().map(|t| t[g as usize]).max().unwrap_or(0);
        if best == 0 {
            continue;
        }
        for (s, t) in scores.iter_mut().zip(&traders.goods[..players]) {
            if t[g as usize] == best {
                *s += GOOD_MAJORITY_POINTS;
            }
        }
    }
}

// ----- the state: what Traders & Builders keeps ---------------------------

impl State {
    /// What Traders & Builders keeps: the goods each player holds, and
    /// whether this turn is (or earned) a builder's second turn.
    pub fn traders(&self) -> &Traders {
        &self.ext.traders
    }

    /// Tokens of wine, grain and cloth each player holds (Traders & Builders).
    pub fn goods(&self) -> &[[u8; 3]] {
        &self.ext.traders.goods[..self.rules.players()]
    }

    /// Whether this turn is a second turn, given by the player's builder.
    pub fn is_second_turn(&self) -> bool {
        self.ext.traders.second_turn == SecondTurn::Playing
    }
}

// ----- the figures: the builder and the pig join their owner's features ----

/// Whether a figure of `kind` may stand on a feature of kind `on`, or why not.
pub(crate) fn stands_on(kind: FollowerKind, on: FeatureKind) -> Result<(), &'static str> {
    match (kind, on) {
        (FollowerKind::Builder, FeatureKind::Road | FeatureKind::City) | (FollowerKind::Pig, FeatureKind::Field) => {
            Ok(())
        }
        (FollowerKind::Builder, _) => Err("the builder goes on a road or a city"),
        _ => Err("the pig goes on a field"),
    }
}

/// The deployments of a builder or pig on the tile just placed: a piece of
/// the right kind whose feature holds figures, one of them its owner's
/// follower.
pub(crate) fn deployments(kind: FollowerKind, state: &State, out: &mut Vec<Action>) {
    let t = state.board.tile(state.placed);
    let info = t.info();
    // The pieces it stands on (`stands_on`): roads and cities, or fields.
    let on = match kind {
        FollowerKind::Builder => info.edge_pieces,
        _ => info.follower_pieces & !info.edge_pieces & !info.monastery_piece(),
    };
    for p in t.pieces_in(on) {
        debug_assert!(stands_on(kind, state.features.info(p).kind).is_ok());
        if state.features.totals(p).followers > 0 && may_join(kind, p, state).is_ok() {
            out.push(Action::Deploy(kind, crate::pieces::location_of(t, (p - t.first_piece) as u8)));
        }
    }
}

/// Checks deploying a builder or pig on `loc` of the tile just placed.
pub(crate) fn check_deployment(kind: FollowerKind, loc: Location, state: &State) -> Result<(), PlayError> {
    let wrong = |why| PlayError::WrongFeatureForFigure { figure: kind, location: loc, why };
    if let Location::Corner(_) = loc {
        return Err(wrong("the builder and the pig stand on a feature of the tile, not on its corner"));
    }
    let p = state.resolve(state.placed, loc).ok_or(PlayError::NoSuchFeature(loc))?;
    stands_on(kind, loc.kind()).map_err(wrong)?;
    may_join(kind, p, state).map_err(wrong)
}

/// Whether a builder or pig of the acting player may join the feature of
/// piece `p`, or why not.
fn may_join(kind: FollowerKind, p: PieceId, state: &State) -> Result<(), &'static str> {
    match kind {
        FollowerKind::Builder => builder_may_join(&state.features, &state.followers, state.acting, p),
        _ => pig_may_join(&state.features, &state.followers, state.acting, p),
    }
}

/// Builders and pigs go back when their owner has no follower left on
/// their feature.
pub(crate) fn return_lonely<E: EventSink>(state: &mut State, events: &mut E) {
    let mut i = 0;
    while i < state.followers.len() {
        let f = state.followers[i];
        let lonely = matches!(f.kind, FollowerKind::Builder | FollowerKind::Pig)
            && !has_follower(&state.features, &state.followers, f.player, state.features.find(f.piece));
        if lonely {
            state.send_back(i, events);
        } else {
            i += 1;
        }
    }
}

// ----- the turn: the builder's second turn, goods ---------------------------

/// On placing a tile: it earns a second turn if it extends a road or city
/// holding the player's builder (a builder put there before this turn: the
/// tile is placed before any deployment).
#[inline(never)]
pub(crate) fn tile_placed(state: &mut State) {
    let player = state.current;
    let on_board =
        state.rules.figure_count(FollowerKind::Builder) - state.supply[FollowerKind::Builder as usize][player as usize];
    if state.ext.traders.second_turn != SecondTurn::No || on_board == 0 {
        return;
    }
    let t = state.board.tile(state.placed);
    // A builder stands on a road or a city: only those pieces can extend its feature.
    let roads_and_cities = t.info().edge_pieces;
    for f in &state.followers {
        if f.kind != FollowerKind::Builder || f.player != player {
            continue;
        }
        let root = state.features.find(f.piece);
        for p in t.pieces_in(roads_and_cities) {
            if state.features.find(p) == root {
                state.ext.traders.second_turn = SecondTurn::Earned;
                return;
            }
        }
    }
}

/// Whether the player plays a second turn now (their tile extended their
/// builder's feature, in a first turn). A second turn gives no third, and
/// none comes once the bag is empty (`over`): a last round, if the rules
/// have one, starts with the next player.
#[inline(never)]
pub(crate) fn second_turn<E: EventSink>(state: &mut State, over: bool, events: &mut E) -> bool {
    let earned = state.ext.traders.second_turn == SecondTurn::Earned && !over;
    state.ext.traders.second_turn = if earned { SecondTurn::Playing } else { SecondTurn::No };
    if earned && E::ENABLED {
        events.push(Event::SecondTurn { player: state.current as usize });
    }
    earned
}

/// Before the turn's scoring, the player takes the goods of the cities the
/// turn completed.
#[inline(never)]
pub(crate) fn before_scoring<E: EventSink>(state: &mut State, others: Option<&Touched>, events: &mut E) {
    // Most turns complete no city: look closer only when one does.
    let t = state.board.tile(state.placed);
    let city_pieces = t.pieces_in(t.info().edge_pieces & !t.info().road_pieces);
    let mut completed = city_pieces.clone().any(|p| state.features.totals(p).open == 0);
    if !completed && others.is_none() {
        return;
    }
    let mut touched = Touched::default();
    for p in city_pieces {
        touched.push(p);
    }
    if let Some(others) = others {
        for p in others.pieces() {
            touched.push(p);
        }
        completed = true;
    }
    if completed {
        take_goods(state, &touched, events);
    }
}

/// The player whose turn it is takes the goods of every city among
/// `pieces` that the turn completed (followers or not), once each.
fn take_goods<E: EventSink>(state: &mut State, pieces: &Touched, events: &mut E) {
    let mut done = [NONE; 40];
    let mut n = 0;
    for p in pieces.pieces() {
        let root = state.features.find_mut(p);
        if state.features.info(root).kind != FeatureKind::City
            || state.features.root_totals(root).open > 0
            || done[..n].contains(&root)
        {
            continue;
        }
        if n < done.len() {
            done[n] = root;
            n += 1;
        }
        let goods = goods_of(&state.features, root, |m| {
            let info = state.features.info(m);
            state.board.tile(info.tile as usize).info().def.features[info.local as usize].good
        });
        if goods == [0; 3] {
            continue;
        }
        let player = state.current as usize;
        for (held, g) in state.ext.traders.goods[player].iter_mut().zip(goods) {
            *held = held.saturating_add(g);
        }
        if E::ENABLED {
            events.push(Event::GoodsTaken { player, wine: goods[0], grain: goods[1], cloth: goods[2] });
        }
    }
}

// ----- scoring: the pig ------------------------------------------------------

/// Each player who scores the farm of `root` and has a pig there scores 1
/// more per completed city (pigs do not stack).
pub(crate) fn farm_bonus(state: &State, root: PieceId, cities: u32, won: &mut [u32; MAX_PLAYERS]) {
    let pigs = state.owners_of(FollowerKind::Pig, root);
    for (w, pig) in won.iter_mut().zip(pigs) {
        if pig && *w > 0 {
            *w += PIG_POINTS_PER_CITY * cities;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::{Actor, Step};
    use crate::setup::{Edition, Rules};
    use crate::state::with_bag;
    use crate::tile::TileKind;

    /// The builder's and the pig's pieces, as masks of every kind of
    /// every set, are the pieces `stands_on` lets them on.
    #[test]
    fn builder_and_pig_piece_masks_are_where_they_may_stand() {
        for kind in TileKind::all() {
            let info = kind.info();
            for (figure, mask) in [
                (FollowerKind::Builder, info.edge_pieces),
                (FollowerKind::Pig, info.follower_pieces & !info.edge_pieces & !info.monastery_piece()),
            ] {
                let by_kind = info.def.features.iter().enumerate().filter(|(_, f)| stands_on(figure, f.kind).is_ok());
                let want = by_kind.fold(0u16, |m, (i, _)| m | 1 << i);
                assert_eq!(mask, want, "{figure:?} on {}", kind.id());
            }
        }
    }

    #[test]
    fn the_set_has_24_tiles_with_9_wine_6_grain_5_cloth_and_no_lake() {
        assert_eq!(TILES.tiles.iter().map(|t| t.1 as usize).sum::<usize>(), 24);
        let mut goods = [0; 3];
        for (def, _, _) in TILES.tiles {
            for f in def.features {
                assert!(!f.jetty, "{}: the T&B lake is no ferry lake", def.id);
                if let Some(g) = f.good {
                    assert_eq!(f.kind, FeatureKind::City, "{}: goods are on cities", def.id);
                    goods[g as usize] += 1;
                }
            }
            assert!(TileKind::parse(def.id).is_some());
        }
        assert_eq!(goods, [9, 6, 5]);
    }

    #[test]
    fn each_good_scores_10_to_every_player_with_the_most_tokens() {
        let mut t = Traders::default();
        t.goods[0] = [2, 0, 1];
        t.goods[1] = [2, 1, 0];
        t.goods[2] = [0, 0, 1];
        let mut scores = [0u32; 3];
        end_of_game(&t, 3, &mut scores);
        // Wine: 2-2-0, both score; grain: Bob alone; cloth: 1-0-1, both score.
        assert_eq!(scores, [20, 20, 10]);
        let mut none = [0u32; 2];
        end_of_game(&Traders::default(), 2, &mut none);
        assert_eq!(none, [0, 0], "no token, no majority");
    }

    /// Traders & Builders: the last tile extends the player's builder, but
    /// an empty bag gives no second turn: the last round of abbeys starts
    /// with the next player.
    #[test]
    fn no_second_turn_after_the_last_tile() {
        use crate::setup::Expansion::{Abbey, Traders};
        let rules = Rules::new(2, &[Abbey, Traders], Edition::default()).unwrap();
        let mut state = with_bag(State::new(rules), &[("U", 3), ("B", 4)]);
        let turns = [
            ("U", "place at [1, 0] turned 0", "deploy on road:E"),
            ("B", "place at [0, 1] turned 0", "pass"),
            ("U", "place at [2, 0] turned 0", "deploy builder on road:E"),
            ("B", "place at [2, 1] turned 0", "pass"),
            ("B", "place at [0, 2] turned 0", "pass"),
            ("B", "place at [1, 2] turned 0", "pass"),
            ("U", "place at [3, 0] turned 0", "pass"),
        ];
        for (tile, place, deploy) in turns {
            if state.step() == Step::Abbey {
                state.play(Action::Pass).unwrap();
            }
            state.play(Action::Draw(crate::tile::TileKind::parse(tile).unwrap())).unwrap();
            state.play(place.parse().unwrap()).unwrap();
            state.play(deploy.parse().unwrap()).unwrap();
        }
        assert!(state.bag.is_empty());
        assert_eq!((state.step(), state.actor()), (Step::Abbey, Some(Actor::Player(1))));
        assert!(!state.is_second_turn());
    }
}
