//! The command-line options of the server, shared by `carcassonne serve`
//! and the `carcassonne-server` binary.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use crate::limits::Cidr;
use crate::logging::LogFormat;
use crate::{Database, DbTimeouts, Limits, ServeOptions};

/// A count of at least one.
fn count() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1 << 28)
}

/// Seconds, fractions allowed: `10`, `0.5`. (The defaults are written out
/// in the options; a test checks that they are the library's.)
fn seconds(text: &str) -> Result<Duration, String> {
    let s: f64 = text.parse().map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !(0.001..=86_400.0).contains(&s) {
        return Err(format!("{s} s is not between 0.001 s and a day"));
    }
    Ok(Duration::from_secs_f64(s))
}

/// How long PostgreSQL may take, for servers and workers alike.
#[derive(clap::Args, Clone, Debug)]
pub struct DbArgs {
    /// With PostgreSQL: seconds a statement may run (`statement_timeout`;
    /// the program stops waiting for an answer after it too). A database
    /// that takes longer is answered `503 unavailable`.
    #[arg(long, value_name = "SECS", default_value = "3", value_parser = seconds)]
    pub db_statement_timeout: Duration,
    /// With PostgreSQL: seconds a request waits for a free connection, or
    /// for a new one to be made.
    #[arg(long, value_name = "SECS", default_value = "2", value_parser = seconds)]
    pub db_pool_wait: Duration,
    /// With PostgreSQL: seconds to wait at start for a database that cannot
    /// be reached (retrying with backoff) before giving up.
    #[arg(long, value_name = "SECS", default_value = "60", value_parser = seconds)]
    pub db_start_wait: Duration,
}

impl DbArgs {
    pub fn timeouts(&self) -> DbTimeouts {
        DbTimeouts {
            statement: self.db_statement_timeout,
            pool_wait: self.db_pool_wait,
            start_wait: self.db_start_wait,
        }
    }
}

/// Options of `carcassonne serve` (and of `carcassonne-server`).
#[derive(clap::Args, Clone, Debug)]
pub struct ServeArgs {
    /// Where to listen.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// The database: a SQLite file, created and migrated on first start,
    /// or a PostgreSQL URL (`postgres://user:password@host/dbname`),
    /// migrated at start, which several servers may share (docs/deploy.md).
    #[arg(long, value_name = "FILE|URL", default_value = "carcassonne.db")]
    pub db: Database,
    /// Serve the UI from this folder instead of the copy built into the
    /// program (for working on the UI).
    #[arg(long, value_name = "DIR")]
    pub assets: Option<PathBuf>,
    /// Bot decisions computed at once (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=4096))]
    pub bot_threads: Option<usize>,
    /// With PostgreSQL: bot decisions this server takes from the queue and
    /// makes itself at once (default: as many as bot threads); 0 leaves
    /// them all to `carcassonne bot-worker` processes.
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=4096))]
    pub bot_workers: Option<usize>,
    /// With PostgreSQL: how long a claim on a bot decision lasts; a worker
    /// that dies holding one leaves it to another after this long.
    #[arg(long, value_name = "SECS", default_value = "30", value_parser = seconds)]
    pub job_timeout: Duration,
    #[command(flatten)]
    pub database: DbArgs,
    /// API requests a second one client address may make (bursts of three
    /// times as many). Behind a reverse proxy all clients share its address.
    #[arg(long, value_name = "N", default_value_t = Limits::default().requests_per_second,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub requests_per_second: u32,
    /// Games one client address may create a minute.
    #[arg(long, value_name = "N", default_value_t = Limits::default().games_per_minute,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub games_per_minute: u32,
    /// Spectators' live WebSocket connections over all games.
    #[arg(long, value_name = "N", default_value_t = Limits::default().sockets, value_parser = count())]
    pub max_sockets: usize,
    /// Spectators' live WebSocket connections on one game (a seat's own
    /// connections are never refused).
    #[arg(long, value_name = "N", default_value_t = Limits::default().sockets_per_game, value_parser = count())]
    pub max_sockets_per_game: usize,
    /// Spectators' live WebSocket connections from one client address.
    #[arg(long, value_name = "N", default_value_t = Limits::default().sockets_per_address, value_parser = count())]
    pub max_sockets_per_address: usize,
    /// Live WebSocket connections of one seat; one more replaces its oldest.
    #[arg(long, value_name = "N", default_value_t = Limits::default().sockets_per_seat, value_parser = count())]
    pub max_sockets_per_seat: usize,
    /// Messages a second one WebSocket connection may send (bursts of three
    /// times as many).
    #[arg(long, value_name = "N", default_value_t = Limits::default().messages_per_second,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub messages_per_second: u32,
    /// Open TCP connections over all addresses (lowered to what the file
    /// descriptor limit leaves room for).
    #[arg(long, value_name = "N", default_value_t = Limits::default().connections, value_parser = count())]
    pub max_connections: usize,
    /// Open TCP connections from one client address.
    #[arg(long, value_name = "N", default_value_t = Limits::default().connections_per_address, value_parser = count())]
    pub max_connections_per_address: usize,
    /// Seconds for a request's line and headers to arrive (also how long an
    /// idle keep-alive connection is kept).
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = seconds)]
    pub header_timeout: Duration,
    /// Seconds for a request's body to arrive.
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = seconds)]
    pub body_timeout: Duration,
    /// Seconds after which a connection that receives nothing is closed
    /// (WebSockets too: keep it above --ping-interval).
    #[arg(long, value_name = "SECS", default_value = "60", value_parser = seconds)]
    pub idle_timeout: Duration,
    /// Seconds a write to a client that reads nothing may stay blocked
    /// before its connection is closed.
    #[arg(long, value_name = "SECS", default_value = "20", value_parser = seconds)]
    pub write_timeout: Duration,
    /// Seconds between the server's pings on a WebSocket.
    #[arg(long, value_name = "SECS", default_value = "20", value_parser = seconds)]
    pub ping_interval: Duration,
    /// Seconds a WebSocket has to answer a ping before it is closed.
    #[arg(long, value_name = "SECS", default_value = "20", value_parser = seconds)]
    pub pong_timeout: Duration,
    /// Longest search time a bot seat may ask for (`mcts:ms=N`), in
    /// milliseconds; a game asking for more is refused.
    #[arg(long, value_name = "MS", default_value_t = Limits::default().bot_ms,
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub max_bot_ms: u64,
    /// Most search iterations a bot seat may ask for (`mcts:iters=N`).
    #[arg(long, value_name = "N", default_value_t = Limits::default().bot_iterations,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_bot_iterations: u32,
    /// Seconds of bot thinking the games of one client address may use an
    /// hour; past it their search bots play greedily.
    #[arg(long, value_name = "SECS", default_value_t = Limits::default().bot_seconds_per_hour,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub bot_seconds_per_hour: u32,
    /// Search decisions waiting for a bot thread, over all games; when
    /// full, games with search bots are refused.
    #[arg(long, value_name = "N", default_value_t = Limits::default().bot_queue, value_parser = count())]
    pub bot_queue: usize,
    /// Search decisions waiting for a bot thread, from the games of one
    /// client address.
    #[arg(long, value_name = "N", default_value_t = Limits::default().bot_queue_per_address, value_parser = count())]
    pub bot_queue_per_address: usize,
    /// Milliseconds of search for each decision of a game's review (the
    /// "Review" of a finished game; docs/analysis.md).
    #[arg(long, value_name = "MS", default_value_t = Limits::default().review_ms,
          value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub review_ms: u64,
    /// Milliseconds of search for a hint (the strongest bot's choice, in a
    /// game created with hints), charged to the asking address's bot time.
    #[arg(long, value_name = "MS", default_value_t = Limits::default().hint_ms,
          value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub hint_ms: u64,
    /// Chat messages a minute one seat may send (bursts of 5); one address
    /// may send twice as many.
    #[arg(long, value_name = "N", default_value_t = Limits::default().chat_per_minute,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub chat_per_minute: u32,
    /// Password checks (sign-ins, new accounts, password changes, account
    /// deletions) one client address may ask for a minute.
    #[arg(long, value_name = "N", default_value_t = Limits::default().sign_ins_per_minute,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub sign_ins_per_minute: u32,
    /// Failed sign-ins one account name may have in 15 minutes (counted in
    /// the database, by every server alike); then it waits.
    #[arg(long, value_name = "N", default_value_t = Limits::default().sign_in_failures_per_name,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub sign_in_failures_per_name: u32,
    /// A proxy (an address or a CIDR block, such as 10.0.0.0/8) whose
    /// X-Forwarded-For header names the client; repeat it or separate
    /// blocks with commas. From other peers the header is ignored.
    #[arg(long = "trusted-proxy", value_name = "CIDR", value_delimiter = ',')]
    pub trusted_proxies: Vec<Cidr>,
    /// Send the session cookie without `Secure`: only for a server reached
    /// over plain HTTP from other machines, or a browser that keeps no
    /// `Secure` cookie from http://localhost (docs/deploy.md, Accounts).
    #[arg(long)]
    pub insecure_cookies: bool,
    /// Log lines as text or as JSON objects (on standard error; the level
    /// comes from RUST_LOG, default info).
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

impl ServeArgs {
    pub fn options(&self) -> ServeOptions {
        ServeOptions {
            addr: self.addr,
            db: self.db.clone(),
            assets: self.assets.clone(),
            bot_threads: self.bot_threads,
            bot_workers: self.bot_workers,
            job_timeout: self.job_timeout,
            db_timeouts: self.database.timeouts(),
            trusted_proxies: self.trusted_proxies.clone(),
            secure_cookies: !self.insecure_cookies,
            limits: Limits {
                requests_per_second: self.requests_per_second,
                games_per_minute: self.games_per_minute,
                sockets: self.max_sockets,
                sockets_per_game: self.max_sockets_per_game,
                sockets_per_address: self.max_sockets_per_address,
                sockets_per_seat: self.max_sockets_per_seat,
                messages_per_second: self.messages_per_second,
                connections: self.max_connections,
                connections_per_address: self.max_connections_per_address,
                header_timeout: self.header_timeout,
                body_timeout: self.body_timeout,
                idle_timeout: self.idle_timeout,
                write_timeout: self.write_timeout,
                ping_interval: self.ping_interval,
                pong_timeout: self.pong_timeout,
                bot_ms: self.max_bot_ms,
                bot_iterations: self.max_bot_iterations,
                bot_seconds_per_hour: self.bot_seconds_per_hour,
                bot_queue: self.bot_queue,
                bot_queue_per_address: self.bot_queue_per_address,
                review_ms: self.review_ms,
                hint_ms: self.hint_ms,
                chat_per_minute: self.chat_per_minute,
                sign_ins_per_minute: self.sign_ins_per_minute,
                sign_in_failures_per_name: self.sign_in_failures_per_name,
            },
        }
    }
}

/// Options of `carcassonne bot-worker`.
#[derive(clap::Args, Clone, Debug)]
pub struct WorkerArgs {
    /// The PostgreSQL database of the servers (`postgres://user:password@host/dbname`).
    #[arg(long, value_name = "URL")]
    pub db: String,
    /// Bot decisions made at once (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=4096))]
    pub threads: Option<usize>,
    /// How long a claim on a decision lasts; if this worker dies holding
    /// one, another takes it after this long. Above the longest search.
    #[arg(long, value_name = "SECS", default_value = "30", value_parser = seconds)]
    pub job_timeout: Duration,
    /// The name this worker's claims are made under (default: host-pid).
    #[arg(long)]
    pub name: Option<String>,
    #[command(flatten)]
    pub database: DbArgs,
    /// Seconds of bot thinking the games of one client address may use an
    /// hour (as the servers' option); past it their search bots play greedily.
    #[arg(long, value_name = "SECS", default_value_t = Limits::default().bot_seconds_per_hour,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub bot_seconds_per_hour: u32,
    /// Milliseconds of search for each decision of a review this worker
    /// makes (the servers queue the reviews asked of them; docs/analysis.md).
    #[arg(long, value_name = "MS", default_value_t = Limits::default().review_ms,
          value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub review_ms: u64,
    /// How the log is written on standard error (`text` or `json`).
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

impl WorkerArgs {
    pub fn options(&self) -> Result<crate::WorkerRun, String> {
        if !matches!(Database::parse(&self.db), Database::Postgres(_)) {
            return Err(format!(
                "--db {}: bot workers share a PostgreSQL database with the servers (postgres://...); \
                 a server on SQLite runs its bots itself",
                self.db
            ));
        }
        let threads = self.threads.unwrap_or_else(crate::cores);
        Ok(crate::WorkerRun {
            url: self.db.clone(),
            db_timeouts: self.database.timeouts(),
            worker: crate::worker::WorkerOptions {
                threads,
                lease: self.job_timeout,
                name: self.name.clone().unwrap_or_else(crate::worker::default_name),
            },
            limits: Limits {
                bot_seconds_per_hour: self.bot_seconds_per_hour,
                review_ms: self.review_ms,
                ..Limits::default()
            },
        })
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
            (o.addr, o.db, o.assets, o.bot_threads, o.limits, o.bot_workers, o.job_timeout),
            (d.addr, d.db, d.assets, d.bot_threads, d.limits, d.bot_workers, d.job_timeout)
        );
        assert_eq!(o.db_timeouts, d.db_timeouts);
        assert_eq!((o.trusted_proxies, o.secure_cookies), (d.trusted_proxies, d.secure_cookies));
        assert!(o.secure_cookies, "cookies are Secure unless told otherwise");
    }

    #[test]
    fn trusted_proxies_and_cookies_are_options() {
        let o =
            parse(&["--trusted-proxy", "10.0.0.0/8,192.0.2.1", "--trusted-proxy=2001:db8::/32", "--insecure-cookies"])
                .unwrap();
        let shown: Vec<String> = o.trusted_proxies.iter().map(|c| c.to_string()).collect();
        assert_eq!(shown, ["10.0.0.0/8", "192.0.2.1/32", "2001:db8::/32"]);
        assert!(!o.secure_cookies);
        assert!(parse(&["--trusted-proxy", "10.0.0.0/40"]).unwrap_err().contains("--trusted-proxy"));
        let l = parse(&["--sign-ins-per-minute", "3", "--sign-in-failures-per-name", "4"]).unwrap().limits;
        assert_eq!((l.sign_ins_per_minute, l.sign_in_failures_per_name), (3, 4));
    }

    #[test]
    fn the_database_timeouts_are_options() {
        let o = parse(&["--db-statement-timeout", "1.5", "--db-pool-wait", "0.5", "--db-start-wait", "9"]).unwrap();
        let s = Duration::from_secs_f64;
        assert_eq!(o.db_timeouts, DbTimeouts { statement: s(1.5), pool_wait: s(0.5), start_wait: s(9.0) });
        assert!(parse(&["--db-pool-wait", "0"]).unwrap_err().contains("--db-pool-wait"));
    }

    #[test]
    fn options_are_read_and_bad_values_refused() {
        let o = parse(&["--addr", "0.0.0.0:9000", "--db", "x.db", "--games-per-minute", "5", "--max-sockets", "10"])
            .unwrap();
        assert_eq!(o.addr.port(), 9000);
        assert_eq!(o.db, Database::Sqlite(PathBuf::from("x.db")));
        let pg = parse(&["--db", "postgres://u:pw@db/games", "--bot-workers", "0", "--job-timeout", "5"]).unwrap();
        assert_eq!(pg.db, Database::Postgres("postgres://u:pw@db/games".into()));
        assert_eq!((pg.bot_workers, pg.job_timeout), (Some(0), Duration::from_secs(5)));
        assert!(!format!("{:?}", pg.db).contains("pw"), "the password stays out of debug output");
        assert_eq!((o.limits.games_per_minute, o.limits.sockets), (5, 10));
        assert!(parse(&["--max-sockets", "0"]).unwrap_err().contains("--max-sockets"));
        assert!(parse(&["--bot-threads", "0"]).unwrap_err().contains("--bot-threads"));
        assert!(parse(&["--addr", "nowhere"]).unwrap_err().contains("--addr"));
        assert!(parse(&["--port", "1"]).unwrap_err().contains("--port"));
    }

    #[test]
    fn every_protection_has_its_option() {
        let o = parse(&[
            "--max-connections=7",
            "--max-connections-per-address=3",
            "--max-sockets-per-seat=2",
            "--header-timeout=0.5",
            "--body-timeout=2",
            "--idle-timeout=30",
            "--write-timeout=4",
            "--ping-interval=5",
            "--pong-timeout=6",
            "--max-bot-ms=900",
            "--max-bot-iterations=1000",
            "--bot-seconds-per-hour=60",
            "--bot-queue=9",
            "--bot-queue-per-address=2",
        ])
        .unwrap();
        let l = o.limits;
        assert_eq!((l.connections, l.connections_per_address, l.sockets_per_seat), (7, 3, 2));
        let s = Duration::from_secs_f64;
        assert_eq!(
            [l.header_timeout, l.body_timeout, l.idle_timeout, l.write_timeout, l.ping_interval, l.pong_timeout],
            [s(0.5), s(2.0), s(30.0), s(4.0), s(5.0), s(6.0)]
        );
        assert_eq!((l.bot_ms, l.bot_iterations, l.bot_seconds_per_hour), (900, 1000, 60));
        assert_eq!((l.bot_queue, l.bot_queue_per_address), (9, 2));
        assert!(parse(&["--header-timeout", "0"]).unwrap_err().contains("--header-timeout"));
        assert!(parse(&["--idle-timeout", "soon"]).unwrap_err().contains("--idle-timeout"));
        let cli = Cli::try_parse_from(["serve", "--log-format", "json"]).map_err(|e| e.to_string()).unwrap();
        assert_eq!(cli.args.log_format, LogFormat::Json);
        assert!(Cli::try_parse_from(["serve", "--log-format", "xml"]).is_err());
    }
}
