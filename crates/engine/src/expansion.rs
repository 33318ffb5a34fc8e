//! The expansions and editions a game may be set up with: the words for
//! them, at the bottom of the engine. Reading them (`FromStr`, serde, with
//! the setup's errors) is the setup's ([`crate::setup`]).

use crate::names::written_names;

/// An expansion that can be played besides the base game. Written and read
/// by its name (`ferries`, `inns`, `abbey`, `traders`, `river`, `abbot`,
/// `labyrinth`), in records as
/// everywhere: `FromStr` and serde refuse an unknown name with
/// `SetupError::UnknownExpansion`'s words.
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
    /// The River (in the third edition's base box): a river of 12 tiles
    /// from the spring to its lake, laid before the rest of the bag.
    River,
    /// The Abbot (in the third edition's base box): each player's abbot,
    /// on a monastery or a garden, and the gardens of eight base tiles.
    Abbot,
    /// The Labyrinth: a crossing whose four roads are one road, scoring a
    /// bonus for the figures on it once completed.
    Labyrinth,
}

impl Expansion {
    pub const ALL: [Expansion; 7] = [
        Expansion::Ferries,
        Expansion::Inns,
        Expansion::Abbey,
        Expansion::Traders,
        Expansion::River,
        Expansion::Abbot,
        Expansion::Labyrinth,
    ];

    /// The name on the box.
    pub const fn title(self) -> &'static str {
        match self {
            Expansion::Ferries => "The Ferries",
            Expansion::Inns => "Inns & Cathedrals",
            Expansion::Abbey => "Abbey & Mayor",
            Expansion::Traders => "Traders & Builders",
            Expansion::River => "The River",
            Expansion::Abbot => "The Abbot",
            Expansion::Labyrinth => "The Labyrinth",
        }
    }
}

written_names!(Expansion {
    Ferries => "ferries",
    Inns => "inns",
    Abbey => "abbey",
    Traders => "traders",
    River => "river",
    Abbot => "abbot",
    Labyrinth => "labyrinth",
});

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
