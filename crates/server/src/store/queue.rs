//! The bots' queue in PostgreSQL (`bot_jobs`) and their time per address
//! (`bot_usage`): claims with a lease, taken over when one runs out, and
//! the bot seconds counted across workers. See [`super::postgres`] for how
//! a write queues a job in the same statement.

use std::net::IpAddr;
use std::time::Duration;

use super::postgres::{owner_key, pg, Job, Postgres, TakenOver};
use super::StoreError;

impl Postgres {
    /// Claims the next bot decision for `worker` for `lease`: among the
    /// jobs nobody holds (or whose claim ran out), one of the address with
    /// the fewest decisions being made now, the longest waiting first.
    pub async fn take_job(&self, worker: &str, lease: Duration) -> Result<Option<Job>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "WITH old AS (
                    WITH running AS (
                        SELECT owner, count(*) AS n FROM bot_jobs WHERE taken_until >= now() GROUP BY owner)
                    SELECT j.game, j.taken_by, j.taken_at FROM bot_jobs j LEFT JOIN running r ON r.owner = j.owner
                    WHERE j.taken_until IS NULL OR j.taken_until < now()
                    ORDER BY COALESCE(r.n, 0), j.queued
                    LIMIT 1
                    FOR UPDATE OF j SKIP LOCKED)
                 UPDATE bot_jobs SET taken_by = $1, taken_until = now() + make_interval(secs => $2),
                                     taken_at = now(), attempts = attempts + 1
                 FROM old WHERE bot_jobs.game = old.game
                 RETURNING bot_jobs.game, bot_jobs.version, bot_jobs.owner, bot_jobs.attempts, old.taken_by,
                           EXTRACT(EPOCH FROM now() - old.taken_at)::DOUBLE PRECISION",
            )
            .await
            .map_err(pg)?;
        let row = client.query_opt(&stmt, &[&worker, &lease.as_secs_f64()]).await.map_err(pg)?;
        Ok(row.map(|r| {
            let by: Option<String> = r.get(4);
            let held: Option<f64> = r.get(5);
            Job {
                game: r.get(0),
                version: r.get::<_, i64>(1) as u64,
                owner: r.get::<_, &str>(2).parse().ok(),
                attempts: r.get(3),
                taken_over: by.map(|by| TakenOver { by, held: Duration::from_secs_f64(held.unwrap_or(0.0).max(0.0)) }),
            }
        }))
    }

    /// Removes a job that is done with (if it is still the same decision).
    pub async fn drop_job(&self, game: &str, version: u64) -> Result<(), StoreError> {
        let client = self.client().await?;
        client
            .execute("DELETE FROM bot_jobs WHERE game = $1 AND version = $2", &[&game, &(version as i64)])
            .await
            .map_err(pg)?;
        Ok(())
    }

    /// Extends `worker`'s claim on a job by `lease` from now (a search that
    /// waited for a thread).
    pub async fn renew_job(&self, game: &str, version: u64, worker: &str, lease: Duration) -> Result<(), StoreError> {
        let client = self.client().await?;
        client
            .execute(
                "UPDATE bot_jobs SET taken_until = now() + make_interval(secs => $4)
                 WHERE game = $1 AND version = $2 AND taken_by = $3",
                &[&game, &(version as i64), &worker, &lease.as_secs_f64()],
            )
            .await
            .map_err(pg)?;
        Ok(())
    }

    /// Gives a claimed job back at once, for any worker to take again.
    pub async fn release_job(&self, game: &str, version: u64) -> Result<(), StoreError> {
        let client = self.client().await?;
        client
            .execute(
                "UPDATE bot_jobs SET taken_by = NULL, taken_until = NULL, taken_at = NULL WHERE game = $1 AND version = $2",
                &[&game, &(version as i64)],
            )
            .await
            .map_err(pg)?;
        Ok(())
    }

    /// Gives back every claim made under `name` (its loops' names begin
    /// with it): a worker that stops leaves its jobs to the others at once.
    pub async fn release_claims(&self, name: &str) -> Result<u64, StoreError> {
        let client = self.client().await?;
        let pattern = format!("{}/%", name.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_"));
        client
            .execute(
                "UPDATE bot_jobs SET taken_by = NULL, taken_until = NULL, taken_at = NULL
                 WHERE taken_by LIKE $1 AND taken_until >= now()",
                &[&pattern],
            )
            .await
            .map_err(pg)
    }

    /// The bot seconds `owner` has used, leaking away at `per_hour` an hour.
    pub async fn bot_usage(&self, owner: Option<IpAddr>, per_hour: f64) -> Result<f64, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                "SELECT GREATEST(seconds - EXTRACT(EPOCH FROM now() - at)::DOUBLE PRECISION * $2 / 3600.0, 0)
                 FROM bot_usage WHERE owner = $1",
                &[&owner_key(owner), &per_hour],
            )
            .await
            .map_err(pg)?;
        Ok(row.map_or(0.0, |r| r.get(0)))
    }

    /// Charges `spent` to `owner`'s bot time.
    pub async fn charge(&self, owner: Option<IpAddr>, spent: Duration, per_hour: f64) -> Result<(), StoreError> {
        let client = self.client().await?;
        client
            .execute(
                "INSERT INTO bot_usage (owner, seconds, at) VALUES ($1, $2, now())
                 ON CONFLICT (owner) DO UPDATE SET
                    seconds = GREATEST(bot_usage.seconds
                        - EXTRACT(EPOCH FROM now() - bot_usage.at)::DOUBLE PRECISION * $3 / 3600.0, 0)
                        + excluded.seconds,
                    at = now()",
                &[&owner_key(owner), &spent.as_secs_f64(), &per_hour],
            )
            .await
            .map_err(pg)?;
        Ok(())
    }

    /// Jobs waiting (not claimed), in all and of `owner`'s games.
    pub async fn queued(&self, owner: Option<IpAddr>) -> Result<(usize, usize), StoreError> {
        let client = self.client().await?;
        let row = client
            .query_one(
                "SELECT count(*), count(*) FILTER (WHERE owner = $1) FROM bot_jobs
                 WHERE taken_until IS NULL OR taken_until < now()",
                &[&owner_key(owner)],
            )
            .await
            .map_err(pg)?;
        Ok((row.get::<_, i64>(0) as usize, row.get::<_, i64>(1) as usize))
    }
}
