//! The state of a game and the turn it is in.
//!
//! A game is its [`Rules`] plus a sequence of actions, chance's draws among
//! them, so the state holds no random generator and no bag order: it is
//! exactly what every player may see. It keeps no history either, so it is
//! cheap to clone for search; records live beside it ([`crate::record`]).

use crate::action::{Action, Actor, Location, Step};
use crate::bag::Bag;
use crate::board::{Board, Misfit, PlacedTile, Placement};
use crate::error::PlayError;
use crate::event::{Event, EventSink, NoEvents, Scoring};
use crate::features::{Features, Joint, PieceId, PieceSet, Totals, NONE};
use crate::ferries::Ferries;
use crate::geometry::{HalfEdge, Pos, Rotation, Side};
use crate::setup::{Rules, FOLLOWERS_PER_PLAYER, MAX_PLAYERS, TINY_CITY_VARIANT};
use crate::tile::{catalogue, FeatureKind, TileKind, NO_PIECE};

/// A follower standing on the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Follower {
    pub player: u8,
    pub piece: PieceId,
}

/// The turn plan: the steps of a turn after the draw, in order. A step is
/// entered only when it has something to decide (see `State::enter`).
const TURN_PLAN: [Step; 4] = [Step::Place, Step::Deploy, Step::PlaceFerry, Step::MoveFerries];

/// Points a completed city scores per tile and per pennant.
const CITY_POINTS: u32 = 2;
/// Points a completed monastery scores.
const MONASTERY_POINTS: u32 = 9;
/// Points a farm scores per completed city.
const FARM_POINTS: u32 = 3;

/// Equality is structural: two states are equal when every part is, which
/// is what the conformance tests compare after clone-then-play and replay.
#[derive(Debug, PartialEq, Eq)]
pub struct State {
    pub(crate) rules: Rules,
    pub(crate) board: Board,
    pub(crate) features: Features,
    pub(crate) bag: Bag,
    scores: [u32; MAX_PLAYERS],
    supply: [u8; MAX_PLAYERS],
    pub(crate) followers: Vec<Follower>,
    current: u8,
    step: Step,
    drawn: Option<TileKind>,
    /// Index of the tile placed this turn (valid after the Place step).
    pub(crate) placed: usize,
    turns: u32,
    pub(crate) ferries: Ferries,
}

impl Clone for State {
    fn clone(&self) -> Self {
        let mut s = State {
            rules: self.rules,
            board: self.board.clone(),
            features: self.features.clone(),
            bag: self.bag.clone(),
            scores: self.scores,
            supply: self.supply,
            followers: self.followers.clone(),
            current: self.current,
            step: self.step,
            drawn: self.drawn,
            placed: self.placed,
            turns: self.turns,
            ferries: self.ferries.clone(),
        };
        s.followers.reserve(self.followers.capacity() - self.followers.len());
        s
    }

    /// Copies `source` into this state's buffers without allocating (once
    /// they are large enough): search copies a state every iteration.
    fn clone_from(&mut self, source: &Self) {
        self.rules = source.rules;
        self.board.clone_from(&source.board);
        self.features.clone_from(&source.features);
        self.bag.clone_from(&source.bag);
        self.scores = source.scores;
        self.supply = source.supply;
        self.followers.clone_from(&source.followers);
        self.current = source.current;
        self.step = source.step;
        self.drawn = source.drawn;
        self.placed = source.placed;
        self.turns = source.turns;
        self.ferries.clone_from(&source.ferries);
    }
}

/// Tiles spanned by a feature, each once.
#[derive(Default)]
struct TileSet([u64; 4]);

impl TileSet {
    fn insert(&mut self, tile: u16) -> bool {
        let (w, b) = (tile as usize / 64 % 4, 1u64 << (tile % 64));
        let new = self.0[w] & b == 0;
        self.0[w] |= b;
        new
    }

    fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
}

#[inline]
pub(crate) fn rotate_sides(mask: u8, rot: Rotation) -> u8 {
    let (m, q) = (mask as u16 & 0xF, rot.quarters());
    ((m << q | m >> (4 - q)) & 0xF) as u8
}

#[inline]
fn rotate_halves(mask: u8, rot: Rotation) -> u8 {
    let q = 2 * rot.quarters() as u32;
    mask.rotate_left(q)
}

impl State {
    /// A new game: the start tile at [0, 0], the rest of the tiles in the bag,
    /// the first player about to draw.
    pub fn new(rules: Rules) -> State {
        let bag = Bag::for_rules(&rules);
        let pieces = (bag.total() as usize + 1) * catalogue().max_pieces;
        assert!(pieces <= PieceSet::CAPACITY, "piece sets hold every piece of a game");
        let mut state = State {
            rules,
            board: Board::new(),
            features: Features::with_capacity(pieces),
            bag,
            scores: [0; MAX_PLAYERS],
            supply: [0; MAX_PLAYERS],
            followers: Vec::with_capacity(MAX_PLAYERS * FOLLOWERS_PER_PLAYER as usize),
            current: 0,
            step: Step::Draw,
            drawn: None,
            placed: 0,
            turns: 0,
            ferries: Ferries::default(),
        };
        for s in &mut state.supply[..rules.players()] {
            *s = FOLLOWERS_PER_PLAYER;
        }
        let start = Bag::start_tile();
        state.put_tile(start, Placement { pos: Pos::ORIGIN, rot: Rotation::R0 });
        state
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn bag(&self) -> &Bag {
        &self.bag
    }

    pub fn step(&self) -> Step {
        self.step
    }

    pub fn is_over(&self) -> bool {
        self.step == Step::GameOver
    }

    /// The seat whose turn it is.
    pub fn current_player(&self) -> usize {
        self.current as usize
    }

    /// Who acts now, or `None` once the game is over.
    pub fn actor(&self) -> Option<Actor> {
        match self.step {
            Step::GameOver => None,
            Step::Draw => Some(Actor::Chance),
            _ => Some(Actor::Player(self.current as usize)),
        }
    }

    /// The tile drawn this turn, until the turn ends.
    pub fn drawn(&self) -> Option<TileKind> {
        self.drawn
    }

    /// The tile placed this turn, during the steps after placing.
    pub fn placed_tile(&self) -> Option<&PlacedTile> {
        matches!(self.step, Step::Deploy | Step::PlaceFerry | Step::MoveFerries).then(|| self.board.tile(self.placed))
    }

    /// Points of each player so far, without end-of-game scoring.
    pub fn scores(&self) -> &[u32] {
        &self.scores[..self.rules.players()]
    }

    /// Followers each player has in supply.
    pub fn supply(&self) -> &[u8] {
        &self.supply[..self.rules.players()]
    }

    /// Followers on the board.
    pub fn followers(&self) -> &[Follower] {
        &self.followers
    }

    /// Turns played, discards included (entries of a game record).
    pub fn turns(&self) -> u32 {
        self.turns
    }

    pub fn features(&self) -> &Features {
        &self.features
    }

    pub fn ferries(&self) -> &Ferries {
        &self.ferries
    }

    // ----- pieces and their names -------------------------------------------

    /// The sides a road or city piece reaches, as it lies on the board.
    #[inline]
    pub(crate) fn piece_sides(&self, p: PieceId) -> u8 {
        let info = self.features.info(p);
        let t = self.board.tile(info.tile as usize);
        rotate_sides(t.kind.info().def.features[info.local as usize].sides, t.rot)
    }

    /// The piece across `side` of the tile at index `tile`, on its neighbour.
    #[inline]
    pub(crate) fn piece_across(&self, tile: usize, side: Side) -> Option<PieceId> {
        let t = self.board.tile(tile);
        let n = self.board.tile(self.board.tile_index(t.pos.step(side))?);
        let local = n.kind.info().oriented[n.rot.quarters() as usize].side_piece[side.opposite().index()];
        (local != NO_PIECE).then_some(n.first_piece + local as PieceId)
    }

    /// Where a piece lies and its canonical name there.
    pub fn piece_location(&self, p: PieceId) -> (Pos, Location) {
        let info = self.features.info(p);
        let t = self.board.tile(info.tile as usize);
        (t.pos, location_of(t, info.local))
    }

    /// The piece named `loc` on the tile at index `tile`.
    pub fn resolve(&self, tile: usize, loc: Location) -> Option<PieceId> {
        let t = self.board.tile(tile);
        let k = t.kind.info();
        let o = &k.oriented[t.rot.quarters() as usize];
        let local = match loc {
            Location::Road(s) | Location::City(s) => o.side_piece[s.index()],
            Location::Field(h) => o.half_piece[h.index()],
            Location::Monastery => k.monastery,
        };
        if local == NO_PIECE || k.def.features[local as usize].kind != loc.kind() {
            return None;
        }
        Some(t.first_piece + local as PieceId)
    }

    /// The feature totals of the piece named `loc` on the tile at `at`.
    pub fn feature_at(&self, at: Pos, loc: Location) -> Option<Totals> {
        let p = self.resolve(self.board.tile_index(at)?, loc)?;
        Some(self.features.totals(p))
    }

    // ----- legal actions ----------------------------------------------------

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
                if self.supply[self.current as usize] > 0 {
                    self.for_each_deployment(|l| out.push(Action::Deploy(l)));
                }
                out.push(Action::Pass);
            }
            Step::PlaceFerry | Step::MoveFerries => crate::ferries::legal_actions(self, out),
        }
    }

    /// All legal actions of the current step, in a new vector.
    pub fn legal_action_list(&self) -> Vec<Action> {
        let mut v = Vec::new();
        self.legal_actions(&mut v);
        v
    }

    fn for_each_deployment(&self, mut f: impl FnMut(Location)) {
        let t = self.board.tile(self.placed);
        let n = t.kind.info().pieces();
        for local in 0..n {
            let p = t.first_piece + local as PieceId;
            if self.features.totals(p).followers == 0 {
                f(location_of(t, local as u8));
            }
        }
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
            Action::Deploy(loc) => {
                if self.step != Step::Deploy {
                    return Err(wrong("deploy a follower"));
                }
                if self.supply[self.current as usize] == 0 {
                    return Err(PlayError::NoFollowerInSupply);
                }
                let p = self.resolve(self.placed, loc).ok_or(PlayError::NoSuchFeature(loc))?;
                if self.features.totals(p).followers > 0 {
                    return Err(PlayError::FeatureOccupied(loc));
                }
                Ok(())
            }
            Action::Pass => match self.step {
                Step::Deploy | Step::MoveFerries => Ok(()),
                _ => Err(wrong("pass")),
            },
            Action::PlaceFerry(_) | Action::MoveFerry { .. } => {
                crate::ferries::check(self, action).map_err(|e| match e {
                    PlayError::WrongStep { tried, .. } => wrong(tried),
                    e => e,
                })
            }
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
                self.next_step(Step::Place, events);
            }
            Action::Discard => {
                let kind = self.drawn.take().expect("a tile is drawn at the Place step");
                self.turns += 1;
                if E::ENABLED {
                    events.push(Event::TileDiscarded { player: self.current as usize, tile: kind });
                }
                // The same player draws again, if anything is left to draw.
                self.step = Step::Draw;
                if self.bag.is_empty() {
                    self.end_game(events);
                }
            }
            Action::Deploy(loc) => {
                let p = self.resolve(self.placed, loc).expect("deployment was checked");
                let player = self.current;
                self.supply[player as usize] -= 1;
                self.followers.push(Follower { player, piece: p });
                self.features.add_follower(p);
                if E::ENABLED {
                    events.push(Event::FollowerDeployed {
                        player: player as usize,
                        at: self.board.tile(self.placed).pos,
                        location: loc,
                    });
                }
                self.next_step(Step::Deploy, events);
            }
            Action::Pass => {
                let from = self.step;
                if from == Step::MoveFerries {
                    self.end_turn(events);
                } else {
                    self.next_step(from, events);
                }
            }
            Action::PlaceFerry(_) => {
                crate::ferries::apply(self, action, events);
                self.next_step(Step::PlaceFerry, events);
            }
            Action::MoveFerry { .. } => crate::ferries::apply(self, action, events),
        }
    }

    /// Enters the first step after `after` in the turn plan that has a decision
    /// to make, or ends the turn.
    fn next_step<E: EventSink>(&mut self, after: Step, events: &mut E) {
        let from = TURN_PLAN.iter().position(|s| *s == after).map_or(0, |i| i + 1);
        for &step in &TURN_PLAN[from..] {
            if self.enter(step) {
                self.step = step;
                return;
            }
        }
        self.end_turn(events);
    }

    /// Prepares `step`; false when it has nothing to decide this turn.
    fn enter(&mut self, step: Step) -> bool {
        match step {
            // Always entered: deploying is optional, so passing is always a choice.
            Step::Deploy => true,
            Step::PlaceFerry => crate::ferries::enter_place(self),
            Step::MoveFerries => crate::ferries::enter_moves(self),
            Step::Draw | Step::Place | Step::GameOver => true,
        }
    }

    /// Puts a tile on the board and joins its pieces to its neighbours'.
    fn put_tile(&mut self, kind: TileKind, p: Placement) -> usize {
        let first = self.features.len() as PieceId;
        let idx = self.board.place(kind, p, first);
        let info = kind.info();
        for (local, f) in info.def.features.iter().enumerate() {
            // Fields and monasteries have no open edges.
            let open = f.sides.count_ones() as u16;
            let piece = crate::features::PieceInfo { kind: f.kind, tile: idx as u16, local: local as u8 };
            self.features.add(piece, open, f.pennants as u16);
        }
        let o = &info.oriented[p.rot.quarters() as usize];
        for s in Side::ALL {
            let Some(ni) = self.board.tile_index(p.pos.step(s)) else {
                continue;
            };
            let n = *self.board.tile(ni);
            let no = &n.kind.info().oriented[n.rot.quarters() as usize];
            let mine = o.side_piece[s.index()];
            if mine != NO_PIECE {
                let theirs = no.side_piece[s.opposite().index()];
                self.features.join(first + mine as PieceId, n.first_piece + theirs as PieceId, Joint::Edge);
            }
            for h in s.halves() {
                let mine = o.half_piece[h.index()];
                if mine != NO_PIECE {
                    let theirs = no.half_piece[h.facing().index()];
                    self.features.join(first + mine as PieceId, n.first_piece + theirs as PieceId, Joint::Edge);
                }
            }
        }
        idx
    }

    /// Joins `pieces` (whole features just taken apart) again across tile
    /// edges and links inside tiles.
    pub(crate) fn rejoin(&mut self, pieces: &PieceSet) {
        let board = &self.board;
        // Each piece alone; links and followers are counted again below.
        self.features.reset(pieces, |info| {
            let f = &board.tile(info.tile as usize).kind.info().def.features[info.local as usize];
            Totals { open: f.sides.count_ones() as u16, pennants: f.pennants as u16, followers: 0, pieces: 1, links: 0 }
        });
        for p in pieces.iter() {
            let tile = self.features.info(p).tile as usize;
            let sides = self.piece_sides(p);
            for s in Side::ALL {
                if sides & s.bit() != 0 {
                    if let Some(q) = self.piece_across(tile, s) {
                        if p < q {
                            self.features.join(p, q, Joint::Edge);
                        }
                    }
                }
            }
            let l = self.features.link(p);
            if l != NONE && p < l {
                self.features.join(p, l, Joint::Link);
            }
        }
        for f in &self.followers {
            if pieces.contains(f.piece) {
                self.features.add_follower(f.piece);
            }
        }
    }

    /// Step 5: scores every feature completed this turn, then passes the turn.
    fn end_turn<E: EventSink>(&mut self, events: &mut E) {
        let t = *self.board.tile(self.placed);
        let n = t.kind.info().pieces() as PieceId;
        for p in t.first_piece..t.first_piece + n {
            if matches!(self.features.info(p).kind, FeatureKind::Road | FeatureKind::City) {
                self.score_if_complete(p, events);
            }
        }
        let mut moved = crate::ferries::moved_this_turn(self);
        while moved != 0 {
            let i = moved.trailing_zeros() as usize;
            moved &= moved - 1;
            for p in crate::ferries::jetty_pieces(self, i) {
                if p != NONE {
                    self.score_if_complete(p, events);
                }
            }
        }
        self.score_monasteries_around(t.pos, events);

        self.turns += 1;
        self.drawn = None;
        self.current = (self.current + 1) % self.rules.players() as u8;
        self.step = Step::Draw;
        if self.bag.is_empty() {
            self.end_game(events);
        }
    }

    fn score_if_complete<E: EventSink>(&mut self, p: PieceId, events: &mut E) {
        let root = self.features.find_mut(p);
        let t = self.features.totals(root);
        if t.open > 0 || t.followers == 0 {
            return;
        }
        let kind = self.features.info(root).kind;
        let tiles = self.feature_tiles(root);
        let points = match kind {
            FeatureKind::City => {
                // The tiny-city variant scores a completed two-tile city as
                // if it were incomplete; any other size scores in full.
                let per = if tiles.len() == 2 && self.rules.tiny_city_scoring() == TINY_CITY_VARIANT {
                    1
                } else {
                    CITY_POINTS
                };
                per * (tiles.len() + t.pennants as u32)
            }
            _ => tiles.len(),
        };
        self.award(root, kind, points, true, tiles, events);
    }

    /// Scores monasteries with a monk on or around `at` that are now surrounded.
    fn score_monasteries_around<E: EventSink>(&mut self, at: Pos, events: &mut E) {
        let mut i = 0;
        while i < self.followers.len() {
            let p = self.followers[i].piece;
            i += 1;
            let info = self.features.info(p);
            if info.kind != FeatureKind::Monastery {
                continue;
            }
            let pos = self.board.tile(info.tile as usize).pos;
            if (pos.x - at.x).abs() <= 1 && (pos.y - at.y).abs() <= 1 && self.neighbours(pos) == 8 {
                let mut tiles = TileSet::default();
                tiles.insert(info.tile);
                self.award(p, FeatureKind::Monastery, MONASTERY_POINTS, true, tiles, events);
                // Awarding removed followers from the list: look at it afresh.
                i = 0;
            }
        }
    }

    /// How many of the eight cells around `pos` hold tiles.
    fn neighbours(&self, pos: Pos) -> u32 {
        pos.surrounding().filter(|p| self.board.tile_index(*p).is_some()).count() as u32
    }

    fn feature_tiles(&self, root: PieceId) -> TileSet {
        let mut tiles = TileSet::default();
        for m in self.features.members(root) {
            tiles.insert(self.features.info(m).tile);
        }
        tiles
    }

    /// Per-player followers on the feature of `root`.
    fn majority(&self, root: PieceId) -> [u8; MAX_PLAYERS] {
        let mut counts = [0u8; MAX_PLAYERS];
        for f in &self.followers {
            if self.features.find(f.piece) == root {
                counts[f.player as usize] += 1;
            }
        }
        counts
    }

    /// Gives `points` to the majority on a completed feature and returns its followers.
    fn award<E: EventSink>(
        &mut self,
        root: PieceId,
        kind: FeatureKind,
        points: u32,
        completed: bool,
        tiles: TileSet,
        events: &mut E,
    ) {
        let won = winners(self.majority(root), points);
        for (s, w) in self.scores.iter_mut().zip(won) {
            *s += w;
        }
        if E::ENABLED {
            events.push(Event::Scored(Scoring {
                kind,
                completed,
                end_of_game: false,
                tiles: self.tile_positions(&tiles),
                points: won[..self.rules.players()].to_vec(),
            }));
        }
        let mut i = 0;
        while i < self.followers.len() {
            let f = self.followers[i];
            if self.features.find(f.piece) == root {
                self.followers.swap_remove(i);
                self.features.remove_follower(f.piece);
                self.supply[f.player as usize] += 1;
                if E::ENABLED {
                    let (at, location) = self.piece_location(f.piece);
                    events.push(Event::FollowerReturned { player: f.player as usize, at, location });
                }
            } else {
                i += 1;
            }
        }
    }

    fn tile_positions(&self, tiles: &TileSet) -> Vec<Pos> {
        let mut out = Vec::new();
        for (w, bits) in tiles.0.iter().enumerate() {
            let mut b = *bits;
            while b != 0 {
                let i = w * 64 + b.trailing_zeros() as usize;
                b &= b - 1;
                out.push(self.board.tile(i).pos);
            }
        }
        out
    }

    fn end_game<E: EventSink>(&mut self, events: &mut E) {
        self.step = Step::GameOver;
        if E::ENABLED {
            let mut scorings = Vec::new();
            let totals = self.final_scores_with(|s| scorings.push(s));
            for s in scorings {
                events.push(Event::Scored(s));
            }
            events.push(Event::GameEnded { scores: totals });
        }
    }

    // ----- end of game ------------------------------------------------------

    /// Each player's points if the game ended now: [`scores`](Self::scores)
    /// plus the end-of-game scoring of everything still open that holds followers.
    pub fn final_scores(&self) -> Vec<u32> {
        self.end_scoring(None)[..self.rules.players()].to_vec()
    }

    /// As [`final_scores`](Self::final_scores) in a fixed array (seats past
    /// the last player hold 0), without allocating: for search.
    pub fn final_score_array(&self) -> [u32; MAX_PLAYERS] {
        self.end_scoring(None)
    }

    /// As [`final_scores`](Self::final_scores), reporting each feature scored.
    pub fn final_scores_with(&self, mut report: impl FnMut(Scoring)) -> Vec<u32> {
        self.end_scoring(Some(&mut report))[..self.rules.players()].to_vec()
    }

    fn end_scoring(&self, mut report: Option<&mut dyn FnMut(Scoring)>) -> [u32; MAX_PLAYERS] {
        let mut scores = self.scores;
        let mut seen = [NONE; MAX_PLAYERS * FOLLOWERS_PER_PLAYER as usize];
        for (i, f) in self.followers.iter().enumerate() {
            let root = self.features.find(f.piece);
            if seen[..i].contains(&root) {
                continue;
            }
            seen[i] = root;
            let kind = self.features.info(root).kind;
            let t = self.features.totals(root);
            let (points, tiles) = match kind {
                FeatureKind::Road => {
                    let tiles = self.feature_tiles(root);
                    (tiles.len(), tiles)
                }
                FeatureKind::City => {
                    let tiles = self.feature_tiles(root);
                    (tiles.len() + t.pennants as u32, tiles)
                }
                FeatureKind::Monastery => {
                    let tile = self.features.info(root).tile;
                    let mut tiles = TileSet::default();
                    tiles.insert(tile);
                    (1 + self.neighbours(self.board.tile(tile as usize).pos), tiles)
                }
                FeatureKind::Field => (FARM_POINTS * self.completed_cities_bordered(root), TileSet::default()),
            };
            let won = winners(self.majority(root), points);
            for (s, w) in scores.iter_mut().zip(won) {
                *s += w;
            }
            if let Some(report) = report.as_mut() {
                let tiles = if kind == FeatureKind::Field { self.feature_tiles(root) } else { tiles };
                report(Scoring {
                    kind,
                    completed: t.open == 0 && matches!(kind, FeatureKind::Road | FeatureKind::City),
                    end_of_game: true,
                    tiles: self.tile_positions(&tiles),
                    points: won[..self.rules.players()].to_vec(),
                });
            }
        }
        scores
    }

    /// Completed cities that the field of `root` borders, each once.
    fn completed_cities_bordered(&self, root: PieceId) -> u32 {
        let mut cities = PieceSet::default();
        let mut count = 0;
        for m in self.features.members(root) {
            let info = self.features.info(m);
            let t = self.board.tile(info.tile as usize);
            let mut borders = t.kind.info().def.features[info.local as usize].borders;
            while borders != 0 {
                let local = borders.trailing_zeros() as PieceId;
                borders &= borders - 1;
                let city = self.features.find(t.first_piece + local);
                if self.features.totals(city).open == 0 && cities.insert(city) {
                    count += 1;
                }
            }
        }
        count
    }
}

/// Points per player: the players with the most followers (at least one) each
/// score `points` in full.
fn winners(counts: [u8; MAX_PLAYERS], points: u32) -> [u32; MAX_PLAYERS] {
    let best = counts.iter().copied().max().unwrap_or(0);
    let mut won = [0; MAX_PLAYERS];
    if best > 0 {
        for (w, c) in won.iter_mut().zip(counts) {
            if c == best {
                *w = points;
            }
        }
    }
    won
}

/// The canonical name of piece `local` of a placed tile: its first side or
/// half-edge in clockwise order from north, as it lies on the board.
pub(crate) fn location_of(t: &PlacedTile, local: u8) -> Location {
    let f = &t.kind.info().def.features[local as usize];
    match f.kind {
        FeatureKind::Road | FeatureKind::City => {
            let sides = rotate_sides(f.sides, t.rot);
            let s = Side::from_index(sides.trailing_zeros() as usize);
            if f.kind == FeatureKind::Road {
                Location::Road(s)
            } else {
                Location::City(s)
            }
        }
        FeatureKind::Field => {
            Location::Field(HalfEdge::from_index(rotate_halves(f.halves, t.rot).trailing_zeros() as usize))
        }
        FeatureKind::Monastery => Location::Monastery,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotating_side_masks_turns_clockwise() {
        let n = Side::N.bit();
        assert_eq!(rotate_sides(n, Rotation::R0), n);
        assert_eq!(rotate_sides(n, Rotation::R90), Side::E.bit());
        assert_eq!(rotate_sides(Side::W.bit(), Rotation::R90), Side::N.bit());
        assert_eq!(rotate_sides(Side::W.bit() | Side::S.bit(), Rotation::R270), Side::S.bit() | Side::E.bit());
        assert_eq!(rotate_halves(HalfEdge::Wnw.bit(), Rotation::R90), HalfEdge::Nne.bit());
    }

    #[test]
    fn ties_all_score_in_full_and_no_follower_scores_nothing() {
        assert_eq!(winners([1, 1, 0, 0, 0], 6), [6, 6, 0, 0, 0]);
        assert_eq!(winners([2, 1, 0, 0, 0], 6), [6, 0, 0, 0, 0]);
        assert_eq!(winners([0; 5], 6), [0; 5]);
    }
}
