//! Hints during play (docs/analysis.md): in a game created with `hints`, a
//! human seat may ask for the strongest bot's choice for the decision at
//! hand. The hint is searched on a bot thread, charged to the asking
//! address as a bot's time is, and written in the record (the turn's
//! `hints`) before it is given: every hint a player saw is on record.
//!
//! The search runs without the game's lock (actions and views go on); the
//! hint is given only if the game is still at the decision it was asked
//! for, and refused as stale otherwise.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use carcassonne_bots::review::{self, ReviewBudget};
use carcassonne_engine::Action;
use serde::Serialize;

use super::{now, same_secret, summary_of, Hub};
use crate::bots::{Owner, Turn};
use crate::error::GameError;
use crate::live::{Live, SeatKind};
use crate::store::Update;
use crate::wire::ActionOut;

/// Hints one address may have under way at once.
pub const HINTS_PER_ADDRESS: usize = 2;

/// A hint given.
#[derive(Clone, Debug, Serialize)]
pub struct HintOut {
    /// The version the hint is for.
    pub version: u64,
    /// The strongest bot's choice, as a legal action of the view.
    pub action: ActionOut,
    /// Each player's chance to win and expected margin after it.
    pub win: Vec<f32>,
    pub margin: Vec<f32>,
    /// Hints this seat has asked for in this game, this one included.
    pub used: u32,
}

/// Hints under way, per address.
#[derive(Default)]
pub struct Hints {
    running: Mutex<HashMap<Owner, usize>>,
}

/// A hint under way for an address, counted until dropped.
struct Running<'a> {
    hints: &'a Hints,
    owner: Owner,
}

impl Hints {
    fn start(&self, owner: Owner) -> Result<Running<'_>, GameError> {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        let mine = running.entry(owner).or_default();
        if *mine >= HINTS_PER_ADDRESS {
            return Err(GameError::HintsBusy(format!(
                "this address has {mine} hints under way: wait for one to be given"
            )));
        }
        *mine += 1;
        Ok(Running { hints: self, owner })
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        let mut running = self.hints.running.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = running.get_mut(&self.owner) {
            *n -= 1;
            if *n == 0 {
                running.remove(&self.owner);
            }
        }
    }
}

/// The game `seat` decides in: its own provisional one, if it has one.
fn deciding(live: &Live, seat: usize) -> &Live {
    live.pending.as_deref().filter(|p| p.seat == seat).map_or(live, |p| &p.next)
}

/// A hint given, with the position it was given at.
#[derive(Clone, Debug)]
pub struct Given {
    seat: usize,
    at: Position,
    out: HintOut,
}

/// A seat's position: the version it decides at, and its provisional
/// decisions of the turn (taken back and made again, they may reach the
/// same version by another way).
type Position = (u64, Vec<Action>);

fn position_of(live: &Live, seat: usize) -> Position {
    let mine = live.pending.as_deref().filter(|p| p.seat == seat);
    (deciding(live, seat).version, mine.map(|p| p.actions.clone()).unwrap_or_default())
}

impl Hub {
    /// The hint for the seat holding `token` in game `id`, at `version`
    /// (the version of the view it decides on), for `owner`, the address
    /// that asks. Runs to its end even if the caller goes away: its search
    /// is charged and its write taken in (cut in the middle of the write,
    /// the game in memory would fall behind the database).
    pub async fn hint(
        self: &Arc<Self>,
        id: &str,
        token: &str,
        version: u64,
        owner: Owner,
    ) -> Result<HintOut, GameError> {
        let (hub, id, token) = (self.clone(), id.to_string(), token.to_string());
        tokio::spawn(async move { hub.hint_now(&id, &token, version, owner).await })
            .await
            .map_err(GameError::internal)?
    }

    async fn hint_now(&self, id: &str, token: &str, version: u64, owner: Owner) -> Result<HintOut, GameError> {
        let slot = self.slot(id).await?;
        let (seat, state) = {
            let live = slot.live.lock().await;
            let seat = live
                .meta
                .seats
                .iter()
                .position(|s| s.token.as_deref().is_some_and(|t| same_secret(t, token)))
                .ok_or(GameError::WrongToken(None))?;
            let row = &live.meta.seats[seat];
            if row.kind != SeatKind::Human || !row.hints {
                return Err(GameError::HintsOff(seat));
            }
            check_decision(&live, seat, version)?;
            // Asked again at the same position: the same hint, not a second one.
            if let Some(given) = given_at(&slot, seat, &position_of(&live, seat)) {
                return Ok(given);
            }
            (seat, deciding(&live, seat).state().clone())
        };
        let _running = self.hints.start(owner)?;
        // The bots' allowance: a hint counts as search bots do.
        self.admit(owner).await.map_err(|e| match e {
            GameError::RateLimited { retry_after } => GameError::BotTimeUsed { retry_after },
            GameError::Busy(_) => {
                GameError::HintsBusy("the bots' queue of decisions is full: no hint now, try again in a minute".into())
            }
            other => other,
        })?;
        let thread = match self.bots.search(owner, Duration::ZERO).await {
            Turn::Search(thread) => thread,
            Turn::Greedy(why) => return Err(GameError::HintsBusy(format!("no hint now: {}", why.describe()))),
        };
        let budget = ReviewBudget::Millis(self.bots.hint_ms());
        let seed = u64::from_str_radix(id, 16).unwrap_or(0) ^ version;
        let started = Instant::now();
        let found = tokio::task::spawn_blocking(move || {
            let hint = review::hint(&state, budget, seed, None);
            (hint, state)
        })
        .await;
        drop(thread);
        self.charge_search(owner, started.elapsed()).await;
        let (hint, state) = found.map_err(GameError::internal)?;
        let hint = hint.ok_or_else(|| GameError::internal("no hint for a decision"))?;
        let out = HintOut {
            version,
            action: ActionOut::legal(&state, hint.action),
            win: hint.win,
            margin: hint.margin,
            used: 0,
        };
        let out = self.note_hint(&slot, seat, version, out).await?;
        tracing::info!(game = %id, seat, version, used = out.used, "hint given");
        Ok(out)
    }

    /// Writes `seat`'s hint into the record, if the game is still at the
    /// decision it was asked for and no hint was written for it meanwhile;
    /// returns the hint with the seat's hints so far.
    async fn note_hint(
        &self,
        slot: &super::Slot,
        seat: usize,
        version: u64,
        mut out: HintOut,
    ) -> Result<HintOut, GameError> {
        let mut live = slot.live.lock().await;
        if self.shared {
            self.refresh(slot, &mut live).await?;
        }
        check_decision(&live, seat, version)?;
        let at = position_of(&live, seat);
        if let Some(given) = given_at(slot, seat, &at) {
            return Ok(given);
        }
        let noted = |game: &mut carcassonne_engine::Game| {
            game.note_hint(seat).map_err(|e| GameError::Internal(format!("a hint not noted: {e}")))
        };
        let mut game = live.game.clone();
        noted(&mut game)?;
        let mut pending = live.pending.clone();
        if let Some(p) = pending.as_deref_mut().filter(|p| p.seat == seat) {
            noted(&mut p.next.game)?;
        }
        let clock_columns = super::clock::columns(&live);
        let update = Update {
            id: live.meta.id.clone(),
            rev: slot.rev.load(Ordering::Acquire),
            version: live.version,
            record: game.record().to_json(),
            finished: false,
            summary: summary_of(&live),
            updated: now(),
            pending: live.provisional(),
            bot_due: live.bot_to_act().is_some(),
            outcome: None,
            clock: clock_columns.0,
            clock_due: clock_columns.1,
        };
        let rev = match self.store.save(update).await {
            Ok(rev) => rev,
            Err(e) => return Err(self.write_failed(slot, &mut live, seat, e, version).await),
        };
        out.used = game.hints_used().get(seat).copied().unwrap_or(0);
        live.game = game;
        live.pending = pending;
        slot.rev.store(rev, Ordering::Release);
        *slot.hint.lock().unwrap_or_else(|e| e.into_inner()) = Some(Given { seat, at, out: out.clone() });
        slot.publish(&live);
        slot.publish_private(&live);
        Ok(out)
    }
}

/// The hint given to `seat` at position `at`, if it is the last one given.
fn given_at(slot: &super::Slot, seat: usize, at: &Position) -> Option<HintOut> {
    let given = slot.hint.lock().unwrap_or_else(|e| e.into_inner());
    given.as_ref().filter(|g| g.seat == seat && &g.at == at).map(|g| g.out.clone())
}

/// Whether `seat` has a decision to make at `version` (its own provisional
/// game's, if it has one).
fn check_decision(live: &Live, seat: usize, version: u64) -> Result<(), GameError> {
    if live.is_over() {
        return Err(GameError::GameOver);
    }
    let mine = live.pending.as_deref().filter(|p| p.seat == seat);
    if let Some(p) = mine.filter(|p| p.played_out()) {
        if version != p.next.version {
            return Err(GameError::StaleVersion { current: p.next.version, sent: version });
        }
        return Err(GameError::EndTurnFirst);
    }
    deciding(live, seat).check_turn(seat, version)
}
