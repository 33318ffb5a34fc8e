//! The lobby's endpoints (docs/api.md, Lobby): open tables, their seats,
//! and quick match. Listing and reading tables is public; everything that
//! takes or frees a seat needs a signed-in account, whose seat it becomes.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Extension, Router};
use serde::Deserialize;

use super::accounts::signed;
use super::{ok_json, owner_of, parse, refreshed, ApiError, AppState, Body};
use crate::game::lobby::{QuickRequest, TableSetup};
use crate::limits::ClientAddr;
use crate::store::lobby::{Left, Table};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ListQuery {
    limit: Option<u32>,
}

pub(super) fn routes(router: Router<AppState>) -> Router<AppState> {
    router
        .route("/api/lobby", get(list).post(open))
        .route("/api/lobby/{id}", get(table))
        .route("/api/lobby/{id}/join", post(join))
        .route("/api/lobby/{id}/leave", post(leave))
        .route("/api/quick-match", get(quick_status).post(quick).delete(cancel))
}

/// A table as answered to `account` (if signed in): with its seat in the
/// started game, whose order was drawn.
async fn shown(st: &AppState, table: Table, account: Option<i64>) -> Result<serde_json::Value, ApiError> {
    let seat = match (&table.game, account) {
        (Some(game), Some(a)) if table.players.iter().any(|p| p.account == a) => {
            st.hub.store().seats_of(game, a).await.map_err(crate::error::GameError::from)?.first().copied()
        }
        _ => None,
    };
    let mut v = serde_json::to_value(&table).map_err(crate::error::GameError::internal)?;
    if let Some(seat) = seat {
        v["seat"] = seat.into();
    }
    Ok(v)
}

async fn list(State(st): State<AppState>, q: Result<Query<ListQuery>, QueryRejection>) -> Result<Response, ApiError> {
    let Query(q) = q.map_err(|r| crate::error::GameError::Malformed(r.body_text()))?;
    let tables = st.hub.open_tables(q.limit.unwrap_or(50)).await?;
    Ok(ok_json(StatusCode::OK, &serde_json::json!({ "tables": tables })))
}

async fn open(State(st): State<AppState>, headers: HeaderMap, body: Body) -> Result<Response, ApiError> {
    let (session, cookie) = signed(&st, &headers).await?;
    let setup: TableSetup = parse(body)?;
    let account = &session.account;
    let table = st.hub.open_table((account.id, account.name.clone()), setup).await?;
    Ok(refreshed(ok_json(StatusCode::CREATED, &table), cookie))
}

async fn table(
    State(st): State<AppState>,
    peer: Option<Extension<ClientAddr>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let table = st.hub.look_at_table(&id, owner_of(peer)).await?;
    let (account, cookie) = match super::accounts::session_of(&st, &headers).await {
        Ok(Some((s, c))) => (Some(s.account.id), c),
        _ => (None, None),
    };
    Ok(refreshed(ok_json(StatusCode::OK, &shown(&st, table, account).await?), cookie))
}

async fn join(
    State(st): State<AppState>,
    peer: Option<Extension<ClientAddr>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (session, cookie) = signed(&st, &headers).await?;
    st.hub.join_table(&id, session.account.id, owner_of(peer)).await?;
    let table = st.hub.table(&id).await?;
    Ok(refreshed(ok_json(StatusCode::OK, &shown(&st, table, Some(session.account.id)).await?), cookie))
}

async fn leave(State(st): State<AppState>, headers: HeaderMap, Path(id): Path<String>) -> Result<Response, ApiError> {
    let (session, cookie) = signed(&st, &headers).await?;
    let left = match st.hub.leave_table(&id, session.account.id).await? {
        Left::Closed => "closed",
        Left::Freed => "freed",
        Left::Nothing => "nothing",
    };
    Ok(refreshed(ok_json(StatusCode::OK, &serde_json::json!({ "left": left })), cookie))
}

async fn quick(
    State(st): State<AppState>,
    peer: Option<Extension<ClientAddr>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let (session, cookie) = signed(&st, &headers).await?;
    let req: QuickRequest = parse(body)?;
    let account = &session.account;
    let table = st.hub.quick_match(account.id, req, owner_of(peer)).await?;
    Ok(refreshed(ok_json(StatusCode::OK, &shown(&st, table, Some(account.id)).await?), cookie))
}

async fn quick_status(
    State(st): State<AppState>,
    peer: Option<Extension<ClientAddr>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let (session, cookie) = signed(&st, &headers).await?;
    let table = match st.hub.quick_status(session.account.id, owner_of(peer)).await? {
        Some(t) => shown(&st, t, Some(session.account.id)).await?,
        None => serde_json::Value::Null,
    };
    Ok(refreshed(ok_json(StatusCode::OK, &serde_json::json!({ "table": table })), cookie))
}

async fn cancel(State(st): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    let (session, cookie) = signed(&st, &headers).await?;
    let cancelled = st.hub.cancel_quick(session.account.id).await?;
    Ok(refreshed(ok_json(StatusCode::OK, &serde_json::json!({ "cancelled": cancelled })), cookie))
}
