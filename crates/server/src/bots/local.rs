//! The bots of a server on SQLite: while a bot seat is to act, a task of
//! its game makes the decisions one at a time ([`super::turn::play`]),
//! search bots on the bot threads when [`BotPool`] gives them one,
//! instant bots on threads of their own.
//!
//! With PostgreSQL the write that made a bot due queued its decision for
//! the workers instead ([`super::worker`]).

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use super::turn::{self, Due, Fallback, Guard, Kept, Lender, Outcome};
use super::{BotPool, Turn, Why};
use crate::game::{Hub, Slot};

/// The longest pause before a decision that failed is made again.
const MAX_PAUSE: Duration = Duration::from_secs(60);

/// The pool's threads for one game's decisions.
struct Local {
    pool: Arc<BotPool>,
    slot: Arc<Slot>,
    game: String,
    /// Why the search bots last played greedily, if they did.
    greedy: Option<Why>,
}

impl Lender for Local {
    async fn search(&mut self) -> Result<Guard, String> {
        let turn = self.pool.search(self.slot.owner, self.slot.bot_time()).await;
        let why = match &turn {
            Turn::Greedy(why) => Some(*why),
            Turn::Search(_) => None,
        };
        if why != self.greedy {
            match why {
                Some(why) => tracing::warn!(
                    game = %self.game,
                    owner = ?self.slot.owner,
                    "the search bots play greedily for now: {}",
                    why.describe()
                ),
                None => tracing::info!(game = %self.game, "the search bots search again"),
            }
            self.greedy = why;
        }
        match turn {
            Turn::Search(thread) => Ok(Some(Box::new(thread))),
            Turn::Greedy(why) => Err(why.describe().to_string()),
        }
    }

    async fn instant(&mut self) -> Guard {
        let permit = self.pool.instant_owned().await;
        permit.map(|p| Box::new(p) as Box<dyn Send>)
    }

    async fn charge(&mut self, spent: Duration, _searched: bool) {
        self.pool.charge(self.slot.owner, spent);
        self.slot.charge(spent);
    }
}

impl Hub {
    /// Lets the bots of `slot`'s game play while one is to act (SQLite;
    /// with PostgreSQL the workers do).
    pub fn kick_bots(self: &Arc<Self>, slot: Arc<Slot>) {
        if self.shared || slot.bot_running.swap(true, Ordering::AcqRel) {
            return;
        }
        tokio::spawn(run(self.clone(), slot));
    }
}

/// The decisions of one game, until no bot is to act.
async fn run(hub: Arc<Hub>, slot: Arc<Slot>) {
    let mut kept: Option<Kept> = None;
    let mut lender = Local { pool: hub.bots().clone(), slot: slot.clone(), game: String::new(), greedy: None };
    // A decision that failed at a version is made again from where it fell.
    let mut failed: Option<(u64, Duration)> = None;
    loop {
        let due = {
            let live = slot.live().await;
            match Due::of(&live) {
                Some(due) => due,
                None => {
                    // Cleared under the lock: a submit that makes a bot due
                    // kicks again after releasing it.
                    slot.bot_running.store(false, Ordering::Release);
                    return;
                }
            }
        };
        lender.game.clone_from(&due.game);
        let (game, seat, version) = (due.game.clone(), due.seat, due.version);
        let fallback = match failed {
            Some((v, _)) if v == version => Fallback::FirstLegal,
            _ => Fallback::AsPlanned,
        };
        match turn::play(&hub, due, fallback, &mut kept, &mut lender).await {
            Outcome::Played | Outcome::MovedOn => failed = None,
            Outcome::NotStored(e) => {
                // Logged as a storage error; the bot tries again.
                tracing::warn!(game = %game, seat, error = %e, "bot failure: its action was not stored, trying again in 1 s");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            Outcome::Failed => {
                let pause = match failed {
                    Some((v, pause)) if v == version => (pause * 2).min(MAX_PAUSE),
                    _ => Duration::from_secs(1),
                };
                tracing::error!(game = %game, seat, retry_in = ?pause, "bot failure: no action of this bot could be played; trying again");
                failed = Some((version, pause));
                tokio::time::sleep(pause).await;
            }
        }
    }
}
