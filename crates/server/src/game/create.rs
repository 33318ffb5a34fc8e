//! New games: the setup checked (seats, expansions, edition, rule variants,
//! bot levels within the server's budgets, names and colours), the secrets
//! drawn, the row stored, and the bots started.

use std::sync::Arc;

use carcassonne_engine::record::Setup;
use carcassonne_engine::{Edition, Expansion, RuleOptions, Rules, SetupError};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::{now, storage_of, summary_of, Hub, Slot};
use crate::bots::Owner;
use crate::error::GameError;
use crate::live::{Live, Meta, SeatKind, SeatPublic, SeatRow};
use crate::store::GameRow;

/// A game to create, as its creator asks for it.
#[derive(Clone, Debug, Default)]
pub struct NewGame {
    pub seats: Vec<NewSeat>,
    pub expansions: Vec<String>,
    pub edition: Option<String>,
    /// Rule variants, as a record's `setup.rules`.
    pub rules: RuleOptions,
    /// Listed in the game list (otherwise only its links find it).
    pub public: bool,
    /// The human seats' decisions of a turn stay provisional, seen by that
    /// seat alone and undoable, until it ends the turn.
    pub undo: bool,
    /// The human seats may ask for hints (the strongest bot's choice),
    /// each one written in the record.
    pub hints: bool,
    /// Who moves first: `None` the first seat listed.
    pub first: Option<FirstSeat>,
    /// Moves the ratings of its seats when it ends ([`crate::ratings`]).
    pub rated: bool,
    /// Its time control ([`super::clock`]).
    pub clock: Option<super::clock::ClockSetup>,
}

/// Who moves first, asked for at creation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstSeat {
    /// This seat of the request (0 its first).
    Seat(usize),
    /// A seat drawn uniformly, from the game's seed.
    Random,
}

/// The seat (of `n`, as listed) that a game with seed `seed` draws to move
/// first. The seed drives the bag too: a stream of its own keeps the two
/// draws apart, and the game's seed alone tells who was drawn.
pub fn drawn_first(seed: u64, n: usize) -> usize {
    // "first" in ASCII: a fixed offset into the seed space for this draw.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x66_6972_7374);
    rng.random_range(0..n.max(1))
}

/// A seat of a game to create.
#[derive(Clone, Debug)]
pub enum NewSeat {
    /// `account`: the signed-in creator's (id, name), to whom the seat is
    /// bound; its name is the seat's default one.
    Human {
        name: Option<String>,
        colour: Option<String>,
        account: Option<(i64, String)>,
    },
    Bot {
        level: Option<String>,
        name: Option<String>,
        colour: Option<String>,
    },
}

/// A game created.
#[derive(Clone, Debug)]
pub struct Created {
    pub id: String,
    pub version: u64,
    /// Each seat as everyone may see it, with its secret token (human seats).
    pub seats: Vec<(SeatPublic, Option<String>)>,
    /// For each seat (in turn order), its place in the request's `seats`:
    /// they differ when another seat than the first listed moves first.
    pub asked: Vec<usize>,
    pub public: bool,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl Hub {
    /// Creates a game for `owner` (the creator's address key, which the
    /// bots' time is charged to). Runs to its end even if the caller goes
    /// away: a game stored must also be in memory, its bots started.
    pub async fn create(self: &Arc<Self>, req: NewGame, owner: Owner) -> Result<Created, GameError> {
        let hub = self.clone();
        tokio::spawn(async move { hub.create_now(req, owner).await }).await.map_err(GameError::internal)?
    }

    /// Whether `req` could be created: its setup, and its bots' levels
    /// within this server's budgets; whether a bot of it searches.
    pub fn check_new(&self, req: &NewGame) -> Result<bool, GameError> {
        check_setup(req)?;
        let mut searches = false;
        for s in &req.seats {
            if let NewSeat::Bot { level, .. } = s {
                searches |= self.bots().check_level(level.as_deref().unwrap_or("easy"))?;
            }
        }
        Ok(searches)
    }

    async fn create_now(self: &Arc<Self>, req: NewGame, owner: Owner) -> Result<Created, GameError> {
        let n = req.seats.len();
        let searches = self.check_new(&req)?;
        let (expansions, edition) = check_setup(&req)?;
        let asked: Vec<Option<String>> = req
            .seats
            .iter()
            .map(|s| match s {
                NewSeat::Human { colour, .. } | NewSeat::Bot { colour, .. } => colour.clone(),
            })
            .collect();
        let mut colours = crate::live::colours(&asked)?.into_iter();
        let accounts: Vec<Option<i64>> = req
            .seats
            .iter()
            .map(|s| match s {
                NewSeat::Human { account: Some((id, _)), .. } => Some(*id),
                _ => None,
            })
            .collect();
        // ThreadRng is not Send: draw every secret before the first await.
        let (id, seed, seats) = {
            let mut rng = rand::rng();
            let id = hex(&rng.random::<[u8; 8]>());
            let seed: u64 = rng.random();
            let mut seats = Vec::with_capacity(n);
            for (i, s) in req.seats.into_iter().enumerate() {
                seats.push(match s {
                    NewSeat::Human { name, account, .. } => SeatRow {
                        name: crate::names::clean(
                            name.as_deref(),
                            account.map_or_else(|| format!("Player {}", i + 1), |(_, name)| name),
                        )?,
                        kind: SeatKind::Human,
                        level: None,
                        token: Some(hex(&rng.random::<[u8; 16]>())),
                        undo: req.undo,
                        colour: colours.next(),
                        hints: req.hints,
                    },
                    NewSeat::Bot { level, name, .. } => {
                        let level = level.unwrap_or_else(|| "easy".to_string());
                        SeatRow {
                            name: crate::names::clean(name.as_deref(), format!("Bot {} ({level})", i + 1))?,
                            kind: SeatKind::Bot,
                            level: Some(level),
                            token: None,
                            undo: false,
                            colour: colours.next(),
                            hints: false,
                        }
                    }
                });
            }
            (id, seed, seats)
        };
        // Who moves first: the seats go round the table from that one, in
        // the order listed, before the record starts (its `players` are in
        // turn order, so a replay needs nothing more).
        let first = match req.first {
            None => 0,
            Some(FirstSeat::Seat(i)) => i,
            Some(FirstSeat::Random) => drawn_first(seed, n),
        };
        let asked: Vec<usize> = (0..n).map(|k| (first + k) % n.max(1)).collect();
        let mut seats: Vec<Option<SeatRow>> = seats.into_iter().map(Some).collect();
        let seats: Vec<SeatRow> = asked.iter().filter_map(|&i| seats[i].take()).collect();
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
        let meta = Arc::new(Meta { id: id.clone(), created, seed, seats, rated: req.rated });
        let mut live = Live::create(meta.clone(), setup)?;
        // The first seat's clock starts now.
        live.clock = req.clock.map(|c| super::clock::Clock::new(c, n));
        super::clock::follow(&mut live, super::clock::now_ms());
        let (clock, clock_due) = super::clock::columns(&live);
        let row = GameRow {
            id: id.clone(),
            created,
            updated: created,
            seed,
            seats: serde_json::to_string(&meta.seats).map_err(GameError::internal)?,
            record: live.record().to_json(),
            version: live.version,
            finished: live.is_over(),
            summary: summary_of(&live),
            public: req.public,
            owner: owner.map(|o| o.to_string()),
            rev: 0,
            pending: None,
            bot_due: live.bot_to_act().is_some(),
            accounts: asked.iter().enumerate().filter_map(|(k, &i)| accounts[i].map(|a| (k, a))).collect(),
            rated: req.rated,
            clock,
            clock_due,
        };
        self.store.insert(row).await.map_err(|e| storage_of(&id, e))?;
        tracing::info!(game = %id, public = req.public, seats = n, "game created");
        let version = live.version;
        // A bot loop here may have read the game already (PostgreSQL).
        let slot = self.cache.insert(&id, || Slot::new(live, owner, 0));
        self.kick_bots(slot);
        let seats = meta.public_seats().into_iter().zip(meta.seats.iter().map(|s| s.token.clone())).collect();
        Ok(Created { id, version, seats, asked, public: req.public })
    }
}

/// A rated game: the signed-in creator's seat, and a rating for every
/// other seat to come (a human seat is taken by a signed-in player
/// through its link; a bot plays a level of the ladder, each level once);
/// no hints, which would play for a seat. Whether every seat is an
/// account's is only known when the game ends ([`crate::ratings`]).
fn check_rated(req: &NewGame) -> Result<(), GameError> {
    let refuse = |why: String| Err(GameError::InvalidSetup(format!("a rated game: {why}")));
    if req.seats.len() < 2 {
        return refuse("it needs two seats or more".into());
    }
    if !req.seats.iter().any(|s| matches!(s, NewSeat::Human { account: Some(_), .. })) {
        return refuse("one of its seats is the signed-in creator's (\"mine\": true): sign in first".into());
    }
    if req.hints {
        return refuse("no hints: a hint is a bot's choice for the seat".into());
    }
    let mut levels = Vec::new();
    for s in &req.seats {
        if let NewSeat::Bot { level, .. } = s {
            let level = level.as_deref().unwrap_or("easy");
            if !crate::ratings::rated_level(level) {
                return refuse(format!(
                    "its bots play levels of the ladder (beginner, easy, medium, hard, expert), not '{}'",
                    crate::error::clip(level, 40)
                ));
            }
            if levels.contains(&level) {
                return refuse(format!("each level plays one seat at most ('{level}' twice)"));
            }
            levels.push(level);
        }
    }
    Ok(())
}

/// The seats, expansions, edition and rule variants: known, and playable
/// together.
fn check_setup(req: &NewGame) -> Result<(Vec<Expansion>, Option<Edition>), GameError> {
    let n = req.seats.len();
    if n > carcassonne_engine::setup::MAX_PLAYERS {
        return Err(GameError::InvalidSetup(format!(
            "a game has at most {} seats, not {n}",
            carcassonne_engine::setup::MAX_PLAYERS
        )));
    }
    // The engine's names (`FromStr`), as a record's setup reads them.
    let expansions = req
        .expansions
        .iter()
        .map(|e| e.parse::<Expansion>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| GameError::InvalidSetup(e.to_string()))?;
    // The engine says how many seats these rules take (six with Inns & Cathedrals).
    Rules::new(n, &expansions, Edition::default()).map_err(|e| {
        GameError::InvalidSetup(match e {
            SetupError::PlayerCount { min, max, .. } => {
                format!("a game with these expansions has {min} to {max} seats, not {n}")
            }
            e => e.to_string(),
        })
    })?;
    let edition = req
        .edition
        .as_deref()
        .map(str::parse::<Edition>)
        .transpose()
        .map_err(|e| GameError::InvalidSetup(e.to_string()))?;
    if let Some(FirstSeat::Seat(i)) = req.first {
        if i >= n {
            return Err(GameError::InvalidSetup(format!(
                "first: seat {i} is not one of the game's {n} seats (0 to {})",
                n.saturating_sub(1)
            )));
        }
    }
    if req.rated {
        check_rated(req)?;
    }
    if let Some(clock) = &req.clock {
        clock.check()?;
    }
    if let Some(n) = req.rules.tiny_city_scoring {
        Rules::base(2)
            .and_then(|r| r.with_tiny_city_scoring(n))
            .map_err(|e| GameError::InvalidSetup(format!("rules: {e}")))?;
    }
    Ok((expansions, edition))
}
