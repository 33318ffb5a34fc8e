//! How a game is set up: players, expansions in play, tile edition.

use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::SetupError;
pub use crate::expansion::{Edition, Expansion};
use crate::figure::FollowerKind;
use crate::names::written_names;

/// Fewest players in a game: one is a solo game, the bag played out for
/// the highest score.
pub const MIN_PLAYERS: usize = 1;
/// Room for the most players any rules allow (six with Inns & Cathedrals);
/// the rules in play may allow fewer ([`Rules::max_players`]).
pub const MAX_PLAYERS: usize = 6;

impl FromStr for Expansion {
    type Err = SetupError;

    fn from_str(s: &str) -> Result<Expansion, SetupError> {
        Expansion::parse(s).ok_or_else(|| SetupError::UnknownExpansion(s.chars().take(40).collect()))
    }
}

impl FromStr for Edition {
    type Err = SetupError;

    fn from_str(s: &str) -> Result<Edition, SetupError> {
        Edition::parse(s).ok_or_else(|| SetupError::UnknownEdition(s.chars().take(40).collect()))
    }
}

/// Serde by the written name, refusing an unknown one in the words of
/// [`FromStr`].
macro_rules! serde_by_name {
    ($ty:ty) => {
        impl Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
                let name = std::borrow::Cow::<'de, str>::deserialize(d)?;
                name.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

serde_by_name!(Expansion);

serde_by_name!(Edition);

/// Points a completed city of exactly two tiles scores under the standard
/// rules, and under the variant that scores it as if it were incomplete.
pub const TINY_CITY_STANDARD: u32 = 4;
pub const TINY_CITY_VARIANT: u32 = 2;

/// Where a wagon may go once its feature is scored (Abbey & Mayor).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub enum WagonMove {
    /// Second edition, and JCloisterZone's default: to an unfinished, empty
    /// road, city or monastery on the wagon's tile or one of the eight around it.
    #[default]
    #[serde(rename = "C2")]
    C2,
    /// First edition: to an unfinished, empty feature the tile data links
    /// to the scored one (a road ending at a monastery, the roads of a
    /// crossing, the monastery of an abbey that closed it).
    #[serde(rename = "C1")]
    C1,
}

written_names!(WagonMove { C2 => "C2", C1 => "C1" });

/// How a completed road through the labyrinth scores (The Labyrinth;
/// JCloisterZone's rule `labyrinth-variant`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub enum LabyrinthVariant {
    /// The standard rule, and JCloisterZone's default: 2 more points for
    /// each figure on the road.
    #[default]
    #[serde(rename = "advanced")]
    Advanced,
    /// A road like any other.
    #[serde(rename = "basic")]
    Basic,
}

written_names!(LabyrinthVariant { Advanced => "advanced", Basic => "basic" });

/// The most figures of one kind besides the follower, or abbeys, a player
/// may be given.
pub const MAX_FIGURES: u8 = 9;
/// The most followers a player may be given.
pub const MAX_FOLLOWERS: u8 = 20;

/// The rules a game is played with, validated: a player count the
/// expansions allow, each expansion at most once, and the rule variants.
///
/// An expansion in play brings its tiles, its figures and its rules. As
/// JCloisterZone allows, its tiles may be left out of the bag
/// ([`Rules::with_tile_sets`]) and its figures given in other numbers
/// ([`Rules::with_figures`], [`Rules::with_abbeys`]), for example barns
/// with the base game's tiles only.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rules {
    pub(crate) players: u8,
    pub(crate) expansions: u32,
    /// The expansions whose tiles are in the bag (a bit per [`Expansion`]).
    pub(crate) tile_sets: u32,
    pub(crate) edition: Edition,
    /// Whether a completed two-tile city scores 1 a tile and pennant
    /// instead of 2 (`tiny-city-scoring` 2 instead of 4).
    pub(crate) tiny_city: bool,
    /// Figures of each kind a player starts with.
    pub(crate) figures: [u8; FollowerKind::COUNT],
    /// Abbeys a player starts with (Abbey & Mayor).
    pub(crate) abbeys: u8,
    pub(crate) wagon_move: WagonMove,
    pub(crate) labyrinth: LabyrinthVariant,
}

impl Rules {
    /// These rules with only the tiles of `sets` (each in play) in the bag
    /// besides the base game's.
    pub fn with_tile_sets(self, sets: &[Expansion]) -> Result<Rules, SetupError> {
        let mut mask = 0;
        for &e in sets {
            if !self.has(e) {
                return Err(SetupError::NotInPlay { what: format!("the tiles of {e}"), expansion: e });
            }
            mask |= 1 << e as u32;
        }
        Ok(Rules { tile_sets: mask, ..self })
    }

    /// These rules with each player holding `n` abbeys (Abbey & Mayor).
    pub fn with_abbeys(self, n: u8) -> Result<Rules, SetupError> {
        if !self.has(Expansion::Abbey) {
            return Err(SetupError::NotInPlay { what: "abbeys".into(), expansion: Expansion::Abbey });
        }
        if n > MAX_FIGURES {
            return Err(SetupError::AbbeyCount { count: n, max: MAX_FIGURES });
        }
        Ok(Rules { abbeys: n, ..self })
    }

    /// These rules with wagons moving as `rule` says (Abbey & Mayor).
    pub fn with_wagon_move(self, rule: WagonMove) -> Result<Rules, SetupError> {
        if rule != WagonMove::C2 && !self.has(Expansion::Abbey) {
            return Err(SetupError::NotInPlay { what: "the wagon's move".into(), expansion: Expansion::Abbey });
        }
        Ok(Rules { wagon_move: rule, ..self })
    }

    /// These rules with a road through the labyrinth scoring as `variant`
    /// says (The Labyrinth).
    pub fn with_labyrinth_variant(self, variant: LabyrinthVariant) -> Result<Rules, SetupError> {
        if variant != LabyrinthVariant::Advanced && !self.has(Expansion::Labyrinth) {
            return Err(SetupError::NotInPlay {
                what: "the labyrinth's variant".into(),
                expansion: Expansion::Labyrinth,
            });
        }
        Ok(Rules { labyrinth: variant, ..self })
    }

    pub fn labyrinth_variant(&self) -> LabyrinthVariant {
        self.labyrinth
    }

    /// Whether the tiles of `e` are in the bag.
    pub fn has_tiles(&self, e: Expansion) -> bool {
        self.tile_sets & (1 << e as u32) != 0
    }

    /// The expansions whose tiles are in the bag.
    pub fn tile_sets(&self) -> impl Iterator<Item = Expansion> + '_ {
        Expansion::ALL.into_iter().filter(|e| self.has_tiles(*e))
    }

    /// Figures of `kind` each player starts with.
    pub fn figure_count(&self, kind: FollowerKind) -> u8 {
        self.figures[kind as usize]
    }

    /// Abbeys each player starts with.
    pub fn abbeys(&self) -> u8 {
        self.abbeys
    }

    pub fn wagon_move(&self) -> WagonMove {
        self.wagon_move
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

    pub fn edition(&self) -> Edition {
        self.edition
    }

    pub fn has(&self, e: Expansion) -> bool {
        self.expansions & (1 << e as u32) != 0
    }

    pub fn expansions(&self) -> impl Iterator<Item = Expansion> + '_ {
        Expansion::ALL.into_iter().filter(|e| self.has(*e))
    }
}
