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

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The seats in turn order, separated by commas: `human`, or a bot as for
    /// `simulate` (`random`, `greedy`, `mcts:ms=500`, ...), each optionally
    /// named: `me=human,mcts:ms=500`. Default `human,greedy`. With `--load`:
    /// who plays each seat of the record (by default a seat named like a bot
    /// is that bot, any other is a human).
    #[arg(long, value_name = "SEATS")]
    pub players: Option<String>,
    /// Expansions in play, separated by commas: `ferries` (the default), or
    /// `none` for the base game.
    #[arg(long, value_name = "LIST")]
    pub expansions: Option<String>,
    /// Tile distribution: `c3` (third edition, the default) or `c2` (second).
    #[arg(long)]
    pub edition: Option<String>,
    /// Rule variants, `NAME=VALUE`, separated by commas or the option
    /// repeated: `tiny-city-scoring=2` (a completed two-tile city scores 2,
    /// not 4). Default: the standard rules.
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

// ----- the session -------------------------------------------------------------

struct Seat {
    name: String,
    /// `None` for a human.
    bot: Option<Box<dyn Bot>>,
    /// A searching bot: say that it thinks.
    slow: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Flow {
    Continue,
    Leave,
}

struct Session<R, W> {
    game: Game,
    seats: Vec<Seat>,
    seed: u64,
    colour: bool,
    width: usize,
    /// Repeat each line read after the prompt (input that is not a terminal).
    echo: bool,
    input: R,
    out: W,
    /// The actions of the record entry in progress, its draw first (for undo).
    turn: Vec<Action>,
    /// Events of the last action, not yet printed.
    events: Vec<Event>,
    /// Whether `save` wrote the record in this session.
    saved: bool,
}

/// What a line typed at a decision asks for.
#[derive(Clone, PartialEq, Eq, Debug)]
enum Input {
    Empty,
    Act(Action),
    Undo,
    Save(Option<String>),
    Help,
    Board,
    Quit,
    /// Not understood: a one-line hint.
    Bad(String),
}

impl<R: BufRead, W: Write> Session<R, W> {
    fn play(&mut self, loaded: Option<&str>) -> Result<()> {
        self.intro(loaded)?;
        while let Some(actor) = self.game.state().actor() {
            match actor {
                Actor::Chance => self.draw()?,
                Actor::Player(p) if self.seats[p].bot.is_some() => self.bot_decides(p)?,
                Actor::Player(p) => {
                    if self.human_decides(p)? == Flow::Leave {
                        return Ok(());
                    }
                }
            }
        }
        self.game_over()
    }

    // ----- output -----

    fn say(&mut self, text: impl AsRef<str>) -> io::Result<()> {
        writeln!(self.out, "{}", text.as_ref())
    }

    fn hint(&mut self, text: &str) -> io::Result<()> {
        let mark = board_art::bold("?", 93, self.colour);
        self.say(format!("{mark} {text}"))
    }

    fn name(&self, p: usize) -> String {
        board_art::player(&self.seats[p].name, p, self.colour)
    }

    fn names(&self) -> Vec<String> {
        (0..self.seats.len()).map(|p| self.name(p)).collect()
    }

    /// Whether seat `p` is addressed as "you" (the verb agrees).
    fn is_you(&self, p: usize) -> bool {
        self.seats[p].name == "you"
    }

    /// `greedy's`, or `your`.
    fn owner(&self, p: usize) -> String {
        if self.is_you(p) {
            board_art::player("your", p, self.colour)
        } else {
            format!("{}'s", self.name(p))
        }
    }

    /// `text` with `you's` (as render::event writes it) made `your`.
    fn grammar(&self, text: String) -> String {
        match (0..self.seats.len()).find(|p| self.is_you(*p)) {
            Some(p) => text.replace(&format!("{}'s", self.name(p)), &self.owner(p)),
            None => text,
        }
    }

    fn intro(&mut self, loaded: Option<&str>) -> Result<()> {
        let rules = *self.game.state().rules();
        let expansions: Vec<&str> = rules.expansions().map(|e| e.name()).collect();
        let mut game =
            if expansions.is_empty() { "base game".to_string() } else { format!("with {}", expansions.join(", ")) };
        let variants = variants_text(&rules);
        if !variants.is_empty() {
            game = format!("{game} · {variants}");
        }
        let title = board_art::bold("Carcassonne", 0, self.colour);
        self.say(format!("{title} · {game} · edition {} · seed {}", rules.edition(), self.seed))?;
        let seats: Vec<String> = (0..self.seats.len())
            .map(|p| {
                let who = if self.seats[p].bot.is_some() { "bot" } else { "human" };
                format!("{} {} ({who})", p + 1, self.name(p))
            })
            .collect();
        self.say(format!("seats: {}", seats.join(" · ")))?;
        if let Some(file) = loaded {
            let n = self.game.record().turns.len();
            self.say(format!("continuing {file}: {n} turns played"))?;
            let status = self.status();
            self.say(status)?;
        } else {
            self.say(format!("(carcassonne play --seed {} deals the same tiles again)", self.seed))?;
        }
        if self.seats.iter().any(|s| s.bot.is_none()) {
            self.say("Choose an option by its number, or type a move; help lists the commands.")?;
        }
        Ok(())
    }

    /// Scores, followers in supply and tiles left.
    fn status(&self) -> String {
        let state = self.game.state();
        let seats: Vec<String> = (0..self.seats.len())
            .map(|p| {
                let n = state.supply()[p];
                format!("{} {} ({n} follower{})", self.name(p), state.scores()[p], if n == 1 { "" } else { "s" })
            })
            .collect();
        format!("scores: {} · {} tiles in the bag", seats.join(" · "), state.bag().total())
    }

    /// Plays an action (checked), keeping the turn's actions for undo.
    fn apply(&mut self, action: Action) -> Result<(), carcassonne_engine::PlayError> {
        self.game.play_with(action, &mut self.events)?;
        if matches!(self.game.state().step(), Step::Draw | Step::GameOver) {
            self.turn.clear();
        } else {
            self.turn.push(action);
        }
        Ok(())
    }

    fn print_events(&mut self) -> io::Result<()> {
        let names = self.names();
        for e in std::mem::take(&mut self.events) {
            let line = match &e {
                Event::TileDrawn { tile } => {
                    let state = self.game.state();
                    let p = state.current_player();
                    let turn = self.game.record().turns.len();
                    let left = state.bag().total();
                    let draws = if self.is_you(p) { "draw" } else { "draws" };
                    let text = format!("── turn {turn} · {} {draws} {tile} · {left} left in the bag ──", names[p]);
                    format!("\n{}", board_art::bold(&text, 0, self.colour))
                }
                Event::GameEnded { .. } => continue,
                Event::Scored(_) => {
                    format!("  {} {}", board_art::bold("★", 93, self.colour), render::event(&e, &names))
                }
                _ => format!("  {}", render::event(&e, &names)),
            };
            let line = self.grammar(line);
            self.say(line)?;
        }
        Ok(())
    }

    // ----- turns -----

    fn draw(&mut self) -> Result<()> {
        let k = self.game.record().turns.len() as u64;
        let kind =
            self.game.state().bag().sample(&mut draw_rng(self.seed, k)).ok_or_else(|| anyhow!("the bag is empty"))?;
        self.turn.clear();
        self.apply(Action::Draw(kind))?;
        self.print_events()?;
        Ok(())
    }

    fn bot_decides(&mut self, p: usize) -> Result<()> {
        if self.seats[p].slow && self.game.state().step() == Step::Place {
            let line = format!("  {} thinks…", self.name(p));
            self.say(line)?;
            self.out.flush()?;
        }
        let action = match self.seats[p].bot.as_mut() {
            Some(bot) => bot.choose(self.game.state()),
            None => None,
        };
        let name = self.seats[p].name.clone();
        let action = action.ok_or_else(|| anyhow!("bot {name} gave no action"))?;
        self.apply(action).map_err(|e| anyhow!("bot {name} chose '{action}', which is illegal: {e}"))?;
        self.print_events()?;
        Ok(())
    }

    fn human_decides(&mut self, p: usize) -> Result<Flow> {
        let mut legal = self.game.state().legal_action_list();
        // Placements in reading order: by row, then column, then turn.
        legal.sort_by_key(|a| match a {
            Action::Place(pl) => (pl.pos.y, pl.pos.x, pl.rot.quarters()),
            _ => (i32::MAX, i32::MAX, 0),
        });
        if legal == [Action::Discard] {
            let tile = self.game.state().drawn().map_or("?", |k| k.id());
            let draws = if self.is_you(p) { "draw" } else { "draws" };
            let line =
                format!("  {tile} fits nowhere on the board: it is discarded, and {} {draws} again", self.name(p));
            self.say(line)?;
            self.apply(Action::Discard)?;
            self.print_events()?;
            return Ok(Flow::Continue);
        }
        self.screen(p, &legal)?;
        loop {
            write!(self.out, "{} ", board_art::bold(">", 0, self.colour))?;
            self.out.flush()?;
            let Some(line) = self.read_line()? else {
                let line = format!("\nend of input: leaving the game{}", self.unsaved());
                self.say(line)?;
                return Ok(Flow::Leave);
            };
            match parse(&line, self.game.state(), &legal) {
                Input::Empty => {}
                Input::Act(action) => match self.apply(action) {
                    Ok(()) => {
                        self.print_events()?;
                        return Ok(Flow::Continue);
                    }
                    Err(e) => self.hint(&format!("{e}"))?,
                },
                Input::Undo => {
                    if self.undo()? {
                        return Ok(Flow::Continue);
                    }
                    self.hint("nothing to undo: undo takes back your decisions of this turn, which has none yet")?;
                }
                Input::Save(path) => self.save(path)?,
                Input::Help => self.say(HELP)?,
                Input::Board => self.screen(p, &legal)?,
                Input::Quit => {
                    let line = format!("left the game{}", self.unsaved());
                    self.say(line)?;
                    return Ok(Flow::Leave);
                }
                Input::Bad(text) => self.hint(&text)?,
            }
        }
    }

    fn unsaved(&self) -> &'static str {
        if self.saved {
            " (what was saved is all that is kept)"
        } else {
            " (nothing saved)"
        }
    }

    /// A line of input, trimmed; `None` at the end of input.
    fn read_line(&mut self) -> Result<Option<String>> {
        let mut buf = Vec::new();
        if self.input.read_until(b'\n', &mut buf).context("cannot read standard input")? == 0 {
            return Ok(None);
        }
        let line = String::from_utf8_lossy(&buf).trim().to_string();
        if self.echo {
            self.say(&line)?;
        }
        Ok(Some(line))
    }

    /// Takes back the last decision of the turn in progress: the game is
    /// rebuilt from the record less that turn, then the turn's other
    /// actions are played again.
    fn undo(&mut self) -> Result<bool> {
        if self.turn.len() < 2 {
            return Ok(false);
        }
        let undone = self.turn.pop().ok_or_else(|| anyhow!("no action to undo"))?;
        let mut record = self.game.record().clone();
        record.turns.pop();
        let mut game = Game::replay(&record).context("undo: replaying the record")?;
        for a in &self.turn {
            game.play(*a).with_context(|| format!("undo: playing {a} again"))?;
        }
        self.game = game;
        self.say(format!("  undone: {}", spoken(&undone)))?;
        Ok(true)
    }

    fn save(&mut self, path: Option<String>) -> Result<()> {
        let mut record = self.game.record().clone();
        let in_progress = !matches!(self.game.state().step(), Step::Draw | Step::GameOver);
        if in_progress {
            record.turns.pop();
        }
        record.setup.seed = Some(self.seed);
        let n = record.turns.len();
        let path = path.unwrap_or_else(|| format!("carcassonne-{}-turn{n}.json", self.seed));
        match std::fs::write(&path, record.to_json_pretty() + "\n") {
            Ok(()) => {
                self.saved = true;
                let note = if in_progress { ", this turn from its start (same tile)" } else { "" };
                self.say(format!("  saved {n} turns to {path}; carcassonne play --load {path} continues{note}"))?;
            }
            Err(e) => self.hint(&format!("cannot write {path}: {e}"))?,
        }
        Ok(())
    }

    // ----- the screen of a decision -----

    fn screen(&mut self, p: usize, legal: &[Action]) -> Result<()> {
        let state = self.game.state();
        let step = state.step();
        let mut hints: Vec<Pos> = Vec::new();
        for a in legal {
            if let Action::Place(pl) = a {
                if !hints.contains(&pl.pos) {
                    hints.push(pl.pos);
                }
            }
        }
        let mark = match state.placed_tile() {
            Some(t) => Some(t.pos),
            None => state.board().tiles().last().filter(|_| state.board().tiles().len() > 1).map(|t| t.pos),
        };
        let view = View { hints: &hints, mark, width: self.width, colour: self.colour };
        let mut text = String::new();
        text.push_str(&board_art::board(state, &view));
        text.push_str(&board_art::legend(self.colour, state.rules().has(Expansion::Ferries)));
        text.push('\n');
        text.push_str(&self.status());
        text.push('\n');
        let who = self.name(p);
        let (title, notation) = match step {
            Step::Place => {
                let kind = state.drawn().ok_or_else(|| anyhow!("no tile is drawn"))?;
                let turned: Vec<(String, board_art::Cell)> =
                    Rotation::ALL.iter().map(|r| (format!("{r}°"), board_art::tile(kind, *r))).collect();
                text.push_str(&format!("{} tile {kind}, as it lies turned clockwise:\n", self.owner(p)));
                text.push_str(&board_art::cells_in_a_row(&turned, 2, 3, self.colour));
                text.push_str("  cells where it fits show their coordinates; p X Y ROT places it there\n");
                (format!("place it ({} ways)", legal.len()), "p X Y ROT")
            }
            Step::Deploy => {
                let t = state.placed_tile().ok_or_else(|| anyhow!("no tile is placed"))?;
                let mut c = board_art::tile(t.kind, t.rot);
                if let Some(f) = state.ferry_at(t.pos) {
                    board_art::put_ferry(&mut c, f.jetties);
                }
                for (i, a) in legal.iter().enumerate() {
                    if let Action::Deploy(loc) = a {
                        board_art::put_label(&mut c, *loc, option_char(i));
                    }
                }
                text.push_str(&format!("the tile just placed at {}, its free features numbered:\n", t.pos));
                text.push_str(&board_art::cells_in_a_row(&[(String::new(), c)], 2, 3, self.colour));
                let supply = state.supply()[p];
                (format!("deploy a follower ({supply} in supply), or pass"), "m FEATURE (m road:E), pass")
            }
            Step::PlaceFerry => {
                let at = state.placed_tile().map_or(Pos::ORIGIN, |t| t.pos);
                (format!("put a ferry on the lake at {at}, joining two of its jetties"), "f A-B")
            }
            Step::MoveFerries => (
                "move a ferry that the new tile's roads reach (each once a turn), or pass".to_string(),
                "mv X Y A-B, pass",
            ),
            Step::Draw | Step::GameOver => (step.to_string(), ""),
        };
        text.push_str(&format!("{who}: {}:\n", board_art::bold(&title, 0, self.colour)));
        text.push_str(&options(legal, step, self.width));
        let undo = if self.turn.len() > 1 { ", undo" } else { "" };
        text.push_str(&format!("(a number, or {notation}{undo}, save [FILE], board, help, quit)"));
        self.say(text)?;
        Ok(())
    }

    // ----- the end -----

    fn game_over(&mut self) -> Result<()> {
        let state = self.game.state();
        let mark = state.board().tiles().last().map(|t| t.pos);
        let view = View { hints: &[], mark, width: self.width, colour: self.colour };
        let mut text = format!("\n{}\n", board_art::bold("══ game over ══", 0, self.colour));
        text.push_str(&board_art::board(state, &view));
        text.push_str(&final_table(state, &self.seats.iter().map(|s| s.name.clone()).collect::<Vec<_>>(), self.colour));
        self.say(text)?;
        if self.seats.iter().all(|s| s.bot.is_some()) {
            return Ok(());
        }
        loop {
            write!(self.out, "save [FILE] keeps the record; Enter leaves {} ", board_art::bold(">", 0, self.colour))?;
            self.out.flush()?;
            let Some(line) = self.read_line()? else {
                self.say("")?;
                return Ok(());
            };
            let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((&line, ""));
            if word.eq_ignore_ascii_case("save") {
                let rest = rest.trim();
                self.save((!rest.is_empty()).then(|| rest.to_string()))?;
            } else {
                return Ok(());
            }
        }
    }
}

/// The end-of-game breakdown: points during the game, then the end's by kind.
fn final_table(state: &State, names: &[String], colour: bool) -> String {
    const KINDS: [FeatureKind; 4] = [FeatureKind::Road, FeatureKind::City, FeatureKind::Monastery, FeatureKind::Field];
    let mut by_kind = vec![[0u32; 4]; names.len()];
    let totals = state.final_scores_with(|s| {
        if let Some(k) = KINDS.iter().position(|k| *k == s.kind) {
            for (p, pts) in s.points.iter().enumerate() {
                if let Some(row) = by_kind.get_mut(p) {
                    row[k] += pts;
                }
            }
        }
    });
    let w = names.iter().map(|n| n.chars().count()).max().unwrap_or(4).max(12);
    let mut out = format!(
        "{:w$}  {:>7}  {:>6}  {:>7}  {:>12}  {:>6}  {:>6}\n",
        "final scores", "in game", "+roads", "+cities", "+monasteries", "+farms", "=total"
    );
    for (p, name) in names.iter().enumerate() {
        let b = by_kind[p];
        let padded = format!("{name:w$}");
        out.push_str(&format!(
            "{}  {:>7}  {:>6}  {:>7}  {:>12}  {:>6}  {:>6}\n",
            board_art::player(&padded, p, colour),
            state.scores()[p],
            b[0],
            b[1],
            b[2],
            b[3],
            board_art::bold(&format!("{:>6}", totals[p]), 0, colour),
        ));
    }
    let best = totals.iter().copied().max().unwrap_or(0);
    let winners: Vec<String> =
        (0..names.len()).filter(|p| totals[*p] == best).map(|p| board_art::player(&names[p], p, colour)).collect();
    if winners.len() == 1 {
        let wins = if (0..names.len()).any(|p| totals[p] == best && names[p] == "you") { "win" } else { "wins" };
        out.push_str(&format!("{} {wins} with {best} points\n", winners[0]));
    } else {
        out.push_str(&format!("a tie at {best} points: {}\n", winners.join(" and ")));
    }
    out
}

/// Option `i` (from 0) as one character, for labels on a tile.
fn option_char(i: usize) -> char {
    char::from_digit(i as u32 + 1, 36).unwrap_or('?')
}

/// A decision in words, for messages (records and input use the notation).
fn spoken(action: &Action) -> String {
    match action {
        Action::Place(p) => format!("place at {} turned {}", p.pos, p.rot),
        Action::Deploy(l) => format!("deploy on {l}"),
        Action::PlaceFerry(p) => format!("ferry {p}"),
        Action::MoveFerry { at, ferry } => format!("move ferry at {at} to {ferry}"),
        a => a.to_string(),
    }
}

fn option_label(action: &Action, step: Step) -> String {
    match action {
        Action::Place(Placement { pos, rot }) => format!("[{}, {}] {rot}°", pos.x, pos.y),
        Action::Pass if step == Step::Deploy => "pass (no follower)".to_string(),
        Action::Pass => "pass (no more moves)".to_string(),
        Action::Deploy(loc) => loc.to_string(),
        Action::PlaceFerry(pair) => format!("ferry {pair}"),
        Action::MoveFerry { at, ferry } => format!("ferry at [{}, {}] to {ferry}", at.x, at.y),
        a => a.to_string(),
    }
}

/// The numbered options, in as many columns as fit.
fn options(legal: &[Action], step: Step, width: usize) -> String {
    let n = legal.len();
    let digits = n.to_string().len();
    let items: Vec<String> =
        legal.iter().enumerate().map(|(i, a)| format!("{:>digits$}) {}", i + 1, option_label(a, step))).collect();
    let cw = items.iter().map(|s| s.chars().count()).max().unwrap_or(1) + 3;
    let cols = ((width.saturating_sub(2)) / cw).max(1);
    let mut out = String::new();
    for row in items.chunks(cols) {
        let mut line = "  ".to_string();
        for item in row {
            line.push_str(&format!("{item:cw$}"));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

const HELP: &str = "\
Choose by an option's number, or type a move:
  p X Y ROT      place the tile at [X, Y] turned ROT (0, 90, 180, 270) clockwise; p 1 0 90
                 (ROT may be left out when one turn fits); x grows east, y south
  m FEATURE      deploy a follower on the tile just placed: m road:E, m city:N, m field:SSE, m monastery
  f A-B          put the ferry on the lake just placed, joining jetties A and B: f E-W
  mv X Y A-B     move the ferry on the lake at [X, Y] to jetties A and B: mv 1 0 S-W
  pass           deploy no follower, or move no more ferries
The notation of records is understood too: place at [1, 0] turned 90, deploy on road:E, move ferry at [1, 0] to S-W.
Commands:
  undo           take back your last decision of this turn
  save [FILE]    write the game's record (whole turns) as JSON; carcassonne play --load FILE continues it
  board          show the board and the options again
  help           this text
  quit           leave the game without saving (so does the end of input)";

// ----- typed input -------------------------------------------------------------

/// Reads a line typed at a decision whose legal actions are `legal`.
fn parse(line: &str, state: &State, legal: &[Action]) -> Input {
    let line = line.trim();
    if line.is_empty() {
        return Input::Empty;
    }
    // The engine's notation, as records write it, is always understood.
    if let Ok(action) = line.parse::<Action>() {
        return Input::Act(action);
    }
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    let word = word.to_ascii_lowercase();
    if let Ok(n) = word.trim_end_matches(')').parse::<usize>() {
        if !rest.is_empty() {
            return Input::Bad(format!("'{line}': an option is chosen by its number alone"));
        }
        return match legal.get(n.wrapping_sub(1)) {
            Some(a) => Input::Act(*a),
            None => Input::Bad(format!("there is no option {n}: choose 1 to {}", legal.len())),
        };
    }
    match word.as_str() {
        "help" | "h" | "?" => Input::Help,
        "undo" | "u" => Input::Undo,
        "save" => Input::Save((!rest.is_empty()).then(|| rest.to_string())),
        "quit" | "q" | "exit" => Input::Quit,
        "board" | "b" | "show" => Input::Board,
        "pass" | "skip" => Input::Act(Action::Pass),
        "discard" => Input::Act(Action::Discard),
        "p" | "place" => place(rest, state, legal),
        "m" | "meeple" | "deploy" | "follower" => deploy(rest),
        "f" | "ferry" => ferry(rest),
        "mv" | "move" => move_ferry(rest),
        _ => {
            let example = match state.step() {
                Step::Place => "p 1 0 90",
                Step::Deploy => "m road:E or pass",
                Step::PlaceFerry => "f E-W",
                _ => "mv 1 0 S-W or pass",
            };
            Input::Bad(format!(
                "'{line}' is neither an option nor a command: type an option's number (1 to {}), a move such as \
                 {example}, or help",
                legal.len()
            ))
        }
    }
}

/// Words of a move, with `[`, `]` and `,` taken as spaces (`p [1, 0] 90`).
fn words(text: &str) -> Vec<String> {
    text.replace(['[', ']', ','], " ").split_whitespace().map(str::to_string).collect()
}

fn cell(x: &str, y: &str) -> Option<Pos> {
    Some(Pos::new(x.parse().ok()?, y.parse().ok()?))
}

fn place(rest: &str, state: &State, legal: &[Action]) -> Input {
    let usage = || Input::Bad("p takes a cell and a turn: p X Y ROT, such as p 1 0 90".to_string());
    let w = words(rest);
    if !(2..=3).contains(&w.len()) {
        return usage();
    }
    let Some(pos) = cell(&w[0], &w[1]) else {
        return usage();
    };
    if let Some(r) = w.get(2) {
        let r = r.trim_end_matches('°');
        return match r.parse().ok().and_then(Rotation::from_degrees) {
            Some(rot) => Input::Act(Action::Place(Placement { pos, rot })),
            None => Input::Bad(format!("'{r}' is not a turn: 0, 90, 180 or 270 (degrees clockwise)")),
        };
    }
    let turns: Vec<Rotation> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Place(p) if p.pos == pos => Some(p.rot),
            _ => None,
        })
        .collect();
    match turns[..] {
        [rot] => Input::Act(Action::Place(Placement { pos, rot })),
        [] if state.step() != Step::Place => Input::Act(Action::Place(Placement { pos, rot: Rotation::R0 })),
        [] => Input::Bad(format!("the tile fits nowhere at {pos}: the cells that take it show their coordinates")),
        _ => {
            let list: Vec<String> = turns.iter().map(|r| r.to_string()).collect();
            Input::Bad(format!(
                "at {pos} the tile fits turned {}: add the turn, as in p {} {} {}",
                list.join(" or "),
                pos.x,
                pos.y,
                turns[0]
            ))
        }
    }
}

fn deploy(rest: &str) -> Input {
    if rest.is_empty() {
        return Input::Bad(
            "m takes a feature of the tile just placed: m road:E, m city:N, m field:SSE or m monastery".into(),
        );
    }
    // Feature kinds in lower case, edges in upper case, whatever was typed.
    let name = match rest.split_once(':') {
        Some((kind, at)) => format!("{}:{}", kind.trim().to_ascii_lowercase(), at.trim().to_ascii_uppercase()),
        None => rest.to_ascii_lowercase(),
    };
    match name.parse::<Location>() {
        Ok(loc) => Input::Act(Action::Deploy(loc)),
        Err(e) => Input::Bad(e.to_string()),
    }
}

fn ferry(rest: &str) -> Input {
    match rest.trim().to_ascii_uppercase().parse::<JettyPair>() {
        Ok(pair) => Input::Act(Action::PlaceFerry(pair)),
        Err(e) => Input::Bad(format!("{e}: f A-B, such as f E-W")),
    }
}

fn move_ferry(rest: &str) -> Input {
    let w = words(rest);
    let usage = || Input::Bad("mv takes the lake's cell and two jetties: mv X Y A-B, such as mv 1 0 S-W".to_string());
    let [x, y, pair] = &w[..] else {
        return usage();
    };
    let Some(at) = cell(x, y) else {
        return usage();
    };
    match pair.to_ascii_uppercase().parse::<JettyPair>() {
        Ok(ferry) => Input::Act(Action::MoveFerry { at, ferry }),
        Err(e) => Input::Bad(e.to_string()),
    }
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
            Input::Act(Action::Deploy(Location::Road(carcassonne_engine::Side::E)))
        );
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
