//! The ratings' endpoints (docs/api.md, Ratings): a player's or a level's
//! page, and the lists of the best rated. Everything here is public, as
//! on every game site, and only finished games feed it.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use serde::Deserialize;

use super::{ok_json, ApiError, AppState};
use crate::error::GameError;
use crate::game::now;
use crate::ratings::rated_level;
use crate::store::ratings::Whose;

/// Names the ratings' list shows at most.
const MAX_LIST: u32 = 200;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ListQuery {
    limit: Option<u32>,
}

pub(super) fn routes(router: Router<AppState>) -> Router<AppState> {
    router.route("/api/players/{name}", get(player)).route("/api/ratings", get(ratings))
}

/// `GET /api/players/{name}`: an account's page by its name (in any case
/// or look-alike form), or a level's by the level's name (no account has
/// one).
async fn player(State(st): State<AppState>, Path(name): Path<String>) -> Result<Response, ApiError> {
    let store = st.hub.store();
    let (shown, kind, whose) = if rated_level(&name) {
        (name.clone(), "level", Whose::Level(name))
    } else {
        let key = crate::names::fold(&name);
        let (account, _) =
            store.account_by_key(&key).await.map_err(GameError::from)?.ok_or_else(|| {
                GameError::NotFound(format!("no player is named '{}'", crate::error::clip(&name, 40)))
            })?;
        (account.name, "player", Whose::Account(account.id))
    };
    let page = store.page(whose, now()).await.map_err(GameError::from)?;
    let body = serde_json::json!({
        "name": shown,
        "kind": kind,
        "rating": page.rating,
        "history": page.history,
        "stats": page.stats,
    });
    Ok(ok_json(StatusCode::OK, &body))
}

/// `GET /api/ratings?limit=N`: the best rated players (those with a rated
/// game), and every level of the ladder.
async fn ratings(
    State(st): State<AppState>,
    q: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = q.map_err(|r| GameError::Malformed(r.body_text()))?;
    let limit = q.limit.unwrap_or(50).min(MAX_LIST);
    let at = now();
    let store = st.hub.store();
    let players = store.ranked(false, limit, at).await.map_err(GameError::from)?;
    let levels = store.levels(at).await.map_err(GameError::from)?;
    Ok(ok_json(StatusCode::OK, &serde_json::json!({ "players": players, "levels": levels })))
}
