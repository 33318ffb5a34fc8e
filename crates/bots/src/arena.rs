//! Playing whole games between bots; the record of each is written from
//! its actions when asked, so that a game costs the rules alone.
//!
//! Chance draws from a generator seeded per deal, so the tile order is a
//! function of the deal's seed alone: the bag's contents change only by
//! draws, so the same seed gives the same sequence of tiles whoever sits
//! where and whatever they play. That is what lets a deal be replayed with
//! the seats swapped. Bots never see the generator, only the state.

use std::time::{Duration, Instant};

use carcassonne_engine::record::{Record, Setup};
use carcassonne_engine::{Action, Actor, PlayError, RecordError, Rules, State, Step};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use thiserror::Error;

use crate::Bot;

/// Why a game between bots could not be played to its end.
#[derive(Debug, Error)]
pub enum ArenaError {
    #[error("{0}")]
    Setup(#[from] RecordError),
    #[error("{names} players named for {players} bots")]
    Seats { names: usize, players: usize },
    #[error("bot {bot} gave no action at turn {turn}")]
    NoAction { bot: String, turn: u32 },
    #[error("bot {bot} chose '{action}' at turn {turn}, which is illegal: {error}")]
    Illegal { bot: String, turn: u32, action: Action, error: PlayError },
}

/// What one seat's bot did in a game.
#[derive(Clone, Copy, Debug, Default)]
pub struct SeatStats {
    /// Decisions asked of it.
    pub decisions: u64,
    /// Turns it played: decisions where a tile was to be placed (a discard
    /// and the draw after it count twice).
    pub turns: u64,
    /// Time spent deciding.
    pub thinking: Duration,
    /// Decisions that ran a search (more than one legal action), and their
    /// iterations, for searching bots.
    pub searches: u64,
    pub iterations: u64,
}

/// A finished game: its setup, the actions played (draws included) and
/// the final position, and per-seat statistics.
pub struct Played {
    pub setup: Setup,
    pub actions: Vec<Action>,
    pub state: State,
    pub seats: Vec<SeatStats>,
}

impl Played {
    /// Final scores, by seat.
    pub fn scores(&self) -> Vec<u32> {
        self.state.final_scores()
    }

    /// The game's record, played again from its actions: only what asks
    /// for a record pays for writing one.
    pub fn record(&self) -> Result<Record, ArenaError> {
        Ok(Record::from_actions(self.setup.clone(), self.actions.iter().copied())?)
    }
}

/// The setup of a record for these rules and player names.
pub fn setup(rules: &Rules, names: &[String]) -> Setup {
    Setup {
        players: names.to_vec(),
        expansions: rules.expansions().collect(),
        edition: Some(rules.edition()),
        seed: None,
        rules: carcassonne_engine::RuleOptions::of(rules),
    }
}

/// Plays a game to its end, `bots[i]` in seat `i` named `names[i]`, the
/// tiles drawn in the order that `deal_seed` fixes.
pub fn play_game(
    rules: Rules,
    names: &[String],
    bots: &mut [Box<dyn Bot>],
    deal_seed: u64,
) -> Result<Played, ArenaError> {
    if names.len() != bots.len() || bots.len() != rules.players() {
        return Err(ArenaError::Seats { names: names.len(), players: bots.len() });
    }
    let setup = setup(&rules, names);
    let mut state = State::new(rules);
    // About three decisions and a draw a tile: one allocation a game.
    let mut actions = Vec::with_capacity(4 * state.bag().total() as usize + 16);
    let mut chance = Xoshiro256PlusPlus::seed_from_u64(deal_seed);
    let mut seats = vec![SeatStats::default(); bots.len()];
    while let Some(actor) = state.actor() {
        let turn = state.turns() + 1;
        let action = match actor {
            Actor::Chance => match state.bag().sample(&mut chance) {
                Some(kind) => Action::Draw(kind),
                None => break,
            },
            Actor::Player(p) => {
                let started = Instant::now();
                let action = bots[p].choose(&state);
                let s = &mut seats[p];
                s.decisions += 1;
                s.turns += u64::from(state.step() == Step::Place);
                s.thinking += started.elapsed();
                if let Some(search) = bots[p].last_search() {
                    if search.iterations > 0 {
                        s.searches += 1;
                        s.iterations += search.iterations;
                    }
                }
                action.ok_or_else(|| ArenaError::NoAction { bot: names[p].clone(), turn })?
            }
        };
        state.play(action).map_err(|error| {
            let bot = match actor {
                Actor::Player(p) => names[p].clone(),
                Actor::Chance => "chance".into(),
            };
            ArenaError::Illegal { bot, turn, action, error }
        })?;
        actions.push(action);
        for bot in bots.iter_mut() {
            bot.observe(&state, action);
        }
    }
    Ok(Played { setup, actions, state, seats })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RandomBot;

    fn draws(played: &Played) -> Vec<String> {
        played.record().unwrap().turns.iter().map(|t| t.tile.clone()).collect()
    }

    #[test]
    fn a_deal_draws_the_same_tiles_whoever_plays() {
        let rules = Rules::new(2, &[carcassonne_engine::Expansion::Ferries], Default::default()).unwrap();
        let names = vec!["a".to_string(), "b".to_string()];
        let mut one: Vec<Box<dyn Bot>> = vec![Box::new(RandomBot::new(1)), Box::new(RandomBot::new(2))];
        let mut two: Vec<Box<dyn Bot>> = vec![Box::new(RandomBot::new(3)), Box::new(RandomBot::new(4))];
        let a = play_game(rules, &names, &mut one, 99).unwrap();
        let b = play_game(rules, &names, &mut two, 99).unwrap();
        assert!(a.state.is_over() && b.state.is_over());
        // A discarded tile was drawn too, so the draws match one for one.
        assert_eq!(draws(&a), draws(&b));
        assert_ne!(a.record().unwrap(), b.record().unwrap());
    }

    #[test]
    fn seat_statistics_count_every_turn_and_decision() {
        let rules = Rules::new(3, &[carcassonne_engine::Expansion::Ferries], Default::default()).unwrap();
        let names: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let mut bots: Vec<Box<dyn Bot>> = (0..3).map(|i| Box::new(RandomBot::new(i)) as Box<dyn Bot>).collect();
        let played = play_game(rules, &names, &mut bots, 5).unwrap();
        let record = played.record().unwrap();
        // A turn of the record is one tile drawn, placed or discarded.
        assert_eq!(played.seats.iter().map(|s| s.turns).sum::<u64>(), record.turns.len() as u64);
        for (seat, s) in played.seats.iter().enumerate() {
            let mine = record.turns.iter().enumerate().filter(|(i, _)| i % 3 == seat).count() as u64;
            assert!(s.turns.abs_diff(mine) <= 3, "seat {seat}: {} turns, about {mine} in the record", s.turns);
            // At least the tile, and a follower or ferry decision on some turns.
            assert!(s.decisions > s.turns, "seat {seat}: {s:?}");
        }
    }
}
