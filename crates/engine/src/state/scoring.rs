//! Scoring: majorities by strength, points per player, completed features
//! during the game and everything open at its end. The points themselves
//! come from the rules in play ([`crate::rules`]).

use crate::event::{Event, EventSink, Scoring};
use crate::features::{PieceId, PieceSet};
use crate::figure::Follower;
use crate::geometry::Pos;
use crate::rules::{self, AfterScoring, Feature};
use crate::setup::{MAX_FIGURES, MAX_FOLLOWERS, MAX_PLAYERS};
use crate::tile::FeatureKind;

use super::{FollowerKind, State};

/// The most figures the board can hold: six players with the most
/// followers a setup allows and the most of every other figure.
const MAX_ON_BOARD: usize = MAX_PLAYERS * (MAX_FOLLOWERS as usize + (FollowerKind::COUNT - 1) * MAX_FIGURES as usize);

/// Tiles spanned by a feature, each once.
#[derive(Default)]
pub(crate) struct FeatureTiles {
    /// A bit per tile index: a game has at most 256 tiles (every set's
    /// and the most abbeys, as a test counts them).
    bits: [u64; 4],
    /// How many: counted as they come, cheaper than counting the bits
    /// without a population count instruction.
    len: u32,
}

impl FeatureTiles {
    fn insert(&mut self, tile: u16) -> bool {
        let (w, b) = (tile as usize / 64 % 4, 1u64 << (tile % 64));
        let new = self.bits[w] & b == 0;
        self.bits[w] |= b;
        self.len += u32::from(new);
        new
    }

    fn len(&self) -> u32 {
        self.len
    }
}

impl State {
    /// Scores the feature of `p` if it is complete and holds figures (most
    /// features a turn touches do not: that check stays inline).
    #[inline]
    pub(super) fn score_if_complete<E: EventSink>(&mut self, p: PieceId, events: &mut E) {
        let root = self.features.find_mut(p);
        let t = self.features.root_totals(root);
        if t.open > 0 || t.followers == 0 {
            return;
        }
        self.score_completed(root, t, events);
    }

    #[inline(never)]
    fn score_completed<E: EventSink>(&mut self, root: PieceId, t: crate::features::Totals, events: &mut E) {
        let kind = self.features.info(root).kind;
        let tiles = self.feature_tiles(root);
        let feature = Feature { kind, tiles: tiles.len(), totals: t, neighbours: 0, cities: 0 };
        let points = rules::completed_points(&self.rules, &feature) + rules::completed_bonus(self, root, &feature);
        self.award(root, kind, points, tiles, events);
    }

    /// Scores monasteries (and what scores as one) with a figure on or
    /// around `at` that are now surrounded.
    pub(super) fn score_monasteries_around<E: EventSink>(&mut self, at: Pos, events: &mut E) {
        // Most turns surround none: the figures on monasteries say so.
        let surrounded = self.monks.iter().any(|&p| {
            let pos = self.board.tile(self.features.info(p).tile as usize).pos;
            (pos.x - at.x).abs() <= 1 && (pos.y - at.y).abs() <= 1 && self.neighbours(pos) == 8
        });
        if !surrounded {
            return;
        }
        // Looked at in the order of the figures, which the events follow.
        let mut i = 0;
        while i < self.followers.len() {
            let p = self.followers[i].piece;
            i += 1;
            let info = self.features.info(p);
            if !info.kind.scores_as_monastery() {
                continue;
            }
            let pos = self.board.tile(info.tile as usize).pos;
            if (pos.x - at.x).abs() <= 1 && (pos.y - at.y).abs() <= 1 && self.neighbours(pos) == 8 {
                let mut tiles = FeatureTiles::default();
                tiles.insert(info.tile);
                let feature =
                    Feature { kind: info.kind, tiles: 1, totals: self.features.totals(p), neighbours: 8, cities: 0 };
                let points = rules::completed_points(&self.rules, &feature);
                self.award(p, info.kind, points, tiles, events);
                // Awarding removed followers from the list: look at it afresh.
                i = 0;
            }
        }
    }

    /// How many of the eight cells around `pos` hold tiles.
    pub(crate) fn neighbours(&self, pos: Pos) -> u32 {
        self.board.tiles_around(pos)
    }

    pub(crate) fn feature_tiles(&self, root: PieceId) -> FeatureTiles {
        let mut tiles = FeatureTiles::default();
        for m in self.features.members(root) {
            tiles.insert(self.features.info(m).tile);
        }
        tiles
    }

    /// Per-player strength on the feature of `root`: each figure counts as
    /// strong as the rules make its kind there.
    pub(crate) fn majority(&self, root: PieceId) -> [u8; MAX_PLAYERS] {
        self.strength_of(root, self.followers.iter().filter(|f| self.features.find(f.piece) == root))
    }

    /// Per-player strength of the figures `on` the feature of `root`.
    #[inline]
    fn strength_of<'a>(&self, root: PieceId, on: impl Iterator<Item = &'a Follower>) -> [u8; MAX_PLAYERS] {
        let mut counts = [0u8; MAX_PLAYERS];
        for f in on {
            // The normal follower is by far the most common figure: its
            // strength needs no look at the feature.
            counts[f.player as usize] += match f.kind {
                super::FollowerKind::Normal => rules::NORMAL_STRENGTH,
                kind => rules::strength(kind, &self.features.root_totals(root)),
            };
        }
        counts
    }

    /// Points each player scores for a feature worth `points`: the players
    /// with the greatest strength (at least one), each as the rules give it.
    #[inline]
    pub(crate) fn won(&self, root: PieceId, kind: FeatureKind, points: u32) -> [u32; MAX_PLAYERS] {
        self.won_by(self.majority(root), kind, points)
    }

    /// As [`won`](Self::won), with the players' strengths on the feature.
    #[inline]
    pub(crate) fn won_by(&self, strength: [u8; MAX_PLAYERS], kind: FeatureKind, points: u32) -> [u32; MAX_PLAYERS] {
        let mut won = [0; MAX_PLAYERS];
        for (seat, w) in winners(strength).into_iter().zip(&mut won) {
            if seat {
                *w = points;
            }
        }
        rules::points_per_player(&self.rules, kind, &mut won);
        won
    }

    /// Gives the points of a completed feature to its majority and returns its followers.
    fn award<E: EventSink>(
        &mut self,
        root: PieceId,
        kind: FeatureKind,
        points: u32,
        tiles: FeatureTiles,
        events: &mut E,
    ) {
        let won = self.won(root, kind, points);
        for (s, w) in self.scores.iter_mut().zip(won) {
            *s += w;
        }
        if E::ENABLED {
            events.push(Event::Scored(Scoring {
                kind,
                completed: true,
                end_of_game: false,
                tiles: self.tile_positions(&tiles),
                points: won[..self.rules.players()].to_vec(),
            }));
        }
        self.return_figures(root, events);
    }

    /// Takes the figures on the feature of `root` off the board, back to
    /// their owners, unless the rules in play keep a kind on the board or
    /// let it wait to move on.
    pub(crate) fn return_figures<E: EventSink>(&mut self, root: PieceId, events: &mut E) {
        let mut i = 0;
        while i < self.followers.len() {
            let f = self.followers[i];
            if self.features.find(f.piece) != root {
                i += 1;
                continue;
            }
            match rules::after_scoring_of(f.kind) {
                AfterScoring::Returns => self.send_back(i, events),
                AfterScoring::Stays => i += 1,
                AfterScoring::MovesOn => {
                    self.lift(i);
                    rules::waits_to_move(f, self);
                }
            }
        }
    }

    /// Takes the `i`-th figure on the board back to its owner's supply.
    pub(crate) fn send_back<E: EventSink>(&mut self, i: usize, events: &mut E) {
        let f = self.lift(i);
        self.supply[f.kind as usize][f.player as usize] += 1;
        if E::ENABLED {
            let (at, location) = self.piece_location(f.piece);
            events.push(Event::FollowerReturned { player: f.player as usize, at, location });
        }
    }

    /// The players with a figure of `kind` on the feature of `root`.
    pub(crate) fn owners_of(&self, kind: FollowerKind, root: PieceId) -> [bool; MAX_PLAYERS] {
        let mut owners = [false; MAX_PLAYERS];
        for f in &self.followers {
            if f.kind == kind && self.features.find(f.piece) == root {
                owners[f.player as usize] = true;
            }
        }
        owners
    }

    pub(crate) fn tile_positions(&self, tiles: &FeatureTiles) -> Vec<Pos> {
        let mut out = Vec::new();
        for (w, bits) in tiles.bits.iter().enumerate() {
            let mut b = *bits;
            while b != 0 {
                let i = w * 64 + b.trailing_zeros() as usize;
                b &= b - 1;
                out.push(self.board.tile(i).pos);
            }
        }
        out
    }

    pub(crate) fn end_game<E: EventSink>(&mut self, events: &mut E) {
        self.step = crate::action::Step::GameOver;
        if E::ENABLED {
            let mut scorings = Vec::new();
            let totals = self.final_scores_with(|s| scorings.push(s));
            for s in scorings {
                events.push(Event::Scored(s));
            }
            events.push(Event::GameEnded { scores: totals });
        }
    }

    // ----- what a feature is worth -----------------------------------------

    /// What the feature holding piece `p` is worth, as the rules in play
    /// score it: completed as it is now, and at the end if it stays as it
    /// is, in all and to each player (for user interfaces: the scoring
    /// itself goes through the same functions).
    pub fn feature_worth(&self, p: PieceId) -> FeatureWorth {
        let root = self.features.find(p);
        let kind = self.features.info(root).kind;
        let totals = self.features.root_totals(root);
        let players = self.rules.players();
        let mut feature = Feature { kind, tiles: 0, totals, neighbours: 0, cities: 0 };
        let complete = match kind {
            FeatureKind::Road | FeatureKind::City => {
                feature.tiles = self.feature_tiles(root).len();
                totals.open == 0
            }
            FeatureKind::Field => {
                feature.cities = self.completed_cities_bordered(root);
                false
            }
            // A monastery, or what scores as one.
            _ => {
                feature.tiles = 1;
                feature.neighbours = self.neighbours(self.board.tile(self.features.info(root).tile as usize).pos);
                feature.neighbours == 8
            }
        };
        // Completed, a monastery has all eight neighbours.
        let done = Feature { kind, tiles: feature.tiles, totals, neighbours: 8, cities: 0 };
        let value_complete = (kind != FeatureKind::Field)
            .then(|| rules::completed_points(&self.rules, &done) + rules::completed_bonus(self, root, &done));
        let if_completed = value_complete.map(|v| self.won(root, kind, v)[..players].to_vec());
        let (value_end, at_end) = if kind == FeatureKind::Field {
            rules::farm_at_end(self, root, feature.cities, self.majority(root))
        } else {
            let value = rules::open_points(&self.rules, &feature);
            (value, self.won(root, kind, value))
        };
        FeatureWorth { complete, value_complete, if_completed, value_end, at_end: at_end[..players].to_vec() }
    }

    // ----- end of game ------------------------------------------------------

    /// Each player's points if the game ended now: [`scores`](Self::scores)
    /// plus the end-of-game scoring of everything still open that holds followers.
    pub fn final_scores(&self) -> Vec<u32> {
        self.end_scoring(None)[..self.rules.players()].to_vec()
    }

    /// As [`final_scores`](Self::final_scores) in a fixed array (seats past
    /// the last player hold 0), without allocating: for search.
    pub fn final_score_array(&self) -> [u32; MAX_PLAYERS] {
        self.end_scoring(None)
    }

    /// As [`final_scores`](Self::final_scores), reporting each feature scored.
    pub fn final_scores_with(&self, mut report: impl FnMut(Scoring)) -> Vec<u32> {
        self.end_scoring(Some(&mut report))[..self.rules.players()].to_vec()
    }

    fn end_scoring(&self, mut report: Option<&mut dyn FnMut(Scoring)>) -> [u32; MAX_PLAYERS] {
        let mut scores = self.scores;
        let mut seen = PieceSet::default();
        // Each figure's feature, found once: the majorities below compare
        // them instead of finding them again for every feature.
        let mut roots = [0 as PieceId; MAX_ON_BOARD];
        let n = self.followers.len().min(MAX_ON_BOARD);
        for (r, f) in roots.iter_mut().zip(&self.followers) {
            *r = self.features.find(f.piece);
        }
        for (i, f) in self.followers.iter().enumerate() {
            let root = if i < n { roots[i] } else { self.features.find(f.piece) };
            if !seen.insert(root) {
                continue;
            }
            let strength = if n == self.followers.len() {
                // The first figure on this feature is the i-th: the others come after it.
                let on = self.followers[i..].iter().zip(&roots[i..n]).filter(|(_, r)| **r == root).map(|(f, _)| f);
                self.strength_of(root, on)
            } else {
                self.majority(root)
            };
            let kind = self.features.info(root).kind;
            let t = self.features.root_totals(root);
            let mut feature = Feature { kind, tiles: 0, totals: t, neighbours: 0, cities: 0 };
            let tiles = match kind {
                FeatureKind::Road | FeatureKind::City => {
                    let tiles = self.feature_tiles(root);
                    feature.tiles = tiles.len();
                    tiles
                }
                FeatureKind::Field => {
                    feature.cities = self.completed_cities_bordered(root);
                    FeatureTiles::default()
                }
                // A monastery, or what scores as one.
                _ => {
                    let tile = self.features.info(root).tile;
                    let mut tiles = FeatureTiles::default();
                    tiles.insert(tile);
                    feature.tiles = 1;
                    feature.neighbours = self.neighbours(self.board.tile(tile as usize).pos);
                    tiles
                }
            };
            let count = match kind {
                FeatureKind::Road | FeatureKind::City => feature.tiles,
                FeatureKind::Field => feature.cities,
                _ => feature.neighbours,
            };
            let won = self.end_points(root, count, strength);
            for (s, w) in scores.iter_mut().zip(won) {
                *s += w;
            }
            if let Some(report) = report.as_mut() {
                let tiles = if kind == FeatureKind::Field { self.feature_tiles(root) } else { tiles };
                report(Scoring {
                    kind,
                    completed: t.open == 0 && matches!(kind, FeatureKind::Road | FeatureKind::City),
                    end_of_game: true,
                    tiles: self.tile_positions(&tiles),
                    points: won[..self.rules.players()].to_vec(),
                });
            }
        }
        rules::end_of_game(self, &mut scores);
        scores
    }

    /// What each player scores at the end of the game for the feature of
    /// `root` as it stands, the players' strengths on it `strength`, and
    /// `count` what a walk of it counts: the tiles a road or city spans,
    /// the tiles around a monastery (or what scores as one), the completed
    /// cities a farm borders. The rules in play decide (an inn, a
    /// cathedral, a barn, a pig); the end of the game scores each open
    /// feature with figures so, and a bot that has walked the features may
    /// count them the same way without walking them again.
    #[inline]
    pub fn end_points(&self, root: PieceId, count: u32, strength: [u8; MAX_PLAYERS]) -> [u32; MAX_PLAYERS] {
        let kind = self.features.info(root).kind;
        let totals = self.features.totals(root);
        let feature = match kind {
            FeatureKind::Field => return rules::farm_at_end(self, root, count, strength).1,
            FeatureKind::Road | FeatureKind::City => Feature { kind, tiles: count, totals, neighbours: 0, cities: 0 },
            _ => Feature { kind, tiles: 1, totals, neighbours: count, cities: 0 },
        };
        self.won_by(strength, kind, rules::open_points(&self.rules, &feature))
    }

    /// What the rules in play score at the end of the game besides the
    /// features (Traders & Builders: each good's majority), by player.
    pub fn end_bonus(&self) -> [u32; MAX_PLAYERS] {
        let mut points = [0; MAX_PLAYERS];
        rules::end_of_game(self, &mut points);
        points
    }

    /// Completed cities that the field of `root` borders, each once.
    pub(crate) fn completed_cities_bordered(&self, root: PieceId) -> u32 {
        let mut count = 0;
        self.cities_bordered(root, |city| count += u32::from(self.features.totals(city).open == 0));
        count
    }

    /// Calls `visit` with the root of each city, open or completed, that
    /// the field of `root` borders, once each, in the order the field's
    /// pieces meet them: what a farm scores counts them, and what a bot
    /// expects of a farm weighs them.
    pub fn cities_bordered(&self, root: PieceId, mut visit: impl FnMut(PieceId)) {
        let mut cities = PieceSet::default();
        for m in self.features.members(root) {
            for piece in self.features.bordered_cities(m) {
                let city = self.features.find(piece);
                if cities.insert(city) {
                    visit(city);
                }
            }
        }
    }
}

/// What a feature is worth now ([`State::feature_worth`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureWorth {
    /// A road or city closed on every side, a monastery surrounded (a farm
    /// never is).
    pub complete: bool,
    /// What it scores completed as it is now (`None` for a farm), and each
    /// player's share: the players with the greatest strength on it.
    pub value_complete: Option<u32>,
    pub if_completed: Option<Vec<u32>>,
    /// What it scores at the end of the game if it stays as it is, and each
    /// player's share (on a farm, the rules in play may give others a share
    /// besides its farmers' majority, or add to it).
    /// A feature completed during the game was scored then and its figures
    /// went back: no one's share is left.
    pub value_end: u32,
    pub at_end: Vec<u32>,
}

/// The seats with the greatest strength on a feature, if it is at least one.
fn winners(strength: [u8; MAX_PLAYERS]) -> [bool; MAX_PLAYERS] {
    let best = strength.iter().copied().max().unwrap_or(0);
    strength.map(|s| best > 0 && s == best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Placement;
    use crate::catalogue::catalogue;
    use crate::geometry::Rotation;
    use crate::setup::{Edition, Rules, MAX_FIGURES};
    use crate::tile::TileKind;

    /// `FeatureTiles` has a bit for each of 256 tiles (a tile's index is
    /// taken modulo 256): every tile of every set, with the most abbeys
    /// the most players may hold, stays within it.
    #[test]
    fn no_game_has_more_tiles_than_a_feature_s_tile_set_can_tell_apart() {
        for edition in [Edition::C3, Edition::C2] {
            let tiles: usize = catalogue().kinds.iter().map(|k| k.count(edition) as usize).sum();
            let abbeys = MAX_PLAYERS * MAX_FIGURES as usize;
            assert!(tiles + abbeys <= 4 * 64, "{tiles} tiles and {abbeys} abbeys");
        }
    }

    /// Each feature scores once at the end, however many features hold
    /// figures (six players with twenty followers each can hold more than
    /// a hundred): here 110 monasteries, the last with two followers of
    /// two players, who share it.
    #[test]
    fn every_feature_scores_once_at_the_end_however_many_hold_figures() {
        let inns = [crate::expansion::Expansion::Inns];
        let rules = Rules::new(6, &inns, Edition::C3).unwrap().with_figures(FollowerKind::Normal, 20).unwrap();
        let mut state = State::new(rules);
        let b = TileKind::parse("B").unwrap();
        let mut placed = Vec::new();
        // Away from the start tile, so that only monasteries' fields meet.
        for y in 0..11 {
            for x in 10..20 {
                let pos = Pos::new(x, y);
                let idx = state.put_tile(b, Placement { pos, rot: Rotation::R0 });
                placed.push((pos, state.board.tile(idx).first_piece + b.info().monastery as PieceId));
            }
        }
        let mut expected = [0u32; MAX_PLAYERS];
        for (i, (pos, monastery)) in placed.iter().enumerate() {
            state.acting = (i % 6) as u8;
            state.deploy(FollowerKind::Normal, *monastery);
            let around = pos.surrounding().filter(|p| placed.iter().any(|(q, _)| q == p)).count() as u32;
            expected[i % 6] += 1 + around;
        }
        let (last_pos, last) = *placed.last().unwrap();
        state.acting = 5;
        state.deploy(FollowerKind::Normal, last);
        expected[5] += 1 + last_pos.surrounding().filter(|p| placed.iter().any(|(q, _)| q == p)).count() as u32;
        assert!(state.followers.len() > 100);
        assert_eq!(state.final_score_array(), expected);
    }

    #[test]
    fn ties_all_win_and_no_strength_wins_nothing() {
        let (t, f) = (true, false);
        assert_eq!(winners([1, 1, 0, 0, 0, 0]), [t, t, f, f, f, f]);
        assert_eq!(winners([2, 1, 0, 0, 0, 0]), [t, f, f, f, f, f]);
        assert_eq!(winners([0; 6]), [f; 6]);
    }
}
