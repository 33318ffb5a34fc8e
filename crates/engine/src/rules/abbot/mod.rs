//! The Abbot (in the base box of the third edition) as a rules module: a
//! garden on eight of the base tiles, and each player's abbot.
//!
//! Its hooks: its [`TILES`] (the garden tiles, each taking the place of a
//! plain copy of its layout), its [`FIGURES`] (one abbot each, counting as
//! one follower), where the abbot and the others may stand ([`stands_on`],
//! [`on_garden`]), its deployments, and its own choice in the deploy step:
//! instead of deploying, taking the abbot back from a monastery or garden
//! that is not yet surrounded, for the points it would score at the end
//! now ([`returns`], [`check_return`], [`take_back`]; JCloisterZone's
//! `ABBOT_RETURN`). A garden scores as a monastery does, completed or at
//! the end, and a field is whole around it. The abbot keeps nothing the
//! board does not show.

pub mod tiles;
pub use tiles::TILES;

use crate::action::{Action, Location};
use crate::error::PlayError;
use crate::event::{Event, EventSink, Scoring};
use crate::figure::FollowerKind;
use crate::geometry::Pos;
use crate::state::State;
use crate::tile::{FeatureKind, NO_PIECE};

use super::context::Feature;

/// Figures each player has besides the base game's: one abbot.
pub const FIGURES: &[(FollowerKind, u8)] = &[(FollowerKind::Abbot, 1)];

/// The abbot's strength in a majority: one follower.
pub(crate) const STRENGTH: u8 = 1;

/// Where the abbot may stand, or why not.
pub(crate) fn stands_on(kind: FollowerKind, on: FeatureKind) -> Result<(), &'static str> {
    match (kind, on) {
        (FollowerKind::Abbot, FeatureKind::Monastery | FeatureKind::Garden) => Ok(()),
        (FollowerKind::Abbot, _) => Err("an abbot goes only on a monastery or a garden"),
        _ => Ok(()),
    }
}

/// Whether a figure of `kind` may stand on a garden: only an abbot does.
pub(crate) fn on_garden(kind: FollowerKind) -> Result<(), &'static str> {
    match kind {
        FollowerKind::Abbot => Ok(()),
        _ => Err("only an abbot stands on a garden"),
    }
}

/// The abbot's deployments on the tile just placed: its monastery or its
/// garden, when free.
pub(crate) fn deployments(state: &State, out: &mut Vec<Action>) {
    let t = state.board.tile(state.placed);
    let k = t.info();
    for (local, loc) in [(k.monastery, Location::Monastery), (k.garden, Location::Garden)] {
        if local != NO_PIECE && state.features.totals(t.first_piece + local as u16).followers == 0 {
            out.push(Action::Deploy(FollowerKind::Abbot, loc));
        }
    }
}

/// Checks deploying the abbot on `loc` of the tile just placed.
pub(crate) fn check_deployment(loc: Location, state: &State) -> Result<(), PlayError> {
    state.check_follower(FollowerKind::Abbot, loc).map(|_| ())
}

/// The abbots of the acting player that may be taken back now: each on a
/// monastery or garden not yet surrounded (one that is scores this turn).
pub(crate) fn returns(state: &State, out: &mut Vec<Action>) {
    for f in &state.followers {
        if f.kind == FollowerKind::Abbot && f.player == state.acting {
            let (pos, _) = state.piece_location(f.piece);
            if state.neighbours(pos) < 8 {
                out.push(Action::ReturnAbbot(pos));
            }
        }
    }
}

/// The index in `state.followers` of the acting player's abbot on the tile at `at`.
fn abbot_at(state: &State, at: Pos) -> Option<usize> {
    state.followers.iter().position(|f| {
        f.kind == FollowerKind::Abbot && f.player == state.acting && state.piece_location(f.piece).0 == at
    })
}

/// Checks taking back the abbot at `at`, at the deploy step.
pub(crate) fn check_return(at: Pos, state: &State) -> Result<(), PlayError> {
    abbot_at(state, at).ok_or(PlayError::NoAbbotThere(at))?;
    if state.neighbours(at) == 8 {
        return Err(PlayError::AbbotScoresNow(at));
    }
    Ok(())
}

/// Takes back the abbot at `at` (checked): its owner scores its monastery
/// or garden as it stands, as at the end of the game, alone.
pub(crate) fn take_back<E: EventSink>(at: Pos, state: &mut State, events: &mut E) {
    let Some(i) = abbot_at(state, at) else { return };
    let f = state.followers[i];
    let kind = state.features.info(f.piece).kind;
    let neighbours = state.neighbours(at);
    let feature = Feature { kind, tiles: 1, totals: state.features.totals(f.piece), neighbours, cities: 0 };
    let points = super::base::open_points(&state.rules, &feature);
    state.scores[f.player as usize] += points;
    if E::ENABLED {
        let mut won = vec![0; state.rules.players()];
        won[f.player as usize] = points;
        events.push(Event::Scored(Scoring {
            kind,
            completed: false,
            end_of_game: false,
            tiles: vec![at],
            points: won,
        }));
    }
    state.send_back(i, events);
}
