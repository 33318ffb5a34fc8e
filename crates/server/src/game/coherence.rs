//! Copies kept coherent with their rows (PostgreSQL), and games read back
//! from rows (both stores).
//!
//! Several servers write the same games: a copy in memory is checked
//! against its row's revision before each use, and a copy behind plays the
//! actions it missed from the stored record. The listening connection's
//! notices refresh the games clients here follow as soon as another server
//! writes them.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};

use carcassonne_engine::record::Record;
use tokio::sync::mpsc::UnboundedReceiver;

use super::cache::Slot;
use super::Hub;
use crate::error::GameError;
use crate::live::{Live, Meta, SeatRow};
use crate::store::postgres::Notice;
use crate::store::GameRow;

impl Hub {
    /// Brings `live` (locked) up to its stored row, if another server wrote
    /// it since, and publishes the new views.
    pub(super) async fn refresh(&self, slot: &Slot, live: &mut Live) -> Result<(), GameError> {
        let id = live.meta.id.clone();
        let known = slot.rev.load(Ordering::Acquire);
        let newer = self.store.load_newer(&id, known).await?.ok_or_else(|| GameError::no_game(&id))?;
        let Some(row) = newer else { return Ok(()) };
        let rev = row.rev;
        let known = live.clone();
        let fresh = tokio::task::spawn_blocking(move || catch_up(known, row)).await.map_err(GameError::internal)??;
        *live = fresh;
        slot.rev.store(rev, Ordering::Release);
        slot.publish(live);
        slot.publish_private(live);
        Ok(())
    }

    /// Checks a followed copy against its row (PostgreSQL): a write that
    /// came before the client followed it was announced to no one here.
    pub async fn check(&self, slot: &Slot) {
        if self.shared && !slot.finished.load(Ordering::Acquire) {
            let mut live = slot.live.lock().await;
            if let Err(e) = self.refresh(slot, &mut live).await {
                crate::logging::warn_throttled(
                    "refresh",
                    format_args!("cannot refresh the game: {e}"),
                    &live.meta.id,
                    e.cause(),
                );
            }
        }
    }

    /// Follows the database's notices (PostgreSQL): another server's write
    /// refreshes the game here if anyone here watches it (the others are
    /// checked when next used); a new bot job wakes the bots here. Ends
    /// with the hub.
    pub(super) async fn follow(hub: Weak<Hub>, mut notices: UnboundedReceiver<Notice>) {
        while let Some(notice) = notices.recv().await {
            let Some(hub) = hub.upgrade() else { return };
            let stale = |slot: &Arc<Slot>, rev: Option<u64>| {
                rev.is_none_or(|rev| rev > slot.rev.load(Ordering::Acquire)) && slot.followed()
            };
            let slots: Vec<Arc<Slot>> = match &notice {
                // One job, one loop woken (or the next one to look).
                Notice::Bots => {
                    hub.bot_jobs.notify_one();
                    continue;
                }
                Notice::Game { id, rev } => hub.cache.get(id).filter(|s| stale(s, Some(*rev))).into_iter().collect(),
                Notice::Chat { id, line } => {
                    if let Some(slot) = hub.cache.get(id) {
                        slot.heard_chat(*line);
                    }
                    continue;
                }
                // Notices may have been missed: every watched game is checked.
                Notice::Listening => {
                    hub.bot_jobs.notify_waiters();
                    for slot in hub.cache.select(|s| s.followed()) {
                        slot.recheck_chat();
                    }
                    hub.cache.select(|s| stale(s, None))
                }
            };
            for slot in slots {
                let hub = hub.clone();
                tokio::spawn(async move { hub.check(&slot).await });
            }
        }
    }
}

/// The stored game, from `known`, an earlier state of it: only the actions
/// since are played (replayed from the start if it is not earlier).
fn catch_up(mut known: Live, row: GameRow) -> Result<Live, GameError> {
    let Ok(record) = Record::from_json(&row.record) else { return rebuild(row) };
    if known.catch_up(&record, row.version).is_err() {
        return rebuild(row);
    }
    // The clock may change without an action (a seat that ran out).
    known.clock = clock_of(&row)?;
    restore_provisional(&mut known, &row);
    Ok(known)
}

/// The clocks of a stored game.
fn clock_of(row: &GameRow) -> Result<Option<super::clock::Clock>, GameError> {
    match &row.clock {
        Some(text) => serde_json::from_str(text).map(Some).map_err(|e| damaged(&row.id, format!("its clock: {e}"))),
        None => Ok(None),
    }
}

/// The row's provisional decisions played on `live`; dropped (with a
/// warning) if they no longer play: they are the seat's to make again, not
/// part of the game.
fn restore_provisional(live: &mut Live, row: &GameRow) {
    if let Some(p) = &row.pending {
        if let Err(e) = live.restore_provisional(p) {
            tracing::warn!(game = %row.id, error = %e, "provisional decisions dropped: they no longer play");
            live.pending = None;
        }
    }
}

fn damaged(id: &str, reason: String) -> GameError {
    GameError::Internal(format!("stored game {id} is damaged: {reason}"))
}

/// A stored game, replayed to its stored version.
pub(super) fn rebuild(row: GameRow) -> Result<Live, GameError> {
    let damaged = |reason: String| damaged(&row.id, reason);
    let seats: Vec<SeatRow> = serde_json::from_str(&row.seats).map_err(|e| damaged(e.to_string()))?;
    let record = Record::from_json(&row.record).map_err(|e| damaged(e.to_string()))?;
    let meta = Arc::new(Meta { id: row.id.clone(), created: row.created, seed: row.seed, seats, rated: row.rated });
    let mut live = Live::rebuild(meta, &record, row.version).map_err(damaged)?;
    live.clock = clock_of(&row)?;
    if live.record() != &record {
        return Err(damaged("the replayed record differs from the stored one".into()));
    }
    restore_provisional(&mut live, &row);
    Ok(live)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::SeatKind;
    use carcassonne_engine::record::Setup;

    /// Stored provisional decisions come back with the game, and ones that
    /// no longer play are dropped, not the game.
    #[test]
    fn stored_provisional_decisions_come_back_or_are_dropped() {
        let seat = SeatRow {
            name: "a".into(),
            kind: SeatKind::Human,
            level: None,
            token: None,
            undo: true,
            colour: None,
            hints: false,
        };
        let seats = vec![seat.clone(), SeatRow { name: "b".into(), ..seat }];
        let meta =
            Arc::new(Meta { id: "0123456789abcdef".into(), created: 0, seed: 7, seats: seats.clone(), rated: false });
        let setup = Setup {
            players: vec!["a".into(), "b".into()],
            expansions: vec![],
            edition: None,
            seed: None,
            rules: Default::default(),
        };
        let mut live = Live::create(meta, setup).unwrap();
        let place = live.state().legal_action_list()[0];
        live.decide(0, live.version, place).unwrap();
        let row = |pending: Option<String>| GameRow {
            id: "0123456789abcdef".into(),
            created: 0,
            updated: 0,
            seed: 7,
            seats: serde_json::to_string(&seats).unwrap(),
            record: live.record().to_json(),
            version: live.version,
            finished: false,
            summary: "{}".into(),
            public: false,
            owner: None,
            rev: 3,
            pending,
            bot_due: false,
            accounts: Vec::new(),
            rated: false,
            clock: None,
            clock_due: None,
        };
        let back = rebuild(row(live.provisional())).unwrap();
        assert_eq!(back.pending.as_ref().map(|p| (p.seat, p.actions.clone())), Some((0, vec![place])));
        let bad = r#"{"seat": 1, "actions": ["place X9 [0, 1] 0"]}"#.to_string();
        let back = rebuild(row(Some(bad))).unwrap();
        assert!(back.pending.is_none());
        assert_eq!(back.version, live.version);
    }
}
