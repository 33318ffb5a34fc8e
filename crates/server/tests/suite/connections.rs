//! Connections on the open internet: caps in all and per address, the
//! timeouts of headers, bodies, idle connections and blocked writes, and
//! WebSockets that answer no ping. Clients come from several loopback
//! addresses (127.0.0.x), which the server counts apart.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::*;
use carcassonne_server::Limits;
use futures_util::StreamExt;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

/// Whether the server closes `stream` within `within` (whatever it sends
/// before closing is read and dropped).
async fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    let deadline = Instant::now() + within;
    let mut buf = [0u8; 16 * 1024];
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            Ok(Ok(_)) => continue,
        }
    }
}

/// Whether a request from `from` is answered (200) within two seconds.
async fn served(server: &TestServer, from: &str) -> bool {
    served_at(server.addr, from).await
}

async fn served_at(addr: SocketAddr, from: &str) -> bool {
    let Ok(mut stream) = tcp(addr, from).await else { return false };
    let request = b"GET /api/tiles HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n";
    if stream.write_all(request).await.is_err() {
        return false;
    }
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(2), stream.read_to_end(&mut answer)).await;
    matches!(read, Ok(Ok(_))) && answer.starts_with(b"HTTP/1.1 200")
}

/// Whether a request from `from` is answered within `within`, trying again
/// while the server has not yet seen a closed connection go.
async fn served_again(server: &TestServer, from: &str, within: Duration) -> bool {
    let deadline = Instant::now() + within;
    while Instant::now() < deadline {
        if served(server, from).await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

/// A TCP connection to `addr` from the loopback address `from`.
async fn tcp(addr: SocketAddr, from: &str) -> std::io::Result<TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(from.parse().unwrap(), 0))?;
    socket.connect(addr).await
}

type Ws = tokio_tungstenite::WebSocketStream<TcpStream>;

/// A WebSocket on `game` from `from`, as a seat if `token` is given.
async fn ws(server: &TestServer, game: &str, from: &str, token: Option<&str>) -> Result<Ws, String> {
    let stream = server.tcp_from(from).await.map_err(|e| e.to_string())?;
    let mut request = server.ws_url(game).into_client_request().unwrap();
    let protocols = match token {
        Some(t) => format!("carcassonne, token.{t}"),
        None => "carcassonne".to_string(),
    };
    request.headers_mut().insert("sec-websocket-protocol", protocols.parse().unwrap());
    match tokio_tungstenite::client_async(request, stream).await {
        Ok((socket, _)) => Ok(socket),
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => {
            let body: Value = serde_json::from_slice(r.body().as_deref().unwrap_or_default()).unwrap_or_default();
            Err(format!("{} {}", r.status().as_u16(), body["error"]["code"].as_str().unwrap_or("")))
        }
        Err(e) => Err(e.to_string()),
    }
}

/// The next text message as JSON, or why there is none: "closed CODE".
async fn next_ws(socket: &mut Ws, within: Duration) -> Result<Value, String> {
    let deadline = Instant::now() + within;
    loop {
        match tokio::time::timeout_at(deadline, socket.next()).await {
            Err(_) => return Err("nothing".into()),
            Ok(None) => return Err("closed".into()),
            Ok(Some(Err(e))) => return Err(format!("closed ({e})")),
            Ok(Some(Ok(Message::Close(frame)))) => {
                return Err(format!("closed {}", frame.map_or(0, |f| u16::from(f.code))));
            }
            Ok(Some(Ok(Message::Text(t)))) => return Ok(serde_json::from_str(t.as_str()).unwrap()),
            Ok(Some(Ok(_))) => continue,
        }
    }
}

#[tokio::test]
async fn connections_are_capped_per_address_and_in_all() {
    let (_dir, db) = temp_db();
    let server =
        TestServer::start_with(&db, Limits { connections: 5, connections_per_address: 3, ..Limits::unlimited() });
    let mut idle = Vec::new();
    for _ in 0..3 {
        idle.push(server.tcp_from("127.0.0.1").await.unwrap());
    }
    let mut fourth = server.tcp_from("127.0.0.1").await.unwrap();
    assert!(closed_within(&mut fourth, Duration::from_secs(2)).await, "a fourth connection from one address");
    // Another address is served meanwhile.
    assert!(served(&server, "127.0.0.2").await);
    tokio::time::sleep(Duration::from_millis(100)).await;
    // Three from one address and two others fill the server.
    let mut others = [server.tcp_from("127.0.0.2").await.unwrap(), server.tcp_from("127.0.0.3").await.unwrap()];
    let mut sixth = server.tcp_from("127.0.0.4").await.unwrap();
    assert!(closed_within(&mut sixth, Duration::from_secs(2)).await, "a connection over the server's maximum");
    assert!(!closed_within(&mut others[0], Duration::from_millis(200)).await, "the held connections stay open");
    // A closed connection gives its place back.
    drop(idle.pop());
    assert!(served_again(&server, "127.0.0.4", Duration::from_secs(2)).await);
}

#[tokio::test]
async fn idle_and_half_sent_requests_are_closed_after_the_header_timeout() {
    let (_dir, db) = temp_db();
    let limits =
        Limits { header_timeout: Duration::from_millis(300), connections_per_address: 4, ..Limits::unlimited() };
    let server = TestServer::start_with(&db, limits);
    let start = Instant::now();
    let mut held = Vec::new();
    for half in [false, false, true, true] {
        let mut stream = server.tcp_from("127.0.0.1").await.unwrap();
        if half {
            stream.write_all(b"GET /api/tiles HTTP/1.1\r\nHost: test\r\n").await.unwrap();
        }
        held.push(stream);
    }
    // The address is full; another one is served at once.
    assert!(!served(&server, "127.0.0.1").await);
    assert!(served(&server, "127.0.0.2").await);
    for stream in &mut held {
        assert!(closed_within(stream, Duration::from_secs(3)).await, "closed by the header timeout");
    }
    assert!(start.elapsed() >= Duration::from_millis(250), "not before the timeout: {:?}", start.elapsed());
    assert!(served_again(&server, "127.0.0.1", Duration::from_secs(2)).await);
}

#[tokio::test]
async fn a_body_that_does_not_arrive_in_time_is_refused_with_timeout() {
    let (_dir, db) = temp_db();
    let server =
        TestServer::start_with(&db, Limits { body_timeout: Duration::from_millis(300), ..Limits::unlimited() });
    let mut stream = server.tcp_from("127.0.0.1").await.unwrap();
    let head =
        "POST /api/games HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n";
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(br#"{"seats": [{"type": "#).await.unwrap();
    let start = Instant::now();
    let mut answer = vec![0u8; 4096];
    let n = tokio::time::timeout(Duration::from_secs(3), stream.read(&mut answer)).await.unwrap().unwrap();
    let answer = String::from_utf8_lossy(&answer[..n]).to_string();
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains(r#""code":"timeout""#), "{answer}");
    assert!(start.elapsed() >= Duration::from_millis(250));
    // A whole body in time is fine.
    let client = Client::new(&server);
    client.create(two_humans(&[])).await;
}

#[tokio::test]
async fn connections_that_receive_nothing_are_closed_after_the_idle_timeout() {
    let (_dir, db) = temp_db();
    let limits = Limits {
        idle_timeout: Duration::from_millis(300),
        header_timeout: Duration::from_secs(60),
        ping_interval: Duration::from_secs(60),
        pong_timeout: Duration::from_secs(60),
        sockets_per_game: 1,
        ..Limits::unlimited()
    };
    let server = TestServer::start_with(&db, limits);
    // Nothing sent at all.
    let mut silent = server.tcp_from("127.0.0.1").await.unwrap();
    assert!(!closed_within(&mut silent, Duration::from_millis(150)).await, "not before the idle time");
    assert!(closed_within(&mut silent, Duration::from_secs(3)).await, "closed once idle");
    // Kept alive after a request, then idle.
    let mut kept = server.tcp_from("127.0.0.1").await.unwrap();
    kept.write_all(b"GET /api/tiles HTTP/1.1\r\nHost: test\r\n\r\n").await.unwrap();
    assert!(closed_within(&mut kept, Duration::from_secs(3)).await, "an idle keep-alive connection is closed");
    // A spectator's WebSocket that sends nothing (not even pongs).
    let game = Client::new(&server).create(two_humans(&[])).await["game"].as_str().unwrap().to_string();
    let mut quiet = ws(&server, &game, "127.0.0.1", None).await.unwrap();
    assert_eq!(next_ws(&mut quiet, Duration::from_secs(2)).await.unwrap()["type"], "view");
    let end = next_ws(&mut quiet, Duration::from_secs(3)).await.unwrap_err();
    assert!(end.starts_with("closed"), "{end}");
    // Its place is given back.
    ws(&server, &game, "127.0.0.1", None).await.unwrap();
}

#[tokio::test]
async fn a_client_that_reads_nothing_is_cut_off_after_the_write_timeout() {
    let (_dir, db) = temp_db();
    let limits = Limits {
        write_timeout: Duration::from_millis(300),
        header_timeout: Duration::from_secs(60),
        idle_timeout: Duration::from_secs(60),
        connections_per_address: 1,
        ..Limits::unlimited()
    };
    let server = TestServer::start_with(&db, limits);
    // Asks for megabytes of catalogues in one go, and reads none of them.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    socket.bind("127.0.0.5:0".parse().unwrap()).unwrap();
    let mut stream = socket.connect(server.addr).await.unwrap();
    let writer = tokio::spawn(async move {
        let request = b"GET /api/tiles HTTP/1.1\r\nHost: test\r\n\r\n".repeat(1000);
        let _ = stream.write_all(&request).await;
        // Held open, unread, until the test ends.
        tokio::time::sleep(Duration::from_secs(30)).await;
        drop(stream);
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    // The address has its one connection until the blocked write times out.
    assert!(!served(&server, "127.0.0.5").await, "the reader-of-nothing holds the address's one place");
    assert!(served_again(&server, "127.0.0.5", Duration::from_secs(3)).await, "its connection was cut off");
    writer.abort();
}

#[tokio::test]
async fn a_websocket_that_answers_no_ping_is_closed_and_one_that_does_stays() {
    let (_dir, db) = temp_db();
    let limits = Limits {
        ping_interval: Duration::from_millis(100),
        pong_timeout: Duration::from_millis(200),
        sockets_per_game: 2,
        ..Limits::unlimited()
    };
    let server = TestServer::start_with(&db, limits);
    let client = Client::new(&server);
    let created = client.create(two_humans(&[])).await;
    let game = created["game"].as_str().unwrap().to_string();
    let mut deaf = ws(&server, &game, "127.0.0.1", None).await.unwrap();
    let mut alive = ws(&server, &game, "127.0.0.2", None).await.unwrap();
    assert_eq!(next_ws(&mut deaf, Duration::from_secs(2)).await.unwrap()["type"], "view");
    // `alive` reads (and so answers pings) for a second; `deaf` reads nothing.
    assert_eq!(next_ws(&mut alive, Duration::from_secs(2)).await.unwrap()["type"], "view");
    assert_eq!(next_ws(&mut alive, Duration::from_secs(1)).await.unwrap_err(), "nothing");
    // The game's two spectator places: the deaf one's came back.
    ws(&server, &game, "127.0.0.3", None).await.expect("the deaf spectator's place is free again");
    let end = next_ws(&mut deaf, Duration::from_secs(2)).await.unwrap_err();
    assert!(end.starts_with("closed"), "{end}");
    // The live one still gets the game's news.
    let view = client.view(&game).await;
    let r = client.act(&game, 0, &tokens(&created)[0], 1, &view["legal"][0]).await;
    assert_eq!(r.status, 200);
    assert_eq!(next_ws(&mut alive, Duration::from_secs(2)).await.unwrap()["view"]["version"], 2);
}

#[tokio::test]
async fn a_seated_player_always_connects_to_their_own_game() {
    let (_dir, db) = temp_db();
    let limits = Limits { sockets_per_game: 2, sockets_per_address: 1, sockets_per_seat: 2, ..Limits::unlimited() };
    let server = TestServer::start_with(&db, limits);
    let created = Client::new(&server).create(two_humans(&[])).await;
    let game = created["game"].as_str().unwrap().to_string();
    let tokens = tokens(&created);
    // Two addresses fill the game's spectator places.
    let _a = ws(&server, &game, "127.0.0.1", None).await.unwrap();
    let _b = ws(&server, &game, "127.0.0.2", None).await.unwrap();
    assert_eq!(ws(&server, &game, "127.0.0.3", None).await.err().unwrap(), "503 busy");
    // The seats still connect, even from a full address.
    let mut seat0 = ws(&server, &game, "127.0.0.1", Some(&tokens[0])).await.unwrap();
    assert_eq!(next_ws(&mut seat0, Duration::from_secs(2)).await.unwrap()["type"], "view");
    let mut seat1 = ws(&server, &game, "127.0.0.3", Some(&tokens[1])).await.unwrap();
    assert_eq!(next_ws(&mut seat1, Duration::from_secs(2)).await.unwrap()["type"], "view");
    // A token that is no seat's is refused, not taken for a spectator.
    let wrong = "0".repeat(32);
    assert_eq!(ws(&server, &game, "127.0.0.4", Some(&wrong)).await.err().unwrap(), "403 wrong_token");
    // A seat keeps its two newest connections: a third replaces the oldest.
    let mut second = ws(&server, &game, "127.0.0.4", Some(&tokens[0])).await.unwrap();
    let mut third = ws(&server, &game, "127.0.0.5", Some(&tokens[0])).await.unwrap();
    assert_eq!(next_ws(&mut third, Duration::from_secs(2)).await.unwrap()["type"], "view");
    assert_eq!(next_ws(&mut seat0, Duration::from_secs(2)).await.unwrap_err(), "closed 4001");
    assert_eq!(next_ws(&mut second, Duration::from_secs(2)).await.unwrap()["type"], "view");
    assert_eq!(next_ws(&mut second, Duration::from_millis(200)).await.unwrap_err(), "nothing");
}

/// The report's case: the binary with 256 file descriptors, 300 idle
/// connections from one address; others are still served.
#[tokio::test]
async fn with_256_descriptors_300_idle_connections_from_one_address_leave_the_server_to_others() {
    let (_dir, db) = temp_db();
    let mut child = Command::new("sh")
        .args(["-c", r#"ulimit -n 256 && exec "$0" "$@""#, env!("CARGO_BIN_EXE_carcassonne-server")])
        .args(["--addr", "127.0.0.1:0", "--db"])
        .arg(&db)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr: SocketAddr =
        line.split("http://").nth(1).and_then(|s| s.split_whitespace().next()).unwrap().parse().unwrap();
    let mut idle = Vec::new();
    for _ in 0..300 {
        if let Ok(stream) = tcp(addr, "127.0.0.1").await {
            idle.push(stream);
        }
    }
    assert!(served_at(addr, "127.0.0.2").await, "another address is served");
    assert!(served_at(addr, "127.0.0.3").await, "and another");
    let _ = child.kill();
    let _ = child.wait();
    // It said that it keeps to its descriptors.
    let mut log = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut log).unwrap();
    assert!(log.contains("capped") && log.contains("cap=192"), "{log}");
}
