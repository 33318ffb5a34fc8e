//! The bots' share of the machine.
//!
//! Search bots (`expert`, `mcts:…`) think on a fixed number of bot
//! threads. A decision waits in a bounded queue for one; when a thread
//! frees, the waiting decision whose game's creator (its address) has used
//! the least bot time lately goes first, then the one whose game has used
//! the least, then the oldest. One address's games think on at most half
//! the threads at once (at least one), so the others always have one.
//! Every decision's time is charged to its game and its address; an
//! address past its bot seconds for the hour, or whose decisions would not
//! fit in the queue, has its search bots play greedily (at once) until it
//! is back under. The instant bots (`random`, `easy`) never wait behind a
//! search: they have threads of their own (as many), taken in turn.
//!
//! A search can not be interrupted, so the longest a decision waits for a
//! free thread is one search budget: budgets are capped (a game asking for
//! more is refused with `bot_budget`).
//!
//! The decisions themselves: [`turn`] (one decision, the same on both
//! stores), scheduled by [`local`] (SQLite) or [`worker`] (PostgreSQL).

pub mod local;
pub mod turn;
pub mod worker;

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use carcassonne_bots::mcts::Budget;
use carcassonne_bots::BotSpec;
use tokio::sync::{oneshot, OwnedSemaphorePermit, Semaphore};

use crate::error::GameError;
use crate::limits::Limits;
use crate::live::BotPlan;

/// Whose games a decision is charged to: the creator's address key, or
/// `None` for games of unknown origin.
pub type Owner = Option<IpAddr>;

/// The bot threads, their queue and who used them.
pub struct BotPool {
    threads: usize,
    per_owner: usize,
    queue: usize,
    queue_per_owner: usize,
    max_ms: u64,
    max_iterations: u32,
    per_hour: f64,
    review_ms: u64,
    hint_ms: u64,
    state: Mutex<PoolState>,
    /// The instant bots' threads: a decision takes a millisecond or so, but
    /// two hundred at once would crowd out the server's own threads.
    instant: Arc<Semaphore>,
}

#[derive(Default)]
struct PoolState {
    running: usize,
    running_by: HashMap<Owner, usize>,
    waiting: Vec<Waiter>,
    usage: HashMap<Owner, Usage>,
    next: u64,
}

struct Waiter {
    owner: Owner,
    game_time: Duration,
    seq: u64,
    grant: oneshot::Sender<BotThread>,
}

/// Bot seconds an address has used, leaking away at its hourly allowance
/// (a leaky bucket as deep as one hour's allowance).
#[derive(Clone, Copy)]
struct Usage {
    seconds: f64,
    at: Instant,
}

impl Usage {
    fn now(&self, per_hour: f64, now: Instant) -> f64 {
        (self.seconds - now.saturating_duration_since(self.at).as_secs_f64() * per_hour / 3600.0).max(0.0)
    }
}

/// How a search bot decides this time.
pub enum Turn {
    /// With a bot thread, held until dropped.
    Search(BotThread),
    /// Greedily, at once.
    Greedy(Why),
}

/// Why a search bot plays greedily.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// Its games' address is past its bot seconds for the hour.
    OverAllowance,
    /// The queue of decisions (in all, or its address's share) is full.
    QueueFull,
}

impl Why {
    pub fn describe(self) -> &'static str {
        match self {
            Why::OverAllowance => "its creator's address is past its bot seconds for the hour",
            Why::QueueFull => "the queue of bot decisions is full",
        }
    }
}

/// A bot thread, given back when dropped.
pub struct BotThread {
    pool: Arc<BotPool>,
    owner: Owner,
    armed: bool,
}

impl Drop for BotThread {
    fn drop(&mut self) {
        if self.armed {
            let mut st = self.pool.lock();
            st.finish(self.owner);
            self.pool.dispatch(&mut st);
        }
    }
}

impl PoolState {
    fn finish(&mut self, owner: Owner) {
        self.running -= 1;
        if let Some(n) = self.running_by.get_mut(&owner) {
            *n -= 1;
            if *n == 0 {
                self.running_by.remove(&owner);
            }
        }
    }

    fn usage(&self, owner: Owner, per_hour: f64, now: Instant) -> f64 {
        self.usage.get(&owner).map_or(0.0, |u| u.now(per_hour, now))
    }

    /// Decisions still waiting (their task not gone), in all and of `owner`.
    fn waiting(&self, owner: Owner) -> (usize, usize) {
        let live = self.waiting.iter().filter(|w| !w.grant.is_closed());
        live.fold((0, 0), |(all, mine), w| (all + 1, mine + usize::from(w.owner == owner)))
    }
}

impl BotPool {
    pub fn new(threads: usize, limits: &Limits) -> Arc<BotPool> {
        let threads = threads.max(1);
        Arc::new(BotPool {
            threads,
            per_owner: (threads / 2).max(1),
            queue: limits.bot_queue,
            queue_per_owner: limits.bot_queue_per_address,
            max_ms: limits.bot_ms,
            max_iterations: limits.bot_iterations,
            per_hour: f64::from(limits.bot_seconds_per_hour.max(1)),
            review_ms: limits.review_ms.max(1),
            hint_ms: limits.hint_ms.max(1),
            state: Mutex::new(PoolState::default()),
            instant: Arc::new(Semaphore::new(threads)),
        })
    }

    /// A thread for an instant bot's decision, held until dropped (`None`
    /// once the pool is closed).
    pub async fn instant_owned(&self) -> Option<OwnedSemaphorePermit> {
        self.instant.clone().acquire_owned().await.ok()
    }

    fn lock(&self) -> MutexGuard<'_, PoolState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A bot level a new game may have: known, and within the budgets.
    /// Returns whether it searches (and so uses the bot threads).
    pub fn check_level(&self, level: &str) -> Result<bool, GameError> {
        let plan = BotPlan::parse(level)?;
        let BotPlan::Mcts(planned) = plan else { return Ok(false) };
        // A spec's budget as asked (the plan holds it capped, for games
        // stored before budgets were checked).
        let spec = level.parse::<BotSpec>().ok();
        let asked = spec.as_ref().and_then(|s| s.mcts()).map_or(planned.budget, |c| c.budget);
        match asked {
            Budget::Time(t) if t > Duration::from_millis(self.max_ms) => {
                return Err(GameError::BotBudget(format!(
                    "bot level '{}': this server lets a bot search at most {} ms, not {} ms",
                    crate::error::clip(level, 40),
                    self.max_ms,
                    t.as_millis()
                )))
            }
            Budget::Iterations(n) if n > self.max_iterations => {
                return Err(GameError::BotBudget(format!(
                    "bot level '{}': this server lets a bot search at most {} iterations, not {n}",
                    crate::error::clip(level, 40),
                    self.max_iterations
                )))
            }
            _ => {}
        }
        let trees = level.split(':').filter_map(|o| o.strip_prefix("trees=")).any(|n| n.trim() != "1");
        if trees {
            return Err(GameError::BotBudget(format!(
                "bot level '{}': a bot searches one tree on this server (trees=1)",
                crate::error::clip(level, 40)
            )));
        }
        Ok(true)
    }

    /// Whether the games of `owner` may have one more game with search
    /// bots: refused while the address is past its allowance, or while
    /// the queue is full.
    pub fn admit(&self, owner: Owner) -> Result<(), GameError> {
        let (used, queued) = {
            let st = self.lock();
            (st.usage(owner, self.per_hour, Instant::now()), st.waiting(owner))
        };
        self.admit_with(used, queued)
    }

    /// As [`admit`](Self::admit), for an address that has used `used` bot
    /// seconds lately, with `(all, mine)` decisions waiting.
    pub fn admit_with(&self, used: f64, (all, mine): (usize, usize)) -> Result<(), GameError> {
        if used >= self.per_hour {
            let wait = (used - self.per_hour) * 3600.0 / self.per_hour;
            return Err(GameError::RateLimited { retry_after: Duration::from_secs_f64(wait.max(1.0)) });
        }
        if all >= self.queue {
            return Err(GameError::Busy(format!(
                "the bots have {all} decisions waiting: no game with search bots now"
            )));
        }
        if mine >= self.queue_per_owner {
            return Err(GameError::Busy(format!(
                "this address's games have {mine} bot decisions waiting: no game with search bots now"
            )));
        }
        Ok(())
    }

    /// Waits for a bot thread for a search of `owner`'s game that has used
    /// `game_time` so far, unless the search is to be greedy this time.
    pub async fn search(self: &Arc<Self>, owner: Owner, game_time: Duration) -> Turn {
        let granted = {
            let mut st = self.lock();
            if st.usage(owner, self.per_hour, Instant::now()) >= self.per_hour {
                return Turn::Greedy(Why::OverAllowance);
            }
            let (all, mine) = st.waiting(owner);
            let (tx, rx) = oneshot::channel();
            let seq = st.next;
            st.next += 1;
            st.waiting.push(Waiter { owner, game_time, seq, grant: tx });
            self.dispatch(&mut st);
            let still = st.waiting.iter().position(|w| w.seq == seq);
            if let Some(i) = still {
                if all >= self.queue || mine >= self.queue_per_owner {
                    st.waiting.swap_remove(i);
                    return Turn::Greedy(Why::QueueFull);
                }
            }
            rx
        };
        match granted.await {
            Ok(thread) => Turn::Search(thread),
            // The pool is gone with the server.
            Err(_) => Turn::Greedy(Why::QueueFull),
        }
    }

    /// Milliseconds of search for each decision of a review.
    pub fn review_ms(&self) -> u64 {
        self.review_ms
    }

    /// Milliseconds of search for a hint.
    pub fn hint_ms(&self) -> u64 {
        self.hint_ms
    }

    /// An address's bot seconds for the hour.
    pub fn seconds_per_hour(&self) -> f64 {
        self.per_hour
    }

    /// Charges a decision's time to its address.
    pub fn charge(&self, owner: Owner, spent: Duration) {
        let now = Instant::now();
        let mut st = self.lock();
        let used = st.usage(owner, self.per_hour, now);
        st.usage.insert(owner, Usage { seconds: used + spent.as_secs_f64(), at: now });
        // Forget addresses whose usage has leaked away.
        if st.usage.len() > 4096 {
            let per_hour = self.per_hour;
            st.usage.retain(|_, u| u.now(per_hour, now) > 0.0);
        }
    }

    /// Hands free threads to the waiting decisions that come first.
    fn dispatch(self: &Arc<Self>, st: &mut PoolState) {
        let now = Instant::now();
        st.waiting.retain(|w| !w.grant.is_closed());
        while st.running < self.threads {
            let next = st
                .waiting
                .iter()
                .enumerate()
                .filter(|(_, w)| st.running_by.get(&w.owner).copied().unwrap_or(0) < self.per_owner)
                .min_by(|(_, a), (_, b)| {
                    let (ua, ub) = (st.usage(a.owner, self.per_hour, now), st.usage(b.owner, self.per_hour, now));
                    ua.total_cmp(&ub).then(a.game_time.cmp(&b.game_time)).then(a.seq.cmp(&b.seq))
                })
                .map(|(i, _)| i);
            let Some(i) = next else { break };
            let w = st.waiting.swap_remove(i);
            st.running += 1;
            *st.running_by.entry(w.owner).or_default() += 1;
            let thread = BotThread { pool: self.clone(), owner: w.owner, armed: true };
            if let Err(mut unwanted) = w.grant.send(thread) {
                // Its task went away meanwhile.
                unwanted.armed = false;
                st.finish(w.owner);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(threads: usize, limits: Limits) -> Arc<BotPool> {
        BotPool::new(threads, &limits)
    }

    fn ip(n: u8) -> Owner {
        Some(IpAddr::from([198, 51, 100, n]))
    }

    fn held(turn: Turn) -> BotThread {
        match turn {
            Turn::Search(t) => t,
            Turn::Greedy(why) => panic!("greedy: {why:?}"),
        }
    }

    #[tokio::test]
    async fn one_address_uses_half_the_threads_and_the_least_used_goes_first() {
        let p = pool(2, Limits::default());
        let flood = held(p.search(ip(1), Duration::ZERO).await);
        // The second thread is not the flooder's, however long it waits...
        let waiting = tokio::spawn({
            let p = p.clone();
            async move { held(p.search(ip(1), Duration::ZERO).await) }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!waiting.is_finished());
        // ...but another address's.
        let other = held(p.search(ip(2), Duration::ZERO).await);
        p.charge(ip(1), Duration::from_secs(10));
        drop(other);
        // A newcomer goes before the flooder's waiting decision: it has
        // used less.
        let newcomer = tokio::spawn({
            let p = p.clone();
            async move { held(p.search(ip(3), Duration::ZERO).await) }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        let newcomer = newcomer.await.unwrap();
        assert!(!waiting.is_finished(), "the flooder still has its thread busy");
        drop(flood);
        let second = waiting.await.unwrap();
        drop((newcomer, second));
        assert_eq!(p.lock().running, 0);
    }

    #[tokio::test]
    async fn past_the_allowance_or_the_queue_a_search_is_greedy() {
        let p = pool(1, Limits { bot_seconds_per_hour: 10, bot_queue_per_address: 1, ..Limits::default() });
        p.charge(ip(1), Duration::from_secs(11));
        assert!(matches!(p.search(ip(1), Duration::ZERO).await, Turn::Greedy(Why::OverAllowance)));
        assert!(matches!(p.admit(ip(1)), Err(GameError::RateLimited { .. })));
        assert!(p.admit(ip(2)).is_ok());
        let busy = held(p.search(ip(2), Duration::ZERO).await);
        let queued = tokio::spawn({
            let p = p.clone();
            async move { held(p.search(ip(3), Duration::ZERO).await) }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(matches!(p.search(ip(3), Duration::ZERO).await, Turn::Greedy(Why::QueueFull)));
        assert!(matches!(p.admit(ip(3)), Err(GameError::Busy(_))));
        drop(busy);
        drop(queued.await.unwrap());
    }

    #[tokio::test]
    async fn a_waiting_decision_whose_task_is_gone_gives_its_turn_away() {
        let p = pool(1, Limits::default());
        let busy = held(p.search(ip(1), Duration::ZERO).await);
        let gone = tokio::spawn({
            let p = p.clone();
            async move { p.search(ip(2), Duration::ZERO).await }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        gone.abort();
        let _ = gone.await;
        drop(busy);
        assert_eq!(p.lock().running, 0);
        let _again = held(p.search(ip(3), Duration::ZERO).await);
    }

    #[test]
    fn budgets_over_the_maximum_are_refused() {
        let p = pool(1, Limits { bot_ms: 1000, bot_iterations: 500, ..Limits::default() });
        for level in ["random", "beginner", "easy", "medium", "hard"] {
            assert!(!p.check_level(level).unwrap(), "{level} does not search");
        }
        assert!(pool(1, Limits::default()).check_level("expert").unwrap());
        assert!(matches!(p.check_level("expert"), Err(GameError::BotBudget(_))), "2.5 s over 1 s");
        assert!(p.check_level("mcts:ms=1000").unwrap());
        for level in ["mcts:ms=99999999", "mcts:ms=1001:per=turn", "mcts:iters=501", "mcts:ms=10:trees=8"] {
            assert!(matches!(p.check_level(level), Err(GameError::BotBudget(_))), "{level}");
        }
        let strict = pool(1, Limits { bot_ms: 500, ..Limits::default() });
        assert!(matches!(strict.check_level("mcts:ms=1000:per=turn"), Err(GameError::BotBudget(_))));
        assert!(matches!(p.check_level("alphago"), Err(GameError::InvalidSetup(_))));
    }
}
