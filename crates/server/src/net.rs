//! Connections: accepting them within the caps, the timeouts of reading and
//! writing, and closing them on shutdown.
//!
//! HTTP/1.1 is served by hyper's connection builder (its header read
//! timeout), over a stream whose reads and writes time out
//! (`tokio-io-timeout`): a connection that receives nothing for the idle
//! time, or whose client stops reading for the write time, is closed. A
//! WebSocket keeps the connection's stream, so these hold for it as well.

use std::io;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::http::Request;
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinSet;
use tokio_io_timeout::TimeoutStream;

use crate::limits::{ConnectionPermit, Guard};

/// How long open requests may take to finish once the server stops.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(3);

/// Descriptors kept for everything but client connections (the database,
/// the listener, the runtime, connections being refused).
#[cfg(unix)]
const RESERVED_DESCRIPTORS: u64 = 64;

/// A connection's place in the counts; every request of the connection
/// carries a clone, so that a WebSocket keeps it after the upgrade.
#[derive(Clone)]
pub struct ConnectionHold(#[allow(dead_code)] Arc<ConnectionPermit>);

/// The connection cap the process can keep: `wanted`, or less if the file
/// descriptor limit (raised to its hard limit first) leaves no room for it.
pub fn connection_cap(wanted: usize) -> usize {
    #[cfg(unix)]
    {
        use rustix::process::{getrlimit, setrlimit, Resource};
        let mut limit = getrlimit(Resource::Nofile);
        if limit.current != limit.maximum {
            let raised = rustix::process::Rlimit { current: limit.maximum, maximum: limit.maximum };
            if setrlimit(Resource::Nofile, raised).is_ok() {
                limit = raised;
            }
        }
        if let Some(soft) = limit.current {
            let room = if soft > 2 * RESERVED_DESCRIPTORS { soft - RESERVED_DESCRIPTORS } else { soft / 2 };
            let room = usize::try_from(room).unwrap_or(usize::MAX).max(1);
            if room < wanted {
                tracing::warn!(
                    wanted,
                    cap = room,
                    descriptors = soft,
                    "the file descriptor limit leaves room for fewer connections than asked: capped"
                );
                return room;
            }
        }
    }
    wanted
}

/// Accepts connections until `stop` turns true, then lets open requests
/// finish (for a short while) and returns.
pub async fn serve(listener: TcpListener, app: Router, guard: Arc<Guard>, mut stop: watch::Receiver<bool>) {
    let mut open = JoinSet::new();
    loop {
        let (stream, peer) = tokio::select! {
            _ = stopping(&mut stop) => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) if is_connection_error(&e) => continue,
                Err(e) => {
                    // Out of descriptors, say: wait for connections to close
                    // rather than spin.
                    tracing::error!(error = %e, "cannot accept connections");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    continue;
                }
            },
        };
        while open.try_join_next().is_some() {}
        let permit = match guard.connection(peer.ip()) {
            Ok(p) => p,
            Err(why) => {
                tracing::warn!(class = "connection_cap", peer = %peer.ip(), "connection refused: {why}");
                drop(stream);
                continue;
            }
        };
        open.spawn(connection(stream, peer, app.clone(), guard.clone(), permit, stop.clone()));
    }
    drop(listener);
    let finished = async { while open.join_next().await.is_some() {} };
    if tokio::time::timeout(SHUTDOWN_GRACE, finished).await.is_err() {
        open.abort_all();
    }
}

/// Resolves once the server stops (`stop` turns true or its sender is gone).
pub(crate) async fn stopping(stop: &mut watch::Receiver<bool>) {
    loop {
        let stopped = *stop.borrow_and_update();
        if stopped || stop.changed().await.is_err() {
            return;
        }
    }
}

fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused | io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset
    )
}

/// Serves one connection.
async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    app: Router,
    guard: Arc<Guard>,
    permit: ConnectionPermit,
    mut stop: watch::Receiver<bool>,
) {
    let limits = *guard.limits();
    let _ = stream.set_nodelay(true);
    let mut stream = TimeoutStream::new(stream);
    stream.set_read_timeout(Some(limits.idle_timeout));
    stream.set_write_timeout(Some(limits.write_timeout));
    let begun = Arc::new(Begun::default());
    let io = TokioIo::new(Box::pin(Watched { inner: Box::pin(stream), begun: begun.clone() }));
    let hold = ConnectionHold(Arc::new(permit));
    let service = tower::ServiceExt::map_request(app, move |mut request: Request<Incoming>| {
        request.extensions_mut().insert(ConnectInfo(peer));
        request.extensions_mut().insert(hold.clone());
        request
    });
    let served = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(64 * 1024)
        .serve_connection(io, TowerToHyperService::new(service))
        .with_upgrades();
    tokio::pin!(served);
    let result = tokio::select! {
        r = served.as_mut() => r,
        _ = stopping(&mut stop) => {
            served.as_mut().graceful_shutdown();
            served.await
        }
    };
    if let Err(e) = result {
        log_end(peer.ip(), &e, begun.now());
    }
}

/// Whether the client has sent anything since the server last answered:
/// a request begun. (A header timeout on a connection that sent nothing
/// since is an idle keep-alive connection closing, not an error.)
#[derive(Default)]
struct Begun {
    read: std::sync::atomic::AtomicU64,
    at_last_write: std::sync::atomic::AtomicU64,
}

impl Begun {
    fn now(&self) -> bool {
        use std::sync::atomic::Ordering::Relaxed;
        self.read.load(Relaxed) > self.at_last_write.load(Relaxed)
    }
}

/// A stream that counts what it reads, and notes the count when it writes.
struct Watched<S> {
    inner: std::pin::Pin<Box<S>>,
    begun: Arc<Begun>,
}

impl<S: tokio::io::AsyncRead> tokio::io::AsyncRead for Watched<S> {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = self.inner.as_mut().poll_read(cx, buf);
        let n = (buf.filled().len() - before) as u64;
        if n > 0 {
            self.begun.read.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        }
        polled
    }
}

impl<S: tokio::io::AsyncWrite> tokio::io::AsyncWrite for Watched<S> {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<io::Result<usize>> {
        use std::sync::atomic::Ordering::Relaxed;
        self.begun.at_last_write.store(self.begun.read.load(Relaxed), Relaxed);
        self.inner.as_mut().poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> std::task::Poll<io::Result<usize>> {
        use std::sync::atomic::Ordering::Relaxed;
        self.begun.at_last_write.store(self.begun.read.load(Relaxed), Relaxed);
        self.inner.as_mut().poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<io::Result<()>> {
        self.inner.as_mut().poll_flush(cx)
    }

    fn poll_shutdown(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<io::Result<()>> {
        self.inner.as_mut().poll_shutdown(cx)
    }
}

/// Why a connection ended early, for the log.
fn log_end(peer: IpAddr, e: &hyper::Error, begun: bool) {
    let timed_out = std::error::Error::source(e)
        .and_then(|s| s.downcast_ref::<io::Error>())
        .is_some_and(|io| io.kind() == io::ErrorKind::TimedOut);
    if e.is_timeout() && !begun {
        tracing::debug!(peer = %peer, "connection closed: idle, no request begun within the header timeout");
    } else if e.is_timeout() {
        tracing::info!(class = "header_timeout", peer = %peer, "connection closed: its request's headers did not arrive in time");
    } else if timed_out {
        tracing::info!(class = "idle_or_write_timeout", peer = %peer, "connection closed: it sent nothing, or read nothing, for too long");
    } else {
        tracing::debug!(peer = %peer, error = %e, "connection ended with an error");
    }
}
