//! What the terminal shows besides the board: options, decisions in words, the final table, help.

use super::*;

/// The end-of-game breakdown: points during the game, then the end's by kind.
pub(super) fn final_table(state: &State, names: &[String], colour: bool) -> String {
    const KINDS: [FeatureKind; 4] = [FeatureKind::Road, FeatureKind::City, FeatureKind::Monastery, FeatureKind::Field];
    let mut by_kind = vec![[0u32; 4]; names.len()];
    let totals = state.final_scores_with(|s| {
        if let Some(k) = KINDS.iter().position(|k| *k == s.kind) {
            for (p, pts) in s.points.iter().enumerate() {
                if let Some(row) = by_kind.get_mut(p) {
                    row[k] += pts;
                }
            }
        }
    });
    let w = names.iter().map(|n| n.chars().count()).max().unwrap_or(4).max(12);
    // Traders & Builders: the goods' majorities, the end's only other points.
    let goods = state.rules().has(Expansion::Traders);
    let mut out = format!(
        "{:w$}  {:>7}  {:>6}  {:>7}  {:>12}  {:>6}{}  {:>6}\n",
        "final scores",
        "in game",
        "+roads",
        "+cities",
        "+monasteries",
        "+farms",
        if goods { "  +goods" } else { "" },
        "=total"
    );
    for (p, name) in names.iter().enumerate() {
        let b = by_kind[p];
        let padded = format!("{name:w$}");
        let rest = totals[p].saturating_sub(state.scores()[p] + b.iter().sum::<u32>());
        out.push_str(&format!(
            "{}  {:>7}  {:>6}  {:>7}  {:>12}  {:>6}{}  {:>6}\n",
            board_art::player(&padded, p, colour),
            state.scores()[p],
            b[0],
            b[1],
            b[2],
            b[3],
            if goods { format!("  {rest:>6}") } else { String::new() },
            board_art::bold(&format!("{:>6}", totals[p]), 0, colour),
        ));
    }
    let best = totals.iter().copied().max().unwrap_or(0);
    let winners: Vec<String> =
        (0..names.len()).filter(|p| totals[*p] == best).map(|p| board_art::player(&names[p], p, colour)).collect();
    if names.len() == 1 {
        let ends = if names[0] == "you" { "end" } else { "ends" };
        out.push_str(&format!("{} {ends} the solo game with {best} points\n", winners[0]));
    } else if winners.len() == 1 {
        let wins = if (0..names.len()).any(|p| totals[p] == best && names[p] == "you") { "win" } else { "wins" };
        out.push_str(&format!("{} {wins} with {best} points\n", winners[0]));
    } else {
        out.push_str(&format!("a tie at {best} points: {}\n", winners.join(" and ")));
    }
    out
}

/// Option `i` (from 0) as one character, for labels on a tile.
pub(super) fn option_char(i: usize) -> char {
    char::from_digit(i as u32 + 1, 36).unwrap_or('?')
}

/// A decision in words, for messages (records and input use the notation).
pub(super) fn spoken(action: &Action) -> String {
    match action {
        Action::Place(p) => format!("place at {} turned {}", p.pos, p.rot),
        a @ Action::Deploy(..) => a.to_string(),
        Action::PlaceFerry(p) => format!("ferry {p}"),
        Action::MoveFerry { at, ferry } => format!("move ferry at {at} to {ferry}"),
        a => a.to_string(),
    }
}

pub(super) fn option_label(action: &Action, step: Step) -> String {
    match action {
        Action::Place(Placement { pos, rot }) => format!("[{}, {}] {rot}°", pos.x, pos.y),
        Action::Pass if step == Step::Deploy => "pass (no follower)".to_string(),
        Action::Pass => "pass (no more moves)".to_string(),
        Action::Deploy(carcassonne_engine::FollowerKind::Normal, loc) => loc.to_string(),
        Action::Deploy(kind, loc) => format!("{kind} {loc}"),
        Action::PlaceFerry(pair) => format!("ferry {pair}"),
        Action::MoveFerry { at, ferry } => format!("ferry at [{}, {}] to {ferry}", at.x, at.y),
        a => a.to_string(),
    }
}

/// The numbered options, in as many columns as fit.
pub(super) fn options(legal: &[Action], step: Step, width: usize) -> String {
    let n = legal.len();
    let digits = n.to_string().len();
    let items: Vec<String> =
        legal.iter().enumerate().map(|(i, a)| format!("{:>digits$}) {}", i + 1, option_label(a, step))).collect();
    let cw = items.iter().map(|s| s.chars().count()).max().unwrap_or(1) + 3;
    let cols = ((width.saturating_sub(2)) / cw).max(1);
    let mut out = String::new();
    for row in items.chunks(cols) {
        let mut line = "  ".to_string();
        for item in row {
            line.push_str(&format!("{item:cw$}"));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

pub(super) const HELP: &str = "\
Choose by an option's number, or type a move:
  p X Y ROT      place the tile at [X, Y] turned ROT (0, 90, 180, 270) clockwise; p 1 0 90
                 (ROT may be left out when one turn fits); x grows east, y south
  m FEATURE      deploy a follower on the tile just placed: m road:E, m city:N, m field:SSE, m monastery
  f A-B          put the ferry on the lake just placed, joining jetties A and B: f E-W
  mv X Y A-B     move the ferry on the lake at [X, Y] to jetties A and B: mv 1 0 S-W
  pass           deploy no follower, or move no more ferries
The notation of records is understood too: place at [1, 0] turned 90, deploy on road:E, move ferry at [1, 0] to S-W.
Commands:
  undo           take back your last decision of this turn
  save [FILE]    write the game's record (whole turns) as JSON; carcassonne play --load FILE continues it
  board          show the board and the options again
  help           this text
  quit           leave the game without saving (so does the end of input)";
