//! What Abbey & Mayor keeps in the state: the abbeys each player holds,
//! the barns, the wagons waiting to move, the last round. Data below the
//! state.

use crate::action::Location;
use crate::features::PieceId;
use crate::geometry::Corner;
use crate::setup::{Rules, MAX_PLAYERS};

/// A barn on the board: its owner's figure stands on `piece`, the field of
/// tile `tile` at `corner`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Barn {
    pub player: u8,
    pub tile: u16,
    pub corner: Corner,
    pub piece: PieceId,
}

/// A wagon whose feature was scored, waiting for its owner to move it on
/// from the tile it stood on (and the feature it stood on there).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct WaitingWagon {
    pub player: u8,
    pub tile: u16,
    pub location: Location,
    /// The piece it stood on, of the feature just scored.
    pub piece: PieceId,
}

/// What Abbey & Mayor keeps in the state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AbbeyMayor {
    /// Abbeys each player still holds.
    pub abbeys: [u8; MAX_PLAYERS],
    pub barns: Vec<Barn>,
    /// Wagons to move after this turn's scoring, in the order their owners decide.
    pub waiting: Vec<WaitingWagon>,
    /// After the last tile: how many players are still to be offered their
    /// abbey (`None` before that final round).
    pub final_round: Option<u8>,
    /// A barn placed this turn: the farm it joined scores at once.
    pub new_barn: Option<PieceId>,
}

impl AbbeyMayor {
    pub(crate) fn new(rules: &Rules) -> AbbeyMayor {
        let mut abbeys = [0; MAX_PLAYERS];
        abbeys[..rules.players()].fill(rules.abbeys());
        AbbeyMayor { abbeys, ..AbbeyMayor::default() }
    }

    pub(crate) fn clone_from(&mut self, source: &AbbeyMayor) {
        self.abbeys = source.abbeys;
        self.barns.clone_from(&source.barns);
        self.waiting.clone_from(&source.waiting);
        self.final_round = source.final_round;
        self.new_barn = source.new_barn;
    }
}
