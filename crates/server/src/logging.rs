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
