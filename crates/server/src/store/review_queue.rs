//! The reviews' queue in PostgreSQL (`review_jobs`): a review asked of any
//! server is made by whichever bot worker (or server running bot loops)
//! claims it first, its progress written to its row for every server to
//! read, its result stored in `reviews`. A claim is a lease, renewed with
//! each progress write: a worker that dies leaves it to run out, and the
//! review is made again by another. See `crate::game::review`.

use std::net::IpAddr;
use std::time::Duration;

use super::postgres::{owner_key, pg, Postgres, BOTS_CHANNEL};
use super::StoreError;

/// Claims of a review after which it is given up as failed.
pub const REVIEW_ATTEMPTS: i32 = 3;

/// A review waiting or being made, as its row says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReviewJob {
    /// Waiting for a worker (or its claim ran out).
    Queued,
    /// A worker is making it: `done` of `total` actions.
    Running { done: u64, total: u64 },
    /// Given up: why.
    Failed(String),
}

/// A review claimed by a worker.
#[derive(Clone, Debug)]
pub struct ReviewClaim {
    pub game: String,
    pub owner: Option<IpAddr>,
    pub attempts: i32,
}

/// Whether a review could be queued.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Queued {
    /// Queued now, or already waiting or under way.
    Yes,
    /// The address has `mine` reviews under way, the database `all`: over a limit.
    Refused { mine: usize, all: usize },
}

impl Postgres {
    /// Where the review of `game` stands in the queue (`None`: not in it).
    pub async fn review_job(&self, game: &str) -> Result<Option<ReviewJob>, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                "SELECT taken_until IS NOT NULL AND taken_until >= now(), done, total, failed
                 FROM review_jobs WHERE game = $1",
                &[&game],
            )
            .await
            .map_err(pg)?;
        Ok(row.map(|r| match r.get::<_, Option<String>>(3) {
            Some(why) => ReviewJob::Failed(why),
            None if r.get::<_, bool>(0) => {
                ReviewJob::Running { done: r.get::<_, i64>(1) as u64, total: r.get::<_, i64>(2) as u64 }
            }
            None => ReviewJob::Queued,
        }))
    }

    /// Queues the review of `game` for `owner`, unless it is queued or under
    /// way already, or the address has `per_owner` reviews under way or the
    /// database `at_once`; a review that failed is queued afresh. Wakes a
    /// worker.
    pub async fn queue_review(
        &self,
        game: &str,
        owner: Option<IpAddr>,
        per_owner: usize,
        at_once: usize,
    ) -> Result<Queued, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(pg)?;
        // One address's requests one at a time, so that two racing ones cannot both pass its limit.
        tx.execute("SELECT pg_advisory_xact_lock(hashtext($1))", &[&owner_key(owner)]).await.map_err(pg)?;
        let counts = tx
            .query_one(
                "SELECT count(*) FILTER (WHERE owner = $1 AND failed IS NULL),
                        count(*) FILTER (WHERE failed IS NULL),
                        count(*) FILTER (WHERE game = $2 AND failed IS NULL)
                 FROM review_jobs",
                &[&owner_key(owner), &game],
            )
            .await
            .map_err(pg)?;
        let (mine, all, this) =
            (counts.get::<_, i64>(0) as usize, counts.get::<_, i64>(1) as usize, counts.get::<_, i64>(2));
        if this > 0 {
            return Ok(Queued::Yes);
        }
        if mine >= per_owner || all >= at_once {
            return Ok(Queued::Refused { mine, all });
        }
        tx.execute(
            "INSERT INTO review_jobs (game, owner) VALUES ($1, $2)
             ON CONFLICT (game) DO UPDATE SET owner = excluded.owner, queued = now(), taken_by = NULL,
                 taken_until = NULL, attempts = 0, done = 0, total = 0, failed = NULL",
            &[&game, &owner_key(owner)],
        )
        .await
        .map_err(pg)?;
        tx.execute("SELECT pg_notify($1, $2)", &[&BOTS_CHANNEL, &game]).await.map_err(pg)?;
        tx.commit().await.map_err(pg)?;
        Ok(Queued::Yes)
    }

    /// Claims the review waiting longest for `worker` for `lease`.
    pub async fn take_review(&self, worker: &str, lease: Duration) -> Result<Option<ReviewClaim>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "WITH next AS (
                    SELECT game FROM review_jobs
                    WHERE failed IS NULL AND (taken_until IS NULL OR taken_until < now())
                    ORDER BY queued LIMIT 1 FOR UPDATE SKIP LOCKED)
                 UPDATE review_jobs SET taken_by = $1, taken_until = now() + make_interval(secs => $2),
                                        attempts = attempts + 1, done = 0, total = 0
                 FROM next WHERE review_jobs.game = next.game
                 RETURNING review_jobs.game, review_jobs.owner, review_jobs.attempts",
            )
            .await
            .map_err(pg)?;
        let row = client.query_opt(&stmt, &[&worker, &lease.as_secs_f64()]).await.map_err(pg)?;
        Ok(row.map(|r| ReviewClaim { game: r.get(0), owner: r.get::<_, &str>(1).parse().ok(), attempts: r.get(2) }))
    }

    /// Writes a review's progress and renews `worker`'s claim; false if the
    /// claim is no longer `worker`'s (it ran out and another took it).
    pub async fn review_progress(
        &self,
        game: &str,
        worker: &str,
        (done, total): (usize, usize),
        lease: Duration,
    ) -> Result<bool, StoreError> {
        let client = self.client().await?;
        let n = client
            .execute(
                "UPDATE review_jobs SET done = $3, total = $4, taken_until = now() + make_interval(secs => $5)
                 WHERE game = $1 AND taken_by = $2 AND failed IS NULL",
                &[&game, &worker, &(done as i64), &(total as i64), &lease.as_secs_f64()],
            )
            .await
            .map_err(pg)?;
        Ok(n == 1)
    }

    /// Stores a review made and takes it off the queue, in one transaction
    /// (the first review stored stays).
    pub async fn finish_review(&self, game: &str, created: i64, review: &str) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(pg)?;
        tx.execute(
            "INSERT INTO reviews (game, created, review) VALUES ($1, $2, $3) ON CONFLICT (game) DO NOTHING",
            &[&game, &created, &review],
        )
        .await
        .map_err(pg)?;
        tx.execute("DELETE FROM review_jobs WHERE game = $1", &[&game]).await.map_err(pg)?;
        tx.commit().await.map_err(pg)
    }

    /// Gives up a review `worker` holds, saying why (asked again, it is
    /// queued afresh); a claim another worker has taken since is left to it.
    pub async fn fail_review(&self, game: &str, worker: &str, why: &str) -> Result<(), StoreError> {
        let client = self.client().await?;
        client
            .execute(
                "UPDATE review_jobs SET failed = $3, taken_by = NULL, taken_until = NULL
                 WHERE game = $1 AND taken_by = $2",
                &[&game, &worker, &why],
            )
            .await
            .map_err(pg)?;
        Ok(())
    }

    /// Gives `worker`'s claim on a review back at once (a worker stopping).
    pub async fn release_review(&self, game: &str, worker: &str) -> Result<(), StoreError> {
        let client = self.client().await?;
        client
            .execute(
                "UPDATE review_jobs SET taken_by = NULL, taken_until = NULL, attempts = GREATEST(attempts - 1, 0)
                 WHERE game = $1 AND taken_by = $2",
                &[&game, &worker],
            )
            .await
            .map_err(pg)?;
        Ok(())
    }
}
