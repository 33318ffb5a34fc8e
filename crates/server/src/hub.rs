//! The games the server holds, and the one path every action takes:
//! check the seat, its token and the version, play on a copy with the
//! engine, draw for chance, store, then publish the new view and let the
//! bots move. The hub knows no transport.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use carcassonne_bots::Bot;
use carcassonne_engine::record::{Record, Setup};
use carcassonne_engine::{Edition, Expansion, RuleOptions, Rules, SetupError};
use rand::Rng;
use serde::{Deserialize, Serialize};
use tokio::sync::watch;

use crate::bots::{BotPool, Owner, Turn};
use crate::error::ApiError;
use crate::live::{BotPlan, Live, Meta, SeatKind, SeatRow};
use crate::store::postgres::Notice;
use crate::store::{Filter, GameRow, Listed, Store, StoreError, Summary, Update};
use crate::view::{Mode, SeatView, ViewText};
use crate::wire::Command;

/// Games in memory above which some are let go (see [`Hub::make_room`]).
const MAX_LOADED: usize = 2000;

/// One game in memory.
pub struct Slot {
    live: tokio::sync::Mutex<Live>,
    /// The latest view (with legal actions), serialized once per version.
    views: watch::Sender<ViewText>,
    bot_running: AtomicBool,
    /// Finished games never change again, so they may leave memory.
    finished: AtomicBool,
    /// Whose address the bots' time is charged to.
    owner: Owner,
    /// The bots' thinking time so far (since loaded), in microseconds.
    bot_time: AtomicU64,
    /// The acting seat's own view over its provisional decisions, if any.
    private: watch::Sender<Option<SeatView>>,
    /// The stored row's revision this copy is at (changed under `live`'s
    /// lock); it also orders the seat views.
    rev: AtomicU64,
}

impl Slot {
    fn new(live: Live, owner: Owner, rev: u64) -> Arc<Slot> {
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
        })
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

    /// Makes and publishes the acting seat's own view; `None` when it has no
    /// provisional decision (its clients then see the public view).
    fn publish_private(&self, live: &Live) -> Option<ViewText> {
        let sv = seat_view(live, self.rev.load(Ordering::Acquire));
        let view = sv.as_ref().map(|sv| sv.view.clone());
        self.private.send_replace(sv);
        view
    }

    /// The bots' thinking time so far.
    pub fn bot_time(&self) -> Duration {
        Duration::from_micros(self.bot_time.load(Ordering::Relaxed))
    }

    fn charge(&self, spent: Duration) {
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

/// The games, the database and the bots' share of the machine.
pub struct Hub {
    store: Store,
    games: Mutex<HashMap<String, Arc<Slot>>>,
    bots: Arc<BotPool>,
    /// Other processes write the same games (PostgreSQL): a game in memory
    /// is only a copy, checked against its row's revision before each use
    /// and refreshed when another server announces a write; bots' turns go
    /// to the queue in the database.
    shared: bool,
    /// Woken when a bot job is queued (PostgreSQL).
    pub bot_jobs: tokio::sync::Notify,
}

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
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum SeatRequest {
    Human {
        #[serde(default)]
        name: Option<String>,
        #[serde(default)]
        colour: Option<String>,
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
    pub public: crate::live::SeatPublic,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct Joined {
    pub game: String,
    pub seat: usize,
    pub name: String,
}

/// `POST /join`'s answer: the seat, and the view it sees (over its
/// provisional decisions, if any).
pub struct JoinedView {
    pub joined: Joined,
    pub view: ViewText,
}

/// Who acts: a human seat with its token, or the server's bot for a seat.
#[derive(Clone, Copy, Debug)]
pub enum Who<'a> {
    Human { seat: usize, token: &'a str },
    Bot { seat: usize },
}

fn now() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
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

fn storage(e: StoreError) -> ApiError {
    ApiError::Storage(e.to_string())
}

/// A failed write of game `id`, logged.
fn storage_of(id: &str, e: StoreError) -> ApiError {
    tracing::error!(game = %id, error = %e, "storage error: nothing was changed");
    storage(e)
}

fn summary_of(live: &Live) -> String {
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
    };
    serde_json::to_string(&summary).unwrap_or_else(|_| "{}".into())
}

impl Hub {
    /// Opens the hub on a store. With SQLite, it loads every game still
    /// being played and lets their bots play; with PostgreSQL, it listens
    /// for the other servers' writes and for bot jobs, and loads games when
    /// they are asked for.
    pub async fn open(store: Store, bots: Arc<BotPool>) -> Result<Arc<Hub>, ApiError> {
        let shared = store.shared();
        let hub = Arc::new(Hub {
            store: store.clone(),
            games: Mutex::new(HashMap::new()),
            bots,
            shared,
            bot_jobs: tokio::sync::Notify::new(),
        });
        if let Store::Postgres(pg) = &store {
            let notices = pg.listen(&[crate::store::postgres::GAMES_CHANNEL, crate::store::postgres::BOTS_CHANNEL]);
            tokio::spawn(Hub::follow(Arc::downgrade(&hub), notices));
            return Ok(hub);
        }
        let ids = store.active_ids().await.map_err(storage)?;
        for id in ids {
            match hub.load(&id).await {
                Ok(slot) => hub.kick_bots(slot),
                Err(e) => tracing::error!(game = %id, error = %e, "the game cannot be resumed"),
            }
        }
        Ok(hub)
    }

    fn games(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Slot>>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many games are in memory.
    pub fn loaded(&self) -> usize {
        self.games().len()
    }

    /// The game `id` as stored: loaded from the database if need be, and
    /// brought up to date if another server changed it.
    pub async fn slot(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        let slot = self.cached(id).await?;
        if self.shared && !slot.finished.load(Ordering::Acquire) {
            let mut live = slot.live.lock().await;
            self.refresh(&slot, &mut live).await?;
        }
        Ok(slot)
    }

    /// The game `id` in memory, loaded if need be (not checked against the database).
    async fn cached(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        if let Some(slot) = self.games().get(id) {
            return Ok(slot.clone());
        }
        if !valid_id(id) {
            return Err(ApiError::no_game(id));
        }
        self.load(id).await
    }

    async fn load(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        let row = self.store.load(id).await.map_err(storage)?.ok_or_else(|| ApiError::no_game(id))?;
        let owner = row.owner.as_deref().and_then(|o| o.parse::<IpAddr>().ok());
        let rev = row.rev;
        let live = tokio::task::spawn_blocking(move || rebuild(row))
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))??;
        let mut games = self.games();
        self.make_room(&mut games);
        let slot = games.entry(id.to_string()).or_insert_with(|| Slot::new(live, owner, rev));
        Ok(slot.clone())
    }

    /// The copy of game `id` (whose copy `slot` is) that the hub holds, for a client that has
    /// just begun following `slot`: `slot` itself, put back if it was let
    /// go meanwhile, or the hub's newer copy.
    pub fn keep(&self, id: &str, slot: &Arc<Slot>) -> Arc<Slot> {
        self.games().entry(id.to_string()).or_insert_with(|| slot.clone()).clone()
    }

    /// Checks a followed copy against its row (PostgreSQL): a write that
    /// came before the client followed it was announced to no one here.
    pub async fn check(&self, slot: &Slot) {
        if self.shared && !slot.finished.load(Ordering::Acquire) {
            let mut live = slot.live.lock().await;
            if let Err(e) = self.refresh(slot, &mut live).await {
                tracing::warn!(game = %live.meta.id, error = %e, "cannot refresh the game");
            }
        }
    }

    /// Lets games go from memory when there are many: finished ones, and
    /// with PostgreSQL also those nobody follows (the row is the truth;
    /// they are read again when asked for).
    fn make_room(&self, games: &mut HashMap<String, Arc<Slot>>) {
        if games.len() >= MAX_LOADED {
            games.retain(|_, slot| {
                let followed = slot.views.receiver_count() > 0 || slot.private.receiver_count() > 0;
                !slot.finished.load(Ordering::Acquire) && (!self.shared || followed)
            });
        }
    }

    /// Brings `live` (locked) up to its stored row, if another server wrote
    /// it since, and publishes the new views.
    async fn refresh(&self, slot: &Slot, live: &mut Live) -> Result<(), ApiError> {
        let id = live.meta.id.clone();
        let known = slot.rev.load(Ordering::Acquire);
        let newer = self.store.load_newer(&id, known).await.map_err(storage)?.ok_or_else(|| ApiError::no_game(&id))?;
        let Some(row) = newer else { return Ok(()) };
        let rev = row.rev;
        let known = live.clone();
        let fresh = tokio::task::spawn_blocking(move || catch_up(known, row))
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))??;
        *live = fresh;
        slot.rev.store(rev, Ordering::Release);
        slot.finished.store(live.is_over(), Ordering::Release);
        slot.views.send_replace(ViewText::new(live));
        slot.publish_private(live);
        Ok(())
    }

    /// Follows the database's notices (PostgreSQL): another server's write
    /// refreshes the game here if anyone here watches it (the others are
    /// checked when next used); a new bot job wakes the bots here. Ends
    /// with the hub.
    async fn follow(hub: std::sync::Weak<Hub>, mut notices: tokio::sync::mpsc::UnboundedReceiver<Notice>) {
        while let Some(notice) = notices.recv().await {
            let Some(hub) = hub.upgrade() else { return };
            let stale = |slot: &Arc<Slot>, rev: Option<u64>| {
                rev.is_none_or(|rev| rev > slot.rev.load(Ordering::Acquire))
                    && (slot.views.receiver_count() > 0 || slot.private.receiver_count() > 0)
            };
            let slots: Vec<Arc<Slot>> = match &notice {
                // One job, one loop woken (or the next one to look).
                Notice::Bots => {
                    hub.bot_jobs.notify_one();
                    continue;
                }
                Notice::Game { id, rev } => {
                    hub.games().get(id).filter(|s| stale(s, Some(*rev))).cloned().into_iter().collect()
                }
                // Notices may have been missed: every watched game is checked.
                Notice::Listening => {
                    hub.bot_jobs.notify_waiters();
                    hub.games().values().filter(|s| stale(s, None)).cloned().collect()
                }
            };
            for slot in slots {
                let hub = hub.clone();
                tokio::spawn(async move { hub.check(&slot).await });
            }
        }
    }

    /// Creates a game for `owner` (the creator's address key, which the
    /// bots' time is charged to). Runs to its end even if the caller goes
    /// away: a game stored must also be in memory, its bots started.
    pub async fn create(self: &Arc<Self>, req: CreateRequest, owner: Owner) -> Result<CreateResponse, ApiError> {
        let hub = self.clone();
        tokio::spawn(async move { hub.create_now(req, owner).await })
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))?
    }

    async fn create_now(self: &Arc<Self>, req: CreateRequest, owner: Owner) -> Result<CreateResponse, ApiError> {
        let n = req.seats.len();
        if n > carcassonne_engine::setup::MAX_PLAYERS {
            return Err(ApiError::InvalidSetup(format!(
                "a game has at most {} seats, not {n}",
                carcassonne_engine::setup::MAX_PLAYERS
            )));
        }
        let mut expansions = Vec::with_capacity(req.expansions.len());
        for e in &req.expansions {
            let x = Expansion::parse(e).ok_or_else(|| {
                ApiError::InvalidSetup(SetupError::UnknownExpansion(crate::error::clip(e, 20)).to_string())
            })?;
            expansions.push(x);
        }
        // The engine says how many seats these rules take (six with Inns & Cathedrals).
        Rules::new(n, &expansions, Edition::default()).map_err(|e| {
            ApiError::InvalidSetup(match e {
                SetupError::PlayerCount { min, max, .. } => {
                    format!("a game with these expansions has {min} to {max} seats, not {n}")
                }
                e => e.to_string(),
            })
        })?;
        let edition = match &req.edition {
            None => None,
            Some(e) => Some(Edition::parse(e).ok_or_else(|| {
                ApiError::InvalidSetup(format!("unknown edition '{}' (c3 or c2)", crate::error::clip(e, 20)))
            })?),
        };
        if let Some(n) = req.rules.tiny_city_scoring {
            Rules::base(2)
                .and_then(|r| r.with_tiny_city_scoring(n))
                .map_err(|e| ApiError::InvalidSetup(format!("rules: {e}")))?;
        }
        let mut searches = false;
        for s in &req.seats {
            if let SeatRequest::Bot { level, .. } = s {
                searches |= self.bots.check_level(level.as_deref().unwrap_or("easy"))?;
            }
        }
        let asked: Vec<Option<String>> = req
            .seats
            .iter()
            .map(|s| match s {
                SeatRequest::Human { colour, .. } | SeatRequest::Bot { colour, .. } => colour.clone(),
            })
            .collect();
        let mut colours = crate::live::colours(&asked)?.into_iter();
        // ThreadRng is not Send: draw every secret before the first await.
        let (id, seed, seats) = {
            let mut rng = rand::rng();
            let id = hex(&rng.random::<[u8; 8]>());
            let seed: u64 = rng.random();
            let mut seats = Vec::with_capacity(n);
            for (i, s) in req.seats.into_iter().enumerate() {
                seats.push(match s {
                    SeatRequest::Human { name, .. } => SeatRow {
                        name: crate::names::clean(name.as_deref(), format!("Player {}", i + 1))?,
                        kind: SeatKind::Human,
                        level: None,
                        token: Some(hex(&rng.random::<[u8; 16]>())),
                        undo: req.undo,
                        colour: colours.next(),
                    },
                    SeatRequest::Bot { level, name, .. } => {
                        let level = level.unwrap_or_else(|| "easy".to_string());
                        SeatRow {
                            name: crate::names::clean(name.as_deref(), format!("Bot {} ({level})", i + 1))?,
                            kind: SeatKind::Bot,
                            level: Some(level),
                            token: None,
                            undo: false,
                            colour: colours.next(),
                        }
                    }
                });
            }
            (id, seed, seats)
        };
        crate::names::check_distinct(&seats.iter().map(|s| s.name.clone()).collect::<Vec<_>>())?;
        if searches {
            self.admit(owner).await?;
        }
        let setup = Setup {
            players: seats.iter().map(|s| s.name.clone()).collect(),
            expansions,
            edition,
            seed: None,
            rules: req.rules,
        };
        let created = now();
        let meta = Arc::new(Meta { id: id.clone(), created, seed, seats });
        let live = Live::create(meta.clone(), setup)?;
        let row = GameRow {
            id: id.clone(),
            created,
            updated: created,
            seed,
            seats: serde_json::to_string(&meta.seats).map_err(|e| ApiError::Internal(e.to_string()))?,
            record: live.record().to_json(),
            version: live.version,
            finished: live.is_over(),
            summary: summary_of(&live),
            public: req.public,
            owner: owner.map(|o| o.to_string()),
            rev: 0,
            pending: None,
            bot_due: live.bot_to_act().is_some(),
        };
        self.store.insert(row).await.map_err(|e| storage_of(&id, e))?;
        tracing::info!(game = %id, public = req.public, seats = n, "game created");
        let version = live.version;
        let slot = {
            let mut games = self.games();
            self.make_room(&mut games);
            // A bot loop here may have read the game already (PostgreSQL).
            games.entry(id.clone()).or_insert_with(|| Slot::new(live, owner, 0)).clone()
        };
        self.kick_bots(slot);
        let seats = meta
            .seats
            .iter()
            .zip(meta.public_seats())
            .map(|(s, public)| CreatedSeat {
                public,
                token: s.token.clone(),
                link: s.token.as_ref().map(|t| format!("/#game={id}&token={t}")),
            })
            .collect();
        Ok(CreateResponse { spectate: format!("/#game={id}"), game: id, version, seats, public: req.public })
    }

    /// Which seat holds `token`.
    pub async fn join(&self, id: &str, token: &str) -> Result<Joined, ApiError> {
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
        let seat = found.ok_or(ApiError::WrongToken(None))?;
        Ok(Joined { game: id.to_string(), seat, name: live.meta.seats[seat].name.clone() })
    }

    /// Which seat holds `token`, and the view that seat sees.
    pub async fn join_view(&self, id: &str, token: &str) -> Result<JoinedView, ApiError> {
        let joined = self.join(id, token).await?;
        let slot = self.slot(id).await?;
        let view = slot.view_of(joined.seat);
        Ok(JoinedView { joined, view })
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
    ) -> Result<(u64, ViewText), ApiError> {
        let (hub, id) = (self.clone(), id.to_string());
        let (seat, token) = match who {
            Who::Human { seat, token } => (seat, Some(token.to_string())),
            Who::Bot { seat } => (seat, None),
        };
        tokio::spawn(async move {
            let who = match &token {
                Some(token) => Who::Human { seat, token },
                None => Who::Bot { seat },
            };
            hub.submit_now(&id, who, version, command).await
        })
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?
    }

    async fn submit_now(
        self: &Arc<Self>,
        id: &str,
        who: Who<'_>,
        version: u64,
        command: Command,
    ) -> Result<(u64, ViewText), ApiError> {
        let slot = self.cached(id).await?;
        let mut live = slot.live.lock().await;
        // With PostgreSQL, the copy is checked against the row first, but
        // for an action on the version the copy is at: if the row has moved
        // on, the write is refused (its revision differs) and the client
        // told so. A bot's action is always on the copy's version.
        let current = match (&who, &command) {
            (Who::Bot { .. }, _) => true,
            (Who::Human { .. }, Command::Play(_)) => version == live.version && live.pending.is_none(),
            (Who::Human { .. }, _) => false,
        };
        if self.shared && !current {
            self.refresh(&slot, &mut live).await?;
        }
        let seat = match who {
            Who::Human { seat, .. } | Who::Bot { seat } => seat,
        };
        let row = live
            .meta
            .seats
            .get(seat)
            .ok_or_else(|| ApiError::Malformed(format!("there is no seat {seat} in this game")))?;
        match who {
            Who::Human { token, .. } => {
                if row.kind == SeatKind::Bot {
                    return Err(ApiError::BotSeat(seat));
                }
                if !row.token.as_deref().is_some_and(|t| same_secret(t, token)) {
                    return Err(ApiError::WrongToken(Some(seat)));
                }
            }
            Who::Bot { .. } => {
                if row.kind != SeatKind::Bot {
                    return Err(ApiError::Internal(format!("seat {seat} is not a bot")));
                }
            }
        }
        // A seat of a game created with `undo` decides provisionally (a
        // discard or passing the abbey, which a draw follows at once, and
        // a wagon moved out of turn are final at once).
        let provisional = matches!(who, Who::Human { .. }) && row.undo;
        let action = match command {
            Command::Play(action) if provisional && (live.pending.is_some() || !live.final_at_once(seat, action)) => {
                let before = live.pending.clone();
                live.decide(seat, version, action)?;
                self.store_pending(&slot, &mut live, before, seat, version).await?;
                let view = slot.publish_private(&live).ok_or_else(|| ApiError::Internal("no seat view".into()))?;
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
            Command::EndTurn => return self.end_turn(id, &slot, &mut live, seat, version).await,
        };
        let applied = live.apply(seat, version, action)?;
        let update_record = applied.game().record().to_json();
        let to = applied.version();
        let finished = applied.game().state().is_over();
        let summary = summary_of(&applied.next);
        let update = Update {
            id: live.meta.id.clone(),
            rev: slot.rev.load(Ordering::Acquire),
            version: to,
            record: update_record,
            finished,
            summary,
            updated: now(),
            pending: live.provisional(),
            bot_due: applied.next.bot_to_act().is_some(),
        };
        let rev = match self.store.save(update).await {
            Ok(rev) => rev,
            Err(e) => return Err(self.write_failed(&slot, &mut live, seat, e, version).await),
        };
        live.commit(applied);
        slot.rev.store(rev, Ordering::Release);
        if finished {
            tracing::info!(game = %id, version = to, bot_seconds = slot.bot_time().as_secs_f64(), "game finished");
        }
        let view = ViewText::new(&live);
        slot.finished.store(live.is_over(), Ordering::Release);
        slot.views.send_replace(view.clone());
        drop(live);
        self.kick_bots(slot);
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
    ) -> Result<(), ApiError> {
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
    async fn write_failed(&self, slot: &Slot, live: &mut Live, seat: usize, e: StoreError, sent: u64) -> ApiError {
        match e {
            StoreError::Conflict(_) => {
                tracing::info!(game = %live.meta.id, "a write lost a race to another server's: stale version");
                if let Err(e) = self.refresh(slot, live).await {
                    return e;
                }
                // The version this seat sees: its own provisional one, if any.
                let mine = live.pending.as_deref().filter(|p| p.seat == seat);
                let current = mine.map_or(live.version, |p| p.next.version);
                ApiError::StaleVersion { current, sent }
            }
            e => storage_of(&live.meta.id, e),
        }
    }

    /// Makes a seat's provisional decisions final, with the draw after
    /// them, once stored; then everyone sees the turn.
    async fn end_turn(
        self: &Arc<Self>,
        id: &str,
        slot: &Arc<Slot>,
        live: &mut Live,
        seat: usize,
        version: u64,
    ) -> Result<(u64, ViewText), ApiError> {
        let next = live.end_turn(seat, version)?;
        let to = next.version;
        let finished = next.is_over();
        let update = Update {
            id: live.meta.id.clone(),
            rev: slot.rev.load(Ordering::Acquire),
            version: to,
            record: next.record().to_json(),
            finished,
            summary: summary_of(&next),
            updated: now(),
            pending: None,
            bot_due: next.bot_to_act().is_some(),
        };
        let rev = match self.store.save(update).await {
            Ok(rev) => rev,
            Err(e) => return Err(self.write_failed(slot, live, seat, e, version).await),
        };
        *live = next;
        slot.rev.store(rev, Ordering::Release);
        if finished {
            tracing::info!(game = %id, version = to, bot_seconds = slot.bot_time().as_secs_f64(), "game finished");
        }
        let view = ViewText::new(live);
        slot.finished.store(live.is_over(), Ordering::Release);
        slot.views.send_replace(view.clone());
        slot.publish_private(live);
        self.kick_bots(slot.clone());
        Ok((to, view))
    }

    /// Lets the bots play while a bot seat is to act, one decision at a
    /// time per game, on blocking threads: search bots on the bot threads
    /// when [`BotPool`] gives them one, instant bots at once.
    ///
    /// With PostgreSQL, the write that made a bot due queued its decision
    /// for the workers instead (see [`crate::worker`]).
    pub fn kick_bots(self: &Arc<Self>, slot: Arc<Slot>) {
        if self.shared || slot.bot_running.swap(true, Ordering::AcqRel) {
            return;
        }
        let hub = self.clone();
        tokio::spawn(async move {
            // The last bot that chose, kept for its seat's next decision: a
            // search with a turn budget carries its tree across the turn.
            let mut kept: Option<(usize, Box<dyn Bot>)> = None;
            // Why the search bots last played greedily, if they did.
            let mut greedy = None;
            loop {
                let job = {
                    let live = slot.live.lock().await;
                    match live.bot_to_act() {
                        Some((seat, plan)) => {
                            (live.meta.id.clone(), seat, plan, live.state().clone(), live.version, live.bot_seed())
                        }
                        None => {
                            // Cleared under the lock: a submit that makes a bot
                            // due kicks again after releasing it.
                            slot.bot_running.store(false, Ordering::Release);
                            return;
                        }
                    }
                };
                let (id, seat, plan, state, version, seed) = job;
                let only = {
                    let legal = state.legal_action_list();
                    (legal.len() == 1).then(|| legal[0])
                };
                let chosen = match only {
                    // A forced move (say, passing with no follower left) needs
                    // no search, but a bot kept for this seat still hears of
                    // it, so that its turn's search carries on past it.
                    Some(a) => match kept.take().filter(|(s, _)| *s == seat) {
                        None => Ok(Some(a)),
                        Some((_, mut bot)) => tokio::task::spawn_blocking(move || {
                            bot.choose(&state);
                            bot
                        })
                        .await
                        .map(|bot| {
                            kept = Some((seat, bot));
                            Some(a)
                        }),
                    },
                    None => {
                        let (turn, instant) = match plan {
                            BotPlan::Mcts(_) => (Some(hub.bots.search(slot.owner, slot.bot_time()).await), None),
                            BotPlan::Spec(_) => (None, hub.bots.instant().await),
                        };
                        let why = match &turn {
                            Some(Turn::Greedy(why)) => Some(*why),
                            _ => None,
                        };
                        if why != greedy {
                            match why {
                                Some(why) => tracing::warn!(
                                    game = %id,
                                    owner = ?slot.owner,
                                    "the search bots play greedily for now: {}",
                                    why.describe()
                                ),
                                None => tracing::info!(game = %id, "the search bots search again"),
                            }
                            greedy = why;
                        }
                        let mut bot: Box<dyn Bot> = match kept.take() {
                            _ if why.is_some() => Box::new(carcassonne_bots::GreedyBot::new(seed)),
                            Some((s, bot)) if s == seat => bot,
                            _ => plan.build(seed),
                        };
                        let chosen = tokio::task::spawn_blocking(move || {
                            let started = Instant::now();
                            let action = bot.choose(&state);
                            (bot, action, started.elapsed())
                        })
                        .await;
                        drop((turn, instant));
                        chosen.map(|(bot, action, spent)| {
                            hub.bots.charge(slot.owner, spent);
                            slot.charge(spent);
                            if why.is_none() {
                                kept = Some((seat, bot));
                            }
                            action
                        })
                    }
                };
                let action = match chosen {
                    Ok(Some(a)) => a,
                    Ok(None) => {
                        tracing::error!(game = %id, seat, "bot failure: the bot found no action");
                        break;
                    }
                    Err(e) => {
                        tracing::error!(game = %id, seat, error = %e, "bot failure: the bot's thread failed");
                        break;
                    }
                };
                match hub.submit(&id, Who::Bot { seat }, version, Command::Play(action)).await {
                    Ok(_) | Err(ApiError::StaleVersion { .. }) => {}
                    Err(ApiError::Storage(_)) => {
                        // Logged as a storage error; the bot tries again.
                        tracing::warn!(game = %id, seat, "bot failure: its action was not stored, trying again in 1 s");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                    Err(e) => {
                        tracing::error!(game = %id, seat, action = %action, error = %e, "bot failure: its action was refused");
                        break;
                    }
                }
            }
            slot.bot_running.store(false, Ordering::Release);
        });
    }

    /// The view at a past version (no legal actions), or the current one.
    pub async fn view_at(&self, id: &str, version: u64) -> Result<String, ApiError> {
        let slot = self.slot(id).await?;
        let (meta, record, current) = {
            let live = slot.live.lock().await;
            (live.meta.clone(), live.record().clone(), live.version)
        };
        if version == current {
            return Ok(String::from_utf8_lossy(&slot.view().view()).into_owned());
        }
        if version == 0 || version > current {
            return Err(ApiError::NotFound(format!("versions of this game run from 1 to {current}, not {version}")));
        }
        tokio::task::spawn_blocking(move || Live::rebuild(meta, &record, version).map(|l| l.view_json(false)))
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))?
            .map_err(ApiError::Internal)
    }

    /// The record, without seed; a turn in progress shows as its drawn tile
    /// waiting to be placed (see [`carcassonne_engine::Game::settled_record`]).
    pub async fn record(&self, id: &str) -> Result<Record, ApiError> {
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
    ) -> Result<crate::inspect::FeatureReport, ApiError> {
        let seat = match token {
            Some(t) => Some(self.join(id, t).await?.seat),
            None => None,
        };
        let slot = self.slot(id).await?;
        let (meta, record, current) = {
            let live = slot.live.lock().await;
            match live.pending.as_deref().filter(|p| Some(p.seat) == seat) {
                Some(p) if version.is_none() || version == Some(p.next.version) => {
                    return crate::inspect::inspect(p.next.state(), at, piece)
                }
                _ => {}
            }
            if version.is_none() || version == Some(live.version) {
                return crate::inspect::inspect(live.state(), at, piece);
            }
            (live.meta.clone(), live.record().clone(), live.version)
        };
        let version = version.unwrap_or(current);
        if version == 0 || version > current {
            return Err(ApiError::NotFound(format!("versions of this game run from 1 to {current}, not {version}")));
        }
        tokio::task::spawn_blocking(move || {
            let live = Live::rebuild(meta, &record, version).map_err(ApiError::Internal)?;
            crate::inspect::inspect(live.state(), at, piece)
        })
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?
    }

    pub async fn history(&self, id: &str) -> Result<String, ApiError> {
        let slot = self.slot(id).await?;
        let live = slot.live.lock().await;
        Ok(live.history_json())
    }

    pub async fn list(&self, filter: Filter, limit: u32, offset: u32) -> Result<Vec<Listed>, ApiError> {
        self.store.list(filter, limit, offset).await.map_err(storage)
    }

    /// Whether `owner` may create one more game with search bots (see
    /// [`BotPool::admit`]); with PostgreSQL, as the database counts the
    /// address's bot time and the queue.
    async fn admit(&self, owner: Owner) -> Result<(), ApiError> {
        if !self.shared {
            return self.bots.admit(owner);
        }
        let per_hour = self.bots.seconds_per_hour();
        let used = self.store.bot_usage(owner, per_hour).await.map_err(storage)?;
        let queued = self.store.bot_queue(owner).await.map_err(storage)?;
        self.bots.admit_with(used, queued)
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn bots(&self) -> &Arc<BotPool> {
        &self.bots
    }
}

/// The stored game, from `known`, an earlier state of it: only the actions
/// since are played (replayed from the start if it is not earlier).
fn catch_up(mut known: Live, row: GameRow) -> Result<Live, ApiError> {
    let Ok(record) = Record::from_json(&row.record) else { return rebuild(row) };
    if known.catch_up(&record, row.version).is_err() {
        return rebuild(row);
    }
    restore_provisional(&mut known, &row);
    Ok(known)
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

fn damaged(id: &str, reason: String) -> ApiError {
    ApiError::Storage(format!("stored game {id} is damaged: {reason}"))
}

/// A stored game, replayed to its stored version.
fn rebuild(row: GameRow) -> Result<Live, ApiError> {
    let damaged = |reason: String| damaged(&row.id, reason);
    let seats: Vec<SeatRow> = serde_json::from_str(&row.seats).map_err(|e| damaged(e.to_string()))?;
    let record = Record::from_json(&row.record).map_err(|e| damaged(e.to_string()))?;
    let meta = Arc::new(Meta { id: row.id.clone(), created: row.created, seed: row.seed, seats });
    let mut live = Live::rebuild(meta, &record, row.version).map_err(damaged)?;
    if live.record() != &record {
        return Err(damaged("the replayed record differs from the stored one".into()));
    }
    restore_provisional(&mut live, &row);
    Ok(live)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stored provisional decisions come back with the game, and ones that
    /// no longer play are dropped, not the game.
    #[test]
    fn stored_provisional_decisions_come_back_or_are_dropped() {
        let seat =
            SeatRow { name: "a".into(), kind: SeatKind::Human, level: None, token: None, undo: true, colour: None };
        let seats = vec![seat.clone(), SeatRow { name: "b".into(), ..seat }];
        let meta = Arc::new(Meta { id: "0123456789abcdef".into(), created: 0, seed: 7, seats: seats.clone() });
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
        };
        let back = rebuild(row(live.provisional())).unwrap();
        assert_eq!(back.pending.as_ref().map(|p| (p.seat, p.actions.clone())), Some((0, vec![place])));
        let bad = r#"{"seat": 1, "actions": ["place X9 [0, 1] 0"]}"#.to_string();
        let back = rebuild(row(Some(bad))).unwrap();
        assert!(back.pending.is_none());
        assert_eq!(back.version, live.version);
    }

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
