//! The ratings' tables, on both databases (see [`crate::ratings`]):
//!
//! - `games.rated`: the game was created as rated.
//! - `ratings`: each entity's Glicko-2 rating (`account:ID` or
//!   `level:NAME`), its games and when the last one ended.
//! - `results`: a row per seat of an account or a ladder level of every
//!   finished game: score, place, margin, points by feature kind, figures
//!   put on the board, and the rating after the game if it was rated; the
//!   players' pages (history, statistics) read it.
//!
//! A finished game's rows are written by [`settle_sqlite`] or
//! [`settle_pg`], inside the transaction that stores its last action:
//! since that write is checked against the row's revision, a game's
//! ratings move exactly once, whichever server stored the action.

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use super::postgres::pg;
use super::{blocking, Store, StoreError};
use crate::ratings::{settle, Entity, Outcome, Points, Rating, ResultRow, LEVEL_STARTS, PROVISIONAL_DEVIATION};

/// Migration 7 of SQLite.
pub(super) const SQLITE_MIGRATION: &str = "ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE ratings (
        entity     TEXT PRIMARY KEY NOT NULL,
        rating     REAL NOT NULL,
        deviation  REAL NOT NULL,
        volatility REAL NOT NULL,
        games      INTEGER NOT NULL,
        updated    INTEGER NOT NULL
    );
    CREATE TABLE results (
        game      TEXT NOT NULL REFERENCES games (id),
        seat      INTEGER NOT NULL,
        account   INTEGER REFERENCES accounts (id),
        level     TEXT,
        at        INTEGER NOT NULL,
        score     INTEGER NOT NULL,
        place     INTEGER NOT NULL,
        margin    INTEGER NOT NULL,
        road      INTEGER NOT NULL,
        city      INTEGER NOT NULL,
        field     INTEGER NOT NULL,
        monastery INTEGER NOT NULL,
        other     INTEGER NOT NULL,
        followers INTEGER NOT NULL,
        rating    REAL,
        deviation REAL,
        PRIMARY KEY (game, seat)
    );
    CREATE INDEX results_by_account ON results (account, at);
    CREATE INDEX results_by_level ON results (level, at);";

/// Migration 7 of PostgreSQL.
pub(super) const POSTGRES_MIGRATION: &str = "ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT false;
    CREATE TABLE ratings (
        entity     TEXT PRIMARY KEY,
        rating     DOUBLE PRECISION NOT NULL,
        deviation  DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        games      INTEGER NOT NULL,
        updated    BIGINT NOT NULL
    );
    CREATE TABLE results (
        game      TEXT NOT NULL REFERENCES games (id),
        seat      INTEGER NOT NULL,
        account   BIGINT REFERENCES accounts (id),
        level     TEXT,
        at        BIGINT NOT NULL,
        score     INTEGER NOT NULL,
        place     INTEGER NOT NULL,
        margin    INTEGER NOT NULL,
        road      INTEGER NOT NULL,
        city      INTEGER NOT NULL,
        field     INTEGER NOT NULL,
        monastery INTEGER NOT NULL,
        other     INTEGER NOT NULL,
        followers INTEGER NOT NULL,
        rating    DOUBLE PRECISION,
        deviation DOUBLE PRECISION,
        PRIMARY KEY (game, seat)
    );
    CREATE INDEX results_by_account ON results (account, at);
    CREATE INDEX results_by_level ON results (level, at);";

/// Rated games a page's graph shows, the latest.
pub const HISTORY: usize = 500;

/// Whose page: an account (by id) or a level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Whose {
    Account(i64),
    Level(String),
}

impl Whose {
    fn entity(&self) -> Entity {
        match self {
            Whose::Account(id) => Entity::Account(*id),
            Whose::Level(l) => Entity::Level(l.clone()),
        }
    }
}

/// A rating as a page shows it.
#[derive(Clone, Debug, Serialize)]
pub struct Shown {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: u32,
    /// Too few games yet to be sure of it (deviation above 110).
    pub provisional: bool,
}

impl Shown {
    /// `r` as it stands at `now` (time away widens it).
    pub fn of(r: &Rating, now: i64) -> Shown {
        let r = r.at(now);
        Shown {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
            games: r.games,
            provisional: r.deviation > PROVISIONAL_DEVIATION,
        }
    }
}

/// A point of a rating's history: after the game `game`, ended at `at`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct HistoryPoint {
    pub game: String,
    pub at: i64,
    pub rating: f64,
    pub deviation: f64,
}

/// What the finished games of an account or a level add up to.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Stats {
    pub games: u32,
    /// First places (shared ones too).
    pub wins: u32,
    /// Games that moved the rating.
    pub rated: u32,
    /// Points scored in all of them, by feature kind.
    pub points: Points,
    /// Figures put on the board in all of them.
    pub followers: u32,
    pub average_score: Option<f64>,
    /// The score less the best other seat's, on average.
    pub average_margin: Option<f64>,
}

/// An account's or a level's rating, its history and statistics.
#[derive(Clone, Debug, Serialize)]
pub struct Page {
    /// None before its first rated game (a level: its start).
    pub rating: Option<Shown>,
    /// Oldest first.
    pub history: Vec<HistoryPoint>,
    pub stats: Stats,
}

/// A line of the ratings' list.
#[derive(Clone, Debug, Serialize)]
pub struct Ranked {
    /// The account's name, or the level's.
    pub name: String,
    #[serde(flatten)]
    pub rating: Shown,
}

type StatsRow = (i64, i64, i64, [i64; 5], i64, Option<f64>, Option<f64>);

fn stats_of(r: StatsRow) -> Stats {
    let (games, wins, rated, p, followers, average_score, average_margin) = r;
    let n = |v: i64| u32::try_from(v).unwrap_or(u32::MAX);
    Stats {
        games: n(games),
        wins: n(wins),
        rated: n(rated),
        points: Points { road: n(p[0]), city: n(p[1]), field: n(p[2]), monastery: n(p[3]), other: n(p[4]) },
        followers: n(followers),
        average_score,
        average_margin,
    }
}

/// The page's queries, with `{who}` the column and `{p}` the parameter's
/// placeholder of the database.
fn stats_sql(who: &str, p: &str) -> String {
    format!(
        "SELECT COUNT(*), COALESCE(SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END), 0),
                COALESCE(SUM(CASE WHEN rating IS NULL THEN 0 ELSE 1 END), 0),
                COALESCE(SUM(road), 0), COALESCE(SUM(city), 0), COALESCE(SUM(field), 0),
                COALESCE(SUM(monastery), 0), COALESCE(SUM(other), 0), COALESCE(SUM(followers), 0),
                AVG(CAST(score AS DOUBLE PRECISION)), AVG(CAST(margin AS DOUBLE PRECISION))
         FROM results WHERE {who} = {p}"
    )
}

fn history_sql(who: &str, p: &str) -> String {
    format!(
        "SELECT game, at, rating, deviation FROM
            (SELECT game, at, rating, deviation FROM results WHERE {who} = {p} AND rating IS NOT NULL
             ORDER BY at DESC, game DESC LIMIT {HISTORY}) AS h
         ORDER BY at, game"
    )
}

const RANKED_SQLITE: &str = "SELECT COALESCE(a.name, substr(r.entity, 7)), r.rating, r.deviation, r.volatility,
        r.games, r.updated
     FROM ratings r LEFT JOIN accounts a ON r.entity = 'account:' || a.id
     WHERE r.entity LIKE ?1 AND r.games > 0 ORDER BY r.rating DESC, r.entity LIMIT ?2";

const RANKED_PG: &str = "SELECT COALESCE(a.name, substr(r.entity, 7)), r.rating, r.deviation, r.volatility,
        r.games::BIGINT, r.updated
     FROM ratings r LEFT JOIN accounts a ON r.entity = 'account:' || a.id
     WHERE r.entity LIKE $1 AND r.games > 0 ORDER BY r.rating DESC, r.entity LIMIT $2";

fn rating_of(rating: f64, deviation: f64, volatility: f64, games: i64, updated: i64) -> Rating {
    Rating { rating, deviation, volatility, games: u32::try_from(games).unwrap_or(0), updated }
}

/// The rating a page shows: none for an account before its first rated
/// game; a level's start before its first.
fn shown(whose: &Whose, stored: Option<Rating>, now: i64) -> Option<Shown> {
    let r = stored.filter(|r| r.games > 0);
    match whose {
        Whose::Account(_) => r,
        Whose::Level(_) => Some(r.unwrap_or_else(|| whose.entity().start())),
    }
    .map(|r| Shown::of(&r, now))
}

/// Settles finished game `game` in SQLite, inside its last write.
pub(super) fn settle_sqlite(c: &Connection, game: &str, outcome: &Outcome) -> Result<(), StoreError> {
    let accounts: Vec<(usize, i64)> = c
        .prepare_cached("SELECT seat, account FROM seat_accounts WHERE game = ?1")?
        .query_map(params![game], |r| Ok((r.get::<_, i64>(0)? as usize, r.get::<_, i64>(1)?)))?
        .collect::<Result<_, _>>()?;
    let entities = outcome.entities(&accounts);
    let mut before = Vec::with_capacity(entities.len());
    for e in &entities {
        before.push(match e {
            Some(e) => c
                .prepare_cached("SELECT rating, deviation, volatility, games, updated FROM ratings WHERE entity = ?1")?
                .query_row(params![e.key()], |r| Ok(rating_of(r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)))
                .optional()?,
            None => None,
        });
    }
    let settled = settle(outcome, &entities, &before);
    for (e, r) in &settled.ratings {
        c.prepare_cached(
            "INSERT INTO ratings (entity, rating, deviation, volatility, games, updated)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT (entity) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation,
                 volatility = excluded.volatility, games = excluded.games, updated = excluded.updated",
        )?
        .execute(params![e.key(), r.rating, r.deviation, r.volatility, r.games, r.updated])?;
    }
    for row in &settled.results {
        let ResultRow { seat, account, level, result: s, rating } = row;
        let p = s.points;
        c.prepare_cached(
            "INSERT INTO results (game, seat, account, level, at, score, place, margin, road, city, field,
                                  monastery, other, followers, rating, deviation)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
             ON CONFLICT (game, seat) DO NOTHING",
        )?
        .execute(params![
            game,
            *seat as i64,
            account,
            level,
            outcome.at,
            s.score,
            s.place,
            s.margin,
            p.road,
            p.city,
            p.field,
            p.monastery,
            p.other,
            s.followers,
            rating.map(|r| r.0),
            rating.map(|r| r.1)
        ])?;
    }
    Ok(())
}

/// Settles finished game `game` in PostgreSQL, inside its last write's
/// transaction. The entities' rows are locked in one order, so that two
/// games ending at once with the same players (a level, often) wait for
/// each other instead of deadlocking.
pub(super) async fn settle_pg(
    tx: &deadpool_postgres::Transaction<'_>,
    game: &str,
    outcome: &Outcome,
) -> Result<(), StoreError> {
    let accounts: Vec<(usize, i64)> = tx
        .query("SELECT seat, account FROM seat_accounts WHERE game = $1", &[&game])
        .await
        .map_err(pg)?
        .iter()
        .map(|r| (r.get::<_, i32>(0) as usize, r.get::<_, i64>(1)))
        .collect();
    let entities = outcome.entities(&accounts);
    let mut keys: Vec<String> = entities.iter().flatten().map(Entity::key).collect();
    keys.sort();
    keys.dedup();
    if outcome.counts(&entities) {
        // Every entity's row exists before it is locked: two first games
        // of one player ending at once then wait for each other (the
        // second insert waits on the first's key) instead of both
        // starting from nothing.
        for e in entities.iter().flatten() {
            let r = e.start();
            tx.execute(
                "INSERT INTO ratings (entity, rating, deviation, volatility, games, updated)
                 VALUES ($1, $2, $3, $4, 0, 0) ON CONFLICT (entity) DO NOTHING",
                &[&e.key(), &r.rating, &r.deviation, &r.volatility],
            )
            .await
            .map_err(pg)?;
        }
    }
    let rows = tx
        .query(
            "SELECT entity, rating, deviation, volatility, games::BIGINT, updated FROM ratings
             WHERE entity = ANY($1) ORDER BY entity FOR UPDATE",
            &[&keys],
        )
        .await
        .map_err(pg)?;
    let stored: Vec<(String, Rating)> =
        rows.iter().map(|r| (r.get(0), rating_of(r.get(1), r.get(2), r.get(3), r.get(4), r.get(5)))).collect();
    let before: Vec<Option<Rating>> = entities
        .iter()
        .map(|e| e.as_ref().and_then(|e| stored.iter().find(|(k, _)| *k == e.key()).map(|(_, r)| *r)))
        .collect();
    let settled = settle(outcome, &entities, &before);
    for (e, r) in &settled.ratings {
        tx.execute(
            "UPDATE ratings SET rating = $2, deviation = $3, volatility = $4, games = $5, updated = $6
             WHERE entity = $1",
            &[&e.key(), &r.rating, &r.deviation, &r.volatility, &(r.games as i32), &r.updated],
        )
        .await
        .map_err(pg)?;
    }
    for row in &settled.results {
        let ResultRow { seat, account, level, result: s, rating } = row;
        let p = s.points;
        let n = |v: u32| v as i32;
        tx.execute(
            "INSERT INTO results (game, seat, account, level, at, score, place, margin, road, city, field,
                                  monastery, other, followers, rating, deviation)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
             ON CONFLICT (game, seat) DO NOTHING",
            &[
                &game,
                &(*seat as i32),
                account,
                level,
                &outcome.at,
                &n(s.score),
                &n(s.place),
                &s.margin,
                &n(p.road),
                &n(p.city),
                &n(p.field),
                &n(p.monastery),
                &n(p.other),
                &n(s.followers),
                &rating.map(|r| r.0),
                &rating.map(|r| r.1),
            ],
        )
        .await
        .map_err(pg)?;
    }
    Ok(())
}

impl Store {
    /// The rating of `entity`, if it has played a rated game.
    pub async fn rating(&self, entity: &Entity) -> Result<Option<Rating>, StoreError> {
        const ONE: &str = "SELECT rating, deviation, volatility, games, updated FROM ratings WHERE entity = ?1";
        let key = entity.key();
        let r = match self {
            Store::Sqlite(s) => {
                let s = s.clone();
                blocking(move || {
                    s.read(|c| {
                        Ok(c.prepare_cached(ONE)?
                            .query_row(params![key], |r| {
                                Ok(rating_of(r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
                            })
                            .optional()?)
                    })
                })
                .await?
            }
            Store::Postgres(p) => {
                p.watch(async {
                    let row = p
                        .client()
                        .await?
                        .query_opt(&ONE.replace("?1", "$1").replace("games,", "games::BIGINT,"), &[&key])
                        .await
                        .map_err(pg)?;
                    Ok(row.map(|r| rating_of(r.get(0), r.get(1), r.get(2), r.get(3), r.get(4))))
                })
                .await?
            }
        };
        Ok(r.filter(|r| r.games > 0))
    }

    /// Every level of the ladder with its rating (its start before its
    /// first rated game), strongest first.
    pub async fn levels(&self, now: i64) -> Result<Vec<Ranked>, StoreError> {
        let stored = self.ranked(true, LEVEL_STARTS.len() as u32, now).await?;
        let mut levels: Vec<Ranked> = LEVEL_STARTS
            .iter()
            .map(|(l, _)| {
                stored.iter().find(|r| r.name == *l).cloned().unwrap_or_else(|| Ranked {
                    name: l.to_string(),
                    rating: Shown::of(&Entity::Level(l.to_string()).start(), now),
                })
            })
            .collect();
        levels.sort_by(|a, b| b.rating.rating.total_cmp(&a.rating.rating));
        Ok(levels)
    }

    /// The page of an account or a level, at `now`.
    pub async fn page(&self, whose: Whose, now: i64) -> Result<Page, StoreError> {
        let key = whose.entity().key();
        let (col, id_num, id_text) = match &whose {
            Whose::Account(id) => ("account", Some(*id), None),
            Whose::Level(l) => ("level", None, Some(l.clone())),
        };
        match self {
            Store::Sqlite(s) => {
                let s = s.clone();
                blocking(move || {
                    s.read(|c| {
                        let rating = c
                            .prepare_cached(
                                "SELECT rating, deviation, volatility, games, updated FROM ratings WHERE entity = ?1",
                            )?
                            .query_row(params![key], |r| {
                                Ok(rating_of(r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
                            })
                            .optional()?;
                        let who: &dyn rusqlite::ToSql = match (&id_num, &id_text) {
                            (Some(id), _) => id,
                            (_, Some(l)) => l,
                            _ => &rusqlite::types::Null,
                        };
                        let history = c
                            .prepare_cached(&history_sql(col, "?1"))?
                            .query_map([who], |r| {
                                Ok(HistoryPoint { game: r.get(0)?, at: r.get(1)?, rating: r.get(2)?, deviation: r.get(3)? })
                            })?
                            .collect::<Result<Vec<_>, _>>()?;
                        let stats = c.prepare_cached(&stats_sql(col, "?1"))?.query_row([who], |r| {
                            Ok((
                                r.get(0)?,
                                r.get(1)?,
                                r.get(2)?,
                                [r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?],
                                r.get(8)?,
                                r.get(9)?,
                                r.get(10)?,
                            ))
                        })?;
                        Ok(Page { rating: shown(&whose, rating, now), history, stats: stats_of(stats) })
                    })
                })
                .await
            }
            Store::Postgres(p) => {
                p.watch(async {
                    let client = p.client().await?;
                    let rating = client
                        .query_opt(
                            "SELECT rating, deviation, volatility, games::BIGINT, updated FROM ratings WHERE entity = $1",
                            &[&key],
                        )
                        .await
                        .map_err(pg)?
                        .map(|r| rating_of(r.get(0), r.get(1), r.get(2), r.get(3), r.get(4)));
                    let who: &(dyn tokio_postgres::types::ToSql + Sync) = match (&id_num, &id_text) {
                        (Some(id), _) => id,
                        (_, Some(l)) => l,
                        _ => &None::<i64>,
                    };
                    let history = client
                        .query(&history_sql(col, "$1"), &[who])
                        .await
                        .map_err(pg)?
                        .iter()
                        .map(|r| HistoryPoint { game: r.get(0), at: r.get(1), rating: r.get(2), deviation: r.get(3) })
                        .collect();
                    let r = client.query_one(&stats_sql(col, "$1"), &[who]).await.map_err(pg)?;
                    let stats = stats_of((
                        r.get(0),
                        r.get(1),
                        r.get(2),
                        [r.get(3), r.get(4), r.get(5), r.get(6), r.get(7)],
                        r.get(8),
                        r.get(9),
                        r.get(10),
                    ));
                    Ok(Page { rating: shown(&whose, rating, now), history, stats })
                })
                .await
            }
        }
    }

    /// The best rated accounts (`levels`: the ladder's levels instead),
    /// at `now`.
    pub async fn ranked(&self, levels: bool, limit: u32, now: i64) -> Result<Vec<Ranked>, StoreError> {
        let like = if levels { "level:%" } else { "account:%" };
        let ranked = move |name: String, r: Rating| Ranked { name, rating: Shown::of(&r, now) };
        match self {
            Store::Sqlite(s) => {
                let s = s.clone();
                blocking(move || {
                    s.read(|c| {
                        Ok(c.prepare_cached(RANKED_SQLITE)?
                            .query_map(params![like, i64::from(limit)], |r| {
                                Ok(ranked(r.get(0)?, rating_of(r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)))
                            })?
                            .collect::<Result<Vec<_>, _>>()?)
                    })
                })
                .await
            }
            Store::Postgres(p) => {
                p.watch(async {
                    let client = p.client().await?;
                    let rows = client.query(RANKED_PG, &[&like, &i64::from(limit)]).await.map_err(pg)?;
                    Ok(rows
                        .iter()
                        .map(|r| ranked(r.get(0), rating_of(r.get(1), r.get(2), r.get(3), r.get(4), r.get(5))))
                        .collect())
                })
                .await
            }
        }
    }
}
