//! How a game is set up: players, expansions in play, tile edition.

use serde::{Deserialize, Serialize};

use crate::error::SetupError;
use crate::names::written_names;

/// Fewest players in a game.
pub const MIN_PLAYERS: usize = 2;
/// Room for the most players any rules allow (six with Inns & Cathedrals);
/// the rules in play may allow fewer ([`Rules::max_players`]).
pub const MAX_PLAYERS: usize = 6;

/// An expansion that can be played besides the base game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Expansion {
    /// The Ferries (mini expansion #3): lake tiles and ferries.
    Ferries,
    /// Inns & Cathedrals: inns, cathedrals, the big follower, a sixth player.
    Inns,
    /// Abbey & Mayor: abbeys, the mayor, the wagon and the barn.
    Abbey,
}

impl Expansion {
    pub const ALL: [Expansion; 3] = [Expansion::Ferries, Expansion::Inns, Expansion::Abbey];
}

written_names!(Expansion { Ferries => "ferries", Inns => "inns", Abbey => "abbey" });

/// Which tile distribution is used.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub enum Edition {
    /// Third edition (2021) and its 2025 revision.
    #[default]
    #[serde(rename = "c3")]
    C3 = 0,
    /// Second edition (2017).
    #[serde(rename = "c2")]
    C2 = 1,
}

written_names!(Edition { C3 => "c3", C2 => "c2" });

/// Points a completed city of exactly two tiles scores under the standard
/// rules, and under the variant that scores it as if it were incomplete.
pub const TINY_CITY_STANDARD: u32 = 4;
pub const TINY_CITY_VARIANT: u32 = 2;

/// The rules a game is played with, validated: a player count from 2 to 5,
/// each expansion at most once, and the rule variants.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rules {
    players: u8,
    expansions: u32,
    edition: Edition,
    /// Whether a completed two-tile city scores 1 a tile and pennant
    /// instead of 2 (`tiny-city-scoring` 2 instead of 4).
    tiny_city: bool,
}

impl Rules {
    pub fn new(players: usize, expansions: &[Expansion], edition: Edition) -> Result<Rules, SetupError> {
        let mut mask = 0u32;
        for e in expansions {
            let bit = 1 << *e as u32;
            if mask & bit != 0 {
                return Err(SetupError::DuplicateExpansion(*e));
            }
            mask |= bit;
        }
        let max = crate::rules::max_players(mask);
        if !(MIN_PLAYERS..=max).contains(&players) {
            return Err(SetupError::PlayerCount { players, min: MIN_PLAYERS, max });
        }
        Ok(Rules { players: players as u8, expansions: mask, edition, tiny_city: false })
    }

    /// These rules with a completed city of exactly two tiles scoring
    /// `points` when it has no pennant: 4 (standard) or 2 (the variant,
    /// where such a city scores 1 a tile and 1 a pennant, as if incomplete).
    pub fn with_tiny_city_scoring(self, points: u32) -> Result<Rules, SetupError> {
        match points {
            TINY_CITY_STANDARD => Ok(Rules { tiny_city: false, ..self }),
            TINY_CITY_VARIANT => Ok(Rules { tiny_city: true, ..self }),
            other => Err(SetupError::TinyCityScoring(other)),
        }
    }

    /// What a completed two-tile city without a pennant scores: 4 or 2.
    pub fn tiny_city_scoring(&self) -> u32 {
        if self.tiny_city {
            TINY_CITY_VARIANT
        } else {
            TINY_CITY_STANDARD
        }
    }

    /// A base game for `players` players, third edition.
    pub fn base(players: usize) -> Result<Rules, SetupError> {
        Rules::new(players, &[], Edition::C3)
    }

    pub fn players(&self) -> usize {
        self.players as usize
    }

    /// The most players these expansions allow.
    pub fn max_players(&self) -> usize {
        crate::rules::max_players(self.expansions)
    }

    pub fn edition(&self) -> Edition {
        self.edition
    }

    pub fn has(&self, e: Expansion) -> bool {
        self.expansions & (1 << e as u32) != 0
    }

    pub fn expansions(&self) -> impl Iterator<Item = Expansion> + '_ {
        Expansion::ALL.into_iter().filter(|e| self.has(*e))
    }

    /// Each figure in play and how many of it a player starts with, the
    /// normal follower first.
    pub fn figures(&self) -> Vec<(crate::state::FollowerKind, u8)> {
        let mut out = Vec::with_capacity(2);
        crate::rules::figures(self, |kind, n| out.push((kind, n)));
        out
    }
}
