//! The turn: legal actions, checks and playing, step by step along the
//! turn plan the rules in play give. The base game's steps are played
//! here; every other step, and each point where an expansion adds to a
//! turn, is asked of [`crate::rules`].

use crate::action::{Action, Location, Step};
use crate::board::{Misfit, Placement};
use crate::error::PlayError;
use crate::event::{Event, EventSink, NoEvents};
use crate::features::PieceId;
use crate::rules;
use crate::tile::TileKind;

use super::{FollowerKind, State};

impl State {
    /// Appends every legal action of the current step to `out`.
    pub fn legal_actions(&self, out: &mut Vec<Action>) {
        match self.step {
            Step::GameOver => {}
            Step::Draw => out.extend(self.bag.drawable().map(Action::Draw)),
            Step::Place => self.placements(out),
            Step::Deploy => self.deployments(out),
            step => rules::legal_actions(step, self, out),
        }
    }

    /// The Place step's actions: each legal placement, or discarding a
    /// tile that fits nowhere. Out of line, so that the other steps' lists
    /// do not save the registers it uses.
    #[inline(never)]
    fn placements(&self, out: &mut Vec<Action>) {
        let kind = self.drawn.expect("a tile is drawn at the Place step");
        let start = out.len();
        if self.placing_restricted(kind) {
            self.for_each_legal_placement(kind, |p| out.push(Action::Place(p)));
        } else {
            self.board.extend_placements(kind, out, Action::Place);
        }
        if out.len() == start {
            out.push(Action::Discard);
        }
    }

    /// The Deploy step's actions: each figure on each free piece, and passing.
    #[inline]
    fn deployments(&self, out: &mut Vec<Action>) {
        let seat = self.acting as usize;
        let spots = self.spots();
        if self.supply[FollowerKind::Normal as usize][seat] > 0 {
            out.extend(spots.names().map(|l| Action::Deploy(FollowerKind::Normal, l)));
        }
        if self.plan.other_figures() {
            rules::other_deployments(self, &spots, out);
        }
        out.push(Action::Pass);
    }

    /// Whether placing `kind` asks the rules beyond its edges; a flag test
    /// in games whose tiles have no such rule.
    #[inline]
    pub(crate) fn placing_restricted(&self, kind: TileKind) -> bool {
        self.plan.placing_rules() && rules::restricts_placement(kind.info())
    }

    /// Calls `f` with each legal placement of `kind`: those its edges allow,
    /// and the rules too where they restrict it.
    fn for_each_legal_placement(&self, kind: TileKind, mut f: impl FnMut(Placement)) {
        if self.placing_restricted(kind) {
            self.board.for_each_placement(kind, |p| {
                if rules::check_placement(self, kind, p).is_ok() {
                    f(p);
                }
            });
        } else {
            self.board.for_each_placement(kind, f);
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
        let wrong = |tried| self.wrong_step(tried);
        match action {
            Action::Draw(kind) => {
                if self.step != Step::Draw {
                    return Err(wrong("draw a tile"));
                }
                if self.bag.count(kind) == 0 {
                    return Err(PlayError::NotInBag(kind));
                }
                if !self.bag.may_draw(kind) {
                    if let Some(before) = self.bag.drawable().next() {
                        return Err(PlayError::NotDrawnYet { tile: kind, before });
                    }
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
                })?;
                if self.placing_restricted(kind) {
                    rules::check_placement(self, kind, p)?;
                }
                Ok(())
            }
            Action::Discard => {
                if self.step != Step::Place {
                    return Err(wrong("discard a tile"));
                }
                let kind = self.drawn.expect("a tile is drawn at the Place step");
                let fits = if self.placing_restricted(kind) {
                    let mut any = false;
                    self.for_each_legal_placement(kind, |_| any = true);
                    any
                } else {
                    self.board.fits_somewhere(kind)
                };
                if fits {
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
                        kind if self.rules.figure_count(kind) == 0 => PlayError::FigureNotInGame {
                            figure: kind,
                            expansion: rules::expansion_of(kind).filter(|e| !self.rules.has(*e)),
                        },
                        kind => PlayError::NoFigureInSupply(kind),
                    });
                }
                if kind != FollowerKind::Normal {
                    return rules::check_deployment(kind, loc, self);
                }
                self.check_follower(kind, loc).map(|_| ())
            }
            Action::Pass if self.step == Step::Deploy => Ok(()),
            _ => rules::check(action, self),
        }
    }

    /// Whether a follower (or a figure that deploys as one) may go on `loc`
    /// of the tile just placed: a free feature the figure may stand on.
    pub(crate) fn check_follower(&self, kind: FollowerKind, loc: Location) -> Result<PieceId, PlayError> {
        if let Location::Corner(_) = loc {
            let why = "a follower stands on a feature of the tile, not on its corner";
            return Err(PlayError::WrongFeatureForFigure { figure: kind, location: loc, why });
        }
        let p = self.resolve(self.placed, loc).ok_or(PlayError::NoSuchFeature(loc))?;
        rules::stands_on(kind, loc.kind()).map_err(|why| PlayError::WrongFeatureForFigure {
            figure: kind,
            location: loc,
            why,
        })?;
        if !self.may_deploy_on(p) {
            return Err(PlayError::FeatureOccupied(loc));
        }
        Ok(p)
    }

    /// The refusal of an action tried at another step than its own.
    pub(crate) fn wrong_step(&self, tried: &'static str) -> PlayError {
        if self.step == Step::GameOver {
            PlayError::GameOver
        } else {
            PlayError::WrongStep { tried, step: self.step }
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
            Action::Draw(kind) => self.draw(kind, events),
            Action::Place(p) => self.place(p, events),
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
                if figure != FollowerKind::Normal {
                    rules::deployed(figure, loc, p, self);
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
            _ => rules::apply(action, self, events),
        }
    }

    /// Chance's draw of `kind` (known to be drawable).
    #[inline]
    pub(crate) fn draw<E: EventSink>(&mut self, kind: TileKind, events: &mut E) {
        self.bag.remove(kind);
        self.drawn = Some(kind);
        self.step = Step::Place;
        if E::ENABLED {
            events.push(Event::TileDrawn { tile: kind });
        }
    }

    /// Places the drawn tile (known to fit there).
    #[inline]
    pub(crate) fn place<E: EventSink>(&mut self, p: Placement, events: &mut E) {
        let kind = self.drawn.expect("a tile is drawn at the Place step");
        self.placed = self.put_tile(kind, p);
        if E::ENABLED {
            events.push(Event::TilePlaced { player: self.current as usize, tile: kind, placement: p });
        }
        rules::tile_placed(self);
        if self.plan.deploy_follows_place() {
            // Deploying always has a choice (passing): the step
            // after placing in every plan the rules make, set
            // without walking the plan.
            self.step = Step::Deploy;
        } else {
            self.next_step(Step::Place, events);
        }
    }

    /// Enters the first step after `after` in the turn plan that has a decision
    /// to make, or ends the turn.
    #[inline]
    pub(crate) fn next_step<E: EventSink>(&mut self, after: Step, events: &mut E) {
        // By index, not through a copy of the plan (entering a step needs
        // the state mutably); the plan does not change during a game.
        for i in self.plan.indices_after(after) {
            let step = self.plan.steps[i];
            if self.enter(step) {
                self.step = step;
                return;
            }
        }
        self.end_turn(events);
    }

    /// Prepares `step`; false when it has nothing to decide this turn.
    #[inline]
    pub(crate) fn enter(&mut self, step: Step) -> bool {
        match step {
            // Always entered: deploying is optional, so passing is always a choice.
            Step::Draw | Step::Place | Step::Deploy | Step::GameOver => true,
            step => rules::enter(step, self),
        }
    }

    /// Step 5: scores every feature the turn touched that is now complete,
    /// then passes the turn to whoever the rules say plays next (unless an
    /// expansion has a decision to ask first).
    fn end_turn<E: EventSink>(&mut self, events: &mut E) {
        let t = self.board.tile(self.placed);
        let (at, roads_and_cities) = (t.pos, t.pieces_in(t.info().edge_pieces));
        rules::before_scoring(self, events);
        // Its roads and cities: what a tile can complete on its own.
        for p in roads_and_cities {
            self.score_if_complete(p, events);
        }
        if rules::touched_any(self) {
            let mut touched = rules::Touched::default();
            rules::touched(self, &mut touched);
            for p in touched.pieces() {
                self.score_if_complete(p, events);
            }
        }
        self.score_monasteries_around(at, events);
        if rules::after_scoring(self, events) {
            return;
        }
        self.finish_turn(events);
    }

    /// Passes the turn to whoever the rules say plays next, or ends the game.
    pub(crate) fn finish_turn<E: EventSink>(&mut self, events: &mut E) {
        self.turns += 1;
        self.drawn = None;
        let over = rules::game_over(&self.bag);
        self.current = rules::next_player(self, over, events);
        self.acting = self.current;
        if over {
            self.after_last_tile(events);
        } else {
            self.begin_turn();
        }
    }

    /// The bag is empty: the game ends, unless the rules in play still
    /// have decisions for the players (a last round).
    fn after_last_tile<E: EventSink>(&mut self, events: &mut E) {
        if !rules::after_last_tile(self, events) {
            self.end_game(events);
        }
    }

    /// Enters the first step of the turn plan with a decision to make: a
    /// step before the draw if the rules in play have one that applies
    /// now, otherwise the draw.
    #[inline]
    pub(crate) fn begin_turn(&mut self) {
        if self.plan.steps()[0] == Step::Draw {
            self.step = Step::Draw;
            return;
        }
        self.begin_turn_before_the_draw();
    }

    /// A turn plan with steps before the draw (an expansion's decision
    /// instead of drawing).
    #[inline(never)]
    fn begin_turn_before_the_draw(&mut self) {
        for i in 0..self.plan.steps().len() {
            let step = self.plan.steps[i];
            if step == Step::Draw || self.enter(step) {
                self.step = step;
                return;
            }
        }
    }

    pub(crate) fn view(&self) -> rules::View<'_> {
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
    /// (a decision instead of a draw): here the deploy step, moved first.
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
}
