//! Uniformly random play, for simulations, benchmarks and tests.

use rand::Rng;

use crate::action::{Action, Actor, Step};
use crate::board::Placement;
use crate::event::NoEvents;
use crate::features::PieceId;
use crate::figure::FollowerKind;
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
            pick_listed(state, rng, buf)
        }
    }
}

/// A uniformly random action among those listed.
fn pick_listed<R: Rng + ?Sized>(state: &State, rng: &mut R, buf: &mut Vec<Action>) -> Option<Action> {
    buf.clear();
    // Room for any list at once, the first time (`play_random` starts empty).
    buf.reserve(256);
    state.legal_actions(buf);
    (!buf.is_empty()).then(|| buf[rng.random_range(0..buf.len())])
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
    // Rotation `r`'s signature is byte `r`: read as a byte, not shifted out.
    let signatures = kind.info().signatures.to_le_bytes();
    let cells = state.board().open_cells();
    if cells.is_empty() {
        return None;
    }
    let n = cells.len() as u32 * 4;
    for _ in 0..REJECTION_TRIES {
        let pick = rng.random_range(0..n);
        let (cell, r) = (&cells[(pick / 4) as usize], (pick % 4) as u8);
        if cell.accepts(signatures[r as usize]) {
            return Some(Placement { pos: cell.pos, rot: Rotation::from_quarters(r) });
        }
    }
    None
}

/// Plays uniformly random legal actions until the game is over.
pub fn play_random<R: Rng + ?Sized>(state: &mut State, rng: &mut R) {
    // Allocated only if a step is played from a list (most games of the
    // base game never list: their placements are sampled, their
    // deployments counted).
    play_random_with(state, rng, &mut Vec::new());
}

/// As [`play_random`], with `buf` as scratch space so that a playout
/// allocates nothing of its own (for search).
pub fn play_random_with<R: Rng + ?Sized>(state: &mut State, rng: &mut R, buf: &mut Vec<Action>) {
    while play_one(state, rng, buf) {}
}

/// As [`play_random_with`], for `turns` turns at most (fewer if the game
/// ends first): a search's playout cut short, to be scored by an
/// evaluation. The same actions as [`random_action`] picks.
pub fn play_random_turns<R: Rng + ?Sized>(state: &mut State, rng: &mut R, buf: &mut Vec<Action>, turns: u32) {
    let until = state.turns().saturating_add(turns);
    while state.turns() < until && play_one(state, rng, buf) {}
}

/// Plays one random action, as [`random_action`] picks it; false when
/// there is none (the game is over).
#[inline(always)]
fn play_one<R: Rng + ?Sized>(state: &mut State, rng: &mut R, buf: &mut Vec<Action>) -> bool {
    // The steps of every turn, played without an action in between: the
    // same picks as random_action's.
    match state.step {
        Step::Draw => {
            if let Some(kind) = state.bag.sample(rng) {
                state.draw(kind, &mut NoEvents);
                return true;
            }
        }
        Step::Place => {
            if let Some(p) = random_placement(state, rng) {
                state.place(p, &mut NoEvents);
                return true;
            }
            // Nothing found by rejection: the actions listed, as random_action does.
            if let Some(a) = pick_listed(state, rng, buf) {
                state.play_unchecked(a);
                return true;
            }
            return false;
        }
        Step::Deploy if !state.plan.other_figures() => {
            random_deployment(state, rng);
            return true;
        }
        _ => {}
    }
    match random_action(state, rng, buf) {
        Some(a) => {
            state.play_unchecked(a);
            true
        }
        None => false,
    }
}

/// Plays the deploy step where the normal follower is the only figure: the
/// same uniform pick among the same actions as [`random_action`] (each free
/// piece of the tile in order, then passing), without listing them as
/// actions or naming the piece to find it again.
fn random_deployment<R: Rng + ?Sized>(state: &mut State, rng: &mut R) {
    let first = state.board.tile(state.placed).first_piece;
    let (mut free, mut n) = (0u32, 1usize);
    if state.supply[FollowerKind::Normal as usize][state.acting as usize] > 0 {
        let spots = state.spots();
        (free, n) = (u32::from(spots.free), usize::from(spots.count) + 1);
    }
    let mut pick = rng.random_range(0..n);
    if pick + 1 < n {
        while pick > 0 {
            free &= free - 1;
            pick -= 1;
        }
        state.deploy(FollowerKind::Normal, first + free.trailing_zeros() as PieceId);
    }
    state.next_step(Step::Deploy, &mut NoEvents);
}
