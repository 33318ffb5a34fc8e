//! How a game is set up: players, expansions in play, tile edition.

use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::SetupError;
use crate::figure::FollowerKind;
use crate::names::written_names;

/// Fewest players in a game.
pub const MIN_PLAYERS: usize = 2;
/// Room for the most players any rules allow (six with Inns & Cathedrals);
/// the rules in play may allow fewer ([`Rules::max_players`]).
pub const MAX_PLAYERS: usize = 6;

/// An expansion that can be played besides the base game. Written and read
/// by its name (`ferries`, `inns`, `abbey`, `traders`), in records as
/// everywhere: [`FromStr`] and serde refuse an unknown name with
/// [`SetupError::UnknownExpansion`]'s words.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Expansion {
    /// The Ferries (mini expansion #3): lake tiles and ferries.
    Ferries,
    /// Inns & Cathedrals: inns, cathedrals, the big follower, a sixth player.
    Inns,
    /// Abbey & Mayor: abbeys, the mayor, the wagon and the barn.
    Abbey,
    /// Traders & Builders: trade goods, the builder and its second turn, the pig.
    Traders,
}

impl Expansion {
    pub const ALL: [Expansion; 4] = [Expansion::Ferries, Expansion::Inns, Expansion::Abbey, Expansion::Traders];

    /// The name on the box.
    pub const fn title(self) -> &'static str {
        match self {
            Expansion::Ferries => "The Ferries",
            Expansion::Inns => "Inns & Cathedrals",
            Expansion::Abbey => "Abbey & Mayor",
            Expansion::Traders => "Traders & Builders",
        }
    }
}

written_names!(Expansion { Ferries => "ferries", Inns => "inns", Abbey => "abbey", Traders => "traders" });

impl FromStr for Expansion {
    type Err = SetupError;

    fn from_str(s: &str) -> Result<Expansion, SetupError> {
        Expansion::parse(s).ok_or_else(|| SetupError::UnknownExpansion(s.chars().take(40).collect()))
    }
}

/// Which tile distribution is used, written `c3` or `c2`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Edition {
    /// Third edition (2021) and its 2025 revision.
    #[default]
    C3 = 0,
    /// Second edition (2017).
    C2 = 1,
}

written_names!(Edition { C3 => "c3", C2 => "c2" });

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

/// An expansion equals its written name, so that lists of them compare
/// with lists of names.
impl PartialEq<&str> for Expansion {
    fn eq(&self, name: &&str) -> bool {
        self.name() == *name
    }
}

impl PartialEq<&str> for Edition {
    fn eq(&self, name: &&str) -> bool {
        self.name() == *name
    }
}
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
    players: u8,
    expansions: u32,
    /// The expansions whose tiles are in the bag (a bit per [`Expansion`]).
    tile_sets: u32,
    edition: Edition,
    /// Whether a completed two-tile city scores 1 a tile and pennant
    /// instead of 2 (`tiny-city-scoring` 2 instead of 4).
    tiny_city: bool,
    /// Figures of each kind a player starts with.
    figures: [u8; FollowerKind::COUNT],
    /// Abbeys a player starts with (Abbey & Mayor).
    abbeys: u8,
    wagon_move: WagonMove,
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
        let mut rules = Rules {
            players: players as u8,
            expansions: mask,
            tile_sets: mask,
            edition,
            tiny_city: false,
            figures: [0; FollowerKind::COUNT],
            abbeys: 0,
            wagon_move: WagonMove::C2,
        };
        crate::rules::default_figures(&rules.clone(), |kind, n| rules.figures[kind as usize] = n);
        if rules.has(Expansion::Abbey) {
            rules.abbeys = crate::rules::abbey::ABBEYS;
        }
        Ok(rules)
    }

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

    /// These rules with each player starting with `n` figures of `kind`
    /// (0 leaves the figure out), which the expansions in play must give.
    pub fn with_figures(self, kind: FollowerKind, n: u8) -> Result<Rules, SetupError> {
        let max = if kind == FollowerKind::Normal {
            MAX_FOLLOWERS
        } else {
            let expansion = crate::rules::expansion_of(kind).ok_or(SetupError::UnknownFigure(kind))?;
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
    pub fn figures(&self) -> Vec<(FollowerKind, u8)> {
        let mut out = Vec::with_capacity(2);
        crate::rules::figures(self, |kind, n| {
            if n > 0 {
                out.push((kind, n))
            }
        });
        out
    }
}
