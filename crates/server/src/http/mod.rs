//! HTTP and WebSocket transport over the game authority, [`Hub`] (see
//! docs/api.md): the routes, the request and answer shapes ([`shapes`]),
//! the error mapping ([`error`]), the WebSockets ([`ws`]), and the load
//! balancer's probes (`/healthz`, `/readyz`).

mod accounts;
pub mod error;
mod lobby;
mod ratings;
pub mod shapes;
mod ws;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRequest, Path, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use axum::{middleware, Extension, Router};
use serde::de::DeserializeOwned;
use tokio::sync::watch;

pub use self::error::ApiError;
use self::error::Refused;
use self::shapes::{
    ActRequest, ChatQuery, ChatReadRequest, ChatRequest, CreateRequest, CreateResponse, FeatureRequest, HintRequest,
    JoinRequest, ListQuery, OddsRequest, VersionQuery,
};
use crate::error::GameError;
use crate::game::chat::{Reader, Speaker};
use crate::game::{Hub, Who};
use crate::limits::{client_address, client_key, limit_requests, ClientAddr, Guard};
use crate::store::Filter;
use crate::wire::catalogue_json;

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
    /// Sessions, passwords, the cookie's form.
    accounts: Arc<crate::accounts::Accounts>,
    /// Turns true when the server stops: WebSockets close.
    stop: watch::Receiver<bool>,
}

/// The whole application: the API under `/api/`, the UI everywhere else.
/// Serve it with the peers' addresses (`ConnectInfo<SocketAddr>` in each
/// request's extensions, as [`crate::net`] does) for the per-address
/// limits of `guard` to apply.
pub fn router(
    hub: Arc<Hub>,
    assets: Option<PathBuf>,
    guard: Arc<Guard>,
    accounts: Arc<crate::accounts::Accounts>,
    stop: watch::Receiver<bool>,
) -> Router {
    let state = AppState { hub, assets: assets.map(Arc::new), guard: guard.clone(), accounts, stop };
    let api = self::lobby::routes(self::ratings::routes(self::accounts::routes(Router::new())))
        .route("/api/tiles", get(tiles))
        .route("/api/games", get(list).post(create))
        .route("/api/games/{id}", get(view))
        .route("/api/games/{id}/view", get(view_at))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/actions", get(history).post(act))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/review", get(review_status).post(start_review))
        .route("/api/games/{id}/feature", post(feature))
        .route("/api/games/{id}/hint", post(hint))
        .route("/api/games/{id}/odds", get(odds).post(odds_of_seat))
        .route("/api/games/{id}/chat", get(chat).post(say))
        .route("/api/games/{id}/chat/read", post(chat_of_players))
        .route("/api/records/view", post(record_view).layer(DefaultBodyLimit::max(crate::records::MAX_RECORD_BODY)))
        .route(
            "/api/records/feature",
            post(record_feature).layer(DefaultBodyLimit::max(crate::records::MAX_RECORD_BODY)),
        )
        .route("/api/games/{id}/ws", get(ws::upgrade))
        .route("/api", any(api_not_found))
        .route("/api/{*rest}", any(api_not_found))
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn(self::accounts::refuse_cross_site))
        .layer(middleware::from_fn_with_state(guard.clone(), limit_requests))
        .layer(middleware::from_fn(log_refusals))
        .layer(middleware::from_fn_with_state(guard, client_address));
    // The probes are outside the API's limits: a load balancer asks often.
    api.route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .fallback(static_files)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
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
        Err(e) => GameError::internal(e).into_response(),
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
            if request.uri().path().starts_with("/api/records/") { crate::records::MAX_RECORD_BODY } else { MAX_BODY };
        match tokio::time::timeout(wait, Bytes::from_request(request, st)).await {
            Err(_) => Err(ApiError::Timeout(wait)),
            Ok(Ok(bytes)) => Ok(Body(bytes)),
            Ok(Err(r)) if r.status() == StatusCode::PAYLOAD_TOO_LARGE => Err(ApiError::TooLarge(limit)),
            Ok(Err(r)) => Err(GameError::Malformed(r.body_text()).into()),
        }
    }
}

fn parse<T: DeserializeOwned>(body: Body) -> Result<T, GameError> {
    serde_json::from_slice(&body.0).map_err(|e| GameError::Malformed(format!("the body is not the JSON expected: {e}")))
}

/// The header that carries a request's id.
static REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Gives every API request an id (the `X-Request-Id` header of its
/// answer, and the `request` of a refusal's body) and logs every refused
/// one: its class (the error code), the client's address, the game if
/// any, and a failure's cause, which stays out of the answer.
async fn log_refusals(request: Request, next: Next) -> Response {
    // The client's address (behind a trusted proxy, the one it forwarded).
    let peer = request
        .extensions()
        .get::<ClientAddr>()
        .map(|c| c.0)
        .or_else(|| request.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip()));
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let id = self::error::request_id();
    let mut response = next.run(request).await;
    if let Some(refused) = response.extensions().get::<Refused>().cloned() {
        response = refused.response(&id);
        let status = refused.status.as_u16();
        let peer = peer.map_or_else(|| "-".to_string(), |p| p.to_string());
        let game = path
            .strip_prefix("/api/games/")
            .and_then(|rest| rest.split('/').next())
            .filter(|id| crate::game::valid_id(id));
        let game = game.unwrap_or("-");
        let path = crate::error::clip(&path, 80);
        let (class, message, cause) = (refused.body.code, &refused.body.message, refused.cause.as_deref());
        match status {
            408 | 413 | 429 | 503 => {
                tracing::warn!(class, status, %method, %path, %peer, %game, request = %id, cause, "request refused: {message}")
            }
            500.. => {
                crate::logging::request_failed(class, status, method.as_str(), &path, &peer, game, &id, cause, message)
            }
            _ => {
                tracing::info!(class, status, %method, %path, %peer, %game, request = %id, "request refused: {message}")
            }
        }
    }
    if let Ok(v) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(REQUEST_ID.clone(), v);
    }
    response
}

/// `/healthz`: the process answers.
async fn healthz() -> Response {
    (StatusCode::OK, "ok\n").into_response()
}

/// `/readyz`: the store answers (within the database's timeouts); 503
/// with `Retry-After` otherwise, so that a load balancer sends requests
/// elsewhere meanwhile.
async fn readyz(State(st): State<AppState>) -> Response {
    match st.hub.store().ping().await {
        Ok(()) => (StatusCode::OK, "ready\n").into_response(),
        Err(e) => {
            let e = GameError::from(e);
            crate::logging::warn_throttled("readyz", format_args!("not ready: {e}"), "-", e.cause());
            let mut r = (StatusCode::SERVICE_UNAVAILABLE, "the database does not answer\n").into_response();
            let wait = crate::limits::retry_seconds(e.retry_after().unwrap_or(crate::error::RETRY_UNAVAILABLE));
            r.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(wait));
            r
        }
    }
}

async fn api_not_found(uri: Uri) -> GameError {
    GameError::NotFound(format!("no API endpoint {}", crate::error::clip(uri.path(), 80)))
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

async fn list(State(st): State<AppState>, q: Result<Query<ListQuery>, QueryRejection>) -> Result<Response, ApiError> {
    let Query(q) = q.map_err(|r| GameError::Malformed(r.body_text()))?;
    let filter = match q.status.as_deref() {
        None | Some("all") => Filter::All,
        Some("active") => Filter::Active,
        Some("finished") => Filter::Finished,
        Some(other) => {
            return Err(GameError::Malformed(format!(
                "status '{}' is not one of all, active, finished",
                crate::error::clip(other, 20)
            ))
            .into())
        }
    };
    let games = st.hub.list(filter, q.limit.unwrap_or(50).min(200), q.offset.unwrap_or(0)).await?;
    Ok(ok_json(StatusCode::OK, &serde_json::json!({ "games": games })))
}

/// The key a request's bots' time is charged to: its client's address.
fn owner_of(peer: Option<Extension<ClientAddr>>) -> crate::bots::Owner {
    peer.map(|p| client_key(p.0 .0))
}

/// Sets the cookie a request's session was pushed back with, if it was.
fn refreshed(mut response: Response, cookie: Option<String>) -> Response {
    if let Some(v) = cookie.and_then(|c| HeaderValue::from_str(&c).ok()) {
        response.headers_mut().append(header::SET_COOKIE, v);
    }
    response
}

async fn create(
    State(st): State<AppState>,
    peer: Option<Extension<ClientAddr>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let req: CreateRequest = parse(body)?;
    let mine = req.mine();
    let mut game: crate::game::NewGame = req.into();
    let mut cookie = None;
    if !mine.is_empty() {
        // Seats asked to be the creator's: only for a signed-in creator.
        let (session, c) = self::accounts::session_of(&st, &headers).await?.ok_or_else(|| {
            GameError::NotSignedIn("a seat with \"mine\": true needs a signed-in creator: sign in first".into())
        })?;
        cookie = c;
        for i in mine {
            if let Some(crate::game::NewSeat::Human { account, .. }) = game.seats.get_mut(i) {
                *account = Some((session.account.id, session.account.name.clone()));
            }
        }
    }
    let created = st.hub.create(game, owner_of(peer)).await?;
    Ok(refreshed(ok_json(StatusCode::CREATED, &CreateResponse::from(created)), cookie))
}

async fn view(State(st): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let slot = st.hub.slot(&id).await?;
    Ok(json_bytes(StatusCode::OK, slot.view().view()))
}

async fn view_at(
    State(st): State<AppState>,
    Path(id): Path<String>,
    q: Result<Query<VersionQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = q.map_err(|r| GameError::Malformed(r.body_text()))?;
    match q.version {
        None => view(State(st), Path(id)).await,
        Some(v) => Ok(json(StatusCode::OK, st.hub.view_at(&id, v).await?)),
    }
}

/// The seat a request acts for and its token: by the token it sends, or
/// without one by its session (the account's seat); and the cookie to
/// send again if the session was pushed back.
async fn seat_and_token(
    st: &AppState,
    headers: &HeaderMap,
    id: &str,
    seat: Option<usize>,
    token: Option<String>,
) -> Result<(Option<usize>, String, Option<String>), GameError> {
    match token {
        Some(token) => Ok((seat, token, None)),
        None => {
            let (seat, token, cookie) = self::accounts::seat_by_session(st, headers, id, seat).await?;
            Ok((Some(seat), token, cookie))
        }
    }
}

async fn join(
    State(st): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let req: JoinRequest = parse(body)?;
    let by_token = req.token.is_some();
    let (_, token, mut cookie) = seat_and_token(&st, &headers, &id, req.seat, req.token).await?;
    let (seated, view) = st.hub.join_view(&id, &token).await?;
    // A seat taken by its link while signed in becomes the account's.
    let bound = if by_token {
        let (bound, c) = self::accounts::bind_if_signed(&st, &headers, &id, seated.seat).await?;
        cookie = cookie.or(c);
        crate::accounts::cookie_token(&headers).map(|_| bound)
    } else {
        Some(true)
    };
    // {"game", "seat", "name", "view"}: the view as that seat sees it.
    let head = serde_json::to_string(&shapes::Joined::new(&id, &seated, bound)).map_err(GameError::internal)?;
    let view = view.view();
    let mut body = Vec::with_capacity(head.len() + view.len() + 16);
    body.extend_from_slice(&head.as_bytes()[..head.len() - 1]);
    body.extend_from_slice(b",\"view\":");
    body.extend_from_slice(&view);
    body.push(b'}');
    Ok(refreshed(json_bytes(StatusCode::OK, Bytes::from(body)), cookie))
}

async fn act(
    State(st): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let req: ActRequest = parse(body)?;
    let command = req.action.to_command()?;
    let (_, token, cookie) = seat_and_token(&st, &headers, &id, Some(req.seat), req.token).await?;
    let (version, view) =
        st.hub.submit(&id, Who::Human { seat: req.seat, token: &token }, req.version, command).await?;
    let view = view.view();
    let mut body = Vec::with_capacity(view.len() + 32);
    body.extend_from_slice(format!("{{\"version\":{version},\"view\":").as_bytes());
    body.extend_from_slice(&view);
    body.push(b'}');
    Ok(refreshed(json_bytes(StatusCode::OK, Bytes::from(body)), cookie))
}

async fn feature(
    State(st): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let mut req: FeatureRequest = parse(body)?;
    if req.token.is_none() && req.seat.is_some() {
        req.token = Some(seat_and_token(&st, &headers, &id, req.seat, None).await?.1);
    }
    let at = match (i32::try_from(req.at[0]), i32::try_from(req.at[1])) {
        (Ok(x), Ok(y)) => carcassonne_engine::Pos::new(x, y),
        _ => return Err(GameError::Malformed("not a board position".into()).into()),
    };
    let report = st.hub.inspect(&id, at, req.piece, req.version, req.token.as_deref()).await?;
    Ok(ok_json(StatusCode::OK, &report))
}

async fn record_view(body: Body) -> Result<Response, ApiError> {
    let req: crate::records::RecordRequest = parse(body)?;
    let text =
        tokio::task::spawn_blocking(move || crate::records::answer(req)).await.map_err(GameError::internal)??;
    Ok(json(StatusCode::OK, text))
}

async fn record_feature(body: Body) -> Result<Response, ApiError> {
    let req: crate::records::RecordFeatureRequest = parse(body)?;
    let report =
        tokio::task::spawn_blocking(move || crate::records::feature(req)).await.map_err(GameError::internal)??;
    Ok(ok_json(StatusCode::OK, &report))
}

async fn history(State(st): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    Ok(json(StatusCode::OK, st.hub.history(&id).await?))
}

async fn review_status(State(st): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    Ok(json(StatusCode::OK, st.hub.review_status(&id).await?.to_json()))
}

/// Starts the review of a finished game, charged to the asking address.
async fn start_review(
    State(st): State<AppState>,
    Path(id): Path<String>,
    peer: Option<Extension<ClientAddr>>,
) -> Result<Response, ApiError> {
    let status = st.hub.start_review(&id, owner_of(peer)).await?;
    Ok(json(StatusCode::ACCEPTED, status.to_json()))
}

/// The odds of the next tile and of the open features (docs/analysis.md).
async fn odds(
    State(st): State<AppState>,
    Path(id): Path<String>,
    q: Result<Query<VersionQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = q.map_err(|r| GameError::Malformed(r.body_text()))?;
    let odds = st.hub.odds(&id, q.version, None).await?;
    Ok(ok_json(StatusCode::OK, &odds))
}

/// The odds as a seat sees the position, over its provisional decisions
/// (its token in the body, never in a URL that logs keep).
async fn odds_of_seat(
    State(st): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let mut req: OddsRequest = parse(body)?;
    if req.token.is_none() && req.seat.is_some() {
        req.token = Some(seat_and_token(&st, &headers, &id, req.seat, None).await?.1);
    }
    let odds = st.hub.odds(&id, req.version, req.token.as_deref()).await?;
    Ok(ok_json(StatusCode::OK, &odds))
}

/// A hint for the seat whose token is sent, charged to the asking address.
async fn hint(
    State(st): State<AppState>,
    Path(id): Path<String>,
    peer: Option<Extension<ClientAddr>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let req: HintRequest = parse(body)?;
    let (_, token, _) = seat_and_token(&st, &headers, &id, req.seat, req.token).await?;
    let hint = st.hub.hint(&id, &token, req.version, owner_of(peer)).await?;
    Ok(ok_json(StatusCode::OK, &hint))
}

/// The spectators' room of a game's chat.
async fn chat(
    State(st): State<AppState>,
    Path(id): Path<String>,
    q: Result<Query<ChatQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = q.map_err(|r| GameError::Malformed(r.body_text()))?;
    let (room, messages) = st.hub.chat(&id, Reader::Anyone, q.since.unwrap_or(0)).await?;
    Ok(ok_json(StatusCode::OK, &serde_json::json!({ "room": room, "messages": messages })))
}

/// The players' room, for the holder of a seat's token (or of the
/// account the seat is bound to).
async fn chat_of_players(
    State(st): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let req: ChatReadRequest = parse(body)?;
    let (_, token, cookie) = seat_and_token(&st, &headers, &id, req.seat, req.token).await?;
    let (room, messages) = st.hub.chat(&id, Reader::Seat { token: &token }, req.since.unwrap_or(0)).await?;
    Ok(refreshed(ok_json(StatusCode::OK, &serde_json::json!({ "room": room, "messages": messages })), cookie))
}

/// A chat message: a seat's in the players' room, or a spectator's.
async fn say(
    State(st): State<AppState>,
    Path(id): Path<String>,
    peer: Option<Extension<ClientAddr>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let req: ChatRequest = parse(body)?;
    let as_seat = req.token.is_some() || req.seat.is_some();
    if as_seat && req.name.is_some() {
        return Err(
            GameError::Malformed("a seat speaks under its own name: send a seat or a name, not both".into()).into()
        );
    }
    // A seat by its token or its account's session; else a spectator.
    let (seat, token, cookie) = match as_seat {
        true => {
            let (_, token, cookie) = seat_and_token(&st, &headers, &id, req.seat, req.token).await?;
            // The seat is known before the message is weighed, for its own rate.
            (Some(st.hub.join(&id, &token).await?.seat), Some(token), cookie)
        }
        false => (None, None, None),
    };
    let speaker = match &token {
        Some(token) => Speaker::Seat { token },
        None => Speaker::Spectator { name: req.name.as_deref() },
    };
    st.guard.chat(&id, seat, peer.map(|p| p.0 .0))?;
    let line = st.hub.say(&id, speaker, &req.text).await?;
    Ok(refreshed(ok_json(StatusCode::CREATED, &serde_json::json!({ "message": line })), cookie))
}

async fn record(State(st): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let record = st.hub.record(&id).await?;
    let mut r = json(StatusCode::OK, record.to_json_pretty());
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"carcassonne-{id}.json\"")) {
        r.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(r)
}
