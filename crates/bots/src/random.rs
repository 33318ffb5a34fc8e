//! The baseline: uniformly random legal actions.

use carcassonne_engine::{Action, Actor, State};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::Bot;

/// Chooses uniformly among the legal actions of each decision.
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: Xoshiro256PlusPlus,
    buf: Vec<Action>,
}

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        RandomBot { rng: Xoshiro256PlusPlus::seed_from_u64(seed), buf: Vec::with_capacity(256) }
    }
}

impl Bot for RandomBot {
    fn choose(&mut self, state: &State) -> Option<Action> {
        let Some(Actor::Player(_)) = state.actor() else {
            return None;
        };
        self.buf.clear();
        state.legal_actions(&mut self.buf);
        (!self.buf.is_empty()).then(|| self.buf[self.rng.random_range(0..self.buf.len())])
    }
}

/// Plays uniformly random actions, and draws as likely as the bag makes
/// them, until the game is over: MCTS's playouts and the benchmarks' games.
/// `buf` is scratch space, so that a playout allocates nothing of its own.
pub use carcassonne_engine::playout::play_random_with as play_out;
