//! HTTP and WebSocket transport over the [`Hub`] (see docs/api.md).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, State};
use axum::http::{header, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use axum::{middleware, Router};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;

use crate::error::ApiError;
use crate::hub::{CreateRequest, Hub, Who};
use crate::limits::{limit_requests, Guard, MessageLimiter, SocketPermit};
use crate::store::Filter;
use crate::wire::{catalogue_json, ActionIn};

/// Largest request body.
pub const MAX_BODY: usize = 64 * 1024;
/// Largest WebSocket message from a client.
pub const MAX_WS_MESSAGE: usize = 16 * 1024;

#[derive(Clone)]
struct AppState {
    hub: Arc<Hub>,
    assets: Option<Arc<PathBuf>>,
    guard: Arc<Guard>,
}

/// The whole application: the API under `/api/`, the UI everywhere else.
/// Serve it with the peers' addresses (`into_make_service_with_connect_info`)
/// for the per-address limits of `guard` to apply.
pub fn router(hub: Arc<Hub>, assets: Option<PathBuf>, guard: Arc<Guard>) -> Router {
    let state = AppState { hub, assets: assets.map(Arc::new), guard: guard.clone() };
    let api = Router::new()
        .route("/api/tiles", get(tiles))
        .route("/api/games", get(list).post(create))
        .route("/api/games/{id}", get(view))
        .route("/api/games/{id}/view", get(view_at))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/actions", get(history).post(act))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/ws", get(ws))
        .route("/api", any(api_not_found))
        .route("/api/{*rest}", any(api_not_found))
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn_with_state(guard, limit_requests));
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

fn parse<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let bytes = body.map_err(|r| {
        if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::TooLarge(MAX_BODY)
        } else {
            ApiError::Malformed(r.body_text())
        }
    })?;
    serde_json::from_slice(&bytes).map_err(|e| ApiError::Malformed(format!("the body is not the JSON expected: {e}")))
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

async fn create(State(st): State<AppState>, body: Result<Bytes, BytesRejection>) -> Result<Response, ApiError> {
    let req: CreateRequest = parse(body)?;
    let created = st.hub.create(req).await?;
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

async fn join(
    State(st): State<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: JoinRequest = parse(body)?;
    let joined = st.hub.join(&id, &req.token).await?;
    Ok(ok_json(StatusCode::OK, &joined))
}

#[derive(Deserialize)]
struct ActRequest {
    seat: usize,
    token: String,
    version: u64,
    action: ActionIn,
}

async fn act(
    State(st): State<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: ActRequest = parse(body)?;
    let action = req.action.to_action()?;
    let (version, view) =
        st.hub.submit(&id, Who::Human { seat: req.seat, token: &req.token }, req.version, action).await?;
    let view = view.view();
    let mut body = Vec::with_capacity(view.len() + 32);
    body.extend_from_slice(format!("{{\"version\":{version},\"view\":").as_bytes());
    body.extend_from_slice(&view);
    body.push(b'}');
    Ok(json_bytes(StatusCode::OK, Bytes::from(body)))
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

async fn ws(
    State(st): State<AppState>,
    peer: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
    Path(id): Path<String>,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let slot = st.hub.slot(&id).await?;
    let upgrade = upgrade.map_err(|r| ApiError::Malformed(r.body_text()))?;
    let permit = st.guard.socket(&id, peer.map(|p| p.0 .0.ip()))?;
    let limiter = st.guard.messages();
    let hub = st.hub.clone();
    Ok(upgrade
        .read_buffer_size(4 * 1024)
        .max_message_size(MAX_WS_MESSAGE)
        .max_frame_size(MAX_WS_MESSAGE)
        .on_upgrade(move |socket| session(hub, id, slot, socket, limiter, permit)))
}

fn view_message(view: &crate::hub::ViewText) -> Option<Message> {
    axum::extract::ws::Utf8Bytes::try_from(view.message()).ok().map(Message::Text)
}

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ClientMessage {
    Act { seat: usize, token: String, version: u64, action: ActionIn },
    Ping,
}

/// One client's connection to a game; `_permit` holds its place in the
/// connection counts until it ends.
async fn session(
    hub: Arc<Hub>,
    id: String,
    slot: Arc<crate::hub::Slot>,
    mut socket: WebSocket,
    limiter: MessageLimiter,
    _permit: SocketPermit,
) {
    let mut views = slot.subscribe();
    let first = views.borrow_and_update().clone();
    let Some(first) = view_message(&first) else { return };
    if socket.send(first).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            changed = views.changed() => {
                if changed.is_err() {
                    break;
                }
                let v = views.borrow_and_update().clone();
                let Some(message) = view_message(&v) else { break };
                if socket.send(message).await.is_err() {
                    break;
                }
            }
            msg = socket.recv() => {
                let reply = match msg {
                    None | Some(Ok(Message::Close(_))) => break,
                    Some(Err(e)) => {
                        let text = e.to_string();
                        if text.contains("too long") || text.contains("limit") {
                            let frame = CloseFrame { code: 1009, reason: "message too large".into() };
                            let _ = socket.send(Message::Close(Some(frame))).await;
                        }
                        break;
                    }
                    Some(Ok(m @ (Message::Text(_) | Message::Binary(_)))) => match (limiter.check(), m) {
                        (Err(e), _) => Some(error_message(Value::Null, &e)),
                        (Ok(()), Message::Text(t)) => handle(&hub, &id, t.as_str()).await,
                        (Ok(()), _) => {
                            Some(error_message(Value::Null, &ApiError::Malformed("send JSON text frames".into())))
                        }
                    },
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => None,
                };
                if let Some(r) = reply {
                    if socket.send(Message::Text(r.into())).await.is_err() {
                        break;
                    }
                }
            }
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
            let result = match action.to_action() {
                Ok(a) => hub.submit(game, Who::Human { seat, token: &token }, version, a).await,
                Err(e) => Err(e),
            };
            Some(match result {
                Ok((version, _)) => serde_json::json!({ "type": "ack", "id": id, "version": version }).to_string(),
                Err(e) => error_message(id, &e),
            })
        }
    }
}
