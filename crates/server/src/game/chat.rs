//! The chat of a game (docs/api.md, Chat): two rooms kept with the game.
//! The seats' holders talk in the players' room, which only they read;
//! anyone without a seat talks in the spectators' room, which anyone may
//! read (the players' page shows it only once the game is over, so that
//! no one is helped during play). Text is stored and sent as text, never
//! markup: the browser writes it with `textContent`.
//!
//! How often one may speak is the transport's to limit (per seat and per
//! address, [`crate::limits::Guard::chat`]); what may be said is the
//! authority's: [`clean_text`].

use unicode_properties::GeneralCategory;

use super::{now, same_secret, Hub, Slot};
use crate::error::GameError;
use crate::store::chat::{ChatLine, NewLine, Room};

/// Longest message, in characters.
pub const MAX_TEXT: usize = 500;
/// Most messages a game's chat keeps (both rooms); past it the chat is
/// full and refuses more.
pub const MAX_LINES: usize = 2000;
/// Most messages one read gives (a first look gives the last ones).
pub const PAGE: usize = 100;
/// The name of a spectator who gives none.
pub const SPECTATOR: &str = "Spectator";
/// Longest run of combining marks (an emoji's variation selector and
/// keycap are marks too).
const MAX_MARKS: usize = 4;

/// Who speaks: the holder of a seat's token, or a spectator by the name
/// they give.
#[derive(Clone, Copy, Debug)]
pub enum Speaker<'a> {
    Seat { token: &'a str },
    Spectator { name: Option<&'a str> },
}

/// Who reads: a seat's holder reads the players' room; anyone else the
/// spectators'.
#[derive(Clone, Copy, Debug)]
pub enum Reader<'a> {
    Seat { token: &'a str },
    Anyone,
}

impl Hub {
    /// Stores what `speaker` says in game `id` and tells the game's
    /// followers; the message as stored.
    pub async fn say(&self, id: &str, speaker: Speaker<'_>, text: &str) -> Result<ChatLine, GameError> {
        let text = clean_text(text)?;
        let slot = self.slot(id).await?;
        let (room, seat, name) = {
            let live = slot.live.lock().await;
            let seats = &live.meta.seats;
            match speaker {
                Speaker::Seat { token } => {
                    let seat = seat_of(seats, token)?;
                    (Room::Players, Some(seat), seats[seat].name.clone())
                }
                Speaker::Spectator { name } => {
                    let name = crate::names::clean(name, SPECTATOR.to_string()).map_err(|e| {
                        GameError::BadMessage(e.to_string().replace("a seat name", "a spectator's name"))
                    })?;
                    // No one passes for a player.
                    if seats.iter().any(|s| crate::names::fold(&s.name) == crate::names::fold(&name)) {
                        return Err(GameError::BadMessage(format!(
                            "'{name}' is the name of a seat of this game: choose another"
                        )));
                    }
                    (Room::Spectators, None, name)
                }
            }
        };
        let line = NewLine { game: id.to_string(), at: now(), room, seat, name, text };
        let stored = self.store.say(line, MAX_LINES).await.map_err(|e| super::storage_of(id, e))?;
        let line = stored.ok_or(GameError::ChatFull(MAX_LINES))?;
        tracing::info!(game = %id, room = ?line.room, seat = ?line.seat, id = line.id, "chat message");
        slot.heard_chat(line.id);
        Ok(line)
    }

    /// The messages `reader` may read in game `id` after message `since`
    /// (the last [`PAGE`] if `since` is 0), oldest first, and the room
    /// they are of.
    pub async fn chat(&self, id: &str, reader: Reader<'_>, since: u64) -> Result<(Room, Vec<ChatLine>), GameError> {
        let slot = self.slot(id).await?;
        let room = match reader {
            Reader::Seat { token } => {
                seat_of(&slot.live.lock().await.meta.seats, token)?;
                Room::Players
            }
            Reader::Anyone => Room::Spectators,
        };
        Ok((room, self.chat_of(id, room, since).await?))
    }

    /// The messages of a room after `since`, for a follower already let in.
    pub(crate) async fn chat_of(&self, id: &str, room: Room, since: u64) -> Result<Vec<ChatLine>, GameError> {
        self.store.chat(id, room, since, PAGE).await.map_err(GameError::from)
    }
}

impl Slot {
    /// A message of this game was stored (here, or by another server):
    /// its followers look for what is new.
    pub(crate) fn heard_chat(&self, line: u64) {
        self.chat.send_if_modified(|last| {
            let newer = line > *last;
            *last = (*last).max(line);
            newer
        });
    }

    /// Notices may have been missed: the followers look again.
    pub(crate) fn recheck_chat(&self) {
        self.chat.send_modify(|_| {});
    }

    /// Follows this game's chat: changes when a message may have come.
    pub fn subscribe_chat(&self) -> tokio::sync::watch::Receiver<u64> {
        self.chat.subscribe()
    }
}

fn seat_of(seats: &[crate::live::SeatRow], token: &str) -> Result<usize, GameError> {
    seats
        .iter()
        .position(|s| s.token.as_deref().is_some_and(|t| same_secret(t, token)))
        .ok_or(GameError::WrongToken(None))
}

/// A message as it is kept: NFC, every run of spaces and line breaks one
/// space, trimmed, at most [`MAX_TEXT`] characters. Refused: nothing to
/// say, control characters, the bidirectional controls that make text
/// read other than it is stored, and long runs of combining marks.
pub fn clean_text(text: &str) -> Result<String, GameError> {
    let out = crate::names::normalize(
        text,
        MAX_MARKS,
        |c, category| {
            c.is_whitespace() || matches!(category, GeneralCategory::LineSeparator | GeneralCategory::ParagraphSeparator)
        },
        |c, category| {
            if category == GeneralCategory::Control {
                Some("control characters")
            } else if matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}') {
                Some("bidirectional controls")
            } else {
                None
            }
        },
    )
    .map_err(|o| GameError::BadMessage(o.words("a message")))?;
    if out.is_empty() {
        return Err(GameError::BadMessage("the message is empty: say something".into()));
    }
    if out.chars().count() > MAX_TEXT {
        return Err(GameError::BadMessage(format!("a message has at most {MAX_TEXT} characters")));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bad(text: &str) -> String {
        match clean_text(text) {
            Err(GameError::BadMessage(m)) => m,
            other => panic!("{text:?} was not refused: {other:?}"),
        }
    }

    #[test]
    fn messages_are_tidied_into_one_line() {
        assert_eq!(clean_text("  well\n\nplayed \t !  ").unwrap(), "well played !");
        assert_eq!(clean_text("Jose\u{301}").unwrap(), "Jos\u{e9}");
        // Markup is text like any other: the browser never reads it as HTML.
        assert_eq!(clean_text("<b>hi</b> & <script>").unwrap(), "<b>hi</b> & <script>");
        // Emoji with their joiners, variation selectors and keycaps stay.
        for emoji in ["\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", "\u{2764}\u{FE0F}", "1\u{FE0F}\u{20E3}"] {
            assert_eq!(clean_text(emoji).unwrap(), emoji);
        }
        assert_eq!(clean_text(&"a".repeat(MAX_TEXT)).unwrap().len(), MAX_TEXT);
    }

    #[test]
    fn what_cannot_be_said() {
        assert!(bad("").contains("empty"));
        assert!(bad(" \n\t ").contains("empty"));
        assert!(bad(&"a".repeat(MAX_TEXT + 1)).contains("at most 500"));
        assert!(bad("a\u{7}b").contains("U+0007"));
        assert!(bad("abc\u{202E}fdp.exe").contains("bidirectional"));
        assert!(bad("x\u{2067}y").contains("bidirectional"));
        assert!(bad(&format!("q{}", "\u{301}".repeat(MAX_MARKS + 1))).contains("combining marks"));
    }
}
