//! A learned evaluation of a position: each player's expected final points.
//!
//! [`Evaluator::features`] counts, for every player, what a good player
//! counts: what their open features score at the end as they are, what
//! completing them would add, weighted by a chance of completion read off
//! the board (each open cell a feature still needs, and how many tiles left
//! in the bag fit its edge demands; a hole no remaining tile fits is dead,
//! and so is the feature), majorities held, shared and lost, followers in
//! supply and stuck on the board, each expansion's figures, and the turns
//! left. A player's expected final score is their score so far plus a
//! linear function of those features, whose weights vary smoothly with the
//! share of the bag left (one weight per feature at each of a few knots,
//! interpolated between them).
//!
//! The weights are learned from self-play by `carcassonne train-eval`
//! ([`crate::train`]): ridge regression of the final margin between two
//! players on the difference of their features. They live in
//! `crates/bots/data/eval-weights.txt` (learned from games of six rule
//! sets), `eval-weights-base.txt` (from base games alone) and
//! `eval-weights-ferries.txt` (from games with The Ferries alone), each
//! game valued with those of its rules ([`Model::for_rules`]), and are
//! compiled in, so nothing is read at run time. The residual spread of that regression, also per knot,
//! turns an expected margin into a win probability.
//!
//! The evaluator reads the engine through its public API only, and keeps
//! its scratch space between calls: once its buffers have grown, an
//! evaluation allocates nothing (a test counts the allocations).

use std::sync::OnceLock;

use carcassonne_engine::board::OpenCell;
use carcassonne_engine::features::{PieceId, Totals};
use carcassonne_engine::rules::strength;
use carcassonne_engine::setup::MAX_PLAYERS;
use carcassonne_engine::{Bag, Expansion, FeatureKind, FollowerKind, Pos, Side, State, TileKind};

/// Points (or probabilities) per player; entries past the player count are 0.
pub type Values = [f32; MAX_PLAYERS];

/// The names of the features, in the order of [`Features`]' columns.
pub const FEATURES: [&str; NF] = [
    "end_open",
    "end_open_phase",
    "city_gain",
    "city_gain_phase",
    "city_gain_raw_phase",
    "road_inn_gain",
    "returning",
    "returning_phase",
    "monastery_missing",
    "monastery_missing_phase",
    "dead_followers",
    "supply",
    "supply_phase",
    "supply_empty_phase",
    "field_followers",
    "field_potential",
    "field_potential_phase",
    "contested_behind",
    "shared_lead",
    "big_supply_phase",
    "builder_on_open_phase",
    "builder_supply_phase",
    "pig_supply_phase",
    "barn_supply_phase",
    "wagon_supply_phase",
    "mayor_supply_phase",
    "abbey_supply_phase",
    "goods",
    "to_move",
];

/// Number of features per player.
pub const NF: usize = 29;

/// Each player's feature values.
pub type Features = [[f32; NF]; MAX_PLAYERS];

/// Knots of the weights, as shares of the bag left (0 at the end).
pub const KNOTS: [f32; 4] = [0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0];

/// The model files compiled in: learned from games of six rule sets, from
/// base games alone, and from games with The Ferries alone.
const WEIGHTS_FILE: &str = include_str!("../data/eval-weights.txt");
const BASE_WEIGHTS_FILE: &str = include_str!("../data/eval-weights-base.txt");
const FERRIES_WEIGHTS_FILE: &str = include_str!("../data/eval-weights-ferries.txt");

fn compiled_in(cell: &'static OnceLock<Model>, text: &str) -> &'static Model {
    cell.get_or_init(|| Model::parse(text).expect("the compiled-in weights files are well formed"))
}

/// Which learned weights an evaluation uses (`weights=` in bot specs).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Weights {
    /// Those learned for the game's rules ([`Model::for_rules`]).
    #[default]
    ByRules,
    /// Those learned from the mix of rule sets, whatever the game.
    Mixed,
}

impl Weights {
    pub fn name(self) -> &'static str {
        match self {
            Weights::ByRules => "rules",
            Weights::Mixed => "mixed",
        }
    }
}

impl std::str::FromStr for Weights {
    type Err = String;

    fn from_str(s: &str) -> Result<Weights, String> {
        match s {
            "rules" => Ok(Weights::ByRules),
            "mixed" => Ok(Weights::Mixed),
            _ => Err(format!("'{s}' names no weights (rules or mixed)")),
        }
    }
}

/// Weights per knot and feature, and the residual spread per knot.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub weights: [[f32; NF]; KNOTS.len()],
    /// Standard deviation of the final margin around its prediction, per knot.
    pub sigma: [f32; KNOTS.len()],
}

impl Model {
    /// The learned model of `crates/bots/data/eval-weights.txt`, from
    /// games of six rule sets.
    pub fn learned() -> &'static Model {
        static MODEL: OnceLock<Model> = OnceLock::new();
        compiled_in(&MODEL, WEIGHTS_FILE)
    }

    /// The learned model of `crates/bots/data/eval-weights-base.txt`,
    /// from base games alone.
    pub fn base() -> &'static Model {
        static MODEL: OnceLock<Model> = OnceLock::new();
        compiled_in(&MODEL, BASE_WEIGHTS_FILE)
    }

    /// The learned model of `crates/bots/data/eval-weights-ferries.txt`,
    /// from games with The Ferries alone.
    pub fn ferries() -> &'static Model {
        static MODEL: OnceLock<Model> = OnceLock::new();
        compiled_in(&MODEL, FERRIES_WEIGHTS_FILE)
    }

    /// The learned model for games of `rules` ([`Weights::ByRules`]), by
    /// which of the four large expansions are in play: none, the base
    /// game's (The River, The Abbot and The Labyrinth add a few tiles or a
    /// figure the features do not count); The Ferries alone, its own;
    /// otherwise the one learned from the mix.
    pub fn for_rules(rules: &carcassonne_engine::Rules) -> &'static Model {
        let ferries = rules.has(Expansion::Ferries);
        let others = [Expansion::Inns, Expansion::Abbey, Expansion::Traders].iter().any(|e| rules.has(*e));
        match (ferries, others) {
            (false, false) => Model::base(),
            (true, false) => Model::ferries(),
            _ => Model::learned(),
        }
    }

    /// Reads the text format that [`Model::to_text`] writes: `#` comments,
    /// a `sigma` line and one `w NAME v0 v1 v2 v3` line per feature.
    pub fn parse(text: &str) -> Result<Model, String> {
        let mut model = Model { weights: [[0.0; NF]; KNOTS.len()], sigma: [0.0; KNOTS.len()] };
        let mut seen = [false; NF];
        let mut sigma = false;
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            let head = words.next().unwrap_or_default();
            let (slot, rest): (Option<usize>, Vec<&str>) = match head {
                "sigma" => (None, words.collect()),
                "w" => {
                    let name = words.next().unwrap_or_default();
                    let i = FEATURES.iter().position(|f| *f == name);
                    let i = i.ok_or_else(|| format!("line {}: unknown feature '{name}'", n + 1))?;
                    (Some(i), words.collect())
                }
                _ => return Err(format!("line {}: expected 'w' or 'sigma', got '{head}'", n + 1)),
            };
            if rest.len() != KNOTS.len() {
                return Err(format!("line {}: expected {} numbers", n + 1, KNOTS.len()));
            }
            let mut values = [0.0; KNOTS.len()];
            for (v, word) in values.iter_mut().zip(&rest) {
                *v = word.parse::<f32>().map_err(|_| format!("line {}: '{word}' is not a number", n + 1))?;
            }
            match slot {
                None => {
                    model.sigma = values;
                    sigma = true;
                }
                Some(i) => {
                    seen[i] = true;
                    for (k, v) in values.iter().enumerate() {
                        model.weights[k][i] = *v;
                    }
                }
            }
        }
        if !sigma {
            return Err("no sigma line".into());
        }
        if let Some(i) = seen.iter().position(|s| !s) {
            return Err(format!("no weights for feature '{}'", FEATURES[i]));
        }
        Ok(model)
    }

    /// The text format, with `header` as comment lines first.
    pub fn to_text(&self, header: &str) -> String {
        let mut out = String::new();
        for line in header.lines() {
            out.push_str(&format!("# {line}\n"));
        }
        out.push_str(&format!("# knots (share of the bag left): {:?}\n", KNOTS));
        let row = |v: [f32; KNOTS.len()]| v.iter().map(|x| format!("{x:.6}")).collect::<Vec<_>>().join(" ");
        out.push_str(&format!("sigma {}\n", row(self.sigma)));
        for (i, name) in FEATURES.iter().enumerate() {
            out.push_str(&format!("w {name} {}\n", row(std::array::from_fn(|k| self.weights[k][i]))));
        }
        out
    }

    /// The interpolation weights of the knots at `phase` (share of the bag left).
    pub fn knot_weights(phase: f32) -> [f32; KNOTS.len()] {
        let mut h = [0.0; KNOTS.len()];
        let x = phase.clamp(0.0, 1.0) * (KNOTS.len() - 1) as f32;
        let k = (x.floor() as usize).min(KNOTS.len() - 2);
        let t = x - k as f32;
        h[k] = 1.0 - t;
        h[k + 1] = t;
        h
    }

    /// The spread of the final margin around its prediction at `phase`.
    pub fn sigma_at(&self, phase: f32) -> f32 {
        let h = Model::knot_weights(phase);
        h.iter().zip(&self.sigma).map(|(a, b)| a * b).sum::<f32>().max(1.0)
    }
}

/// The tiles a road or city spans, each once, kept as the engine's end
/// count keeps them (its `FeatureTiles`), and counted as they come (a
/// population count of the words costs more without a popcnt target).
#[derive(Default)]
struct TileSet {
    bits: [u64; 4],
    len: u32,
}

impl TileSet {
    #[inline]
    fn insert(&mut self, tile: u16) {
        let (w, b) = (&mut self.bits[tile as usize / 64 % 4], 1u64 << (tile % 64));
        self.len += u32::from(*w & b == 0);
        *w |= b;
    }
}

/// The kinds a cell's count looks at together, as vectorised (two SSE
/// registers' worth).
const LANES: usize = 8;

/// A map from pieces to `T` that is emptied without
/// clearing it: each piece's entry holds the stamp of the last walk that
/// set it, and counts only in that walk.
#[derive(Clone, Debug, Default)]
struct Stamped<T> {
    stamp: u32,
    slots: Vec<(u32, T)>,
}

impl<T: Copy + Default> Stamped<T> {
    /// Empties the map, for pieces below `pieces`.
    #[inline]
    fn forget_all(&mut self, pieces: usize) {
        if self.slots.len() < pieces {
            self.slots.resize(pieces, (0, T::default()));
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // Once in four billion walks, the old stamps come round again.
            self.slots.fill((0, T::default()));
            self.stamp = 1;
        }
    }

    /// The value of `p`, if set since the map was last emptied.
    #[inline]
    fn get(&self, p: PieceId) -> Option<T> {
        let (stamp, value) = self.slots[p as usize];
        (stamp == self.stamp).then_some(value)
    }

    /// Sets the value of `p`.
    #[inline]
    fn insert(&mut self, p: PieceId, value: T) {
        self.slots[p as usize] = (self.stamp, value);
    }
}

/// A cell not counted yet (no bag holds this many tiles).
const UNSEEN: u16 = u16::MAX;

/// The kinds of a rule set's bag grouped by their four rotations' edges:
/// kinds in one group fit the same cells.
#[derive(Clone, Debug)]
struct EdgeGroups {
    rules: carcassonne_engine::Rules,
    /// Each kind the rules' bag starts with, and its group.
    kinds: Vec<(TileKind, u16)>,
    /// Each group's edges (as [`packed_signatures`]).
    sigs: Vec<u32>,
}

impl EdgeGroups {
    fn of(rules: carcassonne_engine::Rules) -> EdgeGroups {
        let mut groups = EdgeGroups { rules, kinds: Vec::new(), sigs: Vec::new() };
        for kind in Bag::for_rules(&rules).kinds() {
            let sigs = packed_signatures(kind);
            let g = match groups.sigs.iter().position(|s| *s == sigs) {
                Some(g) => g,
                None => {
                    groups.sigs.push(sigs);
                    groups.sigs.len() - 1
                }
            };
            groups.kinds.push((kind, g as u16));
        }
        groups
    }
}

/// A kind's four rotations' edge signatures, a byte each (rotation `r` in
/// byte `r`).
fn packed_signatures(kind: TileKind) -> u32 {
    let o = &kind.info().oriented;
    u32::from_le_bytes([o[0].signature, o[1].signature, o[2].signature, o[3].signature])
}

/// Computes features and values, keeping scratch space between calls.
#[derive(Clone, Debug)]
pub struct Evaluator {
    model: &'static Model,
    /// The model follows the rules of the position ([`Weights::ByRules`]).
    by_rules: bool,
    /// The features with figures on them this call, and whose.
    on_features: Vec<OnFeature>,
    /// How many tiles left fit each open cell (by its index on the board)
    /// looked at this call; [`UNSEEN`] for the others.
    cells: Vec<u16>,
    /// The prospects of the open cities looked at this call, and the
    /// tiles each spans, by root (a city with figures often borders a
    /// farm too; a farm's cities often border another farm).
    cities: Stamped<(Prospect, u32)>,
    /// The kinds in the bag this call, as their four rotations' edge
    /// signatures and their count (apart, in lanes of one width, so that
    /// a cell's count is vectorised); filled when a cell is first looked at.
    kind_sigs: Vec<u32>,
    kind_counts: Vec<u32>,
    /// The kinds grouped by their edges, for each rule set seen (a search
    /// keeps to one; kept so that changing rules allocates nothing twice),
    /// and each group's count this call.
    groups: Vec<EdgeGroups>,
    group_counts: Vec<u16>,
    /// Tiles at the start, per rules seen (the phase's denominator).
    start: Option<(carcassonne_engine::Rules, u16)>,
}

impl Default for Evaluator {
    /// The learned evaluation, with the weights for each position's rules.
    fn default() -> Evaluator {
        Evaluator::with_weights(Weights::ByRules)
    }
}

/// A feature with figures on it: its root and totals, and each player's
/// strength there, figures (besides pigs and barns) and builders.
#[derive(Clone, Copy, Debug)]
struct OnFeature {
    root: PieceId,
    totals: Totals,
    strong: [u8; MAX_PLAYERS],
    figures: [u8; MAX_PLAYERS],
    builders: [u8; MAX_PLAYERS],
}

impl OnFeature {
    fn new(root: PieceId, totals: Totals) -> OnFeature {
        let none = [0; MAX_PLAYERS];
        OnFeature { root, totals, strong: none, figures: none, builders: none }
    }
}

/// An open feature's prospects: the chance it is completed before the
/// bag is empty, by the evaluation's own estimate.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Prospect {
    /// Chance it is completed (0 when dead).
    pub chance: f32,
    /// A cell it needs is a hole no tile left fits: it can never be completed.
    pub dead: bool,
}

impl Evaluator {
    /// The learned evaluation with the weights `weights` says.
    pub fn with_weights(weights: Weights) -> Evaluator {
        let mut e = Evaluator::new(Model::learned());
        e.by_rules = weights == Weights::ByRules;
        e
    }

    /// Uses the weights `weights` says from the next position on.
    pub fn set_weights(&mut self, weights: Weights) {
        let by_rules = weights == Weights::ByRules;
        if by_rules != self.by_rules {
            self.by_rules = by_rules;
            self.model = Model::learned();
            // The next phase() picks the model again.
            self.start = None;
        }
    }

    /// The evaluation of one model, whatever the rules.
    pub fn new(model: &'static Model) -> Evaluator {
        Evaluator {
            model,
            by_rules: false,
            on_features: Vec::with_capacity(32),
            cells: Vec::with_capacity(64),
            cities: Stamped::default(),
            kind_sigs: Vec::with_capacity(96),
            kind_counts: Vec::with_capacity(96),
            groups: Vec::new(),
            group_counts: Vec::with_capacity(96),
            start: None,
        }
    }

    /// The model of the last position's rules.
    pub fn model(&self) -> &'static Model {
        self.model
    }

    /// The share of the bag left: 1 at the start, 0 at the end.
    pub fn phase(&mut self, state: &State) -> f32 {
        let rules = *state.rules();
        let start = match self.start {
            Some((r, n)) if r == rules => n,
            _ => {
                let n = Bag::for_rules(&rules).total().max(1);
                self.start = Some((rules, n));
                if self.by_rules {
                    self.model = Model::for_rules(&rules);
                }
                n
            }
        };
        (state.bag().total() as f32 / start as f32).min(1.0)
    }

    /// Each player's expected final points (the final scores once the game is over).
    pub fn values(&mut self, state: &State) -> Values {
        if state.is_over() {
            return state.final_score_array().map(|s| s as f32);
        }
        let mut f = [[0.0; NF]; MAX_PLAYERS];
        self.features(state, &mut f);
        let phase = self.phase(state);
        self.values_of(state, &f, phase)
    }

    /// The expected final points from features computed at `phase`.
    pub fn values_of(&self, state: &State, f: &Features, phase: f32) -> Values {
        let h = Model::knot_weights(phase);
        let mut v = [0.0; MAX_PLAYERS];
        let scores = state.scores();
        for p in 0..state.rules().players() {
            let mut x = scores[p] as f32;
            for (k, hk) in h.iter().enumerate() {
                if *hk == 0.0 {
                    continue;
                }
                let w = &self.model.weights[k];
                x += hk * w.iter().zip(&f[p]).map(|(a, b)| a * b).sum::<f32>();
            }
            v[p] = x;
        }
        v
    }

    /// Each player's chance to win (a tie shared), from expected final
    /// points `v` at `phase`: each pairwise margin is taken as normal around
    /// its expectation with the model's spread.
    pub fn win_probabilities(&self, v: &Values, players: usize, phase: f32) -> Values {
        let sigma = self.model.sigma_at(phase);
        let mut w = [0.0; MAX_PLAYERS];
        let mut sum = 0.0;
        for p in 0..players {
            let mut x = 1.0;
            for q in (0..players).filter(|q| *q != p) {
                x *= normal_cdf((v[p] - v[q]) / sigma);
            }
            w[p] = x;
            sum += x;
        }
        if sum > 0.0 {
            for x in w.iter_mut().take(players) {
                *x /= sum;
            }
        }
        w
    }

    /// Fills `out` with every player's features (rows past the player count are 0).
    pub fn features(&mut self, state: &State, out: &mut Features) {
        *out = [[0.0; NF]; MAX_PLAYERS];
        let players = state.rules().players();
        let phase = self.phase(state);
        self.forget_cells(state);
        self.cities.forget_all(state.features().len());

        for (p, f) in out.iter_mut().enumerate().take(players) {
            let supply = state.supply()[p] as f32;
            f[11] = supply;
            f[12] = supply * phase;
            f[13] = if supply == 0.0 { phase } else { 0.0 };
            let of = |k: FollowerKind| state.supply_of(k).get(p).copied().unwrap_or(0) as f32 * phase;
            f[19] = of(FollowerKind::Big);
            f[21] = of(FollowerKind::Builder);
            f[22] = of(FollowerKind::Pig);
            f[23] = of(FollowerKind::Barn);
            f[24] = of(FollowerKind::Wagon);
            f[25] = of(FollowerKind::Mayor);
            f[26] = state.abbeys().get(p).copied().unwrap_or(0) as f32 * phase;
            f[27] = state.goods().get(p).map_or(0, |g| g.iter().map(|x| *x as u32).sum::<u32>()) as f32;
        }
        if let Some(carcassonne_engine::Actor::Player(p)) = state.actor() {
            out[p][28] = 1.0;
        } else if !state.is_over() {
            out[state.current_player() % players][28] = 1.0;
        }

        let features = state.features();
        // The end-of-game count of the open features (as
        // `State::final_score_array` makes it), from what the loop below
        // counts on its walks anyway: the engine scores each feature.
        let mut end_points = state.end_bonus();
        // The figures grouped by feature in one pass, the features in the
        // order their first figure comes (the order the sums below are
        // made in, which their float rounding depends on).
        self.on_features.clear();
        for g in state.followers() {
            let root = features.find(g.piece);
            let at = match self.on_features.iter().position(|o| o.root == root) {
                Some(at) => at,
                None => {
                    self.on_features.push(OnFeature::new(root, features.totals(root)));
                    self.on_features.len() - 1
                }
            };
            let o = &mut self.on_features[at];
            let p = g.player as usize;
            o.strong[p] += strength(g.kind, &o.totals);
            match g.kind {
                FollowerKind::Builder => o.builders[p] += 1,
                FollowerKind::Pig | FollowerKind::Barn => {}
                _ => o.figures[p] += 1,
            }
        }
        // Taken out of `self` while the walks below use its other buffers
        // (read in place: a copy of each costs more than the reading).
        let on_features = std::mem::take(&mut self.on_features);
        for o in &on_features {
            let (root, t, strong, figures, builders) = (o.root, &o.totals, o.strong, &o.figures, &o.builders);
            let kind = features.info(root).kind;
            let best = strong.iter().copied().max().unwrap_or(0);
            let worth = (t.pieces + u16::from(t.pennants)) as f32;
            let marked = t.marks > 0;
            let open_now = match kind {
                FeatureKind::Road if marked => 0.0,
                FeatureKind::Road => t.pieces as f32,
                FeatureKind::City if marked => 0.0,
                FeatureKind::City => worth,
                _ => 0.0,
            };
            // What the walk below counts for its end-of-game score: the
            // tiles a road or city spans, a monastery's neighbours, the
            // completed cities a farm borders.
            let count = match kind {
                FeatureKind::Road | FeatureKind::City if t.open > 0 => {
                    let (pr, tiles) = match kind {
                        FeatureKind::City => self.city_prospect(state, root),
                        _ => self.prospect_spanning(state, root),
                    };
                    let leaders = strong.iter().filter(|s| **s == best && best > 0).count();
                    for p in 0..players {
                        let f = &mut out[p];
                        if builders[p] > 0 {
                            f[20] += builders[p] as f32 * phase;
                        }
                        if figures[p] == 0 {
                            continue;
                        }
                        if pr.dead {
                            f[10] += figures[p] as f32;
                        } else {
                            f[6] += figures[p] as f32 * pr.chance;
                            f[7] += figures[p] as f32 * pr.chance * phase;
                        }
                        if strong[p] == best && best > 0 {
                            if kind == FeatureKind::City {
                                let gain = if marked { 3.0 * worth } else { worth };
                                f[2] += gain * pr.chance;
                                f[3] += gain * pr.chance * phase;
                                f[4] += gain * phase;
                            } else if marked {
                                f[5] += 2.0 * t.pieces as f32 * pr.chance;
                            }
                            if leaders > 1 {
                                f[18] += open_now.max(worth * pr.chance);
                            }
                        } else {
                            f[17] += worth;
                        }
                    }
                    tiles
                }
                FeatureKind::Monastery | FeatureKind::Garden => {
                    let (missing, dead) = self.monastery(state, root);
                    for p in 0..players {
                        if figures[p] == 0 || strong[p] != best {
                            continue;
                        }
                        let f = &mut out[p];
                        if missing == 0 {
                            continue;
                        }
                        if dead {
                            f[10] += figures[p] as f32;
                        } else {
                            f[6] += figures[p] as f32 * 0.5;
                            f[7] += figures[p] as f32 * 0.5 * phase;
                            f[8] += missing as f32;
                            f[9] += missing as f32 * phase;
                        }
                    }
                    8 - missing
                }
                FeatureKind::Field => {
                    let (potential, completed) = self.field_potential(state, root);
                    for p in 0..players {
                        let f = &mut out[p];
                        f[14] += figures[p] as f32;
                        if strong[p] == best && best > 0 {
                            f[15] += 3.0 * potential;
                            f[16] += 3.0 * potential * phase;
                        } else if figures[p] > 0 {
                            f[17] += 3.0 * potential;
                        }
                    }
                    completed
                }
                // Completed roads and cities whose figures stay (a builder's, a wagon's).
                _ if best > 0 => {
                    let mut tiles = TileSet::default();
                    for m in features.members(root) {
                        tiles.insert(features.info(m).tile);
                    }
                    tiles.len
                }
                _ => continue,
            };
            for (won, w) in end_points.iter_mut().zip(state.end_points(root, count, strong)) {
                *won += w;
            }
        }
        self.on_features = on_features;
        let scores = state.scores();
        for p in 0..players {
            // As the final scores less the scores, in the same float steps.
            let open = (scores[p] + end_points[p]) as f32 - scores[p] as f32;
            out[p][0] = open;
            out[p][1] = open * phase;
        }
    }

    /// The completion estimate of the open road, city, monastery or
    /// garden of each of `pieces` (any piece of the feature), as the
    /// evaluation counts it: each open cell the feature still needs is
    /// filled with a chance of k / (k + 2), k the tiles left that fit it
    /// (any rotation), and a cell no tile left fits makes it dead. `None`
    /// for a field, or a feature complete already.
    pub fn prospects(&mut self, state: &State, pieces: &[PieceId]) -> Vec<Option<Prospect>> {
        self.forget_cells(state);
        let features = state.features();
        pieces
            .iter()
            .map(|&p| {
                let root = features.find(p);
                match features.info(root).kind {
                    FeatureKind::Road | FeatureKind::City if features.totals(root).open > 0 => {
                        Some(self.prospect(state, root))
                    }
                    FeatureKind::Monastery | FeatureKind::Garden => self.monastery_prospect(state, root),
                    _ => None,
                }
            })
            .collect()
    }

    /// A monastery's or garden's chance to be surrounded, by the same
    /// reckoning as a road's or city's open cells; `None` when it is.
    fn monastery_prospect(&mut self, state: &State, root: PieceId) -> Option<Prospect> {
        let pos = state.board().tile(state.features().info(root).tile as usize).pos;
        let mut chance = 1.0f32;
        let mut missing = 0;
        let mut dead = false;
        for at in pos.surrounding() {
            if state.board().tile_index(at).is_some() {
                continue;
            }
            missing += 1;
            match self.fits(state, at) {
                Some(0) => dead = true,
                Some(k) => chance *= k as f32 / (k as f32 + 2.0),
                // A cell beside no tile yet asks nothing: every tile left fits it.
                None => {
                    let k = state.bag().total() as f32;
                    chance *= k / (k + 2.0);
                }
            }
        }
        (missing > 0).then_some(Prospect { chance: if dead { 0.0 } else { chance }, dead })
    }

    /// How many tiles left in the bag fit the open cell at `pos` (any
    /// rotation); `None` if it is not an open cell.
    pub fn tiles_fitting(&mut self, state: &State, pos: Pos) -> Option<u16> {
        self.forget_cells(state);
        self.fits(state, pos)
    }

    /// Forgets the cells and kinds of the last position.
    fn forget_cells(&mut self, state: &State) {
        self.cells.clear();
        self.cells.resize(state.board().open_cells().len(), UNSEEN);
        // Filled when a cell is first counted.
        self.kind_sigs.clear();
        self.kind_counts.clear();
    }

    /// As [`tiles_fitting`](Self::tiles_fitting), remembered for the rest
    /// of this evaluation.
    fn fits(&mut self, state: &State, pos: Pos) -> Option<u16> {
        let i = state.board().open_cell_index(pos)?;
        Some(self.fits_cell(state, i))
    }

    /// As [`fits`](Self::fits), for the `i`-th of the board's open cells.
    #[inline]
    fn fits_cell(&mut self, state: &State, i: usize) -> u16 {
        match self.cells[i] {
            UNSEEN => self.count_cell(state, i),
            n => n,
        }
    }

    /// Counts the tiles left that fit the `i`-th open cell, and keeps the
    /// count (out of line: most cells are asked again).
    #[inline(never)]
    fn count_cell(&mut self, state: &State, i: usize) -> u16 {
        let cell: &OpenCell = &state.board().open_cells()[i];
        if self.kind_sigs.is_empty() {
            self.gather_kinds(state);
        }
        let fitting = self.kind_sigs.iter().zip(&self.kind_counts);
        // Without a branch, so that it is vectorised (the kinds padded to
        // whole vectors, none left over); at most the bag's total.
        let n = fitting.map(|(sigs, n)| if cell.accepts_any(*sigs) { *n } else { 0 }).sum::<u32>() as u16;
        self.cells[i] = n;
        n
    }

    /// Fills `kinds` with the bag's tiles by their edges, from the
    /// rules' groups (made once for each rule set), padded with kinds
    /// none of (count 0) to whole lanes. Out of line, once an evaluation,
    /// so that the count it precedes keeps a small frame.
    #[inline(never)]
    fn gather_kinds(&mut self, state: &State) {
        self.gather_kinds_unpadded(state);
        while !self.kind_sigs.len().is_multiple_of(LANES) {
            self.kind_sigs.push(0);
            self.kind_counts.push(0);
        }
    }

    fn gather_kinds_unpadded(&mut self, state: &State) {
        let rules = *state.rules();
        let at = match self.groups.iter().position(|g| g.rules == rules) {
            Some(at) => at,
            None => {
                self.groups.push(EdgeGroups::of(rules));
                self.groups.len() - 1
            }
        };
        let (bag, groups) = (state.bag(), &self.groups[at]);
        self.group_counts.clear();
        self.group_counts.resize(groups.sigs.len(), 0);
        for &(kind, g) in &groups.kinds {
            self.group_counts[g as usize] += u16::from(bag.count(kind));
        }
        if self.group_counts.iter().sum::<u16>() == bag.total() {
            for (sigs, n) in groups.sigs.iter().zip(&self.group_counts).filter(|(_, n)| **n > 0) {
                self.kind_sigs.push(*sigs);
                self.kind_counts.push(u32::from(*n));
            }
            return;
        }
        // A bag with tiles its rules do not start with: each kind looked at.
        for kind in bag.kinds() {
            let sigs = packed_signatures(kind);
            match self.kind_sigs.iter().position(|s| *s == sigs) {
                Some(at) => self.kind_counts[at] += u32::from(bag.count(kind)),
                None => {
                    self.kind_sigs.push(sigs);
                    self.kind_counts.push(u32::from(bag.count(kind)));
                }
            }
        }
    }

    /// The chance that the road or city `root` is completed: every open
    /// cell it reaches must be filled by a fitting tile, each the likelier
    /// the more tiles left fit it.
    fn prospect(&mut self, state: &State, root: PieceId) -> Prospect {
        self.prospect_spanning(state, root).0
    }

    /// As [`prospect`](Self::prospect), with the number of tiles the
    /// feature spans (found on the same walk).
    fn prospect_spanning(&mut self, state: &State, root: PieceId) -> (Prospect, u32) {
        let mut chance = 1.0f32;
        let mut dead = false;
        let tiles = open_cell_indices_of(state, root, |i| match self.fits_cell(state, i) {
            0 => dead = true,
            k => chance *= k as f32 / (k as f32 + 2.0),
        });
        if dead {
            chance = 0.0;
        }
        (Prospect { chance, dead }, tiles)
    }

    /// A monastery's missing neighbours, and whether one of them is a hole
    /// no tile left fits.
    fn monastery(&mut self, state: &State, root: PieceId) -> (u32, bool) {
        let pos = state.board().tile(state.features().info(root).tile as usize).pos;
        let (mut missing, mut dead) = (0, false);
        for at in pos.surrounding() {
            if state.board().tile_index(at).is_some() {
                continue;
            }
            missing += 1;
            if self.fits(state, at) == Some(0) {
                dead = true;
            }
        }
        (missing, dead)
    }

    /// Open cities bordered by the field of `root`, each weighted by its
    /// chance of completion (completed ones are in the end count already),
    /// and how many completed ones it borders.
    fn field_potential(&mut self, state: &State, root: PieceId) -> (f32, u32) {
        let features = state.features();
        let (mut sum, mut completed) = (0.0, 0);
        state.cities_bordered(root, |city| {
            if features.totals(city).open == 0 {
                completed += 1;
                return;
            }
            sum += self.city_prospect(state, city).0.chance;
        });
        (sum, completed)
    }

    /// As [`prospect_spanning`](Self::prospect_spanning) for the open city
    /// `root`, kept for the rest of this evaluation.
    fn city_prospect(&mut self, state: &State, root: PieceId) -> (Prospect, u32) {
        if let Some(known) = self.cities.get(root) {
            return known;
        }
        let known = self.prospect_spanning(state, root);
        self.cities.insert(root, known);
        known
    }
}

/// Each empty cell that the road or city `root` runs into, once: the cells
/// it needs filled to be completed.
pub fn open_cells_of(state: &State, root: PieceId, mut f: impl FnMut(Pos)) {
    let cells = state.board().open_cells();
    open_cell_indices_of(state, root, |i| f(cells[i].pos));
}

/// As [`open_cells_of`], each cell by its index among the board's open
/// cells (an empty cell beside a tile is always one); returns how many
/// tiles the feature spans.
fn open_cell_indices_of(state: &State, root: PieceId, mut f: impl FnMut(usize)) -> u32 {
    let (features, board) = (state.features(), state.board());
    // Distinct cells of this feature; a feature rarely reaches more.
    let mut seen = [0u16; 24];
    let mut n = 0;
    let mut tiles = TileSet::default();
    for m in features.members(root) {
        let info = features.info(m);
        tiles.insert(info.tile);
        let tile = board.tile(info.tile as usize);
        let mut sides = sides_of(tile.oriented().side_piece, info.local);
        while sides != 0 {
            let s = sides.trailing_zeros() as usize / 8;
            sides &= sides - 1;
            let Some(i) = board.open_cell_index(tile.pos.step(Side::from_index(s))) else { continue };
            if seen[..n].contains(&(i as u16)) {
                continue;
            }
            if n < seen.len() {
                seen[n] = i as u16;
                n += 1;
            }
            f(i);
        }
    }
    tiles.len
}

/// The sides (N, E, S, W) whose piece is `piece`, as the high bit of byte
/// `s`: the four compared at once.
#[inline]
fn sides_of(side_piece: [u8; 4], piece: u8) -> u32 {
    const LOW7: u32 = 0x7F7F_7F7F;
    let v = u32::from_le_bytes(side_piece) ^ (u32::from(piece) * 0x0101_0101);
    // High bit set exactly in the bytes of `v` that are zero.
    !(((v & LOW7) + LOW7) | v | LOW7)
}

/// The value of `v` to `player`: their points less the best other player's,
/// so that taking points from a rival counts as much as scoring; in a solo
/// game, their points.
pub fn margin(v: &Values, players: usize, player: usize) -> f32 {
    let best_other = (0..players).filter(|p| *p != player).map(|p| v[p]).reduce(f32::max);
    v[player] - best_other.unwrap_or(0.0)
}

/// The standard normal distribution function (Abramowitz and Stegun 7.1.26,
/// error below 1.5e-7).
pub fn normal_cdf(x: f32) -> f32 {
    let z = (x as f64) / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * z.abs());
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t + 0.254_829_592)
            * t
            * (-z * z).exp();
    let erf = if z >= 0.0 { y } else { -y };
    (0.5 * (1.0 + erf)) as f32
}
