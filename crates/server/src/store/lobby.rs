//! The lobby's tables, on both databases (see [`crate::game::lobby`]):
//!
//! - `tables`: a game waiting for its players: its creator, its setup (the
//!   game's options as JSON, which quick match compares as text), how many
//!   human seats it has, whether it is a quick match's (with the rating
//!   its creator asked with and when a bot takes the free seat), its
//!   status (`open`, `starting`, `started`, `closed`) and its game once
//!   started.
//! - `table_seats`: who sits at it, (table, seat) → account; an account
//!   sits once at a table.
//!
//! A table moves from `open` to `starting` by one conditional write, so of
//! two servers that fill it (or give its free seat to a bot) at once,
//! exactly one starts its game.

use std::sync::{Arc, Mutex};

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use super::postgres::pg;
use super::sqlite::Op;
use super::{blocking, Store, StoreError};
use crate::ratings::Rating;
use crate::store::ratings::Shown;

/// Migration 8 of SQLite.
pub(super) const SQLITE_MIGRATION: &str = "CREATE TABLE tables (
        id        TEXT PRIMARY KEY NOT NULL,
        created   INTEGER NOT NULL,
        updated   INTEGER NOT NULL,
        creator   INTEGER NOT NULL REFERENCES accounts (id),
        setup     TEXT NOT NULL,
        humans    INTEGER NOT NULL,
        quick     INTEGER NOT NULL,
        rating    REAL,
        bot_after INTEGER,
        status    TEXT NOT NULL CHECK (status IN ('open', 'starting', 'started', 'closed')),
        game      TEXT
    );
    CREATE INDEX tables_by_status ON tables (status, quick, created);
    CREATE TABLE table_seats (
        tbl     TEXT NOT NULL REFERENCES tables (id),
        seat    INTEGER NOT NULL,
        account INTEGER NOT NULL REFERENCES accounts (id),
        joined  INTEGER NOT NULL,
        PRIMARY KEY (tbl, seat),
        UNIQUE (tbl, account)
    );
    CREATE INDEX table_seats_by_account ON table_seats (account);";

/// Migration 8 of PostgreSQL.
pub(super) const POSTGRES_MIGRATION: &str = "CREATE TABLE tables (
        id        TEXT PRIMARY KEY,
        created   BIGINT NOT NULL,
        updated   BIGINT NOT NULL,
        creator   BIGINT NOT NULL REFERENCES accounts (id),
        setup     TEXT NOT NULL,
        humans    BIGINT NOT NULL,
        quick     BOOLEAN NOT NULL,
        rating    DOUBLE PRECISION,
        bot_after BIGINT,
        status    TEXT NOT NULL CHECK (status IN ('open', 'starting', 'started', 'closed')),
        game      TEXT
    );
    CREATE INDEX tables_by_status ON tables (status, quick, created);
    CREATE TABLE table_seats (
        tbl     TEXT NOT NULL REFERENCES tables (id),
        seat    BIGINT NOT NULL,
        account BIGINT NOT NULL REFERENCES accounts (id),
        joined  BIGINT NOT NULL,
        PRIMARY KEY (tbl, seat),
        UNIQUE (tbl, account)
    );
    CREATE INDEX table_seats_by_account ON table_seats (account);";

/// A table to open, its creator at seat 0.
#[derive(Clone, Debug)]
pub struct NewTable {
    pub id: String,
    pub created: i64,
    pub creator: i64,
    pub setup: String,
    pub humans: usize,
    pub quick: bool,
    pub rating: Option<f64>,
    pub bot_after: Option<i64>,
}

/// A player at a table.
#[derive(Clone, Debug, Serialize)]
pub struct Sitter {
    pub seat: usize,
    #[serde(skip)]
    pub account: i64,
    pub name: String,
    /// The player's rating, if it has one.
    pub rating: Option<Shown>,
}

/// A table as the lobby shows it.
#[derive(Clone, Debug, Serialize)]
pub struct Table {
    pub table: String,
    pub created: i64,
    pub updated: i64,
    #[serde(skip)]
    pub creator: i64,
    /// The game's options (`crate::game::lobby::TableSetup`).
    pub setup: serde_json::Value,
    pub humans: usize,
    pub quick: bool,
    #[serde(skip)]
    pub rating: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bot_after: Option<i64>,
    pub status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    pub players: Vec<Sitter>,
}

/// What a join did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Joined {
    /// Seated; `starts`: this join filled the table, which is now
    /// `starting` and whose game the joiner is to create.
    Seated {
        seat: usize,
        starts: bool,
    },
    /// The account sat there already.
    Already {
        seat: usize,
    },
    /// The table is not open (its status, or `full`).
    NotOpen(String),
    NoTable,
}

/// What a leave did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Left {
    /// The creator left: the table is closed.
    Closed,
    /// Another player left; the seat is free again.
    Freed,
    /// Not at the table, or it is no longer open.
    Nothing,
}

/// The SQL of both databases, written with PostgreSQL's `$N` and casts
/// (which give a parameter its type): SQLite reads the same numbered
/// parameters as `?N`, and needs no casts.
fn lite(sql: &str) -> String {
    sql.replace('$', "?").replace("::BIGINT", "").replace("::TEXT", "")
}

const TABLE_COLUMNS: &str =
    "SELECT id, created, updated, creator, setup, humans, quick, rating, bot_after, status, game FROM tables";

const SITTERS: &str = "SELECT s.tbl, s.seat, s.account, a.name, r.rating, r.deviation, r.volatility, r.games, r.updated
     FROM table_seats s JOIN accounts a ON a.id = s.account
     LEFT JOIN ratings r ON r.entity = 'account:' || s.account AND r.games > 0
     WHERE s.tbl = ANY($1) ORDER BY s.tbl, s.seat";

type TableTuple = (String, i64, i64, i64, String, i64, bool, Option<f64>, Option<i64>, String, Option<String>);
type SitterTuple = (String, i64, i64, String, Option<(f64, f64, f64, i64, i64)>);

fn table_of(t: TableTuple, sitters: &[SitterTuple], now: i64) -> Table {
    let (id, created, updated, creator, setup, humans, quick, rating, bot_after, status, game) = t;
    let players = sitters
        .iter()
        .filter(|s| s.0 == id)
        .map(|(_, seat, account, name, r)| Sitter {
            seat: *seat as usize,
            account: *account,
            name: name.clone(),
            rating: r.map(|(rating, deviation, volatility, games, updated)| {
                Shown::of(
                    &Rating { rating, deviation, volatility, games: u32::try_from(games).unwrap_or(0), updated },
                    now,
                )
            }),
        })
        .collect();
    Table {
        table: id,
        created,
        updated,
        creator,
        setup: serde_json::from_str(&setup).unwrap_or(serde_json::Value::Null),
        humans: humans as usize,
        quick,
        rating,
        bot_after,
        status,
        game,
        players,
    }
}

fn lite_table(r: &rusqlite::Row<'_>) -> rusqlite::Result<TableTuple> {
    Ok((
        r.get(0)?,
        r.get(1)?,
        r.get(2)?,
        r.get(3)?,
        r.get(4)?,
        r.get(5)?,
        r.get(6)?,
        r.get(7)?,
        r.get(8)?,
        r.get(9)?,
        r.get(10)?,
    ))
}

fn pg_table(r: &tokio_postgres::Row) -> TableTuple {
    (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), r.get(5), r.get(6), r.get(7), r.get(8), r.get(9), r.get(10))
}

/// SQLite's sitters of `ids` (its `ANY` is a list of placeholders).
fn lite_sitters(c: &Connection, ids: &[String]) -> Result<Vec<SitterTuple>, StoreError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let list = (1..=ids.len()).map(|i| format!("?{i}")).collect::<Vec<_>>().join(", ");
    let sql = lite(SITTERS).replace("= ANY(?1)", &format!("IN ({list})"));
    let mut stmt = c.prepare_cached(&sql)?;
    let rows = stmt
        .query_map(rusqlite::params_from_iter(ids.iter()), |r| {
            let rating = match r.get::<_, Option<f64>>(4)? {
                Some(rating) => Some((rating, r.get(5)?, r.get(6)?, r.get(7)?, r.get(8)?)),
                None => None,
            };
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, rating))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

async fn pg_sitters(c: &deadpool_postgres::Client, ids: &[String]) -> Result<Vec<SitterTuple>, StoreError> {
    let rows = c.query(SITTERS, &[&ids]).await.map_err(pg)?;
    Ok(rows
        .iter()
        .map(|r| {
            let rating = r
                .get::<_, Option<f64>>(4)
                .map(|rating| (rating, r.get(5), r.get(6), i64::from(r.get::<_, i32>(7)), r.get(8)));
            (r.get(0), r.get(1), r.get(2), r.get(3), rating)
        })
        .collect())
}

/// Runs `f` as one of the SQLite writer's writes and hands back its answer.
async fn lite_write<T: Send + 'static>(
    s: &super::sqlite::Sqlite,
    f: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
) -> Result<T, StoreError> {
    let out: Arc<Mutex<Option<T>>> = Arc::default();
    let slot = out.clone();
    let op: Op = Box::new(move |c| {
        let v = f(c)?;
        *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(v);
        Ok(0)
    });
    s.run(op).await?;
    let v = out.lock().unwrap_or_else(|e| e.into_inner()).take();
    v.ok_or(StoreError::WriterGone)
}

/// Which seat a join takes: the lowest free one, or why none.
fn seat_for(status: &str, humans: usize, seats: &[(usize, i64)], account: i64) -> Result<Joined, usize> {
    if let Some(&(seat, _)) = seats.iter().find(|(_, a)| *a == account) {
        return Ok(Joined::Already { seat });
    }
    if status != "open" {
        return Ok(Joined::NotOpen(status.to_string()));
    }
    if seats.len() >= humans {
        return Ok(Joined::NotOpen("full".into()));
    }
    Err((0..humans).find(|s| !seats.iter().any(|(t, _)| t == s)).unwrap_or(humans))
}

const JOIN_STATUS: &str = "SELECT status, humans FROM tables WHERE id = $1";
const JOIN_SEATS: &str = "SELECT seat, account FROM table_seats WHERE tbl = $1";
const JOIN_INSERT: &str = "INSERT INTO table_seats (tbl, seat, account, joined) VALUES ($1, $2, $3, $4)";
const STARTING: &str = "UPDATE tables SET status = 'starting', updated = $2 WHERE id = $1";

impl Store {
    /// Opens a table, its creator seated at seat 0.
    pub async fn open_table(&self, t: NewTable) -> Result<(), StoreError> {
        const INSERT: &str = "INSERT INTO tables (id, created, updated, creator, setup, humans, quick, rating,
                                                   bot_after, status)
             VALUES ($1, $2, $2, $3, $4, $5, $6, $7, $8, 'open')";
        const SEAT: &str = "INSERT INTO table_seats (tbl, seat, account, joined) VALUES ($1, 0, $2, $3)";
        match self {
            Store::Sqlite(s) => {
                lite_write(s, move |c| {
                    c.execute(
                        &lite(INSERT),
                        params![t.id, t.created, t.creator, t.setup, t.humans as i64, t.quick, t.rating, t.bot_after],
                    )?;
                    c.execute(&lite(SEAT), params![t.id, t.creator, t.created])?;
                    Ok(())
                })
                .await
            }
            Store::Postgres(p) => {
                p.watch(async {
                    let mut client = p.client().await?;
                    let tx = client.transaction().await.map_err(pg)?;
                    tx.execute(
                        INSERT,
                        &[
                            &t.id,
                            &t.created,
                            &t.creator,
                            &t.setup,
                            &(t.humans as i64),
                            &t.quick,
                            &t.rating,
                            &t.bot_after,
                        ],
                    )
                    .await
                    .map_err(pg)?;
                    tx.execute(SEAT, &[&t.id, &t.creator, &t.created]).await.map_err(pg)?;
                    tx.commit().await.map_err(pg)
                })
                .await
            }
        }
    }

    /// Seats `account` at table `id`, if open and not full.
    pub async fn join_table(&self, id: &str, account: i64, now: i64) -> Result<Joined, StoreError> {
        let id = id.to_string();
        match self {
            Store::Sqlite(s) => {
                lite_write(s, move |c| {
                    let Some((status, humans)) = c
                        .query_row(&lite(JOIN_STATUS), params![id], |r| {
                            Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?))
                        })
                        .optional()?
                    else {
                        return Ok(Joined::NoTable);
                    };
                    let seats: Vec<(usize, i64)> = c
                        .prepare_cached(&lite(JOIN_SEATS))?
                        .query_map(params![id], |r| Ok((r.get::<_, i64>(0)? as usize, r.get(1)?)))?
                        .collect::<Result<_, _>>()?;
                    let seat = match seat_for(&status, humans as usize, &seats, account) {
                        Ok(done) => return Ok(done),
                        Err(seat) => seat,
                    };
                    c.execute(&lite(JOIN_INSERT), params![id, seat as i64, account, now])?;
                    let starts = seats.len() + 1 == humans as usize;
                    if starts {
                        c.execute(&lite(STARTING), params![id, now])?;
                    }
                    Ok(Joined::Seated { seat, starts })
                })
                .await
            }
            Store::Postgres(p) => {
                p.watch(async {
                    let mut client = p.client().await?;
                    let tx = client.transaction().await.map_err(pg)?;
                    // The table's row locked: joins of one table queue up.
                    let Some(row) = tx.query_opt(&format!("{JOIN_STATUS} FOR UPDATE"), &[&id]).await.map_err(pg)?
                    else {
                        return Ok(Joined::NoTable);
                    };
                    let (status, humans): (String, i64) = (row.get(0), row.get(1));
                    let seats: Vec<(usize, i64)> = tx
                        .query(JOIN_SEATS, &[&id])
                        .await
                        .map_err(pg)?
                        .iter()
                        .map(|r| (r.get::<_, i64>(0) as usize, r.get(1)))
                        .collect();
                    let seat = match seat_for(&status, humans as usize, &seats, account) {
                        Ok(done) => return Ok(done),
                        Err(seat) => seat,
                    };
                    tx.execute(JOIN_INSERT, &[&id, &(seat as i64), &account, &now]).await.map_err(pg)?;
                    let starts = seats.len() + 1 == humans as usize;
                    if starts {
                        tx.execute(STARTING, &[&id, &now]).await.map_err(pg)?;
                    }
                    tx.commit().await.map_err(pg)?;
                    Ok(Joined::Seated { seat, starts })
                })
                .await
            }
        }
    }

    /// Takes table `id` from `open` to `starting` if it is open and its
    /// free seats may go to bots by now (a quick match's `bot_after`), or
    /// if it has been `starting` since before `stale` (its starter died);
    /// whether this call took it.
    pub async fn claim_start(&self, id: &str, now: i64, stale: i64) -> Result<bool, StoreError> {
        const CLAIM: &str = "UPDATE tables SET status = 'starting', updated = $2
             WHERE id = $1 AND ((status = 'open' AND bot_after IS NOT NULL AND bot_after <= $2)
                                OR (status = 'starting' AND updated < $3))";
        let id = id.to_string();
        let n = match self {
            Store::Sqlite(s) => {
                lite_write(s, move |c| Ok(c.execute(&lite(CLAIM), params![id, now, stale])? as u64)).await?
            }
            Store::Postgres(p) => {
                p.watch(async { p.client().await?.execute(CLAIM, &[&id, &now, &stale]).await.map_err(pg) }).await?
            }
        };
        Ok(n == 1)
    }

    /// A starting table's game has been created (`Some`), or could not be
    /// (`None`: the table closes).
    pub async fn table_started(&self, id: &str, game: Option<&str>, now: i64) -> Result<(), StoreError> {
        const DONE: &str = "UPDATE tables SET status = CASE WHEN $2::TEXT IS NULL THEN 'closed' ELSE 'started' END,
                game = $2, updated = $3 WHERE id = $1 AND status = 'starting'";
        let (id, game) = (id.to_string(), game.map(str::to_string));
        match self {
            Store::Sqlite(s) => {
                lite_write(s, move |c| Ok(c.execute(&lite(DONE), params![id, game, now])?)).await.map(|_| ())
            }
            Store::Postgres(p) => p
                .watch(async { p.client().await?.execute(DONE, &[&id, &game, &now]).await.map_err(pg) })
                .await
                .map(|_| ()),
        }
    }

    /// `account` leaves table `id` (still open): its creator closes it.
    pub async fn leave_table(&self, id: &str, account: i64, now: i64) -> Result<Left, StoreError> {
        const CLOSE: &str =
            "UPDATE tables SET status = 'closed', updated = $3 WHERE id = $1 AND creator = $2 AND status = 'open'";
        const FREE: &str = "DELETE FROM table_seats WHERE tbl = $1 AND account = $2
             AND EXISTS (SELECT 1 FROM tables WHERE id = $1 AND status = 'open' AND creator <> $2)";
        let id = id.to_string();
        let (closed, freed) = match self {
            Store::Sqlite(s) => {
                lite_write(s, move |c| {
                    let closed = c.execute(&lite(CLOSE), params![id, account, now])?;
                    let freed = c.execute(&lite(FREE), params![id, account])?;
                    Ok((closed, freed as u64))
                })
                .await?
            }
            Store::Postgres(p) => {
                p.watch(async {
                    let client = p.client().await?;
                    let closed = client.execute(CLOSE, &[&id, &account, &now]).await.map_err(pg)?;
                    let freed = client.execute(FREE, &[&id, &account]).await.map_err(pg)?;
                    Ok((closed as usize, freed))
                })
                .await?
            }
        };
        Ok(if closed == 1 {
            Left::Closed
        } else if freed == 1 {
            Left::Freed
        } else {
            Left::Nothing
        })
    }

    /// Tables by a condition of [`TABLE_COLUMNS`] (`$1`, `$2`: `a`, `b`),
    /// with who sits at them, at `now`.
    async fn tables_where(&self, cond: &'static str, a: String, b: i64, now: i64) -> Result<Vec<Table>, StoreError> {
        let sql = format!("{TABLE_COLUMNS} WHERE {cond}");
        match self {
            Store::Sqlite(s) => {
                let s = s.clone();
                blocking(move || {
                    s.read(|c| {
                        let rows: Vec<TableTuple> = c
                            .prepare_cached(&lite(&sql))?
                            .query_map(params![a, b], lite_table)?
                            .collect::<Result<_, _>>()?;
                        let ids: Vec<String> = rows.iter().map(|t| t.0.clone()).collect();
                        let sitters = lite_sitters(c, &ids)?;
                        Ok(rows.into_iter().map(|t| table_of(t, &sitters, now)).collect())
                    })
                })
                .await
            }
            Store::Postgres(p) => {
                p.watch(async {
                    let client = p.client().await?;
                    let rows: Vec<TableTuple> =
                        client.query(&sql, &[&a, &b]).await.map_err(pg)?.iter().map(pg_table).collect();
                    let ids: Vec<String> = rows.iter().map(|t| t.0.clone()).collect();
                    let sitters = pg_sitters(&client, &ids).await?;
                    Ok(rows.into_iter().map(|t| table_of(t, &sitters, now)).collect())
                })
                .await
            }
        }
    }

    /// Table `id`.
    pub async fn table(&self, id: &str, now: i64) -> Result<Option<Table>, StoreError> {
        Ok(self.tables_where("id = $1 AND $2::BIGINT = 0", id.to_string(), 0, now).await?.pop())
    }

    /// The open tables the lobby lists (not quick matches'), newest first.
    pub async fn open_tables(&self, limit: u32, now: i64) -> Result<Vec<Table>, StoreError> {
        const OPEN: &str = "status = 'open' AND NOT quick AND $1 = '' ORDER BY created DESC, id LIMIT $2";
        self.tables_where(OPEN, String::new(), i64::from(limit), now).await
    }

    /// The open quick-match tables with setup `setup`, oldest first.
    pub async fn quick_tables(&self, setup: &str, now: i64) -> Result<Vec<Table>, StoreError> {
        const QUICK: &str =
            "status = 'open' AND quick AND setup = $1 AND $2::BIGINT = 0 ORDER BY created, id LIMIT 200";
        self.tables_where(QUICK, setup.to_string(), 0, now).await
    }

    /// The quick-match table `account` waits at, or else its latest.
    pub async fn my_quick(&self, account: i64, now: i64) -> Result<Option<Table>, StoreError> {
        // The one it waits at, if any (a player waits at one at most);
        // else the latest started, else the latest closed (several may
        // share a second).
        const MINE: &str = "quick AND $1 = '' AND id IN (SELECT tbl FROM table_seats WHERE account = $2)
             ORDER BY status NOT IN ('open', 'starting'), status = 'closed', created DESC, id LIMIT 1";
        Ok(self.tables_where(MINE, String::new(), account, now).await?.pop())
    }
}
