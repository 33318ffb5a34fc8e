//! The command-line options of the server, shared by `carcassonne serve`
//! and the `carcassonne-server` binary.

use std::net::SocketAddr;
use std::path::PathBuf;

use crate::{Limits, ServeOptions};

/// Options of `carcassonne serve` (and of `carcassonne-server`).
#[derive(clap::Args, Clone, Debug)]
pub struct ServeArgs {
    /// Where to listen.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// The SQLite database file, created and migrated on first start.
    #[arg(long, default_value = "carcassonne.db")]
    pub db: PathBuf,
    /// Serve the UI from this folder instead of the copy built into the
    /// program (for working on the UI).
    #[arg(long, value_name = "DIR")]
    pub assets: Option<PathBuf>,
    /// Bot decisions computed at once (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=4096))]
    pub bot_threads: Option<usize>,
    /// API requests a second one client address may make (bursts of three
    /// times as many). Behind a reverse proxy all clients share its address.
    #[arg(long, value_name = "N", default_value_t = Limits::default().requests_per_second,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub requests_per_second: u32,
    /// Games one client address may create a minute.
    #[arg(long, value_name = "N", default_value_t = Limits::default().games_per_minute,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub games_per_minute: u32,
    /// Live WebSocket connections over all games.
    #[arg(long, value_name = "N", default_value_t = Limits::default().sockets,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1 << 28))]
    pub max_sockets: usize,
    /// Live WebSocket connections on one game.
    #[arg(long, value_name = "N", default_value_t = Limits::default().sockets_per_game,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1 << 28))]
    pub max_sockets_per_game: usize,
    /// Live WebSocket connections from one client address.
    #[arg(long, value_name = "N", default_value_t = Limits::default().sockets_per_address,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1 << 28))]
    pub max_sockets_per_address: usize,
    /// Messages a second one WebSocket connection may send (bursts of three
    /// times as many).
    #[arg(long, value_name = "N", default_value_t = Limits::default().messages_per_second,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub messages_per_second: u32,
}

impl ServeArgs {
    pub fn options(&self) -> ServeOptions {
        ServeOptions {
            addr: self.addr,
            db_path: self.db.clone(),
            assets: self.assets.clone(),
            bot_threads: self.bot_threads,
            limits: Limits {
                requests_per_second: self.requests_per_second,
                games_per_minute: self.games_per_minute,
                sockets: self.max_sockets,
                sockets_per_game: self.max_sockets_per_game,
                sockets_per_address: self.max_sockets_per_address,
                messages_per_second: self.messages_per_second,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: ServeArgs,
    }

    fn parse(args: &[&str]) -> Result<ServeOptions, String> {
        Cli::try_parse_from(std::iter::once("serve").chain(args.iter().copied()))
            .map(|c| c.args.options())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn the_defaults_are_the_library_defaults() {
        let o = parse(&[]).unwrap();
        let d = ServeOptions::default();
        assert_eq!(
            (o.addr, o.db_path, o.assets, o.bot_threads, o.limits),
            (d.addr, d.db_path, d.assets, d.bot_threads, d.limits)
        );
    }

    #[test]
    fn options_are_read_and_bad_values_refused() {
        let o = parse(&["--addr", "0.0.0.0:9000", "--db", "x.db", "--games-per-minute", "5", "--max-sockets", "10"])
            .unwrap();
        assert_eq!(o.addr.port(), 9000);
        assert_eq!(o.db_path, PathBuf::from("x.db"));
        assert_eq!((o.limits.games_per_minute, o.limits.sockets), (5, 10));
        assert!(parse(&["--max-sockets", "0"]).unwrap_err().contains("--max-sockets"));
        assert!(parse(&["--bot-threads", "0"]).unwrap_err().contains("--bot-threads"));
        assert!(parse(&["--addr", "nowhere"]).unwrap_err().contains("--addr"));
        assert!(parse(&["--port", "1"]).unwrap_err().contains("--port"));
    }
}
