//! The accounts' endpoints (docs/api.md, Accounts), the session cookie,
//! the seats a session acts for, and the refusal of cross-site requests.
//!
//! Cross-site request forgery: every request that changes something and
//! is authenticated by the cookie (and every request to the accounts'
//! endpoints, signing in included) must come from this site's own pages.
//! A browser says where a request comes from in `Sec-Fetch-Site` (every
//! current one) and `Origin` (on every cross-origin POST, and on same-origin
//! ones too in current browsers): the first must be `same-origin` (or
//! `none`, typed by the user), the second name the host asked for. A request
//! with neither is no browser's page's (a program, which holds no one's
//! cookie unless given it). The cookie is also `SameSite=Lax`, so a
//! browser does not send it with another site's POST at all: the check is
//! the second line, and it holds for browsers that ignore `SameSite`. The
//! accounts' endpoints take only `Content-Type: application/json`, which
//! no form of another site can send without asking (a CORS preflight this
//! server never grants).

use std::net::IpAddr;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Extension, Router};
use serde::de::DeserializeOwned;
use serde::Deserialize;

use super::{ok_json, ApiError, AppState, Body};
use crate::accounts::{cookie_token, Begun, Secret, Session};
use crate::error::GameError;
use crate::game::now;
use crate::limits::ClientAddr;

/// `POST /api/accounts` and `POST /api/session`.
#[derive(Debug, Deserialize)]
struct Credentials {
    name: String,
    password: Secret,
}

/// `POST /api/me/password`.
#[derive(Debug, Deserialize)]
struct PasswordChange {
    old: Secret,
    new: Secret,
}

/// `POST /api/me/delete`.
#[derive(Debug, Deserialize)]
struct PasswordOnly {
    password: Secret,
}

#[derive(Debug, Deserialize)]
struct Page {
    limit: Option<u32>,
    offset: Option<u32>,
}

pub(super) fn routes(router: Router<AppState>) -> Router<AppState> {
    router
        .route("/api/accounts", post(register))
        .route("/api/session", post(sign_in).delete(sign_out))
        .route("/api/me", get(me))
        .route("/api/me/password", post(change_password))
        .route("/api/me/sessions", delete(sign_out_everywhere))
        .route("/api/me/delete", post(delete_account))
}

/// Whether `path` is one of the accounts' endpoints.
fn account_path(path: &str) -> bool {
    path == "/api/accounts" || path == "/api/session" || path == "/api/me" || path.starts_with("/api/me/")
}

/// Why a request is another site's, if it is (see the module's notes).
pub(super) fn cross_site(headers: &HeaderMap) -> Option<String> {
    if let Some(site) = headers.get("sec-fetch-site") {
        return match site.to_str().unwrap_or("") {
            "same-origin" | "none" => None,
            other => Some(format!("Sec-Fetch-Site is '{}'", crate::error::clip(other, 20))),
        };
    }
    let origin = headers.get(header::ORIGIN)?;
    let origin = origin.to_str().unwrap_or("null");
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    let origin_host = origin.split_once("://").map_or("", |(_, rest)| rest).trim_end_matches('/');
    if !host.is_empty() && origin_host.eq_ignore_ascii_case(host) {
        None
    } else {
        Some(format!("Origin '{}' is not this site ({})", crate::error::clip(origin, 60), crate::error::clip(host, 60)))
    }
}

/// Middleware over the API: a request that may change something, made by
/// another site's page, is refused (`cross_site`) when it carries the
/// session cookie or goes to an account's endpoint; before it is read.
pub(super) async fn refuse_cross_site(request: Request, next: Next) -> Response {
    let safe = matches!(*request.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    let checked = account_path(request.uri().path()) || cookie_token(request.headers()).is_some();
    if !safe && checked {
        if let Some(why) = cross_site(request.headers()) {
            return GameError::CrossSite(format!(
                "a request that changes something must come from this site's own pages ({why})"
            ))
            .into_response();
        }
    }
    next.run(request).await
}

/// A JSON body of the accounts' endpoints: `Content-Type: application/json`
/// only, and refusals that never quote a value of the body (it holds a
/// password).
fn json_body<T: DeserializeOwned>(headers: &HeaderMap, body: Body) -> Result<T, ApiError> {
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        return Err(ApiError::UnsupportedMediaType);
    }
    serde_json::from_slice(&body.0).map_err(|e| {
        let text = e.to_string();
        let why = if text.starts_with("missing field") || text.starts_with("unknown field") {
            text.split(" at line").next().unwrap_or("").to_string()
        } else {
            match e.classify() {
                serde_json::error::Category::Data => {
                    "a field is not of the type expected (names and passwords are strings)".into()
                }
                serde_json::error::Category::Eof => "the body ends too early".into(),
                _ => "the body is not JSON".into(),
            }
        };
        GameError::Malformed(format!(
            "the body is not the JSON expected: {why} (line {}, column {})",
            e.line(),
            e.column()
        ))
        .into()
    })
}

/// The client's address, when the request came through the server's
/// listener (not in-process).
fn client(addr: &Option<Extension<ClientAddr>>) -> Option<IpAddr> {
    addr.as_ref().map(|a| a.0 .0)
}

fn begun(st: &AppState, status: StatusCode, begun: Begun) -> Response {
    let cookie = crate::accounts::set_cookie(&begun.token, begun.expires, begun.at, st.accounts.secure_cookies);
    super::refreshed(ok_json(status, &serde_json::json!({ "account": begun.account })), Some(cookie))
}

fn cleared(st: &AppState, response: Response) -> Response {
    super::refreshed(response, Some(crate::accounts::clear_cookie(st.accounts.secure_cookies)))
}

/// The request's session, if it carries the cookie: `None` without one,
/// `not_signed_in` for one that has ended (or never was). With the cookie
/// to send again when the session was pushed back.
pub(super) async fn session_of(
    st: &AppState,
    headers: &HeaderMap,
) -> Result<Option<(Session, Option<String>)>, GameError> {
    let Some(token) = cookie_token(headers) else { return Ok(None) };
    match st.accounts.session(st.hub.store(), &token, now()).await? {
        Some(found) => Ok(Some(found)),
        None => Err(GameError::NotSignedIn(
            "this session has ended (it ran out, or was ended from another device): sign in again".into(),
        )),
    }
}

/// The request's session, which it needs.
pub(super) async fn signed(st: &AppState, headers: &HeaderMap) -> Result<(Session, Option<String>), GameError> {
    session_of(st, headers)
        .await?
        .ok_or_else(|| GameError::NotSignedIn("sign in first: this needs an account's session".into()))
}

/// The seat a request without a token acts for, by its session: `seat`
/// if bound to the account (or, with none named, the account's first seat
/// of the game). Returns the seat, its token (for the authority, which
/// knows no sessions) and the cookie to send again, if any. Without a
/// cookie, the token was simply missing: `malformed`, as before accounts.
pub(super) async fn seat_by_session(
    st: &AppState,
    headers: &HeaderMap,
    game: &str,
    seat: Option<usize>,
) -> Result<(usize, String, Option<String>), GameError> {
    let Some((session, cookie)) = session_of(st, headers).await? else {
        return Err(GameError::Malformed(
            "missing field `token` (a seat's token, or sign in: a signed-in player's own seats need none)".into(),
        ));
    };
    // The game first: an unknown game is not_found, whoever asks.
    st.hub.slot(game).await?;
    let mine = st.hub.store().seats_of(game, session.account.id).await?;
    let seat = match seat {
        Some(s) if mine.contains(&s) => s,
        Some(s) => return Err(GameError::NotYourSeat(s)),
        None => *mine.first().ok_or_else(|| {
            GameError::NotSignedIn("no seat of this game is bound to your account: open it with its link".into())
        })?,
    };
    let token = st.hub.seat_token(game, seat).await?;
    Ok((seat, token, cookie))
}

/// Binds `seat` of `game` to the request's account, if signed in and the
/// seat is bound to no one yet: a seat taken while signed in is the
/// account's. Whether it is the account's now.
pub(super) async fn bind_if_signed(
    st: &AppState,
    headers: &HeaderMap,
    game: &str,
    seat: usize,
) -> Result<(bool, Option<String>), GameError> {
    // A cookie of a session that ended does not stop a seat's token.
    let Ok(Some((session, cookie))) = session_of(st, headers).await else { return Ok((false, None)) };
    let bound = st.hub.store().bind_seat(game, seat, session.account.id).await?;
    Ok((bound == Some(session.account.id), cookie))
}

async fn register(
    State(st): State<AppState>,
    addr: Option<Extension<ClientAddr>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let req: Credentials = json_body(&headers, body)?;
    if let Some(ip) = client(&addr) {
        st.guard.sign_in(ip)?;
    }
    let b = st.accounts.register(st.hub.store(), &req.name, &req.password, now()).await?;
    Ok(begun(&st, StatusCode::CREATED, b))
}

async fn sign_in(
    State(st): State<AppState>,
    addr: Option<Extension<ClientAddr>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let req: Credentials = json_body(&headers, body)?;
    if let Some(ip) = client(&addr) {
        st.guard.sign_in(ip)?;
    }
    let max = st.guard.limits().sign_in_failures_per_name;
    let b = st.accounts.sign_in(st.hub.store(), &req.name, &req.password, max, now()).await?;
    Ok(begun(&st, StatusCode::OK, b))
}

/// Ends this session (if it is one) and removes the cookie, whatever it held.
async fn sign_out(State(st): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    if let Some(token) = cookie_token(&headers) {
        if crate::accounts::token_shaped(token.expose()) {
            st.hub.store().end_session(&crate::accounts::digest(token.expose())).await.map_err(GameError::from)?;
        }
    }
    Ok(cleared(&st, StatusCode::NO_CONTENT.into_response()))
}

async fn me(
    State(st): State<AppState>,
    headers: HeaderMap,
    q: Result<Query<Page>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = q.map_err(|r| GameError::Malformed(r.body_text()))?;
    let (session, cookie) = signed(&st, &headers).await?;
    let games = st
        .hub
        .store()
        .games_of(session.account.id, q.limit.unwrap_or(50).min(200), q.offset.unwrap_or(0))
        .await
        .map_err(GameError::from)?;
    let body = serde_json::json!({ "account": session.account, "expires": session.expires, "games": games });
    Ok(super::refreshed(ok_json(StatusCode::OK, &body), cookie))
}

async fn change_password(
    State(st): State<AppState>,
    addr: Option<Extension<ClientAddr>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let req: PasswordChange = json_body(&headers, body)?;
    let (session, _) = signed(&st, &headers).await?;
    if let Some(ip) = client(&addr) {
        st.guard.sign_in(ip)?;
    }
    let max = st.guard.limits().sign_in_failures_per_name;
    let b = st.accounts.change_password(st.hub.store(), &session, &req.old, &req.new, max, now()).await?;
    Ok(begun(&st, StatusCode::OK, b))
}

async fn sign_out_everywhere(State(st): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    let (session, _) = signed(&st, &headers).await?;
    let ended = st.hub.store().end_sessions(session.account.id).await.map_err(GameError::from)?;
    tracing::info!(account = session.account.id, ended, "signed out everywhere");
    Ok(cleared(&st, ok_json(StatusCode::OK, &serde_json::json!({ "ended": ended }))))
}

async fn delete_account(
    State(st): State<AppState>,
    addr: Option<Extension<ClientAddr>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let req: PasswordOnly = json_body(&headers, body)?;
    let (session, _) = signed(&st, &headers).await?;
    if let Some(ip) = client(&addr) {
        st.guard.sign_in(ip)?;
    }
    let max = st.guard.limits().sign_in_failures_per_name;
    st.accounts.delete(st.hub.store(), &session, &req.password, max, now()).await?;
    Ok(cleared(&st, StatusCode::NO_CONTENT.into_response()))
}
