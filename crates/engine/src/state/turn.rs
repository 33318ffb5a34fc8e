//! The turn: legal actions, checks and playing, step by step along the
//! turn plan the rules in play give.

use crate::action::{Action, Location, Step};
use crate::board::{Misfit, Placement};
use crate::error::PlayError;
use crate::event::{Event, EventSink, NoEvents};
use crate::features::PieceId;
use crate::geometry::{Corner, Pos, Rotation};
use crate::rules;
use crate::rules::abbey;
use crate::setup::{Expansion, WagonMove};
use crate::tile::FeatureKind;

use super::{FollowerKind, State};

impl State {
    /// Appends every legal action of the current step to `out`.
    pub fn legal_actions(&self, out: &mut Vec<Action>) {
        match self.step {
            Step::GameOver => {}
            Step::Draw => out.extend(self.bag.kinds().map(Action::Draw)),
            Step::Place => {
                let kind = self.drawn.expect("a tile is drawn at the Place step");
                let start = out.len();
                self.board.for_each_placement(kind, |p| out.push(Action::Place(p)));
                if out.len() == start {
                    out.push(Action::Discard);
                }
            }
            Step::Deploy => {
                let seat = self.acting as usize;
                if self.supply[FollowerKind::Normal as usize][seat] > 0 {
                    self.for_each_deployment(|l| out.push(Action::Deploy(FollowerKind::Normal, l)));
                }
                if self.plan.other_figures() {
                    self.other_deployments(out);
                }
                out.push(Action::Pass);
            }
            Step::Abbey => {
                out.extend(abbey::holes(&self.board).map(Action::PlaceAbbey));
                out.push(Action::Pass);
            }
            Step::MoveWagon => {
                self.wagon_targets(|at, to, _| out.push(Action::MoveWagon { at, to }));
                out.push(Action::Pass);
            }
            step => rules::legal_actions(step, &self.ext, self.view(), out),
        }
    }

    /// The deployments of the figures besides the normal follower.
    #[inline(never)]
    fn other_deployments(&self, out: &mut Vec<Action>) {
        let seat = self.acting as usize;
        for &kind in rules::followers_alike(&self.rules) {
            if self.supply[kind as usize][seat] > 0 {
                self.for_each_deployment(|l| out.push(Action::Deploy(kind, l)));
            }
        }
        for &kind in rules::figures_apart(&self.rules) {
            if self.supply[kind as usize][seat] == 0 {
                continue;
            }
            if kind == FollowerKind::Barn {
                for c in Corner::ALL {
                    if self.barn_check(Location::Corner(c)).is_ok() {
                        out.push(Action::Deploy(kind, Location::Corner(c)));
                    }
                }
            } else if matches!(kind, FollowerKind::Builder | FollowerKind::Pig) {
                // They join a feature of their owner's, not a free one: a
                // piece of the right kind whose feature holds figures.
                let t = self.board.tile(self.placed);
                for local in 0..t.kind.info().pieces() {
                    let p = t.first_piece + local as PieceId;
                    let on = self.features.info(p).kind;
                    let fits = if kind == FollowerKind::Pig {
                        on == FeatureKind::Field
                    } else {
                        matches!(on, FeatureKind::Road | FeatureKind::City)
                    };
                    if fits && self.features.totals(p).followers > 0 && self.special_check(kind, p).is_ok() {
                        out.push(Action::Deploy(kind, super::location_of(t, local as u8)));
                    }
                }
            } else {
                self.for_each_deployment(|l| {
                    if rules::stands_on(kind, l.kind()).is_ok() {
                        out.push(Action::Deploy(kind, l));
                    }
                });
            }
        }
    }

    /// All legal actions of the current step, in a new vector.
    pub fn legal_action_list(&self) -> Vec<Action> {
        let mut v = Vec::new();
        self.legal_actions(&mut v);
        v
    }

    /// Whether `action` is legal now.
    pub fn is_legal(&self, action: Action) -> bool {
        self.check(action).is_ok()
    }

    /// Checks `action` against the rules without playing it.
    pub fn check(&self, action: Action) -> Result<(), PlayError> {
        let wrong = |tried| {
            if self.step == Step::GameOver {
                PlayError::GameOver
            } else {
                PlayError::WrongStep { tried, step: self.step }
            }
        };
        match action {
            Action::Draw(kind) => {
                if self.step != Step::Draw {
                    return Err(wrong("draw a tile"));
                }
                if self.bag.count(kind) == 0 {
                    return Err(PlayError::NotInBag(kind));
                }
                Ok(())
            }
            Action::Place(p) => {
                if self.step != Step::Place {
                    return Err(wrong("place a tile"));
                }
                let kind = self.drawn.expect("a tile is drawn at the Place step");
                self.board.check_fit(kind, p).map_err(|m| match m {
                    Misfit::Occupied => PlayError::Occupied(p.pos),
                    Misfit::NotTouching => PlayError::NotTouching(p.pos),
                    Misfit::Edge(side) => PlayError::EdgeMismatch { tile: kind, rot: p.rot, at: p.pos, side },
                })
            }
            Action::Discard => {
                if self.step != Step::Place {
                    return Err(wrong("discard a tile"));
                }
                let kind = self.drawn.expect("a tile is drawn at the Place step");
                if self.board.fits_somewhere(kind) {
                    return Err(PlayError::MustPlace(kind));
                }
                Ok(())
            }
            Action::Deploy(kind, loc) => {
                if self.step != Step::Deploy {
                    return Err(wrong("deploy a follower"));
                }
                if self.supply[kind as usize][self.acting as usize] == 0 {
                    return Err(match kind {
                        FollowerKind::Normal => PlayError::NoFollowerInSupply,
                        kind => PlayError::NoFigureInSupply(kind),
                    });
                }
                if kind == FollowerKind::Barn {
                    return self.barn_check(loc);
                }
                if let Location::Corner(_) = loc {
                    let why = "only a barn stands on a corner";
                    return Err(PlayError::WrongFeatureForFigure { figure: kind, location: loc, why });
                }
                let p = self.resolve(self.placed, loc).ok_or(PlayError::NoSuchFeature(loc))?;
                rules::stands_on(kind, loc.kind()).map_err(|why| PlayError::WrongFeatureForFigure {
                    figure: kind,
                    location: loc,
                    why,
                })?;
                if matches!(kind, FollowerKind::Builder | FollowerKind::Pig) {
                    return self.special_check(kind, p).map_err(|why| PlayError::WrongFeatureForFigure {
                        figure: kind,
                        location: loc,
                        why,
                    });
                }
                if self.features.totals(p).followers > 0 {
                    return Err(PlayError::FeatureOccupied(loc));
                }
                Ok(())
            }
            Action::Pass if matches!(self.step, Step::Deploy | Step::Abbey | Step::MoveWagon) => Ok(()),
            Action::PlaceAbbey(at) => {
                if self.step != Step::Abbey {
                    return Err(wrong("place an abbey"));
                }
                if !abbey::is_hole(&self.board, at) {
                    return Err(PlayError::NotAHole(at));
                }
                Ok(())
            }
            Action::MoveWagon { at, to } => {
                if self.step != Step::MoveWagon {
                    return Err(wrong("move a wagon"));
                }
                self.wagon_check(at, to)
            }
            _ => rules::check(action, self.step, &self.ext, self.view()).map_err(|e| match e {
                PlayError::WrongStep { tried, .. } => wrong(tried),
                e => e,
            }),
        }
    }

    // ----- playing ----------------------------------------------------------

    /// Plays `action` if it is legal; otherwise says which rule it breaks and
    /// changes nothing.
    pub fn play(&mut self, action: Action) -> Result<(), PlayError> {
        self.play_with(action, &mut NoEvents)
    }

    /// As [`play`](Self::play), reporting what happened to `events`.
    pub fn play_with<E: EventSink>(&mut self, action: Action, events: &mut E) -> Result<(), PlayError> {
        self.check(action)?;
        self.apply(action, events);
        Ok(())
    }

    /// Plays an action known to be legal (from [`legal_actions`](Self::legal_actions)),
    /// for search. An illegal action leaves the state meaningless.
    pub fn play_unchecked(&mut self, action: Action) {
        self.apply(action, &mut NoEvents);
    }

    fn apply<E: EventSink>(&mut self, action: Action, events: &mut E) {
        match action {
            Action::Draw(kind) => {
                self.bag.remove(kind);
                self.drawn = Some(kind);
                self.step = Step::Place;
                if E::ENABLED {
                    events.push(Event::TileDrawn { tile: kind });
                }
            }
            Action::Place(p) => {
                let kind = self.drawn.expect("a tile is drawn at the Place step");
                self.placed = self.put_tile(kind, p);
                if E::ENABLED {
                    events.push(Event::TilePlaced { player: self.current as usize, tile: kind, placement: p });
                }
                if self.rules.has(Expansion::Traders) {
                    self.builder_extended();
                }
                if self.plan.deploy_follows_place() {
                    // Deploying always has a choice (passing): the step
                    // after placing in every plan the rules make, set
                    // without walking the plan.
                    self.step = Step::Deploy;
                } else {
                    self.next_step(Step::Place, events);
                }
            }
            Action::Discard => {
                let kind = self.drawn.take().expect("a tile is drawn at the Place step");
                self.turns += 1;
                if E::ENABLED {
                    events.push(Event::TileDiscarded { player: self.current as usize, tile: kind });
                }
                // The same player draws again, if anything is left to draw.
                self.step = Step::Draw;
                if rules::game_over(&self.bag) {
                    self.after_last_tile(events);
                }
            }
            Action::Deploy(figure, loc) => {
                let p = self.resolve(self.placed, loc).expect("deployment was checked");
                let player = self.acting as usize;
                self.deploy(figure, p);
                if let Location::Corner(corner) = loc {
                    let barn = abbey::Barn { player: player as u8, tile: self.placed as u16, corner, piece: p };
                    self.ext.abbey.barns.push(barn);
                    self.ext.abbey.new_barn = Some(p);
                }
                if E::ENABLED {
                    events.push(Event::FollowerDeployed {
                        player,
                        figure,
                        at: self.board.tile(self.placed).pos,
                        location: loc,
                    });
                }
                self.next_step(Step::Deploy, events);
            }
            Action::Pass if self.step == Step::Deploy => self.next_step(Step::Deploy, events),
            Action::PlaceAbbey(pos) => {
                self.ext.abbey.abbeys[self.acting as usize] -= 1;
                let kind = abbey::abbey_tile();
                let placement = Placement { pos, rot: Rotation::R0 };
                self.placed = self.put_tile(kind, placement);
                self.drawn = None;
                if E::ENABLED {
                    events.push(Event::TilePlaced { player: self.current as usize, tile: kind, placement });
                }
                // The turn goes on as after placing a tile.
                self.next_step(Step::Place, events);
            }
            Action::Pass if self.step == Step::Abbey => {
                if self.ext.abbey.final_round.is_some() {
                    // After the last tile there is nothing to draw: the turn is over.
                    self.finish_turn(events);
                } else {
                    self.next_step(Step::Abbey, events);
                }
            }
            Action::MoveWagon { at, to } => {
                let w = self.ext.abbey.waiting.remove(0);
                let tile = self.board.tile_index(at).expect("the move was checked");
                let p = self.resolve(tile, to).expect("the move was checked");
                self.followers.push(super::Follower { player: w.player, kind: FollowerKind::Wagon, piece: p });
                self.features.add_follower(p);
                if E::ENABLED {
                    let from = self.board.tile(w.tile as usize).pos;
                    events.push(Event::WagonMoved {
                        player: w.player as usize,
                        from,
                        from_location: w.location,
                        at,
                        location: to,
                    });
                }
                self.next_wagon(events);
            }
            Action::Pass if self.step == Step::MoveWagon => {
                let w = self.ext.abbey.waiting.remove(0);
                self.supply[FollowerKind::Wagon as usize][w.player as usize] += 1;
                if E::ENABLED {
                    let at = self.board.tile(w.tile as usize).pos;
                    events.push(Event::FollowerReturned { player: w.player as usize, at, location: w.location });
                }
                self.next_wagon(events);
            }
            _ => {
                let step = self.step;
                let table = rules::Table {
                    board: &self.board,
                    features: &mut self.features,
                    followers: &self.followers,
                    placed: self.placed,
                    acting: self.acting as usize,
                };
                if rules::apply(action, step, &mut self.ext, table, events) {
                    self.next_step(step, events);
                }
            }
        }
    }

    /// Enters the first step after `after` in the turn plan that has a decision
    /// to make, or ends the turn.
    #[inline]
    fn next_step<E: EventSink>(&mut self, after: Step, events: &mut E) {
        let plan = self.plan;
        for &step in plan.after(after) {
            if self.enter(step) {
                self.step = step;
                return;
            }
        }
        self.end_turn(events);
    }

    /// Prepares `step`; false when it has nothing to decide this turn.
    #[inline]
    fn enter(&mut self, step: Step) -> bool {
        match step {
            // Always entered: deploying is optional, so passing is always a choice.
            Step::Draw | Step::Place | Step::Deploy | Step::GameOver => true,
            // Abbey & Mayor: offered when the player holds an abbey and there is a hole.
            Step::Abbey => {
                self.ext.abbey.abbeys[self.acting as usize] > 0 && abbey::holes(&self.board).next().is_some()
            }
            Step::MoveWagon => !self.ext.abbey.waiting.is_empty(),
            step => {
                let view = crate::rules::View { board: &self.board, features: &self.features, placed: self.placed };
                rules::enter(step, &self.rules, &mut self.ext, view)
            }
        }
    }

    /// Step 5: scores every feature the turn touched that is now complete,
    /// then passes the turn to whoever the rules say plays next.
    fn end_turn<E: EventSink>(&mut self, events: &mut E) {
        let t = *self.board.tile(self.placed);
        let n = t.kind.info().pieces() as PieceId;
        if self.rules.has(Expansion::Traders) {
            self.traders_before_scoring(events);
        }
        for p in t.first_piece..t.first_piece + n {
            if matches!(self.features.info(p).kind, FeatureKind::Road | FeatureKind::City) {
                self.score_if_complete(p, events);
            }
        }
        if rules::touched_any(&self.rules, &self.ext, self.view()) {
            let mut touched = rules::Touched::default();
            rules::touched(&self.ext, self.view(), &mut touched);
            for p in touched.pieces() {
                self.score_if_complete(p, events);
            }
        }
        self.score_monasteries_around(t.pos, events);
        if self.rules.has(Expansion::Abbey) {
            self.score_barns(events);
            if self.rules.has(Expansion::Traders) {
                self.return_lonely_specials(events);
            }
            if !self.ext.abbey.waiting.is_empty() {
                self.order_waiting_wagons();
                self.next_wagon(events);
                return;
            }
        }
        self.finish_turn(events);
    }

    /// Passes the turn to whoever the rules say plays next, or ends the game.
    fn finish_turn<E: EventSink>(&mut self, events: &mut E) {
        self.turns += 1;
        self.drawn = None;
        let over = rules::game_over(&self.bag);
        if !self.rules.has(Expansion::Traders) || !self.second_turn(over, events) {
            self.current = rules::next_player(&self.rules, self.current);
        }
        self.acting = self.current;
        if over {
            self.after_last_tile(events);
        } else {
            self.begin_turn();
        }
    }

    /// The bag is empty: the game ends, or (Abbey & Mayor) each player in
    /// turn, from the one after the last tile's, may still place an abbey.
    fn after_last_tile<E: EventSink>(&mut self, events: &mut E) {
        if !self.rules.has(Expansion::Abbey) || self.rules.abbeys() == 0 {
            self.end_game(events);
            return;
        }
        let players = self.rules.players() as u8;
        let mut left = match self.ext.abbey.final_round {
            None => players,
            Some(n) => n.saturating_sub(1),
        };
        loop {
            self.ext.abbey.final_round = Some(left);
            if left == 0 {
                self.end_game(events);
                return;
            }
            if self.enter(Step::Abbey) {
                self.step = Step::Abbey;
                return;
            }
            // This player has no abbey or no hole: the next one is offered.
            left -= 1;
            self.current = rules::next_player(&self.rules, self.current);
            self.acting = self.current;
        }
    }

    /// Wagons whose features scored move in seat order from the player
    /// whose turn it is; one player's wagons in the order the tiles they
    /// stood on were placed (mostly the order they were deployed in, as
    /// JCloisterZone numbers them).
    fn order_waiting_wagons(&mut self) {
        let (n, current) = (self.rules.players() as u8, self.current);
        self.ext.abbey.waiting.sort_by_key(|w| ((w.player + n - current) % n, w.tile));
    }

    /// Asks the next waiting wagon's owner where it goes; a wagon with
    /// nowhere to go goes back to its owner. Once none waits, the turn ends.
    fn next_wagon<E: EventSink>(&mut self, events: &mut E) {
        while let Some(&w) = self.ext.abbey.waiting.first() {
            let mut any = false;
            self.wagon_targets(|_, _, _| any = true);
            if any {
                self.step = Step::MoveWagon;
                self.acting = w.player;
                return;
            }
            self.ext.abbey.waiting.remove(0);
            self.supply[FollowerKind::Wagon as usize][w.player as usize] += 1;
            if E::ENABLED {
                let at = self.board.tile(w.tile as usize).pos;
                events.push(Event::FollowerReturned { player: w.player as usize, at, location: w.location });
            }
        }
        self.acting = self.current;
        self.finish_turn(events);
    }

    /// Traders & Builders: whether the player plays a second turn now (their
    /// tile extended their builder's feature, in a first turn). A second
    /// turn gives no third, and none comes once the bag is empty (`over`):
    /// the last round of abbeys, if any, starts with the next player.
    #[inline(never)]
    fn second_turn<E: EventSink>(&mut self, over: bool, events: &mut E) -> bool {
        use crate::rules::traders::SecondTurn;
        let earned = self.ext.traders.second_turn == SecondTurn::Earned && !over;
        self.ext.traders.second_turn = if earned { SecondTurn::Playing } else { SecondTurn::No };
        if earned && E::ENABLED {
            events.push(Event::SecondTurn { player: self.current as usize });
        }
        earned
    }

    /// Traders & Builders, on placing a tile: it earns a second turn if it
    /// extends a road or city holding the player's builder (a builder put
    /// there before this turn: the tile is placed before any deployment).
    #[inline(never)]
    fn builder_extended(&mut self) {
        use crate::rules::traders::SecondTurn;
        let player = self.current;
        let on_board = self.rules.figure_count(FollowerKind::Builder)
            - self.supply[FollowerKind::Builder as usize][player as usize];
        if self.ext.traders.second_turn != SecondTurn::No || on_board == 0 {
            return;
        }
        let t = *self.board.tile(self.placed);
        for f in &self.followers {
            if f.kind != FollowerKind::Builder || f.player != player {
                continue;
            }
            let root = self.features.find(f.piece);
            for local in 0..t.kind.info().pieces() {
                if self.features.find(t.first_piece + local as PieceId) == root {
                    self.ext.traders.second_turn = SecondTurn::Earned;
                    return;
                }
            }
        }
    }

    /// Traders & Builders, before the turn's scoring: builders and pigs
    /// whose owner has no follower left beside them go back (only a ferry
    /// move parts a feature), and the player takes the goods of the cities
    /// the turn completed.
    #[inline(never)]
    fn traders_before_scoring<E: EventSink>(&mut self, events: &mut E) {
        if crate::rules::ferries::touched_any(&self.ext.ferries) {
            self.return_lonely_specials(events);
        }
        // Most turns complete no city: look closer only when one does.
        let t = *self.board.tile(self.placed);
        let pieces = t.first_piece..t.first_piece + t.kind.info().pieces() as PieceId;
        let mut completed = pieces
            .clone()
            .any(|p| self.features.info(p).kind == FeatureKind::City && self.features.totals(p).open == 0);
        let others = rules::touched_any(&self.rules, &self.ext, self.view());
        if !completed && !others {
            return;
        }
        let mut touched = rules::Touched::default();
        for p in pieces {
            if self.features.info(p).kind == FeatureKind::City {
                touched.push(p);
            }
        }
        if others {
            rules::touched(&self.ext, self.view(), &mut touched);
            completed = true;
        }
        if completed {
            self.take_goods(&touched, events);
        }
    }

    /// Builders and pigs go back when their owner has no follower left on
    /// their feature.
    pub(super) fn return_lonely_specials<E: EventSink>(&mut self, events: &mut E) {
        let mut i = 0;
        while i < self.followers.len() {
            let f = self.followers[i];
            let lonely = matches!(f.kind, FollowerKind::Builder | FollowerKind::Pig)
                && !crate::rules::traders::has_follower(
                    &self.features,
                    &self.followers,
                    f.player,
                    self.features.find(f.piece),
                );
            if lonely {
                self.send_back(i, events);
            } else {
                i += 1;
            }
        }
    }

    /// Whether a builder or pig of the acting player may join the feature
    /// of piece `p` of the tile just placed, or why not.
    fn special_check(&self, kind: FollowerKind, p: PieceId) -> Result<(), &'static str> {
        let player = self.acting;
        match kind {
            FollowerKind::Builder => {
                crate::rules::traders::builder_may_join(&self.features, &self.followers, player, p)
            }
            _ => crate::rules::traders::pig_may_join(&self.features, &self.followers, player, p),
        }
    }

    /// Whether a barn may stand at `loc` of the tile just placed.
    fn barn_check(&self, loc: Location) -> Result<(), PlayError> {
        let Location::Corner(c) = loc else {
            let why = "a barn stands on a corner of the tile where four fields meet";
            return Err(PlayError::WrongFeatureForFigure { figure: FollowerKind::Barn, location: loc, why });
        };
        let p = abbey::barn_corner(&self.board, self.placed, c).ok_or(PlayError::NotAFieldCorner(loc))?;
        if abbey::has_barn(&self.features, &self.followers, p) {
            return Err(PlayError::FarmHasBarn(loc));
        }
        Ok(())
    }

    /// Whether the waiting wagon may move to `to` at `at`, or why not.
    fn wagon_check(&self, at: Pos, to: Location) -> Result<(), PlayError> {
        let w = self.ext.abbey.waiting[0];
        let bad = |why| Err(PlayError::WagonMove { at, to, why });
        let from = self.board.tile(w.tile as usize).pos;
        let near = (at.x - from.x).abs() <= 1 && (at.y - from.y).abs() <= 1;
        if !near && self.rules.wagon_move() == WagonMove::C2 {
            return bad("a wagon moves to the tile it stood on or one of the eight around it");
        }
        let Some(tile) = self.board.tile_index(at) else {
            return bad("there is no tile there");
        };
        let Some(p) = self.resolve(tile, to) else {
            return bad("that tile has no such feature");
        };
        let mut ok = false;
        self.wagon_targets(|_, _, q| ok |= q == p);
        if ok {
            return Ok(());
        }
        if to.kind() == FeatureKind::Field {
            return bad("a wagon goes on a road, a city or a monastery, never a field");
        }
        if self.features.totals(p).followers > 0 {
            return bad("a wagon goes only where no figure stands");
        }
        let finished = match to.kind() {
            FeatureKind::Monastery => at.surrounding().all(|q| self.board.tile_index(q).is_some()),
            _ => self.features.totals(p).open == 0,
        };
        if self.rules.wagon_move() == WagonMove::C2 || finished {
            return bad("that feature is finished");
        }
        bad("under the first edition's rule (C1) a wagon moves only to a feature linked to the one scored")
    }

    /// Where the first waiting wagon may go, as the rules in play say.
    fn wagon_targets(&self, f: impl FnMut(Pos, Location, PieceId)) {
        let w = self.ext.abbey.waiting[0];
        match self.rules.wagon_move() {
            WagonMove::C2 => abbey::wagon_targets(&self.board, &self.features, w.tile as usize, f),
            WagonMove::C1 => abbey::linked_wagon_targets(&self.board, &self.features, w.piece, f),
        }
    }

    /// Enters the first step of the turn plan with a decision to make: a
    /// step before the draw if the rules in play have one that applies
    /// now, otherwise the draw.
    #[inline]
    pub(super) fn begin_turn(&mut self) {
        if self.plan.steps()[0] == Step::Draw {
            self.step = Step::Draw;
            return;
        }
        self.begin_turn_before_the_draw();
    }

    /// A turn plan with steps before the draw (Abbey & Mayor's abbey).
    #[inline(never)]
    fn begin_turn_before_the_draw(&mut self) {
        let plan = self.plan;
        for &step in plan.steps() {
            if step == Step::Draw || self.enter(step) {
                self.step = step;
                return;
            }
        }
    }

    pub(super) fn view(&self) -> rules::View<'_> {
        rules::View { board: &self.board, features: &self.features, placed: self.placed }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Actor;
    use crate::rules::TurnPlan;
    use crate::setup::{Edition, Rules};

    /// A plan with a decision before the draw, as an expansion may make it
    /// (the abbey instead of a draw): here the deploy step, moved first.
    #[test]
    fn a_step_before_the_draw_is_the_player_s_and_the_draw_follows_it() {
        let mut state = State::new(Rules::new(2, &[], Edition::default()).unwrap());
        state.plan = TurnPlan::from_steps(&[Step::Deploy, Step::Draw, Step::Place]);
        state.begin_turn();
        assert_eq!(state.step(), Step::Deploy);
        assert_eq!(state.actor(), Some(Actor::Player(0)));
        assert!(state.legal_action_list().contains(&Action::Pass));
        state.play(Action::Pass).unwrap();
        assert_eq!((state.step(), state.actor()), (Step::Draw, Some(Actor::Chance)));
        let drawn = state.legal_action_list()[0];
        state.play(drawn).unwrap();
        let place = state.legal_action_list()[0];
        state.play(place).unwrap();
        // The turn ended after placing; the next player starts before the draw.
        assert_eq!((state.step(), state.actor()), (Step::Deploy, Some(Actor::Player(1))));
        assert_eq!(state.turns(), 1);
    }

    /// The bag holding exactly these tiles.
    fn with_bag(mut state: State, tiles: &[(&str, u8)]) -> State {
        for kind in crate::tile::TileKind::all() {
            let want = tiles.iter().find(|(id, _)| *id == kind.id()).map_or(0, |t| t.1);
            while state.bag.count(kind) > want {
                state.bag.remove(kind);
            }
        }
        state
    }

    /// JCloisterZone's abbey-merge game up to its hole at [1, -1], with the
    /// bag empty after it: the last tile is Bob's.
    fn abbey_round(alice_takes_it: bool) -> State {
        let rules = Rules::new(2, &[crate::setup::Expansion::Abbey], Edition::default()).unwrap();
        let mut state = with_bag(State::new(rules), &[("D", 1), ("P", 1), ("U", 1), ("N", 3)]);
        let turns = [
            ("D", "place at [1, 0] turned 0", "deploy on city:N"),
            ("P", "place at [0, -1] turned 180", "deploy on city:E"),
            ("U", "place at [2, 0] turned 0", "pass"),
            ("N", "place at [2, -1] turned 0", "deploy on city:N"),
            ("N", "place at [2, -2] turned 270", "pass"),
            ("N", "place at [1, -2] turned 180", "pass"),
        ];
        for (tile, place, deploy) in turns {
            state.play(Action::Draw(crate::tile::TileKind::parse(tile).unwrap())).unwrap();
            state.play(place.parse().unwrap()).unwrap();
            state.play(deploy.parse().unwrap()).unwrap();
        }
        // The bag is empty: from the player after the last tile's, each may still place an abbey.
        assert_eq!((state.step(), state.actor()), (Step::Abbey, Some(Actor::Player(0))));
        assert!(!state.is_over());
        if alice_takes_it {
            state.play("abbey at [1, -1]".parse().unwrap()).unwrap();
            state.play(Action::Pass).unwrap();
        } else {
            state.play(Action::Pass).unwrap();
        }
        state
    }

    #[test]
    fn after_the_last_tile_each_player_in_turn_may_place_an_abbey() {
        // Alice fills the only hole: Bob is offered nothing, and the game ends.
        let state = abbey_round(true);
        assert!(state.is_over());
        assert_eq!(state.scores(), &[2, 10]);
        assert_eq!(state.turns(), 7);
        // Alice passes: Bob may still place his, then the game ends.
        let mut state = abbey_round(false);
        assert_eq!((state.step(), state.actor()), (Step::Abbey, Some(Actor::Player(1))));
        assert_eq!(state.legal_action_list(), vec![Action::PlaceAbbey(Pos::new(1, -1)), Action::Pass]);
        state.play("abbey at [1, -1]".parse().unwrap()).unwrap();
        state.play(Action::Pass).unwrap();
        assert!(state.is_over());
        assert_eq!(state.scores(), &[2, 10]);
        assert_eq!(state.abbeys(), &[1, 0]);
        assert_eq!(state.turns(), 8);
    }

    /// Traders & Builders: the last tile extends the player's builder, but
    /// an empty bag gives no second turn: the last round of abbeys starts
    /// with the next player.
    #[test]
    fn no_second_turn_after_the_last_tile() {
        use crate::setup::Expansion::{Abbey, Traders};
        let rules = Rules::new(2, &[Abbey, Traders], Edition::default()).unwrap();
        let mut state = with_bag(State::new(rules), &[("U", 3), ("B", 4)]);
        let turns = [
            ("U", "place at [1, 0] turned 0", "deploy on road:E"),
            ("B", "place at [0, 1] turned 0", "pass"),
            ("U", "place at [2, 0] turned 0", "deploy builder on road:E"),
            ("B", "place at [2, 1] turned 0", "pass"),
            ("B", "place at [0, 2] turned 0", "pass"),
            ("B", "place at [1, 2] turned 0", "pass"),
            ("U", "place at [3, 0] turned 0", "pass"),
        ];
        for (tile, place, deploy) in turns {
            if state.step() == Step::Abbey {
                state.play(Action::Pass).unwrap();
            }
            state.play(Action::Draw(crate::tile::TileKind::parse(tile).unwrap())).unwrap();
            state.play(place.parse().unwrap()).unwrap();
            state.play(deploy.parse().unwrap()).unwrap();
        }
        assert!(state.bag.is_empty());
        assert_eq!((state.step(), state.actor()), (Step::Abbey, Some(Actor::Player(1))));
        assert!(!state.is_second_turn());
    }
}
