//! The server of the browser game: a JSON API and WebSockets over the rules
//! engine, games stored in SQLite (one server) or PostgreSQL (several
//! servers and bot workers, see `docs/deploy.md`), bots playing their
//! seats, and the browser UI embedded in the binary. See `docs/api.md`.
//!
//! The server owns the truth: every action is checked by the engine against
//! the version the client saw, stored before it is acknowledged, and the new
//! view is pushed to every client of the game. Tiles are drawn by the server
//! from a per-game secret seed that never leaves it.
//!
//! ```no_run
//! # async fn demo() -> anyhow::Result<()> {
//! use carcassonne_server::{ServeOptions, Server};
//! let server = Server::start(ServeOptions::default()).await?;
//! println!("listening on http://{}", server.local_addr());
//! server.shutdown().await?;
//! # Ok(()) }
//! ```

pub mod accounts;
pub mod args;
pub mod assets;
pub mod bots;
pub mod error;
pub mod game;
pub mod http;
pub mod inspect;
pub mod limits;
pub mod live;
pub mod logging;
pub mod names;
pub mod net;
pub mod ratings;
pub mod records;
pub mod store;
pub mod view;
pub mod why;
pub mod wire;

pub use bots::worker;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use tokio::sync::watch;
use tokio::task::JoinHandle;

pub use args::{ServeArgs, WorkerArgs};
pub use error::GameError;
pub use game::Hub;
pub use http::ApiError;
pub use limits::Limits;
pub use store::{Database, DbTimeouts};

/// This program's version, for the logs.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// How to run the server.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// Where to listen; port 0 picks a free port.
    pub addr: SocketAddr,
    /// The database: a SQLite file, or a PostgreSQL URL; created (the
    /// file) and migrated if need be.
    pub db: Database,
    /// Serve the UI from this directory instead of the embedded copy (for UI work).
    pub assets: Option<PathBuf>,
    /// Bot decisions computed at once; by default one per core.
    pub bot_threads: Option<usize>,
    /// What one client may ask (see [`Limits`]).
    pub limits: Limits,
    /// With PostgreSQL: bot decisions this server makes itself from the
    /// queue at once (by default as many as `bot_threads`); 0 leaves them
    /// to `carcassonne bot-worker` processes.
    pub bot_workers: Option<usize>,
    /// With PostgreSQL: how long a claim on a bot decision lasts.
    pub job_timeout: Duration,
    /// With PostgreSQL: how long the database may take.
    pub db_timeouts: DbTimeouts,
    /// Proxies whose `X-Forwarded-For` names the client (every
    /// per-address limit then counts that address).
    pub trusted_proxies: Vec<limits::Cidr>,
    /// The session cookie is `Secure` (sent over HTTPS only); false only
    /// for a server reached over plain HTTP (`--insecure-cookies`).
    pub secure_cookies: bool,
}

impl Default for ServeOptions {
    fn default() -> ServeOptions {
        ServeOptions {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: Database::Sqlite(PathBuf::from("carcassonne.db")),
            assets: None,
            bot_threads: None,
            limits: Limits::default(),
            bot_workers: None,
            job_timeout: store::DEFAULT_JOB_TIMEOUT,
            db_timeouts: DbTimeouts::default(),
            trusted_proxies: Vec::new(),
            secure_cookies: true,
        }
    }
}

/// A running server.
pub struct Server {
    addr: SocketAddr,
    hub: Arc<Hub>,
    stop: watch::Sender<bool>,
    task: Option<JoinHandle<()>>,
    /// Held for the server's life (SQLite): a second server on the same
    /// file would serve games that change under it.
    _lock: Option<store::DbLock>,
    workers: Option<JoinHandle<()>>,
}

/// Opens the SQLite file at `path`, locked for this process.
async fn open_sqlite(path: PathBuf) -> anyhow::Result<(store::DbLock, store::Store)> {
    let db = path.clone();
    let opened = tokio::task::spawn_blocking(move || {
        let lock = match store::DbLock::acquire(&path) {
            Ok(lock) => lock,
            Err(e @ store::StoreError::Locked) => return Err(e),
            // No lock file (no such folder, say): SQLite's own reason
            // for refusing the database is the clearer one.
            Err(e) => {
                store::sqlite::Sqlite::open(&path)?;
                return Err(e);
            }
        };
        Ok((lock, store::Store::Sqlite(store::sqlite::Sqlite::open(&path)?)))
    })
    .await?;
    opened.map_err(|e| anyhow::anyhow!("cannot open the database {}: {}", db.display(), e.reason_for(&db)))
}

/// Connects to PostgreSQL at `url` with up to `connections` connections
/// (waiting for it at start), and migrates it.
async fn open_postgres(url: &str, connections: usize, timeouts: DbTimeouts) -> anyhow::Result<store::Store> {
    let pg = store::postgres::Postgres::connect_with(url, connections, timeouts)
        .await
        .map_err(|e| anyhow::anyhow!("cannot open the database {}: {e}", store::postgres::redact(url)))?;
    Ok(store::Store::Postgres(pg))
}

pub(crate) fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl Server {
    /// Locks and opens the database, resumes every unfinished game (bots
    /// included), binds and starts serving on the current Tokio runtime.
    pub async fn start(options: ServeOptions) -> anyhow::Result<Server> {
        let threads = options.bot_threads.unwrap_or_else(cores);
        let bot_workers = options.bot_workers.unwrap_or(threads);
        let (lock, store) = match &options.db {
            Database::Sqlite(path) => {
                let (lock, store) = open_sqlite(path.clone()).await?;
                (Some(lock), store)
            }
            // Requests (each holds one for a statement), and the bot loops.
            Database::Postgres(url) => {
                (None, open_postgres(url, 16 + worker::loops(bot_workers), options.db_timeouts).await?)
            }
        };
        let shared = store.shared();
        let mut limits = options.limits;
        limits.connections = net::connection_cap(limits.connections);
        if limits.ping_interval >= limits.idle_timeout {
            tracing::warn!(
                ping_interval = ?limits.ping_interval,
                idle_timeout = ?limits.idle_timeout,
                "the idle timeout is not above the ping interval: quiet WebSockets will be closed"
            );
        }
        let hub = Hub::open(store, bots::BotPool::new(threads, &limits))
            .await
            .map_err(|e| anyhow::anyhow!("cannot resume the games: {e}: {}", e.cause().unwrap_or("-")))?;
        let listener = tokio::net::TcpListener::bind(options.addr)
            .await
            .with_context(|| format!("cannot listen on {}", options.addr))?;
        let addr = listener.local_addr()?;
        let guard = limits::Guard::with_proxies(limits, options.trusted_proxies.clone());
        let (stop, stopped) = watch::channel(false);
        let workers = (shared && bot_workers > 0).then(|| {
            let options = worker::WorkerOptions {
                threads: bot_workers,
                lease: options.job_timeout,
                name: worker::default_name(),
            };
            tokio::spawn(worker::run(hub.clone(), options, stopped.clone()))
        });
        let accounts = Arc::new(accounts::Accounts::new(options.secure_cookies));
        let app = http::router(hub.clone(), options.assets.clone(), guard.clone(), accounts, stopped.clone());
        let task = tokio::spawn({
            let guard = guard.clone();
            async move {
                let forgetting = guard.clone();
                let forget = tokio::spawn(async move {
                    let mut every = tokio::time::interval(std::time::Duration::from_secs(60));
                    loop {
                        every.tick().await;
                        forgetting.forget_idle();
                    }
                });
                net::serve(listener, app, guard, stopped).await;
                forget.abort();
            }
        });
        let kind = if shared { "postgres" } else { "sqlite" };
        tracing::info!(addr = %addr, version = VERSION, store = kind, db = %options.db.describe(), bot_threads = threads, "listening");
        Ok(Server { addr, hub, stop, task: Some(task), _lock: lock, workers })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    pub fn hub(&self) -> &Arc<Hub> {
        &self.hub
    }

    /// Stops accepting connections, closes the WebSockets and waits (a few
    /// seconds at most) for open requests to finish. Every acknowledged
    /// action is already stored.
    pub async fn shutdown(mut self) -> anyhow::Result<()> {
        tracing::info!(addr = %self.addr, "stopping");
        self.hub.stop_reviews();
        let _ = self.stop.send(true);
        if let Some(task) = self.task.take() {
            task.await?;
        }
        if let Some(workers) = self.workers.take() {
            workers.await?;
        }
        tracing::info!(addr = %self.addr, "stopped");
        Ok(())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.hub.stop_reviews();
        let _ = self.stop.send(true);
    }
}

/// Runs the server until Ctrl-C (or SIGTERM), printing where it listens.
pub async fn serve(options: ServeOptions) -> anyhow::Result<()> {
    let db = options.db.describe();
    let server = Server::start(options).await?;
    println!("Carcassonne server on http://{} (database {db})", server.local_addr());
    stop_signal().await?;
    server.shutdown().await
}

/// Ctrl-C, or SIGTERM (what service managers send).
async fn stop_signal() -> anyhow::Result<()> {
    #[cfg(unix)]
    {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .context("cannot wait for SIGTERM")?;
        tokio::select! {
            c = tokio::signal::ctrl_c() => c.context("cannot wait for Ctrl-C"),
            _ = term.recv() => Ok(()),
        }
    }
    #[cfg(not(unix))]
    tokio::signal::ctrl_c().await.context("cannot wait for Ctrl-C")
}

/// As [`serve`], on a runtime of its own: for callers without one.
pub fn run(options: ServeOptions) -> anyhow::Result<()> {
    tokio::runtime::Builder::new_multi_thread().enable_all().build()?.block_on(serve(options))
}

/// How to run a bot worker (`carcassonne bot-worker`).
#[derive(Clone, Debug)]
pub struct WorkerRun {
    /// The PostgreSQL URL.
    pub url: String,
    /// How long the database may take.
    pub db_timeouts: DbTimeouts,
    pub worker: worker::WorkerOptions,
    /// The bots' limits (their bot seconds per hour, the budgets).
    pub limits: Limits,
}

/// Runs bot loops on the queue in PostgreSQL until Ctrl-C (or SIGTERM),
/// then lets each finish the decision it is making.
pub async fn work(run: WorkerRun) -> anyhow::Result<()> {
    let store = open_postgres(&run.url, worker::loops(run.worker.threads) + 4, run.db_timeouts).await?;
    let hub = Hub::open(store, bots::BotPool::new(run.worker.threads, &run.limits))
        .await
        .map_err(|e| anyhow::anyhow!("cannot start: {e}: {}", e.cause().unwrap_or("-")))?;
    let (stop, stopped) = watch::channel(false);
    let loops = tokio::spawn(worker::run(hub, run.worker.clone(), stopped));
    println!(
        "Carcassonne bot worker {} on {} ({} searches at once)",
        run.worker.name,
        store::postgres::redact(&run.url),
        run.worker.threads
    );
    stop_signal().await?;
    tracing::info!("stopping: finishing the decisions being made");
    let _ = stop.send(true);
    loops.await?;
    tracing::info!("stopped");
    Ok(())
}

/// As [`work`], on a runtime of its own.
pub fn run_worker(run: WorkerRun) -> anyhow::Result<()> {
    tokio::runtime::Builder::new_multi_thread().enable_all().build()?.block_on(work(run))
}
