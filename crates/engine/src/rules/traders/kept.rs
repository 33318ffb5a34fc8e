//! What Traders & Builders keeps in the state: each player's goods and the
//! builder's second turn. Data below the state.

use crate::setup::MAX_PLAYERS;

/// Where the builder's second turn stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum SecondTurn {
    /// A first turn, no second one earned yet.
    #[default]
    No,
    /// This turn's tile extended the player's builder: a second turn follows.
    Earned,
    /// This is the second turn: it gives no third.
    Playing,
}

/// What Traders & Builders keeps in the state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traders {
    /// Tokens of each good (by [`Good`](crate::tile::Good)) each player holds.
    pub goods: [[u8; 3]; MAX_PLAYERS],
    pub second_turn: SecondTurn,
}
