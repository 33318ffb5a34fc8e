//! The server of the browser game: a JSON API and WebSockets over the rules
//! engine, games stored in SQLite, bots playing their seats on the server,
//! and the browser UI embedded in the binary. See `docs/api.md`.
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

pub mod args;
pub mod assets;
pub mod error;
pub mod http;
pub mod hub;
pub mod limits;
pub mod live;
pub mod store;
pub mod wire;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub use args::ServeArgs;
pub use error::ApiError;
pub use hub::Hub;
pub use limits::Limits;

/// How to run the server.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// Where to listen; port 0 picks a free port.
    pub addr: SocketAddr,
    /// The SQLite file, created and migrated if need be.
    pub db_path: PathBuf,
    /// Serve the UI from this directory instead of the embedded copy (for UI work).
    pub assets: Option<PathBuf>,
    /// Bot decisions computed at once; by default one per core.
    pub bot_threads: Option<usize>,
    /// What one client may ask (see [`Limits`]).
    pub limits: Limits,
}

impl Default for ServeOptions {
    fn default() -> ServeOptions {
        ServeOptions {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db_path: PathBuf::from("carcassonne.db"),
            assets: None,
            bot_threads: None,
            limits: Limits::default(),
        }
    }
}

/// A running server.
pub struct Server {
    addr: SocketAddr,
    hub: Arc<Hub>,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<std::io::Result<()>>,
}

impl Server {
    /// Opens the database, resumes every unfinished game (bots included),
    /// binds and starts serving on the current Tokio runtime.
    pub async fn start(options: ServeOptions) -> anyhow::Result<Server> {
        let path = options.db_path.clone();
        let store = tokio::task::spawn_blocking(move || store::Store::open(&path)).await?.map_err(|e| {
            let path = &options.db_path;
            anyhow::anyhow!("cannot open the database {}: {}", path.display(), e.reason_for(path))
        })?;
        let threads =
            options.bot_threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let hub = Hub::open(store, threads).await.map_err(|e| anyhow::anyhow!("cannot resume the games: {e}"))?;
        let listener = tokio::net::TcpListener::bind(options.addr)
            .await
            .with_context(|| format!("cannot listen on {}", options.addr))?;
        let addr = listener.local_addr()?;
        let guard = limits::Guard::new(options.limits);
        let app = http::router(hub.clone(), options.assets.clone(), guard.clone());
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            let forget = tokio::spawn(async move {
                let mut every = tokio::time::interval(std::time::Duration::from_secs(60));
                loop {
                    every.tick().await;
                    guard.forget_idle();
                }
            });
            let served = axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>())
                .with_graceful_shutdown(async {
                    let _ = stopped.await;
                })
                .await;
            forget.abort();
            served
        });
        tracing::info!("listening on http://{addr}");
        Ok(Server { addr, hub, stop: Some(stop), task })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    pub fn hub(&self) -> &Arc<Hub> {
        &self.hub
    }

    /// Stops accepting connections and waits for open requests to finish.
    /// Every acknowledged action is already stored.
    pub async fn shutdown(mut self) -> anyhow::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        (&mut self.task).await??;
        Ok(())
    }
}

/// Runs the server until Ctrl-C, printing where it listens.
pub async fn serve(options: ServeOptions) -> anyhow::Result<()> {
    let db = options.db_path.clone();
    let server = Server::start(options).await?;
    println!("Carcassonne server on http://{} (database {})", server.local_addr(), db.display());
    tokio::signal::ctrl_c().await.context("cannot wait for Ctrl-C")?;
    server.shutdown().await
}

/// As [`serve`], on a runtime of its own: for callers without one.
pub fn run(options: ServeOptions) -> anyhow::Result<()> {
    tokio::runtime::Builder::new_multi_thread().enable_all().build()?.block_on(serve(options))
}
