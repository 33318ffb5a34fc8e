//! The WebSocket of a game (`GET /api/games/{id}/ws`, docs/api.md): the
//! views pushed as they change, actions taken as over HTTP, pings both
//! ways, and the connection's place in the counts.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap};
use axum::response::Response;
use axum::Extension;
use serde_json::Value;
use tokio::sync::watch;

use super::shapes::ClientMessage;
use super::{ApiError, AppState, MAX_WS_MESSAGE, WS_PROTOCOL};
use crate::error::GameError;
use crate::game::{Hub, Slot, Who};
use crate::limits::{ClientAddr, MessageLimiter, SeatPermit, SocketPermit};
use crate::net::ConnectionHold;
use crate::store::chat::Room;

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

/// Close code of a signed-in connection whose session has ended.
const SESSION_ENDED: u16 = 4003;

/// Most seat tokens one WebSocket may offer (the most seats of a game).
const MAX_WS_TOKENS: usize = carcassonne_engine::setup::MAX_PLAYERS;

/// A WebSocket's place in the counts: a seat's, or a spectator's.
enum Place {
    Seat(SeatPermit),
    Spectator(#[allow(dead_code)] SocketPermit),
}

/// A WebSocket's signed-in account (from the session cookie of its
/// upgrade): its seats of the game are its own, and it acts for them
/// without a token while the session lasts.
#[derive(Clone, Debug)]
struct SignedIn {
    /// The session's key in the database, checked again before each act.
    digest: String,
    account: i64,
}

pub(super) async fn upgrade(
    State(st): State<AppState>,
    peer: Option<Extension<ClientAddr>>,
    hold: Option<Extension<ConnectionHold>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let slot = st.hub.slot(&id).await?;
    let upgrade = upgrade.map_err(|r| GameError::Malformed(r.body_text()))?;
    // A seat's own connections are never refused for room; spectators
    // share capped places.
    let tokens = offered_tokens(&headers);
    let mut seats = Vec::with_capacity(tokens.len());
    for token in tokens {
        seats.push(st.hub.join(&id, token).await?.seat);
    }
    // Signed in (and opened by this site's page: another site's could not
    // read what it is sent, but it could act): the account's seats too. A
    // session that ended leaves a spectator's connection.
    let mut signed = None;
    if super::accounts::cross_site(&headers).is_none() {
        if let Ok(Some((session, _))) = super::accounts::session_of(&st, &headers).await {
            for seat in st.hub.store().seats_of(&id, session.account.id).await.map_err(GameError::from)? {
                if !seats.contains(&seat) {
                    seats.push(seat);
                }
            }
            signed = Some(SignedIn { digest: session.digest, account: session.account.id });
        }
    }
    let place = match seats.first() {
        Some(&seat) => Place::Seat(st.guard.seat_socket(&id, seat)),
        None => Place::Spectator(st.guard.socket(&id, peer.map(|p| p.0 .0))?),
    };
    let session = Session {
        signed,
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

/// One client's connection to a game; `place` and `_hold` keep its places
/// in the counts until it ends.
struct Session {
    /// The seats whose tokens the client offered (and its account's):
    /// their own views (over their provisional decisions) come to this
    /// connection.
    seats: Vec<usize>,
    signed: Option<SignedIn>,
    hub: Arc<Hub>,
    id: String,
    slot: Arc<Slot>,
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

    /// The chat's room this client follows: the players' for a seat's
    /// holder, the spectators' for anyone else.
    fn room(&self) -> Room {
        if self.seats.is_empty() {
            Room::Spectators
        } else {
            Room::Players
        }
    }

    /// The room's messages after `heard`, as one message to send (none if
    /// nothing is new); `heard` moves to the last one.
    async fn chat_message(&self, heard: &mut u64) -> Option<Message> {
        let room = self.room();
        let lines = match self.hub.chat_of(&self.id, room, *heard).await {
            Ok(lines) => lines,
            Err(e) => {
                crate::logging::warn_throttled("chat", format_args!("cannot read the chat: {e}"), &self.id, e.cause());
                return None;
            }
        };
        *heard = lines.last().map_or(*heard, |l| l.id);
        if lines.is_empty() {
            return None;
        }
        let text = serde_json::json!({ "type": "chat", "room": room, "messages": lines }).to_string();
        Some(Message::Text(text.into()))
    }

    /// Whether the session this connection's account seats came by has
    /// ended (checked at each ping; a database that does not answer ends
    /// nothing).
    async fn session_ended(&self) -> bool {
        let Some(signed) = &self.signed else { return false };
        let found =
            tokio::time::timeout(self.pong_timeout, self.hub.store().session(&signed.digest, crate::game::now()));
        matches!(found.await, Ok(Ok(None)))
    }

    async fn run(mut self, mut socket: WebSocket) {
        let mut views = self.slot.subscribe();
        let mut private = self.slot.subscribe_private();
        let mut chat = self.slot.subscribe_chat();
        // Followed from now on: the hub keeps this copy and refreshes it on
        // other servers' writes; one made before is caught by a check now.
        let kept = self.hub.keep(&self.id, &self.slot);
        if !Arc::ptr_eq(&kept, &self.slot) {
            self.slot = kept;
            views = self.slot.subscribe();
            private = self.slot.subscribe_private();
            chat = self.slot.subscribe_chat();
        }
        self.hub.check(&self.slot).await;
        views.borrow_and_update();
        private.borrow_and_update();
        chat.borrow_and_update();
        let Some(first) = view_message(&self.current()) else { return };
        if socket.send(first).await.is_err() {
            return;
        }
        // The chat so far, then what is said from now on.
        let mut heard = 0;
        if let Some(said) = self.chat_message(&mut heard).await {
            if socket.send(said).await.is_err() {
                return;
            }
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
                    // A session ended elsewhere (signed out everywhere, a new
                    // password): its seats' own views stop with it. The
                    // client reconnects, as a spectator or by its tokens.
                    if self.session_ended().await {
                        tracing::info!(class = "session_ended", game = %self.id, "WebSocket closed: its session has ended");
                        break close(SESSION_ENDED, "the session has ended");
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
                changed = chat.changed() => {
                    if changed.is_err() {
                        break None;
                    }
                    chat.borrow_and_update();
                    if let Some(said) = self.chat_message(&mut heard).await {
                        if socket.send(said).await.is_err() {
                            break None;
                        }
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
                            (Ok(()), Message::Text(t)) => handle(&self.hub, &self.id, self.signed.as_ref(), t.as_str()).await,
                            (Ok(()), _) => {
                                Some(error_message(Value::Null, &GameError::Malformed("send JSON text frames".into())))
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

fn error_message(id: Value, e: &GameError) -> String {
    serde_json::json!({ "type": "error", "id": id, "error": e.body() }).to_string()
}

/// The token to act for `seat` with: the one sent, or without one the
/// seat's own when it is bound to the connection's account and its
/// session has not ended (it may have been ended elsewhere since).
async fn act_token(
    hub: &Arc<Hub>,
    game: &str,
    signed: Option<&SignedIn>,
    seat: usize,
    token: Option<String>,
) -> Result<String, GameError> {
    if let Some(token) = token {
        return Ok(token);
    }
    let Some(signed) = signed else {
        return Err(GameError::Malformed(
            "missing field `token` (a seat's token, or a signed-in connection's own seat)".into(),
        ));
    };
    let alive = hub.store().session(&signed.digest, crate::game::now()).await?;
    if alive.is_none_or(|s| s.account.id != signed.account) {
        return Err(GameError::NotSignedIn("this connection's session has ended: sign in again".into()));
    }
    if !hub.store().seats_of(game, signed.account).await?.contains(&seat) {
        return Err(GameError::NotYourSeat(seat));
    }
    hub.seat_token(game, seat).await
}

/// Answers one client message.
async fn handle(hub: &Arc<Hub>, game: &str, signed: Option<&SignedIn>, text: &str) -> Option<String> {
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return Some(error_message(Value::Null, &GameError::Malformed(format!("not JSON: {e}")))),
    };
    let id = value.get("id").cloned().unwrap_or(Value::Null);
    let msg: ClientMessage = match serde_json::from_value(value) {
        Ok(m) => m,
        Err(e) => return Some(error_message(id, &GameError::Malformed(format!("not a message of this API: {e}")))),
    };
    match msg {
        ClientMessage::Ping => Some(r#"{"type":"pong"}"#.to_string()),
        ClientMessage::Act { seat, token, version, action } => {
            let result = match (action.to_command(), act_token(hub, game, signed, seat, token).await) {
                (Ok(c), Ok(token)) => hub.submit(game, Who::Human { seat, token: &token }, version, c).await,
                (Err(e), _) | (_, Err(e)) => Err(e),
            };
            Some(match result {
                Ok((version, _)) => serde_json::json!({ "type": "ack", "id": id, "version": version }).to_string(),
                Err(e) if e.is_failure() => {
                    // The cause goes to the log, under an id the client is told.
                    let request = super::error::request_id();
                    crate::logging::request_failed(
                        e.code(),
                        0,
                        "WS",
                        "act",
                        "-",
                        game,
                        &request,
                        e.cause(),
                        &e.to_string(),
                    );
                    let mut body = e.body();
                    body.request = Some(request);
                    serde_json::json!({ "type": "error", "id": id, "error": body }).to_string()
                }
                Err(e) => error_message(id, &e),
            })
        }
    }
}
