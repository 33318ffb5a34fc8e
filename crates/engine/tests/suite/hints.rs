//! Hints in the record: each turn's entry lists the seats that asked for
//! one, the record replays with them, and no rewriting of the record
//! (version 2, a turn in progress, a rebuild from actions) loses one.

use carcassonne_engine::record::Setup;
use carcassonne_engine::{Action, Actor, FollowerKind, Game, HintError, Record, RecordError, Step};
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn new_game(expansions: &[&str]) -> Game {
    Game::new(Setup {
        players: vec!["Ann".into(), "Bob".into()],
        expansions: expansions.iter().map(|e| e.parse().unwrap()).collect(),
        edition: None,
        seed: None,
        rules: Default::default(),
    })
    .unwrap()
}

/// Plays random actions (draws from the bag) until `until` holds or the game ends.
fn play_until(game: &mut Game, rng: &mut Xoshiro256PlusPlus, until: impl Fn(&Game) -> bool) -> bool {
    play_until_but(game, rng, until, |_| true)
}

/// As [`play_until`], choosing only among the actions `may` allows (when any).
fn play_until_but(
    game: &mut Game,
    rng: &mut Xoshiro256PlusPlus,
    until: impl Fn(&Game) -> bool,
    may: impl Fn(&Action) -> bool,
) -> bool {
    while !game.state().is_over() {
        if game.state().actor() == Some(Actor::Chance) {
            let tile = game.state().bag().sample(rng).unwrap();
            game.play(Action::Draw(tile)).unwrap();
            continue;
        }
        if until(game) {
            return true;
        }
        let legal = game.state().legal_action_list();
        let allowed: Vec<Action> = legal.iter().copied().filter(|a| may(a)).collect();
        let a = *if allowed.is_empty() { &legal } else { &allowed }.choose(rng).unwrap();
        game.play(a).unwrap();
    }
    false
}

fn replayed(game: &Game) -> Game {
    Game::replay(&Record::from_json(&game.record().to_json()).unwrap()).unwrap()
}

#[test]
fn a_hint_is_written_in_its_turn_and_the_record_replays_with_it() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut game = new_game(&["ferries"]);
    play_until(&mut game, &mut rng, |g| g.state().turns() == 3 && g.state().step() == Step::Place);
    let seat = game.state().current_player();
    game.note_hint(seat).unwrap();
    game.note_hint(seat).unwrap();
    play_until(&mut game, &mut rng, |g| g.state().turns() == 6 && g.state().step() == Step::Place);
    game.note_hint(game.state().current_player()).unwrap();
    let turns = &game.record().turns;
    assert_eq!(turns[3].hints, [seat, seat], "two hints in the fourth turn");
    assert!(turns.iter().enumerate().all(|(i, t)| (i == 3 || i == 6) != t.hints.is_empty()));
    let mut counts = vec![0, 0];
    counts[seat] += 2;
    counts[game.state().current_player()] += 1;
    assert_eq!(game.hints_used(), counts);
    assert!(game.record().to_json().contains(&format!(r#""hints":[{seat},{seat}]"#)));
    // A replay keeps them, in the game in progress and once it is over.
    let again = replayed(&game);
    assert_eq!(again.record(), game.record());
    assert_eq!(again.hints_used(), counts);
    // The record of the turn in progress (its tile alone) keeps its hint.
    assert_eq!(game.settled_record().turns[6].hints, game.record().turns[6].hints);
    play_until(&mut game, &mut rng, |_| false);
    assert_eq!(replayed(&game).record(), game.record());
    assert_eq!(game.note_hint(0), Err(HintError::GameOver));
}

#[test]
fn hints_change_nothing_in_the_game() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
    let mut game = new_game(&[]);
    play_until(&mut game, &mut rng, |g| g.state().turns() == 10);
    let before = game.state().clone();
    game.note_hint(1).unwrap();
    assert_eq!(game.state(), &before);
    let mut plain = game.record().clone();
    plain.turns.iter_mut().for_each(|t| t.hints.clear());
    assert_eq!(Game::replay(&plain).unwrap().state(), replayed(&game).state());
}

#[test]
fn a_hint_of_a_seat_not_in_the_game_is_refused() {
    let mut game = new_game(&[]);
    assert_eq!(game.note_hint(2), Err(HintError::NoSuchPlayer { seat: 2, players: 2 }));
    let text = r#"{"format": "carcassonne-record/1", "setup": {"players": ["A", "B"]},
        "turns": [{"tile": "A", "at": [-1, 0], "rot": 270, "hints": [0, 5]}]}"#;
    match Game::replay(&Record::from_json(text).unwrap()) {
        Err(RecordError::Turn { turn: 1, error }) => {
            assert_eq!(error.kind(), "hint-seat");
            assert!(error.to_string().contains("player 5"), "{error}");
        }
        other => panic!("expected the hint refused, got {other:?}"),
    }
    assert!(game.record().turns.iter().all(|t| t.hints.is_empty()));
}

#[test]
fn a_record_going_on_in_version_2_keeps_the_hints_of_version_1() {
    // Inns & Cathedrals: the first big follower deployed turns the record to version 2.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut game = new_game(&["inns"]);
    let not_big = |a: &Action| !matches!(a, Action::Deploy(FollowerKind::Big, _));
    play_until_but(&mut game, &mut rng, |g| g.state().turns() == 2 && g.state().step() == Step::Place, not_big);
    game.note_hint(0).unwrap();
    let big = |g: &Game| g.state().legal_action_list().iter().any(|a| !not_big(a));
    assert!(play_until_but(&mut game, &mut rng, |g| g.state().turns() > 2 && big(g), not_big));
    assert_eq!(game.record().format, carcassonne_engine::record::FORMAT_V1);
    let turn = game.state().turns() as usize;
    game.note_hint(1).unwrap();
    let a =
        *game.state().legal_action_list().iter().find(|a| matches!(a, Action::Deploy(FollowerKind::Big, _))).unwrap();
    game.play(a).unwrap();
    assert_eq!(game.record().format, carcassonne_engine::record::FORMAT_V2);
    assert_eq!(game.record().turns[2].hints, [0]);
    assert_eq!(game.record().turns[turn].hints, [1]);
    assert_eq!(replayed(&game).record(), game.record());
    // And a version-1 record's hints go along into its version-2 form.
    let mut v1 = new_game(&["ferries"]);
    play_until(&mut v1, &mut rng, |g| g.state().turns() == 4 && g.state().step() == Step::Place);
    v1.note_hint(1).unwrap();
    play_until(&mut v1, &mut rng, |_| false);
    let v2 = v1.record().to_v2().unwrap();
    assert_eq!(v2.turns[4].hints, [1]);
    assert_eq!(Game::replay(&v2).unwrap().hints_used(), v1.hints_used());
}

#[test]
fn a_hint_before_the_draw_opens_the_turns_entry() {
    // Abbey & Mayor: the abbey step comes before the draw, in version 2.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
    let mut game = new_game(&["abbey"]);
    assert!(play_until(&mut game, &mut rng, |g| g.state().step() == Step::Abbey), "a hole for the abbey");
    let turn = game.state().turns() as usize;
    assert_eq!(game.record().turns.len(), turn, "no entry before the turn's first action");
    let seat = game.state().current_player();
    game.note_hint(seat).unwrap();
    assert_eq!(game.record().turns[turn].hints, [seat]);
    assert_eq!(game.record().turns[turn].player, Some(seat));
    // The record of the game waiting at the abbey step replays to the same game.
    let waiting = replayed(&game);
    assert_eq!(waiting.record(), game.record());
    assert_eq!(waiting.state(), game.state());
    // The turn's actions follow in the same entry.
    game.play(Action::Pass).unwrap();
    play_until(&mut game, &mut rng, |g| g.state().turns() as usize > turn);
    assert_eq!(game.record().turns[turn].hints, [seat]);
    assert_eq!(game.record().turns[turn].actions[0], Action::Pass);
    assert_eq!(replayed(&game).record(), game.record());
}

#[test]
fn a_game_rebuilt_from_its_actions_takes_the_hints_back() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let mut game = new_game(&["abbey", "ferries"]);
    for n in [3u32, 9, 15] {
        play_until(&mut game, &mut rng, |g| g.state().turns() == n);
        game.note_hint(game.state().current_player()).unwrap();
    }
    let record = game.record().clone();
    let actions: Vec<Action> = record.actions().unwrap().into_iter().flatten().collect();
    let mut rebuilt = new_game(&["abbey", "ferries"]);
    for a in actions {
        rebuilt.play(a).unwrap();
    }
    assert_ne!(rebuilt.record(), &record, "actions hold no hints");
    rebuilt.copy_hints(&record).unwrap();
    assert_eq!(rebuilt.record(), &record);
    assert_eq!(rebuilt.hints_used().iter().sum::<u32>(), 3);
}

#[test]
fn a_hint_before_the_draw_survives_the_rewriting_in_version_2_and_a_past_position_shows_no_later_hint() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut game = new_game(&["abbey"]);
    assert!(play_until(&mut game, &mut rng, |g| g.state().step() == Step::Abbey), "a hole for the abbey");
    let seat = game.state().current_player();
    game.note_hint(seat).unwrap();
    // The last entry holds the hint alone: `to_v2` keeps it.
    let v2 = game.record().to_v2().unwrap();
    assert_eq!(v2.turns.last().unwrap().hints, [seat]);
    assert_eq!(Game::replay(&v2).unwrap().hints_used(), game.hints_used());
    // Rebuilt to the position before that turn, the game has no hint of it.
    let turns = game.state().turns() as usize;
    let actions: Vec<Action> = game.record().actions().unwrap().into_iter().take(turns).flatten().collect();
    let mut past = new_game(&["abbey"]);
    for a in actions {
        past.play(a).unwrap();
    }
    past.copy_hints_of_turns(game.record(), turns).unwrap();
    assert_eq!(past.hints_used().iter().sum::<u32>(), 0);
    past.copy_hints(game.record()).unwrap();
    assert_eq!(past.hints_used()[seat], 1, "the whole record's hints, for the game as it is");
}
