//! Uniformly random play, for simulations, benchmarks and tests.

use rand::Rng;

use crate::action::{Action, Actor, Step};
use crate::board::Placement;
use crate::geometry::Rotation;
use crate::state::State;

/// Proposals tried before falling back to listing every placement.
const REJECTION_TRIES: u32 = 48;

/// Picks a uniformly random legal action of the player to act, or chance's
/// draw weighted by the tiles left in the bag. `buf` is scratch space.
pub fn random_action<R: Rng + ?Sized>(state: &State, rng: &mut R, buf: &mut Vec<Action>) -> Option<Action> {
    match state.actor()? {
        Actor::Chance => state.bag().sample(rng).map(Action::Draw),
        Actor::Player(_) => {
            if state.step() == Step::Place {
                if let Some(p) = random_placement(state, rng) {
                    return Some(Action::Place(p));
                }
            }
            buf.clear();
            state.legal_actions(buf);
            (!buf.is_empty()).then(|| buf[rng.random_range(0..buf.len())])
        }
    }
}

/// Rejection sampling: a uniformly random (open cell, rotation) pair, kept
/// if the drawn tile fits there. Every legal placement is equally likely to
/// be kept, so the result is uniform over them, at a fraction of the cost of
/// listing them all. `None` after too many misses (maybe nothing fits).
fn random_placement<R: Rng + ?Sized>(state: &State, rng: &mut R) -> Option<Placement> {
    let kind = state.drawn()?;
    // Tiles placed by more than their edges are listed in full.
    if state.placing_restricted(kind) {
        return None;
    }
    let oriented = &kind.info().oriented;
    let cells = state.board().open_cells();
    if cells.is_empty() {
        return None;
    }
    let n = cells.len() as u32 * 4;
    for _ in 0..REJECTION_TRIES {
        let pick = rng.random_range(0..n);
        let (cell, r) = (&cells[(pick / 4) as usize], (pick % 4) as u8);
        if cell.accepts(oriented[r as usize].signature) {
            return Some(Placement { pos: cell.pos, rot: Rotation::from_quarters(r) });
        }
    }
    None
}

/// Plays uniformly random legal actions until the game is over.
pub fn play_random<R: Rng + ?Sized>(state: &mut State, rng: &mut R) {
    play_random_with(state, rng, &mut Vec::with_capacity(256));
}

/// As [`play_random`], with `buf` as scratch space so that a playout
/// allocates nothing of its own (for search).
pub fn play_random_with<R: Rng + ?Sized>(state: &mut State, rng: &mut R, buf: &mut Vec<Action>) {
    while let Some(a) = random_action(state, rng, buf) {
        state.play_unchecked(a);
    }
}
