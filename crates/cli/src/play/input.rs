//! Typed input: a number or a short notation at a decision.

use carcassonne_engine::FollowerKind;

use super::*;

/// Reads a line typed at a decision whose legal actions are `legal`.
pub(super) fn parse(line: &str, state: &State, legal: &[Action]) -> Input {
    let line = line.trim();
    if line.is_empty() {
        return Input::Empty;
    }
    // The engine's notation, as records write it, is always understood.
    if let Ok(action) = line.parse::<Action>() {
        return Input::Act(action);
    }
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    let word = word.to_ascii_lowercase();
    if let Ok(n) = word.trim_end_matches(')').parse::<usize>() {
        if !rest.is_empty() {
            return Input::Bad(format!("'{line}': an option is chosen by its number alone"));
        }
        return match legal.get(n.wrapping_sub(1)) {
            Some(a) => Input::Act(*a),
            None => Input::Bad(format!("there is no option {n}: choose 1 to {}", legal.len())),
        };
    }
    match word.as_str() {
        "help" | "h" | "?" => Input::Help,
        "undo" | "u" => Input::Undo,
        "save" => Input::Save((!rest.is_empty()).then(|| rest.to_string())),
        "quit" | "q" | "exit" => Input::Quit,
        "board" | "b" | "show" => Input::Board,
        "pass" | "skip" => Input::Act(Action::Pass),
        "discard" => Input::Act(Action::Discard),
        "p" | "place" => place(rest, state, legal),
        "m" | "meeple" | "deploy" | "follower" => deploy(rest),
        "f" | "ferry" => ferry(rest),
        "mv" | "move" => move_ferry(rest),
        "abbey" | "a" => abbey(rest),
        "wagon" | "w" => wagon(rest),
        _ => {
            let example = match state.step() {
                Step::Place => "p 1 0 90",
                Step::Deploy => "m road:E or pass",
                Step::PlaceFerry => "f E-W",
                _ => "mv 1 0 S-W or pass",
            };
            Input::Bad(format!(
                "'{line}' is neither an option nor a command: type an option's number (1 to {}), a move such as \
                 {example}, or help",
                legal.len()
            ))
        }
    }
}

/// `abbey X Y`: the abbey into the hole at that cell.
fn abbey(rest: &str) -> Input {
    let w = words(rest);
    match (w.len(), w.first().zip(w.get(1)).and_then(|(x, y)| cell(x, y))) {
        (2, Some(pos)) => Input::Act(Action::PlaceAbbey(pos)),
        _ => Input::Bad("abbey takes a cell: abbey X Y, such as abbey 1 1".to_string()),
    }
}

/// `wagon FEATURE X Y`: the waiting wagon onto that feature of the tile at X Y.
fn wagon(rest: &str) -> Input {
    let usage = || Input::Bad("wagon takes a feature and a cell: wagon road:E 1 0".to_string());
    let w = words(rest);
    if w.len() != 3 {
        return usage();
    }
    match (w[0].parse::<Location>(), cell(&w[1], &w[2])) {
        (Ok(to), Some(at)) => Input::Act(Action::MoveWagon { at, to }),
        (Err(e), _) => Input::Bad(e.to_string()),
        _ => usage(),
    }
}

/// Words of a move, with `[`, `]` and `,` taken as spaces (`p [1, 0] 90`).
pub(super) fn words(text: &str) -> Vec<String> {
    text.replace(['[', ']', ','], " ").split_whitespace().map(str::to_string).collect()
}

pub(super) fn cell(x: &str, y: &str) -> Option<Pos> {
    Some(Pos::new(x.parse().ok()?, y.parse().ok()?))
}

pub(super) fn place(rest: &str, state: &State, legal: &[Action]) -> Input {
    let usage = || Input::Bad("p takes a cell and a turn: p X Y ROT, such as p 1 0 90".to_string());
    let w = words(rest);
    if !(2..=3).contains(&w.len()) {
        return usage();
    }
    let Some(pos) = cell(&w[0], &w[1]) else {
        return usage();
    };
    if let Some(r) = w.get(2) {
        let r = r.trim_end_matches('°');
        return match r.parse().ok().and_then(Rotation::from_degrees) {
            Some(rot) => Input::Act(Action::Place(Placement { pos, rot })),
            None => Input::Bad(format!("'{r}' is not a turn: 0, 90, 180 or 270 (degrees clockwise)")),
        };
    }
    let turns: Vec<Rotation> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Place(p) if p.pos == pos => Some(p.rot),
            _ => None,
        })
        .collect();
    match turns[..] {
        [rot] => Input::Act(Action::Place(Placement { pos, rot })),
        [] if state.step() != Step::Place => Input::Act(Action::Place(Placement { pos, rot: Rotation::R0 })),
        [] => Input::Bad(format!("the tile fits nowhere at {pos}: the cells that take it show their coordinates")),
        _ => {
            let list: Vec<String> = turns.iter().map(|r| r.to_string()).collect();
            Input::Bad(format!(
                "at {pos} the tile fits turned {}: add the turn, as in p {} {} {}",
                list.join(" or "),
                pos.x,
                pos.y,
                turns[0]
            ))
        }
    }
}

pub(super) fn deploy(rest: &str) -> Input {
    if rest.is_empty() {
        return Input::Bad(
            "m takes a feature of the tile just placed: m road:E, m city:N, m field:SSE, m field:inner or m monastery (m big road:E for the big follower)".into(),
        );
    }
    // A figure other than the normal follower is named first: `m big road:E`.
    let (figure, rest) = match rest.split_once(' ') {
        Some((word, more)) => match FollowerKind::parse(&word.to_ascii_lowercase()) {
            Some(kind) => (kind, more.trim()),
            None => (FollowerKind::Normal, rest),
        },
        None => (FollowerKind::Normal, rest),
    };
    // Feature kinds in lower case, edges in upper case, whatever was typed.
    let name = match rest.split_once(':') {
        Some((kind, at)) if at.trim().eq_ignore_ascii_case("inner") => {
            format!("{}:inner", kind.trim().to_ascii_lowercase())
        }
        Some((kind, at)) => format!("{}:{}", kind.trim().to_ascii_lowercase(), at.trim().to_ascii_uppercase()),
        None => rest.to_ascii_lowercase(),
    };
    match name.parse::<Location>() {
        Ok(loc) => Input::Act(Action::Deploy(figure, loc)),
        Err(e) => Input::Bad(e.to_string()),
    }
}

pub(super) fn ferry(rest: &str) -> Input {
    match rest.trim().to_ascii_uppercase().parse::<JettyPair>() {
        Ok(pair) => Input::Act(Action::PlaceFerry(pair)),
        Err(e) => Input::Bad(format!("{e}: f A-B, such as f E-W")),
    }
}

pub(super) fn move_ferry(rest: &str) -> Input {
    let w = words(rest);
    let usage = || Input::Bad("mv takes the lake's cell and two jetties: mv X Y A-B, such as mv 1 0 S-W".to_string());
    let [x, y, pair] = &w[..] else {
        return usage();
    };
    let Some(at) = cell(x, y) else {
        return usage();
    };
    match pair.to_ascii_uppercase().parse::<JettyPair>() {
        Ok(ferry) => Input::Act(Action::MoveFerry { at, ferry }),
        Err(e) => Input::Bad(e.to_string()),
    }
}
