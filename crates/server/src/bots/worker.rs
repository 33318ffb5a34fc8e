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
//!
//! When no decision waits, a loop makes the review of a finished game that
//! waits longest (the reviews' queue, [`crate::store::review_queue`]).

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{watch, Semaphore};

use super::turn::{self, Due, Fallback, Guard, Kept, Lender, Outcome};
use crate::error::GameError;
use crate::game::Hub;
use crate::store::postgres::{Job, Postgres};
use crate::store::Store;

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
    let reviews = Arc::new(Semaphore::new(1));
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..loops(options.threads) {
        let name = format!("{}/{i}", options.name);
        let worker = Worker {
            hub: hub.clone(),
            pg: pg.clone(),
            name,
            lease: options.lease,
            searches: searches.clone(),
            reviews: reviews.clone(),
        };
        tasks.spawn(worker.work(stop.clone()));
    }
    tracing::info!(version = crate::VERSION, threads = options.threads, name = %options.name, lease = ?options.lease, "bot worker started");
    while tasks.join_next().await.is_some() {}
    // Each loop finished its decision; a claim still held (a game that
    // could not be read) goes back to the queue at once.
    match pg.release_claims(&options.name).await {
        Ok(0) => {}
        Ok(n) => tracing::info!(released = n, name = %options.name, "bot claims released"),
        Err(e) => {
            tracing::warn!(error = %e, name = %options.name, "bot claims not released: they run out by themselves")
        }
    }
}

/// One loop taking jobs.
struct Worker {
    hub: Arc<Hub>,
    pg: Postgres,
    name: String,
    lease: Duration,
    /// Permits to search (one per search thread).
    searches: Arc<Semaphore>,
    /// The one review this worker makes at a time.
    reviews: Arc<Semaphore>,
}

/// What a worker lends one job's decision: a search thread (the claim
/// renewed if it waited for one), and the database's count of the
/// address's bot time.
struct Claim<'a> {
    worker: &'a Worker,
    job: &'a Job,
}

impl Lender for Claim<'_> {
    async fn search(&mut self) -> Result<Guard, String> {
        let (w, job) = (self.worker, self.job);
        let per_hour = w.hub.bots().seconds_per_hour();
        if let Ok(used) = w.pg.bot_usage(job.owner, per_hour).await {
            if used >= per_hour {
                let why = crate::bots::Why::OverAllowance.describe();
                tracing::warn!(game = %job.game, owner = ?job.owner, "a bot plays greedily this time: {why}");
                return Err(why.to_string());
            }
        }
        let waited = Instant::now();
        let permit = w.searches.clone().acquire_owned().await.ok();
        if waited.elapsed() > Duration::from_millis(100) {
            log_failure(&job.game, w.pg.renew_job(&job.game, job.version, &w.name, w.lease).await);
        }
        Ok(permit.map(|p| Box::new(p) as Box<dyn Send>))
    }

    async fn instant(&mut self) -> Guard {
        None
    }

    async fn charge(&mut self, spent: Duration, searched: bool) {
        let (w, job) = (self.worker, self.job);
        if searched {
            log_failure(&job.game, w.pg.charge(job.owner, spent, w.hub.bots().seconds_per_hour()).await);
        }
    }
}

impl Worker {
    async fn work(self, mut stop: watch::Receiver<bool>) {
        let mut kept: Option<Kept> = None;
        while !*stop.borrow() {
            // Registered before looking, so that a job queued meanwhile wakes it.
            let wake = self.hub.bot_jobs.notified();
            tokio::pin!(wake);
            wake.as_mut().enable();
            match self.pg.take_job(&self.name, self.lease).await {
                Ok(Some(job)) => self.decide(job, &mut kept).await,
                // No decision waits: a review may (the games' turns come first).
                Ok(None) if self.review_next(&stop).await => {}
                Ok(None) => {
                    tokio::select! {
                        () = wake => {}
                        // Claims of dead workers run out without a notice.
                        () = tokio::time::sleep(Duration::from_secs(1)) => {}
                        _ = stop.changed() => {}
                    }
                }
                Err(e) => {
                    crate::logging::warn_throttled(
                        "take_job",
                        format_args!("bot worker: cannot take a job, trying again in 1 s"),
                        "-",
                        Some(&e.to_string()),
                    );
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
        }
    }

    /// Makes the review waiting longest, if any and if this worker makes
    /// none now; whether it made one.
    async fn review_next(&self, stop: &watch::Receiver<bool>) -> bool {
        // One review at a time a worker, on a thread beside its searches:
        // the games' bots never wait behind a review.
        let Ok(slot) = self.reviews.clone().try_acquire_owned() else { return false };
        match self.pg.take_review(&self.name, self.lease).await {
            Ok(Some(claim)) => {
                crate::game::review::make_queued(&self.hub, &self.pg, claim, &self.name, self.lease, slot, stop).await;
                true
            }
            Ok(None) => false,
            Err(e) => {
                crate::logging::warn_throttled(
                    "take_review",
                    format_args!("bot worker: cannot take a review"),
                    "-",
                    Some(&e.to_string()),
                );
                false
            }
        }
    }

    /// Makes the decision of `job` and plays it.
    async fn decide(&self, job: Job, kept: &mut Option<Kept>) {
        let (hub, pg) = (&self.hub, &self.pg);
        let game = job.game.clone();
        let done = |why: &str| {
            tracing::debug!(game = %game, version = job.version, "bot job dropped: {why}");
            pg.drop_job(&job.game, job.version)
        };
        if let Some(taken) = &job.taken_over {
            tracing::warn!(
                game = %game,
                version = job.version,
                from = %taken.by,
                held_secs = taken.held.as_secs_f64(),
                attempts = job.attempts,
                "bot job taken over: its claim ran out without an answer"
            );
        }
        let slot = match hub.slot(&job.game).await {
            Ok(slot) => slot,
            Err(GameError::NotFound(_)) => return log_failure(&game, done("no such game").await),
            // Taken again once the claim runs out: a game that cannot be
            // read does not keep every loop busy meanwhile.
            Err(e) => {
                tracing::warn!(game = %game, error = %e, cause = e.cause(), "bot job: cannot load the game, trying again after the claim");
                return;
            }
        };
        let due = {
            let live = slot.live().await;
            match Due::of(&live) {
                Some(due) if due.version == job.version => due,
                _ => return log_failure(&game, done("the game has moved on").await),
            }
        };
        let seat = due.seat;
        // Any bot that keeps failing, instant ones too (a worker died on it,
        // or its action was refused).
        let fallback = if job.attempts > GIVE_UP_SEARCHING + 2 {
            Fallback::FirstLegal
        } else if job.attempts > GIVE_UP_SEARCHING {
            tracing::warn!(game = %game, owner = ?job.owner, "a bot plays greedily this time: claimed {} times without an answer", job.attempts - 1);
            Fallback::Greedy
        } else {
            Fallback::AsPlanned
        };
        let mut claim = Claim { worker: self, job: &job };
        match turn::play(hub, due, fallback, kept, &mut claim).await {
            // The write replaced or removed the job.
            Outcome::Played => {}
            Outcome::MovedOn => log_failure(&game, done("another action came first").await),
            Outcome::NotStored(e) => {
                tracing::warn!(game = %game, seat, error = %e, cause = e.cause(), "bot failure: its action was not stored, trying again in 1 s");
                tokio::time::sleep(Duration::from_secs(1)).await;
                log_failure(&game, pg.release_job(&job.game, job.version).await);
            }
            // A bug: tried again once the claim runs out, with the first
            // legal action.
            Outcome::Failed => {}
        }
    }
}

fn log_failure(game: &str, result: Result<(), crate::store::StoreError>) {
    if let Err(e) = result {
        crate::logging::warn_throttled(
            "queue",
            format_args!("bot job: the queue could not be updated"),
            game,
            Some(&e.to_string()),
        );
    }
}
