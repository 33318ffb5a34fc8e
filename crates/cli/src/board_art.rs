//! The board in Unicode and colour, for the game in the terminal (`play`).
//!
//! A tile is drawn as 5 by 3 characters, as it lies on the board:
//!
//! ```text
//! ▓▓▓▓▓    corners and the north edge (a road edge is ·│·)
//! ─────    west edge, the middle of the tile, east edge
//! ·····    corners and the south edge
//! ```
//!
//! `▓` city (`◆` its coat of arms), road lines `─ │ ┌ ┼ …`, `·` field, `†`
//! monastery, `♣` garden, `≈` lake or river, `═ ║ ╔ …` a ferry, a digit a follower of that player
//! (seat 1 to 5). Neighbouring tiles share nothing, so roads and cities run on
//! from tile to tile. A board too wide for the terminal falls back to 3 by 3
//! characters a tile (the corners and middles of the above). Colours are
//! plain ANSI escape codes (16-colour palette), left out when not wanted.

use carcassonne_engine::tile::{EdgeKind, FeatureKind, NO_PIECE};
use carcassonne_engine::{Corner, HalfEdge, JettyPair, Location, Pos, Rotation, Side, State, TileKind};

/// One character and its colours (0: the terminal's default).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Glyph {
    pub ch: char,
    pub fg: u8,
    pub bg: u8,
    pub bold: bool,
}

impl Glyph {
    const BLANK: Glyph = Glyph { ch: ' ', fg: 0, bg: 0, bold: false };

    const fn new(ch: char, fg: u8, bg: u8, bold: bool) -> Glyph {
        Glyph { ch, fg, bg, bold }
    }
}

const FIELD_BG: u8 = 42;
const CITY_BG: u8 = 43;
const LAKE_BG: u8 = 44;

const FIELD: Glyph = Glyph::new('·', 92, FIELD_BG, false);
const CITY: Glyph = Glyph::new('▓', 33, CITY_BG, false);
const PENNANT: Glyph = Glyph::new('◆', 94, CITY_BG, true);
const MONASTERY: Glyph = Glyph::new('†', 91, FIELD_BG, true);
const GARDEN: Glyph = Glyph::new('♣', 32, FIELD_BG, true);
const LAKE: Glyph = Glyph::new('≈', 97, LAKE_BG, false);

fn road(ch: char) -> Glyph {
    Glyph::new(ch, 97, FIELD_BG, true)
}

fn ferry(ch: char) -> Glyph {
    Glyph::new(ch, 93, LAKE_BG, true)
}

/// Text colour of each seat (bright red, blue, magenta, cyan, white).
const PLAYER_FG: [u8; 5] = [91, 94, 95, 96, 97];
/// Background of each seat's followers on the board.
const PLAYER_BG: [u8; 5] = [101, 104, 105, 106, 107];

/// A tile as 3 rows of 5 glyphs.
pub type Cell = [[Glyph; 5]; 3];

/// Sides as a bit mask (N 1, E 2, S 4, W 8), turned clockwise by `rot`.
fn turn_sides(mask: u8, rot: Rotation) -> u8 {
    Side::ALL.into_iter().filter(|s| mask & s.bit() != 0).fold(0, |m, s| m | s.rotated(rot).bit())
}

const N: u8 = 1;
const E: u8 = 2;
const S: u8 = 4;
const W: u8 = 8;

/// A light line joining the middle of a tile to `sides`.
fn line(sides: u8) -> char {
    match sides {
        x if x == N | S => '│',
        x if x == E | W => '─',
        x if x == N | E => '└',
        x if x == E | S => '┌',
        x if x == S | W => '┐',
        x if x == W | N => '┘',
        x if x == N | E | S => '├',
        x if x == E | S | W => '┬',
        x if x == S | W | N => '┤',
        x if x == W | N | E => '┴',
        x if x == N | E | S | W => '┼',
        N | S => '│',
        E | W => '─',
        _ => '•',
    }
}

/// A double line (a ferry) joining two jetties through the lake.
fn double_line(sides: u8) -> char {
    match sides {
        x if x == N | S => '║',
        x if x == E | W => '═',
        x if x == N | E => '╚',
        x if x == E | S => '╔',
        x if x == S | W => '╗',
        x if x == W | N => '╝',
        _ => '≈',
    }
}

/// The tile `kind` turned by `rot`, without followers or ferry.
pub fn tile(kind: TileKind, rot: Rotation) -> Cell {
    let info = kind.info();
    let q = rot.quarters() as usize;
    let o = &info.oriented[q];
    let features = info.def.features;
    let edge = |s: Side| info.edges[(s.index() + 4 - q) % 4];
    let piece_sides = |local: u8| turn_sides(features[local as usize].sides, rot);
    let is_field = |h: HalfEdge| {
        let p = o.half_piece[h.index()];
        p != NO_PIECE && features[p as usize].kind == FeatureKind::Field
    };

    let roads: Vec<u8> =
        features.iter().filter(|f| f.kind == FeatureKind::Road).map(|f| turn_sides(f.sides, rot)).collect();
    let road_sides = roads.iter().fold(0, |m, r| m | r);
    let cities: Vec<u8> =
        features.iter().filter(|f| f.kind == FeatureKind::City).map(|f| turn_sides(f.sides, rot)).collect();
    let big_city = cities.iter().any(|c| c.count_ones() >= 2);
    let through_road = roads.iter().any(|r| r.count_ones() == 2);

    let mut c = [[FIELD; 5]; 3];
    // Edges.
    let mid = |s: Side, vertical: bool| match edge(s) {
        EdgeKind::City => CITY,
        EdgeKind::Road => road(if vertical { '│' } else { '─' }),
        EdgeKind::Field => FIELD,
        // The River's water, drawn as a lake's.
        EdgeKind::River => LAKE,
    };
    for (row, s) in [(0, Side::N), (2, Side::S)] {
        if edge(s) == EdgeKind::City {
            c[row][1] = CITY;
            c[row][3] = CITY;
        }
        c[row][2] = mid(s, true);
    }
    c[1][0] = mid(Side::W, false);
    c[1][4] = mid(Side::E, false);
    // Corners: field if a field reaches them, city if one city holds both edges.
    let corners = [
        ((0, 0), Side::N, Side::W, HalfEdge::Nnw, HalfEdge::Wnw),
        ((0, 4), Side::N, Side::E, HalfEdge::Nne, HalfEdge::Ene),
        ((2, 0), Side::S, Side::W, HalfEdge::Ssw, HalfEdge::Wsw),
        ((2, 4), Side::S, Side::E, HalfEdge::Sse, HalfEdge::Ese),
    ];
    for ((r, col), a, b, ha, hb) in corners {
        let (pa, pb) = (o.side_piece[a.index()], o.side_piece[b.index()]);
        let one_city = edge(a) == EdgeKind::City && edge(b) == EdgeKind::City && pa == pb;
        c[r][col] = if !is_field(ha) && !is_field(hb) && one_city { CITY } else { FIELD };
    }
    // The middle row inside the edges.
    let centre_city;
    if info.lake {
        c[1][1] = LAKE;
        c[1][2] = LAKE;
        c[1][3] = LAKE;
        centre_city = false;
    } else {
        let centre = if info.monastery != NO_PIECE {
            MONASTERY
        } else if info.river != 0 && road_sides == 0 && !big_city {
            LAKE
        } else if road_sides != 0 && !(roads.len() == 1 && !through_road && big_city) {
            road(line(road_sides))
        } else if big_city {
            CITY
        } else {
            FIELD
        };
        centre_city = centre == CITY;
        c[1][2] = centre;
        for (col, s) in [(1, Side::W), (3, Side::E)] {
            let p = o.side_piece[s.index()];
            c[1][col] = if road_sides & s.bit() != 0 {
                road('─')
            } else if edge(s) == EdgeKind::City && p != NO_PIECE && piece_sides(p).count_ones() >= 2 {
                CITY
            } else {
                FIELD
            };
        }
    }
    // A garden in a field, as near the middle as a field is.
    if info.garden != NO_PIECE {
        let spots = [(1, 2), (1, 3), (1, 1), (2, 2), (0, 2), (2, 1), (2, 3), (0, 1), (0, 3)];
        if let Some(&(r, col)) = spots.iter().find(|(r, col)| c[*r][*col] == FIELD) {
            c[r][col] = GARDEN;
        }
    }
    // A coat of arms in its city, as near the middle as the city reaches.
    if let Some(f) = features.iter().find(|f| f.kind == FeatureKind::City && f.pennants > 0) {
        let sides = turn_sides(f.sides, rot);
        let spot = if centre_city {
            (1, 2)
        } else if c[1][1] == CITY {
            (1, 1)
        } else if c[1][3] == CITY {
            (1, 3)
        } else {
            location_spot(Location::City(Side::ALL.into_iter().find(|s| sides & s.bit() != 0).unwrap_or(Side::N)))
        };
        c[spot.0][spot.1] = PENNANT;
    }
    c
}

/// Where a follower on `loc` stands in a 5 by 3 tile.
pub fn location_spot(loc: Location) -> (usize, usize) {
    match loc {
        Location::Road(s) | Location::City(s) => match s {
            Side::N => (0, 2),
            Side::E => (1, 4),
            Side::S => (2, 2),
            Side::W => (1, 0),
        },
        Location::Field(h) => match h {
            HalfEdge::Nnw => (0, 1),
            HalfEdge::Nne => (0, 3),
            HalfEdge::Ene => (0, 4),
            HalfEdge::Ese => (2, 4),
            HalfEdge::Sse => (2, 3),
            HalfEdge::Ssw => (2, 1),
            HalfEdge::Wsw => (2, 0),
            HalfEdge::Wnw => (0, 0),
        },
        // The middle: a monastery, or a field between cities (never both);
        // a garden where its tile draws it (`spot_on`), most often there.
        Location::Monastery | Location::InnerField | Location::Garden => (1, 2),
        // A second field between cities (Abbey & Mayor's crossing cities).
        Location::InnerField2 => (1, 3),
        Location::Corner(c) => match c {
            Corner::Nw => (0, 0),
            Corner::Ne => (0, 4),
            Corner::Se => (2, 4),
            Corner::Sw => (2, 0),
        },
    }
}

/// Draws the ferry joining `pair` on a lake tile.
pub fn put_ferry(c: &mut Cell, pair: JettyPair) {
    let mask = pair.sides().iter().fold(0, |m, s| m | s.bit());
    c[1][2] = ferry(double_line(mask));
    if pair.contains(Side::W) {
        c[1][1] = ferry('═');
    }
    if pair.contains(Side::E) {
        c[1][3] = ferry('═');
    }
}

/// Where a figure on `loc` stands on this drawn tile: a garden's spot is
/// where the tile drew it.
fn spot_on(c: &Cell, loc: Location) -> (usize, usize) {
    if loc == Location::Garden {
        for (r, row) in c.iter().enumerate() {
            if let Some(col) = row.iter().position(|g| *g == GARDEN) {
                return (r, col);
            }
        }
    }
    location_spot(loc)
}

/// Draws a follower of seat `player` on `loc`.
pub fn put_follower(c: &mut Cell, loc: Location, player: usize) {
    let (r, col) = spot_on(c, loc);
    let digit = char::from_digit(player as u32 + 1, 10).unwrap_or('?');
    c[r][col] = Glyph::new(digit, 30, PLAYER_BG[player % PLAYER_BG.len()], true);
}

/// Puts a label (an option number) on `loc`, for choosing where to deploy.
pub fn put_label(c: &mut Cell, loc: Location, label: char) {
    let (r, col) = spot_on(c, loc);
    c[r][col] = Glyph::new(label, 30, 103, true);
}

/// Marks the corners of a tile (the one placed last).
pub fn mark(c: &mut Cell) {
    for ((r, col), ch) in [((0, 0), '┏'), ((0, 4), '┓'), ((2, 0), '┗'), ((2, 4), '┛')] {
        c[r][col] = Glyph { ch, fg: 95, bold: true, ..c[r][col] };
    }
}

/// The tile at `pos` with its follower and ferry.
pub fn placed(state: &State, pos: Pos) -> Option<Cell> {
    let t = state.board().tile_at(pos)?;
    let mut c = tile(t.kind, t.rot);
    if let Some(f) = state.ferry_at(pos) {
        put_ferry(&mut c, f.jetties);
    }
    for f in state.followers() {
        let (at, loc) = state.piece_location(f.piece);
        if at == pos {
            put_follower(&mut c, loc, f.player as usize);
        }
    }
    Some(c)
}

/// How to draw the board.
pub struct View<'a> {
    /// Empty cells to label with their coordinates (where the drawn tile fits).
    pub hints: &'a [Pos],
    /// A tile to mark (the one placed last).
    pub mark: Option<Pos>,
    /// Columns available.
    pub width: usize,
    pub colour: bool,
}

/// The bounding box of the board (and the hinted cells), with coordinates
/// along the top and the left.
pub fn board(state: &State, view: &View) -> String {
    let all = state.board().tiles().iter().map(|t| t.pos).chain(view.hints.iter().copied());
    let (mut x0, mut x1, mut y0, mut y1) = (i32::MAX, i32::MIN, i32::MAX, i32::MIN);
    for p in all {
        x0 = x0.min(p.x);
        x1 = x1.max(p.x);
        y0 = y0.min(p.y);
        y1 = y1.max(p.y);
    }
    if x0 > x1 {
        return String::new();
    }
    let label_w = (y0..=y1).map(|y| y.to_string().len()).max().unwrap_or(1);
    let cols = (x1 - x0 + 1) as usize;
    let wide = label_w + 1 + 5 * cols <= view.width;
    let cw = if wide { 5 } else { 3 };
    // Columns of the 5-wide tile kept when drawing 3 wide.
    let keep: &[usize] = if wide { &[0, 1, 2, 3, 4] } else { &[0, 2, 4] };

    let mut out = String::new();
    let mut axis = " ".repeat(label_w + 1);
    for x in x0..=x1 {
        axis.push_str(&format!("{x:^cw$}"));
    }
    out.push_str(axis.trim_end());
    out.push('\n');
    for y in y0..=y1 {
        let mut rows: [Vec<Glyph>; 3] = Default::default();
        for x in x0..=x1 {
            let pos = Pos::new(x, y);
            let cell = match placed(state, pos) {
                Some(mut c) => {
                    if view.mark == Some(pos) {
                        mark(&mut c);
                    }
                    if !wide {
                        // Followers off the kept columns move to the nearest kept one.
                        for row in c.iter_mut() {
                            for (from, to) in [(1, 0), (3, 4)] {
                                if row[from].fg == 30 {
                                    row[to] = row[from];
                                }
                            }
                        }
                    }
                    c
                }
                None => [[Glyph::BLANK; 5]; 3],
            };
            for (r, row) in rows.iter_mut().enumerate() {
                row.extend(keep.iter().map(|k| cell[r][*k]));
            }
            if view.hints.contains(&pos) {
                let text = format!("{x},{y}");
                // Narrow cells only mark the spot: the axes give its coordinates.
                let text = if wide && text.chars().count() <= cw { text } else { "+".to_string() };
                let text = format!("{text:^cw$}");
                let start = rows[1].len() - cw;
                for (i, ch) in text.chars().enumerate() {
                    rows[1][start + i] = Glyph::new(ch, 90, 0, false);
                }
            }
        }
        for (r, row) in rows.iter().enumerate() {
            let label = if r == 1 { y.to_string() } else { String::new() };
            let line = format!("{label:>label_w$} {}", render(row, view.colour));
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    out
}

/// Cells side by side, each with a caption above it, `gap` spaces apart.
pub fn cells_in_a_row(cells: &[(String, Cell)], indent: usize, gap: usize, colour: bool) -> String {
    let w = 5 + gap;
    let mut out = " ".repeat(indent);
    for (caption, _) in cells {
        out.push_str(&format!("{caption:^5}{}", " ".repeat(gap)));
    }
    let mut out = out.trim_end().to_string();
    if !out.is_empty() {
        out.push('\n');
    }
    for r in 0..3 {
        let mut row = vec![Glyph::BLANK; indent];
        for (_, c) in cells {
            row.extend(c[r]);
            row.extend(std::iter::repeat_n(Glyph::BLANK, w - 5));
        }
        out.push_str(&render(&row, colour));
        out.push('\n');
    }
    out
}

/// A row of glyphs as text, with escape codes when `colour`; trailing
/// blanks dropped.
pub fn render(row: &[Glyph], colour: bool) -> String {
    let end = row.iter().rposition(|g| *g != Glyph::BLANK).map_or(0, |i| i + 1);
    let mut out = String::new();
    let mut current = None;
    for g in &row[..end] {
        if colour {
            let style = (g.fg, g.bg, g.bold);
            if current != Some(style) {
                out.push_str(&sgr(g.fg, g.bg, g.bold));
                current = Some(style);
            }
        }
        out.push(g.ch);
    }
    if colour && current.is_some() {
        out.push_str("\x1b[0m");
    }
    out
}

fn sgr(fg: u8, bg: u8, bold: bool) -> String {
    let mut codes = vec!["0".to_string()];
    if bold {
        codes.push("1".into());
    }
    if fg != 0 {
        codes.push(fg.to_string());
    }
    if bg != 0 {
        codes.push(bg.to_string());
    }
    format!("\x1b[{}m", codes.join(";"))
}

/// `text` in seat `player`'s colour.
pub fn player(text: &str, player: usize, colour: bool) -> String {
    if colour {
        format!("{}{text}\x1b[0m", sgr(PLAYER_FG[player % PLAYER_FG.len()], 0, true))
    } else {
        text.to_string()
    }
}

/// `text` in bold (with `fg` when not 0).
pub fn bold(text: &str, fg: u8, colour: bool) -> String {
    if colour {
        format!("{}{text}\x1b[0m", sgr(fg, 0, true))
    } else {
        text.to_string()
    }
}

/// The key to the drawing (78 columns), lakes and ferries only with `ferries`.
pub fn legend(colour: bool, ferries: bool) -> String {
    let g = |glyph: Glyph| render(&[glyph], colour);
    let follower = render(&[Glyph::new('1', 30, PLAYER_BG[0], true)], colour);
    let mut m = [[FIELD; 5]; 3];
    mark(&mut m);
    let water = if ferries { format!(" {} lake {} ferry", g(LAKE), g(ferry('═'))) } else { String::new() };
    format!(
        "{} city {} pennant {} road {} field {} monastery{water} {follower} follower {} latest",
        g(CITY),
        g(PENNANT),
        g(road('─')),
        g(FIELD),
        g(MONASTERY),
        g(m[0][0]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(c: &Cell) -> [String; 3] {
        c.map(|row| row.iter().map(|g| g.ch).collect())
    }

    fn kind(id: &str) -> TileKind {
        TileKind::parse(id).unwrap()
    }

    #[test]
    fn tiles_show_their_edges_as_they_lie() {
        // D: city N, road W-E; its upper field reaches the corners.
        assert_eq!(plain(&tile(kind("D"), Rotation::R0)), ["·▓▓▓·", "─────", "·····"]);
        // Turned 90 the city faces east and the road runs N-S.
        assert_eq!(plain(&tile(kind("D"), Rotation::R90)), ["··│··", "··│·▓", "··│··"]);
        // V: road S-W; A: monastery with a road south.
        assert_eq!(plain(&tile(kind("V"), Rotation::R0)), ["·····", "──┐··", "··│··"]);
        assert_eq!(plain(&tile(kind("A"), Rotation::R0)), ["·····", "··†··", "··│··"]);
        // C: a city everywhere, with its coat of arms in the middle.
        assert_eq!(plain(&tile(kind("C"), Rotation::R0)), ["▓▓▓▓▓", "▓▓◆▓▓", "▓▓▓▓▓"]);
        // T: city N+E+W, its road ends at the city.
        assert_eq!(plain(&tile(kind("T"), Rotation::R0)), ["▓▓▓▓▓", "▓▓▓▓▓", "··│··"]);
        // I: two cities (N and W) that do not meet.
        assert_eq!(plain(&tile(kind("I"), Rotation::R0)), ["·▓▓▓·", "▓····", "·····"]);
    }

    #[test]
    fn lakes_and_ferries() {
        let mut c = tile(kind("F3"), Rotation::R0);
        assert_eq!(plain(&c), ["·····", "─≈≈≈─", "··│··"]);
        put_ferry(&mut c, "E-W".parse().unwrap());
        assert_eq!(plain(&c), ["·····", "─═══─", "··│··"]);
        let mut c = tile(kind("F3"), Rotation::R0);
        put_ferry(&mut c, "S-W".parse().unwrap());
        assert_eq!(plain(&c), ["·····", "─═╗≈─", "··│··"]);
    }

    #[test]
    fn the_start_board_has_coordinates_and_hints() {
        let state = State::new(carcassonne_engine::Rules::base(2).unwrap());
        let view = View { hints: &[Pos::new(1, 0)], mark: None, width: 80, colour: false };
        let text = board(&state, &view);
        assert_eq!(text, "    0    1\n  ·▓▓▓·\n0 ───── 1,0\n  ·····\n");
        let narrow = View { width: 10, ..view };
        assert_eq!(board(&state, &narrow), "   0  1\n  ·▓·\n0 ─── +\n  ···\n");
    }

    #[test]
    fn colour_is_escape_codes_only_when_asked() {
        let row = [FIELD, road('─')];
        assert_eq!(render(&row, false), "·─");
        let coloured = render(&row, true);
        assert!(coloured.starts_with("\x1b[0;92;42m·\x1b[0;1;97;42m─"));
        assert!(coloured.ends_with("\x1b[0m"));
    }
}
