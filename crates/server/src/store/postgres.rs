//! PostgreSQL: one database for several servers and bot workers.
//!
//! - **One truth.** Every write of a game names the revision it builds on
//!   (`WHERE rev = $n`): of two racing writes, whatever servers made them,
//!   one changes the row and the other changes nothing and is told so.
//! - **Live updates.** A write announces itself on the channel
//!   `carcassonne_games` (payload `<game> <rev>`) in the same statement, so
//!   the notice goes out exactly when the write commits; each server
//!   listens and pushes the new view to its WebSockets.
//! - **Bot turns as jobs.** A write after which a bot is to act puts the
//!   decision in `bot_jobs` in the same statement, and announces it on
//!   `carcassonne_bots`. Workers claim a job for a lease
//!   (`FOR UPDATE SKIP LOCKED`, so two never take the same one); a worker
//!   that dies leaves its claim to run out, and the job is taken again.
//!   The next write of the game replaces or removes its job.
//! - **Migrations** are numbered and run at start, under an advisory lock
//!   so that servers starting together run them once.

use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use futures_util::StreamExt;
use tokio::sync::mpsc;
use tokio_postgres::{AsyncMessage, NoTls, Row};

use super::{status, DbTimeouts, Filter, GameRow, Listed, StoreError, Summary, Update};

/// The channel of game writes.
pub const GAMES_CHANNEL: &str = "carcassonne_games";
/// The channel of new bot jobs.
pub const BOTS_CHANNEL: &str = "carcassonne_bots";

/// Held (for the transaction) while migrating; any constant of our own.
const MIGRATION_LOCK: i64 = 0x00ca_4ca5_50e5;

/// The schema's migrations, in order; `schema_version` holds how many ran.
const MIGRATIONS: &[&str] = &[
    // 1: games, the bots' queue and the bots' time per address. The queue
    // is small and rewritten by every job: vacuumed after every thousand
    // dead rows, whatever its size.
    "CREATE TABLE games (
        id       TEXT PRIMARY KEY,
        created  BIGINT NOT NULL,
        updated  BIGINT NOT NULL,
        seed     BIGINT NOT NULL,
        seats    TEXT NOT NULL,
        record   TEXT NOT NULL,
        version  BIGINT NOT NULL,
        rev      BIGINT NOT NULL DEFAULT 0,
        pending  TEXT,
        status   TEXT NOT NULL CHECK (status IN ('active', 'finished')),
        summary  TEXT NOT NULL,
        public   BOOLEAN NOT NULL DEFAULT false,
        owner    TEXT
    );
    CREATE INDEX games_by_status ON games (status, updated);
    CREATE INDEX games_listed ON games (public, status, updated);
    CREATE TABLE bot_jobs (
        game        TEXT PRIMARY KEY,
        version     BIGINT NOT NULL,
        owner       TEXT NOT NULL,
        queued      TIMESTAMPTZ NOT NULL DEFAULT now(),
        taken_by    TEXT,
        taken_until TIMESTAMPTZ,
        attempts    INTEGER NOT NULL DEFAULT 0
    ) WITH (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000);
    CREATE TABLE bot_usage (
        owner   TEXT PRIMARY KEY,
        seconds DOUBLE PRECISION NOT NULL,
        at      TIMESTAMPTZ NOT NULL
    );",
    // 2: when a claim was made, so that the worker taking it over can say
    // how long it was held.
    "ALTER TABLE bot_jobs ADD COLUMN taken_at TIMESTAMPTZ;",
    // 3: the review of a finished game (docs/analysis.md), computed once
    "CREATE TABLE reviews (
        game    TEXT PRIMARY KEY REFERENCES games (id),
        created BIGINT NOT NULL,
        review  TEXT NOT NULL
    );",
    // 4: reviews waiting for a bot worker, and their progress
    // (`super::review_queue`).
    "CREATE TABLE review_jobs (
        game        TEXT PRIMARY KEY REFERENCES games (id),
        owner       TEXT NOT NULL,
        queued      TIMESTAMPTZ NOT NULL DEFAULT now(),
        taken_by    TEXT,
        taken_until TIMESTAMPTZ,
        attempts    INTEGER NOT NULL DEFAULT 0,
        done        BIGINT NOT NULL DEFAULT 0,
        total       BIGINT NOT NULL DEFAULT 0,
        failed      TEXT
    );",
    // 5: accounts, their sessions (a token's SHA-256 only), the seats bound
    // to them, and failed sign-ins per name (`super::accounts`)
    super::accounts::POSTGRES_MIGRATION,
    // 6: the games' chat (`super::chat`)
    "CREATE TABLE chat (
        id    BIGSERIAL PRIMARY KEY,
        game  TEXT NOT NULL REFERENCES games (id),
        at    BIGINT NOT NULL,
        room  TEXT NOT NULL CHECK (room IN ('players', 'spectators')),
        seat  INTEGER,
        name  TEXT NOT NULL,
        text  TEXT NOT NULL
    );
    CREATE INDEX chat_by_room ON chat (game, room, id);",
    // 7: rated games, the ratings and every finished game's results
    // (`super::ratings`)
    super::ratings::POSTGRES_MIGRATION,
    // 8: the lobby's tables and who sits at them (`super::lobby`)
    super::lobby::POSTGRES_MIGRATION,
    // 9: the games' clocks (`crate::game::clock`): their state, and when
    // the running one runs out, which the servers look for
    "ALTER TABLE games ADD COLUMN clock TEXT;
    ALTER TABLE games ADD COLUMN clock_due BIGINT;
    CREATE INDEX games_by_clock_due ON games (clock_due) WHERE clock_due IS NOT NULL;",
];

/// A pool of connections to one PostgreSQL database.
#[derive(Clone)]
pub struct Postgres {
    pool: Pool,
    /// For the listening connection.
    config: Arc<tokio_postgres::Config>,
    timeouts: DbTimeouts,
    health: Arc<Health>,
}

/// Whether the database answers, to log an outage once when it begins and
/// once when it ends, with its length.
#[derive(Default)]
struct Health {
    down_since: Mutex<Option<Instant>>,
}

impl Health {
    fn observe<T>(&self, result: &Result<T, StoreError>) {
        let mut down = self.down_since.lock().unwrap_or_else(|e| e.into_inner());
        match (result, *down) {
            (Err(StoreError::Unavailable(cause)), None) => {
                tracing::error!(error = %cause, "database unavailable: requests are answered 503 until it is back");
                *down = Some(Instant::now());
            }
            (Err(StoreError::Unavailable(_)), Some(_)) => {}
            (_, Some(since)) => {
                tracing::info!(outage_secs = since.elapsed().as_secs_f64(), "database recovered");
                *down = None;
            }
            (_, None) => {}
        }
    }
}

/// The error with its causes, on one line (the pool's errors say only what
/// failed, their sources why: "connection refused"; PostgreSQL's `DETAIL`
/// comes on lines of its own). One that says the database cannot be
/// reached or did not answer in time is [`StoreError::Unavailable`].
pub(super) fn pg<E: std::error::Error + 'static>(e: E) -> StoreError {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let more = c.to_string();
        if !text.contains(&more) {
            text = format!("{text}: {more}");
        }
        cause = c.source();
    }
    let text = crate::logging::one_line(&text);
    if let Some(hint) = hint(&e) {
        return StoreError::Postgres(format!("{text} ({hint})"));
    }
    if unreachable(&e) {
        StoreError::Unavailable(text)
    } else {
        StoreError::Postgres(text)
    }
}

fn sql_state<'a>(e: &'a (dyn std::error::Error + 'static)) -> Option<&'a tokio_postgres::error::SqlState> {
    let mut cur = Some(e);
    while let Some(c) = cur {
        if let Some(code) = c.downcast_ref::<tokio_postgres::Error>().and_then(|p| p.code()) {
            return Some(code);
        }
        cur = c.source();
    }
    None
}

/// What an operator does about a refusal of rights.
fn hint(e: &(dyn std::error::Error + 'static)) -> Option<&'static str> {
    use tokio_postgres::error::SqlState;
    match sql_state(e)? {
        c if *c == SqlState::INSUFFICIENT_PRIVILEGE => Some(
            "the role may not create or use the tables: make it the database's owner, \
             see docs/deploy.md, Setting up PostgreSQL",
        ),
        c if *c == SqlState::INVALID_PASSWORD || *c == SqlState::INVALID_AUTHORIZATION_SPECIFICATION => {
            Some("check the role and password in the URL, and pg_hba.conf")
        }
        c if *c == SqlState::INVALID_CATALOG_NAME => Some("create the database first: see docs/deploy.md"),
        _ => None,
    }
}

/// Whether `e` says the database is out of reach for now (down, starting,
/// frozen, cut off) rather than refusing the request.
fn unreachable(e: &(dyn std::error::Error + 'static)) -> bool {
    use tokio_postgres::error::SqlState;
    let transient = [
        SqlState::QUERY_CANCELED,
        SqlState::ADMIN_SHUTDOWN,
        SqlState::CRASH_SHUTDOWN,
        SqlState::CANNOT_CONNECT_NOW,
        SqlState::TOO_MANY_CONNECTIONS,
    ];
    if sql_state(e).is_some_and(|c| transient.contains(c)) {
        return true;
    }
    let mut cur = Some(e);
    while let Some(c) = cur {
        if matches!(c.downcast_ref::<deadpool_postgres::PoolError>(), Some(deadpool_postgres::PoolError::Timeout(_))) {
            return true;
        }
        if c.downcast_ref::<tokio_postgres::Error>().is_some_and(|p| p.is_closed()) {
            return true;
        }
        if c.downcast_ref::<std::io::Error>().is_some() {
            return true;
        }
        cur = c.source();
    }
    false
}

/// `url` without its password (in the user part or a `password=`
/// parameter), for logs.
pub fn redact(url: &str) -> String {
    let url = match url.split_once('?') {
        Some((base, query)) => {
            let params: Vec<String> = query
                .split('&')
                .map(|p| match p.split_once('=') {
                    Some(("password", _)) => "password=***".to_string(),
                    _ => p.to_string(),
                })
                .collect();
            format!("{base}?{}", params.join("&"))
        }
        None => url.to_string(),
    };
    let Some((scheme, rest)) = url.split_once("://") else { return url };
    let (authority, tail) = rest.split_at(rest.find(['/', '?']).unwrap_or(rest.len()));
    match authority.rsplit_once('@') {
        Some((user, host)) => match user.split_once(':') {
            Some((user, _)) => format!("{scheme}://{user}:***@{host}{tail}"),
            None => url.to_string(),
        },
        None => url.clone(),
    }
}

/// The owner key of a job or usage row: the address, or "" when unknown.
pub(super) fn owner_key(owner: Option<IpAddr>) -> String {
    owner.map(|o| o.to_string()).unwrap_or_default()
}

/// A bot decision claimed from the queue.
#[derive(Clone, Debug)]
pub struct Job {
    pub game: String,
    /// The game's version the decision is for.
    pub version: u64,
    pub owner: Option<IpAddr>,
    /// Claims so far, this one included: above one, a worker died on it
    /// or gave up.
    pub attempts: i32,
    /// The claim this one took over, if one ran out before.
    pub taken_over: Option<TakenOver>,
}

/// A claim that ran out without an answer.
#[derive(Clone, Debug)]
pub struct TakenOver {
    /// The worker (loop) that held it.
    pub by: String,
    /// How long it was held, from its claim to now.
    pub held: Duration,
}

/// What the listening connection hears.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// (Again) listening: notices may have been missed before.
    Listening,
    Game {
        id: String,
        rev: u64,
    },
    Bots,
    /// A chat message of game `id`, the last one there if several came.
    Chat {
        id: String,
        line: u64,
    },
}

impl Postgres {
    /// Connects (`max` connections at most) and runs the migrations not
    /// run yet, with the default timeouts.
    pub async fn connect(url: &str, max: usize) -> Result<Postgres, StoreError> {
        Postgres::connect_with(url, max, DbTimeouts::default()).await
    }

    /// Connects and migrates; waits for a database that cannot be reached
    /// yet, retrying with backoff (logged) for up to `timeouts.start_wait`.
    pub async fn connect_with(url: &str, max: usize, timeouts: DbTimeouts) -> Result<Postgres, StoreError> {
        let mut config: tokio_postgres::Config =
            url.parse().map_err(|e| StoreError::Postgres(format!("bad URL: {e}")))?;
        let ms = timeouts.statement.as_millis().max(1);
        config.options(format!("-c statement_timeout={ms}"));
        config.connect_timeout(timeouts.pool_wait.max(Duration::from_millis(100)));
        let manager =
            Manager::from_config(config.clone(), NoTls, ManagerConfig { recycling_method: RecyclingMethod::Fast });
        let pool = Pool::builder(manager)
            .max_size(max.max(2))
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .wait_timeout(Some(timeouts.pool_wait))
            .create_timeout(Some(timeouts.pool_wait))
            .recycle_timeout(Some(timeouts.pool_wait))
            .build()
            .map_err(|e| StoreError::Postgres(e.to_string()))?;
        let store = Postgres { pool, config: config.into(), timeouts, health: Default::default() };
        let started = Instant::now();
        let mut wait = Duration::from_millis(250);
        loop {
            // Not watched for outages: a database not up yet at start is
            // no outage (the log says it waits).
            match store.deadline(store.migrate()).await {
                Err(StoreError::Unavailable(e)) if started.elapsed() + wait < timeouts.start_wait => {
                    tracing::warn!(error = %e, retry_in = ?wait, waited_secs = started.elapsed().as_secs_f64(),
                        limit_secs = timeouts.start_wait.as_secs_f64(), "waiting for the database");
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(Duration::from_secs(5));
                }
                Err(StoreError::Unavailable(e)) => {
                    return Err(StoreError::Unavailable(format!(
                        "{e} (waited {:.0} s, --db-start-wait)",
                        started.elapsed().as_secs_f64()
                    )))
                }
                other => return other.map(|()| store),
            }
        }
    }

    /// `op`, given up on after the timeouts (a frozen database answers
    /// nothing), and watched for outages.
    pub(crate) async fn watch<T>(
        &self,
        op: impl std::future::Future<Output = Result<T, StoreError>>,
    ) -> Result<T, StoreError> {
        let result = self.deadline(op).await;
        self.health.observe(&result);
        result
    }

    /// `op`, given up on after the statement timeout and the pool's wait.
    async fn deadline<T>(&self, op: impl std::future::Future<Output = Result<T, StoreError>>) -> Result<T, StoreError> {
        let limit = self.timeouts.statement + self.timeouts.pool_wait;
        match tokio::time::timeout(limit, op).await {
            Ok(r) => r,
            Err(_) => Err(StoreError::Unavailable(format!("no answer within {} s", limit.as_secs_f64()))),
        }
    }

    pub(super) async fn client(&self) -> Result<deadpool_postgres::Object, StoreError> {
        self.pool.get().await.map_err(pg)
    }

    /// One round trip.
    pub async fn ping(&self) -> Result<(), StoreError> {
        self.client().await?.simple_query("SELECT 1").await.map_err(pg)?;
        Ok(())
    }

    async fn migrate(&self) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(pg)?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK]).await.map_err(pg)?;
        tx.batch_execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)").await.map_err(pg)?;
        let current: Option<i32> =
            tx.query_one("SELECT MAX(version) FROM schema_version", &[]).await.map_err(pg)?.get(0);
        let current = i64::from(current.unwrap_or(0));
        let known = MIGRATIONS.len() as i64;
        if current > known {
            return Err(StoreError::TooNew { found: current, known });
        }
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(current as usize) {
            tx.batch_execute(sql).await.map_err(pg)?;
            tx.execute("DELETE FROM schema_version", &[]).await.map_err(pg)?;
            tx.execute("INSERT INTO schema_version (version) VALUES ($1)", &[&(i as i32 + 1)]).await.map_err(pg)?;
            tracing::info!(version = i + 1, "database migrated");
        }
        tx.commit().await.map_err(pg)
    }

    pub async fn insert(&self, row: &GameRow) -> Result<(), StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "WITH g AS (
                    INSERT INTO games (id, created, updated, seed, seats, record, version, rev, pending,
                                       status, summary, public, owner, rated, clock, clock_due)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $19, $20, $21)
                    RETURNING id),
                 j AS (
                    INSERT INTO bot_jobs (game, version, owner) SELECT id, $7, $14 FROM g WHERE $15),
                 a AS (
                    INSERT INTO seat_accounts (game, seat, account)
                    SELECT g.id, u.seat, u.account FROM g, unnest($17::INTEGER[], $18::BIGINT[]) AS u(seat, account))
                 SELECT 1 FROM g LEFT JOIN LATERAL (SELECT pg_notify($16, g.id) WHERE $15) AS b ON true",
            )
            .await
            .map_err(pg)?;
        client
            .query(
                &stmt,
                &[
                    &row.id,
                    &row.created,
                    &row.updated,
                    &(row.seed as i64),
                    &row.seats,
                    &row.record,
                    &(row.version as i64),
                    &(row.rev as i64),
                    &row.pending,
                    &status(row.finished),
                    &row.summary,
                    &row.public,
                    &row.owner,
                    &row.owner.clone().unwrap_or_default(),
                    &row.bot_due,
                    &BOTS_CHANNEL,
                    &row.accounts.iter().map(|(seat, _)| *seat as i32).collect::<Vec<i32>>(),
                    &row.accounts.iter().map(|(_, account)| *account).collect::<Vec<i64>>(),
                    &row.rated,
                    &row.clock,
                    &row.clock_due,
                ],
            )
            .await
            .map_err(pg)?;
        Ok(())
    }

    /// The write, its bot job (queued or removed) and its notices, in one
    /// statement: all of them or none.
    pub async fn save(&self, u: &Update) -> Result<u64, StoreError> {
        let mut client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "WITH g AS (
                    UPDATE games SET record = $1, version = $2, status = $3, summary = $4, updated = $5,
                                     pending = $6, clock = $12, clock_due = $13, rev = rev + 1
                    WHERE id = $7 AND rev = $8
                    RETURNING id, rev, owner),
                 d AS (DELETE FROM bot_jobs WHERE NOT $9 AND game IN (SELECT id FROM g)),
                 j AS (
                    INSERT INTO bot_jobs (game, version, owner) SELECT id, $2, COALESCE(owner, '') FROM g WHERE $9
                    ON CONFLICT (game) DO UPDATE SET version = excluded.version, owner = excluded.owner,
                        queued = now(), taken_by = NULL, taken_until = NULL, attempts = 0)
                 SELECT g.rev FROM g
                 CROSS JOIN LATERAL (SELECT pg_notify($10, g.id || ' ' || g.rev)) AS n
                 LEFT JOIN LATERAL (SELECT pg_notify($11, g.id) WHERE $9) AS b ON true",
            )
            .await
            .map_err(pg)?;
        let (version, rev, status) = (u.version as i64, u.rev as i64, status(u.finished));
        let params: [&(dyn tokio_postgres::types::ToSql + Sync); 13] = [
            &u.record,
            &version,
            &status,
            &u.summary,
            &u.updated,
            &u.pending,
            &u.id,
            &rev,
            &u.bot_due,
            &GAMES_CHANNEL,
            &BOTS_CHANNEL,
            &u.clock,
            &u.clock_due,
        ];
        let saved = |rows: Vec<Row>| match rows.first() {
            Some(r) => Ok(r.get::<_, i64>(0) as u64),
            None => Err(StoreError::Conflict(u.id.clone())),
        };
        let Some(outcome) = &u.outcome else {
            return saved(client.query(&stmt, &params).await.map_err(pg)?);
        };
        // A game's last action and its results: both or neither (a lost
        // race rolls back as the transaction is dropped).
        let tx = client.transaction().await.map_err(pg)?;
        let rev = saved(tx.query(&stmt, &params).await.map_err(pg)?)?;
        super::ratings::settle_pg(&tx, &u.id, outcome).await?;
        tx.commit().await.map_err(pg)?;
        Ok(rev)
    }

    pub async fn save_pending(&self, id: &str, rev: u64, pending: Option<&str>) -> Result<u64, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "WITH g AS (UPDATE games SET pending = $1, rev = rev + 1 WHERE id = $2 AND rev = $3 RETURNING id, rev)
                 SELECT g.rev FROM g CROSS JOIN LATERAL (SELECT pg_notify($4, g.id || ' ' || g.rev)) AS n",
            )
            .await
            .map_err(pg)?;
        let rows = client.query(&stmt, &[&pending, &id, &(rev as i64), &GAMES_CHANNEL]).await.map_err(pg)?;
        match rows.first() {
            Some(r) => Ok(r.get::<_, i64>(0) as u64),
            None => Err(StoreError::Conflict(id.to_string())),
        }
    }

    pub async fn load(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        Ok(self.load_newer(id, None).await?.flatten())
    }

    /// Stores a game's review (replacing none: the first one stays).
    pub async fn save_review(&self, id: &str, created: i64, review: &str) -> Result<(), StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "INSERT INTO reviews (game, created, review) VALUES ($1, $2, $3) ON CONFLICT (game) DO NOTHING",
            )
            .await
            .map_err(pg)?;
        client.execute(&stmt, &[&id, &created, &review]).await.map_err(pg)?;
        Ok(())
    }

    pub async fn load_review(&self, id: &str) -> Result<Option<String>, StoreError> {
        let client = self.client().await?;
        let stmt = client.prepare_cached("SELECT review FROM reviews WHERE game = $1").await.map_err(pg)?;
        let row = client.query_opt(&stmt, &[&id]).await.map_err(pg)?;
        Ok(row.map(|r| r.get::<_, String>(0)))
    }

    /// The row if its revision is not `known` (`Some(None)`: it is), in one
    /// round trip: the large columns are only sent when changed.
    pub async fn load_newer(&self, id: &str, known: Option<u64>) -> Result<Option<Option<GameRow>>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "SELECT id, created, updated, seed, CASE WHEN changed THEN seats END, CASE WHEN changed THEN record END,
                        version, status, summary, public, owner, rev, pending, rated, clock, clock_due
                 FROM (SELECT *, rev IS DISTINCT FROM $2 AS changed FROM games WHERE id = $1) AS g",
            )
            .await
            .map_err(pg)?;
        let known = known.map(|k| k as i64);
        let Some(r) = client.query_opt(&stmt, &[&id, &known]).await.map_err(pg)? else { return Ok(None) };
        if Some(r.get::<_, i64>(11)) == known {
            return Ok(Some(None));
        }
        Ok(Some(Some(game_row(&r))))
    }

    pub async fn active_ids(&self) -> Result<Vec<String>, StoreError> {
        let client = self.client().await?;
        let rows = client.query("SELECT id FROM games WHERE status = 'active'", &[]).await.map_err(pg)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    pub async fn list(&self, filter: Filter, limit: u32, offset: u32) -> Result<Vec<Listed>, StoreError> {
        let client = self.client().await?;
        let status = match filter {
            Filter::All => None,
            Filter::Active => Some("active"),
            Filter::Finished => Some("finished"),
        };
        let stmt = client
            .prepare_cached(
                "SELECT id, status, created, updated, version, summary FROM games
                 WHERE public AND ($1::TEXT IS NULL OR status = $1)
                 ORDER BY updated DESC, id LIMIT $2 OFFSET $3",
            )
            .await
            .map_err(pg)?;
        let rows = client.query(&stmt, &[&status, &i64::from(limit), &i64::from(offset)]).await.map_err(pg)?;
        let mut out = Vec::with_capacity(rows.len());
        for r in rows {
            let game: String = r.get(0);
            let summary: Summary = serde_json::from_str(r.get(5))
                .map_err(|e| StoreError::Damaged { id: game.clone(), reason: e.to_string() })?;
            let status = if r.get::<_, &str>(1) == "finished" { "finished" } else { "active" };
            out.push(Listed {
                game,
                status,
                created: r.get(2),
                updated: r.get(3),
                version: r.get::<_, i64>(4) as u64,
                summary,
            });
        }
        Ok(out)
    }

    /// Listens on `channels` on a connection of its own, reconnecting when
    /// it is lost (then [`Notice::Listening`] again: notices may have been
    /// missed meanwhile). Stops when the receiver is dropped.
    pub fn listen(&self, channels: &'static [&'static str]) -> mpsc::UnboundedReceiver<Notice> {
        let (tx, rx) = mpsc::unbounded_channel();
        let config = self.config.clone();
        tokio::spawn(async move {
            // Retried every half second at most: the watchers here see
            // other servers' writes again within a second of the database's
            // return.
            let mut wait = Duration::from_millis(100);
            let mut lost: Option<Instant> = None;
            loop {
                tokio::select! {
                    () = tx.closed() => return,
                    heard = listen_once(&config, channels, &tx, &mut lost) => match heard {
                        Ok(()) => wait = Duration::from_millis(100),
                        Err(e) => crate::logging::warn_throttled(
                            "listen",
                            "database notifications: cannot listen, retrying",
                            "-",
                            Some(&e.to_string()),
                        ),
                    },
                }
                if tx.is_closed() {
                    return;
                }
                if lost.is_none() {
                    tracing::warn!("database notifications: connection lost, reconnecting");
                    lost = Some(Instant::now());
                }
                tokio::time::sleep(wait).await;
                wait = (wait * 2).min(LISTEN_RETRY);
            }
        });
        rx
    }
}

/// The longest wait between two tries to listen again.
const LISTEN_RETRY: Duration = Duration::from_millis(500);

/// One listening connection, until it ends.
async fn listen_once(
    config: &tokio_postgres::Config,
    channels: &[&str],
    tx: &mpsc::UnboundedSender<Notice>,
    lost: &mut Option<Instant>,
) -> Result<(), StoreError> {
    let (client, mut connection) = config.connect(NoTls).await.map_err(pg)?;
    let (heard, mut notices) = mpsc::unbounded_channel();
    let driver = tokio::spawn(async move {
        let mut messages = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
        while let Some(message) = messages.next().await {
            match message {
                Ok(AsyncMessage::Notification(n)) => {
                    if heard.send(n).is_err() {
                        return;
                    }
                }
                Ok(_) => {}
                Err(e) => {
                    let e = pg(e);
                    crate::logging::warn_throttled(
                        "listen",
                        "database notifications: connection error",
                        "-",
                        Some(&e.to_string()),
                    );
                    return;
                }
            }
        }
    });
    for channel in channels {
        client.batch_execute(&format!("LISTEN {channel}")).await.map_err(pg)?;
    }
    if let Some(since) = lost.take() {
        tracing::info!(outage_secs = since.elapsed().as_secs_f64(), "database notifications: listening again");
    }
    if tx.send(Notice::Listening).is_err() {
        return Ok(());
    }
    while let Some(n) = notices.recv().await {
        let numbered = || n.payload().split_once(' ').and_then(|(id, k)| Some((id.to_string(), k.parse().ok()?)));
        let notice = match n.channel() {
            GAMES_CHANNEL => {
                let Some((id, rev)) = numbered() else { continue };
                Notice::Game { id, rev }
            }
            super::chat::CHAT_CHANNEL => {
                let Some((id, line)) = numbered() else { continue };
                Notice::Chat { id, line }
            }
            _ => Notice::Bots,
        };
        if tx.send(notice).is_err() {
            break;
        }
    }
    driver.abort();
    drop(client);
    Ok(())
}

fn game_row(r: &Row) -> GameRow {
    GameRow {
        id: r.get(0),
        created: r.get(1),
        updated: r.get(2),
        seed: r.get::<_, i64>(3) as u64,
        seats: r.get(4),
        record: r.get(5),
        version: r.get::<_, i64>(6) as u64,
        finished: r.get::<_, &str>(7) == "finished",
        summary: r.get(8),
        public: r.get(9),
        owner: r.get(10),
        rev: r.get::<_, i64>(11) as u64,
        pending: r.get(12),
        bot_due: false,
        accounts: Vec::new(),
        rated: r.get(13),
        clock: r.get(14),
        clock_due: r.get(15),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_stay_out_of_logs() {
        assert_eq!(redact("postgres://u:secret@db:5432/games"), "postgres://u:***@db:5432/games");
        assert_eq!(redact("postgresql://u:p@ss@h/x?sslmode=disable"), "postgresql://u:***@h/x?sslmode=disable");
        assert_eq!(redact("postgres://db/games"), "postgres://db/games");
        assert_eq!(redact("postgres://u@db/games"), "postgres://u@db/games");
        assert_eq!(
            redact("postgres://u@db/games?sslmode=disable&password=pw"),
            "postgres://u@db/games?sslmode=disable&password=***"
        );
    }
}
