//! SQLite: one file, migrated on start, used by one server at a time.
//!
//! Writes go to one writer thread that commits whatever is queued in one
//! transaction (group commit), and answers each write once it is committed.
//! Reads use a connection of their own (WAL lets them run beside writes).

use std::path::Path;
use std::sync::{mpsc, Arc, Mutex, MutexGuard};

use rusqlite::{params, Connection, OptionalExtension};

use super::{status, Filter, GameRow, Listed, StoreError, Summary, Update};

/// The schema's migrations, in order; `schema_version` holds how many ran.
const MIGRATIONS: &[&str] = &[
    // 1: games
    "CREATE TABLE games (
        id       TEXT PRIMARY KEY NOT NULL,
        created  INTEGER NOT NULL,
        updated  INTEGER NOT NULL,
        seed     INTEGER NOT NULL,
        seats    TEXT NOT NULL,
        record   TEXT NOT NULL,
        version  INTEGER NOT NULL,
        status   TEXT NOT NULL CHECK (status IN ('active', 'finished')),
        summary  TEXT NOT NULL
    );
    CREATE INDEX games_by_status ON games (status, updated);",
    // 2: a game is listed only if its creator made it public; the creator's
    // address (its /64 for IPv6) accounts its bots' time
    "ALTER TABLE games ADD COLUMN public INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN owner TEXT;
    CREATE INDEX games_listed ON games (public, status, updated);",
    // 3: the row's revision (every write), and the acting seat's
    // provisional decisions (kept across restarts)
    "ALTER TABLE games ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN pending TEXT;",
    // 4: the review of a finished game (docs/analysis.md), computed once
    "CREATE TABLE reviews (
        game    TEXT PRIMARY KEY NOT NULL REFERENCES games (id),
        created INTEGER NOT NULL,
        review  TEXT NOT NULL
    );",
    // 5: accounts, their sessions (a token's SHA-256 only), the seats bound
    // to them, and failed sign-ins per name (`super::accounts`)
    super::accounts::SQLITE_MIGRATION,
    // 6: the games' chat (`super::chat`)
    "CREATE TABLE chat (
        id    INTEGER PRIMARY KEY AUTOINCREMENT,
        game  TEXT NOT NULL REFERENCES games (id),
        at    INTEGER NOT NULL,
        room  TEXT NOT NULL CHECK (room IN ('players', 'spectators')),
        seat  INTEGER,
        name  TEXT NOT NULL,
        text  TEXT NOT NULL
    );
    CREATE INDEX chat_by_room ON chat (game, room, id);",
    // 7: rated games, the ratings and every finished game's results
    // (`super::ratings`)
    super::ratings::SQLITE_MIGRATION,
    // 8: the lobby's tables and who sits at them (`super::lobby`)
    super::lobby::SQLITE_MIGRATION,
    // 9: the games' clocks (`crate::game::clock`): their state, and when
    // the running one runs out, which the servers look for
    "ALTER TABLE games ADD COLUMN clock TEXT;
    ALTER TABLE games ADD COLUMN clock_due INTEGER;
    CREATE INDEX games_by_clock_due ON games (clock_due) WHERE clock_due IS NOT NULL;",
];

/// An exclusive lock on `<db>.lock`, held while the server runs. The
/// operating system lets it go when the process ends, however it ends.
pub struct DbLock {
    _file: std::fs::File,
}

impl DbLock {
    pub fn acquire(db: &Path) -> Result<DbLock, StoreError> {
        let mut name = db.as_os_str().to_owned();
        name.push(".lock");
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(std::path::PathBuf::from(name))
            .map_err(StoreError::Lock)?;
        // Through fs4: std's own File::try_lock is newer than this crate's
        // minimum Rust version.
        match fs4::FileExt::try_lock(&file) {
            Ok(()) => Ok(DbLock { _file: file }),
            Err(fs4::TryLockError::WouldBlock) => Err(StoreError::Locked),
            Err(fs4::TryLockError::Error(e)) => Err(StoreError::Lock(e)),
        }
    }
}

/// Most writes committed in one transaction.
const MAX_BATCH: usize = 512;

type Reply = tokio::sync::oneshot::Sender<Result<u64, StoreError>>;

enum Job {
    Insert(Box<GameRow>, Reply),
    Save(Box<Update>, Reply),
    Pending {
        id: String,
        rev: u64,
        pending: Option<String>,
        reply: Reply,
    },
    Review {
        id: String,
        created: i64,
        review: String,
        reply: Reply,
    },
    /// A write of the accounts' or the chat's tables, under a savepoint of
    /// its own.
    Run(Option<Op>, Reply),
}

/// A write run by the writer in its transaction (`super::accounts`): all
/// of it or, when it fails, none of it.
pub(super) type Op = Box<dyn FnOnce(&Connection) -> Result<u64, StoreError> + Send>;

#[derive(Clone)]
pub struct Sqlite {
    read: Arc<Mutex<Connection>>,
    writer: Arc<Writer>,
}

/// The writer thread; when the last [`Store`] goes, it finishes the writes
/// queued and stops, and the drop waits for that.
struct Writer {
    jobs: Option<mpsc::Sender<Job>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Writer {
    fn send(&self, job: Job) -> Result<(), StoreError> {
        self.jobs.as_ref().ok_or(StoreError::WriterGone)?.send(job).map_err(|_| StoreError::WriterGone)
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        self.jobs = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn connect(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    // WAL: a commit is durable against a killed process without an fsync each time.
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    Ok(conn)
}

impl Sqlite {
    /// Opens (creating if need be) and migrates the database at `path`.
    pub fn open(path: &Path) -> Result<Sqlite, StoreError> {
        let mut write = connect(path)?;
        migrate(&mut write)?;
        let read = connect(path)?;
        let (sender, jobs) = mpsc::channel();
        let thread =
            std::thread::Builder::new().name("carcassonne-db".into()).spawn(move || write_loop(write, jobs)).map_err(
                |e| StoreError::Damaged { id: String::new(), reason: format!("cannot start the writer: {e}") },
            )?;
        let writer = Arc::new(Writer { jobs: Some(sender), thread: Some(thread) });
        Ok(Sqlite { read: Arc::new(Mutex::new(read)), writer })
    }

    pub(super) fn conn(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave SQLite half-written:
        // statements are atomic, so the connection is still good.
        self.read.lock().unwrap_or_else(|e| e.into_inner())
    }

    async fn write(&self, job: impl FnOnce(Reply) -> Job) -> Result<u64, StoreError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.writer.send(job(tx))?;
        rx.await.map_err(|_| StoreError::WriterGone)?
    }

    /// Stores a new game; returns once committed.
    pub async fn insert(&self, row: GameRow) -> Result<(), StoreError> {
        self.write(|tx| Job::Insert(Box::new(row), tx)).await.map(|_| ())
    }

    /// Stores a game's new record and version, if its row is still at the
    /// update's revision; returns the new revision once committed.
    pub async fn save(&self, update: Update) -> Result<u64, StoreError> {
        self.write(|tx| Job::Save(Box::new(update), tx)).await
    }

    /// Stores the provisional decisions, if the row is still at `rev`.
    pub async fn save_pending(&self, id: String, rev: u64, pending: Option<String>) -> Result<u64, StoreError> {
        self.write(|reply| Job::Pending { id, rev, pending, reply }).await
    }

    /// Stores a game's review (replacing none: the first one stays).
    pub async fn save_review(&self, id: String, created: i64, review: String) -> Result<(), StoreError> {
        self.write(|reply| Job::Review { id, created, review, reply }).await.map(|_| ())
    }

    /// Runs `op` in the writer's transaction; returns once committed.
    pub(super) async fn run(&self, op: Op) -> Result<u64, StoreError> {
        self.write(|reply| Job::Run(Some(op), reply)).await
    }

    /// Reads with the reading connection.
    pub(super) fn read<T>(&self, f: impl FnOnce(&Connection) -> Result<T, StoreError>) -> Result<T, StoreError> {
        f(&self.conn())
    }

    pub fn load_review(&self, id: &str) -> Result<Option<String>, StoreError> {
        let review = self
            .conn()
            .query_row("SELECT review FROM reviews WHERE game = ?1", params![id], |r| r.get::<_, String>(0))
            .optional()?;
        Ok(review)
    }

    pub fn rev(&self, id: &str) -> Result<Option<u64>, StoreError> {
        let rev = self
            .conn()
            .query_row("SELECT rev FROM games WHERE id = ?1", params![id], |r| r.get::<_, i64>(0))
            .optional()?;
        Ok(rev.map(|r| r as u64))
    }

    pub fn load(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let row = self
            .conn()
            .query_row(
                "SELECT id, created, updated, seed, seats, record, version, status, summary, public, owner,
                        rev, pending, rated, clock, clock_due
                 FROM games WHERE id = ?1",
                params![id],
                |r| {
                    Ok(GameRow {
                        id: r.get(0)?,
                        created: r.get(1)?,
                        updated: r.get(2)?,
                        seed: r.get::<_, i64>(3)? as u64,
                        seats: r.get(4)?,
                        record: r.get(5)?,
                        version: r.get::<_, i64>(6)? as u64,
                        finished: r.get::<_, String>(7)? == "finished",
                        summary: r.get(8)?,
                        public: r.get(9)?,
                        owner: r.get(10)?,
                        rev: r.get::<_, i64>(11)? as u64,
                        pending: r.get(12)?,
                        bot_due: false,
                        accounts: Vec::new(),
                        rated: r.get(13)?,
                        clock: r.get(14)?,
                        clock_due: r.get(15)?,
                    })
                },
            )
            .optional()?;
        Ok(row)
    }

    /// Ids of the games still being played.
    pub fn active_ids(&self) -> Result<Vec<String>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn.prepare("SELECT id FROM games WHERE status = 'active'")?;
        let ids = stmt.query_map([], |r| r.get(0))?.collect::<Result<Vec<String>, _>>()?;
        Ok(ids)
    }

    /// Public games, last active first.
    pub fn list(&self, filter: Filter, limit: u32, offset: u32) -> Result<Vec<Listed>, StoreError> {
        let conn = self.conn();
        let sql = match filter {
            Filter::All => {
                "SELECT id, status, created, updated, version, summary FROM games
                 WHERE public = 1 ORDER BY updated DESC, id LIMIT ?1 OFFSET ?2"
            }
            Filter::Active => {
                "SELECT id, status, created, updated, version, summary FROM games
                 WHERE public = 1 AND status = 'active' ORDER BY updated DESC, id LIMIT ?1 OFFSET ?2"
            }
            Filter::Finished => {
                "SELECT id, status, created, updated, version, summary FROM games
                 WHERE public = 1 AND status = 'finished' ORDER BY updated DESC, id LIMIT ?1 OFFSET ?2"
            }
        };
        let mut stmt = conn.prepare_cached(sql)?;
        let rows = stmt.query_map(params![limit, offset], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, i64>(4)?,
                r.get::<_, String>(5)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (game, st, created, updated, version, summary) = row?;
            let summary: Summary = serde_json::from_str(&summary)
                .map_err(|e| StoreError::Damaged { id: game.clone(), reason: e.to_string() })?;
            let status = if st == "finished" { "finished" } else { "active" };
            out.push(Listed { game, status, created, updated, version: version as u64, summary });
        }
        Ok(out)
    }
}

/// The writer: takes every job queued, runs them in one transaction, and
/// answers each once the transaction is committed (or failed).
fn write_loop(mut conn: Connection, jobs: mpsc::Receiver<Job>) {
    while let Ok(first) = jobs.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(j) => batch.push(j),
                Err(_) => break,
            }
        }
        let mut results: Vec<Result<u64, StoreError>> = Vec::with_capacity(batch.len());
        let committed = (|| -> Result<(), rusqlite::Error> {
            let mut tx = conn.transaction()?;
            for job in batch.iter_mut() {
                results.push(match job {
                    Job::Insert(row, _) => insert_row(&tx, row).map(|()| row.rev),
                    // A game's last action and its results: both or neither.
                    Job::Save(u, _) if u.outcome.is_some() => (|| {
                        let sp = tx.savepoint()?;
                        let rev = save_row(&sp, u)?;
                        if let Some(outcome) = &u.outcome {
                            super::ratings::settle_sqlite(&sp, &u.id, outcome)?;
                        }
                        sp.commit()?;
                        Ok(rev)
                    })(),
                    Job::Save(u, _) => save_row(&tx, u),
                    Job::Pending { id, rev, pending, .. } => pending_row(&tx, id, *rev, pending.as_deref()),
                    Job::Review { id, created, review, .. } => review_row(&tx, id, *created, review),
                    Job::Run(op, _) => {
                        let sp = tx.savepoint()?;
                        let done = op.take().map_or(Err(StoreError::WriterGone), |op| op(&sp));
                        if done.is_ok() {
                            sp.commit()?;
                        }
                        done
                    }
                });
            }
            tx.commit()
        })();
        let failed = committed.err().map(|e| e.to_string());
        for (i, job) in batch.into_iter().enumerate() {
            let result = match (&failed, results.get_mut(i)) {
                (Some(e), _) => Err(StoreError::Damaged { id: String::new(), reason: format!("commit failed: {e}") }),
                (None, Some(r)) => std::mem::replace(r, Ok(0)),
                (None, None) => Err(StoreError::WriterGone),
            };
            let reply = match job {
                Job::Insert(_, reply)
                | Job::Save(_, reply)
                | Job::Pending { reply, .. }
                | Job::Review { reply, .. }
                | Job::Run(_, reply) => reply,
            };
            let _ = reply.send(result);
        }
    }
}

fn insert_row(conn: &Connection, row: &GameRow) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO games (id, created, updated, seed, seats, record, version, status, summary, public, owner,
                            rev, pending, rated, clock, clock_due)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
    )?
    .execute(params![
        row.id,
        row.created,
        row.updated,
        row.seed as i64,
        row.seats,
        row.record,
        row.version as i64,
        status(row.finished),
        row.summary,
        row.public,
        row.owner,
        row.rev as i64,
        row.pending,
        row.rated,
        row.clock,
        row.clock_due
    ])?;
    for (seat, account) in &row.accounts {
        conn.prepare_cached("INSERT INTO seat_accounts (game, seat, account) VALUES (?1, ?2, ?3)")?
            .execute(params![row.id, *seat as i64, account])?;
    }
    Ok(())
}

fn save_row(conn: &Connection, u: &Update) -> Result<u64, StoreError> {
    let n = conn
        .prepare_cached(
            "UPDATE games SET record = ?1, version = ?2, status = ?3, summary = ?4, updated = ?5, pending = ?6,
                              clock = ?9, clock_due = ?10, rev = rev + 1
             WHERE id = ?7 AND rev = ?8",
        )?
        .execute(params![
            u.record,
            u.version as i64,
            status(u.finished),
            u.summary,
            u.updated,
            u.pending,
            u.id,
            u.rev as i64,
            u.clock,
            u.clock_due
        ])?;
    if n != 1 {
        return Err(StoreError::Conflict(u.id.clone()));
    }
    Ok(u.rev + 1)
}

fn pending_row(conn: &Connection, id: &str, rev: u64, pending: Option<&str>) -> Result<u64, StoreError> {
    let n = conn
        .prepare_cached("UPDATE games SET pending = ?1, rev = rev + 1 WHERE id = ?2 AND rev = ?3")?
        .execute(params![pending, id, rev as i64])?;
    if n != 1 {
        return Err(StoreError::Conflict(id.to_string()));
    }
    Ok(rev + 1)
}

fn review_row(conn: &Connection, id: &str, created: i64, review: &str) -> Result<u64, StoreError> {
    conn.prepare_cached(
        "INSERT INTO reviews (game, created, review) VALUES (?1, ?2, ?3) ON CONFLICT (game) DO NOTHING",
    )?
    .execute(params![id, created, review])?;
    Ok(0)
}

fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)", [])?;
    let tx = conn.transaction()?;
    let current: Option<i64> = tx.query_row("SELECT MAX(version) FROM schema_version", [], |r| r.get(0))?;
    let current = current.unwrap_or(0);
    let known = MIGRATIONS.len() as i64;
    if current > known {
        return Err(StoreError::TooNew { found: current, known });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(current as usize) {
        tx.execute_batch(sql)?;
        tx.execute("DELETE FROM schema_version", [])?;
        tx.execute("INSERT INTO schema_version (version) VALUES (?1)", params![i as i64 + 1])?;
    }
    tx.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrates_once_and_refuses_newer_schemas() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        let store = Sqlite::open(&path).unwrap();
        drop(store);
        let store = Sqlite::open(&path).unwrap();
        assert!(store.active_ids().unwrap().is_empty());
        let v: i64 = store.conn().query_row("SELECT version FROM schema_version", [], |r| r.get(0)).unwrap();
        assert_eq!(v, MIGRATIONS.len() as i64);
        store.conn().execute("UPDATE schema_version SET version = 99", []).unwrap();
        drop(store);
        assert!(matches!(Sqlite::open(&path), Err(StoreError::TooNew { found: 99, .. })));
    }

    #[test]
    fn one_lock_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        let lock = DbLock::acquire(&path).unwrap();
        assert!(matches!(DbLock::acquire(&path), Err(StoreError::Locked)));
        drop(lock);
        DbLock::acquire(&path).unwrap();
        assert!(matches!(DbLock::acquire(&dir.path().join("no/t.db")), Err(StoreError::Lock(_))));
    }
}
