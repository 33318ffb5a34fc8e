//! A game's chat, kept with the game (`chat` table): the players' room and
//! the spectators', in the order the database gave their messages ids.
//!
//! Ids grow over all games; within one game they grow in the order the
//! messages were stored, so that a reader asking for what came after the
//! last id it saw misses nothing. SQLite's single writer gives that by
//! itself; PostgreSQL takes a lock of the game's (a transaction advisory
//! lock, not the game's row, which the actions write) before it draws the
//! id, and announces the message on [`CHAT_CHANNEL`] as it commits.

use rusqlite::{params, Connection};
use serde::Serialize;

use super::postgres::{pg, Postgres};
use super::{blocking, Store, StoreError};

/// The channel of new chat messages (payload `<game> <id>`).
pub const CHAT_CHANNEL: &str = "carcassonne_chat";

/// Which room of a game's chat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Room {
    /// The players', written and read by the seats' holders.
    Players,
    /// The spectators', written by anyone without a seat, read by anyone.
    Spectators,
}

impl Room {
    fn as_str(self) -> &'static str {
        match self {
            Room::Players => "players",
            Room::Spectators => "spectators",
        }
    }

    fn parse(s: &str) -> Room {
        if s == "players" {
            Room::Players
        } else {
            Room::Spectators
        }
    }
}

/// A message as stored and as clients get it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChatLine {
    pub id: u64,
    /// When it was said, in milliseconds since the epoch.
    pub at: i64,
    pub room: Room,
    /// The seat that said it; none for a spectator.
    pub seat: Option<usize>,
    pub name: String,
    pub text: String,
}

/// A message to store (its id comes from the database).
#[derive(Clone, Debug)]
pub struct NewLine {
    pub game: String,
    pub at: i64,
    pub room: Room,
    pub seat: Option<usize>,
    pub name: String,
    pub text: String,
}

impl NewLine {
    fn with_id(self, id: u64) -> ChatLine {
        ChatLine { id, at: self.at, room: self.room, seat: self.seat, name: self.name, text: self.text }
    }
}

impl Store {
    /// Stores `line` unless its game already holds `max` messages (then
    /// `None`); returns it with its id once committed.
    pub async fn say(&self, line: NewLine, max: usize) -> Result<Option<ChatLine>, StoreError> {
        match self {
            Store::Sqlite(s) => s.say(line, max).await,
            Store::Postgres(p) => p.watch(p.say(line, max)).await,
        }
    }

    /// The messages of `game`'s `room` after id `since`, oldest first, at
    /// most `limit` of them: the last ones if `since` is 0.
    pub async fn chat(&self, game: &str, room: Room, since: u64, limit: usize) -> Result<Vec<ChatLine>, StoreError> {
        // Ids are positive 64-bit integers in both databases.
        let since = since.min(i64::MAX as u64);
        match self {
            Store::Sqlite(s) => {
                let (s, game) = (s.clone(), game.to_string());
                blocking(move || read(&s.conn(), &game, room, since, limit)).await
            }
            Store::Postgres(p) => p.watch(p.chat(game, room, since, limit)).await,
        }
    }
}

/// The query both databases run: the first `limit` after `since`, or the
/// last `limit` when `since` is 0 (a client's first look).
const READ: &str = "SELECT id, at, room, seat, name, text FROM (
        SELECT id, at, room, seat, name, text FROM chat
        WHERE game = $1 AND room = $2 AND id > $3
        ORDER BY CASE WHEN $3 = 0 THEN -id ELSE id END
        LIMIT $4) AS l
     ORDER BY id";

fn read(conn: &Connection, game: &str, room: Room, since: u64, limit: usize) -> Result<Vec<ChatLine>, StoreError> {
    let sql = READ.replace('$', "?");
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(params![game, room.as_str(), since as i64, limit as i64], |r| {
        Ok(ChatLine {
            id: r.get::<_, i64>(0)? as u64,
            at: r.get(1)?,
            room: Room::parse(&r.get::<_, String>(2)?),
            seat: r.get::<_, Option<i64>>(3)?.map(|s| s as usize),
            name: r.get(4)?,
            text: r.get(5)?,
        })
    })?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// Stores a message in the SQLite writer's transaction: its id, or 0 if
/// the game's chat is full.
pub(super) fn insert(conn: &Connection, line: &NewLine, max: usize) -> Result<u64, StoreError> {
    let held: i64 = conn
        .prepare_cached("SELECT count(*) FROM chat WHERE game = ?1")?
        .query_row(params![line.game], |r| r.get(0))?;
    if held as usize >= max {
        return Ok(0);
    }
    conn.prepare_cached("INSERT INTO chat (game, at, room, seat, name, text) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")?
        .execute(params![line.game, line.at, line.room.as_str(), line.seat.map(|s| s as i64), line.name, line.text])?;
    Ok(conn.last_insert_rowid() as u64)
}

impl super::sqlite::Sqlite {
    async fn say(&self, line: NewLine, max: usize) -> Result<Option<ChatLine>, StoreError> {
        let stored = line.clone();
        let id = self.run(Box::new(move |conn| insert(conn, &stored, max))).await?;
        Ok((id != 0).then(|| line.with_id(id)))
    }
}

impl Postgres {
    async fn say(&self, line: NewLine, max: usize) -> Result<Option<ChatLine>, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(pg)?;
        // The game's messages are stored one at a time, so that their ids
        // come in the order they commit.
        tx.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 51966))", &[&line.game]).await.map_err(pg)?;
        let row = tx
            .query_opt(
                "WITH c AS (
                    INSERT INTO chat (game, at, room, seat, name, text)
                    SELECT $1, $2, $3, $4, $5, $6 WHERE (SELECT count(*) FROM chat WHERE game = $1) < $7
                    RETURNING id)
                 SELECT c.id FROM c CROSS JOIN LATERAL (SELECT pg_notify($8, $1 || ' ' || c.id)) AS n",
                &[
                    &line.game,
                    &line.at,
                    &line.room.as_str(),
                    &line.seat.map(|s| s as i32),
                    &line.name,
                    &line.text,
                    &(max as i64),
                    &CHAT_CHANNEL,
                ],
            )
            .await
            .map_err(pg)?;
        tx.commit().await.map_err(pg)?;
        Ok(row.map(|r| line.with_id(r.get::<_, i64>(0) as u64)))
    }

    async fn chat(&self, game: &str, room: Room, since: u64, limit: usize) -> Result<Vec<ChatLine>, StoreError> {
        let client = self.client().await?;
        let stmt = client.prepare_cached(READ).await.map_err(pg)?;
        let rows = client.query(&stmt, &[&game, &room.as_str(), &(since as i64), &(limit as i64)]).await.map_err(pg)?;
        Ok(rows
            .iter()
            .map(|r| ChatLine {
                id: r.get::<_, i64>(0) as u64,
                at: r.get(1),
                room: Room::parse(r.get(2)),
                seat: r.get::<_, Option<i32>>(3).map(|s| s as usize),
                name: r.get(4),
                text: r.get(5),
            })
            .collect())
    }
}
