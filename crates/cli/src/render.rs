//! Text for people: events as sentences and the board as characters.

use carcassonne_engine::tile::{EdgeKind, FeatureKind};
use carcassonne_engine::{Event, Pos, Side, State};

fn name(names: &[String], player: usize) -> &str {
    names.get(player).map_or("?", String::as_str)
}

/// One line describing an event (empty for events not worth a line).
pub fn event(e: &Event, names: &[String]) -> String {
    match e {
        Event::TileDrawn { tile } => format!("drew {tile}"),
        Event::TilePlaced { player, tile, placement } => {
            format!("{} placed {tile} at {} turned {}", name(names, *player), placement.pos, placement.rot)
        }
        Event::TileDiscarded { player, tile } => {
            format!("{} discarded {tile}: it fits nowhere", name(names, *player))
        }
        Event::FollowerDeployed { player, figure, at, location } => {
            format!("{} deployed a {} on {location} at {at}", name(names, *player), figure.noun())
        }
        Event::FerryPlaced { player, at, ferry } => {
            format!("{} put a ferry on {ferry} at {at}", name(names, *player))
        }
        Event::FerryMoved { player, at, from, to } => {
            format!("{} moved the ferry at {at} from {from} to {to}", name(names, *player))
        }
        Event::Scored(s) => {
            let what = match s.kind {
                FeatureKind::Field => "farm".to_string(),
                k if s.end_of_game && !s.completed => format!("open {k}"),
                k => format!("completed {k}"),
            };
            let when = if s.end_of_game { "end of game: " } else { "" };
            let scorers: Vec<String> = s
                .points
                .iter()
                .enumerate()
                .filter(|(_, p)| **p > 0)
                .map(|(i, p)| format!("{} +{p}", name(names, i)))
                .collect();
            let who = if scorers.is_empty() { "nobody scores".to_string() } else { scorers.join(", ") };
            format!("{when}{what} of {} tile(s): {who}", s.tiles.len())
        }
        Event::WagonMoved { player, from, from_location, at, location } => {
            format!("{}'s wagon moved from {from_location} at {from} to {location} at {at}", name(names, *player))
        }
        Event::FollowerReturned { player, at, location } => {
            format!("{}'s follower on {location} at {at} returns", name(names, *player))
        }
        Event::GameEnded { .. } => "the game is over".to_string(),
        Event::GoodsTaken { player, wine, grain, cloth } => {
            let goods: Vec<String> = [(wine, "wine"), (grain, "grain"), (cloth, "cloth")]
                .into_iter()
                .filter(|(n, _)| **n > 0)
                .map(|(n, g)| format!("{n} {g}"))
                .collect();
            format!("{} takes the goods of the city: {}", name(names, *player), goods.join(", "))
        }
        Event::SecondTurn { player } => format!("{}'s builder gives a second turn", name(names, *player)),
    }
}

/// The board drawn with three by three characters a tile: `#` city, `=`
/// road, `.` field on the edges; in the middle the tile's id initial, `M`
/// for a monastery, `~` for a lake; a follower shows as its player's number.
pub fn board(state: &State) -> String {
    let tiles = state.board().tiles();
    let (mut x0, mut x1, mut y0, mut y1) = (i32::MAX, i32::MIN, i32::MAX, i32::MIN);
    for t in tiles {
        x0 = x0.min(t.pos.x);
        x1 = x1.max(t.pos.x);
        y0 = y0.min(t.pos.y);
        y1 = y1.max(t.pos.y);
    }
    let mut out = String::new();
    for y in y0..=y1 {
        let mut rows = [String::new(), String::new(), String::new()];
        for x in x0..=x1 {
            let cell = cell(state, Pos::new(x, y));
            for (r, row) in rows.iter_mut().enumerate() {
                row.extend(&cell[r]);
            }
        }
        for row in rows {
            out.push_str(row.trim_end());
            out.push('\n');
        }
    }
    out
}

fn cell(state: &State, pos: Pos) -> [[char; 3]; 3] {
    let Some(t) = state.board().tile_at(pos) else {
        return [[' '; 3]; 3];
    };
    let info = t.kind.info();
    let edge = |s: Side| {
        let k = info.edges[(s.index() + 4 - t.rot.quarters() as usize) % 4];
        match k {
            EdgeKind::City => '#',
            EdgeKind::Road => '=',
            EdgeKind::Field => '.',
            EdgeKind::River => '~',
        }
    };
    let centre = if info.monastery != u8::MAX {
        'M'
    } else if info.lake {
        '~'
    } else {
        t.kind.id().chars().next().unwrap_or('?')
    };
    let mut c = [[' ', edge(Side::N), ' '], [edge(Side::W), centre, edge(Side::E)], [' ', edge(Side::S), ' ']];
    for f in state.followers() {
        let (at, _) = state.piece_location(f.piece);
        if at == pos {
            let digit = char::from_digit(f.player as u32 + 1, 10).unwrap_or('?');
            if c[0][0] == ' ' {
                c[0][0] = digit;
            } else {
                c[0][2] = digit;
            }
        }
    }
    c
}
