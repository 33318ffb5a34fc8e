//! The review of a game (docs/analysis.md): a move thrown away is marked
//! and costs points, the best move costs nothing, the figures are those of
//! probabilities and the review is reproducible; the luck of a draw is zero
//! on average over the bag.

use carcassonne_bots::review::{self, accuracy_of, DrawLuck, Mark, ReviewBudget};
use carcassonne_bots::{arena, Bot, GreedyBot};
use carcassonne_engine::{Action, Actor, Edition, Expansion, Game, Record, Rules, State};

/// Plays the action greedy ranks last at every decision: a player who
/// throws the game away.
struct Thrower(GreedyBot);

impl Bot for Thrower {
    fn choose(&mut self, state: &State) -> Option<Action> {
        self.0.rank(state).last().map(|(_, a)| *a)
    }
}

fn ferries() -> Rules {
    Rules::new(2, &[Expansion::Ferries], Edition::C3).unwrap()
}

/// A Ferries game of greedy (seat 0) against the thrower (seat 1).
fn thrown_game(seed: u64) -> Record {
    let names = vec!["greedy".to_string(), "thrower".to_string()];
    let mut bots: Vec<Box<dyn Bot>> = vec![Box::new(GreedyBot::new(seed)), Box::new(Thrower(GreedyBot::new(seed + 1)))];
    arena::play_game(ferries(), &names, &mut bots, seed).unwrap().record().unwrap()
}

const BUDGET: ReviewBudget = ReviewBudget::Iterations(300);

#[test]
fn marks_follow_the_drop_in_the_chance_to_win_and_solo_games_the_points_lost() {
    assert_eq!(Mark::of(0.049, 50.0, false), None);
    assert_eq!(Mark::of(0.05, 0.0, false), Some(Mark::Inaccuracy));
    assert_eq!(Mark::of(0.12, 0.0, false), Some(Mark::Mistake));
    assert_eq!(Mark::of(0.15, 0.0, false), Some(Mark::Blunder));
    assert_eq!(Mark::of(0.9, 2.9, true), None);
    assert_eq!(Mark::of(0.0, 6.0, true), Some(Mark::Mistake));
    assert_eq!(Mark::of(0.0, 10.0, true), Some(Mark::Blunder));
    assert_eq!(accuracy_of(0.0), 100.0);
    assert!((accuracy_of(5.0) - 60.65).abs() < 0.01);
    assert!((accuracy_of(10.0) - 36.79).abs() < 0.01);
    assert!(accuracy_of(20.0) < accuracy_of(10.0));
}

#[test]
fn a_thrown_game_is_marked_and_costs_points_and_the_best_moves_cost_nothing() {
    let record = thrown_game(3);
    let mut calls = Vec::new();
    let r = review::review(&record, BUDGET, 7, &mut |done, total| calls.push((done, total))).unwrap();
    assert!(r.finished);
    // Progress runs from 0 to every action of the record.
    let total = record.actions().unwrap().iter().map(Vec::len).sum::<usize>();
    assert_eq!(calls.first(), Some(&(0, total)));
    assert_eq!(calls.last(), Some(&(total, total)));
    // Every decision with a choice, and only those, in the record's order.
    let mut game = Game::new(record.setup.clone()).unwrap();
    let mut expected = Vec::new();
    let mut index = 0;
    for (entry, actions) in record.actions().unwrap().iter().enumerate() {
        for &a in actions {
            if let Some(Actor::Player(p)) = game.state().actor() {
                if game.state().legal_action_list().len() > 1 {
                    expected.push((entry + 1, index, p, a));
                }
            }
            game.play(a).unwrap();
            index += 1;
        }
    }
    let got: Vec<_> = r.decisions.iter().map(|d| (d.turn, d.index, d.player, d.played)).collect();
    assert_eq!(got, expected);
    for d in &r.decisions {
        for w in [&d.win, &d.win_before] {
            assert_eq!(w.len(), 2);
            assert!((w.iter().sum::<f32>() - 1.0).abs() < 1e-3, "{d:?}");
            assert!(w.iter().all(|x| (0.0..=1.0).contains(x)));
        }
        assert!(d.loss >= 0.0 && d.drop >= 0.0);
        if d.played == d.best {
            assert_eq!((d.loss, d.drop, d.mark, d.accuracy), (0.0, 0.0, None, 100.0));
            assert_eq!(d.win, d.win_before);
        }
        assert_eq!(d.mark, Mark::of(d.drop, d.loss, false).filter(|_| d.played != d.best));
    }
    let (good, bad) = (&r.players[0], &r.players[1]);
    assert!(bad.loss > 4.0 * good.loss + 20.0, "{good:?} {bad:?}");
    assert!(bad.accuracy + 30.0 < good.accuracy, "{good:?} {bad:?}");
    // Marks come from the chance to win: the thrower's first throws lose
    // the game, and then little is left to lose.
    let marked = |p: &review::PlayerReview| p.marks.inaccuracies + p.marks.mistakes + p.marks.blunders;
    assert!(marked(bad) > marked(good), "{good:?} {bad:?}");
    assert!(bad.marks.mistakes + bad.marks.blunders > 0, "{bad:?}");
    // Once the thrower is lost, it stays lost: its last decisions see no chance.
    let last = r.decisions.iter().rev().find(|d| d.player == 1).unwrap();
    assert!(last.win[1] < 0.05, "{last:?}");
}

#[test]
fn the_same_seed_and_iterations_give_the_same_review() {
    let record = thrown_game(5);
    let cut = Record { turns: record.turns[..12].to_vec(), ..record.clone() };
    let a = review::review(&cut, BUDGET, 1, &mut |_, _| {}).unwrap();
    let b = review::review(&cut, BUDGET, 1, &mut |_, _| {}).unwrap();
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
    // A game in progress is reviewed up to its last decision.
    assert!(!a.finished);
    assert_eq!(a.decisions.last().unwrap().turn, 12);
}

#[test]
fn the_luck_of_a_draw_is_zero_on_average_over_the_bag() {
    let record = thrown_game(9);
    let mut game = Game::new(record.setup.clone()).unwrap();
    let mut luck = DrawLuck::new(1);
    let mut checked = 0;
    let mut draws = 0;
    for a in record.actions().unwrap().into_iter().flatten() {
        let state = game.state().clone();
        game.play(a).unwrap();
        let (Action::Draw(_), Some(Actor::Player(drawer))) = (a, game.state().actor()) else { continue };
        draws += 1;
        if draws % 20 != 5 {
            continue;
        }
        let bag = state.bag();
        let total = bag.drawable_total() as f32;
        let lucks: Vec<(f32, f32)> =
            bag.drawable().map(|k| (luck.of_draw(&state, k, drawer), bag.count(k) as f32 / total)).collect();
        let mean: f32 = lucks.iter().map(|(l, w)| l * w).sum();
        assert!(mean.abs() < 1e-2, "mean luck {mean} at draw {draws}");
        // Some tiles are better than others.
        assert!(lucks.iter().any(|(l, _)| *l > 0.1) && lucks.iter().any(|(l, _)| *l < -0.1), "{lucks:?}");
        checked += 1;
    }
    assert!(checked >= 2);
}

#[test]
fn a_search_of_one_action_spends_its_budget_on_that_action_alone() {
    use carcassonne_bots::mcts::Budget;
    use carcassonne_bots::{MctsBot, MctsConfig};
    let record = thrown_game(2);
    let mut game = Game::new(record.setup.clone()).unwrap();
    for a in record.actions().unwrap().into_iter().flatten().take(40) {
        game.play(a).unwrap();
    }
    while game.state().step() != carcassonne_engine::Step::Place || game.state().legal_action_list().len() < 3 {
        let a = game.state().legal_action_list()[0];
        game.play(a).unwrap();
    }
    let state = game.state();
    let config = MctsConfig { budget: Budget::Iterations(400), trees: 1, cut: Some(0), ..MctsConfig::default() };
    let mut bot = MctsBot::new(config, 3);
    let worst = state.legal_action_list()[2];
    let stat = bot.search_action(state, worst).expect("a legal action's figures");
    assert_eq!(stat.action, worst);
    assert_eq!(stat.samples, 400);
    assert!((stat.wins[..2].iter().sum::<f32>() - 1.0).abs() < 1e-3);
    // Not legal here (a tile is to be placed): nothing.
    assert!(bot.search_action(state, Action::Pass).is_none());
}

#[test]
fn a_review_counts_each_players_hints_and_marks_the_turns_they_were_asked_in() {
    let mut record = thrown_game(5);
    let plain = review::review(&record, BUDGET, 7, &mut |_, _| {}).unwrap();
    assert!(plain.players.iter().all(|p| p.hints == 0) && plain.decisions.iter().all(|d| !d.hinted));
    // Seat 1 asked twice in its third turn, seat 0 once in its tenth.
    let turn_of = |seat: usize, nth: usize| {
        record.turns.iter().enumerate().filter(|(i, _)| i % 2 == seat).nth(nth).map(|(i, _)| i).unwrap()
    };
    let (a, b) = (turn_of(1, 2), turn_of(0, 9));
    record.turns[a].hints = vec![1, 1];
    record.turns[b].hints = vec![0];
    let hinted = review::review(&record, BUDGET, 7, &mut |_, _| {}).unwrap();
    assert_eq!(hinted.players.iter().map(|p| p.hints).collect::<Vec<_>>(), [1, 2]);
    for d in &hinted.decisions {
        assert_eq!(d.hinted, (d.turn == a + 1 && d.player == 1) || (d.turn == b + 1 && d.player == 0), "{d:?}");
    }
    assert!(hinted.decisions.iter().any(|d| d.hinted));
    // The hints change nothing else.
    let figures = |r: &review::Review| r.decisions.iter().map(|d| (d.best, d.loss.to_bits())).collect::<Vec<_>>();
    assert_eq!(figures(&plain), figures(&hinted));
}

#[test]
fn a_hint_is_legal_and_better_than_the_move_thrown_away() {
    let record = thrown_game(6);
    let reviewed = review::review(&record, BUDGET, 9, &mut |_, _| {}).unwrap();
    let actions: Vec<Action> = record.actions().unwrap().into_iter().flatten().collect();
    let mut game = Game::new(record.setup.clone()).unwrap();
    let (mut gain, mut n) = (0.0f32, 0);
    for (i, a) in actions.iter().enumerate() {
        if let Some(Actor::Player(p)) = game.state().actor() {
            let h = review::hint(game.state(), BUDGET, 11, None).expect("a player is to act");
            assert!(game.state().is_legal(h.action), "the hint is legal");
            assert!((h.win.iter().sum::<f32>() - 1.0).abs() < 1e-4, "chances sum to 1");
            assert_eq!(h.win.len(), 2);
            if game.state().legal_action_list().len() == 1 {
                assert_eq!(h.action, *a, "a forced move is its own hint");
            } else if p == 1 && n < 20 {
                // The thrower's move, as the review valued it, against the hint's.
                let d = reviewed.decisions.iter().find(|d| d.index == i).expect("reviewed");
                gain += h.win[1] - d.win[1];
                n += 1;
            }
        }
        game.play(*a).unwrap();
    }
    assert_eq!(n, 20);
    assert!(gain / n as f32 > 0.02, "the hints win more than the moves thrown away: {}", gain / n as f32);
    let over = Game::replay(&record).unwrap();
    assert!(review::hint(over.state(), BUDGET, 11, None).is_none(), "no hint once the game is over");
}
