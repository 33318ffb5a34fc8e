//! The lobby: tables waiting for their players, and quick match. A table
//! is a game not started yet: its options, its human seats (the creator's
//! first), its bots. Signed-in players take its free seats; the one who
//! takes the last starts its game, every seat bound to its account and
//! named after it, the seats' order drawn. The lobby lists the open
//! tables with their options and their players' ratings.
//!
//! Quick match is a table of two for a rated game: a player asking for one
//! takes the seat of the waiting player of the same options whose rating
//! is closest (within a window that widens as that player waits: 100
//! points, and 10 more a second), or else waits at a table of its own;
//! after the wait the player chose, a bot of the level nearest to its
//! rating takes the free seat. The tables are in the database, so players
//! waiting on different servers are paired alike, and every start (by a
//! join, or by the bot after the wait) is one conditional write: exactly
//! one server starts a table's game.

use std::sync::Arc;

use carcassonne_engine::{Edition, RuleOptions};
use rand::Rng;
use serde::{Deserialize, Serialize};

use super::{now, FirstSeat, Hub, NewGame, NewSeat};
use crate::bots::Owner;
use crate::error::GameError;
use crate::ratings::Entity;
use crate::store::lobby::{Joined, Left, NewTable, Table};

/// The longest wait a quick match may ask before a bot takes the free seat.
pub const MAX_BOT_AFTER: u32 = 3600;
/// A table `starting` for this long lost its starter (a server that
/// died): the next request may start it again.
pub const STALE_START: i64 = 60;
/// The rating gap quick match accepts at once, and how much it widens for
/// every second the waiting player has waited.
pub const QUICK_GAP: f64 = 100.0;
pub const QUICK_GAP_PER_SECOND: f64 = 10.0;
/// Tables the lobby lists at most.
pub const MAX_LISTED: u32 = 200;

/// A table's options: the game it starts.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSetup {
    /// Human seats, the creator's included.
    pub humans: usize,
    /// The bots' levels, a seat each.
    #[serde(default)]
    pub bots: Vec<String>,
    #[serde(default)]
    pub expansions: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edition: Option<String>,
    #[serde(default, skip_serializing_if = "RuleOptions::is_empty")]
    pub rules: RuleOptions,
    #[serde(default)]
    pub rated: bool,
    /// Provisional turns (docs/api.md), as the browser creates its games.
    #[serde(default)]
    pub undo: bool,
    /// A time control (docs/api.md, Clocks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<super::clock::ClockSetup>,
}

impl TableSetup {
    /// Its game, with these players at its human seats (in seat order)
    /// and, for the human seats still free, bots of level `fill`.
    fn game(&self, players: &[(i64, String)], fill: &str) -> NewGame {
        let mut seats: Vec<NewSeat> = players
            .iter()
            .map(|(id, name)| NewSeat::Human { name: None, colour: None, account: Some((*id, name.clone())) })
            .collect();
        for _ in players.len()..self.humans {
            seats.push(NewSeat::Bot { level: Some(fill.to_string()), name: None, colour: None });
        }
        for level in &self.bots {
            seats.push(NewSeat::Bot { level: Some(level.clone()), name: None, colour: None });
        }
        NewGame {
            seats,
            expansions: self.expansions.clone(),
            edition: self.edition.clone(),
            rules: self.rules.clone(),
            public: true,
            undo: self.undo,
            hints: false,
            first: Some(FirstSeat::Random),
            rated: self.rated,
            clock: self.clock,
        }
    }

    /// One form for one set of options, which quick match compares as text.
    fn normal(mut self) -> TableSetup {
        self.expansions.sort();
        self.expansions.dedup();
        // The default edition named is the same game as none named.
        if self.edition.as_deref() == Some(Edition::default().name()) {
            self.edition = None;
        }
        self
    }
}

/// A quick match asked for.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuickRequest {
    #[serde(default)]
    pub expansions: Vec<String>,
    #[serde(default)]
    pub edition: Option<String>,
    /// Seconds after which a bot takes the free seat; none: wait for a
    /// player however long it takes.
    #[serde(default)]
    pub bot_after: Option<u32>,
}

/// What joining a table did: the seat taken, and the game if it started.
#[derive(Clone, Debug, Serialize)]
pub struct TableJoin {
    pub table: String,
    pub seat: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
}

fn table_id() -> String {
    let bytes: [u8; 8] = rand::rng().random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether a player rated `mine` may take the seat of a quick match's
/// waiting player rated `theirs`, who has waited `waited` seconds.
pub fn close_enough(mine: f64, theirs: f64, waited: i64) -> bool {
    (mine - theirs).abs() <= QUICK_GAP + QUICK_GAP_PER_SECOND * waited.max(0) as f64
}

impl Hub {
    /// The rating an account plays quick match with: its own, or a
    /// newcomer's.
    async fn rating_of(&self, account: i64) -> Result<f64, GameError> {
        let entity = Entity::Account(account);
        Ok(self.store.rating(&entity).await?.map_or(entity.start().rating, |r| r.rating))
    }

    /// The ladder's level nearest to `rating`.
    async fn nearest_level(&self, rating: f64) -> Result<String, GameError> {
        let levels = self.store.levels(now()).await?;
        Ok(levels
            .iter()
            .min_by(|a, b| (a.rating.rating - rating).abs().total_cmp(&(b.rating.rating - rating).abs()))
            .map_or_else(|| "medium".to_string(), |l| l.name.clone()))
    }

    /// Opens a table of `setup` for `creator` (id, name), who sits at seat 0.
    pub async fn open_table(&self, creator: (i64, String), setup: TableSetup) -> Result<Table, GameError> {
        let setup = setup.normal();
        if setup.humans < 2 {
            return Err(GameError::InvalidSetup(format!(
                "a table waits for players: it has two human seats or more, not {}",
                setup.humans
            )));
        }
        // The game it would start, checked now: with stand-in accounts for
        // the seats to come.
        let stand_ins: Vec<(i64, String)> = (0..setup.humans as i64).map(|i| (-1 - i, format!("Player {i}"))).collect();
        self.check_new(&setup.game(&stand_ins, "easy"))?;
        self.insert_table(creator.0, setup, false, None, None).await
    }

    async fn insert_table(
        &self,
        creator: i64,
        setup: TableSetup,
        quick: bool,
        rating: Option<f64>,
        bot_after: Option<i64>,
    ) -> Result<Table, GameError> {
        let id = table_id();
        let at = now();
        let text = serde_json::to_string(&setup).map_err(GameError::internal)?;
        let row = NewTable {
            id: id.clone(),
            created: at,
            creator,
            setup: text,
            humans: setup.humans,
            quick,
            rating,
            bot_after,
        };
        self.store.open_table(row).await?;
        tracing::info!(table = %id, quick, "table opened");
        self.table(&id).await
    }

    /// Table `id`, as the lobby shows it.
    pub async fn table(&self, id: &str) -> Result<Table, GameError> {
        if !super::valid_id(id) {
            return Err(GameError::NotFound(format!("no table '{}'", crate::error::clip(id, 40))));
        }
        self.store.table(id, now()).await?.ok_or_else(|| GameError::NotFound(format!("no table '{id}'")))
    }

    /// Table `id` as a player looking at it finds it: if its starter died
    /// (`starting` for [`STALE_START`] seconds), started again now.
    pub async fn look_at_table(self: &Arc<Self>, id: &str, owner: Owner) -> Result<Table, GameError> {
        let table = self.table(id).await?;
        let at = now();
        if table.status == "starting"
            && table.updated < at - STALE_START
            && self.store.claim_start(id, at, at - STALE_START).await?
        {
            self.start_table(id, owner).await?;
            return self.table(id).await;
        }
        Ok(table)
    }

    /// The open tables, newest first.
    pub async fn open_tables(&self, limit: u32) -> Result<Vec<Table>, GameError> {
        Ok(self.store.open_tables(limit.min(MAX_LISTED), now()).await?)
    }

    /// Seats `account` at table `id`; the last seat taken starts its game.
    pub async fn join_table(self: &Arc<Self>, id: &str, account: i64, owner: Owner) -> Result<TableJoin, GameError> {
        let table = self.table(id).await?;
        match self.store.join_table(id, account, now()).await? {
            Joined::Seated { seat, starts } => {
                let game = if starts { Some(self.start_table(&table.table, owner).await?) } else { None };
                Ok(TableJoin { table: id.to_string(), seat, game })
            }
            Joined::Already { seat } => {
                let table = self.table(id).await?;
                Ok(TableJoin { table: id.to_string(), seat, game: table.game })
            }
            Joined::NotOpen(status) => Err(GameError::TableClosed(format!(
                "this table is {}: its seats are no longer free",
                if status == "full" { "full" } else { status.as_str() }
            ))),
            Joined::NoTable => Err(GameError::NotFound(format!("no table '{id}'"))),
        }
    }

    /// `account` leaves table `id` before it starts (its creator closes it).
    pub async fn leave_table(&self, id: &str, account: i64) -> Result<Left, GameError> {
        self.table(id).await?;
        Ok(self.store.leave_table(id, account, now()).await?)
    }

    /// Starts the game of table `id`, which this server has taken to
    /// `starting`: its players at their seats' order, a bot of the level
    /// nearest to their rating at each human seat still free.
    async fn start_table(self: &Arc<Self>, id: &str, owner: Owner) -> Result<String, GameError> {
        let started = async {
            let table = self.table(id).await?;
            let setup: TableSetup = serde_json::from_value(table.setup.clone())
                .map_err(|e| GameError::Internal(format!("table {id}: its setup is damaged: {e}")))?;
            let players: Vec<(i64, String)> = table.players.iter().map(|p| (p.account, p.name.clone())).collect();
            let fill = if players.len() < setup.humans {
                let mut sum = 0.0;
                for (account, _) in &players {
                    sum += self.rating_of(*account).await?;
                }
                self.nearest_level(sum / players.len().max(1) as f64).await?
            } else {
                "easy".to_string()
            };
            self.create(setup.game(&players, &fill), owner).await
        }
        .await;
        let at = now();
        match started {
            Ok(created) => {
                self.store.table_started(id, Some(&created.id), at).await?;
                tracing::info!(table = %id, game = %created.id, "table started");
                Ok(created.id)
            }
            Err(e) => {
                self.store.table_started(id, None, at).await?;
                tracing::warn!(table = %id, error = %e, "a table's game could not be started: closed");
                Err(e)
            }
        }
    }

    /// A quick match for `account`: its waiting table if it has one, a
    /// waiting player's seat if one is close, or a table of its own.
    pub async fn quick_match(
        self: &Arc<Self>,
        account: i64,
        req: QuickRequest,
        owner: Owner,
    ) -> Result<Table, GameError> {
        if let Some(after) = req.bot_after.filter(|&a| a > MAX_BOT_AFTER) {
            return Err(GameError::InvalidSetup(format!(
                "bot_after: a bot takes the seat within {MAX_BOT_AFTER} seconds at most, not {after}"
            )));
        }
        let setup = TableSetup {
            humans: 2,
            expansions: req.expansions,
            edition: req.edition,
            rated: true,
            undo: true,
            ..TableSetup::default()
        }
        .normal();
        let stand_ins = [(-1, "Player 0".to_string()), (-2, "Player 1".to_string())];
        self.check_new(&setup.game(&stand_ins, "easy"))?;
        if let Some(mine) = self.store.my_quick(account, now()).await? {
            if mine.status == "open" || mine.status == "starting" {
                return Ok(mine);
            }
        }
        let rating = self.rating_of(account).await?;
        let text = serde_json::to_string(&setup).map_err(GameError::internal)?;
        let at = now();
        let mut waiting: Vec<Table> = self
            .store
            .quick_tables(&text, at)
            .await?
            .into_iter()
            .filter(|t| t.creator != account)
            .filter(|t| close_enough(rating, t.rating.unwrap_or(1500.0), at - t.created))
            .collect();
        waiting.sort_by(|a, b| {
            let gap = |t: &Table| (t.rating.unwrap_or(1500.0) - rating).abs();
            gap(a).total_cmp(&gap(b)).then(a.created.cmp(&b.created))
        });
        for t in waiting {
            // Another player may have taken it meanwhile: the next one.
            if let Ok(joined) = self.join_table(&t.table, account, owner).await {
                tracing::info!(table = %joined.table, "quick match paired");
                return self.table(&joined.table).await;
            }
        }
        let bot_after = req.bot_after.map(|s| at + i64::from(s));
        self.insert_table(account, setup, true, Some(rating), bot_after).await
    }

    /// `account`'s latest quick match, started with a bot if its wait is
    /// over (or started again if its starter died).
    pub async fn quick_status(self: &Arc<Self>, account: i64, owner: Owner) -> Result<Option<Table>, GameError> {
        let Some(mine) = self.store.my_quick(account, now()).await? else { return Ok(None) };
        let at = now();
        if mine.status == "open" {
            if let Some(paired) = self.pair_waiting(&mine, account, owner).await? {
                return Ok(Some(paired));
            }
        }
        let due = mine.status == "open" && mine.bot_after.is_some_and(|t| t <= at);
        let stale = mine.status == "starting" && mine.updated < at - STALE_START;
        if (due || stale) && self.store.claim_start(&mine.table, at, at - STALE_START).await? {
            self.start_table(&mine.table, owner).await?;
        }
        Ok(Some(self.table(&mine.table).await?))
    }

    /// Two players who asked at the same moment each opened a table of
    /// their own: the one who asked later, looking again, takes the
    /// earlier one's seat (never both: only a later table moves to an
    /// earlier one). Its own table is closed first; if the earlier seat
    /// was taken meanwhile, it waits at a new table, as it asked.
    async fn pair_waiting(
        self: &Arc<Self>,
        mine: &Table,
        account: i64,
        owner: Owner,
    ) -> Result<Option<Table>, GameError> {
        let setup: TableSetup = serde_json::from_value(mine.setup.clone())
            .map_err(|e| GameError::Internal(format!("table {}: its setup is damaged: {e}", mine.table)))?;
        let text = serde_json::to_string(&setup).map_err(GameError::internal)?;
        let at = now();
        let rating = mine.rating.unwrap_or(1500.0);
        let earlier = self.store.quick_tables(&text, at).await?.into_iter().find(|t| {
            t.creator != account
                && (t.created, &t.table) < (mine.created, &mine.table)
                && close_enough(rating, t.rating.unwrap_or(1500.0), at - t.created)
        });
        let Some(earlier) = earlier else { return Ok(None) };
        if self.store.leave_table(&mine.table, account, at).await? != Left::Closed {
            return Ok(None);
        }
        match self.join_table(&earlier.table, account, owner).await {
            Ok(joined) => {
                tracing::info!(table = %joined.table, "quick match paired");
                Ok(Some(self.table(&joined.table).await?))
            }
            Err(_) => {
                let bot_after = mine.bot_after.map(|t| (t - at).clamp(0, i64::from(MAX_BOT_AFTER)) as u32);
                let req = QuickRequest { expansions: setup.expansions, edition: setup.edition, bot_after };
                self.quick_match(account, req, owner).await.map(Some)
            }
        }
    }

    /// Leaves `account`'s waiting quick match; whether there was one.
    pub async fn cancel_quick(&self, account: i64) -> Result<bool, GameError> {
        let Some(mine) = self.store.my_quick(account, now()).await? else { return Ok(false) };
        Ok(self.store.leave_table(&mine.table, account, now()).await? != Left::Nothing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_widens_as_the_waiting_player_waits() {
        assert!(close_enough(1500.0, 1600.0, 0));
        assert!(!close_enough(1500.0, 1601.0, 0));
        assert!(close_enough(1500.0, 1700.0, 10));
        assert!(!close_enough(1500.0, 1900.0, 10));
        assert!(close_enough(2100.0, 1500.0, 60));
        assert!(!close_enough(1500.0, 1601.0, -5), "a clock behind counts as no wait");
    }

    #[test]
    fn a_tables_game_seats_its_players_then_bots_for_the_free_seats_then_its_own() {
        let setup = TableSetup {
            humans: 3,
            bots: vec!["hard".into()],
            expansions: vec!["ferries".into(), "abbey".into(), "ferries".into()],
            rated: true,
            ..TableSetup::default()
        }
        .normal();
        assert_eq!(setup.expansions, ["abbey", "ferries"]);
        let g = setup.game(&[(7, "Ann".into()), (9, "Bob".into())], "medium");
        assert_eq!(g.seats.len(), 4);
        assert!(matches!(&g.seats[0], NewSeat::Human { account: Some((7, n)), .. } if n == "Ann"));
        assert!(matches!(&g.seats[2], NewSeat::Bot { level: Some(l), .. } if l == "medium"));
        assert!(matches!(&g.seats[3], NewSeat::Bot { level: Some(l), .. } if l == "hard"));
        assert!(g.rated && g.public && !g.hints && g.first == Some(FirstSeat::Random));
    }
}
