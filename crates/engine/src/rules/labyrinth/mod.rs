//! The Labyrinth as a rules module: one tile whose four roads meet in the
//! labyrinth and go on through it, so they are one road, branched four
//! ways (for ruling F6, every first ferry reached on any leg may move).
//!
//! Its hooks: its [`TILES`]; under the standard rule (JCloisterZone's
//! `labyrinth-variant: advanced`, its default), where a follower may join
//! a road through the labyrinth that others hold ([`may_join`]), and what
//! a completed road through it scores ([`completed_bonus`]). Under the
//! basic variant the labyrinth's road is a road like any other.
//!
//! The standard rule, as JCloisterZone plays it: the labyrinth parts its
//! road into legs for deploying. A follower may go on a leg, up to the
//! labyrinth, that holds no figure, however many stand on the rest of the
//! road, and on the labyrinth itself when it is the tile just placed. The
//! whole road is still one road for majority, and once completed it
//! scores 2 more points for each figure on it. A road still open at the
//! end scores as any road. A wagon moving on (Abbey & Mayor) may join a
//! free leg too, but not the labyrinth itself.

pub mod tiles;
pub use tiles::{LABYRINTH, TILES};

use crate::expansion::Expansion;
use crate::features::{PieceId, PieceSet, NONE};
use crate::geometry::Side;
use crate::pieces::{piece_across, piece_sides};
use crate::setup::LabyrinthVariant;
use crate::state::State;
use crate::tile::FeatureKind;

/// Points a completed road through the labyrinth scores for each figure on it.
const POINTS_PER_FIGURE: u32 = 2;

/// Whether the rules in play part a road at the labyrinth (the standard rule).
#[inline]
pub(crate) fn parts_roads(variant: LabyrinthVariant) -> bool {
    variant == LabyrinthVariant::Advanced
}

/// Whether piece `p` lies on the labyrinth's tile.
fn in_labyrinth(state: &State, p: PieceId) -> bool {
    let tile = state.board.tile(state.features.info(p).tile as usize);
    tile.info().expansion == Some(Expansion::Labyrinth)
}

/// Whether a figure may join piece `p`, whose feature others already
/// hold: a road through the labyrinth, where the leg of `p` holds no
/// figure, or `p` is the labyrinth itself on the tile just placed
/// (`placed`: a follower deployed there; a wagon moving onto the
/// labyrinth follows the usual rule, as JCloisterZone has it).
#[cold]
pub(crate) fn may_join(state: &State, p: PieceId, placed: bool) -> bool {
    let root = state.features.find(p);
    if state.features.info(p).kind != FeatureKind::Road || !state.features.members(root).any(|m| in_labyrinth(state, m))
    {
        return false;
    }
    if in_labyrinth(state, p) {
        return placed && !state.followers.iter().any(|f| f.piece == p);
    }
    // The leg of `p`: its road up to the labyrinth, across tile edges and ferries.
    let mut seen = PieceSet::default();
    seen.insert(p);
    let mut stack = vec![p];
    while let Some(q) = stack.pop() {
        if state.followers.iter().any(|f| f.piece == q) {
            return false;
        }
        let tile = state.features.info(q).tile as usize;
        let sides = piece_sides(&state.board, &state.features, q);
        let across =
            Side::ALL.into_iter().filter(|s| sides & s.bit() != 0).filter_map(|s| piece_across(&state.board, tile, s));
        let link = Some(state.features.link(q)).filter(|l| *l != NONE);
        for r in across.chain(link) {
            if !in_labyrinth(state, r) && seen.insert(r) {
                stack.push(r);
            }
        }
    }
    true
}

/// What the completed road of `root` scores beyond its tiles.
#[cold]
pub(crate) fn completed_bonus(state: &State, root: PieceId) -> u32 {
    if !parts_roads(state.rules.labyrinth_variant()) {
        return 0;
    }
    if state.features.members(root).any(|m| in_labyrinth(state, m)) {
        POINTS_PER_FIGURE * state.features.root_totals(root).followers as u32
    } else {
        0
    }
}
