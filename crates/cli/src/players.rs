//! The players of `simulate`: the bots of the bots crate, and external
//! engines spoken to through the engine protocol (docs/engine-protocol.md).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use anyhow::{bail, Result};
use carcassonne_bots::{arena, Bot, BotSpec};
use carcassonne_engine::record::Record;
use carcassonne_engine::{Action, State};

/// One player of a match.
#[derive(Clone, Debug)]
pub enum Player {
    Bot(BotSpec),
    /// `engine:cmd='COMMAND'[:ms=N|:iters=N]`: a program speaking the engine protocol.
    Engine {
        cmd: String,
        go: String,
        label: String,
    },
}

impl Player {
    pub fn label(&self) -> &str {
        match self {
            Player::Bot(s) => s.label(),
            Player::Engine { label, .. } => label,
        }
    }

    /// Whether it reports search iterations.
    pub fn searches(&self) -> bool {
        matches!(self, Player::Bot(s) if s.mcts().is_some())
    }

    pub fn build(&self, seed: u64) -> Box<dyn Bot> {
        match self {
            Player::Bot(s) => s.build(seed),
            Player::Engine { cmd, go, .. } => Box::new(External::new(cmd, go)),
        }
    }
}

/// Reads `a,b,c`, where an engine's command may hold commas and colons
/// inside single quotes: `engine:cmd='./my-engine --level 3':ms=200,greedy`.
pub fn parse_players(text: &str) -> Result<Vec<Player>> {
    let mut items = Vec::new();
    let (mut cur, mut quoted) = (String::new(), false);
    for c in text.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                cur.push(c);
            }
            ',' if !quoted => items.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    if quoted {
        bail!("an engine's command opens a quote it does not close: {text}");
    }
    items.push(cur);
    items.iter().map(|i| parse_player(i.trim())).collect()
}

fn parse_player(text: &str) -> Result<Player> {
    let Some(rest) = text.strip_prefix("engine:") else {
        return Ok(Player::Bot(text.parse::<BotSpec>()?));
    };
    let Some(rest) = rest.strip_prefix("cmd=") else {
        bail!("an engine player is engine:cmd='COMMAND' with optional :ms=N or :iters=N, not '{text}'");
    };
    let (cmd, options) = match rest.strip_prefix('\'') {
        Some(r) => match r.split_once('\'') {
            Some((cmd, options)) => (cmd.to_string(), options),
            None => bail!("engine command without its closing quote: '{text}'"),
        },
        None => match rest.split_once(':') {
            Some((cmd, options)) => (cmd.to_string(), &rest[cmd.len()..][..options.len() + 1]),
            None => (rest.to_string(), ""),
        },
    };
    if cmd.trim().is_empty() {
        bail!("an engine player needs a command: '{text}'");
    }
    let mut go = "ms 1000".to_string();
    for o in options.split(':').filter(|o| !o.is_empty()) {
        match o.split_once('=') {
            Some(("ms", n)) | Some(("iters", n)) if n.parse::<u64>().is_ok_and(|n| n > 0) => {
                go = format!("{} {n}", &o[..o.find('=').unwrap_or(0)]);
            }
            _ => bail!("engine option '{o}' is not ms=N or iters=N"),
        }
    }
    Ok(Player::Engine { cmd, go, label: text.to_string() })
}

/// An external engine, started for each game.
struct External {
    cmd: String,
    go: String,
    process: Option<Process>,
    /// Set once the engine failed: the bot then gives no action.
    failed: bool,
}

struct Process {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl External {
    fn new(cmd: &str, go: &str) -> External {
        External { cmd: cmd.to_string(), go: go.to_string(), process: None, failed: false }
    }

    /// Starts the program and sends it the new game of `state`'s rules.
    fn start(&mut self, state: &State) -> Result<()> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(&self.cmd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()?;
        let stdin = child.stdin.take().expect("stdin was piped");
        let stdout = BufReader::new(child.stdout.take().expect("stdout was piped"));
        let names: Vec<String> = (1..=state.rules().players()).map(|i| format!("player {i}")).collect();
        let record = Record::from_actions(arena::setup(state.rules(), &names), [])?;
        let mut p = Process { child, stdin, stdout };
        writeln!(p.stdin, "position {}", record.to_json())?;
        self.process = Some(p);
        Ok(())
    }

    fn send(&mut self, line: &str) -> Result<()> {
        match &mut self.process {
            Some(p) => {
                writeln!(p.stdin, "{line}")?;
                p.stdin.flush()?;
                Ok(())
            }
            None => bail!("the engine is not running"),
        }
    }

    /// Asks for a move and reads lines until `bestmove`.
    fn best_move(&mut self) -> Result<Action> {
        let go = format!("go {}", self.go);
        self.send(&go)?;
        let p = self.process.as_mut().expect("sent to it above");
        let mut line = String::new();
        loop {
            line.clear();
            if p.stdout.read_line(&mut line)? == 0 {
                bail!("the engine closed its output");
            }
            let l = line.trim();
            if let Some(a) = l.strip_prefix("bestmove ") {
                // The first decision, if the engine answered the whole turn.
                let first = a.split(';').next().unwrap_or_default().trim();
                return Ok(first.parse::<Action>()?);
            }
            if let Some(e) = l.strip_prefix("error") {
                bail!("the engine said: error{e}");
            }
        }
    }
}

impl Bot for External {
    fn choose(&mut self, state: &State) -> Option<Action> {
        if self.failed || self.process.is_none() {
            return None;
        }
        match self.best_move() {
            Ok(a) => Some(a),
            Err(e) => {
                eprintln!("engine '{}': {e:#}", self.cmd);
                self.failed = true;
                let _ = state;
                None
            }
        }
    }

    fn observe(&mut self, after: &State, action: Action) {
        if self.failed {
            return;
        }
        let result = if self.process.is_none() {
            // The first action is the first draw: the game so far is empty before it.
            self.start(after).and_then(|_| self.send(&format!("play {action}")))
        } else {
            self.send(&format!("play {action}"))
        };
        if let Err(e) = result {
            eprintln!("engine '{}': {e:#}", self.cmd);
            self.failed = true;
        }
    }
}

impl Drop for External {
    fn drop(&mut self) {
        if let Some(mut p) = self.process.take() {
            let _ = writeln!(p.stdin, "quit");
            let _ = p.stdin.flush();
            drop(p.stdin);
            let _ = p.child.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engines_and_bots_are_read_with_quoted_commands() {
        let players = parse_players("engine:cmd='./x --a,b:c':ms=200, greedy,engine:cmd=prog:iters=50").unwrap();
        assert_eq!(players.len(), 3);
        match &players[0] {
            Player::Engine { cmd, go, .. } => assert_eq!((cmd.as_str(), go.as_str()), ("./x --a,b:c", "ms 200")),
            p => panic!("{p:?}"),
        }
        assert_eq!(players[1].label(), "greedy");
        match &players[2] {
            Player::Engine { cmd, go, .. } => assert_eq!((cmd.as_str(), go.as_str()), ("prog", "iters 50")),
            p => panic!("{p:?}"),
        }
        assert!(parse_players("engine:cmd='open").is_err());
        assert!(parse_players("engine:prog").is_err());
        assert!(parse_players("engine:cmd=prog:depth=3").is_err());
        assert!(parse_players("engine:cmd=''").is_err());
    }
}
