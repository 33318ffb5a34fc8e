//! `carcassonne engine` through its line protocol: whole games against a
//! small engine written here, bad lines answered with `error` and the
//! engine going on, `stop`, and `simulate` playing an engine.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use carcassonne_engine::{Action, Actor, Game};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Our engine, as a process, with its lines read on a thread.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(bot: &str) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_carcassonne"))
            .args(["engine", "--bot", bot])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines() {
                if tx.send(line.unwrap()).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin, lines }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    fn read(&self) -> String {
        self.lines.recv_timeout(Duration::from_secs(60)).expect("the engine answers within a minute")
    }

    /// Reads lines up to `bestmove`, checking each `info` line on the way.
    fn best_move(&self, players: usize) -> (String, usize) {
        let mut infos = 0;
        loop {
            let line = self.read();
            if let Some(m) = line.strip_prefix("bestmove ") {
                return (m.to_string(), infos);
            }
            assert!(line.starts_with("info "), "unexpected line during a search: {line}");
            check_info(&line, players);
            infos += 1;
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

/// An info line has a win chance and a margin per player, the chances
/// adding up to one, and a principal line of actions.
fn check_info(line: &str, players: usize) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = |key: &str| words.iter().position(|w| *w == key).unwrap_or_else(|| panic!("no {key} in {line}"));
    let numbers =
        |from: usize| -> Vec<f64> { words[from + 1..from + 1 + players].iter().map(|w| w.parse().unwrap()).collect() };
    let wins = numbers(at("win"));
    let margins = numbers(at("margin"));
    assert!((wins.iter().sum::<f64>() - 1.0).abs() < 0.01, "{line}");
    assert!(wins.iter().all(|w| (0.0..=1.0).contains(w)), "{line}");
    assert!(margins.iter().all(|m| m.is_finite()), "{line}");
    for key in ["iters", "nodes", "time"] {
        words[at(key) + 1].parse::<u64>().unwrap();
    }
    let pv = line.split(" pv ").nth(1).unwrap_or_else(|| panic!("no pv in {line}"));
    for a in pv.split("; ").filter(|a| !a.is_empty()) {
        a.parse::<Action>().unwrap_or_else(|e| panic!("pv action '{a}' in {line}: {e}"));
    }
}

/// The small engine of this test: it speaks the same protocol (position,
/// play, go, quit), and on `go` takes the action that scores most at once,
/// the first such in its list of legal actions.
struct SmallEngine {
    game: Option<Game>,
}

impl SmallEngine {
    fn answer(&mut self, line: &str) -> Vec<String> {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        match word {
            "position" => match Game::from_json(rest) {
                Ok(g) => {
                    self.game = Some(g);
                    vec![]
                }
                Err(e) => vec![format!("error {e}")],
            },
            "play" => {
                let game = self.game.as_mut().expect("a position first");
                match rest.parse::<Action>().map(|a| game.play(a)) {
                    Ok(Ok(())) => vec![],
                    _ => vec![format!("error {rest}")],
                }
            }
            "go" => {
                let state = self.game.as_ref().expect("a position first").state();
                let Some(Actor::Player(p)) = state.actor() else {
                    return vec!["error nothing to decide".into()];
                };
                let best = state
                    .legal_action_list()
                    .into_iter()
                    .max_by_key(|a| {
                        let mut next = state.clone();
                        next.play_unchecked(*a);
                        // The first of the best: max_by_key keeps the last, so count down.
                        (next.scores()[p], std::cmp::Reverse(a.to_string()))
                    })
                    .expect("a decision has a legal action");
                vec![format!("bestmove {best}")]
            }
            _ => vec![format!("error unknown {word}")],
        }
    }
}

fn record_line(expansions: &[&str]) -> String {
    let e: Vec<String> = expansions.iter().map(|x| format!("\"{x}\"")).collect();
    format!(
        "{{\"format\":\"carcassonne-record/1\",\"setup\":{{\"players\":[\"ours\",\"small\"],\"expansions\":[{}]}},\"turns\":[]}}",
        e.join(",")
    )
}

/// Lines a controller might get wrong, each to be answered by one `error` line.
const BAD_LINES: [&str; 12] = [
    "play nonsense",
    "play place at [99, 99] turned 0",
    "play deploy on road:Q",
    "go ms -3",
    "go iters",
    "go sideways",
    "position {",
    "position {\"format\":\"carcassonne-record/9\"}",
    "bot alphago",
    "bot mcts:iters=0",
    "fly me to the moon",
    "legal legal legal \u{1F600}",
];

#[test]
fn whole_games_through_the_protocol_against_a_small_engine() {
    for (g, expansions) in [vec![], vec!["ferries"], vec!["inns", "abbey", "traders", "ferries"]].iter().enumerate() {
        let mut ours = Engine::start("mcts:iters=300:trees=1:cut=0:per=turn");
        let mut small = SmallEngine { game: None };
        let record = record_line(expansions);
        let mut game = Game::from_json(&record).unwrap();
        ours.send(&format!("position {record}"));
        assert!(small.answer(&format!("position {record}")).is_empty());
        ours.send("isready");
        assert_eq!(ours.read(), "readyok");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(g as u64);
        let (mut decisions, mut infos) = (0, 0);
        while let Some(actor) = game.state().actor() {
            let action = match actor {
                Actor::Chance => Action::Draw(game.state().bag().sample(&mut rng).unwrap()),
                Actor::Player(0) => {
                    // Now and then a bad line first: an error, and the game goes on.
                    if rng.random_range(0..8) == 0 {
                        let bad = BAD_LINES[rng.random_range(0..BAD_LINES.len())];
                        ours.send(bad);
                        let answer = ours.read();
                        assert!(answer.starts_with("error "), "'{bad}' got '{answer}'");
                    }
                    ours.send("go");
                    let (m, n) = ours.best_move(2);
                    infos += n;
                    decisions += 1;
                    m.parse::<Action>().unwrap_or_else(|e| panic!("bestmove '{m}': {e}"))
                }
                Actor::Player(_) => {
                    let answer = small.answer("go");
                    answer[0].strip_prefix("bestmove ").unwrap().parse().unwrap()
                }
            };
            game.play(action).unwrap_or_else(|e| panic!("'{action}' is illegal: {e}"));
            ours.send(&format!("play {action}"));
            assert!(small.answer(&format!("play {action}")).is_empty());
        }
        // The engine followed the whole game: nothing is left to decide.
        ours.send("go");
        assert_eq!(ours.read(), "error go: the game is over");
        ours.send("show");
        let show = ours.read();
        let scores: Vec<String> = game.state().scores().iter().map(|s| s.to_string()).collect();
        assert!(
            show.starts_with("state actor over") && show.contains(&format!("scores {} ", scores.join(" "))),
            "{show}"
        );
        assert!(decisions > 30 && infos >= decisions, "{decisions} decisions, {infos} info lines");
    }
}

#[test]
fn every_message_gets_its_answer_and_bad_input_never_ends_the_engine() {
    let mut e = Engine::start("greedy");
    e.send("protocol");
    let id: Vec<String> = (0..4).map(|_| e.read()).collect();
    assert!(id[0].starts_with("id name carcassonne "), "{id:?}");
    assert_eq!(id[1], "id protocol 1");
    assert_eq!(id[2], "id bot greedy");
    assert_eq!(id[3], "protocolok");
    for bad in ["go", "play draw U", "legal", "show"] {
        e.send(bad);
        assert!(e.read().starts_with("error "), "before a position: {bad}");
    }
    for bad in BAD_LINES {
        e.send(bad);
        assert!(e.read().starts_with("error "), "{bad}");
    }
    e.send(&format!("position {}", record_line(&["ferries"])));
    e.send("go");
    assert_eq!(e.read(), "error go: a tile is to be drawn: send it (play draw TILE)");
    e.send("play draw U");
    e.send("legal");
    let legal = e.read();
    assert!(legal.starts_with("legal place at "), "{legal}");
    // Random bytes, invalid UTF-8 among them.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    for _ in 0..300 {
        let len = rng.random_range(0..40);
        let bytes: Vec<u8> = (0..len).map(|_| rng.random_range(1..=255u8)).filter(|b| *b != b'\n').collect();
        e.send_bytes(&bytes);
    }
    e.send("isready");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let line = e.read();
        if line == "readyok" {
            break;
        }
        assert!(line.starts_with("error "), "{line}");
        assert!(Instant::now() < deadline);
    }
    // Still the same game, still playing.
    e.send("go turn");
    let (m, infos) = e.best_move(2);
    assert!(infos >= 1);
    let first = m.split("; ").next().unwrap();
    assert!(legal.contains(first), "{first} in {legal}");
    assert!(e.child.try_wait().unwrap().is_none(), "the engine is still running");
}

#[test]
fn stop_ends_a_long_search_with_its_best_move_so_far() {
    let mut e = Engine::start("mcts:ms=600000:trees=1:cut=0");
    e.send(&format!("position {}", record_line(&[])));
    e.send("play draw D");
    e.send("go");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    // Answered during the search, between its info lines.
    loop {
        let line = e.read();
        if line == "readyok" {
            break;
        }
        assert!(line.starts_with("info "), "{line}");
    }
    e.send("play pass");
    loop {
        let line = e.read();
        if line.starts_with("error busy") {
            break;
        }
        assert!(line.starts_with("info "), "{line}");
    }
    let asked = Instant::now();
    e.send("stop");
    let (m, _) = e.best_move(2);
    assert!(m.starts_with("place at "), "{m}");
    // Far less than the ten minutes asked for.
    assert!(asked.elapsed() < Duration::from_secs(30));
}

#[test]
fn simulate_plays_an_external_engine_through_the_protocol() {
    let bin = env!("CARGO_BIN_EXE_carcassonne");
    let players = format!("engine:cmd='{bin} engine --bot greedy':iters=20,random");
    let out = Command::new(bin)
        .args(["simulate", "--players", &players, "--games", "2", "--expansions", "ferries", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["games"], 2);
    let engine = &summary["bots"][0];
    assert_eq!(engine["games"], 2);
    // Greedy beats random: the engine's moves were played.
    assert_eq!(engine["wins"], 2, "{summary}");
}
