//! The River in whole random games: the spring starts them, every river
//! tile is drawn before the lake and the lake before any other tile, D is
//! in the bag, and the river on the board is one unbroken line from the
//! spring to the lake that never runs beside itself.

use std::collections::HashMap;

use carcassonne_engine::geometry::{Pos, Side};
use carcassonne_engine::tile::EdgeKind;
use carcassonne_engine::{playout, Action, Bag, Edition, Expansion, Rules, State, TileKind};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn river_game(expansions: &[Expansion], edition: Edition, seed: u64) -> (State, Vec<TileKind>) {
    let rules = Rules::new(2, expansions, edition).unwrap();
    let mut state = State::new(rules);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (mut buf, mut draws) = (Vec::new(), Vec::new());
    while let Some(a) = playout::random_action(&state, &mut rng, &mut buf) {
        if let Action::Draw(k) = a {
            draws.push(k);
        }
        state.play(a).unwrap();
    }
    (state, draws)
}

/// The side of a placed tile's river on the board that `side` names, if any.
fn river_sides(kind: TileKind, rot: carcassonne_engine::geometry::Rotation) -> Vec<Side> {
    Side::ALL.into_iter().filter(|s| kind.info().river & s.bit() != 0).map(|s| s.rotated(rot)).collect()
}

#[test]
fn the_river_is_laid_first_from_the_spring_to_the_lake() {
    let river = |k: TileKind| k.info().expansion == Some(Expansion::River);
    for seed in 0..24u64 {
        let edition = if seed % 2 == 0 { Edition::C3 } else { Edition::C2 };
        let expansions: &[Expansion] = match seed % 3 {
            0 => &[Expansion::River],
            1 => &[Expansion::River, Expansion::Ferries],
            _ => &[Expansion::River, Expansion::Ferries, Expansion::Inns, Expansion::Abbey, Expansion::Traders],
        };
        let rules = Rules::new(2, expansions, edition).unwrap();
        assert_eq!(Bag::start_for(&rules).id(), "RS");
        let fresh = State::new(rules);
        assert_eq!(fresh.bag().count(TileKind::parse("D").unwrap()), 4, "D goes into the bag");
        assert!(fresh.bag().drawable().all(|k| river(k) && k.id() != "RL"));
        let (state, draws) = river_game(expansions, edition, seed);
        assert!(state.is_over(), "seed {seed}");
        // Ten river tiles, then the lake, then none.
        assert!(draws[..10].iter().all(|k| river(*k) && k.id() != "RL"), "seed {seed}: {draws:?}");
        assert_eq!(draws[10].id(), "RL", "seed {seed}");
        assert!(draws[11..].iter().all(|k| !river(*k)), "seed {seed}");
        let garden = draws[..10].iter().any(|k| k.id() == "R9");
        assert_eq!(garden, edition == Edition::C3, "the garden bend is c3's");

        // The river on the board: 12 tiles, one path from the spring.
        let tiles: HashMap<Pos, (TileKind, Vec<Side>)> = state
            .board()
            .tiles()
            .iter()
            .filter(|t| river(t.kind))
            .map(|t| (t.pos, (t.kind, river_sides(t.kind, t.rot))))
            .collect();
        assert_eq!(tiles.len(), 12, "seed {seed}: every river tile was placed");
        let (mut at, mut from) = (Pos::ORIGIN, None::<Side>);
        let mut path = vec![at];
        loop {
            let (kind, sides) = &tiles[&at];
            let Some(out) = sides.iter().copied().find(|s| Some(*s) != from) else {
                assert_eq!(kind.id(), "RL", "seed {seed}: the river ends at the lake");
                break;
            };
            let next = at.step(out);
            let (_, back) = &tiles.get(&next).unwrap_or_else(|| panic!("seed {seed}: the river is open at {at:?}"));
            assert!(back.contains(&out.opposite()), "seed {seed}: the river is unbroken at {next:?}");
            from = Some(out.opposite());
            at = next;
            path.push(at);
        }
        assert_eq!(path.len(), 12, "seed {seed}: {path:?}");
        // Never beside itself: tiles of the river touch only the ones
        // before and after them on its path.
        for (i, p) in path.iter().enumerate() {
            for (j, q) in path.iter().enumerate() {
                let touching = (p.x - q.x).abs() + (p.y - q.y).abs() == 1;
                assert!(!touching || i.abs_diff(j) == 1, "seed {seed}: {p:?} and {q:?} touch across the river's bend");
            }
        }
        // The river meets only river on the board.
        for t in state.board().tiles() {
            for s in Side::ALL {
                let mine = t.kind.info().edges[Side::ALL.iter().position(|x| x.rotated(t.rot) == s).unwrap()];
                if let Some(n) = state.board().tiles().iter().find(|n| n.pos == t.pos.step(s)) {
                    let theirs =
                        n.kind.info().edges[Side::ALL.iter().position(|x| x.rotated(n.rot) == s.opposite()).unwrap()];
                    assert_eq!(mine == EdgeKind::River, theirs == EdgeKind::River, "seed {seed}: {:?}", t.pos);
                }
            }
        }
    }
}

#[test]
fn games_without_the_river_keep_d_as_the_start_and_one_stage() {
    let rules = Rules::new(2, &[Expansion::Ferries], Edition::C3).unwrap();
    assert_eq!(Bag::start_for(&rules).id(), "D");
    let state = State::new(rules);
    assert_eq!(state.bag().drawable().count(), state.bag().kinds().count());
    assert_eq!(state.bag().drawable_total(), state.bag().total());
    assert_eq!(state.bag().total(), 71 + 8);
}
