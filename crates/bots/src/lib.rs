//! Bots for the Carcassonne engine, and a runner that plays them against
//! each other.
//!
//! A [`Bot`] decides from a player's view only. The engine's [`State`] holds
//! the bag's contents but never its order, so a `&State` is exactly what a
//! player may see: no bot can peek at the next tile. The game is therefore
//! one of perfect information with chance (the draws), not of hidden
//! information, and search handles the draw order with chance nodes.
//!
//! ```
//! use carcassonne_bots::{arena, BotSpec};
//! use carcassonne_engine::Rules;
//! let specs: Vec<BotSpec> = vec!["greedy".parse().unwrap(), "random".parse().unwrap()];
//! let mut bots: Vec<_> = specs.iter().enumerate().map(|(i, s)| s.build(i as u64)).collect();
//! let names: Vec<String> = specs.iter().map(|s| s.to_string()).collect();
//! let played = arena::play_game(Rules::base(2).unwrap(), &names, &mut bots, 7).unwrap();
//! assert!(played.state.is_over());
//! ```

pub mod arena;
pub mod eval;
pub mod evaluation;
pub mod greedy;
pub mod mcts;
pub mod odds;
pub mod random;
pub mod review;
pub mod spec;
pub mod sprt;
pub mod train;

use carcassonne_engine::{Action, State};

pub use greedy::GreedyBot;
pub use mcts::{MctsBot, MctsConfig, Per, SearchStats};
pub use random::RandomBot;
pub use spec::{BotSpec, SpecError, LEVELS};

/// A player that chooses actions.
///
/// `Send` so that games, each with its own bots, can run on several threads.
pub trait Bot: Send {
    /// Chooses a legal action for the player to act in `state`, or `None`
    /// when no player is to act (chance draws, or the game is over).
    ///
    /// A turn has several decisions (place, deploy, ferries) by the same
    /// player; the bot is asked once for each. Bots keep their own seeded
    /// random generator, so a bot asked the same questions in the same order
    /// gives the same answers.
    fn choose(&mut self, state: &State) -> Option<Action>;

    /// What the last decision's search did, for bots that search.
    fn last_search(&self) -> Option<SearchStats> {
        None
    }

    /// Told of every action of the game (draws included) once it is
    /// played, with the position after it: for players that follow the
    /// game elsewhere, such as an external engine. Most bots need nothing.
    fn observe(&mut self, _after: &State, _action: Action) {}
}

/// An independent seed for stream `stream` of `base` (SplitMix64 of both),
/// so that deals, seats, bots and search trees get uncorrelated generators
/// from one user-given seed.
pub fn derive_seed(base: u64, stream: u64) -> u64 {
    let mut z = base ^ stream.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
