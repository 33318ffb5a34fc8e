//! `State::feature_worth` (what user interfaces show of a feature) agrees
//! with the scoring itself: summed over the features that hold figures, its
//! end-of-game shares are the end of the game's points but the goods', at
//! every turn of random games with every expansion; and a completed road's
//! or city's worth is what it scored.

use std::collections::BTreeSet;

use carcassonne_engine::features::PieceId;
use carcassonne_engine::playout::random_action;
use carcassonne_engine::record::Setup;
use carcassonne_engine::{Event, FeatureKind, Game, State, Step};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The end-of-game points of every feature holding figures, by seat.
fn summed_at_end(state: &State) -> Vec<u32> {
    let mut roots = BTreeSet::new();
    let mut sum = vec![0; state.rules().players()];
    for f in state.followers() {
        let root: PieceId = state.features().find(f.piece);
        if roots.insert(root) {
            for (s, w) in sum.iter_mut().zip(state.feature_worth(root).at_end) {
                *s += w;
            }
        }
    }
    sum
}

/// The goods' points at the end (Traders & Builders).
fn goods_points(state: &State) -> Vec<u32> {
    let goods = state.goods();
    let mut out = vec![0; state.rules().players()];
    for g in 0..3 {
        let best = goods.iter().map(|t| t[g]).max().unwrap_or(0);
        for (o, t) in out.iter_mut().zip(goods) {
            if best > 0 && t[g] == best {
                *o += 10;
            }
        }
    }
    out
}

#[test]
fn feature_worth_agrees_with_the_scoring() {
    let mut checked = 0;
    for seed in 0..24u64 {
        let expansions = match seed % 4 {
            0 => vec![],
            1 => vec!["ferries", "inns"],
            2 => vec!["abbey", "traders"],
            _ => vec!["ferries", "inns", "abbey", "traders"],
        };
        let setup = Setup {
            players: (0..2 + seed as usize % 4).map(|i| format!("P{i}")).collect(),
            expansions: expansions.into_iter().map(|e| e.parse().unwrap()).collect(),
            edition: None,
            seed: None,
            rules: Default::default(),
        };
        let mut game = Game::new(setup).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut buf = Vec::new();
        while let Some(a) = random_action(game.state(), &mut rng, &mut buf) {
            let before = game.state().clone();
            let mut events = Vec::new();
            game.play_with(a, &mut events).unwrap();
            // A road or city completed now: worth what it scored.
            for e in &events {
                if let Event::Scored(s) = e {
                    if s.completed && matches!(s.kind, FeatureKind::Road | FeatureKind::City) && !s.end_of_game {
                        let best = s.points.iter().copied().max().unwrap_or(0);
                        let state = game.state();
                        let t = state.board().tile_at(s.tiles[0]).unwrap();
                        let worth = (0..t.kind.info().pieces())
                            .map(|l| state.feature_worth(t.first_piece() + l as PieceId))
                            .find(|w| w.complete && w.value_complete == Some(best));
                        assert!(best == 0 || worth.is_some(), "seed {seed}: a completed {} worth {best}", s.kind);
                    }
                }
            }
            let state = game.state();
            if state.step() == Step::Draw && before.step() != Step::Draw {
                let end: Vec<u32> = state.final_scores().iter().zip(state.scores()).map(|(f, s)| f - s).collect();
                let expected: Vec<u32> = end.iter().zip(goods_points(state)).map(|(e, g)| e - g).collect();
                assert_eq!(summed_at_end(state), expected, "seed {seed}, turn {}", state.turns());
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked} positions checked");
}
