//! Bot workers (PostgreSQL): loops that take bot decisions from the queue
//! in the database, think, and play the action through the same path as
//! every other action (checked, stored against the row's revision,
//! announced). They run in `carcassonne bot-worker` processes, and in a
//! server itself unless it is told to leave them to workers.
//!
//! A claim on a job lasts a lease (renewed once a search gets its thread);
//! a worker killed in the middle of a search simply never plays, the lease
//! runs out, and another worker takes the job. A decision that has been
//! claimed [`GIVE_UP_SEARCHING`] times already is played greedily (at
//! once), and two claims later by the first legal action: a bot that keeps
//! failing, or whose action is refused, must not stop the game. An address
//! past its bot seconds for the hour has its search bots play greedily
//! too, as on a single server.

use std::sync::Arc;
use std::time::{Duration, Instant};

use carcassonne_bots::Bot;
use tokio::sync::{watch, Semaphore};

use crate::error::ApiError;
use crate::hub::{Hub, Who};
use crate::live::BotPlan;
use crate::store::postgres::{Job, Postgres};
use crate::store::Store;
use crate::wire::Command;

/// Claims of one decision after which it is played greedily; two more, and
/// it is the first legal action.
pub const GIVE_UP_SEARCHING: i32 = 3;

/// Loops per search thread: the instant bots' decisions and the database's
/// round trips wait on the network more than they compute.
const LOOPS_PER_THREAD: usize = 4;

/// How the bot loops run.
#[derive(Clone, Debug)]
pub struct WorkerOptions {
    /// Searches made at once; the loops taking jobs are a few times as
    /// many, so that the instant bots never wait behind a search.
    pub threads: usize,
    /// How long a claim lasts.
    pub lease: Duration,
    /// The name claims are made under (for the logs and the `bot_jobs` table).
    pub name: String,
}

/// A worker name: the host's, and the process's id.
pub fn default_name() -> String {
    let host = std::fs::read_to_string("/etc/hostname").map(|h| h.trim().to_string()).unwrap_or_default();
    let host = if host.is_empty() { "worker".to_string() } else { host };
    format!("{host}-{}", std::process::id())
}

/// The number of loops for `threads` search threads.
pub fn loops(threads: usize) -> usize {
    threads.max(1) * LOOPS_PER_THREAD
}

/// Runs the bot loops on `hub`'s database until `stop` turns true; each
/// finishes the decision it is making first. Does nothing on SQLite, whose
/// server runs its bots itself.
pub async fn run(hub: Arc<Hub>, options: WorkerOptions, stop: watch::Receiver<bool>) {
    let Store::Postgres(pg) = hub.store().clone() else { return };
    let searches = Arc::new(Semaphore::new(options.threads.max(1)));
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..loops(options.threads) {
        let name = format!("{}/{i}", options.name);
        let worker =
            Worker { hub: hub.clone(), pg: pg.clone(), name, lease: options.lease, searches: searches.clone() };
        tasks.spawn(worker.work(stop.clone()));
    }
    tracing::info!(threads = options.threads, name = %options.name, lease = ?options.lease, "bot worker started");
    while tasks.join_next().await.is_some() {}
}

/// One loop taking jobs.
struct Worker {
    hub: Arc<Hub>,
    pg: Postgres,
    name: String,
    lease: Duration,
    /// Permits to search (one per search thread).
    searches: Arc<Semaphore>,
}

/// The bot that decided last, kept for its game and seat's next decision:
/// a search with a turn budget carries its tree across the turn.
type Kept = Option<(String, usize, Box<dyn Bot>)>;

impl Worker {
    async fn work(self, mut stop: watch::Receiver<bool>) {
        let mut kept: Kept = None;
        while !*stop.borrow() {
            // Registered before looking, so that a job queued meanwhile wakes it.
            let wake = self.hub.bot_jobs.notified();
            tokio::pin!(wake);
            wake.as_mut().enable();
            match self.pg.take_job(&self.name, self.lease).await {
                Ok(Some(job)) => self.decide(job, &mut kept).await,
                Ok(None) => {
                    tokio::select! {
                        () = wake => {}
                        // Claims of dead workers run out without a notice.
                        () = tokio::time::sleep(Duration::from_secs(1)) => {}
                        _ = stop.changed() => {}
                    }
                }
                Err(e) => {
                    tracing::warn!(worker = %self.name, error = %e, "bot worker: cannot take a job, trying again in 1 s");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
        }
    }

    /// Makes the decision of `job` and plays it.
    async fn decide(&self, job: Job, kept: &mut Kept) {
        let (hub, pg) = (&self.hub, &self.pg);
        let game = job.game.clone();
        let done = |why: &str| {
            tracing::debug!(game = %game, version = job.version, "bot job dropped: {why}");
            pg.drop_job(&job.game, job.version)
        };
        let slot = match hub.slot(&job.game).await {
            Ok(slot) => slot,
            Err(ApiError::NotFound(_)) => return log_failure(&game, done("no such game").await),
            // Taken again once the claim runs out: a game that cannot be
            // read does not keep every loop busy meanwhile.
            Err(e) => {
                tracing::warn!(game = %game, error = %e, "bot job: cannot load the game, trying again after the claim");
                return;
            }
        };
        let (seat, plan, state, seed) = {
            let live = slot.live().await;
            match live.bot_to_act() {
                Some((seat, plan)) if live.version == job.version => {
                    (seat, plan, live.state().clone(), live.bot_seed())
                }
                _ => return log_failure(&game, done("the game has moved on").await),
            }
        };
        let legal = state.legal_action_list();
        let Some(&first) = legal.first() else {
            tracing::error!(game = %game, seat, "bot failure: no legal action");
            return;
        };
        let searches = matches!(plan, BotPlan::Mcts(_)) && legal.len() > 1;
        // Any bot that keeps failing, instant ones too (say, an action refused).
        let greedy = if job.attempts > GIVE_UP_SEARCHING {
            Some(format!("claimed {} times without an answer", job.attempts - 1))
        } else if !searches {
            None
        } else {
            let per_hour = hub.bots().seconds_per_hour();
            match pg.bot_usage(job.owner, per_hour).await {
                Ok(used) if used >= per_hour => Some(crate::bots::Why::OverAllowance.describe().to_string()),
                _ => None,
            }
        };
        if let Some(why) = &greedy {
            tracing::warn!(game = %game, owner = ?job.owner, "a bot plays greedily this time: {why}");
        }
        let action = if legal.len() == 1 || job.attempts > GIVE_UP_SEARCHING + 2 {
            if legal.len() > 1 {
                tracing::warn!(game = %game, seat, attempts = job.attempts, "a bot plays its first legal action: its decision kept failing");
            }
            *kept = None;
            first
        } else {
            let mut bot: Box<dyn Bot> = match kept.take() {
                _ if greedy.is_some() => Box::new(carcassonne_bots::GreedyBot::new(seed)),
                Some((g, s, bot)) if g == game && s == seat => bot,
                _ => plan.build(seed),
            };
            // A search waits for a search thread; instant bots go at once.
            let permit = if searches && greedy.is_none() {
                let waited = Instant::now();
                let permit = self.searches.clone().acquire_owned().await.ok();
                if waited.elapsed() > Duration::from_millis(100) {
                    let renewed = pg.renew_job(&job.game, job.version, &self.name, self.lease).await;
                    log_failure(&game, renewed);
                }
                permit
            } else {
                None
            };
            let chosen = tokio::task::spawn_blocking(move || {
                let started = Instant::now();
                let action = bot.choose(&state);
                (bot, action, started.elapsed())
            })
            .await;
            drop(permit);
            let (bot, action, spent) = match chosen {
                Ok(c) => c,
                Err(e) => {
                    tracing::error!(game = %game, seat, error = %e, "bot failure: the bot's thread failed");
                    return;
                }
            };
            if searches && greedy.is_none() {
                log_failure(&game, pg.charge(job.owner, spent, hub.bots().seconds_per_hour()).await);
                *kept = Some((game.clone(), seat, bot));
            }
            match action {
                Some(a) => a,
                None => {
                    tracing::error!(game = %game, seat, "bot failure: the bot found no action");
                    first
                }
            }
        };
        match hub.submit(&game, Who::Bot { seat }, job.version, Command::Play(action)).await {
            // The write replaced or removed the job.
            Ok(_) => {}
            Err(ApiError::StaleVersion { .. }) => log_failure(&game, done("another action came first").await),
            Err(ApiError::Storage(e)) => {
                tracing::warn!(game = %game, seat, error = %e, "bot failure: its action was not stored, trying again in 1 s");
                tokio::time::sleep(Duration::from_secs(1)).await;
                log_failure(&game, pg.release_job(&job.game, job.version).await);
            }
            // A bug: tried again once the claim runs out, greedily, then
            // with the first legal action.
            Err(e) => {
                tracing::error!(game = %game, seat, action = %action, error = %e, "bot failure: its action was refused");
            }
        }
    }
}

fn log_failure(game: &str, result: Result<(), crate::store::StoreError>) {
    if let Err(e) = result {
        tracing::warn!(game = %game, error = %e, "bot job: the queue could not be updated");
    }
}
