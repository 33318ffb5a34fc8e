//! Golden transcripts, in the spirit of OpenSpiel's playthroughs: seeded
//! games of every combination of the four expansions (and The River, The
//! Abbot and The Labyrinth each alone, The River with all four, and all
//! seven), written turn by turn
//! as the actions played and the events' wire JSON (docs/api.md's game
//! log), checked in under `tests/golden/`. Any change to what the engine
//! does in any of them changes a byte of a file: a refactoring must leave
//! them all as they are.
//!
//! The games choose among the legal actions sorted by their total order,
//! and draw by weight from the kinds that may be drawn, sorted by id, so the transcripts
//! depend only on the rules, not on the order the engine lists things in.
//!
//! `GOLDEN_BLESS=1 cargo test --release -p carcassonne-engine --test suite golden::`
//! writes the files anew (only for a deliberate change of the rules).

use std::fmt::Write as _;
use std::path::PathBuf;

use carcassonne_engine::{Action, Actor, Edition, Event, Expansion, Rules, State};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Every subset of the four expansions that meet The Ferries, then The
/// River alone and with all four, The Abbot and The Labyrinth alone, and
/// all seven, with its file name.
fn combinations() -> Vec<(String, Vec<Expansion>)> {
    (0..16u32)
        .chain([16, 31, 32, 64, 127])
        .map(|bits| {
            let set: Vec<Expansion> =
                Expansion::ALL.into_iter().enumerate().filter(|(i, _)| bits & (1 << i) != 0).map(|(_, e)| e).collect();
            let name = if set.is_empty() {
                "base".to_string()
            } else {
                set.iter().map(|e| e.name()).collect::<Vec<_>>().join("+")
            };
            (name, set)
        })
        .collect()
}

/// One seeded game as text: a header line, then a line per turn.
fn transcript(rules: Rules, seed: u64) -> String {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut state = State::new(rules);
    let mut out = String::new();
    let expansions: Vec<&str> = rules.expansions().map(|e| e.name()).collect();
    writeln!(
        out,
        "{}",
        serde_json::json!({"seed": seed, "players": rules.players(), "expansions": expansions,
            "edition": rules.edition().name()})
    )
    .unwrap();
    let mut actions: Vec<String> = Vec::new();
    let mut events: Vec<Event> = Vec::new();
    let mut legal = Vec::new();
    let mut turn = state.turns();
    while let Some(actor) = state.actor() {
        let action = match actor {
            Actor::Chance => {
                let mut kinds: Vec<_> = state.bag().drawable().collect();
                kinds.sort_by_key(|k| k.id());
                let total: u32 = kinds.iter().map(|&k| state.bag().count(k) as u32).sum();
                let mut pick = rng.random_range(0..total);
                let mut chosen = kinds[0];
                for k in kinds {
                    let n = state.bag().count(k) as u32;
                    if pick < n {
                        chosen = k;
                        break;
                    }
                    pick -= n;
                }
                Action::Draw(chosen)
            }
            Actor::Player(_) => {
                legal.clear();
                state.legal_actions(&mut legal);
                legal.sort();
                legal[rng.random_range(0..legal.len())]
            }
        };
        let seat = state.current_player();
        state.play_with(action, &mut events).expect("a listed action is legal");
        actions.push(action.to_string());
        if state.turns() != turn || state.is_over() {
            let line = serde_json::json!({"turn": turn + 1, "player": seat, "actions": actions, "events": events});
            writeln!(out, "{line}").unwrap();
            actions.clear();
            events.clear();
            turn = state.turns();
        }
    }
    writeln!(out, "{}", serde_json::json!({"final_scores": state.final_scores()})).unwrap();
    out
}

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

#[test]
fn every_combination_of_expansions_plays_as_its_golden_transcript() {
    let bless = std::env::var_os("GOLDEN_BLESS").is_some();
    let mut differ = Vec::new();
    for (i, (name, set)) in combinations().into_iter().enumerate() {
        let edition = if i % 2 == 0 { Edition::C3 } else { Edition::C2 };
        let mut text = String::new();
        // Two players, and the most the rules allow.
        let most = Rules::new(2, &set, edition).unwrap().max_players();
        for (game, players) in [2, most].into_iter().enumerate() {
            let rules = Rules::new(players, &set, edition).unwrap();
            text.push_str(&transcript(rules, 1000 + 10 * i as u64 + game as u64));
        }
        let path = golden_dir().join(format!("{name}.jsonl"));
        if bless {
            std::fs::create_dir_all(golden_dir()).unwrap();
            std::fs::write(&path, &text).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if want != text {
            let line = want.lines().zip(text.lines()).position(|(a, b)| a != b).unwrap_or(0) + 1;
            differ.push(format!("{name}.jsonl from line {line}"));
        }
    }
    assert!(differ.is_empty(), "the engine no longer plays as the golden transcripts: {differ:?}");
}

/// The transcripts hold what they should: every combination's games end,
/// and each expansion's own events appear in the games that play it.
#[test]
fn the_golden_transcripts_show_each_expansion_at_work() {
    for (name, set) in combinations() {
        let text = std::fs::read_to_string(golden_dir().join(format!("{name}.jsonl"))).unwrap();
        assert_eq!(text.matches("\"game_ended\"").count(), 2, "{name}");
        let has = |s: &str| text.contains(s);
        assert_eq!(has("\"ferry_placed\""), set.contains(&Expansion::Ferries), "{name}");
        assert_eq!(has("\"figure\":\"big\""), set.contains(&Expansion::Inns), "{name}");
        assert_eq!(has("abbey at"), set.contains(&Expansion::Abbey), "{name}");
        assert_eq!(has("\"figure\":\"builder\""), set.contains(&Expansion::Traders), "{name}");
        assert_eq!(has("draw RL"), set.contains(&Expansion::River), "{name}");
        assert_eq!(has("\"figure\":\"abbot\""), set.contains(&Expansion::Abbot), "{name}");
        assert_eq!(has("draw LA"), set.contains(&Expansion::Labyrinth), "{name}");
    }
}
