//! Bots named on the command line: `random`, `greedy`, `mcts:iters=2000`,
//! `mcts:ms=1000:trees=1`, `mcts:iters=1000:draws=chance`, `mcts:ms=1000:per=turn`. Options follow the name, each after a `:`, so
//! that a comma can separate the players of a match.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::mcts::{Budget, Draws, MctsConfig, Per};
use crate::{Bot, GreedyBot, MctsBot, RandomBot};

/// Which bot, with its settings; builds a fresh bot for each game.
#[derive(Clone, PartialEq, Debug)]
pub struct BotSpec {
    kind: Kind,
    /// The name as written, for tables and records.
    label: String,
}

#[derive(Clone, PartialEq, Debug)]
enum Kind {
    Random,
    /// With the hand-set estimate (`greedy:eval=hand`), the learned one with
    /// the weights of the game's rules (`eval=learned`, the default), or
    /// with those learned from the mix of rule sets (`eval=mixed`).
    Greedy {
        eval: Eval,
        /// Chooses among the best this many percent of each decision's
        /// actions, by a softmax at this temperature (points).
        top: Option<(u8, Option<f32>)>,
        /// Values this many best actions after the next player's reply.
        reply: Option<u8>,
    },
    Mcts(MctsConfig),
}

/// Greedy's valuation of a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Eval {
    Hand,
    Learned,
    Mixed,
}

/// A bot name or option that cannot be read; the message says what would do.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SpecError(String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpecError {}

const BOTS: &str = "random, greedy, mcts, or a level: beginner, easy, medium, hard, expert";

/// Named levels, strongest last, as the bot specs they stand for.
pub const LEVELS: [(&str, &str); 5] = [
    ("beginner", "greedy:top=50:temp=2"),
    ("easy", "greedy:top=50:temp=1.4"),
    ("medium", "greedy:top=50:temp=0.8"),
    ("hard", "greedy"),
    ("expert", "mcts:ms=2500:per=turn:trees=1:cut=0:c=0.35"),
];
const MCTS_OPTIONS: &str =
    "iters=N, ms=N, per=decision|turn, trees=N, c=X, fpu=X, margin=X, scale=X, draws=chance|determinized, cut=N, weights=rules|mixed";

impl BotSpec {
    /// A new bot of this kind whose choices follow from `seed`.
    pub fn build(&self, seed: u64) -> Box<dyn Bot> {
        match &self.kind {
            Kind::Random => Box::new(RandomBot::new(seed)),
            Kind::Greedy { eval, top, reply } => {
                let mut bot = match eval {
                    Eval::Hand => GreedyBot::hand(seed),
                    Eval::Learned => GreedyBot::new(seed),
                    Eval::Mixed => GreedyBot::with_model(seed, crate::evaluation::Model::learned()),
                };
                if let Some(k) = reply {
                    bot = bot.replying(*k);
                }
                Box::new(match top {
                    Some((p, t)) => bot.erring(*p, *t),
                    None => bot,
                })
            }
            Kind::Mcts(config) => Box::new(MctsBot::new(*config, seed)),
        }
    }

    /// The settings of a search bot, if this is one.
    pub fn mcts(&self) -> Option<&MctsConfig> {
        match &self.kind {
            Kind::Mcts(c) => Some(c),
            _ => None,
        }
    }

    /// The name as written.
    pub fn label(&self) -> &str {
        &self.label
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label)
    }
}

impl FromStr for BotSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<BotSpec, SpecError> {
        let text = text.trim();
        let mut parts = text.split(':');
        let name = parts.next().unwrap_or_default();
        let options: Vec<&str> = parts.collect();
        let kind = match name {
            "" => return Err(SpecError(format!("a player needs a bot name (known: {BOTS})"))),
            "random" => {
                if let Some(o) = options.first() {
                    return Err(SpecError(format!("bot '{name}' takes no options, but got '{o}'")));
                }
                Kind::Random
            }
            "greedy" => {
                let (mut eval, mut top, mut temp, mut reply) = (Eval::Learned, None, None, None);
                for o in &options {
                    match *o {
                        "eval=hand" => eval = Eval::Hand,
                        "eval=learned" => eval = Eval::Learned,
                        "eval=mixed" => eval = Eval::Mixed,
                        _ if o.starts_with("top=") => {
                            let p = o["top=".len()..].parse::<u8>().ok().filter(|p| (1..=100).contains(p));
                            top = Some(p.ok_or_else(|| {
                                SpecError(format!("greedy option {o}: expected a percentage from 1 to 100"))
                            })?);
                        }
                        _ if o.starts_with("reply=") => {
                            let k = o["reply=".len()..].parse::<u8>().ok().filter(|k| (1..=64).contains(k));
                            reply = Some(k.ok_or_else(|| {
                                SpecError(format!("greedy option {o}: expected a number of actions from 1 to 64"))
                            })?);
                        }
                        _ if o.starts_with("temp=") => {
                            let t = o["temp=".len()..].parse::<f32>().ok().filter(|t| (0.01..=1000.0).contains(t));
                            temp = Some(t.ok_or_else(|| {
                                SpecError(format!("greedy option {o}: expected points from 0.01 to 1000"))
                            })?);
                        }
                        _ => {
                            return Err(SpecError(format!(
                                "greedy option '{o}' is not known (options: eval=learned|mixed|hand, top=P, temp=T, reply=K)"
                            )))
                        }
                    }
                }
                let top = match (top, temp) {
                    (None, None) => None,
                    (p, t) => Some((p.unwrap_or(100), t)),
                };
                if top.is_some() && reply.is_some() {
                    return Err(SpecError("greedy takes top=/temp= or reply=, not both".into()));
                }
                Kind::Greedy { eval, top, reply }
            }
            _ if LEVELS.iter().any(|(n, _)| *n == name) => {
                if let Some(o) = options.first() {
                    return Err(SpecError(format!("level '{name}' takes no options, but got '{o}'")));
                }
                let (_, spec) = LEVELS.iter().find(|(n, _)| *n == name).expect("found above");
                let mut inner: BotSpec = spec.parse()?;
                inner.label = text.to_string();
                return Ok(inner);
            }
            "mcts" => Kind::Mcts(mcts_config(&options)?),
            _ => return Err(SpecError(format!("unknown bot '{name}' (known: {BOTS})"))),
        };
        Ok(BotSpec { kind, label: text.to_string() })
    }
}

fn mcts_config(options: &[&str]) -> Result<MctsConfig, SpecError> {
    let mut config = MctsConfig::default();
    let mut budget_set = false;
    for option in options {
        let Some((key, value)) = option.split_once('=') else {
            return Err(SpecError(format!("mcts option '{option}' is not key=value (options: {MCTS_OPTIONS})")));
        };
        let bad = |what: &str| SpecError(format!("mcts option {key}={value}: expected {what}"));
        let whole = || value.parse::<u64>().ok().filter(|n| *n > 0).ok_or_else(|| bad("a whole number above 0"));
        let real = |lo: f32, hi: f32| {
            value
                .parse::<f32>()
                .ok()
                .filter(|x| (lo..=hi).contains(x))
                .ok_or_else(|| bad(&format!("a number from {lo} to {hi}")))
        };
        match key {
            "iters" | "ms" => {
                if budget_set {
                    return Err(SpecError("mcts takes one budget: iters=N or ms=N, not both".into()));
                }
                budget_set = true;
                let n = whole()?;
                config.budget = if key == "iters" {
                    Budget::Iterations(u32::try_from(n).map_err(|_| bad("at most 4294967295"))?)
                } else {
                    Budget::Time(Duration::from_millis(n))
                };
            }
            "trees" => config.trees = whole()?.min(1024) as usize,
            "c" => config.exploration = real(0.0, 100.0)?,
            "fpu" => config.fpu = Some(real(0.0, 1.0)?),
            "margin" => config.margin_weight = real(0.0, 1.0)?,
            "scale" => config.margin_scale = real(1.0, 200.0)?,
            // Playouts cut after N turns and scored by the evaluation.
            "cut" => config.cut = Some(value.parse::<u16>().map_err(|_| bad("a whole number of turns, 0 to 65535"))?),
            "draws" => config.draws = value.parse().map_err(|_| bad("chance or determinized"))?,
            "per" => config.per = value.parse().map_err(|_| bad("decision or turn"))?,
            // The evaluation's weights, for cut playouts.
            "weights" => config.weights = value.parse().map_err(|_| bad("rules or mixed"))?,
            _ => return Err(SpecError(format!("unknown mcts option '{key}' (options: {MCTS_OPTIONS})"))),
        }
    }
    if config.per == Per::Turn && config.draws == Draws::Determinized {
        // A determinized tree's nodes serve every draw, so a turn's later
        // decisions cannot be read off the first one's subtree.
        return Err(SpecError("mcts per=turn needs draws=chance: determinized trees search every decision".into()));
    }
    if config.fpu.is_some() && config.draws == Draws::Determinized {
        return Err(SpecError("mcts fpu=X needs draws=chance".into()));
    }
    if config.cut.is_some() && config.draws == Draws::Determinized {
        return Err(SpecError("mcts cut=N needs draws=chance: determinized trees play their playouts out".into()));
    }
    Ok(config)
}

/// Reads a comma-separated list of players: `mcts:ms=1000,greedy`.
pub fn parse_players(text: &str) -> Result<Vec<BotSpec>, SpecError> {
    text.split(',').map(str::parse).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_options_are_read() {
        let specs = parse_players("mcts:ms=1000,greedy, random ,mcts:iters=20:trees=2:c=1.5:margin=0").unwrap();
        assert_eq!(specs.len(), 4);
        assert_eq!(specs[0].mcts().unwrap().budget, Budget::Time(Duration::from_millis(1000)));
        assert_eq!(specs[1].kind, Kind::Greedy { eval: Eval::Learned, top: None, reply: None });
        assert_eq!(specs[2].label(), "random");
        let c = specs[3].mcts().unwrap();
        assert_eq!((c.budget, c.trees, c.exploration, c.margin_weight), (Budget::Iterations(20), 2, 1.5, 0.0));
        assert_eq!(c.draws, Draws::default());
        assert_eq!(c.per, Per::Decision);
    }

    #[test]
    fn levels_and_evaluations_are_read() {
        assert_eq!(
            "greedy:eval=hand".parse::<BotSpec>().unwrap().kind,
            Kind::Greedy { eval: Eval::Hand, top: None, reply: None }
        );
        assert_eq!(
            "greedy:top=50".parse::<BotSpec>().unwrap().kind,
            Kind::Greedy { eval: Eval::Learned, top: Some((50, None)), reply: None }
        );
        let spec = "greedy:top=50:temp=2.5".parse::<BotSpec>().unwrap();
        assert_eq!(spec.kind, Kind::Greedy { eval: Eval::Learned, top: Some((50, Some(2.5))), reply: None });
        assert_eq!(
            "greedy:reply=6".parse::<BotSpec>().unwrap().kind,
            Kind::Greedy { eval: Eval::Learned, top: None, reply: Some(6) }
        );
        assert!("greedy:reply=6:top=50".parse::<BotSpec>().unwrap_err().to_string().contains("not both"));
        assert!("greedy:reply=0".parse::<BotSpec>().is_err());
        assert!("greedy:temp=0".parse::<BotSpec>().unwrap_err().to_string().contains("points from 0.01"));
        assert!("greedy:top=0".parse::<BotSpec>().unwrap_err().to_string().contains("from 1 to 100"));
        assert!("greedy:top=101".parse::<BotSpec>().is_err());
        assert_eq!(
            "greedy:eval=learned".parse::<BotSpec>().unwrap().kind,
            Kind::Greedy { eval: Eval::Learned, top: None, reply: None }
        );
        assert_eq!(
            "greedy:eval=mixed".parse::<BotSpec>().unwrap().kind,
            Kind::Greedy { eval: Eval::Mixed, top: None, reply: None }
        );
        use crate::evaluation::Weights;
        assert_eq!("mcts".parse::<BotSpec>().unwrap().mcts().unwrap().weights, Weights::ByRules);
        assert_eq!("mcts:weights=mixed".parse::<BotSpec>().unwrap().mcts().unwrap().weights, Weights::Mixed);
        assert!("mcts:weights=base".parse::<BotSpec>().unwrap_err().to_string().contains("rules or mixed"));
        assert_eq!("mcts:cut=3".parse::<BotSpec>().unwrap().mcts().unwrap().cut, Some(3));
        assert_eq!("mcts".parse::<BotSpec>().unwrap().mcts().unwrap().cut, None);
        assert_eq!("mcts:fpu=0.1".parse::<BotSpec>().unwrap().mcts().unwrap().fpu, Some(0.1));
        assert_eq!("mcts".parse::<BotSpec>().unwrap().mcts().unwrap().fpu, None);
        assert!("mcts:fpu=0.1:draws=determinized".parse::<BotSpec>().is_err());
        for (name, spec) in LEVELS {
            let level: BotSpec = name.parse().unwrap();
            assert_eq!(level.label(), name);
            assert_eq!(level.kind, spec.parse::<BotSpec>().unwrap().kind);
        }
        assert!("expert:ms=1".parse::<BotSpec>().is_err());
    }

    #[test]
    fn what_a_budget_covers_is_read() {
        let per = |s: &str| s.parse::<BotSpec>().map(|b| b.mcts().unwrap().per).map_err(|e| e.to_string());
        assert_eq!(per("mcts:ms=1000:per=turn"), Ok(Per::Turn));
        assert_eq!(per("mcts:per=decision"), Ok(Per::Decision));
        assert_eq!(per("mcts:per=game"), Err("mcts option per=game: expected decision or turn".into()));
        assert!(per("mcts:per=turn:draws=determinized").unwrap_err().contains("needs draws=chance"));
    }

    #[test]
    fn the_way_of_handling_draws_is_read() {
        let draws = |s: &str| s.parse::<BotSpec>().unwrap().mcts().unwrap().draws;
        assert_eq!(draws("mcts:draws=chance"), Draws::Chance);
        assert_eq!(draws("mcts:iters=10:draws=determinized"), Draws::Determinized);
        assert_eq!(draws("mcts:draws=det:trees=1"), Draws::Determinized);
        let err = "mcts:draws=peek".parse::<BotSpec>().unwrap_err().to_string();
        assert_eq!(err, "mcts option draws=peek: expected chance or determinized");
    }

    #[test]
    fn bad_names_and_options_say_what_would_do() {
        let err = |s: &str| s.parse::<BotSpec>().unwrap_err().to_string();
        assert_eq!(
            err("alphago"),
            "unknown bot 'alphago' (known: random, greedy, mcts, or a level: beginner, easy, medium, hard, expert)"
        );
        assert!(err("random:x=1").contains("takes no options"));
        assert!(err("greedy:x=1").contains("not known"));
        assert!(err("mcts:cut=-1").contains("whole number of turns"));
        assert!(err("mcts:iters").contains("not key=value"));
        assert!(err("mcts:iters=0").contains("above 0"));
        assert!(err("mcts:iters=lots").contains("whole number"));
        assert!(err("mcts:iters=1:ms=1").contains("not both"));
        assert!(err("mcts:depth=3").contains("unknown mcts option 'depth'"));
        assert!(err("mcts:margin=2").contains("from 0 to 1"));
        assert!(err("").contains("needs a bot name"));
    }
}
