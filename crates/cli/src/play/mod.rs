//! `carcassonne play`: a game in the terminal against bots.
//!
//! Each decision of a human seat shows the board (see [`board_art`]), the
//! drawn tile, the step, the scores and the numbered legal options; a number
//! or a short notation (`p 1 0 90`, `m road:E`, `f E-W`, `mv 1 0 S-W`,
//! `pass`) chooses. `undo` takes back decisions of the turn in progress,
//! `save [FILE]` writes the record, `quit` (or the end of input) leaves
//! without saving. Bots move at once; every event is printed as it happens.
//!
//! Chance is reproducible from the seed alone: the tile of the record's
//! entry `k` (counting from 0, discards included) is drawn from the bag's
//! contents at that moment by a generator seeded with
//! `derive_seed(derive_seed(seed, 0), k)`. The bag's contents follow from
//! the record, so a saved game (whose `setup.seed` holds the seed) continued
//! with `--load` draws exactly the tiles the uninterrupted game would have.
//! A turn in progress is not saved (a record holds whole turns); continued,
//! it starts again with the same tile. Bots get `derive_seed(derive_seed(seed,
//! 1 + seat), entries played when the session started)`, so their choices
//! follow from the seed too, though a continued game's bots may choose
//! differently from the uninterrupted one's.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};
use carcassonne_bots::{arena, derive_seed, Bot, BotSpec};
use carcassonne_engine::{
    Action, Actor, Event, Expansion, FeatureKind, Game, JettyPair, Location, Placement, Pos, Rotation, State, Step,
};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::board_art::{self, View};
use crate::options::{rules, variants_text, with_variants};
use crate::render;

mod input;
mod session;
mod show;

use input::*;
use session::*;
use show::*;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The seats in turn order, separated by commas: `human`, or a bot as for
    /// `simulate` (`random`, `greedy`, `mcts:ms=500`, ...), each optionally
    /// named: `me=human,mcts:ms=500`. Default `human,greedy`. With `--load`:
    /// who plays each seat of the record (by default a seat named like a bot
    /// is that bot, any other is a human).
    #[arg(long, value_name = "SEATS")]
    pub players: Option<String>,
    /// Expansions in play, separated by commas: `ferries` (the default),
    /// `inns` (Inns & Cathedrals), `abbey` (Abbey & Mayor), `traders`
    /// (Traders & Builders), `river` (The River), `abbot` (The Abbot),
    /// `labyrinth` (The Labyrinth), or `none` for the base game.
    #[arg(long, value_name = "LIST")]
    pub expansions: Option<String>,
    /// Tile distribution: `c3` (third edition, the default) or `c2` (second).
    #[arg(long)]
    pub edition: Option<String>,
    /// Rule variants, `NAME=VALUE`, separated by commas or the option
    /// repeated: `tiny-city-scoring=2` (a completed two-tile city scores 2,
    /// not 4), `wagon-move=C1`, `abbeys=N`, `labyrinth-variant=basic`, or a
    /// figure and how many each player has (`barn=2`, `pig=0`, `abbot=2`).
    /// Default: the standard rules.
    #[arg(long = "rules", value_name = "NAME=VALUE")]
    pub rules: Vec<String>,
    /// Seed of the tile draws and the bots: the same seed deals the same
    /// tiles. Default: a new seed, printed at the start (with `--load`: the
    /// record's).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Continue a saved game: replay its record, then play on.
    #[arg(long, value_name = "RECORD")]
    pub load: Option<PathBuf>,
    /// Colours: `auto` (when standard output is a terminal and NO_COLOR is
    /// not set), `always` or `never`.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

pub fn run(args: &Args) -> Result<()> {
    let colour = match args.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::env::var("TERM").map_or(true, |t| t != "dumb")
        }
    };
    let width = std::env::var("COLUMNS").ok().and_then(|c| c.trim().parse().ok()).filter(|w| *w >= 40).unwrap_or(80);
    let echo = !io::stdin().is_terminal();
    let (game, seats, seed, loaded) = setup(args)?;
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut session = Session {
        game,
        seats,
        seed,
        colour,
        width,
        echo,
        input: stdin.lock(),
        out: stdout.lock(),
        turn: Vec::new(),
        events: Vec::new(),
        saved: false,
    };
    match session.play(loaded.as_deref()) {
        // Whoever reads the output has gone (a pipe closed): nothing to say.
        Err(e) if e.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe) => Ok(()),
        result => result,
    }
}

// ----- setup -----------------------------------------------------------------

/// Who plays a seat.
#[derive(Debug)]
enum Control {
    Human,
    Bot(BotSpec),
}

/// One entry of `--players`.
#[derive(Debug)]
struct SeatSpec {
    name: Option<String>,
    control: Control,
}

fn parse_seat(text: &str) -> Result<SeatSpec> {
    let text = text.trim();
    // `name=spec`, unless the `=` is a bot option's (`mcts:ms=500`).
    let (name, spec) = match text.split_once('=') {
        Some((n, s)) if !n.contains(':') => (Some(n.trim().to_string()), s.trim()),
        _ => (None, text),
    };
    if name.as_deref() == Some("") {
        bail!("'{text}': a seat's name goes before '=' and may not be empty");
    }
    let control = match spec {
        "human" => Control::Human,
        _ => Control::Bot(spec.parse().map_err(|e| anyhow!("{e}, or human"))?),
    };
    Ok(SeatSpec { name, control })
}

fn parse_seats(text: &str) -> Result<Vec<SeatSpec>> {
    text.split(',').map(parse_seat).collect::<Result<_>>().context("--players")
}

/// Names of the seats: as given, else `you` for a lone human (`player N`
/// for several), the bot's name for a bot (`greedy#2` when named twice).
fn seat_names(specs: &[SeatSpec]) -> Result<Vec<String>> {
    let humans = specs.iter().filter(|s| matches!(s.control, Control::Human)).count();
    let label = |s: &SeatSpec| match &s.control {
        Control::Human => None,
        Control::Bot(b) => Some(b.label().to_string()),
    };
    let names: Vec<String> = specs
        .iter()
        .enumerate()
        .map(|(i, s)| match (&s.name, label(s)) {
            (Some(n), _) => n.clone(),
            (None, None) if humans == 1 => "you".to_string(),
            (None, None) => format!("player {}", i + 1),
            (None, Some(l)) => {
                if specs.iter().filter(|o| o.name.is_none() && label(o).as_deref() == Some(&l)).count() > 1 {
                    format!("{l}#{}", i + 1)
                } else {
                    l
                }
            }
        })
        .collect();
    for (i, n) in names.iter().enumerate() {
        if names[..i].contains(n) {
            bail!("--players: two seats are named '{n}'");
        }
    }
    Ok(names)
}

/// A seat of a loaded record: a name like a bot's (`greedy`, `greedy#2`) is that bot.
fn control_from_name(name: &str) -> Control {
    let base = match name.rsplit_once('#') {
        Some((b, n)) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => b,
        _ => name,
    };
    base.parse().map_or(Control::Human, Control::Bot)
}

/// A seed nobody chose: the process's hash keys, mixed with the time.
fn fresh_seed() -> u64 {
    let mut h = RandomState::new().build_hasher();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    h.write_u128(now);
    // Short enough to type back.
    h.finish() % 1_000_000_000
}

/// The game (new or loaded), its seats, its seed and the file it came from.
fn setup(args: &Args) -> Result<(Game, Vec<Seat>, u64, Option<String>)> {
    let (game, controls, seed, loaded) = if let Some(path) = &args.load {
        if args.expansions.is_some() || args.edition.is_some() || !args.rules.is_empty() {
            bail!("--load continues the record's game, whose setup names the expansions, the edition and the rules");
        }
        let mut record = crate::replay::read_record(path)?;
        let seed = args.seed.or(record.setup.seed).unwrap_or_else(fresh_seed);
        record.setup.seed = Some(seed);
        let game = Game::replay(&record).with_context(|| format!("{}", path.display()))?;
        let names = game.players().to_vec();
        let controls: Vec<Control> = match &args.players {
            Some(text) => {
                let specs = parse_seats(text)?;
                if specs.len() != names.len() {
                    bail!("--players names {} seats, but the record has {} players", specs.len(), names.len());
                }
                specs.into_iter().map(|s| s.control).collect()
            }
            None => names.iter().map(|n| control_from_name(n)).collect(),
        };
        (game, controls, seed, Some(path.display().to_string()))
    } else {
        let specs = parse_seats(args.players.as_deref().unwrap_or("human,greedy"))?;
        let rules = rules(
            specs.len(),
            args.expansions.as_deref().unwrap_or("ferries"),
            args.edition.as_deref().unwrap_or("c3"),
        )?;
        let rules = with_variants(rules, &args.rules)?;
        let names = seat_names(&specs)?;
        let seed = args.seed.unwrap_or_else(fresh_seed);
        let mut setup = arena::setup(&rules, &names);
        setup.seed = Some(seed);
        let game = Game::new(setup)?;
        (game, specs.into_iter().map(|s| s.control).collect(), seed, None)
    };
    let entries = game.record().turns.len() as u64;
    let seats = controls
        .into_iter()
        .zip(game.players())
        .enumerate()
        .map(|(i, (control, name))| match control {
            Control::Human => Seat { name: name.clone(), bot: None, slow: false },
            Control::Bot(spec) => Seat {
                name: name.clone(),
                bot: Some(spec.build(derive_seed(derive_seed(seed, 1 + i as u64), entries))),
                slow: spec.mcts().is_some(),
            },
        })
        .collect();
    Ok((game, seats, seed, loaded))
}

/// The generator of the draw for record entry `k`.
fn draw_rng(seed: u64, k: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(derive_seed(derive_seed(seed, 0), k))
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne_engine::{Rules, TileKind};

    fn started() -> State {
        let mut state = State::new(Rules::base(2).unwrap());
        state.play(Action::Draw(TileKind::parse("U").unwrap())).unwrap();
        state
    }

    #[test]
    fn numbers_and_moves_are_read() {
        let state = started();
        let legal = state.legal_action_list();
        assert_eq!(parse("1", &state, &legal), Input::Act(legal[0]));
        assert_eq!(parse(" 2) ", &state, &legal), Input::Act(legal[1]));
        let east = Placement { pos: Pos::new(1, 0), rot: Rotation::R180 };
        assert_eq!(parse("p 1 0 180", &state, &legal), Input::Act(Action::Place(east)));
        assert_eq!(parse("place [1, 0] 180°", &state, &legal), Input::Act(Action::Place(east)));
        assert_eq!(
            parse("m ROAD:e", &state, &legal),
            Input::Act(Action::Deploy(
                carcassonne_engine::FollowerKind::Normal,
                Location::Road(carcassonne_engine::Side::E)
            ))
        );
        assert_eq!(parse("m Big city:n", &state, &legal), Input::Act("deploy big on city:N".parse().unwrap()));
        assert_eq!(parse("m field:Inner", &state, &legal), Input::Act("deploy on field:inner".parse().unwrap()));
        assert_eq!(parse("f w-e", &state, &legal), Input::Act(Action::PlaceFerry("E-W".parse().unwrap())));
        assert_eq!(
            parse("mv 1 0 S-W", &state, &legal),
            Input::Act(Action::MoveFerry { at: Pos::new(1, 0), ferry: "S-W".parse().unwrap() })
        );
        assert_eq!(parse("save my game.json", &state, &legal), Input::Save(Some("my game.json".into())));
        assert_eq!(parse("SAVE", &state, &legal), Input::Save(None));
        assert_eq!(parse("", &state, &legal), Input::Empty);
    }

    #[test]
    fn a_cell_without_a_turn_takes_the_only_one_or_asks() {
        let state = started();
        let legal = state.legal_action_list();
        // U (road W-E) east of the start tile continues its road turned 0 or 180.
        match parse("p 1 0", &state, &legal) {
            Input::Bad(m) => assert!(m.contains("turned 0 or 180"), "{m}"),
            other => panic!("{other:?}"),
        }
        match parse("p 5 5", &state, &legal) {
            Input::Bad(m) => assert!(m.contains("fits nowhere at [5, 5]"), "{m}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn nonsense_gets_a_hint() {
        let state = started();
        let legal = state.legal_action_list();
        for bad in ["xyzzy", "0", "999", "p 1", "p a b 90", "p 1 0 45", "m", "m road", "f E-E", "mv 1 S-W", "3 4"] {
            assert!(matches!(parse(bad, &state, &legal), Input::Bad(_)), "{bad}");
        }
    }

    #[test]
    fn seats_are_read_and_named() {
        let specs = parse_seats("me=human,mcts:ms=500,greedy,greedy").unwrap();
        assert_eq!(specs[0].name.as_deref(), Some("me"));
        assert!(matches!(specs[1].control, Control::Bot(_)));
        assert_eq!(seat_names(&specs).unwrap(), ["me", "mcts:ms=500", "greedy#3", "greedy#4"]);
        let specs = parse_seats("human,human").unwrap();
        assert_eq!(seat_names(&specs).unwrap(), ["player 1", "player 2"]);
        assert_eq!(seat_names(&parse_seats("human,random").unwrap()).unwrap(), ["you", "random"]);
        assert!(parse_seats("alphago").is_err());
        assert!(parse_seats("=human").is_err());
        assert!(seat_names(&parse_seats("a=human,a=greedy").unwrap()).is_err());
        assert!(matches!(control_from_name("greedy#2"), Control::Bot(_)));
        assert!(matches!(control_from_name("mcts:iters=50"), Control::Bot(_)));
        assert!(matches!(control_from_name("you"), Control::Human));
    }

    #[test]
    fn draws_depend_on_the_seed_and_the_entry_only() {
        use rand::Rng;
        assert_eq!(draw_rng(5, 3).random::<u64>(), draw_rng(5, 3).random::<u64>());
        assert_ne!(draw_rng(5, 3).random::<u64>(), draw_rng(5, 4).random::<u64>());
        assert_ne!(draw_rng(5, 3).random::<u64>(), draw_rng(6, 3).random::<u64>());
    }
}
