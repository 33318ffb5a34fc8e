//! The rules in play, as modules: the base game ([`base`]) and each
//! expansion ([`ferries`], [`inns`], [`abbey`], [`traders`], [`river`],
//! [`abbot`], [`labyrinth`]) give their
//! parts through one fixed set of hooks, and this file is the one place
//! that asks each module in play:
//!
//! | hook | what it gives | here |
//! |---|---|---|
//! | tiles | its [`TileSet`](crate::tile::TileSet), in its `tiles.rs`, with a start tile and tiles drawn first if it has them | `catalogue::TILE_SETS` |
//! | placing | where a tile may go beyond its edges | [`restricts_placement`], [`check_placement`] |
//! | figures | its figure kinds, how many each player has, where they stand, where one may join a feature others hold | [`figures`], [`other_deployments`], [`check_deployment`], [`deployed`], [`stands_on`], [`may_join`] |
//! | steps | its steps of the turn plan, before the draw or after the base game's | [`TurnPlan::of`] |
//! | enter, legal actions, check, apply | its steps' decisions | [`enter`], [`legal_actions`], [`check`], [`apply`] |
//! | placed | what a tile placed changes beyond the board | [`tile_placed`] |
//! | scoring | what comes before and after the turn's scoring, features a turn touched, figures that stay or move on after their feature scores | [`before_scoring`], [`after_scoring`], [`touched`], [`after_scoring_of`] |
//! | points | points of a completed or unfinished feature, beyond them for what the feature passes through, of a farm, a figure's strength | [`completed_points`], [`completed_bonus`], [`open_points`], [`farm_at_end`], [`interactions::farm_now`], [`strength`] |
//! | next | who plays the next turn | [`next_player`] |
//! | end | when the game ends, a last round, its last scoring | [`game_over`], [`after_last_tile`], [`end_of_game`] |
//!
//! A hook gets the [`State`] as its context: an expansion reads the board
//! and its features, and moves figures and tiles, through the state's
//! crate-wide fields and helpers (`put_tile`, `deploy`, `send_back`,
//! `won`, `return_figures`, `next_step`, `finish_turn`). What an expansion
//! keeps lives in [`kept::Extensions`], each part in its module's `kept.rs`.
//! No module imports this file: the hooks' context types are in
//! [`context`], and the setup and a new game are filled in by `configure`.
//! Hooks are plain functions called through
//! `match` and `rules.has(..)` here, so they are statically dispatched and
//! allocate nothing, and a game without an expansion pays a flag test
//! where it would have been asked. Where two expansions meet (ruling F12),
//! [`interactions`] decides. Neither the base game nor the state names an
//! expansion. docs/engine.md shows how to add one.

pub mod abbey;
pub mod abbot;
pub mod base;
mod configure;
mod context;
pub mod ferries;
pub(crate) mod kept;
pub(crate) use context::{Feature, Table, Touched, View};
pub mod inns;
pub(crate) mod interactions;
pub mod labyrinth;
pub mod river;
pub mod traders;

use crate::action::{Action, Location, Step};
use crate::bag::Bag;
use crate::board::Placement;
use crate::error::PlayError;
use crate::event::EventSink;
use crate::features::{PieceId, Totals};
use crate::figure::{Follower, FollowerKind};
pub(crate) use crate::plan::TurnPlan;
use crate::setup::{Expansion, Rules, MAX_PLAYERS};
use crate::state::{Spots, State};
use crate::tile::{FeatureKind, KindInfo, TileKind};

impl TurnPlan {
    pub(crate) fn of(rules: &Rules) -> TurnPlan {
        let mut plan = TurnPlan {
            steps: [Step::GameOver; TurnPlan::MAX],
            len: 0,
            after: [0; Step::COUNT],
            deploy_follows_place: false,
            other_figures: !followers_alike(rules).is_empty() || !figures_apart(rules).is_empty(),
            placing_rules: rules.has_tiles(Expansion::River),
            shared_features: rules.has(Expansion::Labyrinth) && labyrinth::parts_roads(rules.labyrinth_variant()),
            before_draw: 0,
        };
        if rules.has(Expansion::Abbey) && rules.abbeys() > 0 {
            for &s in abbey::STEPS_BEFORE_DRAW {
                plan.push(s);
                plan.before_draw |= 1 << s as u16;
            }
        }
        for &s in base::STEPS {
            plan.push(s);
        }
        if rules.has(Expansion::Ferries) {
            for &s in ferries::STEPS {
                plan.push(s);
            }
        }
        plan
    }
}

/// The expansion that gives figures of `kind` besides the normal
/// follower (`None`: no expansion of this engine does yet).
pub(crate) fn expansion_of(kind: FollowerKind) -> Option<Expansion> {
    match kind {
        FollowerKind::Big => Some(Expansion::Inns),
        FollowerKind::Mayor | FollowerKind::Wagon | FollowerKind::Barn => Some(Expansion::Abbey),
        FollowerKind::Builder | FollowerKind::Pig => Some(Expansion::Traders),
        FollowerKind::Abbot => Some(Expansion::Abbot),
        FollowerKind::Normal => None,
    }
}

/// Each figure kind the expansions in play give, and how many of it each
/// player has unless the rules say otherwise.
pub(crate) fn default_figures(rules: &Rules, mut f: impl FnMut(FollowerKind, u8)) {
    for &(kind, n) in base::FIGURES {
        f(kind, n);
    }
    if rules.has(Expansion::Inns) {
        for &(kind, n) in inns::FIGURES {
            f(kind, n);
        }
    }
    if rules.has(Expansion::Abbey) {
        for &(kind, n) in abbey::FIGURES {
            f(kind, n);
        }
    }
    if rules.has(Expansion::Traders) {
        for &(kind, n) in traders::FIGURES {
            f(kind, n);
        }
    }
    if rules.has(Expansion::Abbot) {
        for &(kind, n) in abbot::FIGURES {
            f(kind, n);
        }
    }
}

/// Each figure kind the expansions in play give, and how many of it each
/// player has under these rules (0 for a figure the setup leaves out).
pub(crate) fn figures(rules: &Rules, mut f: impl FnMut(FollowerKind, u8)) {
    default_figures(rules, |kind, _| f(kind, rules.figure_count(kind)));
}

/// Figures that stand only on some features or corners (the mayor, the
/// wagon, the barn; the builder and the pig, which join a feature of their
/// owner's; the abbot), in the rules in play; [`stands_on`] says where.
#[inline]
pub(crate) fn figures_apart(rules: &Rules) -> &'static [FollowerKind] {
    use FollowerKind::{Abbot, Barn, Builder, Mayor, Pig, Wagon};
    // By Abbey & Mayor, Traders & Builders and The Abbot in play (a bit each).
    const APART: [&[FollowerKind]; 8] = [
        &[],
        &[Mayor, Wagon, Barn],
        &[Builder, Pig],
        &[Mayor, Wagon, Barn, Builder, Pig],
        &[Abbot],
        &[Mayor, Wagon, Barn, Abbot],
        &[Builder, Pig, Abbot],
        &[Mayor, Wagon, Barn, Builder, Pig, Abbot],
    ];
    let i = usize::from(rules.has(Expansion::Abbey))
        | usize::from(rules.has(Expansion::Traders)) << 1
        | usize::from(rules.has(Expansion::Abbot)) << 2;
    APART[i]
}

/// Whether a figure of `kind` may stand on a feature of kind `on`, or why not.
#[inline]
pub(crate) fn stands_on(kind: FollowerKind, on: FeatureKind) -> Result<(), &'static str> {
    if on == FeatureKind::Garden {
        return abbot::on_garden(kind);
    }
    match expansion_of(kind) {
        None | Some(Expansion::Inns | Expansion::Ferries | Expansion::River | Expansion::Labyrinth) => Ok(()),
        Some(Expansion::Abbey) => abbey::stands_on(kind, on),
        Some(Expansion::Traders) => traders::stands_on(kind, on),
        Some(Expansion::Abbot) => abbot::stands_on(kind, on),
    }
}

/// Figures besides the normal follower that deploy wherever a follower may
/// (the big follower), in the rules in play.
#[inline]
pub(crate) fn followers_alike(rules: &Rules) -> &'static [FollowerKind] {
    if rules.has(Expansion::Inns) {
        &[FollowerKind::Big]
    } else {
        &[]
    }
}

/// The most players the rules in play allow (`expansions`: a bit per
/// [`Expansion`]).
pub(crate) fn max_players(expansions: u32) -> usize {
    if expansions & (1 << Expansion::Inns as u32) != 0 {
        inns::MAX_PLAYERS
    } else {
        base::MAX_PLAYERS
    }
}

/// Whether a tile's placements follow more than its edges (The River's
/// tiles), so that each must pass [`check_placement`]; asked only where
/// the turn plan has `placing_rules`, so free for games without such tiles.
#[inline]
pub(crate) fn restricts_placement(kind: &KindInfo) -> bool {
    river::restricts(kind)
}

/// Checks a placement of a tile that [`restricts_placement`], which fits
/// by its edges.
#[cold]
pub(crate) fn check_placement(state: &State, kind: TileKind, p: Placement) -> Result<(), PlayError> {
    river::check(state, kind, p)
}

/// Whether a figure may join piece `p`, whose feature others hold: one
/// deployed on the tile just placed (`placed`), or one moving there (a
/// wagon); asked only where the turn plan has `shared_features` (a road
/// parted by the labyrinth).
#[inline]
pub(crate) fn may_join(state: &State, p: PieceId, placed: bool) -> bool {
    labyrinth::may_join(state, p, placed)
}

/// The tiles players hold outside the bag, which may join the board (the
/// abbeys of Abbey & Mayor).
pub(crate) fn tiles_held(rules: &Rules) -> usize {
    if rules.has(Expansion::Abbey) {
        rules.abbeys() as usize * rules.players()
    } else {
        0
    }
}

/// The deployments of the figures besides the normal follower, on the tile
/// just placed.
#[inline(never)]
pub(crate) fn other_deployments(state: &State, spots: &Spots<'_>, out: &mut Vec<Action>) {
    let seat = state.acting as usize;
    for &kind in followers_alike(&state.rules) {
        if state.supply[kind as usize][seat] > 0 {
            out.extend(spots.names().map(|l| Action::Deploy(kind, l)));
        }
    }
    for &kind in figures_apart(&state.rules) {
        if state.supply[kind as usize][seat] == 0 {
            continue;
        }
        match expansion_of(kind) {
            Some(Expansion::Abbey) => abbey::deployments(kind, state, spots, out),
            Some(Expansion::Traders) => traders::deployments(kind, state, out),
            Some(Expansion::Abbot) => abbot::deployments(state, out),
            _ => {}
        }
    }
    // The Abbot: instead of deploying, an abbot may be taken back.
    if state.rules.has(Expansion::Abbot) {
        abbot::returns(state, out);
    }
}

/// Checks deploying a figure other than the normal follower (in supply)
/// on `loc` of the tile just placed.
pub(crate) fn check_deployment(kind: FollowerKind, loc: Location, state: &State) -> Result<(), PlayError> {
    match expansion_of(kind) {
        Some(Expansion::Abbey) => abbey::check_deployment(kind, loc, state),
        Some(Expansion::Traders) => traders::check_deployment(kind, loc, state),
        Some(Expansion::Abbot) => abbot::check_deployment(loc, state),
        _ => state.check_follower(kind, loc).map(|_| ()),
    }
}

/// A figure other than the normal follower was deployed on piece `p`.
#[inline]
pub(crate) fn deployed(kind: FollowerKind, loc: Location, p: PieceId, state: &mut State) {
    if expansion_of(kind) == Some(Expansion::Abbey) {
        abbey::deployed(kind, loc, p, state);
    }
}

/// What happens to a figure of `kind` when its feature scores.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum AfterScoring {
    /// It goes back to its owner's supply.
    Returns,
    /// It stays on the board (a barn).
    Stays,
    /// It waits, off the board, for its owner to move it on (a wagon):
    /// [`waits_to_move`].
    MovesOn,
}

#[inline]
pub(crate) fn after_scoring_of(kind: FollowerKind) -> AfterScoring {
    match kind {
        FollowerKind::Barn => AfterScoring::Stays,
        FollowerKind::Wagon => AfterScoring::MovesOn,
        _ => AfterScoring::Returns,
    }
}

/// A figure that moves on after its feature scored has left the board.
pub(crate) fn waits_to_move(f: Follower, state: &mut State) {
    abbey::wagon_waits(f, state);
}

/// Prepares an expansion's `step`; false when it has nothing to decide now.
#[inline]
pub(crate) fn enter(step: Step, state: &mut State) -> bool {
    match step {
        Step::PlaceFerry | Step::MoveFerries => {
            let view = View { board: &state.board, features: &state.features, placed: state.placed };
            ferries::enter(step, &mut state.ext.ferries, view)
        }
        Step::Abbey | Step::MoveWagon => abbey::enter(step, state),
        _ => true,
    }
}

/// Appends the legal actions of an expansion's `step`.
pub(crate) fn legal_actions(step: Step, state: &State, out: &mut Vec<Action>) {
    match step {
        Step::PlaceFerry | Step::MoveFerries => ferries::legal_actions(step, &state.ext.ferries, state.view(), out),
        Step::Abbey | Step::MoveWagon => abbey::legal_actions(step, state, out),
        _ => {}
    }
}

/// Checks an action of an expansion's step (and a pass where the base game
/// has none).
pub(crate) fn check(action: Action, state: &State) -> Result<(), PlayError> {
    let step = state.step;
    let checked = match action {
        Action::PlaceFerry(_) | Action::MoveFerry { .. } => {
            ferries::check(action, step, &state.ext.ferries, state.view())
        }
        Action::PlaceAbbey(_) | Action::MoveWagon { .. } => abbey::check(action, state),
        Action::ReturnAbbot(at) if step == Step::Deploy && state.rules.has(Expansion::Abbot) => {
            abbot::check_return(at, state)
        }
        Action::ReturnAbbot(_) if step == Step::Deploy => {
            Err(PlayError::FigureNotInGame { figure: FollowerKind::Abbot, expansion: Some(Expansion::Abbot) })
        }
        Action::ReturnAbbot(_) => Err(PlayError::WrongStep { tried: "take back an abbot", step }),
        Action::Pass if matches!(step, Step::MoveFerries | Step::Abbey | Step::MoveWagon) => Ok(()),
        Action::Pass => Err(PlayError::WrongStep { tried: "pass", step }),
        _ => unreachable!("the base game checks its own actions"),
    };
    checked.map_err(|e| match e {
        PlayError::WrongStep { tried, .. } => state.wrong_step(tried),
        e => e,
    })
}

/// Plays a checked action of an expansion's step, and goes on with the turn.
pub(crate) fn apply<E: EventSink>(action: Action, state: &mut State, events: &mut E) {
    let step = state.step;
    if let Action::ReturnAbbot(at) = action {
        abbot::take_back(at, state, events);
        state.next_step(step, events);
        return;
    }
    match step {
        Step::PlaceFerry | Step::MoveFerries => {
            let table = Table {
                board: &state.board,
                features: &mut state.features,
                followers: &state.followers,
                placed: state.placed,
                acting: state.acting as usize,
            };
            if ferries::apply(action, &mut state.ext.ferries, table, events) {
                state.next_step(step, events);
            }
        }
        Step::Abbey | Step::MoveWagon => abbey::apply(action, state, events),
        _ => unreachable!("the base game plays its own actions"),
    }
}

/// A tile was placed this turn (before any deployment).
#[inline]
pub(crate) fn tile_placed(state: &mut State) {
    if state.rules.has(Expansion::Traders) {
        traders::tile_placed(state);
    }
}

/// Before the turn's scoring.
#[inline]
pub(crate) fn before_scoring<E: EventSink>(state: &mut State, events: &mut E) {
    if state.rules.has(Expansion::Traders) {
        interactions::before_scoring(state, events);
        // The features other expansions touched (a ferry's roads, an
        // abbey's sides), whose completed cities give goods too.
        let others = touched_any(state).then(|| {
            let mut t = Touched::default();
            touched(state, &mut t);
            t
        });
        traders::before_scoring(state, others.as_ref(), events);
    }
}

/// After the turn's scoring; true when an expansion asks a decision before
/// the turn ends (it then ends the turn itself).
#[inline]
pub(crate) fn after_scoring<E: EventSink>(state: &mut State, events: &mut E) -> bool {
    state.rules.has(Expansion::Abbey) && abbey::after_scoring(state, events)
}

/// Whether a turn touched features beyond the tile placed (most turns do
/// not: then nothing needs collecting).
#[inline]
pub(crate) fn touched_any(state: &State) -> bool {
    ferries::touched_any(&state.ext.ferries)
        || (state.rules.has(Expansion::Abbey) && state.board.tile(state.placed).info().wild_edges)
}

pub(crate) fn touched(state: &State, out: &mut Touched) {
    ferries::touched(&state.ext.ferries, state.view(), out);
    abbey::touched(state.view(), out);
}

/// Points of a completed feature.
#[inline]
pub(crate) fn completed_points(rules: &Rules, f: &Feature) -> u32 {
    // Only Inns & Cathedrals' tiles carry marks: most features have none.
    if f.totals.marks > 0 && rules.has(Expansion::Inns) {
        if let Some(points) = inns::completed_points(f) {
            return points;
        }
    }
    base::completed_points(rules, f)
}

/// Points a completed feature of `root` scores beyond [`completed_points`]
/// for what it passes through (a road through the labyrinth).
#[inline]
pub(crate) fn completed_bonus(state: &State, root: PieceId, f: &Feature) -> u32 {
    if f.kind == FeatureKind::Road && state.rules.has(Expansion::Labyrinth) {
        labyrinth::completed_bonus(state, root)
    } else {
        0
    }
}

/// Points of a feature still open at the end (a farm: always).
#[inline]
pub(crate) fn open_points(rules: &Rules, f: &Feature) -> u32 {
    if f.totals.marks > 0 && rules.has(Expansion::Inns) {
        if let Some(points) = inns::open_points(f) {
            return points;
        }
    }
    base::open_points(rules, f)
}

/// Adjusts what each winner of a feature scores (each scores it in full
/// in the base game).
#[inline]
pub(crate) fn points_per_player(_rules: &Rules, _kind: FeatureKind, _won: &mut [u32]) {}

/// The normal follower's strength, which needs no look at the feature.
pub(crate) const NORMAL_STRENGTH: u8 = base::FOLLOWER_STRENGTH;

/// A figure's strength in the majority on a feature with these totals.
/// The kinds after the normal follower belong to the coming expansions;
/// each module will give its own kinds' strength here.
#[inline]
pub fn strength(kind: FollowerKind, totals: &Totals) -> u8 {
    match kind {
        FollowerKind::Normal => base::FOLLOWER_STRENGTH,
        // Inns & Cathedrals: the big follower counts twice.
        FollowerKind::Big => 2,
        // Abbey & Mayor: the wagon counts once, the mayor once per pennant.
        FollowerKind::Wagon => 1,
        FollowerKind::Mayor => totals.pennants,
        FollowerKind::Abbot => abbot::STRENGTH,
        // Traders & Builders' builder and pig, and the barn, win no majority.
        FollowerKind::Builder | FollowerKind::Pig | FollowerKind::Barn => 0,
    }
}

/// The seat that plays the next turn, once a turn ends (`over`: the bag
/// is empty).
#[inline]
pub(crate) fn next_player<E: EventSink>(state: &mut State, over: bool, events: &mut E) -> u8 {
    if state.rules.has(Expansion::Traders) && traders::second_turn(state, over, events) {
        return state.current;
    }
    base::next_player(&state.rules, state.current)
}

/// Whether the game is over once a turn ends with this bag.
#[inline]
pub(crate) fn game_over(bag: &Bag) -> bool {
    base::game_over(bag)
}

/// The bag is empty: true when the rules in play still ask the players a
/// decision (a step entered), false when the game ends now.
#[inline]
pub(crate) fn after_last_tile<E: EventSink>(state: &mut State, _events: &mut E) -> bool {
    state.rules.has(Expansion::Abbey) && state.rules.abbeys() > 0 && abbey::last_round(state)
}

/// Scoring at the end of the game beyond its open features: the trade
/// goods (Traders & Builders).
#[inline]
pub(crate) fn end_of_game(state: &State, scores: &mut [u32; MAX_PLAYERS]) {
    if state.rules.has(Expansion::Traders) {
        traders::end_of_game(&state.ext.traders, state.rules.players(), scores);
    }
}

/// What the farm of `root`, bordering `cities` completed cities, its
/// farmers' strengths by player `strength`, scores at the end if it stays
/// as it is: in all (to its farmers' majority), and to each player. Each
/// module in play adds its part (barns, pigs), and every farm scoring goes
/// through here or [`interactions::farm_now`].
#[inline]
pub(crate) fn farm_at_end(
    state: &State,
    root: PieceId,
    cities: u32,
    strength: [u8; MAX_PLAYERS],
) -> (u32, [u32; MAX_PLAYERS]) {
    // Every rule scores a farm by its completed cities (its farmers', a
    // barn's, a pig's): without one, nobody's figures need looking at.
    if cities == 0 {
        return (0, [0; MAX_PLAYERS]);
    }
    let (value, mut won) = match state.rules.has(Expansion::Abbey) {
        true => abbey::farm_at_end(state, root, cities, strength),
        false => {
            let value = base::FARM_POINTS * cities;
            (value, state.won_by(strength, FeatureKind::Field, value))
        }
    };
    if state.rules.has(Expansion::Traders) {
        traders::farm_bonus(state, root, cities, &mut won);
    }
    (value, won)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_figure_counts_as_strong_as_its_kind() {
        let city = Totals { pennants: 3, ..Totals::default() };
        let plain = Totals::default();
        assert_eq!(strength(FollowerKind::Normal, &plain), 1);
        assert_eq!(strength(FollowerKind::Big, &plain), 2);
        assert_eq!(strength(FollowerKind::Mayor, &city), 3);
        assert_eq!(strength(FollowerKind::Mayor, &plain), 0);
        assert_eq!(strength(FollowerKind::Wagon, &plain), 1);
        for kind in [FollowerKind::Builder, FollowerKind::Pig, FollowerKind::Barn] {
            assert_eq!(strength(kind, &city), 0);
        }
    }
}
