//! `carcassonne engine`: the bots behind a line protocol on standard input
//! and output, for other programs to play (docs/engine-protocol.md).
//!
//! Lines are read on their own thread, so that `stop`, `isready` and
//! `quit` are answered while a search runs on another. Every line gets
//! either its answer or an `error` line; nothing a controller sends ends
//! the program but `quit` or the end of its input.

use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::Result;
use carcassonne_bots::evaluation::{margin, Evaluator};
use carcassonne_bots::mcts::{Analysis, Budget};
use carcassonne_bots::{Bot, BotSpec, MctsBot};
use carcassonne_engine::{Action, Actor, Game, State};

/// The protocol's version, in `id protocol`.
pub const PROTOCOL: u32 = 1;

/// The bot an engine plays unless told otherwise: the strongest level.
pub const DEFAULT_BOT: &str = "expert";

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The bot that answers `go` (any bot of `simulate --players`, or a
    /// level); the `bot` command changes it.
    #[arg(long, default_value = DEFAULT_BOT)]
    pub bot: String,
}

pub fn run(args: &Args) -> Result<()> {
    let stdin = std::io::stdin();
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in stdin.lock().lines() {
            // A line that is not UTF-8 is passed on as such, to be refused.
            let line = line.unwrap_or_else(|_| "\u{0}not utf-8".to_string());
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut engine = Engine::new(&args.bot)?;
    for line in rx {
        let result = catch_unwind(AssertUnwindSafe(|| engine.command(&line)));
        match result {
            Ok(Flow::Go) => {}
            Ok(Flow::Quit) => break,
            Err(_) => say(&format!("error internal: the command '{}' failed; the engine goes on", line.trim())),
        }
    }
    engine.finish_search(true);
    Ok(())
}

/// Writes one line of the protocol (standard output is line-buffered).
fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

enum Flow {
    Go,
    Quit,
}

/// A search running on its own thread, and how to stop it.
struct Search {
    stop: Arc<AtomicBool>,
    /// Set just before `bestmove` is written: a controller that has read
    /// it may send its next command at once, which then waits for the
    /// thread to hand the bot back.
    answered: Arc<AtomicBool>,
    handle: JoinHandle<Player>,
}

/// The engine's bot, with what it keeps between searches.
enum Player {
    Mcts(Box<MctsBot>),
    Other(Box<dyn Bot>),
}

struct Engine {
    spec: BotSpec,
    /// `None` while a search holds it.
    player: Option<Player>,
    game: Option<Game>,
    search: Option<Search>,
    /// Seeds the bots in turn, so that a session is reproducible.
    seed: u64,
}

impl Engine {
    fn new(spec: &str) -> Result<Engine> {
        let spec: BotSpec = spec.parse()?;
        let mut e = Engine { spec: spec.clone(), player: None, game: None, search: None, seed: 0 };
        e.player = Some(e.build(&spec));
        Ok(e)
    }

    fn build(&mut self, spec: &BotSpec) -> Player {
        self.seed += 1;
        match spec.mcts() {
            Some(config) => Player::Mcts(Box::new(MctsBot::new(*config, self.seed))),
            None => Player::Other(spec.build(self.seed)),
        }
    }

    /// Joins a search that has ended (or, with `stop`, ends it first).
    fn finish_search(&mut self, stop: bool) {
        let done = match &self.search {
            Some(s) => {
                if stop {
                    s.stop.store(true, Ordering::Relaxed);
                }
                stop || s.answered.load(Ordering::SeqCst) || s.handle.is_finished()
            }
            None => false,
        };
        if done {
            let s = self.search.take().expect("checked above");
            match s.handle.join() {
                Ok(player) => self.player = Some(player),
                // The search thread failed: a fresh bot takes its place.
                Err(_) => self.player = Some(self.build(&self.spec.clone())),
            }
        }
    }

    fn command(&mut self, line: &str) -> Flow {
        self.finish_search(false);
        let line = line.trim();
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let searching = self.search.is_some();
        match word {
            "" => {}
            "quit" => return Flow::Quit,
            "isready" => say("readyok"),
            "stop" => {
                if let Some(s) = &self.search {
                    s.stop.store(true, Ordering::Relaxed);
                }
            }
            "protocol" | "legal" | "show" if !rest.is_empty() => {
                say(&format!("error {word} takes nothing after it, but got '{rest}'"))
            }
            _ if searching => say(&format!("error busy: a search is running; '{word}' waits for its bestmove (or send stop)")),
            "protocol" => {
                say(&format!("id name carcassonne {}", env!("CARGO_PKG_VERSION")));
                say(&format!("id protocol {PROTOCOL}"));
                say(&format!("id bot {}", self.spec));
                say("protocolok");
            }
            "bot" => match rest.parse::<BotSpec>() {
                Ok(spec) => {
                    self.player = Some(self.build(&spec));
                    self.spec = spec;
                }
                Err(e) => say(&format!("error bot: {e}")),
            },
            "position" => match Game::from_json(rest) {
                Ok(game) => self.game = Some(game),
                Err(e) => say(&format!("error position: {e}")),
            },
            "play" => match (&mut self.game, rest.parse::<Action>()) {
                (None, _) => say("error play: no game yet (send position first)"),
                (_, Err(e)) => say(&format!("error play: {e}")),
                (Some(game), Ok(action)) => {
                    if let Err(e) = game.play(action) {
                        say(&format!("error play: '{action}' is illegal here: {e}"));
                    }
                }
            },
            "legal" => match &self.game {
                None => say("error legal: no game yet (send position first)"),
                Some(game) => {
                    let list: Vec<String> = game.state().legal_action_list().iter().map(|a| a.to_string()).collect();
                    say(&format!("legal {}", list.join("; ")));
                }
            },
            "show" => match &self.game {
                None => say("error show: no game yet (send position first)"),
                Some(game) => say(&format!("state {}", describe(game.state()))),
            },
            "go" => self.go(rest),
            _ => say(&format!(
                "error unknown command '{word}' (known: protocol, isready, bot, position, play, legal, show, go, stop, quit)"
            )),
        }
        Flow::Go
    }

    /// `go [ms N] [iters N] [turn]`: searches on its own thread.
    fn go(&mut self, rest: &str) {
        let Some(game) = &self.game else {
            return say("error go: no game yet (send position first)");
        };
        let state = game.state().clone();
        match state.actor() {
            None => return say("error go: the game is over"),
            Some(Actor::Chance) => return say("error go: a tile is to be drawn: send it (play draw TILE)"),
            Some(Actor::Player(_)) => {}
        }
        let mut budget = None;
        let mut turn = false;
        let mut words = rest.split_whitespace();
        while let Some(w) = words.next() {
            let number = |v: Option<&str>| v.and_then(|v| v.parse::<u64>().ok()).filter(|n| *n > 0);
            match w {
                "ms" => match number(words.next()) {
                    Some(n) => budget = Some(Budget::Time(Duration::from_millis(n.min(86_400_000)))),
                    None => return say("error go: ms takes a whole number above 0"),
                },
                "iters" => match number(words.next()) {
                    Some(n) => budget = Some(Budget::Iterations(n.min(u32::MAX as u64) as u32)),
                    None => return say("error go: iters takes a whole number above 0"),
                },
                "turn" => turn = true,
                _ => return say(&format!("error go: unknown option '{w}' (ms N, iters N, turn)")),
            }
        }
        let Some(mut player) = self.player.take() else {
            return say("error go: no bot (send bot SPEC)");
        };
        if let (Player::Mcts(bot), Some(b)) = (&mut player, budget) {
            if bot.config().budget != b {
                let config = carcassonne_bots::MctsConfig { budget: b, ..*bot.config() };
                self.seed += 1;
                **bot = MctsBot::new(config, self.seed);
            }
        }
        let stop = Arc::new(AtomicBool::new(false));
        let answered = Arc::new(AtomicBool::new(false));
        let (flag, done) = (stop.clone(), answered.clone());
        let handle = std::thread::spawn(move || {
            let result = catch_unwind(AssertUnwindSafe(|| think(&mut player, &state, turn, flag)));
            let line = match result {
                Ok(actions) => format!("bestmove {}", actions.join("; ")),
                Err(_) => {
                    // Never leave the controller waiting: any legal action.
                    say("error internal: the search failed; answering its first legal action");
                    let first = state.legal_action_list().first().map(|a| a.to_string()).unwrap_or_default();
                    format!("bestmove {first}")
                }
            };
            done.store(true, Ordering::SeqCst);
            say(&line);
            player
        });
        self.search = Some(Search { stop, answered, handle });
    }
}

/// Chooses the decision of `state` (and with `turn` the rest of the
/// player's turn), streaming `info` lines; returns the actions in notation.
fn think(player: &mut Player, state: &State, turn: bool, stop: Arc<AtomicBool>) -> Vec<String> {
    let Some(Actor::Player(mover)) = state.actor() else {
        return Vec::new();
    };
    let mut evaluator = Evaluator::default();
    let mut actions = Vec::new();
    let mut at = state.clone();
    loop {
        let action = match player {
            Player::Mcts(bot) => {
                bot.set_stop(Some(stop.clone()));
                let mut report = |a: &Analysis| say(&info(&at, a, &mut evaluator));
                let action = bot.search_reporting(&at, Duration::from_millis(250), &mut report);
                bot.set_stop(None);
                action
            }
            Player::Other(bot) => {
                let action = bot.choose(&at);
                if let Some(a) = action {
                    let analysis = Analysis { mover, pv: vec![a], ..Analysis::default() };
                    say(&info(&at, &analysis, &mut evaluator));
                }
                action
            }
        };
        let Some(action) = action else { break };
        actions.push(action.to_string());
        at.play_unchecked(action);
        if !turn || at.actor() != Some(Actor::Player(mover)) {
            break;
        }
    }
    actions
}

/// An `info` line: iterations, nodes, time, each player's chance to win
/// and expected margin, and the principal line.
fn info(state: &State, a: &Analysis, evaluator: &mut Evaluator) -> String {
    let players = state.rules().players();
    let best = a.moves.first().filter(|m| m.samples > 0);
    let (wins, margins) = match best {
        Some(m) => (m.wins, m.margins),
        None => {
            let v = evaluator.values(state);
            let phase = evaluator.phase(state);
            let w = evaluator.win_probabilities(&v, players, phase);
            let mut m = [0.0; carcassonne_engine::setup::MAX_PLAYERS];
            for (p, x) in m.iter_mut().enumerate().take(players) {
                *x = margin(&v, players, p);
            }
            (w, m)
        }
    };
    let wins: Vec<String> = wins[..players].iter().map(|w| format!("{w:.3}")).collect();
    let margins: Vec<String> = margins[..players].iter().map(|m| format!("{m:+.1}")).collect();
    let pv: Vec<String> = a.pv.iter().map(|x| x.to_string()).collect();
    format!(
        "info iters {} nodes {} time {} win {} margin {} pv {}",
        a.iterations,
        a.nodes,
        a.elapsed.as_millis(),
        wins.join(" "),
        margins.join(" "),
        pv.join("; ")
    )
}

/// `state` line: who acts, the step, the scores, the tiles left.
fn describe(state: &State) -> String {
    let actor = match state.actor() {
        None => "over".to_string(),
        Some(Actor::Chance) => "chance".to_string(),
        Some(Actor::Player(p)) => format!("player {p}"),
    };
    let scores: Vec<String> = state.scores().iter().map(|s| s.to_string()).collect();
    format!(
        "actor {actor} step {:?} turn {} scores {} tiles-left {}",
        state.step(),
        state.turns(),
        scores.join(" "),
        state.bag().total()
    )
}
