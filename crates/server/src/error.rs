//! The game authority's refusals, typed and transport-free: every error a
//! client can get from a game, with its stable code. The HTTP layer maps
//! them to statuses (`crate::http::error`); the WebSocket sends the same
//! codes.
//!
//! What an error displays is its public message, short and safe for an
//! anonymous client; a failure's cause (the database's own words) is kept
//! apart, for the log only ([`GameError::cause`]).

use std::time::Duration;

use carcassonne_engine::PlayError;
use serde::Serialize;
use thiserror::Error;

use crate::store::StoreError;

/// How long a client is asked to wait when the database does not answer.
pub const RETRY_UNAVAILABLE: Duration = Duration::from_secs(2);

/// Why the authority refused a request. A refused request changes nothing,
/// but for a 5xx on a write, which may have been stored (see docs/api.md,
/// Errors: sent again at the same version, it is then `stale_version`).
#[derive(Debug, Error)]
pub enum GameError {
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
    #[error("too many requests: try again in {} s", crate::limits::retry_seconds(*.retry_after))]
    RateLimited { retry_after: Duration },
    #[error("{0}: try again later")]
    Busy(String),
    /// The database failed; the cause is for the log.
    #[error("the database failed: try again (an action may have been stored: reload the view)")]
    Storage { cause: String },
    /// The database did not answer in time, or cannot be reached.
    #[error("the database does not answer: try again in {} s", crate::limits::retry_seconds(*.retry_after))]
    Unavailable { cause: String, retry_after: Duration },
    #[error("internal error")]
    Internal(String),
    #[error("the game is not over: only a finished game can be reviewed")]
    NotFinished,
    #[error("{0}")]
    ReviewsBusy(String),
    #[error("this address has used its bot seconds for the hour (reviews and hints count as bots do): try again in {} s", crate::limits::retry_seconds(*.retry_after))]
    BotTimeUsed { retry_after: Duration },
    #[error("seat {0} may not ask for hints: this game was created without them")]
    HintsOff(usize),
    #[error("{0}")]
    HintsBusy(String),
    #[error("{0}")]
    BadMessage(String),
    #[error("this game's chat holds its most messages ({0}): no more can be said")]
    ChatFull(usize),
    /// Clocks: the seat's time ran out, and the bot plays for it.
    #[error("seat {0}'s time ran out: the server's bot plays for it")]
    OutOfTime(usize),
    /// The lobby: a table whose seats are no longer free.
    #[error("{0}")]
    TableClosed(String),
    /// Accounts (docs/api.md, Accounts): no session, or one that ended.
    #[error("{0}")]
    NotSignedIn(String),
    #[error("seat {0} of this game is not bound to your account (use its link's token)")]
    NotYourSeat(usize),
    #[error("no account has this name and password")]
    BadCredentials,
    #[error("the password is not this account's")]
    WrongPassword,
    #[error("{0}")]
    WeakPassword(String),
    #[error("{0}")]
    InvalidName(String),
    #[error("the name '{0}' is taken (names count as one whatever their case or look-alike forms)")]
    NameTaken(String),
    /// A request that changes something, made by another site's page.
    #[error("{0}")]
    CrossSite(String),
    /// Too many sign-in attempts for a name or from an address.
    #[error("too many sign-in attempts {per}: try again in {} s", crate::limits::retry_seconds(*.retry_after))]
    TooManyAttempts { retry_after: Duration, per: &'static str },
}

impl GameError {
    pub fn code(&self) -> &'static str {
        match self {
            GameError::Malformed(_) => "malformed",
            GameError::InvalidSetup(_) => "invalid_setup",
            GameError::BotBudget(_) => "bot_budget",
            GameError::NotFound(_) => "not_found",
            GameError::WrongToken(_) => "wrong_token",
            GameError::BotSeat(_) => "bot_seat",
            GameError::StaleVersion { .. } => "stale_version",
            GameError::NotYourTurn { .. } => "not_your_turn",
            GameError::GameOver => "game_over",
            GameError::NothingToUndo => "nothing_to_undo",
            GameError::InvalidRecord(_) => "invalid_record",
            GameError::TurnNotOver(_) => "turn_not_over",
            GameError::EndTurnFirst => "end_turn_first",
            GameError::Illegal(_) => "illegal_action",
            GameError::RateLimited { .. } => "rate_limited",
            GameError::Busy(_) => "busy",
            GameError::Storage { .. } => "storage",
            GameError::Unavailable { .. } => "unavailable",
            GameError::Internal(_) => "internal",
            GameError::NotFinished => "not_finished",
            GameError::ReviewsBusy(_) => "reviews_busy",
            GameError::BotTimeUsed { .. } => "bot_time_used",
            GameError::HintsOff(_) => "hints_off",
            GameError::HintsBusy(_) => "hints_busy",
            GameError::BadMessage(_) => "bad_message",
            GameError::ChatFull(_) => "chat_full",
            GameError::TableClosed(_) => "table_closed",
            GameError::OutOfTime(_) => "out_of_time",
            GameError::NotSignedIn(_) => "not_signed_in",
            GameError::NotYourSeat(_) => "not_your_seat",
            GameError::BadCredentials => "bad_credentials",
            GameError::WrongPassword => "wrong_password",
            GameError::WeakPassword(_) => "weak_password",
            GameError::InvalidName(_) => "invalid_name",
            GameError::NameTaken(_) => "name_taken",
            GameError::CrossSite(_) => "cross_site",
            GameError::TooManyAttempts { .. } => "rate_limited",
        }
    }

    /// A failure of the server rather than a refusal of the request.
    pub fn is_failure(&self) -> bool {
        matches!(self, GameError::Storage { .. } | GameError::Unavailable { .. } | GameError::Internal(_))
    }

    /// What the log gets beside the public message.
    pub fn cause(&self) -> Option<&str> {
        match self {
            GameError::Storage { cause } | GameError::Unavailable { cause, .. } | GameError::Internal(cause) => {
                Some(cause)
            }
            _ => None,
        }
    }

    /// How long the client should wait before trying again, if it should.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            GameError::RateLimited { retry_after }
            | GameError::Unavailable { retry_after, .. }
            | GameError::BotTimeUsed { retry_after }
            | GameError::TooManyAttempts { retry_after, .. } => Some(*retry_after),
            _ => None,
        }
    }

    pub fn no_game(id: &str) -> GameError {
        GameError::NotFound(format!("there is no game '{}'", clip(id, 40)))
    }

    pub fn internal(e: impl std::fmt::Display) -> GameError {
        GameError::Internal(e.to_string())
    }

    /// The `{"code", "message", "version"?}` object (`request` is added by
    /// the transport that has one).
    pub fn body(&self) -> ErrorBody {
        ErrorBody {
            code: self.code(),
            message: self.to_string(),
            version: match self {
                GameError::StaleVersion { current, .. } => Some(*current),
                _ => None,
            },
            request: None,
        }
    }
}

impl From<StoreError> for GameError {
    fn from(e: StoreError) -> GameError {
        match e {
            StoreError::Unavailable(cause) => GameError::Unavailable { cause, retry_after: RETRY_UNAVAILABLE },
            StoreError::Damaged { .. } => GameError::Internal(e.to_string()),
            StoreError::NameTaken(name) => GameError::NameTaken(name),
            e => GameError::Storage { cause: e.to_string() },
        }
    }
}

/// The inner object of an error response.
#[derive(Clone, Debug, Serialize)]
pub struct ErrorBody {
    pub code: &'static str,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<u64>,
    /// The request's id, which the log's line of a failure carries too.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request: Option<String>,
}

/// At most `n` characters of client text, for messages.
pub(crate) fn clip(s: &str, n: usize) -> String {
    let mut out: String = s.chars().take(n).filter(|c| !c.is_control()).collect();
    if s.chars().count() > n {
        out.push('…');
    }
    out
}
