//! The accounts' tables, on both databases (see [`crate::accounts`]):
//!
//! - `accounts`: the name as shown, its folded key (unique: one name
//!   whatever its case or look-alike forms), the password's Argon2id hash.
//! - `sessions`: the SHA-256 of each session's token (never the token),
//!   its account, when it began, was last pushed back and ends.
//! - `seat_accounts`: the seats bound to an account, (game, seat) → account.
//!   The games' own rows are not touched: a deleted account's games keep
//!   their seats, names and tokens.
//! - `sign_in_failures`: failed sign-ins by name key, for the limit per
//!   name that every server sharing the database counts alike.
//!
//! An account's writes that belong together (a new password and the end
//! of its sessions; an account and everything of it deleted) are one
//! transaction.

use rusqlite::{params, OptionalExtension};
use serde::Serialize;

use super::postgres::{pg, Postgres};
use super::sqlite::Op;
use super::{blocking, status, Store, StoreError, Summary};
use crate::accounts::{Account, Session};

/// Migration 5 of SQLite.
pub(super) const SQLITE_MIGRATION: &str = "CREATE TABLE accounts (
        id       INTEGER PRIMARY KEY AUTOINCREMENT,
        name     TEXT NOT NULL,
        key      TEXT NOT NULL UNIQUE,
        password TEXT NOT NULL,
        created  INTEGER NOT NULL
    );
    CREATE TABLE sessions (
        token     TEXT PRIMARY KEY NOT NULL,
        account   INTEGER NOT NULL REFERENCES accounts (id),
        created   INTEGER NOT NULL,
        refreshed INTEGER NOT NULL,
        expires   INTEGER NOT NULL
    );
    CREATE INDEX sessions_by_account ON sessions (account);
    CREATE INDEX sessions_by_expiry ON sessions (expires);
    CREATE TABLE seat_accounts (
        game    TEXT NOT NULL REFERENCES games (id),
        seat    INTEGER NOT NULL,
        account INTEGER NOT NULL REFERENCES accounts (id),
        PRIMARY KEY (game, seat)
    );
    CREATE INDEX seat_accounts_by_account ON seat_accounts (account);
    CREATE TABLE sign_in_failures (
        key TEXT NOT NULL,
        at  INTEGER NOT NULL
    );
    CREATE INDEX sign_in_failures_by_key ON sign_in_failures (key, at);
    CREATE INDEX sign_in_failures_by_time ON sign_in_failures (at);";

/// Migration 5 of PostgreSQL.
pub(super) const POSTGRES_MIGRATION: &str = "CREATE TABLE accounts (
        id       BIGSERIAL PRIMARY KEY,
        name     TEXT NOT NULL,
        key      TEXT NOT NULL UNIQUE,
        password TEXT NOT NULL,
        created  BIGINT NOT NULL
    );
    CREATE TABLE sessions (
        token     TEXT PRIMARY KEY,
        account   BIGINT NOT NULL REFERENCES accounts (id),
        created   BIGINT NOT NULL,
        refreshed BIGINT NOT NULL,
        expires   BIGINT NOT NULL
    );
    CREATE INDEX sessions_by_account ON sessions (account);
    CREATE INDEX sessions_by_expiry ON sessions (expires);
    CREATE TABLE seat_accounts (
        game    TEXT NOT NULL REFERENCES games (id),
        seat    INTEGER NOT NULL,
        account BIGINT NOT NULL REFERENCES accounts (id),
        PRIMARY KEY (game, seat)
    );
    CREATE INDEX seat_accounts_by_account ON seat_accounts (account);
    CREATE TABLE sign_in_failures (
        key TEXT NOT NULL,
        at  BIGINT NOT NULL
    );
    CREATE INDEX sign_in_failures_by_key ON sign_in_failures (key, at);
    CREATE INDEX sign_in_failures_by_time ON sign_in_failures (at);";

/// A new account, its password hashed.
#[derive(Clone)]
pub struct NewAccount {
    pub name: String,
    pub key: String,
    /// The Argon2id hash (PHC string).
    pub password: String,
    pub created: i64,
}

// The hash stays out of debug output, as the password would.
impl std::fmt::Debug for NewAccount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewAccount").field("name", &self.name).field("created", &self.created).finish()
    }
}

/// A session to store: its token's digest and its times.
#[derive(Clone, Debug)]
pub struct NewSession {
    pub digest: String,
    pub created: i64,
    pub expires: i64,
}

/// A game of an account's (`GET /api/me`): as the game list shows it, with
/// the account's seats.
#[derive(Clone, Debug, Serialize)]
pub struct MyGame {
    pub game: String,
    pub status: &'static str,
    pub created: i64,
    pub updated: i64,
    pub version: u64,
    /// The seats of the game bound to the account.
    pub mine: Vec<usize>,
    #[serde(flatten)]
    pub summary: Summary,
}

/// Whether a SQLite error is a uniqueness violation.
fn sqlite_unique(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, _) if f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE)
}

fn seats_of_text(text: &str) -> Vec<usize> {
    let mut seats: Vec<usize> = text.split(',').filter_map(|s| s.trim().parse().ok()).collect();
    seats.sort_unstable();
    seats
}

fn my_game(
    game: String,
    st: &str,
    created: i64,
    updated: i64,
    version: i64,
    summary: &str,
    seats: &str,
) -> Result<MyGame, StoreError> {
    let summary: Summary =
        serde_json::from_str(summary).map_err(|e| StoreError::Damaged { id: game.clone(), reason: e.to_string() })?;
    Ok(MyGame {
        status: status(st == "finished"),
        game,
        created,
        updated,
        version: version as u64,
        mine: seats_of_text(seats),
        summary,
    })
}

impl Store {
    /// Stores a new account; its id, or [`StoreError::NameTaken`].
    pub async fn create_account(&self, account: NewAccount) -> Result<i64, StoreError> {
        match self {
            Store::Sqlite(s) => {
                let op: Op = Box::new(move |c| {
                    match c.execute(
                        "INSERT INTO accounts (name, key, password, created) VALUES (?1, ?2, ?3, ?4)",
                        params![account.name, account.key, account.password, account.created],
                    ) {
                        Ok(_) => Ok(c.last_insert_rowid() as u64),
                        Err(e) if sqlite_unique(&e) => Err(StoreError::NameTaken(account.name.clone())),
                        Err(e) => Err(e.into()),
                    }
                });
                s.run(op).await.map(|id| id as i64)
            }
            Store::Postgres(p) => p.watch(p.create_account(&account)).await,
        }
    }

    /// The account of a name key, with its password's hash.
    pub async fn account_by_key(&self, key: &str) -> Result<Option<(Account, String)>, StoreError> {
        match self {
            Store::Sqlite(s) => {
                let (s, key) = (s.clone(), key.to_string());
                blocking(move || {
                    s.read(|c| {
                        Ok(c.prepare_cached("SELECT id, name, created, password FROM accounts WHERE key = ?1")?
                            .query_row(params![key], |r| {
                                Ok((Account { id: r.get(0)?, name: r.get(1)?, created: r.get(2)? }, r.get(3)?))
                            })
                            .optional()?)
                    })
                })
                .await
            }
            Store::Postgres(p) => p.watch(p.account_by_key(key)).await,
        }
    }

    /// The password hash of account `id`.
    pub async fn password_of(&self, id: i64) -> Result<Option<String>, StoreError> {
        match self {
            Store::Sqlite(s) => {
                let s = s.clone();
                blocking(move || {
                    s.read(|c| {
                        Ok(c.prepare_cached("SELECT password FROM accounts WHERE id = ?1")?
                            .query_row(params![id], |r| r.get(0))
                            .optional()?)
                    })
                })
                .await
            }
            Store::Postgres(p) => p.watch(p.password_of(id)).await,
        }
    }

    /// Stores a session of `account`, and forgets the sessions that ended.
    pub async fn create_session(&self, account: i64, session: NewSession) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => {
                let op: Op = Box::new(move |c| {
                    insert_session(c, account, &session)?;
                    Ok(0)
                });
                s.run(op).await.map(|_| ())
            }
            Store::Postgres(p) => p.watch(p.create_session(account, &session)).await,
        }
    }

    /// The session of a token's digest, if it has not ended at `now`.
    pub async fn session(&self, digest: &str, now: i64) -> Result<Option<Session>, StoreError> {
        match self {
            Store::Sqlite(s) => {
                let (s, digest) = (s.clone(), digest.to_string());
                blocking(move || {
                    s.read(|c| {
                        Ok(c.prepare_cached(
                            "SELECT a.id, a.name, a.created, s.created, s.refreshed, s.expires
                             FROM sessions s JOIN accounts a ON a.id = s.account
                             WHERE s.token = ?1 AND s.expires > ?2",
                        )?
                        .query_row(params![digest, now], |r| {
                            Ok(Session {
                                account: Account { id: r.get(0)?, name: r.get(1)?, created: r.get(2)? },
                                digest: digest.clone(),
                                created: r.get(3)?,
                                refreshed: r.get(4)?,
                                expires: r.get(5)?,
                            })
                        })
                        .optional()?)
                    })
                })
                .await
            }
            Store::Postgres(p) => p.watch(p.session(digest, now)).await,
        }
    }

    /// Pushes a session's end back.
    pub async fn refresh_session(&self, digest: &str, refreshed: i64, expires: i64) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => {
                let digest = digest.to_string();
                let op: Op = Box::new(move |c| {
                    c.execute(
                        "UPDATE sessions SET refreshed = ?1, expires = ?2 WHERE token = ?3",
                        params![refreshed, expires, digest],
                    )?;
                    Ok(0)
                });
                s.run(op).await.map(|_| ())
            }
            Store::Postgres(p) => p.watch(p.refresh_session(digest, refreshed, expires)).await,
        }
    }

    /// Ends one session.
    pub async fn end_session(&self, digest: &str) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => {
                let digest = digest.to_string();
                let op: Op =
                    Box::new(move |c| Ok(c.execute("DELETE FROM sessions WHERE token = ?1", params![digest])? as u64));
                s.run(op).await.map(|_| ())
            }
            Store::Postgres(p) => p.watch(p.end_sessions(None, Some(digest))).await.map(|_| ()),
        }
    }

    /// Ends every session of `account`; how many there were.
    pub async fn end_sessions(&self, account: i64) -> Result<u64, StoreError> {
        match self {
            Store::Sqlite(s) => {
                let op: Op = Box::new(move |c| {
                    Ok(c.execute("DELETE FROM sessions WHERE account = ?1", params![account])? as u64)
                });
                s.run(op).await
            }
            Store::Postgres(p) => p.watch(p.end_sessions(Some(account), None)).await,
        }
    }

    /// A new password for `account`: every session of it ends, and
    /// `session` (the one that asked, anew) begins; one transaction.
    pub async fn set_password(&self, account: i64, hash: String, session: NewSession) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => {
                let op: Op = Box::new(move |c| {
                    c.execute("UPDATE accounts SET password = ?1 WHERE id = ?2", params![hash, account])?;
                    c.execute("DELETE FROM sessions WHERE account = ?1", params![account])?;
                    insert_session(c, account, &session)?;
                    Ok(0)
                });
                s.run(op).await.map(|_| ())
            }
            Store::Postgres(p) => p.watch(p.set_password(account, &hash, &session)).await,
        }
    }

    /// Deletes `account`, its sessions, its seats' bindings, its rating and
    /// its results (the games stay, their seats as they are; the other
    /// seats' results and ratings too); one transaction.
    pub async fn delete_account(&self, account: i64) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => {
                let op: Op = Box::new(move |c| {
                    c.execute("DELETE FROM sessions WHERE account = ?1", params![account])?;
                    c.execute("DELETE FROM seat_accounts WHERE account = ?1", params![account])?;
                    c.execute("DELETE FROM results WHERE account = ?1", params![account])?;
                    c.execute("DELETE FROM ratings WHERE entity = ?1", params![format!("account:{account}")])?;
                    c.execute("DELETE FROM accounts WHERE id = ?1", params![account])?;
                    Ok(0)
                });
                s.run(op).await.map(|_| ())
            }
            Store::Postgres(p) => p.watch(p.delete_account(account)).await,
        }
    }

    /// Binds seat `seat` of `game` to `account`, unless it is bound
    /// already; returns the account it is bound to.
    pub async fn bind_seat(&self, game: &str, seat: usize, account: i64) -> Result<Option<i64>, StoreError> {
        match self {
            Store::Sqlite(s) => {
                let game = game.to_string();
                let op: Op = Box::new(move |c| {
                    c.execute(
                        "INSERT INTO seat_accounts (game, seat, account) VALUES (?1, ?2, ?3)
                         ON CONFLICT (game, seat) DO NOTHING",
                        params![game, seat as i64, account],
                    )?;
                    let bound: i64 = c.query_row(
                        "SELECT account FROM seat_accounts WHERE game = ?1 AND seat = ?2",
                        params![game, seat as i64],
                        |r| r.get(0),
                    )?;
                    Ok(bound as u64)
                });
                s.run(op).await.map(|a| Some(a as i64))
            }
            Store::Postgres(p) => p.watch(p.bind_seat(game, seat, account)).await,
        }
    }

    /// The seats of `game` bound to `account`, in order.
    pub async fn seats_of(&self, game: &str, account: i64) -> Result<Vec<usize>, StoreError> {
        match self {
            Store::Sqlite(s) => {
                let (s, game) = (s.clone(), game.to_string());
                blocking(move || {
                    s.read(|c| {
                        let mut stmt = c.prepare_cached(
                            "SELECT seat FROM seat_accounts WHERE game = ?1 AND account = ?2 ORDER BY seat",
                        )?;
                        let seats = stmt
                            .query_map(params![game, account], |r| r.get::<_, i64>(0))?
                            .collect::<Result<Vec<_>, _>>()?;
                        Ok(seats.into_iter().map(|s| s as usize).collect())
                    })
                })
                .await
            }
            Store::Postgres(p) => p.watch(p.seats_of(game, account)).await,
        }
    }

    /// The games with a seat bound to `account`, last active first.
    pub async fn games_of(&self, account: i64, limit: u32, offset: u32) -> Result<Vec<MyGame>, StoreError> {
        match self {
            Store::Sqlite(s) => {
                let s = s.clone();
                blocking(move || {
                    s.read(|c| {
                        let mut stmt = c.prepare_cached(
                            "SELECT g.id, g.status, g.created, g.updated, g.version, g.summary, m.seats
                             FROM (SELECT game, group_concat(seat) AS seats FROM seat_accounts
                                   WHERE account = ?1 GROUP BY game) AS m
                             JOIN games g ON g.id = m.game
                             ORDER BY g.updated DESC, g.id LIMIT ?2 OFFSET ?3",
                        )?;
                        let rows = stmt.query_map(params![account, limit, offset], |r| {
                            Ok((
                                r.get::<_, String>(0)?,
                                r.get::<_, String>(1)?,
                                r.get::<_, i64>(2)?,
                                r.get::<_, i64>(3)?,
                                r.get::<_, i64>(4)?,
                                r.get::<_, String>(5)?,
                                r.get::<_, String>(6)?,
                            ))
                        })?;
                        let mut out = Vec::new();
                        for row in rows {
                            let (game, st, created, updated, version, summary, seats) = row?;
                            out.push(my_game(game, &st, created, updated, version, &summary, &seats)?);
                        }
                        Ok(out)
                    })
                })
                .await
            }
            Store::Postgres(p) => p.watch(p.games_of(account, limit, offset)).await,
        }
    }

    /// Failed sign-ins of a name key since `since`: how many, and when
    /// the oldest of them was.
    pub async fn failures(&self, key: &str, since: i64) -> Result<(u64, Option<i64>), StoreError> {
        match self {
            Store::Sqlite(s) => {
                let (s, key) = (s.clone(), key.to_string());
                blocking(move || {
                    s.read(|c| {
                        Ok(c.prepare_cached(
                            "SELECT count(*), min(at) FROM sign_in_failures WHERE key = ?1 AND at >= ?2",
                        )?
                        .query_row(params![key, since], |r| Ok((r.get::<_, i64>(0)? as u64, r.get(1)?)))?)
                    })
                })
                .await
            }
            Store::Postgres(p) => p.watch(p.failures(key, since)).await,
        }
    }

    /// Counts a failed sign-in of a name key at `at`, and forgets the
    /// failures older than `forget_before`.
    pub async fn add_failure(&self, key: &str, at: i64, forget_before: i64) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => {
                let key = key.to_string();
                let op: Op = Box::new(move |c| {
                    c.execute("DELETE FROM sign_in_failures WHERE at < ?1", params![forget_before])?;
                    c.execute("INSERT INTO sign_in_failures (key, at) VALUES (?1, ?2)", params![key, at])?;
                    Ok(0)
                });
                s.run(op).await.map(|_| ())
            }
            Store::Postgres(p) => p.watch(p.add_failure(key, at, forget_before)).await,
        }
    }

    /// Forgets the failed sign-ins of a name key (after a good one).
    pub async fn clear_failures(&self, key: &str) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => {
                let key = key.to_string();
                let op: Op = Box::new(move |c| {
                    Ok(c.execute("DELETE FROM sign_in_failures WHERE key = ?1", params![key])? as u64)
                });
                s.run(op).await.map(|_| ())
            }
            Store::Postgres(p) => p.watch(p.clear_failures(key)).await,
        }
    }
}

fn insert_session(c: &rusqlite::Connection, account: i64, s: &NewSession) -> Result<(), StoreError> {
    c.execute("DELETE FROM sessions WHERE expires <= ?1", params![s.created])?;
    c.execute(
        "INSERT INTO sessions (token, account, created, refreshed, expires) VALUES (?1, ?2, ?3, ?3, ?4)",
        params![s.digest, account, s.created, s.expires],
    )?;
    Ok(())
}

impl Postgres {
    async fn create_account(&self, a: &NewAccount) -> Result<i64, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                "INSERT INTO accounts (name, key, password, created) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (key) DO NOTHING RETURNING id",
                &[&a.name, &a.key, &a.password, &a.created],
            )
            .await
            .map_err(pg)?;
        row.map(|r| r.get(0)).ok_or_else(|| StoreError::NameTaken(a.name.clone()))
    }

    async fn account_by_key(&self, key: &str) -> Result<Option<(Account, String)>, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_opt("SELECT id, name, created, password FROM accounts WHERE key = $1", &[&key])
            .await
            .map_err(pg)?;
        Ok(row.map(|r| (Account { id: r.get(0), name: r.get(1), created: r.get(2) }, r.get(3))))
    }

    async fn password_of(&self, id: i64) -> Result<Option<String>, StoreError> {
        let client = self.client().await?;
        let row = client.query_opt("SELECT password FROM accounts WHERE id = $1", &[&id]).await.map_err(pg)?;
        Ok(row.map(|r| r.get(0)))
    }

    async fn create_session(&self, account: i64, s: &NewSession) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(pg)?;
        pg_insert_session(&tx, account, s).await?;
        tx.commit().await.map_err(pg)
    }

    async fn session(&self, digest: &str, now: i64) -> Result<Option<Session>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "SELECT a.id, a.name, a.created, s.created, s.refreshed, s.expires
                 FROM sessions s JOIN accounts a ON a.id = s.account
                 WHERE s.token = $1 AND s.expires > $2",
            )
            .await
            .map_err(pg)?;
        let row = client.query_opt(&stmt, &[&digest, &now]).await.map_err(pg)?;
        Ok(row.map(|r| Session {
            account: Account { id: r.get(0), name: r.get(1), created: r.get(2) },
            digest: digest.to_string(),
            created: r.get(3),
            refreshed: r.get(4),
            expires: r.get(5),
        }))
    }

    async fn refresh_session(&self, digest: &str, refreshed: i64, expires: i64) -> Result<(), StoreError> {
        let client = self.client().await?;
        client
            .execute(
                "UPDATE sessions SET refreshed = $1, expires = $2 WHERE token = $3",
                &[&refreshed, &expires, &digest],
            )
            .await
            .map_err(pg)?;
        Ok(())
    }

    async fn end_sessions(&self, account: Option<i64>, digest: Option<&str>) -> Result<u64, StoreError> {
        let client = self.client().await?;
        let n = client
            .execute(
                "DELETE FROM sessions WHERE ($1::BIGINT IS NOT NULL AND account = $1) OR ($2::TEXT IS NOT NULL AND token = $2)",
                &[&account, &digest],
            )
            .await
            .map_err(pg)?;
        Ok(n)
    }

    async fn set_password(&self, account: i64, hash: &str, s: &NewSession) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(pg)?;
        tx.execute("UPDATE accounts SET password = $1 WHERE id = $2", &[&hash, &account]).await.map_err(pg)?;
        tx.execute("DELETE FROM sessions WHERE account = $1", &[&account]).await.map_err(pg)?;
        pg_insert_session(&tx, account, s).await?;
        tx.commit().await.map_err(pg)
    }

    async fn delete_account(&self, account: i64) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(pg)?;
        tx.execute("DELETE FROM sessions WHERE account = $1", &[&account]).await.map_err(pg)?;
        tx.execute("DELETE FROM seat_accounts WHERE account = $1", &[&account]).await.map_err(pg)?;
        tx.execute("DELETE FROM results WHERE account = $1", &[&account]).await.map_err(pg)?;
        tx.execute("DELETE FROM ratings WHERE entity = $1", &[&format!("account:{account}")]).await.map_err(pg)?;
        tx.execute("DELETE FROM accounts WHERE id = $1", &[&account]).await.map_err(pg)?;
        tx.commit().await.map_err(pg)
    }

    async fn bind_seat(&self, game: &str, seat: usize, account: i64) -> Result<Option<i64>, StoreError> {
        let client = self.client().await?;
        let seat = seat as i32;
        // The row inserted, or the one that was there (a CTE's insert is
        // not seen by the rest of its statement: hence the union).
        let row = client
            .query_opt(
                "WITH ins AS (
                    INSERT INTO seat_accounts (game, seat, account) VALUES ($1, $2, $3)
                    ON CONFLICT (game, seat) DO NOTHING RETURNING account)
                 SELECT account FROM ins
                 UNION ALL SELECT account FROM seat_accounts WHERE game = $1 AND seat = $2
                 LIMIT 1",
                &[&game, &seat, &account],
            )
            .await
            .map_err(pg)?;
        Ok(row.map(|r| r.get(0)))
    }

    async fn seats_of(&self, game: &str, account: i64) -> Result<Vec<usize>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query("SELECT seat FROM seat_accounts WHERE game = $1 AND account = $2 ORDER BY seat", &[&game, &account])
            .await
            .map_err(pg)?;
        Ok(rows.iter().map(|r| r.get::<_, i32>(0) as usize).collect())
    }

    async fn games_of(&self, account: i64, limit: u32, offset: u32) -> Result<Vec<MyGame>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(
                "SELECT g.id, g.status, g.created, g.updated, g.version, g.summary, m.seats
                 FROM (SELECT game, string_agg(seat::TEXT, ',') AS seats FROM seat_accounts
                       WHERE account = $1 GROUP BY game) AS m
                 JOIN games g ON g.id = m.game
                 ORDER BY g.updated DESC, g.id LIMIT $2 OFFSET $3",
                &[&account, &i64::from(limit), &i64::from(offset)],
            )
            .await
            .map_err(pg)?;
        rows.iter().map(|r| my_game(r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), r.get(5), r.get(6))).collect()
    }

    async fn failures(&self, key: &str, since: i64) -> Result<(u64, Option<i64>), StoreError> {
        let client = self.client().await?;
        let r = client
            .query_one("SELECT count(*), min(at) FROM sign_in_failures WHERE key = $1 AND at >= $2", &[&key, &since])
            .await
            .map_err(pg)?;
        Ok((r.get::<_, i64>(0) as u64, r.get(1)))
    }

    async fn add_failure(&self, key: &str, at: i64, forget_before: i64) -> Result<(), StoreError> {
        let client = self.client().await?;
        client.execute("DELETE FROM sign_in_failures WHERE at < $1", &[&forget_before]).await.map_err(pg)?;
        client.execute("INSERT INTO sign_in_failures (key, at) VALUES ($1, $2)", &[&key, &at]).await.map_err(pg)?;
        Ok(())
    }

    async fn clear_failures(&self, key: &str) -> Result<(), StoreError> {
        let client = self.client().await?;
        client.execute("DELETE FROM sign_in_failures WHERE key = $1", &[&key]).await.map_err(pg)?;
        Ok(())
    }
}

async fn pg_insert_session(
    tx: &deadpool_postgres::Transaction<'_>,
    account: i64,
    s: &NewSession,
) -> Result<(), StoreError> {
    tx.execute("DELETE FROM sessions WHERE expires <= $1", &[&s.created]).await.map_err(pg)?;
    tx.execute(
        "INSERT INTO sessions (token, account, created, refreshed, expires) VALUES ($1, $2, $3, $3, $4)",
        &[&s.digest, &account, &s.created, &s.expires],
    )
    .await
    .map_err(pg)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_lists_read_back() {
        assert_eq!(seats_of_text("2,0"), vec![0, 2]);
        assert_eq!(seats_of_text("1"), vec![1]);
    }
}
