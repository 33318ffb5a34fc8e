//! A game being played or replayed, with its record beside its state, and
//! the record's readings that replay it (its actions, a record from
//! actions, version 2). Above the records' data (`record.rs`).

use crate::action::{Action, JettyPair, Location, Step};
use crate::board::Placement;
use crate::error::PlayError;
use crate::event::{EventSink, NoEvents};
use crate::figure::FollowerKind;
use crate::geometry::{Pos, Rotation};
use crate::record::{FerryMove, Record, RecordError, Setup, Turn, TurnError, FORMAT_V1, FORMAT_V2};
use crate::state::State;
use crate::tile::TileKind;

/// A hint that cannot be noted in the record.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum HintError {
    #[error("the game is over: there is no decision to give a hint for")]
    GameOver,
    #[error("there is no player {seat}: the game has {players}")]
    NoSuchPlayer { seat: usize, players: usize },
    #[error("no player decides before the draw in this game")]
    BeforeTheDraw,
}

/// A game being played or replayed: its state, and its record so far.
#[derive(Clone, Debug)]
pub struct Game {
    state: State,
    record: Record,
    /// Every action played, for turning the record into version 2 when a
    /// decision comes that version 1 cannot hold.
    log: Vec<Action>,
}

impl Game {
    /// A new game from a setup (its turns, if any, are ignored), recorded
    /// in version 1 while its decisions fit there. A game whose turns may
    /// begin with a decision before the draw (Abbey & Mayor's abbey) is
    /// recorded in version 2 from the start.
    pub fn new(setup: Setup) -> Result<Game, RecordError> {
        let rules = setup.rules()?;
        let state = State::new(rules);
        let format = if state.turn_plan()[0] == Step::Draw { FORMAT_V1 } else { FORMAT_V2 };
        Ok(Game { state, record: Record { format: format.to_string(), setup, turns: Vec::new() }, log: Vec::new() })
    }

    /// Plays a whole record, checking every turn. The game's record keeps
    /// the version it was written in.
    pub fn replay(record: &Record) -> Result<Game, RecordError> {
        Game::replay_with(record, &mut NoEvents)
    }

    /// As [`replay`](Self::replay), reporting what happened to `events`.
    pub fn replay_with<E: EventSink>(record: &Record, events: &mut E) -> Result<Game, RecordError> {
        Game::replay_inner(record, events, &mut |_, _| {})
    }

    /// The one reading of a record's entries as actions: plays them, telling
    /// `seen` each action with its entry's index.
    fn replay_inner<E: EventSink>(
        record: &Record,
        events: &mut E,
        seen: &mut dyn FnMut(usize, Action),
    ) -> Result<Game, RecordError> {
        let version = record.version()?;
        let mut game = Game::new(record.setup.clone())?;
        if version == 2 {
            game.record.format = FORMAT_V2.to_string();
        }
        let last = record.turns.len();
        for (i, turn) in record.turns.iter().enumerate() {
            let mut play = |game: &mut Game, action: Action| -> Result<(), TurnError> {
                game.play_with(action, events)?;
                seen(i, action);
                Ok(())
            };
            let result = if version == 2 {
                game.play_entry_v2(turn, i + 1 == last, &mut play)
            } else if turn.is_pending() && i + 1 < last {
                Err(TurnError::PendingNotLast)
            } else {
                game.play_entry_v1(turn, &mut play)
            };
            result
                .and_then(|()| game.keep_hints(i, &turn.hints))
                .map_err(|error| RecordError::Turn { turn: i + 1, error })?;
        }
        Ok(game)
    }

    /// Writes the hints of entry `i` of a record being replayed into this
    /// game's own entry `i` (opened if the record's entry has no action yet).
    fn keep_hints(&mut self, i: usize, hints: &[usize]) -> Result<(), TurnError> {
        if hints.is_empty() {
            return Ok(());
        }
        let players = self.record.setup.players.len();
        if let Some(&seat) = hints.iter().find(|&&s| s >= players) {
            return Err(TurnError::HintSeat { seat, players });
        }
        // An entry with hints and no action yet: a decision before the draw (version 2).
        if self.record.turns.len() == i && self.record.format == FORMAT_V2 && i == self.state.turns() as usize {
            self.open_entry();
        }
        if let Some(turn) = self.record.turns.get_mut(i) {
            hints.clone_into(&mut turn.hints);
        }
        Ok(())
    }

    /// Takes the hints of `record`'s entries into this game's, entry for
    /// entry, as far as this game has come: for a game rebuilt from all of
    /// a record's actions (which hold no hints).
    pub fn copy_hints(&mut self, record: &Record) -> Result<(), TurnError> {
        self.copy_hints_of_turns(record, record.turns.len())
    }

    /// As [`copy_hints`](Self::copy_hints), for the record's first `turns`
    /// entries only: a game rebuilt to a past position shows no hint asked
    /// after it (those of the turn it stopped in are left out too).
    pub fn copy_hints_of_turns(&mut self, record: &Record, turns: usize) -> Result<(), TurnError> {
        for (i, turn) in record.turns.iter().enumerate().take(turns) {
            self.keep_hints(i, &turn.hints)?;
        }
        Ok(())
    }

    /// Notes that `seat` asked for a hint during the turn in progress, in
    /// that turn's entry of the record (opened if the turn has had no
    /// action yet: a decision before the draw, in version 2).
    pub fn note_hint(&mut self, seat: usize) -> Result<(), HintError> {
        let players = self.record.setup.players.len();
        if seat >= players {
            return Err(HintError::NoSuchPlayer { seat, players });
        }
        if self.state.is_over() {
            return Err(HintError::GameOver);
        }
        if self.record.turns.len() == self.state.turns() as usize {
            if self.record.format != FORMAT_V2 {
                // (Version 1 opens every entry with its draw: a player never acts before it.)
                return Err(HintError::BeforeTheDraw);
            }
            self.open_entry();
        }
        if let Some(turn) = self.record.turns.last_mut() {
            turn.hints.push(seat);
        }
        Ok(())
    }

    /// Hints asked for so far, per seat.
    pub fn hints_used(&self) -> Vec<u32> {
        let mut used = vec![0; self.record.setup.players.len()];
        for &seat in self.record.turns.iter().flat_map(|t| &t.hints) {
            if let Some(n) = used.get_mut(seat) {
                *n += 1;
            }
        }
        used
    }

    /// A version-2 entry for the turn in progress, before its first action.
    fn open_entry(&mut self) {
        let player = Some(self.state.current_player());
        let second = self.state.is_second_turn().then_some(true);
        self.record.turns.push(Turn { player, second, ..Turn::default() });
    }

    /// Parses and replays a record in JSON.
    pub fn from_json(text: &str) -> Result<Game, RecordError> {
        Game::replay(&Record::from_json(text)?)
    }

    pub fn state(&self) -> &State {
        &self.state
    }

    pub fn record(&self) -> &Record {
        &self.record
    }

    /// Names of the players, in seat order.
    pub fn players(&self) -> &[String] {
        &self.record.setup.players
    }

    /// Plays an action and writes it into the record.
    pub fn play(&mut self, action: Action) -> Result<(), PlayError> {
        self.play_with(action, &mut NoEvents)
    }

    pub fn play_with<E: EventSink>(&mut self, action: Action, events: &mut E) -> Result<(), PlayError> {
        // An entry per turn: the first action of a turn, a draw or a
        // decision before it, opens the next one.
        let starts_turn = self.record.turns.len() == self.state.turns() as usize;
        let player = self.state.current_player();
        let second = self.state.is_second_turn();
        self.state.play_with(action, events)?;
        self.log.push(action);
        if self.record.format == FORMAT_V2 {
            self.write_v2(action, starts_turn, player, second);
        } else if !self.write_v1(action) {
            // A decision version 1 cannot hold: the record goes on in version 2.
            self.record = self.rewritten_v2();
        }
        Ok(())
    }

    /// This game's record in version 2, written again from its actions.
    fn rewritten_v2(&self) -> Record {
        let mut game = Game::new(self.record.setup.clone()).expect("the setup was checked");
        game.record.format = FORMAT_V2.to_string();
        for a in &self.log {
            game.play(*a).expect("the game's actions were played");
        }
        // The same turns, entry for entry: their hints go along (an entry
        // opened by a hint alone, before its turn's first action, too). Its
        // hints were checked when they were written.
        let _ = game.copy_hints(&self.record);
        game.record
    }

    fn write_v2(&mut self, action: Action, starts_turn: bool, player: usize, second: bool) {
        let turns = &mut self.record.turns;
        if starts_turn || turns.is_empty() {
            turns.push(Turn { player: Some(player), second: second.then_some(true), ..Turn::default() });
        }
        let turn = turns.last_mut().expect("an entry was just made");
        match action {
            Action::Draw(kind) if starts_turn => turn.tile = kind.id().to_string(),
            a => turn.actions.push(a),
        }
    }

    /// Writes `action` into the last version-1 entry; false if version 1
    /// has no field for it.
    fn write_v1(&mut self, action: Action) -> bool {
        let turns = &mut self.record.turns;
        if let Action::Draw(kind) = action {
            turns.push(Turn { tile: kind.id().to_string(), ..Turn::default() });
            return true;
        }
        let Some(t) = turns.last_mut() else {
            return false;
        };
        match action {
            Action::Draw(_) => unreachable!("handled above"),
            Action::Place(p) => {
                t.at = Some([p.pos.x as i64, p.pos.y as i64]);
                t.rot = Some(p.rot.degrees() as i64);
            }
            Action::Discard => t.discard = true,
            Action::Deploy(FollowerKind::Normal, loc) => t.meeple = Some(loc.to_string()),
            // Version 1 names no figure but the normal follower.
            Action::Deploy(..) => return false,
            Action::PlaceFerry(pair) => t.ferry = Some(pair.to_string()),
            Action::MoveFerry { at, ferry } => {
                t.moves.push(FerryMove { at: [at.x as i64, at.y as i64], ferry: ferry.to_string() })
            }
            Action::Pass => {}
            // Version 1 has no abbey, no wagon and no abbot.
            Action::PlaceAbbey(_) | Action::MoveWagon { .. } | Action::ReturnAbbot(_) => return false,
        }
        true
    }

    /// The record as it can be read back. In version 1 a turn in progress
    /// (its tile placed, its other decisions still to come) is shown as its
    /// drawn tile alone, waiting to be placed, since an entry is a whole
    /// turn; version 2 holds the turn's actions so far as they are.
    pub fn settled_record(&self) -> Record {
        let mut record = self.record.clone();
        if record.format == FORMAT_V1 && !matches!(self.state.step(), Step::Draw | Step::GameOver) {
            if let Some(turn) = record.turns.last_mut() {
                let (tile, hints) = (std::mem::take(&mut turn.tile), std::mem::take(&mut turn.hints));
                *turn = Turn { tile, hints, ..Turn::default() };
            }
        }
        record
    }

    /// The tile drawn and not yet placed, if the game waits for its placement.
    pub fn pending_tile(&self) -> Option<TileKind> {
        (self.state.step() == Step::Place).then(|| self.state.drawn()).flatten()
    }

    /// Plays a version-2 entry: its draw, then its actions as listed. Only
    /// the last entry may stop before the turn is over.
    fn play_entry_v2(
        &mut self,
        turn: &Turn,
        last: bool,
        play: &mut dyn FnMut(&mut Game, Action) -> Result<(), TurnError>,
    ) -> Result<(), TurnError> {
        if turn.at.is_some()
            || turn.rot.is_some()
            || turn.discard
            || turn.meeple.is_some()
            || turn.ferry.is_some()
            || !turn.moves.is_empty()
        {
            return Err(TurnError::MixedFields);
        }
        if self.state.is_over() {
            return Err(PlayError::GameOver.into());
        }
        let expected = self.state.current_player();
        let second = self.state.is_second_turn();
        if let Some(named) = turn.player.filter(|p| *p != expected) {
            return Err(TurnError::WrongPlayer { named, expected, second });
        }
        if let Some(said) = turn.second.filter(|s| *s != second) {
            return Err(TurnError::SecondTurn(said));
        }
        // The entry's turn is over once the state counts one more turn (a
        // decision before the draw leaves the turn going on at the draw).
        let start = self.state.turns();
        let ended = |game: &Game| game.state.turns() != start || game.state.is_over();
        if !turn.tile.is_empty() {
            let kind = TileKind::parse(&turn.tile).ok_or_else(|| TurnError::UnknownTile(turn.tile.clone()))?;
            play(self, Action::Draw(kind))?;
        }
        for (i, a) in turn.actions.iter().enumerate() {
            if ended(self) {
                return Err(TurnError::Overlong(i));
            }
            play(self, *a)?;
        }
        match self.state.step() {
            _ if ended(self) => Ok(()),
            _ if last => Ok(()),
            step => Err(TurnError::Unfinished(step)),
        }
    }

    /// Plays a version-1 entry: draw, place or discard, deploy, ferry,
    /// moves; the passes it implies are played too. A last entry with
    /// `tile` alone is only drawn.
    fn play_entry_v1(
        &mut self,
        turn: &Turn,
        play: &mut dyn FnMut(&mut Game, Action) -> Result<(), TurnError>,
    ) -> Result<(), TurnError> {
        if self.state.is_over() {
            return Err(PlayError::GameOver.into());
        }
        if turn.player.is_some() || !turn.actions.is_empty() {
            return Err(TurnError::MixedFields);
        }
        let kind = TileKind::parse(&turn.tile).ok_or_else(|| TurnError::UnknownTile(turn.tile.clone()))?;
        play(self, Action::Draw(kind))?;
        if turn.is_pending() {
            return Ok(());
        }
        if turn.discard {
            if turn.at.is_some()
                || turn.rot.is_some()
                || turn.meeple.is_some()
                || turn.ferry.is_some()
                || !turn.moves.is_empty()
            {
                return Err(TurnError::DiscardPlaced);
            }
            return play(self, Action::Discard);
        }
        let (Some([x, y]), Some(rot)) = (turn.at, turn.rot) else {
            return Err(TurnError::NotPlaced);
        };
        let rot = Rotation::from_degrees(rot).ok_or(TurnError::BadRotation(rot))?;
        let pos = coordinate(x, y).ok_or(TurnError::OffBoard(x, y))?;
        play(self, Action::Place(Placement { pos, rot }))?;

        match &turn.meeple {
            Some(name) => {
                let loc: Location = name.parse()?;
                play(self, Action::Deploy(FollowerKind::Normal, loc))?;
            }
            None => play(self, Action::Pass)?,
        }

        let lake = self.state.step() == Step::PlaceFerry;
        match (&turn.ferry, lake) {
            (Some(f), true) => {
                let pair: JettyPair = f.parse()?;
                play(self, Action::PlaceFerry(pair))?;
            }
            (None, true) => return Err(TurnError::FerryMissing),
            (Some(_), false) => return Err(TurnError::NoLake(kind)),
            (None, false) => {}
        }

        for m in &turn.moves {
            let ferry: JettyPair = m.ferry.parse()?;
            let at = coordinate(m.at[0], m.at[1]).ok_or(TurnError::OffBoard(m.at[0], m.at[1]))?;
            if self.state.step() != Step::MoveFerries {
                // Step 4 was not entered: no ferry may move this turn.
                return Err(match self.state.ferry_at(at) {
                    None => PlayError::NoFerry(at),
                    Some(_) => PlayError::FerryNotMovable(at),
                }
                .into());
            }
            play(self, Action::MoveFerry { at, ferry })?;
        }
        if self.state.step() == Step::MoveFerries {
            play(self, Action::Pass)?;
        }
        debug_assert!(matches!(self.state.step(), Step::Draw | Step::GameOver));
        Ok(())
    }
}

fn coordinate(x: i64, y: i64) -> Option<Pos> {
    Some(Pos::new(i32::try_from(x).ok()?, i32::try_from(y).ok()?))
}

impl Record {
    /// Every action of the record, entry by entry (chance's draws among
    /// them), checked by replaying it. A version-1 entry's implied decisions
    /// (passing with no follower, ending the ferry moves) are made explicit.
    pub fn actions(&self) -> Result<Vec<Vec<Action>>, RecordError> {
        let mut entries = Vec::with_capacity(self.turns.len());
        Game::replay_inner(self, &mut NoEvents, &mut |entry, action| {
            if entries.len() <= entry {
                entries.resize_with(entry + 1, Vec::new);
            }
            entries[entry].push(action);
        })?;
        Ok(entries)
    }

    /// The first `count` actions of a record whose last entry may stop in
    /// the middle of a turn, as a server stores a game in progress: a
    /// version-1 entry cannot show where its turn stopped, so the count
    /// says it. What the record holds after those actions is not read, and
    /// fewer than `count` actions is an error.
    pub fn actions_upto(&self, count: usize) -> Result<Vec<Action>, RecordError> {
        let mut out = Vec::with_capacity(count);
        let replayed = Game::replay_inner(self, &mut NoEvents, &mut |_, action| out.push(action));
        match replayed {
            Err(e) if out.len() < count => Err(e),
            _ if out.len() < count => Err(RecordError::TooFewActions { count, held: out.len() }),
            _ => {
                out.truncate(count);
                Ok(out)
            }
        }
    }

    /// The record of a game played from `setup` by `actions` (draws among
    /// them): version 1 when it can hold them, as every game of the base
    /// game and The Ferries; version 2 otherwise.
    pub fn from_actions(setup: Setup, actions: impl IntoIterator<Item = Action>) -> Result<Record, RecordError> {
        let mut game = Game::new(setup)?;
        for (index, a) in actions.into_iter().enumerate() {
            game.play(a).map_err(|error| RecordError::Action { index, error })?;
        }
        Ok(game.record)
    }

    /// The same game as a version-2 record: each entry's decisions as
    /// actions in the notation, with the player whose turn it is.
    pub fn to_v2(&self) -> Result<Record, RecordError> {
        Ok(Game::replay(self)?.rewritten_v2())
    }
}
