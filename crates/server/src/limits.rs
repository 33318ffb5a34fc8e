//! What one client may ask of the server.
//!
//! The server trusts no client, and a client that floods it must not starve
//! the others: connections are capped in all and per client address and
//! must send their requests in time, API requests and new games are limited
//! per address, spectators' WebSocket connections are capped in all, per
//! game and per address (a seat's own connections never are), and each
//! connection may send only so many messages a second. A refusal is a typed
//! error (`rate_limited` with a `Retry-After`, or `busy`) and changes
//! nothing. The bots' share of the machine is in [`crate::bots`].
//!
//! The address is the TCP peer's; an IPv6 address counts by its /64 prefix,
//! the block one subscriber usually gets, so that a client cannot escape
//! its limits by changing the low bits. Behind a reverse proxy the server
//! is told to trust (`--trusted-proxy`), it is the address the proxy puts
//! in `X-Forwarded-For` ([`Guard::client_ip`]); from any other peer that
//! header is ignored, since a client could write anything in it.

use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, NotUntil, Quota, RateLimiter};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};

use crate::error::GameError;

/// The limits a server enforces; see the module documentation and
/// docs/api.md (the table of limits) for what each means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// API requests a second from one address (bursts of three times as many).
    pub requests_per_second: u32,
    /// Games one address may create a minute (all at once, at most).
    pub games_per_minute: u32,
    /// Spectators' WebSocket connections open at once, over all games.
    pub sockets: usize,
    /// Spectators' WebSocket connections open at once on one game.
    pub sockets_per_game: usize,
    /// Spectators' WebSocket connections open at once from one address.
    pub sockets_per_address: usize,
    /// WebSocket connections of one seat (its token shown); one more
    /// replaces the seat's oldest instead of being refused.
    pub sockets_per_seat: usize,
    /// Messages a second one WebSocket connection may send (bursts of
    /// three times as many).
    pub messages_per_second: u32,
    /// TCP connections open at once, over all addresses (lowered at start
    /// to what the process's file descriptor limit leaves room for).
    pub connections: usize,
    /// TCP connections open at once from one address.
    pub connections_per_address: usize,
    /// Time for a request's line and headers to arrive, counted from when
    /// the server waits for it (the connection's opening or the previous
    /// response).
    pub header_timeout: Duration,
    /// Time for a request's whole body to arrive.
    pub body_timeout: Duration,
    /// A connection that receives nothing for this long is closed
    /// (WebSockets included: their pongs count).
    pub idle_timeout: Duration,
    /// A write to a client that stays blocked this long (the client reads
    /// nothing) closes its connection.
    pub write_timeout: Duration,
    /// Time between the server's pings on a WebSocket.
    pub ping_interval: Duration,
    /// A WebSocket that has not answered a ping within this time is closed.
    pub pong_timeout: Duration,
    /// Longest search budget a bot seat may ask for, in milliseconds.
    pub bot_ms: u64,
    /// Most search iterations a bot seat may ask for.
    pub bot_iterations: u32,
    /// Bot thinking time, in seconds, the games of one address may use in
    /// an hour; past it their search bots play greedily.
    pub bot_seconds_per_hour: u32,
    /// Search decisions waiting for a bot thread, over all games.
    pub bot_queue: usize,
    /// Search decisions waiting for a bot thread, from the games of one address.
    pub bot_queue_per_address: usize,
    /// Milliseconds of search for each decision of a game's review
    /// (docs/analysis.md).
    pub review_ms: u64,
    /// Milliseconds of search for a hint during play (games created with
    /// hints; docs/analysis.md).
    pub hint_ms: u64,
    /// Chat messages a minute one seat may send (in bursts of
    /// [`CHAT_BURST`]); one address may send twice as many, whatever seats
    /// or spectators' names it speaks as.
    pub chat_per_minute: u32,
    /// Password checks (sign-ins, new accounts, password changes, account
    /// deletions) one address may ask for a minute, all at once at most.
    pub sign_ins_per_minute: u32,
    /// Failed sign-ins one name may have in [`SIGN_IN_WINDOW`], counted in
    /// the database (so by every server sharing it).
    pub sign_in_failures_per_name: u32,
}

/// The window over which failed sign-ins per name are counted.
pub const SIGN_IN_WINDOW: Duration = Duration::from_secs(15 * 60);

/// Chat messages one seat may send at once before its rate applies (at
/// the default rates; see `chat_quota`).
pub const CHAT_BURST: u32 = 5;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            requests_per_second: 100,
            games_per_minute: 30,
            sockets: 2048,
            sockets_per_game: 64,
            sockets_per_address: 32,
            sockets_per_seat: 4,
            messages_per_second: 20,
            connections: 4096,
            connections_per_address: 64,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            write_timeout: Duration::from_secs(20),
            ping_interval: Duration::from_secs(20),
            pong_timeout: Duration::from_secs(20),
            bot_ms: 5000,
            bot_iterations: 50_000,
            bot_seconds_per_hour: 1800,
            bot_queue: 256,
            bot_queue_per_address: 16,
            review_ms: carcassonne_bots::review::DEFAULT_MS,
            hint_ms: 1000,
            chat_per_minute: 20,
            sign_ins_per_minute: 20,
            sign_in_failures_per_name: 10,
        }
    }
}

impl Limits {
    /// Limits no test or load run reaches, for trusted use; the timeouts
    /// and the bots' budgets stay the defaults.
    pub fn unlimited() -> Limits {
        Limits {
            requests_per_second: u32::MAX / 4,
            games_per_minute: u32::MAX / 4,
            sockets: Semaphore::MAX_PERMITS,
            sockets_per_game: usize::MAX,
            sockets_per_address: usize::MAX,
            messages_per_second: u32::MAX / 4,
            connections: Semaphore::MAX_PERMITS,
            connections_per_address: usize::MAX,
            bot_seconds_per_hour: u32::MAX / 4,
            bot_queue: usize::MAX,
            bot_queue_per_address: usize::MAX,
            chat_per_minute: u32::MAX / 4,
            sign_ins_per_minute: u32::MAX / 4,
            sign_in_failures_per_name: u32::MAX / 4,
            ..Limits::default()
        }
    }
}

/// `k` times `n` chat messages a minute, in bursts of `k` times
/// [`CHAT_BURST`] (or five seconds' worth at a rate so high that those
/// would hold it back).
fn chat_quota(n: u32, k: u32) -> Quota {
    let n = n.saturating_mul(k);
    let burst = CHAT_BURST.saturating_mul(k).max(n / 12);
    let n = NonZeroU32::new(n.max(1)).unwrap_or(NonZeroU32::MIN);
    Quota::per_minute(n).allow_burst(NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN))
}

fn per_second(n: u32) -> Quota {
    let n = NonZeroU32::new(n.max(1)).unwrap_or(NonZeroU32::MIN);
    let burst = n.saturating_mul(NonZeroU32::new(3).unwrap_or(NonZeroU32::MIN));
    Quota::per_second(n).allow_burst(burst)
}

/// The counters behind [`Limits`], shared by every request.
pub struct Guard {
    limits: Limits,
    requests: DefaultKeyedRateLimiter<IpAddr>,
    games: DefaultKeyedRateLimiter<IpAddr>,
    sockets: Arc<Semaphore>,
    per_game: Counts<String>,
    per_address: Counts<IpAddr>,
    seats: Mutex<HashMap<(String, usize), SeatSockets>>,
    seat_sockets: AtomicU64,
    connections: Arc<Semaphore>,
    connections_per_address: Counts<IpAddr>,
    chat_seats: DefaultKeyedRateLimiter<(String, usize)>,
    chat_addresses: DefaultKeyedRateLimiter<IpAddr>,
    /// Password checks per address.
    sign_ins: DefaultKeyedRateLimiter<IpAddr>,
    /// Peers whose `X-Forwarded-For` names the client.
    proxies: Vec<Cidr>,
}

/// A block of addresses, `203.0.113.0/24` or `2001:db8::/32` (or one
/// address): the proxies the server trusts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    addr: IpAddr,
    bits: u8,
}

impl std::str::FromStr for Cidr {
    type Err = String;
    fn from_str(s: &str) -> Result<Cidr, String> {
        let (addr, bits) = match s.split_once('/') {
            Some((a, b)) => (a, Some(b)),
            None => (s, None),
        };
        let addr: IpAddr = addr.trim().parse().map_err(|_| format!("'{s}' is no address or CIDR block"))?;
        let addr = addr.to_canonical();
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let bits = match bits {
            None => max,
            Some(b) => match b.trim().parse::<u8>() {
                Ok(n) if n <= max => n,
                _ => return Err(format!("'{s}': a prefix length is 0 to {max}")),
            },
        };
        Ok(Cidr { addr, bits })
    }
}

impl std::fmt::Display for Cidr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.addr, self.bits)
    }
}

impl Cidr {
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.addr, ip.to_canonical()) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = if self.bits == 0 { 0 } else { u32::MAX << (32 - u32::from(self.bits)) };
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = if self.bits == 0 { 0 } else { u128::MAX << (128 - u32::from(self.bits)) };
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

/// The client's address of a request, as [`client_address`] found it: the
/// peer's, or behind a trusted proxy the one it forwarded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientAddr(pub IpAddr);

/// A seat's open WebSocket connections, oldest first: an id and how to
/// tell it to close.
type SeatSockets = VecDeque<(u64, Arc<Notify>)>;

/// Open connections per key, each entry gone when its count is back to 0.
struct Counts<K>(Mutex<HashMap<K, usize>>);

impl<K: std::hash::Hash + Eq + Clone> Counts<K> {
    fn new() -> Counts<K> {
        Counts(Mutex::new(HashMap::new()))
    }

    /// Counts one more for `key`, unless it already has `max`.
    fn add(&self, key: &K, max: usize) -> bool {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let open = map.get(key).copied().unwrap_or(0);
        if open >= max {
            return false;
        }
        map.insert(key.clone(), open + 1);
        true
    }

    fn remove(&self, key: &K) {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(open) = map.get_mut(key) {
            *open -= 1;
            if *open == 0 {
                map.remove(key);
            }
        }
    }
}

/// The key of a client address: itself, or its /64 prefix for IPv6.
pub fn client_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6((u128::from(v6) & !((1u128 << 64) - 1)).into()),
        },
    }
}

impl Guard {
    pub fn new(limits: Limits) -> Arc<Guard> {
        Guard::with_proxies(limits, Vec::new())
    }

    /// With the proxies whose `X-Forwarded-For` is believed.
    pub fn with_proxies(limits: Limits, proxies: Vec<Cidr>) -> Arc<Guard> {
        let games = NonZeroU32::new(limits.games_per_minute.max(1)).unwrap_or(NonZeroU32::MIN);
        let sign_ins = NonZeroU32::new(limits.sign_ins_per_minute.max(1)).unwrap_or(NonZeroU32::MIN);
        Arc::new(Guard {
            limits,
            requests: RateLimiter::keyed(per_second(limits.requests_per_second)),
            games: RateLimiter::keyed(Quota::per_minute(games)),
            sockets: Arc::new(Semaphore::new(limits.sockets.min(Semaphore::MAX_PERMITS))),
            per_game: Counts::new(),
            per_address: Counts::new(),
            seats: Mutex::new(HashMap::new()),
            seat_sockets: AtomicU64::new(0),
            connections: Arc::new(Semaphore::new(limits.connections.min(Semaphore::MAX_PERMITS))),
            connections_per_address: Counts::new(),
            chat_seats: RateLimiter::keyed(chat_quota(limits.chat_per_minute, 1)),
            chat_addresses: RateLimiter::keyed(chat_quota(limits.chat_per_minute, 2)),
            sign_ins: RateLimiter::keyed(Quota::per_minute(sign_ins)),
            proxies,
        })
    }

    /// Whether `peer` is a proxy the server trusts.
    pub fn trusts(&self, peer: IpAddr) -> bool {
        self.proxies.iter().any(|p| p.contains(peer))
    }

    /// The client's address of a request from `peer`: the peer's, unless
    /// the peer is a trusted proxy; then the address in `X-Forwarded-For`
    /// to the right of which there are only trusted proxies (each proxy
    /// appends the address it got the request from, so what lies further
    /// left was written by the client and proves nothing). A header that
    /// cannot be read leaves the nearest trusted hop.
    pub fn client_ip(&self, peer: IpAddr, headers: &axum::http::HeaderMap) -> IpAddr {
        let mut client = peer.to_canonical();
        if !self.trusts(client) {
            return client;
        }
        let hops: Vec<&str> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .collect();
        for hop in hops.iter().rev() {
            let Some(ip) = forwarded_ip(hop) else { break };
            client = ip;
            if !self.trusts(ip) {
                break;
            }
        }
        client
    }

    /// Room for one more password check from `ip`.
    pub fn sign_in(&self, ip: IpAddr) -> Result<(), GameError> {
        self.sign_ins.check_key(&client_key(ip)).map_err(|n| GameError::TooManyAttempts {
            retry_after: n.wait_time_from(DefaultClock::default().now()),
            per: "from this address",
        })
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Room for one more TCP connection from `peer`, held until the
    /// returned permit is dropped; otherwise why not.
    /// A trusted proxy's connections count in the server's total only: it
    /// brings many clients.
    pub fn connection(self: &Arc<Self>, peer: IpAddr) -> Result<ConnectionPermit, &'static str> {
        let all =
            self.connections.clone().try_acquire_owned().map_err(|_| "the server has its maximum of connections")?;
        if self.trusts(peer) {
            return Ok(ConnectionPermit { guard: self.clone(), address: None, _all: all });
        }
        let address = client_key(peer);
        if !self.connections_per_address.add(&address, self.limits.connections_per_address) {
            return Err("this address has its maximum of connections");
        }
        Ok(ConnectionPermit { guard: self.clone(), address: Some(address), _all: all })
    }

    /// Forgets addresses whose allowance is whole again, so that the
    /// tables do not grow with every address ever seen.
    pub fn forget_idle(&self) {
        for table in [&self.requests, &self.games, &self.sign_ins, &self.chat_addresses] {
            table.retain_recent();
            table.shrink_to_fit();
        }
        self.chat_seats.retain_recent();
        self.chat_seats.shrink_to_fit();
    }

    /// Room for one more chat message of `game`, from `seat` (a player's)
    /// or a spectator, sent from `peer` (if known).
    pub fn chat(&self, game: &str, seat: Option<usize>, peer: Option<IpAddr>) -> Result<(), GameError> {
        if let Some(seat) = seat {
            self.chat_seats.check_key(&(game.to_string(), seat)).map_err(refusal)?;
        }
        match peer {
            Some(ip) => Guard::check(&self.chat_addresses, client_key(ip)),
            None => Ok(()),
        }
    }

    fn check(table: &DefaultKeyedRateLimiter<IpAddr>, ip: IpAddr) -> Result<(), GameError> {
        table.check_key(&ip).map_err(refusal)
    }

    /// Room for one more spectator's WebSocket connection on `game` from
    /// `peer` (if known), held until the returned permit is dropped.
    pub fn socket(self: &Arc<Self>, game: &str, peer: Option<IpAddr>) -> Result<SocketPermit, GameError> {
        let all = self.sockets.clone().try_acquire_owned().map_err(|_| {
            GameError::Busy(format!("the server has its maximum of {} spectators' connections", self.limits.sockets))
        })?;
        let address = peer.map(client_key);
        if let Some(a) = &address {
            if !self.per_address.add(a, self.limits.sockets_per_address) {
                return Err(GameError::Busy(format!(
                    "this address has its maximum of {} spectators' connections",
                    self.limits.sockets_per_address
                )));
            }
        }
        // From here on, dropping the permit gives back what was counted.
        let mut permit = SocketPermit { guard: self.clone(), game: None, address, _all: all };
        let game = game.to_string();
        if !self.per_game.add(&game, self.limits.sockets_per_game) {
            return Err(GameError::Busy(format!(
                "this game has its maximum of {} spectators' connections (a seat's link always connects)",
                self.limits.sockets_per_game
            )));
        }
        permit.game = Some(game);
        Ok(permit)
    }

    /// A WebSocket connection of a seat of `game`: never refused, but a seat
    /// keeps at most `sockets_per_seat` of them, so the oldest is told to
    /// close (through [`SeatPermit::replaced`]) when one more comes.
    pub fn seat_socket(self: &Arc<Self>, game: &str, seat: usize) -> SeatPermit {
        let id = self.seat_sockets.fetch_add(1, Ordering::Relaxed);
        let notify = Arc::new(Notify::new());
        let key = (game.to_string(), seat);
        let mut seats = self.seats.lock().unwrap_or_else(|e| e.into_inner());
        let open = seats.entry(key.clone()).or_default();
        while open.len() >= self.limits.sockets_per_seat.max(1) {
            if let Some((_, oldest)) = open.pop_front() {
                // notify_one keeps the wake-up if the session is not waiting yet.
                oldest.notify_one();
            }
        }
        open.push_back((id, notify.clone()));
        SeatPermit { guard: self.clone(), key, id, notify }
    }

    /// A limiter of one connection's messages.
    pub fn messages(&self) -> MessageLimiter {
        MessageLimiter(RateLimiter::direct(per_second(self.limits.messages_per_second)))
    }
}

/// One open WebSocket connection's place in the counts.
pub struct SocketPermit {
    guard: Arc<Guard>,
    game: Option<String>,
    address: Option<IpAddr>,
    _all: OwnedSemaphorePermit,
}

impl Drop for SocketPermit {
    fn drop(&mut self) {
        if let Some(game) = &self.game {
            self.guard.per_game.remove(game);
        }
        if let Some(address) = &self.address {
            self.guard.per_address.remove(address);
        }
    }
}

/// One TCP connection's place in the counts.
pub struct ConnectionPermit {
    guard: Arc<Guard>,
    /// None for a trusted proxy's.
    address: Option<IpAddr>,
    _all: OwnedSemaphorePermit,
}

impl Drop for ConnectionPermit {
    fn drop(&mut self) {
        if let Some(address) = &self.address {
            self.guard.connections_per_address.remove(address);
        }
    }
}

/// One WebSocket connection of a seat.
pub struct SeatPermit {
    guard: Arc<Guard>,
    key: (String, usize),
    id: u64,
    notify: Arc<Notify>,
}

impl SeatPermit {
    /// Resolves once a newer connection of the same seat has taken this
    /// one's place.
    pub async fn replaced(&self) {
        self.notify.notified().await
    }
}

impl Drop for SeatPermit {
    fn drop(&mut self) {
        let mut seats = self.guard.seats.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(open) = seats.get_mut(&self.key) {
            open.retain(|(id, _)| *id != self.id);
            if open.is_empty() {
                seats.remove(&self.key);
            }
        }
    }
}

/// Messages one WebSocket connection may still send.
pub struct MessageLimiter(DefaultDirectRateLimiter);

impl MessageLimiter {
    pub fn check(&self) -> Result<(), GameError> {
        self.0.check().map_err(refusal)
    }
}

/// The refusal of a request over its rate, with the time until it conforms.
fn refusal(not_until: NotUntil<<DefaultClock as Clock>::Instant>) -> GameError {
    GameError::RateLimited { retry_after: not_until.wait_time_from(DefaultClock::default().now()) }
}

/// An address in `X-Forwarded-For`: `203.0.113.7`, `2001:db8::1`, with a
/// port or in brackets as some proxies write them.
fn forwarded_ip(hop: &str) -> Option<IpAddr> {
    if let Ok(ip) = hop.parse::<IpAddr>() {
        return Some(ip.to_canonical());
    }
    if let Ok(sa) = hop.parse::<SocketAddr>() {
        return Some(sa.ip().to_canonical());
    }
    hop.strip_prefix('[').and_then(|h| h.strip_suffix(']')).and_then(|h| h.parse::<IpAddr>().ok())
}

/// Middleware over the API, first of all: finds the client's address
/// ([`Guard::client_ip`]) and puts it on the request as [`ClientAddr`],
/// for every per-address limit and the logs.
pub async fn client_address(State(guard): State<Arc<Guard>>, mut request: Request, next: Next) -> Response {
    if let Some(ConnectInfo(peer)) = request.extensions().get::<ConnectInfo<SocketAddr>>().copied() {
        let ip = guard.client_ip(peer.ip(), request.headers());
        request.extensions_mut().insert(ClientAddr(ip));
    }
    next.run(request).await
}

/// Middleware over the API: a request from an address over its allowance
/// is refused before it is read. Requests without a peer address (the
/// router used in-process) are not limited.
pub async fn limit_requests(State(guard): State<Arc<Guard>>, request: Request, next: Next) -> Response {
    let Some(ClientAddr(peer)) = request.extensions().get::<ClientAddr>().copied() else {
        return next.run(request).await;
    };
    let ip = client_key(peer);
    let creates = request.method() == Method::POST && request.uri().path().trim_end_matches('/') == "/api/games";
    let checked = Guard::check(&guard.requests, ip).and_then(|()| match creates {
        true => Guard::check(&guard.games, ip),
        false => Ok(()),
    });
    match checked {
        Ok(()) => next.run(request).await,
        Err(e) => axum::response::IntoResponse::into_response(e),
    }
}

/// Whole seconds to wait, rounded up and at least one (`Retry-After`).
pub(crate) fn retry_seconds(wait: Duration) -> u64 {
    wait.as_secs_f64().ceil().max(1.0) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_seat_keeps_its_newest_connections() {
        let guard = Guard::new(Limits { sockets_per_seat: 2, ..Limits::default() });
        let first = guard.seat_socket("g", 0);
        let second = guard.seat_socket("g", 0);
        let _other_seat = guard.seat_socket("g", 1);
        let third = guard.seat_socket("g", 0);
        // The oldest was told to go (the wake-up waits for it), the others not.
        tokio::time::timeout(Duration::from_secs(1), first.replaced()).await.unwrap();
        assert!(tokio::time::timeout(Duration::from_millis(50), second.replaced()).await.is_err());
        drop((first, second, third));
        assert_eq!(guard.seats.lock().unwrap().len(), 1, "only seat 1's entry is left");
    }

    #[test]
    fn connections_are_counted_in_all_and_per_address() {
        let guard = Guard::new(Limits { connections: 3, connections_per_address: 2, ..Limits::default() });
        let (a, b): (IpAddr, IpAddr) = ("198.51.100.1".parse().unwrap(), "198.51.100.2".parse().unwrap());
        let held = [guard.connection(a).unwrap(), guard.connection(a).unwrap()];
        assert!(guard.connection(a).err().unwrap().contains("this address"));
        let third = guard.connection(b).unwrap();
        assert!(guard.connection(b).err().unwrap().contains("the server"));
        drop(third);
        drop(held);
        assert!(guard.connections_per_address.0.lock().unwrap().is_empty());
        assert_eq!(guard.connections.available_permits(), 3);
    }

    #[test]
    fn an_ipv6_client_counts_by_its_64_bit_prefix() {
        let key = |s: &str| client_key(s.parse().unwrap()).to_string();
        assert_eq!(key("203.0.113.7"), "203.0.113.7");
        assert_eq!(key("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::");
        assert_eq!(key("2001:db8:1:2::1"), key("2001:db8:1:2:ffff::9"));
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_eq!(key("::ffff:203.0.113.7"), "203.0.113.7");
    }

    #[test]
    fn forwarded_addresses_count_only_behind_trusted_proxies() {
        let proxies = vec!["10.0.0.0/8".parse().unwrap(), "2001:db8:ff::/48".parse().unwrap()];
        let guard = Guard::with_proxies(Limits::default(), proxies);
        let headers = |v: &[&str]| {
            let mut h = axum::http::HeaderMap::new();
            for x in v {
                h.append("x-forwarded-for", x.parse().unwrap());
            }
            h
        };
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        // An untrusted peer: its own address, whatever it writes.
        assert_eq!(guard.client_ip(ip("203.0.113.9"), &headers(&["198.51.100.1"])), ip("203.0.113.9"));
        // A trusted one: the nearest address it did not write itself.
        assert_eq!(guard.client_ip(ip("10.1.2.3"), &headers(&["198.51.100.1"])), ip("198.51.100.1"));
        assert_eq!(guard.client_ip(ip("10.1.2.3"), &headers(&["6.6.6.6, 198.51.100.1, 10.9.9.9"])), ip("198.51.100.1"));
        assert_eq!(guard.client_ip(ip("10.1.2.3"), &headers(&["6.6.6.6", "198.51.100.1"])), ip("198.51.100.1"));
        assert_eq!(guard.client_ip(ip("::ffff:10.1.2.3"), &headers(&["[2001:db8::5]:443"])), ip("2001:db8::5"));
        assert_eq!(guard.client_ip(ip("2001:db8:ff::1"), &headers(&["198.51.100.1:5000"])), ip("198.51.100.1"));
        // Nothing forwarded, or garbage: the proxy's own address.
        assert_eq!(guard.client_ip(ip("10.1.2.3"), &headers(&[])), ip("10.1.2.3"));
        assert_eq!(guard.client_ip(ip("10.1.2.3"), &headers(&["not an address"])), ip("10.1.2.3"));
        assert_eq!(guard.client_ip(ip("10.1.2.3"), &headers(&["198.51.100.1, junk"])), ip("10.1.2.3"));
        // Only proxies: the farthest.
        assert_eq!(guard.client_ip(ip("10.1.2.3"), &headers(&["10.0.0.7"])), ip("10.0.0.7"));
    }

    #[test]
    fn blocks_are_read_and_matched() {
        let c: Cidr = "192.0.2.0/24".parse().unwrap();
        assert!(c.contains("192.0.2.200".parse().unwrap()) && !c.contains("192.0.3.1".parse().unwrap()));
        assert!(c.contains("::ffff:192.0.2.1".parse().unwrap()));
        let one: Cidr = "127.0.0.1".parse().unwrap();
        assert_eq!(one.to_string(), "127.0.0.1/32");
        assert!("0.0.0.0/0".parse::<Cidr>().unwrap().contains("8.8.8.8".parse().unwrap()));
        assert!("::/0".parse::<Cidr>().unwrap().contains("2001:db8::1".parse().unwrap()));
        for bad in ["10.0.0.0/33", "nowhere", "10.0.0.0/x", "::/129"] {
            assert!(bad.parse::<Cidr>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_trusted_proxy_is_not_capped_as_one_client() {
        let guard = Guard::with_proxies(
            Limits { connections: 10, connections_per_address: 1, ..Limits::default() },
            vec!["10.0.0.1".parse().unwrap()],
        );
        let proxy: IpAddr = "10.0.0.1".parse().unwrap();
        let held: Vec<_> = (0..3).map(|_| guard.connection(proxy).unwrap()).collect();
        let other: IpAddr = "198.51.100.1".parse().unwrap();
        let one = guard.connection(other).unwrap();
        assert!(guard.connection(other).is_err());
        drop((held, one));
        assert_eq!(guard.connections.available_permits(), 10);
    }

    #[test]
    fn counts_go_back_to_nothing() {
        let counts = Counts::new();
        assert!(counts.add(&"g", 2) && counts.add(&"g", 2));
        assert!(!counts.add(&"g", 2), "a third over a maximum of two");
        counts.remove(&"g");
        assert!(counts.add(&"g", 2));
        counts.remove(&"g");
        counts.remove(&"g");
        assert!(counts.0.lock().unwrap().is_empty(), "no entry left at zero");
    }

    #[test]
    fn a_refused_socket_gives_back_what_it_counted() {
        let guard = Guard::new(Limits { sockets: 3, sockets_per_game: 1, ..Limits::default() });
        let ip: IpAddr = "198.51.100.1".parse().unwrap();
        let held = guard.socket("g", Some(ip)).unwrap();
        assert!(matches!(guard.socket("g", Some(ip)), Err(GameError::Busy(_))));
        // The refusal released its place in the server's and the address's counts.
        assert_eq!(guard.sockets.available_permits(), 2);
        assert_eq!(guard.per_address.0.lock().unwrap().get(&ip), Some(&1));
        drop(held);
        assert_eq!(guard.sockets.available_permits(), 3);
        assert!(guard.per_address.0.lock().unwrap().is_empty() && guard.per_game.0.lock().unwrap().is_empty());
    }
}
