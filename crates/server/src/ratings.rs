//! Ratings: Glicko-2 (Glickman's 2012 description, through the
//! `skillratings` crate) for signed-in players and for each bot level of
//! the ladder, from the games created as rated.
//!
//! - **Who is rated:** a seat bound to an account, or a bot seat of one of
//!   the ladder's levels (`beginner` to `expert`). A rated game counts only
//!   if, when it ends, every seat is one of these and no account or level
//!   holds two seats; otherwise it ends unrated (its results are kept for
//!   the players' statistics all the same).
//! - **More than two players:** the game is read as every pair of seats
//!   playing one game, won by the higher final score (equal scores a
//!   draw), and each seat's rating moves by one rating period holding its
//!   games against every other seat, at their ratings before the game.
//! - **A rating period** is one game, as on most game sites, so a rating
//!   moves as soon as a game ends. Time away counts too: the deviation
//!   grows by one idle period for every 30 days since the entity's last
//!   rated game (at most to the deviation of a newcomer, 350).
//! - **Bot levels** start where the ladder's matches put them
//!   (docs/bots.md: Elo gaps of about 200 between neighbours), `medium` at
//!   1500, with a deviation of 100: measured against bots, not yet against
//!   people.
//!
//! The game authority computes a finished game's [`Outcome`] from its
//! record; the store settles it ([`settle`]) in the transaction that
//! stores the game's last action, so a game's ratings move exactly once.

use carcassonne_engine::record::Record;
use carcassonne_engine::{Event, FeatureKind, Game};
use serde::Serialize;
use skillratings::glicko2::{decay_deviation, glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// The deviation of a newcomer, and the most time away can grow one to.
pub const NEW_DEVIATION: f64 = 350.0;
/// The volatility every entity starts with.
pub const NEW_VOLATILITY: f64 = 0.06;
/// A rating period of time away (seconds).
pub const IDLE_PERIOD: i64 = 30 * 86_400;
/// Where the ladder's levels start: `medium` at 1500, the others by the
/// Elo gaps of their matches (docs/bots.md).
pub const LEVEL_STARTS: [(&str, f64); 5] =
    [("beginner", 1092.0), ("easy", 1311.0), ("medium", 1500.0), ("hard", 1708.0), ("expert", 1859.0)];
/// The deviation the levels start with.
pub const LEVEL_DEVIATION: f64 = 100.0;
/// A rating with a deviation above this is shown as provisional.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// Who a rating belongs to.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Entity {
    Account(i64),
    /// A level of the ladder, by its name.
    Level(String),
}

impl Entity {
    /// Its key in the `ratings` table.
    pub fn key(&self) -> String {
        match self {
            Entity::Account(id) => format!("account:{id}"),
            Entity::Level(name) => format!("level:{name}"),
        }
    }

    /// The rating it starts with.
    pub fn start(&self) -> Rating {
        let (rating, deviation) = match self {
            Entity::Account(_) => (1500.0, NEW_DEVIATION),
            Entity::Level(name) => LEVEL_STARTS
                .iter()
                .find(|(l, _)| l == name)
                .map_or((1500.0, NEW_DEVIATION), |&(_, r)| (r, LEVEL_DEVIATION)),
        };
        Rating { rating, deviation, volatility: NEW_VOLATILITY, games: 0, updated: 0 }
    }
}

/// Whether `level` is one of the ladder's, which rated games may seat.
pub fn rated_level(level: &str) -> bool {
    LEVEL_STARTS.iter().any(|(l, _)| *l == level)
}

/// An entity's rating as stored.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games played.
    pub games: u32,
    /// When its last rated game ended (0: never).
    pub updated: i64,
}

impl Rating {
    fn glicko(&self) -> Glicko2Rating {
        Glicko2Rating { rating: self.rating, deviation: self.deviation, volatility: self.volatility }
    }

    /// As it stands at `at`: its deviation grown by the idle periods since
    /// its last game.
    pub fn at(&self, at: i64) -> Rating {
        let mut r = *self;
        if self.updated > 0 && at > self.updated {
            let mut g = self.glicko();
            // A few hundred periods reach the cap from any deviation.
            for _ in 0..((at - self.updated) / IDLE_PERIOD).min(400) {
                g = decay_deviation(&g);
                if g.deviation >= NEW_DEVIATION {
                    break;
                }
            }
            r.deviation = g.deviation.min(NEW_DEVIATION);
        }
        r
    }
}

/// Points a seat scored, by what scored them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Points {
    pub road: u32,
    pub city: u32,
    pub field: u32,
    /// Monasteries and gardens.
    pub monastery: u32,
    /// Scored outside features: the goods of Traders & Builders.
    pub other: u32,
}

/// One seat's result in a finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatResult {
    pub score: u32,
    /// 1 for the highest score; equal scores share a place.
    pub place: u32,
    /// The score less the best of the other seats' (negative but for the winner).
    pub margin: i32,
    pub points: Points,
    /// Figures the seat put on the board (followers, and each expansion's).
    pub followers: u32,
    /// The ladder level of a bot seat.
    pub level: Option<String>,
    /// The seat lost on time: last, whatever its score.
    pub forfeit: bool,
}

/// A finished game, as the ratings and statistics take it.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Created as rated.
    pub rated: bool,
    /// When it ended.
    pub at: i64,
    /// In seat order.
    pub seats: Vec<SeatResult>,
}

impl Outcome {
    /// The outcome of the finished game `record`, whose bot seats play
    /// `levels` (`None` for a human seat): played to its end, or lost on
    /// time by seat `forfeit` (the scores then as they stood).
    pub fn of_record(
        record: &Record,
        rated: bool,
        levels: &[Option<String>],
        forfeit: Option<usize>,
        at: i64,
    ) -> Result<Outcome, String> {
        let mut events: Vec<Event> = Vec::new();
        let game = Game::replay_with(record, &mut events).map_err(|e| e.to_string())?;
        let scores = match forfeit {
            Some(_) => game.state().scores().to_vec(),
            None if game.state().is_over() => game.state().final_scores(),
            None => return Err("the game is not over".into()),
        };
        let n = scores.len();
        let mut points = vec![Points::default(); n];
        let mut followers = vec![0u32; n];
        for e in &events {
            match e {
                Event::Scored(s) => {
                    for (p, &won) in points.iter_mut().zip(&s.points) {
                        let bucket = match s.kind {
                            FeatureKind::Road => &mut p.road,
                            FeatureKind::City => &mut p.city,
                            FeatureKind::Field => &mut p.field,
                            FeatureKind::Monastery | FeatureKind::Garden => &mut p.monastery,
                        };
                        *bucket += won;
                    }
                }
                Event::FollowerDeployed { player, .. } => {
                    if let Some(f) = followers.get_mut(*player) {
                        *f += 1;
                    }
                }
                _ => {}
            }
        }
        let seats = (0..n)
            .map(|i| {
                let p = &mut points[i];
                p.other = scores[i].saturating_sub(p.road + p.city + p.field + p.monastery);
                let best_other = (0..n).filter(|&j| j != i).map(|j| scores[j]).max().unwrap_or(scores[i]);
                let lost = forfeit == Some(i);
                let above = (0..n).filter(|&j| forfeit != Some(j) && scores[j] > scores[i]).count();
                SeatResult {
                    score: scores[i],
                    place: if lost { n as u32 } else { 1 + above as u32 },
                    margin: scores[i] as i32 - best_other as i32,
                    points: *p,
                    followers: followers[i],
                    level: levels.get(i).cloned().flatten(),
                    forfeit: lost,
                }
            })
            .collect();
        Ok(Outcome { rated, at, seats })
    }

    /// Who each seat is for the ratings, given the seats bound to accounts
    /// (seat, account): its account, or its bot's ladder level.
    pub fn entities(&self, accounts: &[(usize, i64)]) -> Vec<Option<Entity>> {
        (0..self.seats.len())
            .map(|seat| match accounts.iter().find(|(s, _)| *s == seat) {
                Some(&(_, account)) => Some(Entity::Account(account)),
                None => self.seats[seat].level.clone().filter(|l| rated_level(l)).map(Entity::Level),
            })
            .collect()
    }

    /// Whether the game moves ratings: created as rated, two seats or
    /// more, every one an account or a level, none of them twice.
    pub fn counts(&self, entities: &[Option<Entity>]) -> bool {
        let mut seen: Vec<&Entity> = Vec::with_capacity(entities.len());
        for e in entities {
            match e {
                Some(e) if !seen.contains(&e) => seen.push(e),
                _ => return false,
            }
        }
        self.rated && seen.len() >= 2
    }
}

/// The ratings after a game, in seat order, from the ratings before it
/// (each as it stands at the game's end) and the seats' standings (the
/// final scores; below every score, -1, for a seat that lost on time).
pub fn rate(before: &[Rating], scores: &[i64], at: i64) -> Vec<Rating> {
    let config = Glicko2Config::new();
    let now: Vec<Rating> = before.iter().map(|r| r.at(at)).collect();
    (0..now.len())
        .map(|i| {
            let games: Vec<(Glicko2Rating, Outcomes)> = (0..now.len())
                .filter(|&j| j != i)
                .map(|j| {
                    let outcome = match scores[i].cmp(&scores[j]) {
                        std::cmp::Ordering::Greater => Outcomes::WIN,
                        std::cmp::Ordering::Less => Outcomes::LOSS,
                        std::cmp::Ordering::Equal => Outcomes::DRAW,
                    };
                    (now[j].glicko(), outcome)
                })
                .collect();
            let g = glicko2_rating_period(&now[i].glicko(), &games, &config);
            Rating {
                rating: g.rating,
                deviation: g.deviation,
                volatility: g.volatility,
                games: now[i].games + 1,
                updated: at,
            }
        })
        .collect()
}

/// One seat's row of the results table.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultRow {
    pub seat: usize,
    pub account: Option<i64>,
    pub level: Option<String>,
    pub result: SeatResult,
    /// The rating and deviation after the game, if it moved ratings.
    pub rating: Option<(f64, f64)>,
}

/// What the store writes for a finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct Settled {
    /// The new ratings, if the game counts.
    pub ratings: Vec<(Entity, Rating)>,
    /// A row for every seat of an account or a ladder level.
    pub results: Vec<ResultRow>,
}

/// Settles a finished game: who its seats are (`entities`, from
/// [`Outcome::entities`]) and their ratings before it (`None`: never
/// rated, so their start), into the rows to write.
pub fn settle(outcome: &Outcome, entities: &[Option<Entity>], before: &[Option<Rating>]) -> Settled {
    let counts = outcome.counts(entities) && before.len() == entities.len();
    let ratings: Vec<(Entity, Rating)> = if counts {
        let start: Vec<Rating> = entities
            .iter()
            .zip(before)
            .map(|(e, r)| r.unwrap_or_else(|| e.as_ref().map_or(Entity::Account(0).start(), Entity::start)))
            .collect();
        let scores: Vec<i64> = outcome.seats.iter().map(|s| if s.forfeit { -1 } else { i64::from(s.score) }).collect();
        entities.iter().flatten().cloned().zip(rate(&start, &scores, outcome.at)).collect()
    } else {
        Vec::new()
    };
    let results = entities
        .iter()
        .enumerate()
        .filter_map(|(seat, e)| {
            let e = e.as_ref()?;
            let after = ratings.iter().find(|(r, _)| r == e).map(|(_, r)| (r.rating, r.deviation));
            Some(ResultRow {
                seat,
                account: match e {
                    Entity::Account(a) => Some(*a),
                    Entity::Level(_) => None,
                },
                level: match e {
                    Entity::Level(l) => Some(l.clone()),
                    Entity::Account(_) => None,
                },
                result: outcome.seats[seat].clone(),
                rating: after,
            })
        })
        .collect();
    Settled { ratings, results }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(score: u32, level: Option<&str>) -> SeatResult {
        SeatResult {
            score,
            place: 0,
            margin: 0,
            points: Points::default(),
            followers: 0,
            level: level.map(str::to_string),
            forfeit: false,
        }
    }

    fn fresh() -> Rating {
        Entity::Account(1).start()
    }

    /// A finished random game of `expansions`, as a record.
    fn random_game(expansions: &[carcassonne_engine::Expansion], seed: u64) -> Record {
        use rand::SeedableRng;
        let setup = carcassonne_engine::record::Setup {
            players: vec!["a".into(), "b".into(), "c".into()],
            expansions: expansions.to_vec(),
            edition: None,
            seed: None,
            rules: Default::default(),
        };
        let mut game = Game::new(setup).unwrap();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut buf = Vec::new();
        while let Some(a) = carcassonne_engine::playout::random_action(game.state(), &mut rng, &mut buf) {
            game.play(a).unwrap();
        }
        game.record().clone()
    }

    #[test]
    fn a_records_points_are_its_scores_by_feature_kind() {
        use carcassonne_engine::Expansion;
        for seed in 0..6 {
            let record = random_game(&[], seed);
            let o = Outcome::of_record(&record, true, &[None, Some("easy".into()), None], None, 7).unwrap();
            let scores = Game::replay(&record).unwrap().state().final_scores();
            for (s, &score) in o.seats.iter().zip(&scores) {
                let p = s.points;
                assert_eq!(p.road + p.city + p.field + p.monastery, score, "base game: every point from a feature");
                assert_eq!((p.other, s.score), (0, score));
                assert!(s.followers > 0);
            }
            let best = *scores.iter().max().unwrap();
            for (i, s) in o.seats.iter().enumerate() {
                assert_eq!(s.place == 1, scores[i] == best);
                let others = scores.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &v)| v).max().unwrap();
                assert_eq!(s.margin, scores[i] as i32 - others as i32);
            }
            assert_eq!(o.seats[1].level.as_deref(), Some("easy"));
        }
        // Traders & Builders: the goods are the points outside features.
        let mut goods = 0;
        for seed in 0..6 {
            let record = random_game(&[Expansion::Traders], seed);
            let o = Outcome::of_record(&record, false, &[None, None, None], None, 7).unwrap();
            for s in &o.seats {
                let p = s.points;
                assert_eq!(p.road + p.city + p.field + p.monastery + p.other, s.score);
                goods += p.other;
            }
        }
        assert!(goods > 0, "some goods were scored in six games");
        let mut unfinished = Game::new(random_game(&[], 1).setup).unwrap();
        unfinished
            .play(carcassonne_engine::Action::Draw(unfinished.state().bag().sample(&mut rand::rng()).unwrap()))
            .ok();
        assert!(Outcome::of_record(unfinished.record(), true, &[], None, 1).is_err());
        // Lost on time: the scores as they stood, the seat last.
        let record = random_game(&[], 2);
        let half = carcassonne_engine::record::Record { turns: record.turns[..30].to_vec(), ..record.clone() };
        let o = Outcome::of_record(&half, true, &[None, None, None], Some(0), 1).unwrap();
        let scores = Game::replay(&half).unwrap().state().scores().to_vec();
        assert_eq!(o.seats.iter().map(|s| s.score).collect::<Vec<_>>(), scores);
        assert_eq!((o.seats[0].place, o.seats[0].forfeit), (3, true));
        assert_eq!(o.seats[1].place, if scores[1] >= scores[2] { 1 } else { 2 });
    }

    #[test]
    fn glickmans_example_period() {
        // Glickman's worked example: 1500/200 against 1400/30 (won),
        // 1550/100 and 1700/300 (lost) gives about 1464/151.5.
        let me = Rating { rating: 1500.0, deviation: 200.0, volatility: 0.06, games: 0, updated: 0 };
        let opp = |rating, deviation| Rating { rating, deviation, volatility: 0.06, games: 0, updated: 0 };
        let config = Glicko2Config::new();
        let g = glicko2_rating_period(
            &me.glicko(),
            &[
                (opp(1400.0, 30.0).glicko(), Outcomes::WIN),
                (opp(1550.0, 100.0).glicko(), Outcomes::LOSS),
                (opp(1700.0, 300.0).glicko(), Outcomes::LOSS),
            ],
            &config,
        );
        assert!((g.rating - 1464.06).abs() < 0.1, "{}", g.rating);
        assert!((g.deviation - 151.52).abs() < 0.1, "{}", g.deviation);
    }

    #[test]
    fn a_win_raises_the_winner_and_lowers_the_loser_by_the_same_amount_between_equals() {
        let after = rate(&[fresh(), fresh()], &[90, 70], 100);
        let lost = rate(&[fresh(), fresh()], &[90, -1], 100);
        assert!(lost[0].rating > 1500.0 && lost[1].rating < 1500.0, "lost on time with more points");
        assert!(after[0].rating > 1500.0 && after[1].rating < 1500.0);
        assert!((after[0].rating - 1500.0 + (after[1].rating - 1500.0)).abs() < 1e-9);
        assert!(after[0].deviation < NEW_DEVIATION && after[0].games == 1 && after[0].updated == 100);
        let draw = rate(&[fresh(), fresh()], &[80, 80], 100);
        assert!((draw[0].rating - 1500.0).abs() < 1e-9 && draw[0].deviation < NEW_DEVIATION);
    }

    #[test]
    fn beating_a_stronger_level_is_worth_more_than_beating_a_weaker_one() {
        let expert = Entity::Level("expert".into()).start();
        let beginner = Entity::Level("beginner".into()).start();
        let up = rate(&[fresh(), expert], &[100, 90], 1)[0].rating - 1500.0;
        let down = rate(&[fresh(), beginner], &[100, 90], 1)[0].rating - 1500.0;
        assert!(up > down && down > 0.0, "{up} {down}");
        // The level, sure of itself, moves less than the newcomer.
        let moved = rate(&[fresh(), expert], &[100, 90], 1);
        assert!(expert.rating - moved[1].rating < moved[0].rating - 1500.0);
    }

    #[test]
    fn three_players_are_every_pair_of_seats() {
        let after = rate(&[fresh(), fresh(), fresh()], &[120, 80, 80], 5);
        assert!(after[0].rating > 1500.0);
        assert!((after[1].rating - after[2].rating).abs() < 1e-9, "the two seconds are alike");
        assert!(after[1].rating < 1500.0);
        // Winning against two is more than against one.
        let two = rate(&[fresh(), fresh()], &[120, 80], 5);
        assert!(after[0].rating > two[0].rating);
    }

    #[test]
    fn time_away_widens_the_deviation_up_to_a_newcomers() {
        let r = Rating { rating: 1700.0, deviation: 60.0, volatility: 0.06, games: 30, updated: 1_000 };
        assert_eq!(r.at(1_000 + IDLE_PERIOD - 1).deviation, 60.0, "less than a period");
        let later = r.at(1_000 + 12 * IDLE_PERIOD);
        assert!(later.deviation > 69.0 && later.deviation < 71.0, "{}", later.deviation);
        assert!(r.at(i64::MAX).deviation <= NEW_DEVIATION);
        assert_eq!(later.rating, 1700.0);
        assert_eq!(fresh().at(i64::MAX).deviation, NEW_DEVIATION, "never played: nothing grows");
    }

    #[test]
    fn a_game_counts_only_with_every_seat_rated_and_none_twice() {
        let o = Outcome { rated: true, at: 1, seats: vec![seat(10, None), seat(5, Some("easy"))] };
        let e = o.entities(&[(0, 7)]);
        assert_eq!(e, vec![Some(Entity::Account(7)), Some(Entity::Level("easy".into()))]);
        assert!(o.counts(&e));
        assert!(!Outcome { rated: false, ..o.clone() }.counts(&e), "created unrated");
        assert!(!o.counts(&o.entities(&[])), "a seat without an account");
        let both = Outcome { rated: true, at: 1, seats: vec![seat(10, None), seat(5, None)] };
        assert!(!both.counts(&both.entities(&[(0, 7), (1, 7)])), "one account, two seats");
        assert!(both.counts(&both.entities(&[(0, 7), (1, 8)])));
        let custom = Outcome { rated: true, at: 1, seats: vec![seat(10, None), seat(5, Some("mcts:ms=10"))] };
        assert_eq!(custom.entities(&[(0, 7)])[1], None, "only the ladder's levels are rated");
        let twins = Outcome { rated: true, at: 1, seats: vec![seat(10, Some("easy")), seat(5, Some("easy"))] };
        assert!(!twins.counts(&twins.entities(&[])));
    }

    #[test]
    fn settling_writes_results_for_every_known_seat_and_ratings_when_it_counts() {
        let o = Outcome { rated: true, at: 9, seats: vec![seat(10, None), seat(5, Some("hard"))] };
        let e = o.entities(&[(0, 3)]);
        let s = settle(&o, &e, &[None, None]);
        assert_eq!(s.ratings.len(), 2);
        assert_eq!(s.ratings[0].0, Entity::Account(3));
        assert!(s.ratings[0].1.rating > 1500.0 && s.ratings[1].1.rating < 1708.0);
        assert_eq!(s.results.len(), 2);
        assert_eq!(s.results[1].level.as_deref(), Some("hard"));
        assert_eq!(s.results[0].rating, Some((s.ratings[0].1.rating, s.ratings[0].1.deviation)));
        // Unrated: results kept, no rating moves.
        let u = settle(&Outcome { rated: false, ..o.clone() }, &e, &[None, None]);
        assert!(u.ratings.is_empty() && u.results.len() == 2 && u.results[0].rating.is_none());
        // An anonymous seat has no row.
        let anon = settle(&o, &o.entities(&[]), &[None, None]);
        assert_eq!(anon.results.len(), 1);
        assert!(anon.ratings.is_empty());
    }
}
