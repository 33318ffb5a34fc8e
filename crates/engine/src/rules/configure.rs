//! What the expansions in play bring to a game's setup: how many players
//! they allow, the figures and abbeys each player starts with, and a new
//! game's state with them. The setup ([`crate::setup::Rules`]) and the
//! state ask nothing of the rules; the rules fill them.

use crate::action::Step;
use crate::bag::Bag;
use crate::board::{Board, Placement};
use crate::catalogue::catalogue;
use crate::error::SetupError;
use crate::expansion::{Edition, Expansion};
use crate::features::{Features, PieceSet};
use crate::figure::FollowerKind;
use crate::geometry::{Pos, Rotation};
use crate::plan::TurnPlan;
use crate::rules::kept::Extensions;
use crate::setup::{LabyrinthVariant, Rules, WagonMove, MAX_FIGURES, MAX_FOLLOWERS, MAX_PLAYERS, MIN_PLAYERS};
use crate::state::State;

impl Rules {
    /// The rules for `players` players with `expansions` (each at most
    /// once) and the tiles of `edition`, each expansion's figures and
    /// abbeys in the numbers it gives.
    pub fn new(players: usize, expansions: &[Expansion], edition: Edition) -> Result<Rules, SetupError> {
        let mut mask = 0u32;
        for e in expansions {
            let bit = 1 << *e as u32;
            if mask & bit != 0 {
                return Err(SetupError::DuplicateExpansion(*e));
            }
            mask |= bit;
        }
        let max = super::max_players(mask);
        if !(MIN_PLAYERS..=max).contains(&players) {
            return Err(SetupError::PlayerCount { players, min: MIN_PLAYERS, max });
        }
        let mut rules = Rules {
            players: players as u8,
            expansions: mask,
            tile_sets: mask,
            edition,
            tiny_city: false,
            figures: [0; FollowerKind::COUNT],
            abbeys: 0,
            wagon_move: WagonMove::C2,
            labyrinth: LabyrinthVariant::Advanced,
        };
        super::default_figures(&rules.clone(), |kind, n| rules.figures[kind as usize] = n);
        if rules.has(Expansion::Abbey) {
            rules.abbeys = super::abbey::ABBEYS;
        }
        Ok(rules)
    }

    /// These rules with each player starting with `n` figures of `kind`
    /// (0 leaves the figure out), which the expansions in play must give.
    pub fn with_figures(self, kind: FollowerKind, n: u8) -> Result<Rules, SetupError> {
        let max = if kind == FollowerKind::Normal {
            MAX_FOLLOWERS
        } else {
            let expansion = super::expansion_of(kind).ok_or(SetupError::UnknownFigure(kind))?;
            if !self.has(expansion) {
                return Err(SetupError::NotInPlay { what: format!("the {}", kind.noun()), expansion });
            }
            MAX_FIGURES
        };
        let min = u8::from(kind == FollowerKind::Normal);
        if !(min..=max).contains(&n) {
            return Err(SetupError::FigureCount { figure: kind, count: n, min, max });
        }
        let mut figures = self.figures;
        figures[kind as usize] = n;
        Ok(Rules { figures, ..self })
    }

    /// The most players these expansions allow.
    pub fn max_players(&self) -> usize {
        super::max_players(self.expansions)
    }

    /// Each figure in play and how many of it a player starts with, the
    /// normal follower first.
    pub fn figures(&self) -> Vec<(FollowerKind, u8)> {
        let mut out = Vec::with_capacity(2);
        super::figures(self, |kind, n| {
            if n > 0 {
                out.push((kind, n))
            }
        });
        out
    }
}

impl State {
    /// A new game: the start tile at [0, 0], the rest of the tiles in the bag,
    /// the first player about to draw.
    pub fn new(rules: Rules) -> State {
        let bag = Bag::for_rules(&rules);
        // Every tile of the bag, the start tile and the tiles the players hold.
        let held = super::tiles_held(&rules);
        let pieces = (bag.total() as usize + 1 + held) * catalogue().max_pieces;
        assert!(pieces <= PieceSet::CAPACITY, "piece sets hold every piece of a game");
        let mut supply = [[0; MAX_PLAYERS]; FollowerKind::COUNT];
        let mut figures = 0;
        super::figures(&rules, |kind, count| {
            for s in &mut supply[kind as usize][..rules.players()] {
                *s += count;
            }
            figures += count as usize;
        });
        let board = Board::for_tiles(bag.total() as usize + 1);
        let mut state = State {
            rules,
            plan: TurnPlan::of(&rules),
            board,
            features: Features::with_capacity(pieces),
            bag,
            scores: [0; MAX_PLAYERS],
            supply,
            followers: Vec::with_capacity(MAX_PLAYERS * figures),
            monks: Vec::with_capacity(MAX_PLAYERS * figures),
            current: 0,
            acting: 0,
            step: Step::Draw,
            drawn: None,
            placed: 0,
            turns: 0,
            ext: Extensions::new(&rules),
        };
        let start = Bag::start_for(&rules);
        state.put_tile(start, Placement { pos: Pos::ORIGIN, rot: Rotation::R0 });
        state.begin_turn();
        state
    }
}
