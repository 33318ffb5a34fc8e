//! Reviews of finished games (docs/analysis.md), asked for from the
//! browser: the review runs in the background on a bot thread, its
//! progress can be read while it runs, and the result is stored with the
//! game, once, for everyone who opens it later (on any server, with
//! PostgreSQL).
//!
//! A review costs the server's CPU as a bot does: it takes one of the bot
//! threads, and its time is charged to the address that asked for it. An
//! address past its bot seconds for the hour, or with
//! [`REVIEWS_PER_ADDRESS`] reviews under way, is refused and told why.
//!
//! With SQLite the server that is asked makes the review, its progress in
//! memory. With PostgreSQL the review is queued in the database
//! (`review_jobs`, [`crate::store::review_queue`]): a bot worker, or a
//! server running bot loops, makes it ([`make_queued`]), writing its
//! progress to the queue, where every server reads it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use carcassonne_bots::review::{self, ReviewBudget};

use super::Hub;
use crate::bots::{Owner, Turn};
use crate::error::GameError;
use crate::store::review_queue::{Queued, ReviewJob};

/// Reviews one address may have under way (running or waiting for a thread).
pub const REVIEWS_PER_ADDRESS: usize = 2;
/// Reviews under way on this server.
pub const REVIEWS_AT_ONCE: usize = 8;

/// Where a game's review stands.
#[derive(Clone, Debug)]
pub enum ReviewStatus {
    /// Never asked for (on this server, and none stored).
    None,
    /// Waiting for a bot thread.
    Queued,
    /// Under way: `done` of the record's `total` actions.
    Running { done: usize, total: usize },
    /// Done: the review as `carcassonne analyse --json` prints it.
    Done { review: Arc<String> },
    /// It could not be made (the bots' threads were refused, say).
    Failed { message: String },
}

impl ReviewStatus {
    /// The answer of `GET /api/games/{id}/review` (docs/api.md).
    pub fn to_json(&self) -> String {
        match self {
            ReviewStatus::None => r#"{"status":"none"}"#.to_string(),
            ReviewStatus::Queued => r#"{"status":"queued"}"#.to_string(),
            ReviewStatus::Running { done, total } => {
                serde_json::json!({"status": "running", "done": done, "total": total}).to_string()
            }
            // Stored as the review's own JSON text: spliced in, not parsed again.
            ReviewStatus::Done { review } => format!(r#"{{"status":"done","review":{review}}}"#),
            ReviewStatus::Failed { message } => serde_json::json!({"status": "failed", "message": message}).to_string(),
        }
    }
}

struct Entry {
    owner: Owner,
    status: ReviewStatus,
}

/// The reviews under way on this server, and the last ones' outcomes.
#[derive(Default)]
pub struct Reviews {
    entries: Mutex<HashMap<String, Entry>>,
    /// Set when the server stops: the reviews under way end at once.
    stop: Arc<AtomicBool>,
}

impl Reviews {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn set(&self, id: &str, status: ReviewStatus) {
        if let Some(e) = self.lock().get_mut(id) {
            e.status = status;
        }
    }
}

fn under_way(s: &ReviewStatus) -> bool {
    matches!(s, ReviewStatus::Queued | ReviewStatus::Running { .. })
}

impl Hub {
    /// Ends the reviews under way (the server is stopping); none is stored.
    pub fn stop_reviews(&self) {
        self.reviews.stop.store(true, Ordering::Relaxed);
    }

    /// Where the review of game `id` stands.
    pub async fn review_status(&self, id: &str) -> Result<ReviewStatus, GameError> {
        // The game must exist (and its id be valid) before anything else is read.
        let slot = self.slot(id).await?;
        // Several servers: the queue in the database says, whoever makes it.
        if let crate::store::Store::Postgres(pg) = &self.store {
            if let Some(text) = pg.watch(pg.load_review(id)).await? {
                return Ok(ReviewStatus::Done { review: Arc::new(text) });
            }
            return Ok(match pg.watch(pg.review_job(id)).await? {
                None => ReviewStatus::None,
                Some(ReviewJob::Queued) => ReviewStatus::Queued,
                Some(ReviewJob::Running { done, total }) => {
                    ReviewStatus::Running { done: done as usize, total: total as usize }
                }
                Some(ReviewJob::Failed(message)) => ReviewStatus::Failed { message },
            });
        }
        if let Some(e) = self.reviews.lock().get(id) {
            if !matches!(e.status, ReviewStatus::Failed { .. }) {
                return Ok(e.status.clone());
            }
        }
        if let Some(text) = self.store.load_review(id).await? {
            return Ok(ReviewStatus::Done { review: Arc::new(text) });
        }
        drop(slot);
        Ok(self.reviews.lock().get(id).map_or(ReviewStatus::None, |e| e.status.clone()))
    }

    /// Starts the review of the finished game `id` for `owner` (the
    /// address that asks), unless it is stored or under way already.
    pub async fn start_review(self: &Arc<Self>, id: &str, owner: Owner) -> Result<ReviewStatus, GameError> {
        let slot = self.slot(id).await?;
        if !slot.finished.load(Ordering::Acquire) {
            return Err(GameError::NotFinished);
        }
        let status = self.review_status(id).await?;
        if !matches!(status, ReviewStatus::None | ReviewStatus::Failed { .. }) {
            return Ok(status);
        }
        // The bots' allowance: a review counts as search bots do.
        self.admit(owner).await.map_err(|e| match e {
            GameError::RateLimited { retry_after } => GameError::BotTimeUsed { retry_after },
            GameError::Busy(_) => GameError::ReviewsBusy(
                "the bots' queue of decisions is full: no review now, try again in a minute".into(),
            ),
            other => other,
        })?;
        if let crate::store::Store::Postgres(pg) = &self.store {
            drop(slot);
            return match pg.watch(pg.queue_review(id, owner, REVIEWS_PER_ADDRESS, REVIEWS_AT_ONCE)).await? {
                Queued::Yes => self.review_status(id).await,
                Queued::Refused { mine, .. } if mine >= REVIEWS_PER_ADDRESS => Err(GameError::ReviewsBusy(format!(
                    "this address has {mine} reviews under way: wait for one to end"
                ))),
                Queued::Refused { all, .. } => Err(GameError::ReviewsBusy(format!(
                    "the servers have {all} reviews under way: try again in a minute"
                ))),
            };
        }
        {
            let mut entries = self.reviews.lock();
            let running = entries.values().filter(|e| under_way(&e.status));
            let (all, mine) = running.fold((0, 0), |(a, m), e| (a + 1, m + usize::from(e.owner == owner)));
            if mine >= REVIEWS_PER_ADDRESS {
                return Err(GameError::ReviewsBusy(format!(
                    "this address has {mine} reviews under way: wait for one to end"
                )));
            }
            if all >= REVIEWS_AT_ONCE {
                return Err(GameError::ReviewsBusy(format!(
                    "the server has {all} reviews under way: try again in a minute"
                )));
            }
            if entries.get(id).is_some_and(|e| under_way(&e.status)) {
                return Ok(entries[id].status.clone());
            }
            entries.insert(id.to_string(), Entry { owner, status: ReviewStatus::Queued });
        }
        let record = self.record(id).await?;
        let hub = self.clone();
        let id = id.to_string();
        tokio::spawn(async move {
            let status = hub.run_review(&id, owner, record).await;
            hub.reviews.set(&id, status);
        });
        Ok(ReviewStatus::Queued)
    }

    async fn run_review(self: &Arc<Self>, id: &str, owner: Owner, record: carcassonne_engine::Record) -> ReviewStatus {
        let thread = match self.bots.search(owner, Duration::ZERO).await {
            Turn::Search(thread) => thread,
            Turn::Greedy(why) => return ReviewStatus::Failed { message: format!("no review now: {}", why.describe()) },
        };
        let started = Instant::now();
        let hub = self.clone();
        let game = id.to_string();
        let seed = seed_of(id);
        let budget = ReviewBudget::Millis(self.bots.review_ms());
        let stop = self.reviews.stop.clone();
        let made = tokio::task::spawn_blocking(move || {
            let mut last = Instant::now();
            review::review_until(&record, budget, seed, Some(stop), &mut |done, total| {
                // A few updates a second are enough for a progress bar.
                if done == 0 || done == total || last.elapsed() >= Duration::from_millis(200) {
                    last = Instant::now();
                    hub.reviews.set(&game, ReviewStatus::Running { done, total });
                }
            })
        })
        .await;
        drop(thread);
        self.charge_search(owner, started.elapsed()).await;
        let reviewed = match made {
            Ok(Ok(r)) => r,
            Ok(Err(review::ReviewError::Stopped)) => {
                return ReviewStatus::Failed { message: "the server stopped during the review: ask again".to_string() }
            }
            Ok(Err(e)) => {
                return ReviewStatus::Failed { message: format!("the game's record cannot be reviewed: {e}") }
            }
            Err(e) => {
                tracing::error!(game = %id, error = %e, "the review failed");
                return ReviewStatus::Failed { message: "the review failed".to_string() };
            }
        };
        let text = match serde_json::to_string(&reviewed) {
            Ok(t) => t,
            Err(e) => return ReviewStatus::Failed { message: format!("the review failed: {e}") },
        };
        if let Err(e) = self.store.save_review(id, super::now(), text.clone()).await {
            tracing::error!(game = %id, error = %e, "the review could not be stored");
        }
        tracing::info!(game = %id, seconds = started.elapsed().as_secs_f64(), "game reviewed");
        ReviewStatus::Done { review: Arc::new(text) }
    }
}

/// The review's search seed, from the game's id: the same game gets the
/// same seed wherever it is reviewed.
pub(crate) fn seed_of(id: &str) -> u64 {
    u64::from_str_radix(id, 16).unwrap_or(0)
}

/// Makes a review claimed from the database's queue (PostgreSQL), on a
/// thread of its own beside the searches (`slot` is the worker's one review
/// at a time), writing its progress to the queue every half second (which
/// renews the claim) until it is stored; given back at once if `stop` turns
/// true, and left to another worker if the claim is lost meanwhile.
pub(crate) async fn make_queued(
    hub: &Arc<Hub>,
    pg: &crate::store::postgres::Postgres,
    claim: crate::store::review_queue::ReviewClaim,
    worker: &str,
    lease: Duration,
    slot: tokio::sync::OwnedSemaphorePermit,
    stop: &tokio::sync::watch::Receiver<bool>,
) {
    use crate::store::review_queue::REVIEW_ATTEMPTS;
    let game = claim.game.clone();
    let failed = |why: String| async move {
        tracing::warn!(game = %claim.game, "review failed: {why}");
        if let Err(e) = pg.fail_review(&claim.game, worker, &why).await {
            tracing::warn!(game = %claim.game, error = %e, "a failed review could not be marked: its claim runs out");
        }
    };
    if claim.attempts > REVIEW_ATTEMPTS {
        return failed(format!("the review was begun {} times without an end: ask again", claim.attempts - 1)).await;
    }
    let record = match hub.record(&game).await {
        Ok(record) => record,
        Err(GameError::NotFound(_)) => return failed("there is no such game".into()).await,
        Err(e) => {
            tracing::warn!(game = %game, error = %e, "review: cannot read the game, trying again after the claim");
            return;
        }
    };
    let progress = Arc::new(Mutex::new((0usize, 0usize)));
    let halt = Arc::new(AtomicBool::new(false));
    let budget = ReviewBudget::Millis(hub.bots.review_ms());
    let started = Instant::now();
    let mut made = tokio::task::spawn_blocking({
        let (progress, halt, seed) = (progress.clone(), halt.clone(), seed_of(&game));
        move || {
            review::review_until(&record, budget, seed, Some(halt), &mut |done, total| {
                *progress.lock().unwrap_or_else(|e| e.into_inner()) = (done, total);
            })
        }
    });
    let mut lost = false;
    let made = loop {
        tokio::select! {
            made = &mut made => break made,
            () = tokio::time::sleep(Duration::from_millis(500)) => {
                let now = *progress.lock().unwrap_or_else(|e| e.into_inner());
                match pg.review_progress(&game, worker, now, lease).await {
                    Ok(true) => {}
                    // Another worker took it after the claim ran out: it makes it now.
                    Ok(false) => { lost = true; halt.store(true, Ordering::Relaxed); }
                    Err(e) => tracing::warn!(game = %game, error = %e, "a review's progress could not be written"),
                }
                if *stop.borrow() {
                    halt.store(true, Ordering::Relaxed);
                }
            }
        }
    };
    drop(slot);
    hub.charge_search(claim.owner, started.elapsed()).await;
    match made {
        Ok(Ok(reviewed)) => match serde_json::to_string(&reviewed) {
            Ok(text) => match pg.finish_review(&game, super::now(), &text).await {
                Ok(()) => tracing::info!(game = %game, seconds = started.elapsed().as_secs_f64(), "game reviewed"),
                Err(e) => {
                    tracing::error!(game = %game, error = %e, "the review could not be stored: made again after the claim")
                }
            },
            Err(e) => failed(format!("the review failed: {e}")).await,
        },
        Ok(Err(review::ReviewError::Stopped)) if lost => {}
        Ok(Err(review::ReviewError::Stopped)) => {
            if let Err(e) = pg.release_review(&game, worker).await {
                tracing::warn!(game = %game, error = %e, "a review's claim could not be given back: it runs out");
            }
        }
        Ok(Err(e)) => failed(format!("the game's record cannot be reviewed: {e}")).await,
        Err(e) => failed(format!("the review failed: {e}")).await,
    }
}
