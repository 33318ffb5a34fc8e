//! The JSON shapes of the API's requests and answers (docs/api.md), and
//! the browser links of a game: the authority knows neither.

use carcassonne_engine::RuleOptions;
use serde::{Deserialize, Serialize};

use crate::game::{Created, FirstSeat, NewGame, NewSeat, Seated};
use crate::live::SeatPublic;
use crate::wire::ActionIn;

/// `POST /api/games`.
#[derive(Debug, Deserialize)]
pub struct CreateRequest {
    pub seats: Vec<SeatRequest>,
    #[serde(default)]
    pub expansions: Vec<String>,
    #[serde(default)]
    pub edition: Option<String>,
    /// Rule variants, as a record's `setup.rules`; an unknown name is
    /// refused as malformed.
    #[serde(default)]
    pub rules: RuleOptions,
    /// Listed in `GET /api/games` (otherwise only its links find it).
    #[serde(default)]
    pub public: bool,
    /// The human seats' decisions of a turn stay provisional, seen by that
    /// seat alone and undoable, until it ends the turn (`end_turn`).
    #[serde(default)]
    pub undo: bool,
    /// The human seats may ask for hints, the strongest bot's choice for
    /// the decision at hand (`POST /api/games/{id}/hint`); each is written
    /// in the record.
    #[serde(default)]
    pub hints: bool,
    /// Who moves first: `"random"` (a seat drawn uniformly) or a seat's
    /// place in `seats` (0, the first listed, by default).
    #[serde(default)]
    pub first: Option<FirstRequest>,
    /// The game moves its players' ratings when it ends (docs/api.md,
    /// Ratings): the creator signed in and holding a seat, the bots of
    /// ladder levels, no hints.
    #[serde(default)]
    pub rated: bool,
    /// A time control (docs/api.md, Clocks): `{"per_move": seconds}` or
    /// `{"base": seconds, "increment": seconds}`, with `on_timeout`.
    #[serde(default)]
    pub clock: Option<crate::game::clock::ClockSetup>,
}

/// `first` as sent: a seat number or `"random"`; anything else is refused
/// with those two named.
#[derive(Debug, Clone, Copy)]
pub struct FirstRequest(pub FirstSeat);

impl<'de> Deserialize<'de> for FirstRequest {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = FirstRequest;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("\"random\" or a seat number for \"first\" (0 the first seat listed)")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<FirstRequest, E> {
                usize::try_from(v)
                    .map(|i| FirstRequest(FirstSeat::Seat(i)))
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(v), &self))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<FirstRequest, E> {
                match v {
                    "random" => Ok(FirstRequest(FirstSeat::Random)),
                    _ => Err(E::invalid_value(serde::de::Unexpected::Str(v), &self)),
                }
            }
        }
        d.deserialize_any(Visit)
    }
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum SeatRequest {
    Human {
        #[serde(default)]
        name: Option<String>,
        #[serde(default)]
        colour: Option<String>,
        /// The seat is the signed-in creator's, bound to the account.
        #[serde(default)]
        mine: bool,
    },
    Bot {
        #[serde(default)]
        level: Option<String>,
        #[serde(default)]
        name: Option<String>,
        #[serde(default)]
        colour: Option<String>,
    },
}

impl CreateRequest {
    /// The places in `seats` of the seats asked to be the creator's own.
    pub fn mine(&self) -> Vec<usize> {
        let mine = |s: &SeatRequest| matches!(s, SeatRequest::Human { mine: true, .. });
        self.seats.iter().enumerate().filter(|(_, s)| mine(s)).map(|(i, _)| i).collect()
    }
}

impl From<CreateRequest> for NewGame {
    fn from(r: CreateRequest) -> NewGame {
        let seats = r
            .seats
            .into_iter()
            .map(|s| match s {
                SeatRequest::Human { name, colour, .. } => NewSeat::Human { name, colour, account: None },
                SeatRequest::Bot { level, name, colour } => NewSeat::Bot { level, name, colour },
            })
            .collect();
        NewGame {
            seats,
            expansions: r.expansions,
            edition: r.edition,
            rules: r.rules,
            public: r.public,
            undo: r.undo,
            hints: r.hints,
            first: r.first.map(|f| f.0),
            rated: r.rated,
            clock: r.clock,
        }
    }
}

/// The answer to `POST /api/games`.
#[derive(Debug, Serialize)]
pub struct CreateResponse {
    pub game: String,
    pub version: u64,
    pub seats: Vec<CreatedSeat>,
    pub spectate: String,
    pub public: bool,
}

/// A seat as everyone may see it, plus its secret join link for its creator.
#[derive(Debug, Serialize)]
pub struct CreatedSeat {
    #[serde(flatten)]
    pub public: SeatPublic,
    /// Its place in the request's `seats` (another than `seat` when the
    /// request's `first` put another seat first).
    pub asked: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
}

/// The browser's link to play seat `token` of game `id`: the token stays in
/// the fragment, out of every server's logs.
pub fn play_link(id: &str, token: &str) -> String {
    format!("/#game={id}&token={token}")
}

/// The browser's link to watch game `id`.
pub fn spectate_link(id: &str) -> String {
    format!("/#game={id}")
}

impl From<Created> for CreateResponse {
    fn from(c: Created) -> CreateResponse {
        let seats = c
            .seats
            .into_iter()
            .zip(c.asked)
            .map(|((public, token), asked)| CreatedSeat {
                public,
                asked,
                link: token.as_deref().map(|t| play_link(&c.id, t)),
                token,
            })
            .collect();
        CreateResponse { spectate: spectate_link(&c.id), game: c.id, version: c.version, seats, public: c.public }
    }
}

/// The head of `POST /join`'s answer (the view follows it).
#[derive(Debug, Serialize)]
pub struct Joined<'a> {
    pub game: &'a str,
    pub seat: usize,
    pub name: &'a str,
    /// Signed in: whether the seat is bound to the account.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound: Option<bool>,
}

impl<'a> Joined<'a> {
    pub fn new(game: &'a str, seated: &'a Seated, bound: Option<bool>) -> Joined<'a> {
        Joined { game, seat: seated.seat, name: &seated.name, bound }
    }
}

#[derive(Deserialize)]
pub struct ListQuery {
    pub status: Option<String>,
    pub limit: Option<u32>,
    pub offset: Option<u32>,
}

#[derive(Deserialize)]
pub struct VersionQuery {
    pub version: Option<u64>,
}

/// `POST /join`: a seat's token, or (signed in, no token) one of the
/// account's seats.
#[derive(Deserialize)]
pub struct JoinRequest {
    #[serde(default)]
    pub token: Option<String>,
    #[serde(default)]
    pub seat: Option<usize>,
}

/// `POST /actions`: without a token, the seat is the signed-in account's.
#[derive(Deserialize)]
pub struct ActRequest {
    pub seat: usize,
    #[serde(default)]
    pub token: Option<String>,
    pub version: u64,
    pub action: ActionIn,
}

#[derive(Deserialize)]
pub struct FeatureRequest {
    pub at: [i64; 2],
    pub piece: usize,
    #[serde(default)]
    pub version: Option<u64>,
    #[serde(default)]
    pub token: Option<String>,
    /// Signed in, without a token: the account's seat.
    #[serde(default)]
    pub seat: Option<usize>,
}

/// `POST /api/games/{id}/odds`: a past version, or the position a seat
/// sees over its provisional decisions.
#[derive(Debug, Deserialize)]
pub struct OddsRequest {
    #[serde(default)]
    pub version: Option<u64>,
    #[serde(default)]
    pub token: Option<String>,
    /// Signed in, without a token: the account's seat.
    #[serde(default)]
    pub seat: Option<usize>,
}

/// `POST /api/games/{id}/hint`: the seat's token and the version of the
/// view it decides on.
#[derive(Deserialize)]
pub struct HintRequest {
    #[serde(default)]
    pub token: Option<String>,
    /// Signed in, without a token: the account's seat.
    #[serde(default)]
    pub seat: Option<usize>,
    pub version: u64,
}

/// `GET /api/games/{id}/chat`: the messages after this id (the last ones
/// without it).
#[derive(Deserialize)]
pub struct ChatQuery {
    pub since: Option<u64>,
}

/// `POST /api/games/{id}/chat/read`: a seat's token (or, signed in, the
/// account's seat), for the players' room.
#[derive(Deserialize)]
pub struct ChatReadRequest {
    pub token: Option<String>,
    pub seat: Option<usize>,
    pub since: Option<u64>,
}

/// `POST /api/games/{id}/chat`: a seat's token or, signed in, the
/// account's seat (the players' room), or a spectator's name (the
/// spectators' room), and what is said.
#[derive(Deserialize)]
pub struct ChatRequest {
    pub token: Option<String>,
    pub seat: Option<usize>,
    pub name: Option<String>,
    pub text: String,
}

/// A WebSocket client's message.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    Act {
        seat: usize,
        #[serde(default)]
        token: Option<String>,
        version: u64,
        action: ActionIn,
    },
    Ping,
}
