//! The games in memory: one [`Slot`] per game, with its published views.
//!
//! On SQLite the cache is the truth's only copy in use (the row is written
//! before anything changes here); on PostgreSQL each slot is a copy,
//! checked against its row (see [`super::coherence`]), and games nobody
//! follows may be let go at any time.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::watch;

use crate::bots::Owner;
use crate::live::Live;
use crate::view::{Mode, SeatView, ViewText};

/// Games in memory above which some are let go (see [`Cache::make_room`]).
const MAX_LOADED: usize = 2000;

/// One game in memory.
pub struct Slot {
    pub(super) live: tokio::sync::Mutex<Live>,
    /// The latest view (with legal actions), serialized once per version.
    pub(super) views: watch::Sender<ViewText>,
    /// A bot loop runs for this game (SQLite).
    pub(crate) bot_running: AtomicBool,
    /// Finished games never change again, so they may leave memory.
    pub(super) finished: AtomicBool,
    /// Whose address the bots' time is charged to.
    pub owner: Owner,
    /// The bots' thinking time so far (since loaded), in microseconds.
    bot_time: AtomicU64,
    /// The acting seat's own view over its provisional decisions, if any.
    private: watch::Sender<Option<SeatView>>,
    /// The stored row's revision this copy is at (changed under `live`'s
    /// lock); it also orders the seat views.
    pub(super) rev: AtomicU64,
    /// The last hint given here, answered again to a seat that asks again
    /// at the same position rather than written twice.
    pub(super) hint: std::sync::Mutex<Option<super::hint::Given>>,
    /// The last chat message heard of (its id): followers read what is new.
    pub(super) chat: watch::Sender<u64>,
}

impl Slot {
    pub(crate) fn new(live: Live, owner: Owner, rev: u64) -> Arc<Slot> {
        let view = ViewText::new(&live);
        let finished = live.is_over();
        let private = seat_view(&live, rev);
        Arc::new(Slot {
            live: tokio::sync::Mutex::new(live),
            views: watch::channel(view).0,
            bot_running: false.into(),
            finished: finished.into(),
            owner,
            bot_time: 0.into(),
            private: watch::channel(private).0,
            rev: rev.into(),
            hint: std::sync::Mutex::new(None),
            chat: watch::channel(0).0,
        })
    }

    /// The owner key as stored: an address, or nothing.
    pub(super) fn owner_of(stored: Option<&str>) -> Owner {
        stored.and_then(|o| o.parse::<IpAddr>().ok())
    }

    /// The game, locked.
    pub async fn live(&self) -> tokio::sync::MutexGuard<'_, Live> {
        self.live.lock().await
    }

    /// Follows the acting seat's own views (over its provisional decisions).
    pub fn subscribe_private(&self) -> watch::Receiver<Option<SeatView>> {
        self.private.subscribe()
    }

    /// The view `seat` sees: over its provisional decisions if it has any.
    pub fn view_of(&self, seat: usize) -> ViewText {
        self.private_of(seat).unwrap_or_else(|| self.view())
    }

    /// `seat`'s own view, while it has provisional decisions.
    pub fn private_of(&self, seat: usize) -> Option<ViewText> {
        self.private.borrow().as_ref().filter(|sv| sv.seat == seat).map(|sv| sv.view.clone())
    }

    /// Publishes the game's new public view.
    pub(super) fn publish(&self, live: &Live) -> ViewText {
        let view = ViewText::new(live);
        self.finished.store(live.is_over(), Ordering::Release);
        self.views.send_replace(view.clone());
        view
    }

    /// Makes and publishes the acting seat's own view; `None` when it has no
    /// provisional decision (its clients then see the public view).
    pub(super) fn publish_private(&self, live: &Live) -> Option<ViewText> {
        let sv = seat_view(live, self.rev.load(Ordering::Acquire));
        let view = sv.as_ref().map(|sv| sv.view.clone());
        self.private.send_replace(sv);
        view
    }

    /// Whether a client here follows this game.
    pub(super) fn followed(&self) -> bool {
        self.views.receiver_count() > 0 || self.private.receiver_count() > 0
    }

    /// The bots' thinking time so far.
    pub fn bot_time(&self) -> Duration {
        Duration::from_micros(self.bot_time.load(Ordering::Relaxed))
    }

    pub(crate) fn charge(&self, spent: Duration) {
        self.bot_time.fetch_add(u64::try_from(spent.as_micros()).unwrap_or(u64::MAX), Ordering::Relaxed);
    }

    /// The current view.
    pub fn view(&self) -> ViewText {
        self.views.borrow().clone()
    }

    /// Follows the views as they change.
    pub fn subscribe(&self) -> watch::Receiver<ViewText> {
        self.views.subscribe()
    }
}

/// The acting seat's own view over its provisional decisions, if it has
/// any; `seq` (the row's revision) orders that seat's views.
fn seat_view(live: &Live, seq: u64) -> Option<SeatView> {
    live.pending.as_deref().map(|p| SeatView {
        seat: p.seat,
        view: ViewText::with_mode(
            &p.next,
            Mode::Seat { seat: p.seat, undoable: p.actions.len(), seq, played_out: p.played_out() },
        ),
    })
}

/// The games in memory, by id.
pub struct Cache {
    games: Mutex<HashMap<String, Arc<Slot>>>,
    /// Copies of rows other processes write (PostgreSQL): those nobody
    /// follows may go.
    shared: bool,
}

impl Cache {
    pub fn new(shared: bool) -> Cache {
        Cache { games: Mutex::new(HashMap::new()), shared }
    }

    fn games(&self) -> MutexGuard<'_, HashMap<String, Arc<Slot>>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn len(&self) -> usize {
        self.games().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, id: &str) -> Option<Arc<Slot>> {
        self.games().get(id).cloned()
    }

    /// The slot held for `id`: `slot` if none is, else the one held (a
    /// copy read meanwhile by another task wins, so that there is one).
    pub fn insert(&self, id: &str, slot: impl FnOnce() -> Arc<Slot>) -> Arc<Slot> {
        let mut games = self.games();
        self.make_room(&mut games);
        games.entry(id.to_string()).or_insert_with(slot).clone()
    }

    /// The games matching `keep`.
    pub fn select(&self, keep: impl Fn(&Arc<Slot>) -> bool) -> Vec<Arc<Slot>> {
        self.games().values().filter(|s| keep(s)).cloned().collect()
    }

    /// Lets games go from memory when there are many: finished ones, and
    /// with PostgreSQL also those nobody follows (the row is the truth;
    /// they are read again when asked for).
    fn make_room(&self, games: &mut HashMap<String, Arc<Slot>>) {
        if games.len() >= MAX_LOADED {
            games.retain(|_, slot| !slot.finished.load(Ordering::Acquire) && (!self.shared || slot.followed()));
        }
    }
}
