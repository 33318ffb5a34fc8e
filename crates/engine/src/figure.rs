//! Figures: the kinds of figure a player may have (the base game's
//! follower and the expansions' figures) and a figure on the board. The
//! bottom of the vocabulary: it names kinds, and the rules modules say what
//! each kind may do ([`crate::rules`]).

use crate::features::PieceId;
use crate::names::written_names;

/// What a figure is. The base game has the normal follower; the kinds after
/// it are those the coming expansions bring, each with its own supply and
/// strength in a majority (see [`crate::rules`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub enum FollowerKind {
    #[default]
    Normal = 0,
    /// Inns & Cathedrals: counts as two followers.
    Big,
    /// Traders & Builders: counts for no majority; gives a second turn.
    Builder,
    /// Traders & Builders: on a farm, raises what its owner's farm scores.
    Pig,
    /// Abbey & Mayor: counts as many followers as its city has pennants.
    Mayor,
    /// Abbey & Mayor: counts as one follower; moves on after its feature scores.
    Wagon,
    /// Abbey & Mayor: on a field corner; scores its farm at the end.
    Barn,
    /// The Abbot: on a monastery or a garden; may be taken back early.
    Abbot,
}

written_names!(FollowerKind {
    Normal => "normal",
    Big => "big",
    Builder => "builder",
    Pig => "pig",
    Mayor => "mayor",
    Wagon => "wagon",
    Barn => "barn",
    Abbot => "abbot",
});

impl FollowerKind {
    pub const COUNT: usize = 8;

    /// The figure as the rules name it in a sentence.
    pub const fn noun(self) -> &'static str {
        match self {
            FollowerKind::Normal => "follower",
            FollowerKind::Big => "big follower",
            FollowerKind::Builder => "builder",
            FollowerKind::Pig => "pig",
            FollowerKind::Mayor => "mayor",
            FollowerKind::Wagon => "wagon",
            FollowerKind::Barn => "barn",
            FollowerKind::Abbot => "abbot",
        }
    }

    /// The figure's noun with its article: "a follower", "an abbot".
    pub fn with_article(self) -> String {
        let noun = self.noun();
        let article = if noun.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
        format!("{article} {noun}")
    }

    pub const ALL: [FollowerKind; FollowerKind::COUNT] = [
        FollowerKind::Normal,
        FollowerKind::Big,
        FollowerKind::Builder,
        FollowerKind::Pig,
        FollowerKind::Mayor,
        FollowerKind::Wagon,
        FollowerKind::Barn,
        FollowerKind::Abbot,
    ];
}

/// A figure standing on the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Follower {
    pub player: u8,
    pub kind: FollowerKind,
    pub piece: PieceId,
}
