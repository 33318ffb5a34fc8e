//! What one client may ask of the server.
//!
//! The server trusts no client, and a client that floods it must not starve
//! the others: API requests and new games are limited per client address,
//! WebSocket connections are capped in all and per game, and each connection
//! may send only so many messages a second. A refusal is a typed error
//! (`rate_limited` with a `Retry-After`, or `busy`) and changes nothing.
//!
//! The address is the TCP peer's. Behind a reverse proxy every client has
//! the proxy's address, so raise the per-address limits there.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota, RateLimiter};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::error::ApiError;

/// The limits a server enforces; see the module documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// API requests a second from one address (bursts of three times as many).
    pub requests_per_second: u32,
    /// Games one address may create a minute (all at once, at most).
    pub games_per_minute: u32,
    /// WebSocket connections open at once, over all games.
    pub sockets: usize,
    /// WebSocket connections open at once on one game.
    pub sockets_per_game: usize,
    /// Messages a second one WebSocket connection may send (bursts of
    /// three times as many).
    pub messages_per_second: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            requests_per_second: 100,
            games_per_minute: 30,
            sockets: 2048,
            sockets_per_game: 64,
            messages_per_second: 20,
        }
    }
}

impl Limits {
    /// Limits no test or load run reaches, for trusted use.
    pub fn unlimited() -> Limits {
        Limits {
            requests_per_second: u32::MAX / 4,
            games_per_minute: u32::MAX / 4,
            sockets: Semaphore::MAX_PERMITS,
            sockets_per_game: usize::MAX,
            messages_per_second: u32::MAX / 4,
        }
    }
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
    per_game: Mutex<HashMap<String, usize>>,
}

impl Guard {
    pub fn new(limits: Limits) -> Arc<Guard> {
        let games = NonZeroU32::new(limits.games_per_minute.max(1)).unwrap_or(NonZeroU32::MIN);
        Arc::new(Guard {
            limits,
            requests: RateLimiter::keyed(per_second(limits.requests_per_second)),
            games: RateLimiter::keyed(Quota::per_minute(games)),
            sockets: Arc::new(Semaphore::new(limits.sockets.min(Semaphore::MAX_PERMITS))),
            per_game: Mutex::new(HashMap::new()),
        })
    }

    /// Forgets addresses whose allowance is whole again, so that the
    /// tables do not grow with every address ever seen.
    pub fn forget_idle(&self) {
        for table in [&self.requests, &self.games] {
            table.retain_recent();
            table.shrink_to_fit();
        }
    }

    fn check(table: &DefaultKeyedRateLimiter<IpAddr>, ip: IpAddr) -> Result<(), ApiError> {
        table.check_key(&ip).map_err(|not_until| ApiError::RateLimited {
            retry_after: not_until.wait_time_from(DefaultClock::default().now()),
        })
    }

    /// Room for one more WebSocket connection on `game`, held until the
    /// returned permit is dropped.
    pub fn socket(self: &Arc<Self>, game: &str) -> Result<SocketPermit, ApiError> {
        let all = self.sockets.clone().try_acquire_owned().map_err(|_| {
            ApiError::Busy(format!("the server has its maximum of {} live connections", self.limits.sockets))
        })?;
        let mut per_game = self.per_game.lock().unwrap_or_else(|e| e.into_inner());
        let open = per_game.entry(game.to_string()).or_insert(0);
        if *open >= self.limits.sockets_per_game {
            return Err(ApiError::Busy(format!(
                "this game has its maximum of {} live connections",
                self.limits.sockets_per_game
            )));
        }
        *open += 1;
        Ok(SocketPermit { guard: self.clone(), game: game.to_string(), _all: all })
    }

    /// A limiter of one connection's messages.
    pub fn messages(&self) -> MessageLimiter {
        MessageLimiter(RateLimiter::direct(per_second(self.limits.messages_per_second)))
    }
}

/// One open WebSocket connection's place in the counts.
pub struct SocketPermit {
    guard: Arc<Guard>,
    game: String,
    _all: OwnedSemaphorePermit,
}

impl Drop for SocketPermit {
    fn drop(&mut self) {
        let mut per_game = self.guard.per_game.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(open) = per_game.get_mut(&self.game) {
            *open -= 1;
            if *open == 0 {
                per_game.remove(&self.game);
            }
        }
    }
}

/// Messages one WebSocket connection may still send.
pub struct MessageLimiter(DefaultDirectRateLimiter);

impl MessageLimiter {
    pub fn check(&self) -> Result<(), ApiError> {
        self.0.check().map_err(|not_until| ApiError::RateLimited {
            retry_after: not_until.wait_time_from(DefaultClock::default().now()),
        })
    }
}

/// Middleware over the API: a request from an address over its allowance
/// is refused before it is read. Requests without a peer address (the
/// router used in-process) are not limited.
pub async fn limit_requests(State(guard): State<Arc<Guard>>, request: Request, next: Next) -> Response {
    let Some(ConnectInfo(peer)) = request.extensions().get::<ConnectInfo<SocketAddr>>().copied() else {
        return next.run(request).await;
    };
    let ip = peer.ip();
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
