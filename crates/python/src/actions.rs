//! Everything about actions as text and as integers, in one place.
//!
//! **Text** is the engine's notation (`Action`'s `Display`), read back by
//! [`parse`].
//!
//! **Integer ids** are a fixed encoding for learning code and OpenSpiel: a
//! game's rules fix a board window of `-R..=R` on both axes, where `R` is
//! the number of tiles in the bag at the start. Every tile is placed next to
//! one placed before it, starting from the start tile at `[0, 0]`, so no
//! tile of the game can lie outside the window, and the number of distinct
//! ids is fixed for the rules. With `W = 2R + 1` and `C = W * W` cells, a
//! cell `[x, y]` is numbered `(y + R) * W + (x + R)`, and the player ids are:
//!
//! | ids | action |
//! |---|---|
//! | 0 | `pass` |
//! | 1 | `discard` |
//! | 2 + 4 * cell + quarter turns | place the drawn tile on `cell`, turned 0, 90, 180 or 270 degrees |
//! | D + feature, D = 2 + 4C | deploy on a feature of the tile just placed: road N, E, S, W (0-3), city N, E, S, W (4-7), field NNW, NNE, ENE, ESE, SSE, SSW, WSW, WNW (8-15), monastery (16) |
//! | F + pair, F = D + 17 | put the ferry on the jetties N-E, N-S, N-W, E-S, E-W, S-W (0-5) |
//! | M + 6 * cell + pair, M = F + 6 | move the ferry of the lake on `cell` to a pair of jetties (The Ferries only) |
//!
//! | X + 0, 1, X = the end of the above | The Abbot: deploy the abbot on the monastery (0) or the garden (1) of the tile just placed |
//! | X + 2 + cell | The Abbot: take back the abbot from the tile on `cell` |
//!
//! The number of distinct ids is `M + 6C` with The Ferries and `F` without
//! (no ferry id is ever legal there, so the range stops before them), and
//! `X + 2 + C` with The Abbot. Chance's ids number the tile kinds this
//! game may draw, in the engine's catalogue order: those of the base game
//! and The Ferries (ids 0 to 26, the kinds' catalogue indices, with or
//! without The Ferries in play), then The River's, The Abbot's and The
//! Labyrinth's where they are in play.

use carcassonne_engine::geometry::{HalfEdge, Pos, Rotation, Side};
use carcassonne_engine::{Action, Bag, Expansion, FollowerKind, JettyPair, Location, Placement, Rules, TileKind};

/// Features of a tile in id order (see the module documentation).
pub const FEATURES: usize = 17;
/// Pairs of jetties in id order.
pub const PAIRS: [(Side, Side); 6] = [
    (Side::N, Side::E),
    (Side::N, Side::S),
    (Side::N, Side::W),
    (Side::E, Side::S),
    (Side::E, Side::W),
    (Side::S, Side::W),
];

const PASS: u64 = 0;
const DISCARD: u64 = 1;
const PLACE: u64 = 2;

/// The integer encoding of one game's actions: its board window, which
/// ranges are in use and which tile kinds chance may draw.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Ids {
    radius: i32,
    ferries: bool,
    abbot: bool,
    /// The expansions in play whose tiles chance's ids number after the
    /// base game's and The Ferries' (a bit per [`Expansion`]).
    more_kinds: u32,
}

impl Ids {
    pub fn for_rules(rules: &Rules) -> Ids {
        let more_kinds =
            SUPPORTED.iter().filter(|e| **e != Expansion::Ferries && rules.has(**e)).fold(0, |m, e| m | 1 << *e as u32);
        Ids {
            radius: i32::from(Bag::for_rules(rules).total()),
            ferries: rules.has(Expansion::Ferries),
            abbot: rules.has(Expansion::Abbot),
            more_kinds,
        }
    }

    /// Whether this game's rules have `e` in play (of the expansions that
    /// change the ids or the observation).
    pub fn has(&self, e: Expansion) -> bool {
        match e {
            Expansion::Ferries => self.ferries,
            e => self.more_kinds & (1 << e as u32) != 0,
        }
    }

    /// The tile kinds chance's ids number, in id order.
    pub fn kinds(&self) -> impl Iterator<Item = TileKind> + '_ {
        TileKind::all().filter(|k| match k.info().expansion {
            None | Some(Expansion::Ferries) => true,
            Some(e) => self.more_kinds & (1 << e as u32) != 0,
        })
    }

    /// The chance id of a tile kind, `None` for a kind this game never draws.
    pub fn kind_id(&self, kind: TileKind) -> Option<u64> {
        self.kinds().position(|k| k == kind).map(|i| i as u64)
    }

    /// `R`: the window is `-R..=R` on both axes.
    pub fn radius(&self) -> i32 {
        self.radius
    }

    fn width(&self) -> u64 {
        2 * self.radius as u64 + 1
    }

    fn cells(&self) -> u64 {
        self.width() * self.width()
    }

    fn deploy(&self) -> u64 {
        PLACE + 4 * self.cells()
    }

    fn ferry(&self) -> u64 {
        self.deploy() + FEATURES as u64
    }

    fn moves(&self) -> u64 {
        self.ferry() + PAIRS.len() as u64
    }

    /// Where The Abbot's ids start: after The Ferries' (or where they would).
    fn abbot_ids(&self) -> u64 {
        if self.ferries {
            self.moves() + PAIRS.len() as u64 * self.cells()
        } else {
            self.ferry()
        }
    }

    /// How many distinct player ids there are: every id is below this.
    pub fn distinct(&self) -> u64 {
        if self.abbot {
            self.abbot_ids() + 2 + self.cells()
        } else {
            self.abbot_ids()
        }
    }

    /// How many chance ids there are (the tile kinds this game may draw).
    pub fn chance_outcomes(&self) -> u64 {
        self.kinds().count() as u64
    }

    fn cell(&self, p: Pos) -> Option<u64> {
        let r = self.radius;
        let inside = |c: i32| (-r..=r).contains(&c);
        (inside(p.x) && inside(p.y)).then(|| (p.y + r) as u64 * self.width() + (p.x + r) as u64)
    }

    fn pos(&self, cell: u64) -> Pos {
        let w = self.width();
        Pos::new((cell % w) as i32 - self.radius, (cell / w) as i32 - self.radius)
    }

    /// The id of an action: a draw's kind index, or a player action's id.
    /// `None` for a position outside the window or a ferry move without
    /// The Ferries (neither is ever legal).
    pub fn encode(&self, action: Action) -> Option<u64> {
        Some(match action {
            Action::Draw(kind) => self.kind_id(kind)?,
            Action::Pass => PASS,
            Action::Discard => DISCARD,
            Action::Place(p) => PLACE + 4 * self.cell(p.pos)? + u64::from(p.rot.quarters()),
            Action::Deploy(FollowerKind::Normal, loc) => self.deploy() + feature_index(loc)?,
            Action::Deploy(FollowerKind::Abbot, Location::Monastery) if self.abbot => self.abbot_ids(),
            Action::Deploy(FollowerKind::Abbot, Location::Garden) if self.abbot => self.abbot_ids() + 1,
            // Other figures and inner fields belong to expansions this
            // package does not play.
            Action::Deploy(..) => return None,
            Action::ReturnAbbot(at) if self.abbot => self.abbot_ids() + 2 + self.cell(at)?,
            Action::PlaceFerry(pair) => self.ferry() + pair_index(pair),
            Action::MoveFerry { at, ferry } => {
                if !self.ferries {
                    return None;
                }
                self.moves() + PAIRS.len() as u64 * self.cell(at)? + pair_index(ferry)
            }
            // Abbey & Mayor is not among the expansions this package plays.
            Action::PlaceAbbey(_) | Action::MoveWagon { .. } | Action::ReturnAbbot(_) => return None,
        })
    }

    /// The player action of an id, `None` outside `0..distinct()`.
    pub fn decode(&self, id: i64) -> Option<Action> {
        let id = u64::try_from(id).ok().filter(|id| *id < self.distinct())?;
        Some(if id == PASS {
            Action::Pass
        } else if id == DISCARD {
            Action::Discard
        } else if id < self.deploy() {
            let (cell, q) = ((id - PLACE) / 4, (id - PLACE) % 4);
            Action::Place(Placement { pos: self.pos(cell), rot: Rotation::from_quarters(q as u8) })
        } else if self.abbot && id >= self.abbot_ids() {
            match id - self.abbot_ids() {
                0 => Action::Deploy(FollowerKind::Abbot, Location::Monastery),
                1 => Action::Deploy(FollowerKind::Abbot, Location::Garden),
                cell => Action::ReturnAbbot(self.pos(cell - 2)),
            }
        } else if id < self.ferry() {
            Action::Deploy(FollowerKind::Normal, feature((id - self.deploy()) as usize))
        } else if id < self.moves() {
            Action::PlaceFerry(pair((id - self.ferry()) as usize))
        } else {
            let (cell, p) = ((id - self.moves()) / 6, (id - self.moves()) % 6);
            Action::MoveFerry { at: self.pos(cell), ferry: pair(p as usize) }
        })
    }

    /// The draw of an id, `None` outside this game's kinds.
    pub fn decode_draw(&self, id: i64) -> Option<Action> {
        let id = usize::try_from(id).ok()?;
        self.kinds().nth(id).map(Action::Draw)
    }
}

/// The expansions this package plays: its action ids (OpenSpiel's fixed
/// action space) and observations cover their tiles and decisions only.
pub const SUPPORTED: [Expansion; 4] = [Expansion::Ferries, Expansion::River, Expansion::Abbot, Expansion::Labyrinth];

fn feature_index(loc: Location) -> Option<u64> {
    Some(match loc {
        Location::Road(s) => s.index(),
        Location::City(s) => 4 + s.index(),
        Location::Field(h) => 8 + h.index(),
        Location::Monastery => 16,
        Location::InnerField | Location::InnerField2 | Location::Corner(_) | Location::Garden => return None,
    } as u64)
}

fn feature(i: usize) -> Location {
    match i {
        0..4 => Location::Road(Side::from_index(i)),
        4..8 => Location::City(Side::from_index(i - 4)),
        8..16 => Location::Field(HalfEdge::from_index(i - 8)),
        _ => Location::Monastery,
    }
}

fn pair_index(pair: JettyPair) -> u64 {
    PAIRS.iter().position(|(a, b)| pair.mask() == a.bit() | b.bit()).unwrap_or(0) as u64
}

fn pair(i: usize) -> JettyPair {
    let (a, b) = PAIRS[i % PAIRS.len()];
    JettyPair::new(a, b).unwrap_or_else(|| unreachable!("the pairs join two different sides"))
}

/// The engine's notation of an action.
pub fn text(action: Action) -> String {
    action.to_string()
}

/// Reads an action in the engine's notation (the inverse of [`text`]).
pub fn parse(s: &str) -> Result<Action, String> {
    s.parse().map_err(|e: carcassonne_engine::NotationError| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne_engine::playout::random_action;
    use carcassonne_engine::{Edition, State};
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn every_kind_of_action() -> Vec<Action> {
        let mut all = vec![Action::Pass, Action::Discard];
        all.extend(TileKind::all().map(Action::Draw));
        for (x, y) in [(0, 0), (-79, 79), (79, -79), (3, -2)] {
            for rot in Rotation::ALL {
                all.push(Action::Place(Placement { pos: Pos::new(x, y), rot }));
            }
            for i in 0..PAIRS.len() {
                all.push(Action::MoveFerry { at: Pos::new(x, y), ferry: pair(i) });
            }
        }
        all.extend((0..FEATURES).map(|i| Action::Deploy(FollowerKind::Normal, feature(i))));
        all.extend((0..PAIRS.len()).map(|i| Action::PlaceFerry(pair(i))));
        all
    }

    #[test]
    fn every_id_decodes_to_an_action_that_encodes_back_to_it() {
        let abbot = Rules::new(1, &[Expansion::Abbot, Expansion::River, Expansion::Labyrinth], Edition::C3).unwrap();
        for rules in [Rules::base(2).unwrap(), Rules::new(3, &[Expansion::Ferries], Edition::C2).unwrap(), abbot] {
            let ids = Ids::for_rules(&rules);
            for id in 0..ids.distinct() as i64 {
                let action = ids.decode(id).unwrap();
                assert_eq!(ids.encode(action), Some(id as u64), "{action}");
            }
            assert_eq!(ids.decode(-1), None);
            assert_eq!(ids.decode(ids.distinct() as i64), None);
            assert_eq!(ids.decode(i64::MAX), None);
        }
    }

    #[test]
    fn the_window_and_the_id_count_follow_from_the_tiles() {
        let base = Ids::for_rules(&Rules::base(2).unwrap());
        assert_eq!(base.radius(), 71);
        assert_eq!(base.distinct(), 2 + 4 * 143 * 143 + 17);
        let ferries = Ids::for_rules(&Rules::new(2, &[Expansion::Ferries], Edition::C3).unwrap());
        assert_eq!(ferries.radius(), 79);
        assert_eq!(ferries.distinct(), 2 + 4 * 159 * 159 + 17 + 6 + 6 * 159 * 159);
        assert_eq!(base.encode(Action::Place(Placement { pos: Pos::new(72, 0), rot: Rotation::R0 })), None);
        assert_eq!(base.encode(Action::MoveFerry { at: Pos::ORIGIN, ferry: pair(0) }), None);
    }

    #[test]
    fn every_action_reads_back_from_its_text() {
        for a in every_kind_of_action() {
            assert_eq!(parse(&text(a)), Ok(a), "{a}");
        }
        for bad in
            ["", "draw", "draw Z", "place at [1, 0] turned 45", "place at [1,0] turned 90", "deploy on x", "PASS"]
        {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_ids_of_the_ferries_games_stay_as_they_were() {
        // Chance's ids of a game with The Ferries (or none) are the first 27
        // kinds of the catalogue, as before The River, The Abbot and The
        // Labyrinth were played here.
        let ferries = Ids::for_rules(&Rules::new(2, &[Expansion::Ferries], Edition::C3).unwrap());
        assert_eq!(ferries.chance_outcomes(), 27);
        assert!(ferries.kinds().enumerate().all(|(i, k)| k.index() == i));
        let all = [Expansion::Ferries, Expansion::River, Expansion::Abbot, Expansion::Labyrinth];
        let all = Ids::for_rules(&Rules::new(2, &all, Edition::C3).unwrap());
        assert_eq!(all.chance_outcomes(), 27 + 11 + 8 + 1);
        // A larger window (more tiles), and the abbot's ids after the ferries'.
        let r = 72 + 8 + 12 + 1 - 1;
        assert_eq!(all.radius(), r);
        let (w, c) = (2 * r as u64 + 1, (2 * r as u64 + 1).pow(2));
        assert_eq!(all.distinct(), 2 + 4 * c + 17 + 6 + 6 * c + 2 + c, "{w}");
    }

    #[test]
    fn every_legal_action_of_random_games_has_an_id() {
        let river = Rules::new(2, &[Expansion::River, Expansion::Abbot, Expansion::Labyrinth], Edition::C3).unwrap();
        for rules in [Rules::new(2, &[Expansion::Ferries], Edition::C3).unwrap(), river] {
            every_legal_action_has_an_id(rules);
        }
    }

    fn every_legal_action_has_an_id(rules: Rules) {
        let ids = Ids::for_rules(&rules);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut buf = Vec::new();
        for _ in 0..20 {
            let mut state = State::new(rules);
            while let Some(a) = random_action(&state, &mut rng, &mut buf) {
                for legal in state.legal_action_list() {
                    let id = ids.encode(legal).unwrap();
                    let back = if matches!(legal, Action::Draw(_)) {
                        ids.decode_draw(id as i64)
                    } else {
                        ids.decode(id as i64)
                    };
                    assert_eq!(back, Some(legal));
                }
                state.play(a).unwrap();
            }
        }
    }
}
