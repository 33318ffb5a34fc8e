//! Log output, installed by the binaries (`carcassonne serve` and
//! `carcassonne-server`), never by the library: a program embedding the
//! server keeps its own subscriber.
//!
//! Lines go to standard error (standard output carries the one line that
//! says where the server listens). The level comes from `RUST_LOG`
//! (default `info`), in `tracing-subscriber`'s `EnvFilter` syntax.

use std::io::IsTerminal;

use anyhow::Context;
use tracing_subscriber::filter::{EnvFilter, LevelFilter};

/// The form of log lines.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LogFormat {
    /// One human-readable line per event.
    #[default]
    Text,
    /// One JSON object per line, its fields at the top level.
    Json,
}

/// Installs the process's log subscriber.
pub fn init(format: LogFormat) -> anyhow::Result<()> {
    let filter = EnvFilter::builder()
        .with_default_directive(LevelFilter::INFO.into())
        .from_env()
        .context("RUST_LOG is not a valid log filter")?;
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    let installed = match format {
        LogFormat::Text => builder.with_ansi(std::io::stderr().is_terminal()).try_init(),
        LogFormat::Json => builder.json().flatten_event(true).with_current_span(false).try_init(),
    };
    installed.map_err(|e| anyhow::anyhow!("cannot install the log output: {e}"))
}

/// Lines of one kind written at most this often in a burst…
const BURST: u32 = 5;
/// …within this window; the others are counted, and the next line written
/// says how many were left out (`repeated`).
const WINDOW: std::time::Duration = std::time::Duration::from_secs(10);

struct Window {
    since: std::time::Instant,
    written: u32,
    left_out: u64,
}

/// Whether a line of `kind` is to be written now; if so, how many of its
/// kind were left out before it.
pub fn throttle(kind: &'static str) -> Option<u64> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static KINDS: OnceLock<Mutex<HashMap<&'static str, Window>>> = OnceLock::new();
    let mut kinds = KINDS.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    let now = std::time::Instant::now();
    let w = kinds.entry(kind).or_insert(Window { since: now, written: 0, left_out: 0 });
    if now.duration_since(w.since) >= WINDOW {
        w.since = now;
        w.written = 0;
    }
    if w.written >= BURST {
        w.left_out += 1;
        return None;
    }
    w.written += 1;
    Some(std::mem::take(&mut w.left_out))
}

/// A cause on one line (PostgreSQL's `DETAIL:` text has line breaks).
pub fn one_line(text: &str) -> String {
    text.split(['\n', '\r']).map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" | ")
}

/// A warning of `kind` about `game` (`-` for none), rate-limited.
pub fn warn_throttled(kind: &'static str, message: impl std::fmt::Display, game: &str, error: Option<&str>) {
    if let Some(repeated) = throttle(kind) {
        let error = error.map(one_line);
        tracing::warn!(game = %game, error, repeated, "{message}");
    }
}

/// An error of `kind` about `game`, rate-limited.
pub fn error_throttled(kind: &'static str, message: impl std::fmt::Display, game: &str, error: Option<&str>) {
    if let Some(repeated) = throttle(kind) {
        let error = error.map(one_line);
        tracing::error!(game = %game, error, repeated, "{message}");
    }
}

/// A request that failed (a 5xx), rate-limited, with its id and cause.
#[allow(clippy::too_many_arguments)]
pub fn request_failed(
    class: &str,
    status: u16,
    method: &str,
    path: &str,
    peer: &str,
    game: &str,
    request: &str,
    cause: Option<&str>,
    message: &str,
) {
    if let Some(repeated) = throttle("request_failed") {
        let cause = cause.map(one_line);
        tracing::error!(class, status, method, path, peer, game, request, cause, repeated, "request failed: {message}");
    }
}
