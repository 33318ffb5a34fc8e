//! `carcassonne play` driven through standard input: whole games, undo,
//! save and load, bad input and the end of input.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{carcassonne, run_with_input};

use serde_json::Value;

/// Runs `carcassonne args...` with `script` on standard input.
fn play(args: &[&str], script: &str) -> Output {
    run_with_input(carcassonne().args(args).env_remove("NO_COLOR").env_remove("COLUMNS"), script)
}

fn text(out: &Output) -> String {
    assert!(
        out.status.success(),
        "failed: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

fn file(name: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// The lines between the first line starting with `from` after `start`, and
/// the next line starting with `to`.
fn block(text: &str, start: usize, from: &str, to: &str) -> Option<(usize, String)> {
    let at = start + text[start..].find(from)?;
    let end = at + text[at..].find(to)?;
    Some((end, text[at..end].to_string()))
}

#[test]
fn a_whole_game_choosing_option_one_every_time() {
    let script = "1\n".repeat(600);
    let out = play(&["play", "--players", "human,greedy", "--expansions", "ferries", "--seed", "5"], &script);
    let text = text(&out);
    assert!(text.contains("seed 5"), "{text}");
    assert!(text.contains("── turn 1 · you draw "), "{text}");
    assert!(text.contains("greedy placed "), "the bot moves: {text}");
    assert!(text.contains("★ "), "scorings are shown as they happen");
    assert!(text.contains("end of game: "), "the end-of-game scoring is shown");
    assert!(text.contains("══ game over ══"));
    let table = &text[text.find("final scores").expect("final scores")..];
    assert!(table.contains("+roads") && table.contains("=total"), "{table}");
    assert!(table.lines().nth(1).unwrap().starts_with("you "), "{table}");
    assert!(table.contains(" with ") && table.contains(" points"), "{table}");
    assert!(!text.lines().any(|l| l.starts_with("? ")), "option 1 is always legal: {text}");
    assert!(!text.contains('\x1b'), "no colour into a pipe");
}

/// One human alone is a solo game: every turn is theirs, to the end of the bag.
#[test]
fn a_solo_game_is_every_turn_the_one_players() {
    let script = "1\n".repeat(600);
    let out = play(&["play", "--players", "human", "--expansions", "none", "--seed", "8"], &script);
    let text = text(&out);
    assert!(text.contains("── turn 1 · you draw ") && text.contains("── turn 2 · you draw "), "{text}");
    assert!(text.contains("══ game over ══"), "{text}");
    let table = &text[text.find("final scores").expect("final scores")..];
    assert!(table.contains("you end the solo game with "), "{table}");
}

#[test]
fn bots_alone_play_to_the_end_without_input() {
    let out = play(&["play", "--players", "random,greedy,random", "--seed", "2", "--edition", "c2"], "");
    let text = text(&out);
    assert!(text.contains("random#1") && text.contains("random#3"), "{text}");
    assert!(text.contains("══ game over ══") && text.contains("final scores"), "{text}");
    assert!(!text.contains("> "), "no prompt without a human: {text}");
}

#[test]
fn undo_takes_back_the_placement_and_shows_the_same_options() {
    let out = play(&["play", "--seed", "7", "--players", "human,random", "--expansions", "none"], "1\nundo\nquit\n");
    let text = text(&out);
    let (end, before) = block(&text, 0, "your tile ", "(a number").expect("the first placement");
    assert!(text[end..].contains("you placed "), "{text}");
    let undone = end + text[end..].find("  undone: place at ").expect("undone");
    let (_, after) = block(&text, undone, "your tile ", "(a number").expect("the placement again");
    assert_eq!(before, after);
    assert!(text.contains("left the game (nothing saved)"));
}

#[test]
fn undo_with_nothing_to_undo_says_so() {
    let out = play(&["play", "--seed", "7", "--expansions", "none"], "undo\nquit\n");
    assert!(text(&out).contains("? nothing to undo"));
}

#[test]
fn a_saved_record_replays_and_loads_with_the_same_tiles() {
    let path = file("play-save.json");
    let p = path.to_str().unwrap();
    // Turn 1: place, deploy (base game: no ferry step); turn 2 is the bot's;
    // turn 3 is saved while in progress, then abandoned.
    let script = format!("1\n1\nsave {p}\nquit\n");
    let first = text(&play(&["play", "--seed", "7", "--players", "me=human,greedy", "--expansions", "none"], &script));
    assert!(first.contains(&format!("saved 2 turns to {p}; carcassonne play --load {p} continues")), "{first}");

    let replay = carcassonne().args(["replay", "--json", p]).output().unwrap();
    assert!(replay.status.success(), "{}", String::from_utf8_lossy(&replay.stderr));
    let summary: Value = serde_json::from_slice(&replay.stdout).unwrap();
    assert_eq!(summary["turns"], 2);
    assert_eq!(summary["finished"], false);
    let record: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(record["setup"]["seed"], 7);
    assert_eq!(record["setup"]["players"], serde_json::json!(["me", "greedy"]));

    // Continued, turn 3 draws the tile it drew before.
    let header = |t: &str| t.lines().find(|l| l.starts_with("── turn 3 ·")).map(str::to_string);
    let again = text(&play(&["play", "--load", p], "quit\n"));
    assert!(again.contains("continuing ") && again.contains("2 turns played"), "{again}");
    assert!(again.contains("1 me (human) · 2 greedy (bot)"), "seats follow the names: {again}");
    assert_eq!(header(&first), header(&again));
    assert!(header(&first).is_some());
}

#[test]
fn a_finished_game_can_be_saved_and_loads_as_over() {
    let args = ["play", "--seed", "9", "--players", "human,random"];
    // How many decisions the game asks for, choosing option 1 each time.
    let full = text(&play(&args, &"1\n".repeat(600)));
    let decisions = full[..full.find("══ game over ══").expect("the game ends")].matches("\n> ").count();
    let path = file("play-finished.json");
    let p = path.to_str().unwrap();
    let script = format!("{}save {p}\n\n", "1\n".repeat(decisions));
    let out = text(&play(&args, &script));
    assert!(out.contains(&format!("to {p}")), "{out}");
    let replay = carcassonne().args(["replay", "--json", p]).output().unwrap();
    let summary: Value = serde_json::from_slice(&replay.stdout).unwrap();
    assert_eq!(summary["finished"], true);
    let loaded = text(&play(&["play", "--load", p], ""));
    assert!(loaded.contains("══ game over ══") && loaded.contains("final scores"), "{loaded}");
}

#[test]
fn garbage_is_refused_with_a_hint_and_asked_again() {
    let script = "xyzzy\n0\np 99 99 0\np 1\nm nowhere\n1 2\nquit\n";
    let text = text(&play(&["play", "--seed", "7", "--expansions", "none"], script));
    let hints: Vec<&str> = text.lines().filter(|l| l.starts_with("? ")).collect();
    assert_eq!(hints.len(), 6, "{text}");
    assert!(hints[0].contains("'xyzzy' is neither an option nor a command"), "{}", hints[0]);
    assert!(hints[1].contains("there is no option 0"), "{}", hints[1]);
    assert!(hints[2].contains("touches none"), "{}", hints[2]);
    assert!(hints[3].contains("p X Y ROT"), "{}", hints[3]);
    assert!(hints[4].contains("not a feature name"), "{}", hints[4]);
    assert!(hints[5].contains("by its number alone"), "{}", hints[5]);
    // Asked again after each: seven prompts for seven lines.
    assert_eq!(text.matches("\n> ").count(), 7, "{text}");
    assert!(!text.contains("you placed"));
}

#[test]
fn end_of_input_leaves_cleanly_and_saves_nothing() {
    for script in ["", "1\n", "1\n1\n"] {
        let out = play(&["play", "--seed", "4", "--expansions", "ferries"], script);
        let text = text(&out);
        assert!(text.contains("end of input: leaving the game (nothing saved)"), "{text}");
        assert!(out.stderr.is_empty());
    }
}

#[test]
fn typed_moves_play_like_options() {
    // Seed 7, base game: the first tile fits east of the start tile.
    let first = text(&play(&["play", "--seed", "7", "--expansions", "none"], "quit\n"));
    let line = first.lines().find(|l| l.trim_start().starts_with("1) [")).expect("options");
    // "  1) [x, y] r°   2) ..." -> p x y r
    let opt = &line[line.find('[').unwrap() + 1..];
    let (x, rest) = opt.split_once(", ").unwrap();
    let (y, rest) = rest.split_once("] ").unwrap();
    let r = &rest[..rest.find('°').unwrap()];
    let typed = text(&play(&["play", "--seed", "7", "--expansions", "none"], &format!("p {x} {y} {r}\npass\nquit\n")));
    let chosen = text(&play(&["play", "--seed", "7", "--expansions", "none"], "1\npass\nquit\n"));
    let placed = |t: &str| t.lines().find(|l| l.contains("you placed")).map(str::to_string);
    assert_eq!(placed(&typed), placed(&chosen));
    assert!(placed(&typed).unwrap().contains(&format!("at [{x}, {y}] turned {r}")));
    assert!(typed.contains("── turn 2 · greedy draws "), "{typed}");
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let plain = text(&play(&["play", "--seed", "1"], "quit\n"));
    assert!(!plain.contains('\x1b'));
    let coloured = text(&play(&["play", "--seed", "1", "--color", "always"], "quit\n"));
    assert!(coloured.contains("\x1b[0;92;42m·"), "fields in colour");
    let never = text(&play(&["play", "--seed", "1", "--color", "never"], "quit\n"));
    assert_eq!(never, plain);
}

#[test]
fn bad_options_are_refused_in_one_line() {
    let cases: [&[&str]; 5] = [
        &["play", "--players", "human,alphago"],
        &["play", "--players", "human,human,human,human,human,human"],
        &["play", "--expansions", "ferris"],
        &["play", "--load", "/nonexistent/record.json"],
        &["play", "--load", "x.json", "--edition", "c2"],
    ];
    for args in cases {
        let out = play(args, "");
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{err}");
    }
}

#[test]
fn the_game_is_played_with_the_ferries_unless_told_otherwise() {
    let default = text(&play(&["play", "--players", "random,random", "--seed", "3"], ""));
    assert!(default.lines().next().unwrap().contains(" · with ferries · "), "{default}");
    let base = text(&play(&["play", "--players", "random,random", "--seed", "3", "--expansions", "none"], ""));
    assert!(base.lines().next().unwrap().contains(" · base game · "), "{base}");
}
