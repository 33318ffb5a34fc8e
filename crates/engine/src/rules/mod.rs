//! The rules in play, as modules: the base game ([`base`]) and each
//! expansion ([`ferries`]) give their parts through one fixed set of hooks,
//! and this file is the one place that asks each module in play:
//!
//! | hook | what it gives | here |
//! |---|---|---|
//! | tiles | its [`TileSet`] | [`TILE_SETS`] |
//! | figures | its follower kinds and how many each player has | [`figures`] |
//! | steps | its steps of the turn plan, before the draw or after the base game's | [`TurnPlan::of`] |
//! | enter, legal actions, check, apply | its steps' decisions | [`enter`], [`legal_actions`], [`check`], [`apply`] |
//! | touched | features a turn touched beyond the tile placed, for scoring | [`touched`] |
//! | points | points of a completed or unfinished feature, and per player | [`completed_points`], [`open_points`], [`points_per_player`] |
//! | strength | a figure's strength in a majority | [`strength`] |
//! | next | who plays the next turn | [`next_player`] |
//! | end | when the game ends, and its last scoring | [`game_over`], [`end_of_game`] |
//!
//! Hooks are plain functions called through `match` and `rules.has(..)`
//! here, so they are statically dispatched and allocate nothing. Where two
//! expansions meet (ruling F12), [`interactions`] decides. The base game
//! names no expansion. docs/engine.md shows how to add one.

pub mod abbey;
pub mod base;
pub mod ferries;
pub mod inns;
pub(crate) mod interactions;
pub mod traders;

use crate::action::{Action, Step};
use crate::bag::Bag;
use crate::board::Board;
use crate::error::PlayError;
use crate::event::EventSink;
use crate::features::{Features, PieceId, Totals};
use crate::setup::{Expansion, Rules};
use crate::state::{Follower, FollowerKind};
use crate::tile::{FeatureKind, TileSet};

/// Every module's tiles, base game first: the catalogue's order.
pub(crate) static TILE_SETS: [&TileSet; 5] =
    [&base::TILES, &ferries::TILES, &inns::TILES, &abbey::TILES, &traders::TILES];

/// What each expansion in play keeps in the state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Extensions {
    pub ferries: ferries::Ferries,
    pub abbey: abbey::AbbeyMayor,
    pub traders: traders::Traders,
}

impl Extensions {
    pub(crate) fn new(rules: &Rules) -> Extensions {
        let mut ext = Extensions::default();
        if rules.has(Expansion::Abbey) {
            ext.abbey = abbey::AbbeyMayor::new(rules);
        }
        ext
    }

    pub(crate) fn clone_from(&mut self, source: &Extensions) {
        self.ferries.clone_from(&source.ferries);
        self.abbey.clone_from(&source.abbey);
        self.traders = source.traders;
    }
}

/// What a hook may read: the board, its features, the tile placed this turn.
#[derive(Clone, Copy)]
pub(crate) struct View<'a> {
    pub board: &'a Board,
    pub features: &'a Features,
    pub placed: usize,
}

/// What a hook playing an action may change: the features (the board and
/// the figures on it stay as they are), and who acts.
pub(crate) struct Table<'a> {
    pub board: &'a Board,
    pub features: &'a mut Features,
    pub followers: &'a [Follower],
    pub placed: usize,
    pub acting: usize,
}

/// A feature being scored, with what its points depend on.
pub(crate) struct Feature {
    pub kind: FeatureKind,
    /// Tiles it spans, each once.
    pub tiles: u32,
    pub totals: Totals,
    /// A monastery's surrounding cells that hold tiles.
    pub neighbours: u32,
    /// A farm's bordering completed cities.
    pub cities: u32,
}

/// The steps of a turn as the rules in play make them, computed once per
/// game: any expansion's steps before the draw (a decision instead of or
/// before drawing), the base game's draw, place and deploy, then the
/// expansions' steps after them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct TurnPlan {
    steps: [Step; TurnPlan::MAX],
    len: u8,
    /// For each step (by its number), where the steps after it start.
    after: [u8; Step::COUNT],
    /// Whether deploying comes right after placing.
    deploy_follows_place: bool,
    /// Whether the rules give figures besides the normal follower.
    other_figures: bool,
}

impl TurnPlan {
    const MAX: usize = 8;

    pub(crate) fn of(rules: &Rules) -> TurnPlan {
        let mut plan = TurnPlan {
            steps: [Step::GameOver; TurnPlan::MAX],
            len: 0,
            after: [0; Step::COUNT],
            deploy_follows_place: false,
            other_figures: !followers_alike(rules).is_empty() || !figures_apart(rules).is_empty(),
        };
        if rules.has(Expansion::Abbey) && rules.abbeys() > 0 {
            for &s in abbey::STEPS_BEFORE_DRAW {
                plan.push(s);
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

    /// A plan of these steps, for tests of plans no rules make yet.
    #[cfg(test)]
    pub(crate) fn from_steps(steps: &[Step]) -> TurnPlan {
        let mut plan = TurnPlan {
            steps: [Step::GameOver; TurnPlan::MAX],
            len: 0,
            after: [0; Step::COUNT],
            deploy_follows_place: false,
            other_figures: false,
        };
        for &s in steps {
            plan.push(s);
        }
        plan
    }

    fn push(&mut self, step: Step) {
        self.steps[self.len as usize] = step;
        self.len += 1;
        self.after[step as usize] = self.len;
        self.deploy_follows_place = self.after(Step::Place).first() == Some(&Step::Deploy);
    }

    pub(crate) fn steps(&self) -> &[Step] {
        &self.steps[..self.len as usize]
    }

    /// Whether deploying comes right after placing, as the base game's
    /// steps do in every plan of the rules in play.
    #[inline]
    pub(crate) fn deploy_follows_place(&self) -> bool {
        self.deploy_follows_place
    }

    /// Whether the rules give figures besides the normal follower (the
    /// deploy step then offers them too).
    #[inline]
    pub(crate) fn other_figures(&self) -> bool {
        self.other_figures
    }

    /// The steps that follow `step` in the turn.
    #[inline]
    pub(crate) fn after(&self, step: Step) -> &[Step] {
        &self.steps[self.after[step as usize] as usize..self.len as usize]
    }
}

/// The expansion that gives figures of `kind` besides the normal
/// follower (`None`: no expansion of this engine does yet).
pub(crate) fn expansion_of(kind: FollowerKind) -> Option<Expansion> {
    match kind {
        FollowerKind::Big => Some(Expansion::Inns),
        FollowerKind::Mayor | FollowerKind::Wagon | FollowerKind::Barn => Some(Expansion::Abbey),
        FollowerKind::Builder | FollowerKind::Pig => Some(Expansion::Traders),
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
}

/// Each figure kind the expansions in play give, and how many of it each
/// player has under these rules (0 for a figure the setup leaves out).
pub(crate) fn figures(rules: &Rules, mut f: impl FnMut(FollowerKind, u8)) {
    default_figures(rules, |kind, _| f(kind, rules.figure_count(kind)));
}

/// Figures that stand only on some features or corners (the mayor, the
/// wagon, the barn; the builder and the pig, which join a feature of their
/// owner's), in the rules in play; [`stands_on`] says where.
#[inline]
pub(crate) fn figures_apart(rules: &Rules) -> &'static [FollowerKind] {
    use FollowerKind::{Barn, Builder, Mayor, Pig, Wagon};
    match (rules.has(Expansion::Abbey), rules.has(Expansion::Traders)) {
        (false, false) => &[],
        (true, false) => &[Mayor, Wagon, Barn],
        (false, true) => &[Builder, Pig],
        (true, true) => &[Mayor, Wagon, Barn, Builder, Pig],
    }
}

/// Whether a figure of `kind` may stand on a feature of kind `on`, or why not.
#[inline]
pub(crate) fn stands_on(kind: FollowerKind, on: FeatureKind) -> Result<(), &'static str> {
    match (kind, on) {
        (FollowerKind::Normal | FollowerKind::Big, _) => Ok(()),
        (FollowerKind::Builder, FeatureKind::Road | FeatureKind::City) | (FollowerKind::Pig, FeatureKind::Field) => {
            Ok(())
        }
        (FollowerKind::Builder, _) => Err("the builder goes on a road or a city"),
        (FollowerKind::Pig, _) => Err("the pig goes on a field"),
        (kind, on) => abbey::stands_on(kind, on),
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

/// Prepares an expansion's `step`; false when it has nothing to decide now.
#[inline]
pub(crate) fn enter(step: Step, rules: &Rules, ext: &mut Extensions, view: View) -> bool {
    match step {
        Step::PlaceFerry | Step::MoveFerries => {
            rules.has(Expansion::Ferries) && ferries::enter(step, &mut ext.ferries, view)
        }
        _ => true,
    }
}

/// Appends the legal actions of an expansion's `step`.
pub(crate) fn legal_actions(step: Step, ext: &Extensions, view: View, out: &mut Vec<Action>) {
    if let Step::PlaceFerry | Step::MoveFerries = step {
        ferries::legal_actions(step, &ext.ferries, view, out)
    }
}

/// Checks an action of an expansion's step (and a pass where the base game
/// has none).
pub(crate) fn check(action: Action, step: Step, ext: &Extensions, view: View) -> Result<(), PlayError> {
    match action {
        Action::PlaceFerry(_) | Action::MoveFerry { .. } => ferries::check(action, step, &ext.ferries, view),
        Action::Pass if step == Step::MoveFerries => Ok(()),
        Action::Pass => Err(PlayError::WrongStep { tried: "pass", step }),
        _ => unreachable!("the base game checks its own actions"),
    }
}

/// Plays a checked action of an expansion's step; true when the step is
/// over and the turn goes on to the next.
pub(crate) fn apply<E: EventSink>(
    action: Action,
    step: Step,
    ext: &mut Extensions,
    table: Table,
    events: &mut E,
) -> bool {
    match step {
        Step::PlaceFerry | Step::MoveFerries => ferries::apply(action, &mut ext.ferries, table, events),
        _ => unreachable!("the base game plays its own actions"),
    }
}

/// Pieces of features a turn touched beyond the tile placed, which step 5
/// scores if they are complete.
pub(crate) struct Touched {
    /// Room for every jetty of every lake (eight lakes of four at most),
    /// and the pieces of the tile placed.
    pieces: [PieceId; 40],
    len: usize,
}

impl Default for Touched {
    fn default() -> Touched {
        Touched { pieces: [crate::features::NONE; 40], len: 0 }
    }
}

impl Touched {
    pub(crate) fn push(&mut self, p: PieceId) {
        self.pieces[self.len] = p;
        self.len += 1;
    }

    pub(crate) fn pieces(&self) -> impl Iterator<Item = PieceId> + '_ {
        self.pieces[..self.len].iter().copied()
    }
}

/// Whether a turn touched features beyond the tile placed (most turns do
/// not: then nothing needs collecting).
#[inline]
pub(crate) fn touched_any(rules: &Rules, ext: &Extensions, view: View) -> bool {
    ferries::touched_any(&ext.ferries)
        || (rules.has(Expansion::Abbey) && view.board.tile(view.placed).kind.info().abbey)
}

pub(crate) fn touched(ext: &Extensions, view: View, out: &mut Touched) {
    ferries::touched(&ext.ferries, view, out);
    abbey::touched(view, out);
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
        // Traders & Builders' builder and pig, and the barn, win no majority.
        FollowerKind::Builder | FollowerKind::Pig | FollowerKind::Barn => 0,
    }
}

/// The seat that plays the turn after `current`'s.
#[inline]
pub(crate) fn next_player(rules: &Rules, current: u8) -> u8 {
    base::next_player(rules, current)
}

/// Whether the game is over once a turn ends with this bag.
#[inline]
pub(crate) fn game_over(bag: &Bag) -> bool {
    base::game_over(bag)
}

/// Scoring at the end of the game beyond its open features: the trade
/// goods (Traders & Builders).
#[inline]
pub(crate) fn end_of_game(rules: &Rules, ext: &Extensions, scores: &mut [u32]) {
    if rules.has(Expansion::Traders) {
        traders::end_of_game(&ext.traders, rules.players(), scores);
    }
}

/// What a farm scores at the end per completed city it borders: to its
/// followers' majority, and to each player with a barn there (once,
/// however many barns they have there). A farm with no barn scores as the
/// base game has it.
#[inline]
pub(crate) fn farm_points_per_city(barns: bool) -> (u32, u32) {
    if barns {
        (abbey::BARN_JOINED_FARM_POINTS, abbey::BARN_END_POINTS)
    } else {
        (base::FARM_POINTS, 0)
    }
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
