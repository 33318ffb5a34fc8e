//! Clocks: a game may have a time control, kept by the server.
//!
//! - **Per move** (correspondence): each turn of a seat may last this long
//!   (hours or days); time not used is not kept.
//! - **Fischer** (real time): each seat has a bank of time, `base` at the
//!   start, which runs while the seat is to act; when its turn passes, the
//!   time used is taken from the bank and `increment` added.
//!
//! Only human seats have a clock, and only the seat to act (the `to_act`
//! of the view) uses it: its turn runs from the moment it is to act until
//! another seat (or the server's draw for another seat) is. When a clock
//! runs out, the game's `on_timeout` says what happens: `bot` (the
//! default), the server's bot plays the seat's turn (its provisional
//! decisions, if any, dropped), and with Fischer every later turn of the
//! seat too, its bank being empty; `lose`, the seat loses at once: the game
//! ends, the seat last whatever its score (rated games count it so).
//!
//! The clock is part of the game's row (its state as JSON, and the moment
//! the running clock runs out, which every server asks the database for):
//! it survives restarts, and time the server is down counts, as a clock on
//! a table would. Running out is acted on by a write checked against the
//! row's revision, like any action, so with several servers exactly one
//! acts on it.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::{storage_of, summary_of, Hub};
use crate::error::GameError;
use crate::live::{Live, SeatKind};
use crate::store::{StoreError, Update};

/// Shortest and longest turn of a per-move clock (seconds).
pub const PER_MOVE: (u32, u32) = (10, 30 * 86_400);
/// Shortest and longest bank of a Fischer clock, and the longest increment.
pub const BASE: (u32, u32) = (10, 86_400);
pub const MAX_INCREMENT: u32 = 3_600;
/// How often each server looks for clocks that ran out.
pub const SWEEP: Duration = Duration::from_millis(250);
/// The level of the bot that plays for a seat out of time.
pub const TIMEOUT_LEVEL: &str = "medium";

/// Now, in milliseconds since 1970.
pub fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

/// What happens when a seat's clock runs out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OnTimeout {
    #[default]
    Bot,
    Lose,
}

/// A game's time control, as asked for at creation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockSetup {
    /// Per move: seconds a turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_move: Option<u32>,
    /// Fischer: seconds in each bank at the start, and added after each turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub increment: Option<u32>,
    #[serde(default)]
    pub on_timeout: OnTimeout,
}

impl ClockSetup {
    /// Refuses a time control that is neither or both kinds, or out of range.
    pub fn check(&self) -> Result<(), GameError> {
        let refuse = |why: String| Err(GameError::InvalidSetup(format!("clock: {why}")));
        match (self.per_move, self.base) {
            (Some(_), Some(_)) => refuse("per_move (correspondence) or base and increment (Fischer), not both".into()),
            (None, None) => refuse("per_move (seconds a turn) or base (seconds a seat has) is needed".into()),
            (Some(s), None) => {
                if self.increment.is_some() {
                    return refuse("an increment goes with base (Fischer), not per_move".into());
                }
                if !(PER_MOVE.0..=PER_MOVE.1).contains(&s) {
                    return refuse(format!("per_move is {} to {} seconds, not {s}", PER_MOVE.0, PER_MOVE.1));
                }
                Ok(())
            }
            (None, Some(b)) => {
                if !(BASE.0..=BASE.1).contains(&b) {
                    return refuse(format!("base is {} to {} seconds, not {b}", BASE.0, BASE.1));
                }
                match self.increment {
                    Some(i) if i > MAX_INCREMENT => {
                        refuse(format!("increment is 0 to {MAX_INCREMENT} seconds, not {i}"))
                    }
                    _ => Ok(()),
                }
            }
        }
    }
}

/// The clock of the seat to act.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Running {
    pub seat: usize,
    /// Since when (milliseconds since 1970).
    pub since: i64,
}

/// A game's clocks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    pub setup: ClockSetup,
    /// Fischer: milliseconds left in each seat's bank (its running turn
    /// not counted yet).
    pub banks: Vec<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub running: Option<Running>,
    /// Seats whose time ran out: the bot plays for them (per move: this
    /// turn; Fischer: the rest of the game).
    #[serde(default)]
    pub out: Vec<usize>,
    /// The seat that lost on time (`on_timeout: lose`): the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit: Option<usize>,
}

impl Clock {
    pub fn new(setup: ClockSetup, seats: usize) -> Clock {
        let bank = i64::from(setup.base.unwrap_or(0)) * 1000;
        Clock { setup, banks: vec![bank; seats], running: None, out: Vec::new(), forfeit: None }
    }

    /// When the running clock runs out (milliseconds since 1970).
    pub fn deadline(&self) -> Option<i64> {
        let r = self.running?;
        Some(match self.setup.per_move {
            Some(s) => r.since + i64::from(s) * 1000,
            None => r.since + self.banks.get(r.seat).copied().unwrap_or(0),
        })
    }

    /// Whether the bot plays for `seat`, its time having run out.
    pub fn is_out(&self, seat: usize) -> bool {
        self.out.contains(&seat)
    }

    /// Follows the game at `now`: the seat to act is `to_act`, which is
    /// `human` or not. A turn that passed is charged to its seat's bank
    /// (and the increment added); the new seat's clock starts.
    pub fn follow(&mut self, to_act: Option<usize>, human: bool, now: i64) {
        if let Some(r) = self.running {
            if to_act == Some(r.seat) {
                return;
            }
            self.running = None;
            if self.setup.per_move.is_none() {
                let bank = &mut self.banks[r.seat];
                *bank = (*bank - (now - r.since)).max(0) + i64::from(self.setup.increment.unwrap_or(0)) * 1000;
            }
        }
        // A seat played by the bot for a turn only (per move) has its own
        // clock back at its next turn.
        if self.setup.per_move.is_some() {
            self.out.retain(|&s| Some(s) == to_act);
        }
        if let Some(seat) = to_act.filter(|&s| human && !self.is_out(s) && self.forfeit.is_none()) {
            self.running = Some(Running { seat, since: now });
        }
    }

    /// The running clock ran out: what `on_timeout` says, and the seat it
    /// was.
    fn run_out(&mut self) -> Option<usize> {
        let r = self.running.take()?;
        if self.setup.per_move.is_none() {
            self.banks[r.seat] = 0;
        }
        match self.setup.on_timeout {
            OnTimeout::Bot => self.out.push(r.seat),
            OnTimeout::Lose => self.forfeit = Some(r.seat),
        }
        Some(r.seat)
    }
}

/// The clock of `live` followed after a change, at `now`.
pub(crate) fn follow(live: &mut Live, now: i64) {
    let to_act = live.to_act();
    let human = to_act.and_then(|s| live.meta.seats.get(s)).is_some_and(|s| s.kind == SeatKind::Human);
    if let Some(c) = live.clock.as_mut() {
        c.follow(to_act, human, now);
    }
}

/// The clock's columns of a game's row: its state, and when it runs out.
pub(crate) fn columns(live: &Live) -> (Option<String>, Option<i64>) {
    match &live.clock {
        Some(c) => (serde_json::to_string(c).ok(), if live.is_over() { None } else { c.deadline() }),
        None => (None, None),
    }
}

impl Hub {
    /// Acts on the clock of game `id` if it has run out: the bot takes
    /// the seat's turn, or the seat loses. Nothing if it has not (another
    /// server acted first, or the seat moved meanwhile).
    pub async fn expire(self: &Arc<Self>, id: &str) -> Result<(), GameError> {
        let slot = self.slot(id).await?;
        let mut live = slot.live.lock().await;
        let now = now_ms();
        if live.is_over() || live.clock.as_ref().and_then(Clock::deadline).is_none_or(|d| d > now) {
            return Ok(());
        }
        let mut next = live.fork();
        let Some(seat) = next.clock.as_mut().and_then(|c| c.run_out()) else { return Ok(()) };
        let (clock, clock_due) = columns(&next);
        let update = Update {
            id: id.to_string(),
            rev: slot.rev.load(Ordering::Acquire),
            version: next.version,
            record: next.record().to_json(),
            finished: next.is_over(),
            summary: summary_of(&next),
            updated: super::now(),
            pending: None,
            bot_due: next.bot_to_act().is_some(),
            outcome: if next.is_over() { super::outcome_of(&next, super::now()) } else { None },
            clock,
            clock_due,
        };
        let rev = match self.store.save(update).await {
            Ok(rev) => rev,
            // Another server acted on it first (or the seat moved there).
            Err(StoreError::Conflict(_)) => {
                self.refresh(&slot, &mut live).await?;
                return Ok(());
            }
            Err(e) => return Err(storage_of(id, e)),
        };
        tracing::info!(game = %id, seat, lost = next.is_over(), "a clock ran out");
        *live = next;
        slot.rev.store(rev, Ordering::Release);
        slot.publish(&live);
        slot.publish_private(&live);
        self.kick_bots(slot.clone());
        Ok(())
    }

    /// Looks for clocks that ran out, every [`SWEEP`], until the hub goes.
    pub(crate) async fn sweep_clocks(hub: Weak<Hub>) {
        let mut tick = tokio::time::interval(SWEEP);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let Some(hub) = hub.upgrade() else { return };
            // Logged at most so often: a database that is down would
            // otherwise say so four times a second.
            let due = match hub.store.due_clocks(now_ms(), 100).await {
                Ok(due) => due,
                Err(e) => {
                    let e = GameError::from(e);
                    crate::logging::warn_throttled(
                        "clocks",
                        format_args!("the clocks that ran out cannot be read: {e}"),
                        "",
                        e.cause(),
                    );
                    continue;
                }
            };
            for id in due {
                if let Err(e) = hub.expire(&id).await {
                    crate::logging::warn_throttled(
                        "clock",
                        format_args!("a clock that ran out could not be acted on: {e}"),
                        &id,
                        e.cause(),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fischer(base: u32, increment: u32) -> Clock {
        Clock::new(
            ClockSetup { per_move: None, base: Some(base), increment: Some(increment), on_timeout: OnTimeout::Bot },
            2,
        )
    }

    #[test]
    fn a_fischer_bank_loses_the_time_used_and_gains_the_increment() {
        let mut c = fischer(60, 5);
        c.follow(Some(0), true, 1_000);
        assert_eq!(c.deadline(), Some(61_000));
        c.follow(Some(0), true, 9_000);
        assert_eq!(c.running, Some(Running { seat: 0, since: 1_000 }), "the same seat's turn goes on");
        c.follow(Some(1), true, 21_000);
        assert_eq!(c.banks, vec![60_000 - 20_000 + 5_000, 60_000]);
        assert_eq!(c.deadline(), Some(81_000));
        // The server's draw between turns: no one's clock runs.
        c.follow(None, false, 30_000);
        assert_eq!((c.running, c.banks[1]), (None, 60_000 - 9_000 + 5_000));
        // A bot's turn: no clock either.
        c.follow(Some(1), false, 31_000);
        assert_eq!(c.deadline(), None);
    }

    #[test]
    fn a_per_move_turn_has_its_time_whatever_the_last_one_used() {
        let mut c =
            Clock::new(ClockSetup { per_move: Some(3600), base: None, increment: None, on_timeout: OnTimeout::Bot }, 2);
        c.follow(Some(0), true, 0);
        assert_eq!(c.deadline(), Some(3_600_000));
        c.follow(Some(1), true, 3_000_000);
        assert_eq!(c.deadline(), Some(6_600_000));
        assert_eq!(c.banks, vec![0, 0]);
    }

    #[test]
    fn running_out_gives_the_turn_to_the_bot_or_the_game_to_the_others() {
        let mut c = fischer(10, 0);
        c.follow(Some(1), true, 0);
        assert_eq!(c.run_out(), Some(1));
        assert!(c.is_out(1) && c.banks[1] == 0 && c.running.is_none());
        // Its bank is empty: the bot plays its later turns too.
        c.follow(Some(0), true, 10_500);
        c.follow(Some(1), true, 12_000);
        assert!(c.is_out(1) && c.running.is_none(), "no clock for a seat the bot plays");
        let mut per_move =
            Clock::new(ClockSetup { per_move: Some(60), base: None, increment: None, on_timeout: OnTimeout::Bot }, 2);
        per_move.follow(Some(0), true, 0);
        per_move.run_out();
        per_move.follow(Some(0), true, 60_100);
        assert!(per_move.is_out(0), "the bot still plays this turn");
        per_move.follow(Some(1), true, 61_000);
        per_move.follow(Some(0), true, 70_000);
        assert!(!per_move.is_out(0) && per_move.deadline() == Some(130_000), "its own clock at its next turn");
        let mut lose = Clock::new(ClockSetup { on_timeout: OnTimeout::Lose, ..per_move.setup }, 2);
        lose.follow(Some(1), true, 0);
        assert_eq!((lose.run_out(), lose.forfeit), (Some(1), Some(1)));
        lose.follow(Some(0), true, 60_001);
        assert_eq!(lose.running, None, "over");
    }

    #[test]
    fn time_controls_are_one_kind_within_range() {
        let ok = |j: &str| {
            serde_json::from_str::<ClockSetup>(j)
                .map_err(|e| e.to_string())
                .and_then(|c| c.check().map_err(|e| e.to_string()))
        };
        assert!(ok(r#"{"per_move": 86400}"#).is_ok());
        assert!(ok(r#"{"base": 600, "increment": 10, "on_timeout": "lose"}"#).is_ok());
        assert!(ok(r#"{"base": 600}"#).is_ok());
        for bad in [
            r#"{}"#,
            r#"{"per_move": 60, "base": 60}"#,
            r#"{"per_move": 5}"#,
            r#"{"per_move": 60, "increment": 2}"#,
            r#"{"base": 999999}"#,
            r#"{"base": 60, "increment": 99999}"#,
            r#"{"base": 60, "on_timeout": "draw"}"#,
            r#"{"base": 60, "delay": 3}"#,
        ] {
            assert!(ok(bad).is_err(), "{bad}");
        }
    }
}
