//! "Why not?": what the player to act may point at and not choose, with
//! the rule that forbids it, so the UI can answer in the words of the
//! rules instead of showing nothing.
//!
//! Each refusal is the engine's own: the candidate action is checked by
//! `State::check` and its typed error (`PlayError`) is what is sent, by its
//! stable `kind` and its message. Two steps have things to point at:
//!
//! - **deploy:** every feature of the tile just placed that a figure of the
//!   game may not stand on (taken, the wrong kind for that figure, none left
//!   in supply);
//! - **move ferries:** every ferry on the board that may not move (F6: no
//!   road of the new tile reaches it without passing another ferry; F7:
//!   moved this turn already).

use carcassonne_engine::{Action, FollowerKind, PlayError, State, Step};
use serde::Serialize;

use crate::wire::xy;

/// A choice the rules refuse now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Refusal {
    /// `deploy` (a figure on a feature of the tile just placed) or `move`
    /// (a ferry).
    #[serde(rename = "type")]
    pub what: &'static str,
    /// The tile: the one just placed, or the ferry's lake.
    pub at: [i32; 2],
    /// For `deploy`: the figure, the feature's name and its piece (the index
    /// into its tile kind's `features`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub figure: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feature: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub piece: Option<u8>,
    /// The engine's name of the broken rule (`PlayError::kind`).
    pub kind: &'static str,
    /// The engine's words for it.
    pub why: String,
    /// For a figure on the wrong feature: the rule alone ("the mayor goes
    /// only into a city"), which the UI translates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
}

/// The rule alone of an error that names one among its details.
fn reason(e: &PlayError) -> Option<&'static str> {
    match e {
        PlayError::WrongFeatureForFigure { why, .. } => Some(why),
        _ => None,
    }
}

/// The refusals of the step at hand (empty at other steps).
pub fn refusals(s: &State) -> Vec<Refusal> {
    match s.step() {
        Step::Deploy => deploy_refusals(s),
        Step::MoveFerries => ferry_refusals(s),
        _ => Vec::new(),
    }
}

fn deploy_refusals(s: &State) -> Vec<Refusal> {
    let Some(t) = s.placed_tile() else { return Vec::new() };
    let pieces = t.kind.info().def.features.len() as u16;
    let mut out = Vec::new();
    // A barn goes on a corner, not a feature: its refusals are not spots.
    let figures = s.rules().figures().into_iter().map(|(kind, _)| kind).filter(|&k| k != FollowerKind::Barn);
    for figure in figures {
        for local in 0..pieces {
            let piece = t.first_piece() + local;
            let (at, loc) = s.piece_location(piece);
            if let Err(e) = s.check(Action::Deploy(figure, loc)) {
                out.push(Refusal {
                    what: "deploy",
                    at: xy(at),
                    figure: Some(figure.name()),
                    feature: Some(loc.to_string()),
                    piece: Some(local as u8),
                    kind: e.kind(),
                    why: e.to_string(),
                    reason: reason(&e),
                });
            }
        }
    }
    out
}

fn ferry_refusals(s: &State) -> Vec<Refusal> {
    s.ferries()
        .all()
        .iter()
        .filter_map(|f| {
            let at = s.board().tile(f.tile as usize).pos;
            // Its own jetties: a ferry that may move is refused only as no
            // move (F8), which is not a refusal of the ferry.
            match s.check(Action::MoveFerry { at, ferry: f.jetties }) {
                Err(PlayError::SameJetties { .. }) | Ok(()) => None,
                Err(e) => Some(Refusal {
                    what: "move",
                    at: xy(at),
                    figure: None,
                    feature: None,
                    piece: None,
                    kind: e.kind(),
                    why: e.to_string(),
                    reason: reason(&e),
                }),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne_engine::record::Setup;
    use carcassonne_engine::Pos;
    use carcassonne_engine::{Actor, Game};
    use rand::seq::IndexedRandom;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Random 3-player games of these expansions, calling `at_step` on
    /// every state a player acts in.
    fn random_states(expansions: &[&str], games: u64, mut at_step: impl FnMut(&State)) {
        for seed in 0..games {
            let setup = Setup {
                players: vec!["a".into(), "b".into(), "c".into()],
                expansions: expansions.iter().map(|e| e.parse().unwrap()).collect(),
                edition: None,
                seed: None,
                rules: Default::default(),
            };
            let mut game = Game::new(setup).unwrap();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            while !game.state().is_over() {
                let a = if game.state().actor() == Some(Actor::Chance) {
                    Action::Draw(game.state().bag().sample(&mut rng).unwrap())
                } else {
                    at_step(game.state());
                    *game.state().legal_action_list().choose(&mut rng).unwrap()
                };
                game.play(a).unwrap();
            }
        }
    }

    #[test]
    fn every_feature_of_the_new_tile_is_offered_or_refused_by_the_rule_the_engine_names() {
        let (mut occupied, mut wrong_kind, mut no_figure) = (0, 0, 0);
        random_states(&["inns", "abbey", "traders"], 4, |s| {
            if s.step() != Step::Deploy {
                return;
            }
            let refused = refusals(s);
            let t = s.placed_tile().expect("a tile is placed at the deploy step");
            let mut count = 0;
            for figure in FollowerKind::ALL.into_iter().filter(|&k| k != FollowerKind::Barn) {
                if s.rules().figure_count(figure) == 0 {
                    continue;
                }
                for local in 0..t.kind.info().def.features.len() as u16 {
                    let (at, loc) = s.piece_location(t.first_piece() + local);
                    let legal = s.is_legal(Action::Deploy(figure, loc));
                    let r = refused.iter().find(|r| r.figure == Some(figure.name()) && r.piece == Some(local as u8));
                    assert_eq!(legal, r.is_none(), "{figure:?} on {loc}: legal, or refused, never both nor neither");
                    if let Some(r) = r {
                        count += 1;
                        assert_eq!((r.what, r.at), ("deploy", xy(at)));
                        assert_eq!(r.feature.as_deref(), Some(loc.to_string().as_str()));
                        let e = s.check(Action::Deploy(figure, loc)).unwrap_err();
                        assert_eq!((r.kind, r.why.as_str()), (e.kind(), e.to_string().as_str()));
                        // The rule alone is in the engine's words for the whole.
                        assert_eq!(r.reason.is_some(), r.kind == "wrong-feature-for-figure");
                        assert!(r.reason.is_none_or(|why| r.why.ends_with(why)), "{r:?}");
                        match r.kind {
                            "feature-occupied" => occupied += 1,
                            "wrong-feature-for-figure" => wrong_kind += 1,
                            "no-follower-in-supply" | "no-figure-in-supply" => no_figure += 1,
                            _ => {}
                        }
                    }
                }
            }
            assert_eq!(count, refused.len(), "nothing else is refused");
        });
        // The games reach the common refusals, so the checks above saw them.
        assert!(occupied > 20 && wrong_kind > 20 && no_figure > 20, "{occupied} {wrong_kind} {no_figure}");
    }

    #[test]
    fn a_ferry_that_may_not_move_is_refused_by_f6_or_f7_and_a_movable_one_is_not() {
        let (mut f6, mut f7) = (0, 0);
        random_states(&["ferries"], 30, |s| {
            if s.step() != Step::MoveFerries {
                assert!(s.step() == Step::Deploy || refusals(s).is_empty(), "refusals only at two steps");
                return;
            }
            let movable: Vec<Pos> = s.movable_ferries().collect();
            let refused = refusals(s);
            for f in s.ferries().all() {
                let at = s.board().tile(f.tile as usize).pos;
                let r = refused.iter().find(|r| r.at == xy(at));
                assert_eq!(movable.contains(&at), r.is_none(), "the ferry at {at}: movable, or refused");
                if let Some(r) = r {
                    assert_eq!(r.what, "move");
                    match r.kind {
                        "ferry-not-movable" => f6 += 1,
                        "ferry-moved-already" => f7 += 1,
                        other => panic!("a ferry refused by {other}"),
                    }
                    assert!(r.why.contains(if r.kind == "ferry-not-movable" { "(F6)" } else { "(F7)" }));
                }
            }
            assert_eq!(refused.len(), s.ferries().all().len() - movable.len());
        });
        assert!(f6 > 10 && f7 > 0, "F6 {f6}, F7 {f7}");
    }
}
