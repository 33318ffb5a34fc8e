//! Typed refusals: every error a client can get, with its code and HTTP status.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use carcassonne_engine::PlayError;
use serde::Serialize;
use thiserror::Error;

/// Why a request was refused. A refused request changes nothing.
#[derive(Debug, Error)]
pub enum ApiError {
    #[error("{0}")]
    Malformed(String),
    #[error("{0}")]
    InvalidSetup(String),
    #[error("{0}")]
    BotBudget(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{}", match .0 { Some(seat) => format!("this token is not the one of seat {seat}"), None => "this token is not the one of any seat of this game".to_string() })]
    WrongToken(Option<usize>),
    #[error("seat {0} is played by a bot")]
    BotSeat(usize),
    #[error("the game is at version {current}, not {sent}: reload the view")]
    StaleVersion { current: u64, sent: u64 },
    #[error("it is seat {to_act}'s turn to act, not seat {seat}'s")]
    NotYourTurn { seat: usize, to_act: usize },
    #[error("the game is over")]
    GameOver,
    #[error("{0}")]
    InvalidRecord(String),
    #[error("there is no decision of this turn to take back")]
    NothingToUndo,
    #[error("{0}")]
    TurnNotOver(String),
    #[error("this turn is played out: end it (or undo) before the next one is played")]
    EndTurnFirst,
    #[error("{0}")]
    Illegal(#[from] PlayError),
    #[error("this endpoint does not take that method")]
    MethodNotAllowed,
    #[error("the request body is larger than {0} bytes")]
    TooLarge(usize),
    #[error("the request body did not arrive within {} s", .0.as_secs_f64())]
    Timeout(std::time::Duration),
    #[error("too many requests: try again in {} s", crate::limits::retry_seconds(*.retry_after))]
    RateLimited { retry_after: std::time::Duration },
    #[error("{0}: try again later")]
    Busy(String),
    #[error("the database failed, nothing was changed: {0}")]
    Storage(String),
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::Malformed(_) => "malformed",
            ApiError::InvalidSetup(_) => "invalid_setup",
            ApiError::BotBudget(_) => "bot_budget",
            ApiError::NotFound(_) => "not_found",
            ApiError::WrongToken(_) => "wrong_token",
            ApiError::BotSeat(_) => "bot_seat",
            ApiError::StaleVersion { .. } => "stale_version",
            ApiError::NotYourTurn { .. } => "not_your_turn",
            ApiError::GameOver => "game_over",
            ApiError::NothingToUndo => "nothing_to_undo",
            ApiError::InvalidRecord(_) => "invalid_record",
            ApiError::TurnNotOver(_) => "turn_not_over",
            ApiError::EndTurnFirst => "end_turn_first",
            ApiError::Illegal(_) => "illegal_action",
            ApiError::MethodNotAllowed => "method_not_allowed",
            ApiError::TooLarge(_) => "too_large",
            ApiError::Timeout(_) => "timeout",
            ApiError::RateLimited { .. } => "rate_limited",
            ApiError::Busy(_) => "busy",
            ApiError::Storage(_) => "storage",
            ApiError::Internal(_) => "internal",
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::Malformed(_) | ApiError::InvalidSetup(_) | ApiError::BotBudget(_) => StatusCode::BAD_REQUEST,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::WrongToken(_) | ApiError::BotSeat(_) => StatusCode::FORBIDDEN,
            ApiError::StaleVersion { .. }
            | ApiError::NotYourTurn { .. }
            | ApiError::GameOver
            | ApiError::NothingToUndo
            | ApiError::TurnNotOver(_)
            | ApiError::EndTurnFirst => StatusCode::CONFLICT,
            ApiError::Illegal(_) | ApiError::InvalidRecord(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Timeout(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Storage(_) | ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn no_game(id: &str) -> ApiError {
        ApiError::NotFound(format!("there is no game '{}'", clip(id, 40)))
    }

    /// The `{"code", "message", "version"?}` object.
    pub fn body(&self) -> ErrorBody {
        ErrorBody {
            code: self.code(),
            message: self.to_string(),
            version: match self {
                ApiError::StaleVersion { current, .. } => Some(*current),
                _ => None,
            },
        }
    }
}

/// The inner object of an error response.
#[derive(Debug, Serialize)]
pub struct ErrorBody {
    pub code: &'static str,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<u64>,
}

#[derive(Serialize)]
struct Envelope {
    error: ErrorBody,
}

/// A refusal's code and message, on its response for the request log.
#[derive(Clone, Debug)]
pub struct Refused {
    pub code: &'static str,
    pub message: String,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = self.body();
        let refused = Refused { code: body.code, message: body.message.clone() };
        let mut response = (self.status(), axum::Json(Envelope { error: body })).into_response();
        response.extensions_mut().insert(refused);
        if let ApiError::RateLimited { retry_after } = self {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(crate::limits::retry_seconds(retry_after)));
        }
        response
    }
}

/// At most `n` characters of client text, for messages.
pub(crate) fn clip(s: &str, n: usize) -> String {
    let mut out: String = s.chars().take(n).filter(|c| !c.is_control()).collect();
    if s.chars().count() > n {
        out.push('…');
    }
    out
}
