//! The session: seats, turns, bots' moves and a human's decisions, undo and save.

use super::*;

pub(super) struct Seat {
    pub(super) name: String,
    /// `None` for a human.
    pub(super) bot: Option<Box<dyn Bot>>,
    /// A searching bot: say that it thinks.
    pub(super) slow: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Flow {
    Continue,
    Leave,
}

pub(super) struct Session<R, W> {
    pub(super) game: Game,
    pub(super) seats: Vec<Seat>,
    pub(super) seed: u64,
    pub(super) colour: bool,
    pub(super) width: usize,
    /// Repeat each line read after the prompt (input that is not a terminal).
    pub(super) echo: bool,
    pub(super) input: R,
    pub(super) out: W,
    /// The actions of the record entry in progress, its draw first (for undo).
    pub(super) turn: Vec<Action>,
    /// Events of the last action, not yet printed.
    pub(super) events: Vec<Event>,
    /// Whether `save` wrote the record in this session.
    pub(super) saved: bool,
}

/// What a line typed at a decision asks for.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(super) enum Input {
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
    pub(super) fn play(&mut self, loaded: Option<&str>) -> Result<()> {
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

    pub(super) fn say(&mut self, text: impl AsRef<str>) -> io::Result<()> {
        writeln!(self.out, "{}", text.as_ref())
    }

    pub(super) fn hint(&mut self, text: &str) -> io::Result<()> {
        let mark = board_art::bold("?", 93, self.colour);
        self.say(format!("{mark} {text}"))
    }

    pub(super) fn name(&self, p: usize) -> String {
        board_art::player(&self.seats[p].name, p, self.colour)
    }

    pub(super) fn names(&self) -> Vec<String> {
        (0..self.seats.len()).map(|p| self.name(p)).collect()
    }

    /// Whether seat `p` is addressed as "you" (the verb agrees).
    pub(super) fn is_you(&self, p: usize) -> bool {
        self.seats[p].name == "you"
    }

    /// `greedy's`, or `your`.
    pub(super) fn owner(&self, p: usize) -> String {
        if self.is_you(p) {
            board_art::player("your", p, self.colour)
        } else {
            format!("{}'s", self.name(p))
        }
    }

    /// `text` with `you's` (as render::event writes it) made `your`.
    pub(super) fn grammar(&self, text: String) -> String {
        match (0..self.seats.len()).find(|p| self.is_you(*p)) {
            Some(p) => text.replace(&format!("{}'s", self.name(p)), &self.owner(p)),
            None => text,
        }
    }

    pub(super) fn intro(&mut self, loaded: Option<&str>) -> Result<()> {
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
    pub(super) fn status(&self) -> String {
        let state = self.game.state();
        let seats: Vec<String> = (0..self.seats.len())
            .map(|p| {
                let n = state.supply()[p];
                let mut text =
                    format!("{} {} ({n} follower{}", self.name(p), state.scores()[p], if n == 1 { "" } else { "s" });
                // Other figures in supply, and goods held (Traders & Builders).
                for (kind, _) in state.rules().figures().into_iter().skip(1) {
                    text.push_str(&format!(", {} {}", state.supply_of(kind)[p], kind.noun()));
                }
                if state.rules().has(Expansion::Traders) {
                    let [wine, grain, cloth] = state.goods()[p];
                    text.push_str(&format!("; wine {wine}, grain {grain}, cloth {cloth}"));
                }
                text.push(')');
                text
            })
            .collect();
        format!("scores: {} · {} tiles in the bag", seats.join(" · "), state.bag().total())
    }

    /// Plays an action (checked), keeping the turn's actions for undo.
    pub(super) fn apply(&mut self, action: Action) -> Result<(), carcassonne_engine::PlayError> {
        self.game.play_with(action, &mut self.events)?;
        if matches!(self.game.state().step(), Step::Draw | Step::GameOver) {
            self.turn.clear();
        } else {
            self.turn.push(action);
        }
        Ok(())
    }

    pub(super) fn print_events(&mut self) -> io::Result<()> {
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

    pub(super) fn draw(&mut self) -> Result<()> {
        let k = self.game.record().turns.len() as u64;
        let kind =
            self.game.state().bag().sample(&mut draw_rng(self.seed, k)).ok_or_else(|| anyhow!("the bag is empty"))?;
        self.turn.clear();
        self.apply(Action::Draw(kind))?;
        self.print_events()?;
        Ok(())
    }

    pub(super) fn bot_decides(&mut self, p: usize) -> Result<()> {
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

    pub(super) fn human_decides(&mut self, p: usize) -> Result<Flow> {
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

    pub(super) fn unsaved(&self) -> &'static str {
        if self.saved {
            " (what was saved is all that is kept)"
        } else {
            " (nothing saved)"
        }
    }

    /// A line of input, trimmed; `None` at the end of input.
    pub(super) fn read_line(&mut self) -> Result<Option<String>> {
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
    pub(super) fn undo(&mut self) -> Result<bool> {
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

    pub(super) fn save(&mut self, path: Option<String>) -> Result<()> {
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

    pub(super) fn screen(&mut self, p: usize, legal: &[Action]) -> Result<()> {
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
        let who = if state.is_second_turn() {
            format!("{} (second turn, from the builder)", self.name(p))
        } else {
            self.name(p).to_string()
        };
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
                    if let Action::Deploy(_, loc) = a {
                        board_art::put_label(&mut c, *loc, option_char(i));
                    }
                }
                text.push_str(&format!("the tile just placed at {}, its free features numbered:\n", t.pos));
                text.push_str(&board_art::cells_in_a_row(&[(String::new(), c)], 2, 3, self.colour));
                let supply = state.supply()[p];
                let others = if state.rules().figures().len() > 1 { " or another figure" } else { "" };
                // The Abbot: taking the abbot back is a choice of this step too.
                let back = legal.iter().find_map(|a| match a {
                    Action::ReturnAbbot(at) => Some(format!(", take back your abbot at {at}")),
                    _ => None,
                });
                (
                    format!("deploy a follower ({supply} in supply){others}{}, or pass", back.unwrap_or_default()),
                    "m FEATURE (m road:E; m builder road:E for another figure), pass",
                )
            }
            Step::PlaceFerry => {
                let at = state.placed_tile().map_or(Pos::ORIGIN, |t| t.pos);
                (format!("put a ferry on the lake at {at}, joining two of its jetties"), "f A-B")
            }
            Step::MoveFerries => (
                "move a ferry that the new tile's roads reach (each once a turn), or pass".to_string(),
                "mv X Y A-B, pass",
            ),
            Step::Abbey => (
                format!("place your abbey in a hole ({} of them), or pass to draw a tile", legal.len() - 1),
                "abbey X Y, pass",
            ),
            Step::MoveWagon => (
                "move your wagon to a free unfinished feature on its tile or one of the eight around, or pass to take it back"
                    .to_string(),
                "wagon FEATURE X Y, pass",
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

    pub(super) fn game_over(&mut self) -> Result<()> {
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
