//! One bot decision, the same whoever schedules it (a server on SQLite,
//! [`super::local`], or a worker on PostgreSQL, [`super::worker`]): choose
//! an action, play it through the authority like any player's, and never
//! let a failing bot stop a game.
//!
//! A bot that fails (its thread panics, it finds no action, or its action
//! is refused) is asked again greedily, then the first legal action is
//! played. A scheduler may start further down that road (a worker whose
//! decision was claimed several times already: a worker died on it).

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use carcassonne_bots::Bot;
use carcassonne_engine::{Action, State};

use crate::error::GameError;
use crate::game::{Hub, Who};
use crate::live::{BotPlan, Live};
use crate::wire::Command;

/// How a decision is made, from the bot as planned down to the surest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Fallback {
    /// The seat's bot, as its level says.
    AsPlanned,
    /// The greedy bot, at once.
    Greedy,
    /// The first legal action: nothing can fail but the database.
    FirstLegal,
}

impl Fallback {
    fn next(self) -> Fallback {
        match self {
            Fallback::AsPlanned => Fallback::Greedy,
            _ => Fallback::FirstLegal,
        }
    }
}

/// What a scheduler lends a decision: threads, and where its time goes.
pub trait Lender: Send {
    /// Waits for a thread for a search (held until the guard is dropped),
    /// or says why the bot is to play greedily this time.
    fn search(&mut self) -> impl Future<Output = Result<Guard, String>> + Send;
    /// Waits for a thread for an instant bot's decision.
    fn instant(&mut self) -> impl Future<Output = Guard> + Send;
    /// Charges a decision's thinking time (`searched`: a search bot's).
    fn charge(&mut self, spent: Duration, searched: bool) -> impl Future<Output = ()> + Send;
}

/// A thread lent to a decision, given back when dropped.
pub type Guard = Option<Box<dyn Send>>;

/// The bot that decided last, kept for its game and seat's next decision:
/// a search with a turn budget carries its tree across the turn.
pub struct Kept {
    pub game: String,
    pub seat: usize,
    pub bot: Box<dyn Bot>,
}

/// A decision due: `seat` of `game` is to act at `version`.
pub struct Due {
    pub game: String,
    pub seat: usize,
    pub version: u64,
    pub plan: BotPlan,
    pub state: State,
    pub seed: u64,
}

impl Due {
    /// The decision `live` waits for, if a bot is to act.
    pub fn of(live: &Live) -> Option<Due> {
        let (seat, plan) = live.bot_to_act()?;
        Some(Due {
            game: live.meta.id.clone(),
            seat,
            version: live.version,
            plan,
            state: live.state().clone(),
            seed: live.bot_seed(),
        })
    }
}

/// How a decision ended.
#[derive(Debug)]
pub enum Outcome {
    /// Its action is stored.
    Played,
    /// The game went on without it (another action came first, or the
    /// game is gone): nothing to do.
    MovedOn,
    /// The database failed: try again later, as planned.
    NotStored(GameError),
    /// Even the first legal action was refused (a bug): try again later.
    Failed,
}

/// Makes the decision `due` from `fallback` on and plays it.
pub async fn play(
    hub: &Arc<Hub>,
    due: Due,
    mut fallback: Fallback,
    kept: &mut Option<Kept>,
    lender: &mut impl Lender,
) -> Outcome {
    let legal = due.state.legal_action_list();
    let Some(&first) = legal.first() else {
        tracing::error!(game = %due.game, seat = due.seat, "bot failure: no legal action");
        return Outcome::Failed;
    };
    let forced = legal.len() == 1;
    loop {
        let action = if forced {
            hear_forced(&due, kept).await;
            first
        } else if fallback == Fallback::FirstLegal {
            tracing::warn!(game = %due.game, seat = due.seat, "a bot plays its first legal action: its decision kept failing");
            *kept = None;
            first
        } else {
            match choose(&due, fallback, kept, lender).await {
                Ok(a) => a,
                Err(why) => {
                    tracing::warn!(game = %due.game, seat = due.seat, "bot failure: {why}; asked again greedily");
                    fallback = fallback.next();
                    continue;
                }
            }
        };
        match hub.submit(&due.game, Who::Bot { seat: due.seat }, due.version, Command::Play(action)).await {
            Ok(_) => return Outcome::Played,
            Err(GameError::StaleVersion { .. } | GameError::NotFound(_)) => return Outcome::MovedOn,
            Err(e @ (GameError::Storage { .. } | GameError::Unavailable { .. })) => return Outcome::NotStored(e),
            Err(e) => {
                tracing::error!(game = %due.game, seat = due.seat, action = %action, error = %e, cause = e.cause(), "bot failure: its action was refused");
                *kept = None;
                if forced || fallback == Fallback::FirstLegal {
                    return Outcome::Failed;
                }
                fallback = fallback.next();
            }
        }
    }
}

/// A forced move (say, passing with no follower left) needs no search,
/// but a bot kept for this seat still hears of it, so that its turn's
/// search carries on past it.
async fn hear_forced(due: &Due, kept: &mut Option<Kept>) {
    let Some(k) = kept.take().filter(|k| k.game == due.game && k.seat == due.seat) else { return };
    let state = due.state.clone();
    let mut bot = k.bot;
    if let Ok(bot) = tokio::task::spawn_blocking(move || {
        bot.choose(&state);
        bot
    })
    .await
    {
        *kept = Some(Kept { game: k.game, seat: k.seat, bot });
    }
}

/// Asks the bot (`AsPlanned`) or the greedy bot for an action, on a thread
/// the lender gives.
async fn choose(
    due: &Due,
    fallback: Fallback,
    kept: &mut Option<Kept>,
    lender: &mut impl Lender,
) -> Result<Action, String> {
    let searches = matches!(due.plan, BotPlan::Mcts(_));
    let (guard, greedy) = match fallback {
        Fallback::AsPlanned if searches => match lender.search().await {
            Ok(guard) => (guard, false),
            Err(_) => (None, true),
        },
        Fallback::AsPlanned => (lender.instant().await, false),
        _ => (None, true),
    };
    let mine = kept.take().filter(|k| k.game == due.game && k.seat == due.seat);
    let mut bot: Box<dyn Bot> = match mine {
        _ if greedy => Box::new(carcassonne_bots::GreedyBot::new(due.seed)),
        Some(k) => k.bot,
        None => due.plan.build(due.seed),
    };
    let state = due.state.clone();
    let chosen = tokio::task::spawn_blocking(move || {
        let started = Instant::now();
        let action = bot.choose(&state);
        (bot, action, started.elapsed())
    })
    .await;
    drop(guard);
    let (bot, action, spent) = chosen.map_err(|e| format!("the bot's thread failed: {e}"))?;
    lender.charge(spent, searches && !greedy).await;
    if !greedy {
        *kept = Some(Kept { game: due.game.clone(), seat: due.seat, bot });
    }
    action.ok_or_else(|| "the bot found no action".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Slot;
    use crate::live::{Live, Meta, SeatKind, SeatRow};
    use carcassonne_engine::record::Setup;

    /// Lends nothing and charges nothing.
    struct Free;

    impl Lender for Free {
        async fn search(&mut self) -> Result<Guard, String> {
            Ok(None)
        }
        async fn instant(&mut self) -> Guard {
            None
        }
        async fn charge(&mut self, _: Duration, _: bool) {}
    }

    enum Failing {
        Panics,
        FindsNothing,
        Illegal,
    }

    impl Bot for Failing {
        fn choose(&mut self, _: &State) -> Option<Action> {
            match self {
                Failing::Panics => panic!("a bot bug"),
                Failing::FindsNothing => None,
                // Passing is no placement of the drawn tile.
                Failing::Illegal => Some(Action::Pass),
            }
        }
    }

    /// A hub on a fresh SQLite file, with a game whose seat 0 (a bot) is to
    /// place its first tile; its bots are not started.
    async fn game(dir: &tempfile::TempDir) -> (Arc<Hub>, Arc<Slot>) {
        let store = crate::store::sqlite::Sqlite::open(&dir.path().join("t.db")).unwrap();
        let hub = Hub::open(crate::store::Store::Sqlite(store), crate::bots::BotPool::new(1, &Default::default()))
            .await
            .unwrap();
        let seat = |kind, token: Option<&str>| SeatRow {
            name: format!("{kind:?}"),
            kind,
            level: (kind == SeatKind::Bot).then(|| "random".to_string()),
            token: token.map(str::to_string),
            undo: false,
            colour: None,
            hints: false,
        };
        let seats = vec![seat(SeatKind::Bot, None), seat(SeatKind::Human, Some("t"))];
        let id = "00000000000000aa".to_string();
        let meta = Arc::new(Meta { id: id.clone(), created: 0, seed: 3, seats, rated: false });
        let setup = Setup {
            players: meta.seats.iter().map(|s| s.name.clone()).collect(),
            expansions: vec![],
            edition: None,
            seed: None,
            rules: Default::default(),
        };
        let live = Live::create(meta.clone(), setup).unwrap();
        let row = crate::store::GameRow {
            id: id.clone(),
            created: 0,
            updated: 0,
            seed: 3,
            seats: serde_json::to_string(&meta.seats).unwrap(),
            record: live.record().to_json(),
            version: live.version,
            finished: false,
            summary: crate::game::summary_of(&live),
            public: false,
            owner: None,
            rev: 0,
            pending: None,
            bot_due: true,
            accounts: Vec::new(),
            rated: false,
            clock: None,
            clock_due: None,
        };
        hub.store().insert(row).await.unwrap();
        let slot = hub.cache.insert(&id, || Slot::new(live, None, 0));
        (hub, slot)
    }

    async fn due(slot: &Slot) -> Due {
        Due::of(&*slot.live().await).expect("a bot is to act")
    }

    /// Whatever way the seat's bot fails, the greedy bot decides instead,
    /// and the game goes on.
    #[tokio::test]
    async fn a_failing_bot_is_replaced_greedily_and_the_game_goes_on() {
        for failing in [Failing::Panics, Failing::FindsNothing, Failing::Illegal] {
            let dir = tempfile::tempdir().unwrap();
            let (hub, slot) = game(&dir).await;
            let due = due(&slot).await;
            let (game, before) = (due.game.clone(), due.version);
            let mut kept = Some(Kept { game: game.clone(), seat: 0, bot: Box::new(failing) });
            let outcome = play(&hub, due, Fallback::AsPlanned, &mut kept, &mut Free).await;
            assert!(matches!(outcome, Outcome::Played), "{outcome:?}");
            assert!(kept.is_none(), "the greedy bot is not kept for the seat");
            // Stored; the bots may have played on since.
            let stored = hub.store().load(&game).await.unwrap().unwrap();
            assert!(stored.version > before, "{} after {before}", stored.version);
        }
    }

    /// The last resort plays the first legal action.
    #[tokio::test]
    async fn the_last_resort_is_the_first_legal_action() {
        let dir = tempfile::tempdir().unwrap();
        let (hub, slot) = game(&dir).await;
        let due = due(&slot).await;
        let first = due.state.legal_action_list()[0];
        let game = due.game.clone();
        let outcome = play(&hub, due, Fallback::FirstLegal, &mut None, &mut Free).await;
        assert!(matches!(outcome, Outcome::Played), "{outcome:?}");
        let live = slot.live().await;
        assert_eq!(live.actions.iter().find(|(seat, _)| *seat == Some(0)).map(|(_, a)| *a), Some(first), "{game}");
    }

    /// An action that another came before is nobody's failure.
    #[tokio::test]
    async fn a_decision_overtaken_is_dropped_quietly() {
        let dir = tempfile::tempdir().unwrap();
        let (hub, slot) = game(&dir).await;
        let mut stale = due(&slot).await;
        stale.version -= 1;
        let outcome = play(&hub, stale, Fallback::AsPlanned, &mut None, &mut Free).await;
        assert!(matches!(outcome, Outcome::MovedOn), "{outcome:?}");
    }
}
