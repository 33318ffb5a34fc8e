//! HTTP and WebSocket transport over the [`Hub`] (see docs/api.md).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRequest, Path, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use axum::{middleware, Extension, Router};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;
use tokio::sync::watch;

use crate::error::{ApiError, Refused};
use crate::hub::{CreateRequest, Hub, Who};
use crate::limits::{client_key, limit_requests, Guard, MessageLimiter, SeatPermit, SocketPermit};
use crate::net::ConnectionHold;
use crate::store::Filter;
use crate::wire::{catalogue_json, ActionIn};

/// Largest request body.
pub const MAX_BODY: usize = 64 * 1024;
/// Largest WebSocket message from a client.
pub const MAX_WS_MESSAGE: usize = 16 * 1024;
/// The WebSocket subprotocol; a seat's token comes beside it as
/// `token.<token>` (see docs/api.md).
pub const WS_PROTOCOL: &str = "carcassonne";

#[derive(Clone)]
struct AppState {
    hub: Arc<Hub>,
    assets: Option<Arc<PathBuf>>,
    guard: Arc<Guard>,
    /// Turns true when the server stops: WebSockets close.
    stop: watch::Receiver<bool>,
}

/// The whole application: the API under `/api/`, the UI everywhere else.
/// Serve it with the peers' addresses (`ConnectInfo<SocketAddr>` in each
/// request's extensions, as [`crate::net`] does) for the per-address
/// limits of `guard` to apply.
pub fn router(hub: Arc<Hub>, assets: Option<PathBuf>, guard: Arc<Guard>, stop: watch::Receiver<bool>) -> Router {
    let state = AppState { hub, assets: assets.map(Arc::new), guard: guard.clone(), stop };
    let api = Router::new()
        .route("/api/tiles", get(tiles))
        .route("/api/games", get(list).post(create))
        .route("/api/games/{id}", get(view))
        .route("/api/games/{id}/view", get(view_at))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/actions", get(history).post(act))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/feature", post(feature))
        .route("/api/records/view", post(record_view).layer(DefaultBodyLimit::max(crate::records::MAX_RECORD_BODY)))
        .route("/api/games/{id}/ws", get(ws))
        .route("/api", any(api_not_found))
        .route("/api/{*rest}", any(api_not_found))
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn_with_state(guard, limit_requests))
        .layer(middleware::from_fn(log_refusals));
    api.fallback(static_files).layer(DefaultBodyLimit::max(MAX_BODY)).with_state(state)
}

fn json(status: StatusCode, body: String) -> Response {
    json_bytes(status, Bytes::from(body))
}

fn json_bytes(status: StatusCode, body: Bytes) -> Response {
    let mut r = (status, body).into_response();
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

fn ok_json<T: serde::Serialize>(status: StatusCode, value: &T) -> Response {
    match serde_json::to_string(value) {
        Ok(s) => json(status, s),
        Err(e) => ApiError::Internal(e.to_string()).into_response(),
    }
}

/// A request's body, read whole within the body timeout.
struct Body(Bytes);

impl FromRequest<AppState> for Body {
    type Rejection = ApiError;

    async fn from_request(request: Request, st: &AppState) -> Result<Body, ApiError> {
        let wait = st.guard.limits().body_timeout;
        // Records opened in the browser may be larger than other bodies.
        let limit =
            if request.uri().path() == "/api/records/view" { crate::records::MAX_RECORD_BODY } else { MAX_BODY };
        match tokio::time::timeout(wait, Bytes::from_request(request, st)).await {
            Err(_) => Err(ApiError::Timeout(wait)),
            Ok(Ok(bytes)) => Ok(Body(bytes)),
            Ok(Err(r)) if r.status() == StatusCode::PAYLOAD_TOO_LARGE => Err(ApiError::TooLarge(limit)),
            Ok(Err(r)) => Err(ApiError::Malformed(r.body_text())),
        }
    }
}

fn parse<T: DeserializeOwned>(body: Body) -> Result<T, ApiError> {
    serde_json::from_slice(&body.0).map_err(|e| ApiError::Malformed(format!("the body is not the JSON expected: {e}")))
}

/// Logs every refused API request: its class (the error code), the
/// client's address and the game, if any.
async fn log_refusals(request: Request, next: Next) -> Response {
    let peer = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let response = next.run(request).await;
    let Some(refused) = response.extensions().get::<Refused>() else { return response };
    let status = response.status().as_u16();
    let peer = peer.map_or_else(|| "-".to_string(), |p| p.to_string());
    let game =
        path.strip_prefix("/api/games/").and_then(|rest| rest.split('/').next()).filter(|id| crate::hub::valid_id(id));
    let game = game.unwrap_or("-");
    let path = crate::error::clip(&path, 80);
    let (class, message) = (refused.code, &refused.message);
    match status {
        408 | 413 | 429 | 503 => {
            tracing::warn!(class, status, %method, %path, %peer, %game, "request refused: {message}")
        }
        500.. => tracing::error!(class, status, %method, %path, %peer, %game, "request failed: {message}"),
        _ => tracing::info!(class, status, %method, %path, %peer, %game, "request refused: {message}"),
    }
    response
}

async fn api_not_found(uri: Uri) -> ApiError {
    ApiError::NotFound(format!("no API endpoint {}", crate::error::clip(uri.path(), 80)))
}

async fn method_not_allowed() -> ApiError {
    ApiError::MethodNotAllowed
}

async fn static_files(State(st): State<AppState>, method: Method, uri: Uri) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return StatusCode::METHOD_NOT_ALLOWED.into_response();
    }
    crate::assets::serve(st.assets.as_deref().map(|p| p.as_path()), uri.path())
}

async fn tiles() -> Response {
    json(StatusCode::OK, catalogue_json().to_string())
}

#[derive(Deserialize)]
struct ListQuery {
    status: Option<String>,
    limit: Option<u32>,
    offset: Option<u32>,
}

async fn list(State(st): State<AppState>, q: Result<Query<ListQuery>, QueryRejection>) -> Result<Response, ApiError> {
    let Query(q) = q.map_err(|r| ApiError::Malformed(r.body_text()))?;
    let filter = match q.status.as_deref() {
        None | Some("all") => Filter::All,
        Some("active") => Filter::Active,
        Some("finished") => Filter::Finished,
        Some(other) => {
            return Err(ApiError::Malformed(format!(
                "status '{}' is not one of all, active, finished",
                crate::error::clip(other, 20)
            )))
        }
    };
    let games = st.hub.list(filter, q.limit.unwrap_or(50).min(200), q.offset.unwrap_or(0)).await?;
    Ok(ok_json(StatusCode::OK, &serde_json::json!({ "games": games })))
}

async fn create(
    State(st): State<AppState>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    body: Body,
) -> Result<Response, ApiError> {
    let req: CreateRequest = parse(body)?;
    let owner = peer.map(|p| client_key(p.0 .0.ip()));
    let created = st.hub.create(req, owner).await?;
    Ok(ok_json(StatusCode::CREATED, &created))
}

async fn view(State(st): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let slot = st.hub.slot(&id).await?;
    Ok(json_bytes(StatusCode::OK, slot.view().view()))
}

#[derive(Deserialize)]
struct VersionQuery {
    version: Option<u64>,
}

async fn view_at(
    State(st): State<AppState>,
    Path(id): Path<String>,
    q: Result<Query<VersionQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = q.map_err(|r| ApiError::Malformed(r.body_text()))?;
    match q.version {
        None => view(State(st), Path(id)).await,
        Some(v) => Ok(json(StatusCode::OK, st.hub.view_at(&id, v).await?)),
    }
}

#[derive(Deserialize)]
struct JoinRequest {
    token: String,
}

async fn join(State(st): State<AppState>, Path(id): Path<String>, body: Body) -> Result<Response, ApiError> {
    let req: JoinRequest = parse(body)?;
    let j = st.hub.join_view(&id, &req.token).await?;
    // {"game", "seat", "name", "view"}: the view as that seat sees it.
    let head = serde_json::to_string(&j.joined).map_err(|e| ApiError::Internal(e.to_string()))?;
    let view = j.view.view();
    let mut body = Vec::with_capacity(head.len() + view.len() + 16);
    body.extend_from_slice(&head.as_bytes()[..head.len() - 1]);
    body.extend_from_slice(b",\"view\":");
    body.extend_from_slice(&view);
    body.push(b'}');
    Ok(json_bytes(StatusCode::OK, Bytes::from(body)))
}

#[derive(Deserialize)]
struct ActRequest {
    seat: usize,
    token: String,
    version: u64,
    action: ActionIn,
}

async fn act(State(st): State<AppState>, Path(id): Path<String>, body: Body) -> Result<Response, ApiError> {
    let req: ActRequest = parse(body)?;
    let command = req.action.to_command()?;
    let (version, view) =
        st.hub.submit(&id, Who::Human { seat: req.seat, token: &req.token }, req.version, command).await?;
    let view = view.view();
    let mut body = Vec::with_capacity(view.len() + 32);
    body.extend_from_slice(format!("{{\"version\":{version},\"view\":").as_bytes());
    body.extend_from_slice(&view);
    body.push(b'}');
    Ok(json_bytes(StatusCode::OK, Bytes::from(body)))
}

#[derive(Deserialize)]
struct FeatureRequest {
    at: [i64; 2],
    piece: usize,
    #[serde(default)]
    version: Option<u64>,
    #[serde(default)]
    token: Option<String>,
}

async fn feature(State(st): State<AppState>, Path(id): Path<String>, body: Body) -> Result<Response, ApiError> {
    let req: FeatureRequest = parse(body)?;
    let at = match (i32::try_from(req.at[0]), i32::try_from(req.at[1])) {
        (Ok(x), Ok(y)) => carcassonne_engine::Pos::new(x, y),
        _ => return Err(ApiError::Malformed("not a board position".into())),
    };
    let report = st.hub.inspect(&id, at, req.piece, req.version, req.token.as_deref()).await?;
    Ok(ok_json(StatusCode::OK, &report))
}

async fn record_view(body: Body) -> Result<Response, ApiError> {
    let req: crate::records::RecordRequest = parse(body)?;
    let text = tokio::task::spawn_blocking(move || crate::records::answer(req))
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))??;
    Ok(json(StatusCode::OK, text))
}

async fn history(State(st): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    Ok(json(StatusCode::OK, st.hub.history(&id).await?))
}

async fn record(State(st): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let record = st.hub.record(&id).await?;
    let mut r = json(StatusCode::OK, record.to_json_pretty());
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"carcassonne-{id}.json\"")) {
        r.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(r)
}

// ----- WebSocket ----------------------------------------------------------

/// The seat tokens a client offers beside the subprotocol (a hot-seat
/// browser offers each of its seats'), at most [`MAX_WS_TOKENS`].
fn offered_tokens(headers: &HeaderMap) -> Vec<&str> {
    headers
        .get_all(header::SEC_WEBSOCKET_PROTOCOL)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|p| p.trim().strip_prefix("token."))
        .take(MAX_WS_TOKENS)
        .collect()
}

/// Most seat tokens one WebSocket may offer (the most seats of a game).
const MAX_WS_TOKENS: usize = carcassonne_engine::setup::MAX_PLAYERS;

/// A WebSocket's place in the counts: a seat's, or a spectator's.
enum Place {
    Seat(SeatPermit),
    Spectator(#[allow(dead_code)] SocketPermit),
}

async fn ws(
    State(st): State<AppState>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    hold: Option<Extension<ConnectionHold>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let slot = st.hub.slot(&id).await?;
    let upgrade = upgrade.map_err(|r| ApiError::Malformed(r.body_text()))?;
    // A seat's own connections are never refused for room; spectators
    // share capped places.
    let tokens = offered_tokens(&headers);
    let mut seats = Vec::with_capacity(tokens.len());
    for token in tokens {
        seats.push(st.hub.join(&id, token).await?.seat);
    }
    let place = match seats.first() {
        Some(&seat) => Place::Seat(st.guard.seat_socket(&id, seat)),
        None => Place::Spectator(st.guard.socket(&id, peer.map(|p| p.0 .0.ip()))?),
    };
    let session = Session {
        seats,
        hub: st.hub.clone(),
        id,
        slot,
        limiter: st.guard.messages(),
        place,
        _hold: hold.map(|h| h.0),
        ping_interval: st.guard.limits().ping_interval,
        pong_timeout: st.guard.limits().pong_timeout,
        stop: st.stop.clone(),
    };
    Ok(upgrade
        .protocols([WS_PROTOCOL])
        .read_buffer_size(4 * 1024)
        .max_message_size(MAX_WS_MESSAGE)
        .max_frame_size(MAX_WS_MESSAGE)
        .on_upgrade(move |socket| session.run(socket)))
}

fn view_message(view: &crate::view::ViewText) -> Option<Message> {
    axum::extract::ws::Utf8Bytes::try_from(view.message()).ok().map(Message::Text)
}

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ClientMessage {
    Act { seat: usize, token: String, version: u64, action: ActionIn },
    Ping,
}

/// One client's connection to a game; `place` and `_hold` keep its places
/// in the counts until it ends.
struct Session {
    /// The seats whose tokens the client offered: their own views (over
    /// their provisional decisions) come to this connection.
    seats: Vec<usize>,
    hub: Arc<Hub>,
    id: String,
    slot: Arc<crate::hub::Slot>,
    limiter: MessageLimiter,
    place: Place,
    _hold: Option<ConnectionHold>,
    ping_interval: std::time::Duration,
    pong_timeout: std::time::Duration,
    stop: watch::Receiver<bool>,
}

impl Session {
    /// The view this client sees now: its seat's own while that seat has
    /// provisional decisions, the public one otherwise.
    fn current(&self) -> crate::view::ViewText {
        for &seat in &self.seats {
            if let Some(v) = self.slot.private_of(seat) {
                return v;
            }
        }
        self.slot.view()
    }

    async fn run(mut self, mut socket: WebSocket) {
        let mut views = self.slot.subscribe();
        let mut private = self.slot.subscribe_private();
        // Followed from now on: the hub keeps this copy and refreshes it on
        // other servers' writes; one made before is caught by a check now.
        let kept = self.hub.keep(&self.id, &self.slot);
        if !Arc::ptr_eq(&kept, &self.slot) {
            self.slot = kept;
            views = self.slot.subscribe();
            private = self.slot.subscribe_private();
        }
        self.hub.check(&self.slot).await;
        views.borrow_and_update();
        private.borrow_and_update();
        let Some(first) = view_message(&self.current()) else { return };
        if socket.send(first).await.is_err() {
            return;
        }
        let start = tokio::time::Instant::now() + self.ping_interval;
        let mut ping = tokio::time::interval_at(start, self.ping_interval);
        ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        // When the unanswered ping's answer is due.
        let mut pong_due: Option<tokio::time::Instant> = None;
        let replaced = async {
            match &self.place {
                Place::Seat(permit) => permit.replaced().await,
                Place::Spectator(_) => std::future::pending().await,
            }
        };
        tokio::pin!(replaced);
        let close = |code: u16, reason: &'static str| Some(CloseFrame { code, reason: reason.into() });
        let end = loop {
            tokio::select! {
                _ = crate::net::stopping(&mut self.stop) => break close(1001, "the server is stopping"),
                _ = &mut replaced => break close(4001, "replaced by a newer connection of this seat"),
                _ = tokio::time::sleep_until(pong_due.unwrap_or(start)), if pong_due.is_some() => {
                    tracing::info!(class = "pong_timeout", game = %self.id, "WebSocket closed: no answer to a ping");
                    break None;
                }
                _ = ping.tick() => {
                    pong_due.get_or_insert_with(|| tokio::time::Instant::now() + self.pong_timeout);
                    if socket.send(Message::Ping(Bytes::new())).await.is_err() {
                        break None;
                    }
                }
                changed = views.changed() => {
                    if changed.is_err() {
                        break None;
                    }
                    views.borrow_and_update();
                    let Some(message) = view_message(&self.current()) else { break None };
                    if socket.send(message).await.is_err() {
                        break None;
                    }
                }
                changed = private.changed(), if !self.seats.is_empty() => {
                    if changed.is_err() {
                        break None;
                    }
                    let mine = private.borrow_and_update().as_ref().map(|sv| sv.seat);
                    // Another seat's provisional decisions are not this client's to see.
                    if mine.is_some_and(|s| !self.seats.contains(&s)) {
                        continue;
                    }
                    let Some(message) = view_message(&self.current()) else { break None };
                    if socket.send(message).await.is_err() {
                        break None;
                    }
                }
                msg = socket.recv() => {
                    let reply = match msg {
                        None | Some(Ok(Message::Close(_))) => break None,
                        Some(Err(e)) => {
                            let text = e.to_string();
                            if text.contains("too long") || text.contains("limit") {
                                tracing::info!(class = "too_large", game = %self.id, "WebSocket closed: message too large");
                                break close(1009, "message too large");
                            }
                            break None;
                        }
                        Some(Ok(m @ (Message::Text(_) | Message::Binary(_)))) => match (self.limiter.check(), m) {
                            (Err(e), _) => {
                                tracing::info!(class = "rate_limited", game = %self.id, "WebSocket message refused: {e}");
                                Some(error_message(Value::Null, &e))
                            }
                            (Ok(()), Message::Text(t)) => handle(&self.hub, &self.id, t.as_str()).await,
                            (Ok(()), _) => {
                                Some(error_message(Value::Null, &ApiError::Malformed("send JSON text frames".into())))
                            }
                        },
                        Some(Ok(Message::Pong(_))) => {
                            pong_due = None;
                            None
                        }
                        Some(Ok(Message::Ping(_))) => None,
                    };
                    if let Some(r) = reply {
                        if socket.send(Message::Text(r.into())).await.is_err() {
                            break None;
                        }
                    }
                }
            }
        };
        if let Some(frame) = end {
            let _ = socket.send(Message::Close(Some(frame))).await;
        }
    }
}

fn error_message(id: Value, e: &ApiError) -> String {
    serde_json::json!({ "type": "error", "id": id, "error": e.body() }).to_string()
}

/// Answers one client message.
async fn handle(hub: &Arc<Hub>, game: &str, text: &str) -> Option<String> {
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return Some(error_message(Value::Null, &ApiError::Malformed(format!("not JSON: {e}")))),
    };
    let id = value.get("id").cloned().unwrap_or(Value::Null);
    let msg: ClientMessage = match serde_json::from_value(value) {
        Ok(m) => m,
        Err(e) => return Some(error_message(id, &ApiError::Malformed(format!("not a message of this API: {e}")))),
    };
    match msg {
        ClientMessage::Ping => Some(r#"{"type":"pong"}"#.to_string()),
        ClientMessage::Act { seat, token, version, action } => {
            let result = match action.to_command() {
                Ok(c) => hub.submit(game, Who::Human { seat, token: &token }, version, c).await,
                Err(e) => Err(e),
            };
            Some(match result {
                Ok((version, _)) => serde_json::json!({ "type": "ack", "id": id, "version": version }).to_string(),
                Err(e) => {
                    if e.status().is_server_error() {
                        tracing::error!(class = e.code(), game = %game, "WebSocket action failed: {e}");
                    }
                    error_message(id, &e)
                }
            })
        }
    }
}
