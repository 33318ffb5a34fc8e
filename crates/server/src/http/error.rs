//! The HTTP error mapping: the authority's [`GameError`]s and the
//! transport's own refusals, each with its status, as
//! `{"error": {"code", "message", "version"?, "request"}}`.
//!
//! Every API response carries its request's id (`X-Request-Id`); a refusal
//! carries it in its body too, and the log's line of the refusal names it,
//! with the failure's cause, which the client never sees.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::error::{ErrorBody, GameError};

/// Why an HTTP request was refused.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error(transparent)]
    Game(#[from] GameError),
    #[error("this endpoint does not take that method")]
    MethodNotAllowed,
    #[error("the request body is larger than {0} bytes")]
    TooLarge(usize),
    #[error("the request body did not arrive within {} s", .0.as_secs_f64())]
    Timeout(Duration),
    #[error("send the body as JSON, with Content-Type: application/json")]
    UnsupportedMediaType,
}

impl ApiError {
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::Game(e) => e.code(),
            ApiError::MethodNotAllowed => "method_not_allowed",
            ApiError::TooLarge(_) => "too_large",
            ApiError::Timeout(_) => "timeout",
            ApiError::UnsupportedMediaType => "unsupported_media_type",
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::Game(e) => status(e),
            ApiError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Timeout(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        }
    }

    pub fn body(&self) -> ErrorBody {
        match self {
            ApiError::Game(e) => e.body(),
            e => ErrorBody { code: e.code(), message: e.to_string(), version: None, request: None },
        }
    }
}

/// The HTTP status of a game's refusal.
pub fn status(e: &GameError) -> StatusCode {
    match e {
        GameError::Malformed(_)
        | GameError::InvalidSetup(_)
        | GameError::BotBudget(_)
        | GameError::WeakPassword(_)
        | GameError::InvalidName(_) => StatusCode::BAD_REQUEST,
        GameError::NotSignedIn(_) | GameError::BadCredentials => StatusCode::UNAUTHORIZED,
        GameError::NotYourSeat(_) | GameError::WrongPassword | GameError::CrossSite(_) => StatusCode::FORBIDDEN,
        GameError::NameTaken(_) => StatusCode::CONFLICT,
        GameError::NotFound(_) => StatusCode::NOT_FOUND,
        GameError::WrongToken(_) | GameError::BotSeat(_) | GameError::HintsOff(_) => StatusCode::FORBIDDEN,
        GameError::StaleVersion { .. }
        | GameError::NotYourTurn { .. }
        | GameError::GameOver
        | GameError::NothingToUndo
        | GameError::TurnNotOver(_)
        | GameError::EndTurnFirst
        | GameError::NotFinished
        | GameError::ChatFull(_)
        | GameError::TableClosed(_)
        | GameError::OutOfTime(_) => StatusCode::CONFLICT,
        GameError::Illegal(_) | GameError::InvalidRecord(_) | GameError::BadMessage(_) => {
            StatusCode::UNPROCESSABLE_ENTITY
        }
        GameError::RateLimited { .. }
        | GameError::ReviewsBusy(_)
        | GameError::HintsBusy(_)
        | GameError::BotTimeUsed { .. }
        | GameError::TooManyAttempts { .. } => StatusCode::TOO_MANY_REQUESTS,
        GameError::Busy(_) | GameError::Unavailable { .. } => StatusCode::SERVICE_UNAVAILABLE,
        GameError::Storage { .. } | GameError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

#[derive(Serialize)]
struct Envelope<'a> {
    error: &'a ErrorBody,
}

/// A refusal, on its response until the request's middleware gives it its
/// request id and logs it.
#[derive(Clone, Debug)]
pub struct Refused {
    pub status: StatusCode,
    pub body: std::sync::Arc<ErrorBody>,
    /// The failure's cause, for the log only.
    pub cause: Option<String>,
    pub retry_after: Option<Duration>,
}

impl Refused {
    /// The response, naming `request`.
    pub fn response(&self, request: &str) -> Response {
        let body = ErrorBody { request: Some(request.to_string()), ..(*self.body).clone() };
        let text = serde_json::to_string(&Envelope { error: &body }).unwrap_or_else(|_| "{}".into());
        let mut response = (self.status, text).into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        if let Some(wait) = self.retry_after {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(crate::limits::retry_seconds(wait)));
        }
        response.extensions_mut().insert(self.clone());
        response
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (cause, retry_after) = match &self {
            ApiError::Game(e) => (e.cause().map(str::to_string), e.retry_after()),
            _ => (None, None),
        };
        let refused = Refused { status: self.status(), body: std::sync::Arc::new(self.body()), cause, retry_after };
        // Outside the API's middleware (no request id yet), as it is.
        refused.response("-")
    }
}

impl IntoResponse for GameError {
    fn into_response(self) -> Response {
        ApiError::Game(self).into_response()
    }
}

/// A fresh request id: this process's random prefix and a count, 16 hex
/// digits, unique enough to find one line in the logs of every server.
pub fn request_id() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    static PREFIX: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    let prefix = *PREFIX.get_or_init(rand::random::<u32>);
    format!("{prefix:08x}{:08x}", NEXT.fetch_add(1, Ordering::Relaxed) as u32)
}
