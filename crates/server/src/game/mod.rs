//! The game authority: the one path every action takes, whatever brought
//! it (HTTP, a WebSocket, a bot): check the seat, its token and the
//! version, play on a copy with the engine (provisionally, for a seat that
//! may undo), draw for chance, store, then announce the new view and let
//! the bots move. It knows no transport: its answers are views and typed
//! [`GameError`]s, which the HTTP layer ([`crate::http`]) shapes and maps.
//!
//! Beside it: the games in memory ([`cache`]), their coherence with rows
//! other servers write ([`coherence`], PostgreSQL), new games ([`create`]),
//! and the bots' scheduling ([`crate::bots`]).

pub mod cache;
pub mod chat;
pub mod clock;
mod coherence;
mod create;
pub mod hint;
pub mod lobby;
pub mod review;

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use carcassonne_engine::record::Record;

pub use cache::Slot;
pub use create::{drawn_first, Created, FirstSeat, NewGame, NewSeat};

use crate::bots::{BotPool, Owner};
use crate::error::GameError;
use crate::live::{Applied, Live, SeatKind};
use crate::store::{Filter, Listed, Store, StoreError, Summary, Update};
use crate::view::ViewText;
use crate::wire::Command;

/// Who acts: a human seat with its token, or the server's bot for a seat.
#[derive(Clone, Copy, Debug)]
pub enum Who<'a> {
    Human { seat: usize, token: &'a str },
    Bot { seat: usize },
}

/// The game after an action, to store.
enum Next {
    /// A final action, with the draw after it.
    Applied(Applied),
    /// A seat's provisional decisions made final, with the draw after them.
    Ended(Live),
}

/// An action to play, owned: its task outlives the request that sent it.
struct Submission {
    id: String,
    seat: usize,
    /// A human seat's token; none for the server's bot.
    token: Option<String>,
    version: u64,
    command: Command,
}

/// A seat found by its token.
#[derive(Clone, Debug)]
pub struct Seated {
    pub seat: usize,
    pub name: String,
}

/// The games, the database and the bots' share of the machine.
pub struct Hub {
    pub(crate) store: Store,
    pub(crate) cache: cache::Cache,
    bots: Arc<BotPool>,
    /// Other processes write the same games (PostgreSQL): a game in memory
    /// is only a copy, checked against its row's revision before each use
    /// and refreshed when another server announces a write; bots' turns go
    /// to the queue in the database.
    pub(crate) shared: bool,
    /// Woken when a bot job is queued (PostgreSQL).
    pub bot_jobs: tokio::sync::Notify,
    /// The reviews of finished games under way here ([`review`]).
    reviews: review::Reviews,
    /// The hints under way here, per address ([`hint`]).
    hints: hint::Hints,
}

pub(crate) fn now() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

/// Compares secrets in time independent of where they differ.
fn same_secret(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    std::hint::black_box(a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y))) == 0
}

/// A game id is 16 lowercase hex digits.
pub fn valid_id(id: &str) -> bool {
    id.len() == 16 && id.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// A failed write of game `id`, logged (with its cause; repeats are
/// counted, see [`crate::logging::Throttle`]).
fn storage_of(id: &str, e: StoreError) -> GameError {
    let e = GameError::from(e);
    crate::logging::error_throttled("storage", "storage error: the write failed", id, e.cause());
    e
}

pub(crate) fn summary_of(live: &Live) -> String {
    let setup = &live.record().setup;
    let summary = Summary {
        players: setup.players.clone(),
        seats: live
            .meta
            .seats
            .iter()
            .map(|s| match s.kind {
                SeatKind::Human => "human".to_string(),
                SeatKind::Bot => "bot".to_string(),
            })
            .collect(),
        expansions: setup.expansions.clone(),
        edition: live.state().rules().edition().name().to_string(),
        rules: setup.rules.clone(),
        turns: live.state().turns(),
        scores: live.standing(),
        rated: live.meta.rated,
        to_act: if live.is_over() { None } else { live.to_act() },
        deadline: if live.is_over() { None } else { live.clock.as_ref().and_then(clock::Clock::deadline) },
    };
    serde_json::to_string(&summary).unwrap_or_else(|_| "{}".into())
}

/// The results of a game that has just ended, for the ratings and the
/// players' statistics; none if its record cannot be read back (logged:
/// the game is stored all the same).
pub(crate) fn outcome_of(game: &Live, at: i64) -> Option<crate::ratings::Outcome> {
    let levels: Vec<Option<String>> =
        game.meta.seats.iter().map(|s| if s.kind == SeatKind::Bot { s.level.clone() } else { None }).collect();
    crate::ratings::Outcome::of_record(game.record(), game.meta.rated, &levels, game.forfeit(), at)
        .inspect_err(
            |e| tracing::error!(game = %game.meta.id, error = %e, "the results of a finished game cannot be read"),
        )
        .ok()
}

impl Hub {
    /// Opens the hub on a store. With SQLite, it loads every game still
    /// being played and lets their bots play; with PostgreSQL, it listens
    /// for the other servers' writes and for bot jobs, and loads games when
    /// they are asked for.
    pub async fn open(store: Store, bots: Arc<BotPool>) -> Result<Arc<Hub>, GameError> {
        let shared = store.shared();
        let hub = Arc::new(Hub {
            store: store.clone(),
            cache: cache::Cache::new(shared),
            bots,
            shared,
            bot_jobs: tokio::sync::Notify::new(),
            reviews: review::Reviews::default(),
            hints: hint::Hints::default(),
        });
        tokio::spawn(Hub::sweep_clocks(Arc::downgrade(&hub)));
        if let Store::Postgres(pg) = &store {
            let notices = pg.listen(&[
                crate::store::postgres::GAMES_CHANNEL,
                crate::store::postgres::BOTS_CHANNEL,
                crate::store::chat::CHAT_CHANNEL,
            ]);
            tokio::spawn(Hub::follow(Arc::downgrade(&hub), notices));
            return Ok(hub);
        }
        for id in store.active_ids().await? {
            match hub.load(&id).await {
                Ok(slot) => hub.kick_bots(slot),
                Err(e) => tracing::error!(game = %id, error = %e, cause = e.cause(), "the game cannot be resumed"),
            }
        }
        Ok(hub)
    }

    /// How many games are in memory.
    pub fn loaded(&self) -> usize {
        self.cache.len()
    }

    /// The game `id` as stored: loaded from the database if need be, and
    /// brought up to date if another server changed it.
    pub async fn slot(&self, id: &str) -> Result<Arc<Slot>, GameError> {
        let slot = self.cached(id).await?;
        if self.shared && !slot.finished.load(Ordering::Acquire) {
            let mut live = slot.live.lock().await;
            self.refresh(&slot, &mut live).await?;
        }
        Ok(slot)
    }

    /// The game `id` in memory, loaded if need be (not checked against the database).
    async fn cached(&self, id: &str) -> Result<Arc<Slot>, GameError> {
        if let Some(slot) = self.cache.get(id) {
            return Ok(slot);
        }
        if !valid_id(id) {
            return Err(GameError::no_game(id));
        }
        self.load(id).await
    }

    async fn load(&self, id: &str) -> Result<Arc<Slot>, GameError> {
        let row = self.store.load(id).await?.ok_or_else(|| GameError::no_game(id))?;
        let owner = Slot::owner_of(row.owner.as_deref());
        let rev = row.rev;
        let live =
            tokio::task::spawn_blocking(move || coherence::rebuild(row)).await.map_err(GameError::internal)??;
        Ok(self.cache.insert(id, || Slot::new(live, owner, rev)))
    }

    /// The copy of game `id` (whose copy `slot` is) that the hub holds, for a client that has
    /// just begun following `slot`: `slot` itself, put back if it was let
    /// go meanwhile, or the hub's newer copy.
    pub fn keep(&self, id: &str, slot: &Arc<Slot>) -> Arc<Slot> {
        self.cache.insert(id, || slot.clone())
    }

    /// Which seat holds `token`.
    pub async fn join(&self, id: &str, token: &str) -> Result<Seated, GameError> {
        let slot = self.slot(id).await?;
        let live = slot.live.lock().await;
        let mut found = None;
        for (i, s) in live.meta.seats.iter().enumerate() {
            if let Some(t) = &s.token {
                if same_secret(t, token) && found.is_none() {
                    found = Some(i);
                }
            }
        }
        let seat = found.ok_or(GameError::WrongToken(None))?;
        Ok(Seated { seat, name: live.meta.seats[seat].name.clone() })
    }

    /// The token of seat `seat` (a human's), for a request the HTTP layer
    /// has found to be the seat's by other means (its account's session).
    pub async fn seat_token(&self, id: &str, seat: usize) -> Result<String, GameError> {
        let slot = self.slot(id).await?;
        let live = slot.live.lock().await;
        let row = live
            .meta
            .seats
            .get(seat)
            .ok_or_else(|| GameError::Malformed(format!("there is no seat {seat} in this game")))?;
        row.token.clone().ok_or(GameError::BotSeat(seat))
    }

    /// The view seat `seat` sees, and its name.
    pub async fn seat_view(&self, id: &str, seat: usize) -> Result<(Seated, ViewText), GameError> {
        let token = self.seat_token(id, seat).await?;
        self.join_view(id, &token).await
    }

    /// Which seat holds `token`, and the view that seat sees.
    pub async fn join_view(&self, id: &str, token: &str) -> Result<(Seated, ViewText), GameError> {
        let seated = self.join(id, token).await?;
        let slot = self.slot(id).await?;
        let view = slot.view_of(seated.seat);
        Ok((seated, view))
    }

    /// Plays one action and returns the new version and view, once stored.
    /// Runs to its end even if the caller goes away (a client that
    /// disconnects): cut between storing the action and taking it in, the
    /// game in memory would fall behind the database.
    pub async fn submit(
        self: &Arc<Self>,
        id: &str,
        who: Who<'_>,
        version: u64,
        command: Command,
    ) -> Result<(u64, ViewText), GameError> {
        let (seat, token) = match who {
            Who::Human { seat, token } => (seat, Some(token.to_string())),
            Who::Bot { seat } => (seat, None),
        };
        let submission = Submission { id: id.to_string(), seat, token, version, command };
        tokio::spawn(self.clone().submit_now(submission)).await.map_err(GameError::internal)?
    }

    async fn submit_now(self: Arc<Self>, submission: Submission) -> Result<(u64, ViewText), GameError> {
        let Submission { id, seat, token, version, command } = submission;
        let slot = self.cached(&id).await?;
        let mut live = slot.live.lock().await;
        // With PostgreSQL, the copy is checked against the row first, but
        // for an action on the version the copy is at: if the row has moved
        // on, the write is refused (its revision differs) and the client
        // told so. A bot's action is always on the copy's version.
        let current = match (&token, &command) {
            (None, _) => true,
            (Some(_), Command::Play(_)) => version == live.version && live.pending.is_none(),
            (Some(_), _) => false,
        };
        if self.shared && !current {
            self.refresh(&slot, &mut live).await?;
        }
        let row = live
            .meta
            .seats
            .get(seat)
            .ok_or_else(|| GameError::Malformed(format!("there is no seat {seat} in this game")))?;
        match token.as_deref() {
            Some(token) => {
                if row.kind == SeatKind::Bot {
                    return Err(GameError::BotSeat(seat));
                }
                if !row.token.as_deref().is_some_and(|t| same_secret(t, token)) {
                    return Err(GameError::WrongToken(Some(seat)));
                }
                if live.bot_plays(seat) && !live.is_over() {
                    return Err(GameError::OutOfTime(seat));
                }
            }
            None => {
                if !live.bot_plays(seat) {
                    return Err(GameError::Internal(format!("seat {seat} is not a bot")));
                }
            }
        }
        // A seat of a game created with `undo` decides provisionally (a
        // discard or passing the abbey, which a draw follows at once, and
        // a wagon moved out of turn are final at once).
        let provisional = token.is_some() && row.undo;
        let action = match command {
            Command::Play(action) if provisional && (live.pending.is_some() || !live.final_at_once(seat, action)) => {
                let before = live.pending.clone();
                live.decide(seat, version, action)?;
                self.store_pending(&slot, &mut live, before, seat, version).await?;
                let view = slot.publish_private(&live).ok_or_else(|| GameError::internal("no seat view"))?;
                return Ok((live.pending.as_ref().map_or(live.version, |p| p.next.version), view));
            }
            Command::Play(action) => action,
            Command::Undo => {
                let before = live.pending.clone();
                live.undo(seat, version)?;
                self.store_pending(&slot, &mut live, before, seat, version).await?;
                let view = slot.publish_private(&live).unwrap_or_else(|| slot.view());
                return Ok((live.pending.as_ref().map_or(live.version, |p| p.next.version), view));
            }
            Command::EndTurn => {
                let next = live.end_turn(seat, version)?;
                return self.store_and_announce(&slot, &mut live, Next::Ended(next), seat, version).await;
            }
        };
        let applied = live.apply(seat, version, action)?;
        match self.store_and_announce(&slot, &mut live, Next::Applied(applied), seat, version).await {
            // Another server wrote the row without moving the game on (a
            // hint): the same action, once more, on the copy just refreshed.
            Err(GameError::StaleVersion { current, sent }) if self.shared && current == sent => {
                let applied = live.apply(seat, version, action)?;
                self.store_and_announce(&slot, &mut live, Next::Applied(applied), seat, version).await
            }
            done => done,
        }
    }

    /// Stores the game after an action, takes it in once stored, and
    /// announces it: the new views, then the bots.
    async fn store_and_announce(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        live: &mut Live,
        mut next: Next,
        seat: usize,
        sent: u64,
    ) -> Result<(u64, ViewText), GameError> {
        let id = live.meta.id.clone();
        // The turn that passed is charged to its seat's clock, and the next
        // seat's starts.
        match &mut next {
            Next::Applied(applied) => clock::follow(&mut applied.next, clock::now_ms()),
            Next::Ended(ended) => clock::follow(ended, clock::now_ms()),
        }
        let (game, pending) = match &next {
            // A wagon moved out of turn leaves the acting seat's decisions.
            Next::Applied(applied) => (&applied.next, live.provisional()),
            Next::Ended(ended) => (ended, None),
        };
        let to = game.version;
        let finished = game.is_over();
        let updated = now();
        let outcome = if finished { outcome_of(game, updated) } else { None };
        let (clock, clock_due) = clock::columns(game);
        let update = Update {
            id: id.clone(),
            rev: slot.rev.load(Ordering::Acquire),
            version: to,
            record: game.record().to_json(),
            finished,
            summary: summary_of(game),
            updated,
            pending,
            bot_due: game.bot_to_act().is_some(),
            outcome,
            clock,
            clock_due,
        };
        let rev = match self.store.save(update).await {
            Ok(rev) => rev,
            Err(e) => return Err(self.write_failed(slot, live, seat, e, sent).await),
        };
        let ended = matches!(next, Next::Ended(_));
        match next {
            Next::Applied(applied) => live.commit(applied),
            Next::Ended(ended) => *live = ended,
        }
        slot.rev.store(rev, Ordering::Release);
        if finished {
            tracing::info!(game = %id, version = to, bot_seconds = slot.bot_time().as_secs_f64(), "game finished");
        }
        let view = slot.publish(live);
        if ended {
            slot.publish_private(live);
        }
        self.kick_bots(slot.clone());
        Ok((to, view))
    }

    /// Stores the provisional decisions just made on `live`, or puts
    /// `before` back if they cannot be stored.
    async fn store_pending(
        &self,
        slot: &Slot,
        live: &mut Live,
        before: Option<Box<crate::live::Pending>>,
        seat: usize,
        sent: u64,
    ) -> Result<(), GameError> {
        let rev = slot.rev.load(Ordering::Acquire);
        match self.store.save_pending(&live.meta.id, rev, live.provisional()).await {
            Ok(rev) => {
                slot.rev.store(rev, Ordering::Release);
                Ok(())
            }
            Err(e) => {
                live.pending = before;
                Err(self.write_failed(slot, live, seat, e, sent).await)
            }
        }
    }

    /// What a client is told of a write that failed: it lost a race to
    /// another server's write (stale), or the database failed (logged).
    async fn write_failed(&self, slot: &Slot, live: &mut Live, seat: usize, e: StoreError, sent: u64) -> GameError {
        match e {
            StoreError::Conflict(_) => {
                tracing::info!(game = %live.meta.id, "a write lost a race to another server's: stale version");
                if let Err(e) = self.refresh(slot, live).await {
                    return e;
                }
                // The version this seat sees: its own provisional one, if any.
                let mine = live.pending.as_deref().filter(|p| p.seat == seat);
                let current = mine.map_or(live.version, |p| p.next.version);
                GameError::StaleVersion { current, sent }
            }
            e => storage_of(&live.meta.id, e),
        }
    }

    /// The view at a past version (no legal actions), or the current one.
    pub async fn view_at(&self, id: &str, version: u64) -> Result<String, GameError> {
        let slot = self.slot(id).await?;
        let (meta, record, current) = {
            let live = slot.live.lock().await;
            (live.meta.clone(), live.record().clone(), live.version)
        };
        if version == current {
            return Ok(String::from_utf8_lossy(&slot.view().view()).into_owned());
        }
        if version == 0 || version > current {
            return Err(GameError::NotFound(format!("versions of this game run from 1 to {current}, not {version}")));
        }
        tokio::task::spawn_blocking(move || Live::rebuild_past(meta, &record, version).map(|l| l.view_json(false)))
            .await
            .map_err(GameError::internal)?
            .map_err(GameError::Internal)
    }

    /// The record, without seed; a turn in progress shows as its drawn tile
    /// waiting to be placed (see [`carcassonne_engine::Game::settled_record`]).
    pub async fn record(&self, id: &str) -> Result<Record, GameError> {
        let slot = self.slot(id).await?;
        let live = slot.live.lock().await;
        let mut record = live.game.settled_record();
        record.setup.seed = None;
        Ok(record)
    }

    /// The feature inspector: the feature of piece `piece` of the tile at
    /// `at`, in the game as it is (with the provisional decisions of the
    /// seat whose `token` is given, if it has any) or at a past `version`.
    pub async fn inspect(
        &self,
        id: &str,
        at: carcassonne_engine::Pos,
        piece: usize,
        version: Option<u64>,
        token: Option<&str>,
    ) -> Result<crate::inspect::FeatureReport, GameError> {
        self.at_position(id, version, token, move |s| crate::inspect::inspect(s, at, piece)).await
    }

    /// The odds of the next tile and of completing each open feature
    /// (docs/analysis.md), in the game as it is (with the provisional
    /// decisions of the seat whose `token` is given) or at a past `version`.
    pub async fn odds(
        &self,
        id: &str,
        version: Option<u64>,
        token: Option<&str>,
    ) -> Result<carcassonne_bots::odds::Odds, GameError> {
        self.at_position(id, version, token, |s| Ok(carcassonne_bots::odds::odds(s))).await
    }

    /// `look` at the position of game `id` as it is (with the provisional
    /// decisions of the seat whose `token` is given, if it has any) or at a
    /// past `version`.
    async fn at_position<T: Send + 'static>(
        &self,
        id: &str,
        version: Option<u64>,
        token: Option<&str>,
        look: impl FnOnce(&carcassonne_engine::State) -> Result<T, GameError> + Send + 'static,
    ) -> Result<T, GameError> {
        let seat = match token {
            Some(t) => Some(self.join(id, t).await?.seat),
            None => None,
        };
        let slot = self.slot(id).await?;
        // The position is copied under the game's lock and looked at on a
        // blocking thread once the lock is released: counting the odds
        // holds up neither the game's moves nor an async worker.
        enum Position {
            Now(Box<carcassonne_engine::State>),
            Past(Arc<crate::live::Meta>, Record, u64),
        }
        let position = {
            let live = slot.live.lock().await;
            match live.pending.as_deref().filter(|p| Some(p.seat) == seat) {
                Some(p) if version.is_none() || version == Some(p.next.version) => {
                    Position::Now(Box::new(p.next.state().clone()))
                }
                _ if version.is_none() || version == Some(live.version) => {
                    Position::Now(Box::new(live.state().clone()))
                }
                _ => {
                    let current = live.version;
                    let version = version.unwrap_or(current);
                    if version == 0 || version > current {
                        return Err(GameError::NotFound(format!(
                            "versions of this game run from 1 to {current}, not {version}"
                        )));
                    }
                    Position::Past(live.meta.clone(), live.record().clone(), version)
                }
            }
        };
        tokio::task::spawn_blocking(move || match position {
            Position::Now(state) => look(&state),
            Position::Past(meta, record, version) => {
                let live = Live::rebuild_past(meta, &record, version).map_err(GameError::Internal)?;
                look(live.state())
            }
        })
        .await
        .map_err(GameError::internal)?
    }

    pub async fn history(&self, id: &str) -> Result<String, GameError> {
        let slot = self.slot(id).await?;
        let live = slot.live.lock().await;
        Ok(live.history_json())
    }

    pub async fn list(&self, filter: Filter, limit: u32, offset: u32) -> Result<Vec<Listed>, GameError> {
        Ok(self.store.list(filter, limit, offset).await?)
    }

    /// Whether `owner` may create one more game with search bots (see
    /// [`BotPool::admit`]); with PostgreSQL, as the database counts the
    /// address's bot time and the queue.
    async fn admit(&self, owner: Owner) -> Result<(), GameError> {
        if !self.shared {
            return self.bots.admit(owner);
        }
        let per_hour = self.bots.seconds_per_hour();
        let used = self.store.bot_usage(owner, per_hour).await?;
        let queued = self.store.bot_queue(owner).await?;
        self.bots.admit_with(used, queued)
    }

    /// Charges a search's time to its address.
    pub(crate) async fn charge_search(&self, owner: Owner, spent: Duration) {
        match &self.store {
            crate::store::Store::Postgres(pg) => {
                if let Err(e) = pg.charge(owner, spent, self.bots.seconds_per_hour()).await {
                    tracing::warn!(error = %e, "a search's bot time could not be charged");
                }
            }
            crate::store::Store::Sqlite(_) => self.bots.charge(owner, spent),
        }
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn bots(&self) -> &Arc<BotPool> {
        &self.bots
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret("abcd", "abcd"));
        assert!(!same_secret("abcd", "abce"));
        assert!(!same_secret("abcd", "abc"));
        assert!(valid_id("0123456789abcdef"));
        assert!(!valid_id("0123456789ABCDEF"));
        assert!(!valid_id("../../etc/passwd"));
    }
}
