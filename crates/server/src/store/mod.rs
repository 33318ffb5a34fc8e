//! Storage: every game is one row, rewritten by each accepted action before
//! it is acknowledged. Two databases hold them:
//!
//! - **SQLite** ([`sqlite`]), the default: one file, one server, which
//!   keeps its games in memory (the lock file keeps a second server off).
//! - **PostgreSQL** ([`postgres`]): one database shared by several servers
//!   and bot workers. Every write is checked against the row's revision, so
//!   that of two racing writes, from any servers, exactly one wins; every
//!   write is announced with NOTIFY so that every server pushes it to its
//!   WebSockets; the bots' turns wait in a queue table (see [`postgres`]).
//!
//! A row holds the seats (with tokens), the secret seed, the record
//! (without the seed), the version (actions played), the acting seat's
//! provisional decisions, and the revision, which counts every write of
//! the row, provisional decisions included.

pub mod accounts;
pub mod chat;
pub mod lobby;
pub mod postgres;
mod queue;
pub mod ratings;
pub mod review_queue;
pub mod sqlite;

use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use carcassonne_engine::RuleOptions;
use serde::{Deserialize, Serialize};
use thiserror::Error;

pub use sqlite::DbLock;

#[derive(Debug, Error)]
pub enum StoreError {
    // No `#[source]`: the message already holds SQLite's reason, and a
    // chain would print it again.
    #[error("database: {0}")]
    Sql(rusqlite::Error),
    #[error("database: {0}")]
    Postgres(String),
    /// The database cannot be reached or does not answer in time (a
    /// write may have been stored all the same).
    #[error("database unavailable: {0}")]
    Unavailable(String),
    #[error("the database has schema version {found}, newer than this server's {known}")]
    TooNew { found: i64, known: i64 },
    #[error("game {0} changed under us (stored revision differs)")]
    Conflict(String),
    #[error("stored game {id} is damaged: {reason}")]
    Damaged { id: String, reason: String },
    #[error("the database writer has stopped")]
    WriterGone,
    #[error("another server is using it (its lock file is held)")]
    Locked,
    #[error("cannot lock it: {0}")]
    Lock(std::io::Error),
    /// An account's name (its folded key) that another account has.
    #[error("the name '{0}' is taken")]
    NameTaken(String),
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Sql(e)
    }
}

impl StoreError {
    /// Why the database at `path` cannot be used, without repeating the path.
    pub fn reason_for(&self, path: &Path) -> String {
        let text = match self {
            StoreError::Sql(e) => e.to_string(),
            other => other.to_string(),
        };
        text.strip_suffix(&format!(": {}", path.display())).map(str::to_string).unwrap_or(text)
    }
}

/// Where the games are kept, as `--db` names it: a PostgreSQL URL
/// (`postgres://` or `postgresql://`), or else a SQLite file.
#[derive(Clone, PartialEq, Eq)]
pub enum Database {
    Sqlite(PathBuf),
    Postgres(String),
}

impl Database {
    pub fn parse(s: &str) -> Database {
        if s.starts_with("postgres://") || s.starts_with("postgresql://") {
            Database::Postgres(s.to_string())
        } else {
            Database::Sqlite(PathBuf::from(s))
        }
    }

    /// For logs and messages: the file, or the URL without its password.
    pub fn describe(&self) -> String {
        match self {
            Database::Sqlite(p) => p.display().to_string(),
            Database::Postgres(url) => postgres::redact(url),
        }
    }
}

// The URL's password stays out of debug output too.
impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Database::Sqlite(p) => write!(f, "Sqlite({p:?})"),
            Database::Postgres(_) => write!(f, "Postgres({:?})", self.describe()),
        }
    }
}

impl std::str::FromStr for Database {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Database, Self::Err> {
        Ok(Database::parse(s))
    }
}

/// A game row.
#[derive(Clone, Debug)]
pub struct GameRow {
    pub id: String,
    pub created: i64,
    pub updated: i64,
    pub seed: u64,
    pub seats: String,
    pub record: String,
    pub version: u64,
    pub finished: bool,
    pub summary: String,
    /// Listed in `GET /api/games`.
    pub public: bool,
    /// The creator's address key, if known.
    pub owner: Option<String>,
    /// Writes of this row so far.
    pub rev: u64,
    /// The acting seat's provisional decisions ([`Provisional`] as JSON).
    pub pending: Option<String>,
    /// A bot is to act: its decision is queued with the row (PostgreSQL;
    /// written, never read back).
    pub bot_due: bool,
    /// Seats bound to accounts at creation (seat, account), stored with
    /// the row in its transaction (written, never read back: the
    /// bindings live in `seat_accounts`).
    pub accounts: Vec<(usize, i64)>,
    /// Created as rated ([`crate::ratings`]).
    pub rated: bool,
    /// The clocks' state as JSON ([`crate::game::clock`]), and when the
    /// running one runs out (milliseconds since 1970).
    pub clock: Option<String>,
    pub clock_due: Option<i64>,
}

/// The acting seat's provisional decisions, as stored.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Provisional {
    pub seat: usize,
    /// In the record's notation.
    pub actions: Vec<String>,
}

/// A game's row after an action, written if the row is still at revision `rev`.
#[derive(Clone, Debug)]
pub struct Update {
    pub id: String,
    pub rev: u64,
    pub version: u64,
    pub record: String,
    pub finished: bool,
    pub summary: String,
    pub updated: i64,
    /// The provisional decisions left (none, but for a wagon moved out of
    /// turn in the middle of them).
    pub pending: Option<String>,
    /// A bot is to act next.
    pub bot_due: bool,
    /// The game has just ended: its results and ratings, stored in the
    /// same transaction as its last action ([`ratings::settle_in`]).
    pub outcome: Option<crate::ratings::Outcome>,
    /// The clocks after the action, and when the running one runs out.
    pub clock: Option<String>,
    pub clock_due: Option<i64>,
}

/// What the game list shows of a game (the `summary` column).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Summary {
    pub players: Vec<String>,
    pub seats: Vec<String>,
    pub expansions: Vec<carcassonne_engine::Expansion>,
    pub edition: String,
    /// Rule variants; absent for the standard rules (and in rows written
    /// before variants existed).
    #[serde(default, skip_serializing_if = "RuleOptions::is_empty")]
    pub rules: RuleOptions,
    pub turns: u32,
    pub scores: Vec<u32>,
    /// Created as rated; absent otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// The seat to act, while the game goes on (for "your turn" lists).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_act: Option<usize>,
    /// When the seat to act runs out of time, if the game has a clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<i64>,
}

/// One entry of the game list.
#[derive(Clone, Debug, Serialize)]
pub struct Listed {
    pub game: String,
    pub status: &'static str,
    pub created: i64,
    pub updated: i64,
    pub version: u64,
    #[serde(flatten)]
    pub summary: Summary,
}

/// Which games to list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    All,
    Active,
    Finished,
}

fn status(finished: bool) -> &'static str {
    if finished {
        "finished"
    } else {
        "active"
    }
}

/// The database the games are in.
#[derive(Clone)]
pub enum Store {
    Sqlite(sqlite::Sqlite),
    Postgres(postgres::Postgres),
}

/// How long the database may take (PostgreSQL): a frozen or overloaded
/// database is answered `503 unavailable` within about their sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DbTimeouts {
    /// The longest a statement may run (PostgreSQL's `statement_timeout`;
    /// the server also stops waiting for an answer after it).
    pub statement: Duration,
    /// The longest a request waits for a free connection, or for a new one.
    pub pool_wait: Duration,
    /// How long a server or worker waits for the database at start.
    pub start_wait: Duration,
}

impl Default for DbTimeouts {
    fn default() -> DbTimeouts {
        DbTimeouts {
            statement: Duration::from_secs(3),
            pool_wait: Duration::from_secs(2),
            start_wait: Duration::from_secs(60),
        }
    }
}

impl Store {
    /// The games still played whose running clock ran out by `now`
    /// (milliseconds since 1970), the earliest first.
    pub async fn due_clocks(&self, now: i64, limit: u32) -> Result<Vec<String>, StoreError> {
        const DUE: &str = "SELECT id FROM games WHERE clock_due IS NOT NULL AND clock_due <= $1 AND status = 'active'
             ORDER BY clock_due LIMIT $2";
        match self {
            Store::Sqlite(s) => {
                let s = s.clone();
                blocking(move || {
                    s.read(|c| {
                        let mut stmt = c.prepare_cached(&DUE.replace('$', "?"))?;
                        let ids = stmt.query_map(rusqlite::params![now, i64::from(limit)], |r| r.get(0))?;
                        Ok(ids.collect::<Result<Vec<String>, _>>()?)
                    })
                })
                .await
            }
            Store::Postgres(p) => {
                p.watch(async {
                    let rows = p.client().await?.query(DUE, &[&now, &i64::from(limit)]).await.map_err(postgres::pg)?;
                    Ok(rows.iter().map(|r| r.get(0)).collect())
                })
                .await
            }
        }
    }

    /// Whether other processes write the same games (PostgreSQL): a game in
    /// memory is then checked against its row before each use.
    pub fn shared(&self) -> bool {
        matches!(self, Store::Postgres(_))
    }

    /// Stores a new game; returns once committed.
    pub async fn insert(&self, row: GameRow) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => s.insert(row).await,
            Store::Postgres(p) => p.watch(p.insert(&row)).await,
        }
    }

    /// Stores a game's new record and version if the row is still at the
    /// update's revision, and returns the new revision once committed.
    pub async fn save(&self, update: Update) -> Result<u64, StoreError> {
        match self {
            Store::Sqlite(s) => s.save(update).await,
            Store::Postgres(p) => p.watch(p.save(&update)).await,
        }
    }

    /// Stores the acting seat's provisional decisions if the row is still
    /// at revision `rev`; returns the new revision.
    pub async fn save_pending(&self, id: &str, rev: u64, pending: Option<String>) -> Result<u64, StoreError> {
        match self {
            Store::Sqlite(s) => s.save_pending(id.to_string(), rev, pending).await,
            Store::Postgres(p) => p.watch(p.save_pending(id, rev, pending.as_deref())).await,
        }
    }

    /// Stores the review of game `id` (docs/analysis.md); a review already
    /// stored stays.
    pub async fn save_review(&self, id: &str, created: i64, review: String) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => s.save_review(id.to_string(), created, review).await,
            Store::Postgres(p) => p.watch(p.save_review(id, created, &review)).await,
        }
    }

    /// The stored review of game `id`, as JSON text.
    pub async fn load_review(&self, id: &str) -> Result<Option<String>, StoreError> {
        match self {
            Store::Sqlite(s) => {
                let (s, id) = (s.clone(), id.to_string());
                blocking(move || s.load_review(&id)).await
            }
            Store::Postgres(p) => p.watch(p.load_review(id)).await,
        }
    }

    pub async fn load(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        match self {
            Store::Sqlite(s) => {
                let (s, id) = (s.clone(), id.to_string());
                blocking(move || s.load(&id)).await
            }
            Store::Postgres(p) => p.watch(p.load(id)).await,
        }
    }

    /// The row if its revision is not `known` (`Some(None)`: it is still
    /// at `known`; `None`: no such game).
    pub async fn load_newer(&self, id: &str, known: u64) -> Result<Option<Option<GameRow>>, StoreError> {
        match self {
            Store::Sqlite(s) => {
                let (s, id) = (s.clone(), id.to_string());
                blocking(move || match s.rev(&id)? {
                    None => Ok(None),
                    Some(rev) if rev == known => Ok(Some(None)),
                    Some(_) => Ok(s.load(&id)?.map(Some)),
                })
                .await
            }
            Store::Postgres(p) => p.watch(p.load_newer(id, Some(known))).await,
        }
    }

    /// Ids of the games still being played.
    pub async fn active_ids(&self) -> Result<Vec<String>, StoreError> {
        match self {
            Store::Sqlite(s) => {
                let s = s.clone();
                blocking(move || s.active_ids()).await
            }
            Store::Postgres(p) => p.watch(p.active_ids()).await,
        }
    }

    /// Public games, last active first.
    pub async fn list(&self, filter: Filter, limit: u32, offset: u32) -> Result<Vec<Listed>, StoreError> {
        match self {
            Store::Sqlite(s) => {
                let s = s.clone();
                blocking(move || s.list(filter, limit, offset)).await
            }
            Store::Postgres(p) => p.watch(p.list(filter, limit, offset)).await,
        }
    }

    /// Bot seconds `owner` has used lately, as the workers charged them
    /// (PostgreSQL only; a server with SQLite counts them in memory).
    pub async fn bot_usage(&self, owner: Option<IpAddr>, per_hour: f64) -> Result<f64, StoreError> {
        match self {
            Store::Sqlite(_) => Ok(0.0),
            Store::Postgres(p) => p.watch(p.bot_usage(owner, per_hour)).await,
        }
    }

    /// Bot decisions waiting in the queue, in all and of `owner`'s games.
    pub async fn bot_queue(&self, owner: Option<IpAddr>) -> Result<(usize, usize), StoreError> {
        match self {
            Store::Sqlite(_) => Ok((0, 0)),
            Store::Postgres(p) => p.watch(p.queued(owner)).await,
        }
    }

    /// Whether the database answers (for `/readyz`).
    pub async fn ping(&self) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => {
                let s = s.clone();
                blocking(move || s.rev("").map(|_| ())).await
            }
            Store::Postgres(p) => p.watch(p.ping()).await,
        }
    }
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
) -> Result<T, StoreError> {
    tokio::task::spawn_blocking(f).await.map_err(|_| StoreError::WriterGone)?
}

/// How long a worker's claim on a bot decision lasts before another worker
/// may take it (a worker killed in the middle of a search loses nothing).
pub const DEFAULT_JOB_TIMEOUT: Duration = Duration::from_secs(30);
