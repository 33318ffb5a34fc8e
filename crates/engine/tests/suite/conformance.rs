//! Conformance over seeded random games (in the spirit of OpenSpiel's
//! random simulation tests and chess perft cross-checks).
//!
//! After every action of hundreds of games, base and with The Ferries (both
//! editions), it checks: the legal list is non-empty unless the game is over
//! and has no duplicates; `is_legal` holds exactly for the listed actions;
//! playing on a clone equals playing on the original; replaying the record
//! reproduces the state; the record round-trips through JSON; followers and
//! tiles are conserved; scores never decrease; every ferry joins two jetties
//! of its own lake; the engine's own audit (`audit::check`: figures of every
//! kind conserved, features counting the figures on them) holds; the
//! version-2 record and the record's actions reproduce the game; and a
//! deliberately naive reference, written here apart
//! from the engine (flood-filled features, every cell and rotation tried
//! with edges compared directly, an independent walk for movable ferries),
//! agrees with the engine's incremental structures and fast generators.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use carcassonne_engine::geometry::{Corner, HalfEdge, Pos, Rotation, Side};
use carcassonne_engine::playout::random_action;
use carcassonne_engine::record::Setup;
use carcassonne_engine::tile::{EdgeKind, FeatureKind};
use carcassonne_engine::{
    Action, Actor, Expansion, FollowerKind, Game, JettyPair, LabyrinthVariant, Location, PlacedTile, Placement, Record,
    RuleOptions, State, Step, TileKind, WagonMove,
};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

// ----- the naive reference --------------------------------------------------

fn rotated_sides(t: &PlacedTile, sides: u8) -> Vec<Side> {
    Side::ALL.into_iter().filter(|s| sides & s.bit() != 0).map(|s| s.rotated(t.rot)).collect()
}

fn rotated_halves(t: &PlacedTile, halves: u8) -> Vec<HalfEdge> {
    HalfEdge::ALL.into_iter().filter(|h| halves & h.bit() != 0).map(|h| h.rotated(t.rot)).collect()
}

fn edge(kind: TileKind, rot: Rotation, side: Side) -> EdgeKind {
    kind.info().edges[side.rotated(rot.inverse()).index()]
}

/// Every (cell, rotation) next to the board where the tile's edges equal its
/// neighbours' edges, found by trying them all.
fn naive_placements(state: &State, kind: TileKind) -> BTreeSet<Placement> {
    let board = state.board();
    let mut cells = BTreeSet::new();
    for t in board.tiles() {
        for s in Side::ALL {
            let p = t.pos.step(s);
            if board.tile_at(p).is_none() {
                cells.insert(p);
            }
        }
    }
    let mut out = BTreeSet::new();
    for pos in cells {
        for rot in Rotation::ALL {
            let fits = Side::ALL.into_iter().all(|s| match board.tile_at(pos.step(s)) {
                None => true,
                Some(n) => edge(kind, rot, s) == edge(n.kind, n.rot, s.opposite()),
            });
            if fits {
                out.insert(Placement { pos, rot });
            }
        }
    }
    out
}

/// A piece: tile index and piece index on it.
type Node = (usize, usize);

struct NaiveFeatures {
    /// Component of each piece.
    comp: HashMap<Node, usize>,
    /// Per component: (open edges, pennants, followers, pieces, ferries,
    /// inns or cathedrals).
    totals: Vec<(u16, u16, u16, u16, u16, u16)>,
    adjacency: HashMap<Node, Vec<Node>>,
}

fn piece_id(state: &State, n: Node) -> u16 {
    state.board().tile(n.0).first_piece() + n.1 as u16
}

/// The road or field piece of `t` reaching `side` / touching `half`.
fn piece_at_side(t: &PlacedTile, side: Side, kind: FeatureKind) -> Option<usize> {
    t.kind.info().def.features.iter().position(|f| f.kind == kind && rotated_sides(t, f.sides).contains(&side))
}

fn field_at_half(t: &PlacedTile, half: HalfEdge) -> Option<usize> {
    t.kind
        .info()
        .def
        .features
        .iter()
        .position(|f| f.kind == FeatureKind::Field && rotated_halves(t, f.halves).contains(&half))
}

fn naive_features(state: &State) -> NaiveFeatures {
    let board = state.board();
    let mut adjacency: HashMap<Node, Vec<Node>> = HashMap::new();
    let mut matched: HashMap<Node, u16> = HashMap::new();
    let mut next_first = 0u16;
    for (i, t) in board.tiles().iter().enumerate() {
        assert_eq!(t.first_piece(), next_first, "pieces are numbered in placing order");
        next_first += t.kind.info().def.features.len() as u16;
        for (j, f) in t.kind.info().def.features.iter().enumerate() {
            adjacency.entry((i, j)).or_default();
            for s in rotated_sides(t, f.sides) {
                if let Some(ni) = board.tile_index(t.pos.step(s)) {
                    *matched.entry((i, j)).or_default() += 1;
                    // An abbey ends what reaches it and continues nothing.
                    if board.tile(ni).kind.info().wild_edges {
                        continue;
                    }
                    let other = piece_at_side(board.tile(ni), s.opposite(), f.kind)
                        .expect("matching edges continue the feature");
                    adjacency.entry((i, j)).or_default().push((ni, other));
                }
            }
            for h in rotated_halves(t, f.halves) {
                if let Some(ni) = board.tile_index(t.pos.step(h.side())) {
                    if board.tile(ni).kind.info().wild_edges {
                        continue;
                    }
                    let other = field_at_half(board.tile(ni), h.facing()).expect("fields meet fields");
                    adjacency.entry((i, j)).or_default().push((ni, other));
                }
            }
        }
    }
    for ferry in state.ferries().all() {
        let t = board.tile(ferry.tile as usize);
        let [a, b] =
            ferry.jetties.sides().map(|s| piece_at_side(t, s, FeatureKind::Road).expect("a ferry joins jetties"));
        adjacency.entry((ferry.tile as usize, a)).or_default().push((ferry.tile as usize, b));
        adjacency.entry((ferry.tile as usize, b)).or_default().push((ferry.tile as usize, a));
    }
    let mut comp = HashMap::new();
    let mut totals = Vec::new();
    let mut nodes: Vec<Node> = adjacency.keys().copied().collect();
    nodes.sort();
    for start in nodes {
        if comp.contains_key(&start) {
            continue;
        }
        let c = totals.len();
        let mut t = (0u16, 0u16, 0u16, 0u16, 0u16, 0u16);
        let mut stack = vec![start];
        comp.insert(start, c);
        while let Some(n) = stack.pop() {
            let tile = board.tile(n.0);
            let f = &tile.kind.info().def.features[n.1];
            t.0 += f.sides.count_ones() as u16 - matched.get(&n).copied().unwrap_or(0);
            t.1 += f.pennants as u16;
            t.2 += state.followers().iter().filter(|fl| fl.piece == piece_id(state, n)).count() as u16;
            t.3 += 1;
            t.5 += f.mark as u16;
            let ferry = state.ferries().all().iter().find(|f| f.tile as usize == n.0).copied();
            if let Some(ferry) = ferry {
                // Counted once, at the first of its two jetties.
                let first = ferry.jetties.sides()[0];
                t.4 += (f.jetty && rotated_sides(tile, f.sides) == [first]) as u16;
            }
            for m in &adjacency[&n] {
                if !comp.contains_key(m) {
                    comp.insert(*m, c);
                    stack.push(*m);
                }
            }
        }
        totals.push(t);
    }
    NaiveFeatures { comp, totals, adjacency }
}

/// The end-of-game scoring done naively from flood-filled features: each
/// feature that still holds figures goes to the greatest strength (a normal
/// follower 1, a big follower 2), scoring what the rules give an open
/// feature: a road 1 a tile (0 with an inn), a city 1 a tile and pennant (0
/// with a cathedral), a monastery or a garden 1 and 1 a neighbour, a farm 3
/// a completed city it borders.
fn naive_final_scores(state: &State) -> Vec<u32> {
    let naive = naive_features(state);
    let board = state.board();
    let inns = state.rules().has(Expansion::Inns);
    let mut members: BTreeMap<usize, Vec<Node>> = BTreeMap::new();
    for (node, c) in &naive.comp {
        members.entry(*c).or_default().push(*node);
    }
    let mut scores: Vec<u32> = state.scores().to_vec();
    for (c, nodes) in &members {
        let (open, pennants, _, _, _, marks) = naive.totals[*c];
        let mut strength = vec![0u32; scores.len()];
        let mut barns = vec![false; scores.len()];
        let mut pigs = vec![false; scores.len()];
        for f in state.followers() {
            if nodes.iter().any(|n| piece_id(state, *n) == f.piece) {
                strength[f.player as usize] += match f.kind {
                    FollowerKind::Big => 2,
                    FollowerKind::Mayor => pennants as u32,
                    FollowerKind::Barn | FollowerKind::Builder | FollowerKind::Pig => 0,
                    FollowerKind::Normal | FollowerKind::Wagon | FollowerKind::Abbot => 1,
                };
                barns[f.player as usize] |= f.kind == FollowerKind::Barn;
                pigs[f.player as usize] |= f.kind == FollowerKind::Pig;
            }
        }
        let best = strength.iter().copied().max().unwrap_or(0);
        let barn_farm = barns.contains(&true);
        if best == 0 && !barn_farm {
            continue;
        }
        let (tile0, piece0) = nodes[0];
        let kind = board.tile(tile0).kind.info().def.features[piece0].kind;
        let tiles = nodes.iter().map(|n| n.0).collect::<BTreeSet<_>>().len() as u32;
        let points = match kind {
            FeatureKind::Road if inns && marks > 0 => 0,
            FeatureKind::Road => tiles,
            FeatureKind::City if inns && marks > 0 => 0,
            FeatureKind::City => tiles + pennants as u32,
            FeatureKind::Monastery | FeatureKind::Garden => {
                let at = board.tile(tile0).pos;
                let around = (-1..=1)
                    .flat_map(|dy| (-1..=1).map(move |dx| Pos::new(at.x + dx, at.y + dy)))
                    .filter(|p| *p != at && board.tile_index(*p).is_some())
                    .count() as u32;
                1 + around
            }
            FeatureKind::Field => {
                let mut cities = BTreeSet::new();
                for (t, j) in nodes {
                    let def = &board.tile(*t).kind.info().def.features[*j];
                    for city in 0..16 {
                        if def.borders & (1 << city) != 0 {
                            let cc = naive.comp[&(*t, city as usize)];
                            if naive.totals[cc].0 == 0 {
                                cities.insert(cc);
                            }
                        }
                    }
                }
                cities.len() as u32
            }
        };
        let _ = open;
        // A farm scores 3 a completed city; with a barn, 1 to its farmers
        // and 4 to each player with a barn there.
        let (points, barn_points) = match (kind, barn_farm) {
            (FeatureKind::Field, true) => (points, 4 * points),
            (FeatureKind::Field, false) => (3 * points, 0),
            _ => (points, 0),
        };
        // A pig adds 1 a completed city to its owner's farm, if they score it.
        let pig_points = if kind == FeatureKind::Field { points / if barn_farm { 1 } else { 3 } } else { 0 };
        for (((s, st), barn), pig) in scores.iter_mut().zip(&strength).zip(&barns).zip(&pigs) {
            if best > 0 && *st == best {
                *s += points;
                if *pig {
                    *s += pig_points;
                }
            }
            if *barn {
                *s += barn_points;
            }
        }
    }
    // Each good: 10 to every player with the most tokens (at least one).
    for g in 0..3 {
        let best = state.goods().iter().map(|t| t[g]).max().unwrap_or(0);
        for (s, t) in scores.iter_mut().zip(state.goods()) {
            if best > 0 && t[g] == best {
                *s += 10;
            }
        }
    }
    scores
}

/// Goods shown on the completed cities of the board, by good: all of them
/// are in the players' hands, each taken once.
fn naive_goods_on_completed_cities(state: &State) -> [u32; 3] {
    let naive = naive_features(state);
    let mut out = [0; 3];
    for (node, c) in &naive.comp {
        let f = &state.board().tile(node.0).kind.info().def.features[node.1];
        if let (FeatureKind::City, Some(g), 0) = (f.kind, f.good, naive.totals[*c].0) {
            out[g as usize] += 1;
        }
    }
    out
}

/// Builders and pigs the player may deploy, found naively: on a feature of
/// the new tile that holds one of the player's followers (a builder: an
/// unfinished road or city) and none of their figure of that kind.
fn naive_special_deployments(state: &State) -> BTreeSet<String> {
    let nf = naive_features(state);
    let board = state.board();
    let Some(Actor::Player(player)) = state.actor() else { return BTreeSet::new() };
    let t = state.placed_tile().unwrap();
    let i = board.tile_index(t.pos).unwrap();
    let mut out = BTreeSet::new();
    for (j, f) in t.kind.info().def.features.iter().enumerate() {
        let c = nf.comp[&(i, j)];
        let on = |kinds: &[FollowerKind]| {
            state.followers().iter().any(|fl| {
                fl.player as usize == player
                    && kinds.contains(&fl.kind)
                    && nf.comp.iter().any(|(n, cc)| *cc == c && piece_id(state, *n) == fl.piece)
            })
        };
        let followers = [FollowerKind::Normal, FollowerKind::Big, FollowerKind::Mayor, FollowerKind::Wagon];
        let (_, loc) = state.piece_location(piece_id(state, (i, j)));
        for kind in [FollowerKind::Builder, FollowerKind::Pig] {
            let fits = match kind {
                FollowerKind::Builder => matches!(f.kind, FeatureKind::Road | FeatureKind::City) && nf.totals[c].0 > 0,
                _ => f.kind == FeatureKind::Field,
            };
            if fits && state.supply_of(kind)[player] > 0 && on(&followers) && !on(&[kind]) {
                out.insert(key(&canonical(state, Action::Deploy(kind, loc))));
            }
        }
    }
    out
}

/// The normal follower's deployments, the abbot's and the abbot's return,
/// found naively: a follower on any free piece of the new tile but a
/// garden, or, under the labyrinth's standard rule, on a road through the
/// labyrinth whose leg (flood-filled up to the labyrinth's tile) holds no
/// figure, or on the labyrinth itself; the abbot on a free monastery or
/// garden; the abbot taken back from where fewer than eight tiles surround it.
fn naive_follower_choices(state: &State) -> BTreeSet<String> {
    let nf = naive_features(state);
    let board = state.board();
    let Some(Actor::Player(player)) = state.actor() else { return BTreeSet::new() };
    let t = state.placed_tile().unwrap();
    let i = board.tile_index(t.pos).unwrap();
    let on_node = |n: Node| state.followers().iter().any(|fl| fl.piece == piece_id(state, n));
    let labyrinth = |n: Node| board.tile(n.0).kind.id() == "LA";
    let parted =
        state.rules().has(Expansion::Labyrinth) && state.rules().labyrinth_variant() == LabyrinthVariant::Advanced;
    let mut out = BTreeSet::new();
    for (j, f) in t.kind.info().def.features.iter().enumerate() {
        let c = nf.comp[&(i, j)];
        let free = nf.totals[c].2 == 0;
        let (_, loc) = state.piece_location(piece_id(state, (i, j)));
        let through = nf.comp.iter().any(|(n, cc)| *cc == c && labyrinth(*n));
        let joins = f.kind == FeatureKind::Road
            && if labyrinth((i, j)) {
                parted && through && !on_node((i, j))
            } else {
                naive_free_leg(state, &nf, (i, j))
            };
        if f.kind != FeatureKind::Garden && (free || joins) && state.supply()[player] > 0 {
            out.insert(key(&canonical(state, Action::Deploy(FollowerKind::Normal, loc))));
        }
        let abbot = matches!(f.kind, FeatureKind::Monastery | FeatureKind::Garden);
        if abbot && free && state.supply_of(FollowerKind::Abbot).get(player).is_some_and(|n| *n > 0) {
            out.insert(key(&Action::Deploy(FollowerKind::Abbot, loc)));
        }
    }
    for fl in state.followers() {
        if fl.kind == FollowerKind::Abbot && fl.player as usize == player {
            let at = state.piece_location(fl.piece).0;
            let around = at.surrounding().filter(|q| board.tile_index(*q).is_some()).count();
            if around < 8 {
                out.insert(key(&Action::ReturnAbbot(at)));
            }
        }
    }
    out
}

fn check_features(state: &State) {
    let naive = naive_features(state);
    let features = state.features();
    let mut root_of_comp: HashMap<usize, u16> = HashMap::new();
    let mut comp_of_root: HashMap<u16, usize> = HashMap::new();
    for (node, c) in &naive.comp {
        let root = features.find(piece_id(state, *node));
        assert_eq!(*root_of_comp.entry(*c).or_insert(root), root, "a feature is one feature in the engine too");
        assert_eq!(*comp_of_root.entry(root).or_insert(*c), *c, "separate features stay separate in the engine");
    }
    assert_eq!(naive.comp.len(), features.len(), "every piece is in a feature");
    for (c, root) in root_of_comp {
        let t = features.totals(root);
        assert_eq!(
            (t.open, u16::from(t.pennants), u16::from(t.followers), t.pieces, u16::from(t.links), u16::from(t.marks)),
            naive.totals[c],
            "totals of the feature at piece {root}"
        );
    }
}

/// F6 walked naively: from every road piece of the new tile across its
/// edges, along roads, stopping at jetties; the ferries met first.
fn naive_movable(state: &State, new: usize) -> BTreeSet<Pos> {
    let board = state.board();
    let naive = naive_features(state);
    let t = board.tile(new);
    let ferry_on = |tile: usize| state.ferries().all().iter().find(|f| f.tile as usize == tile).copied();
    let mut out = BTreeSet::new();
    let mut seen = BTreeSet::new();
    let mut stack = Vec::new();
    for (j, f) in t.kind.info().def.features.iter().enumerate() {
        if f.kind == FeatureKind::Road {
            for n in &naive.adjacency[&(new, j)] {
                if n.0 != new {
                    stack.push(*n);
                }
            }
        }
    }
    while let Some(n) = stack.pop() {
        if !seen.insert(n) {
            continue;
        }
        let tile = board.tile(n.0);
        let f = &tile.kind.info().def.features[n.1];
        if f.jetty {
            let side = rotated_sides(tile, f.sides)[0];
            if let Some(ferry) = ferry_on(n.0) {
                if ferry.jetties.contains(side) {
                    out.insert(tile.pos);
                }
            }
            continue;
        }
        for m in &naive.adjacency[&n] {
            if m.0 != new {
                stack.push(*m);
            }
        }
    }
    out
}

/// Whether a wagon may go to piece `n`, naively: a road, city or monastery
/// without figures, unfinished (a monastery: fewer than eight neighbours).
fn naive_wagon_may_go(state: &State, nf: &NaiveFeatures, n: Node) -> bool {
    let t = state.board().tile(n.0);
    let kind = t.kind.info().def.features[n.1].kind;
    let (open, _, followers, ..) = nf.totals[nf.comp[&n]];
    // The labyrinth's standard rule: a free leg of its road, not the labyrinth itself.
    let free = followers == 0 || (kind == FeatureKind::Road && t.kind.id() != "LA" && naive_free_leg(state, nf, n));
    match kind {
        FeatureKind::Field | FeatureKind::Garden => false,
        FeatureKind::Monastery => free && t.pos.surrounding().any(|q| state.board().tile_index(q).is_none()),
        _ => free && open > 0,
    }
}

/// Under the labyrinth's standard rule, whether the road of node `n` runs
/// through the labyrinth and its leg (flood-filled up to the labyrinth's
/// tile) holds no figure.
fn naive_free_leg(state: &State, nf: &NaiveFeatures, n: Node) -> bool {
    let board = state.board();
    let labyrinth = |m: Node| board.tile(m.0).kind.id() == "LA";
    let parted =
        state.rules().has(Expansion::Labyrinth) && state.rules().labyrinth_variant() == LabyrinthVariant::Advanced;
    let c = nf.comp[&n];
    if !parted || !nf.comp.iter().any(|(m, cc)| *cc == c && labyrinth(*m)) {
        return false;
    }
    let on_node = |m: Node| state.followers().iter().any(|fl| fl.piece == piece_id(state, m));
    let mut seen = BTreeSet::from([n]);
    let mut stack = vec![n];
    while let Some(m) = stack.pop() {
        if on_node(m) {
            return false;
        }
        for o in &nf.adjacency[&m] {
            if !labyrinth(*o) && seen.insert(*o) {
                stack.push(*o);
            }
        }
    }
    true
}

/// The features each tile links for a wagon under the first edition's rule,
/// written again from JCloisterZone's tile data (`wagon-move` groups), as
/// indices of the tile's features.
fn naive_wagon_links(id: &str) -> Vec<Vec<usize>> {
    match id {
        "A" | "S" | "T" | "I8" | "I9" | "I11" | "M6" => vec![vec![0, 1]],
        "T11" | "T12" | "T13" | "T16" | "T17" | "T18" | "T21" | "T22" => vec![vec![0, 1]],
        "T7" | "T8" | "T19" => vec![vec![0, 1], vec![0, 2]],
        "T9" | "T10" | "T23" => vec![vec![0, 2]],
        "T20" => (1..4).map(|r| vec![0, r]).collect(),
        "L" => vec![vec![1, 2, 3]],
        "W" | "I14" => vec![vec![0, 1, 2]],
        "X" | "I5" => vec![vec![0, 1, 2, 3]],
        "I2" | "I10" => vec![vec![0, 1], vec![0, 2]],
        "M4" => vec![vec![0, 2], vec![1, 3]],
        "M5" => (1..5).map(|r| vec![0, r]).collect(),
        _ => vec![],
    }
}

/// Where the first waiting wagon may go, found naively from flood-filled
/// features: C2, every free feature on the 3x3 tiles around the tile it
/// stood on; C1, every free feature a tile of the scored one links to it,
/// and the monastery of an abbey next to a piece of it.
fn naive_wagon_moves(state: &State) -> BTreeSet<String> {
    let nf = naive_features(state);
    let board = state.board();
    let w = state.abbey_mayor().waiting[0];
    let from = board.tile(w.tile as usize);
    let scored = nf.comp[&(w.tile as usize, (w.piece - from.first_piece()) as usize)];
    let mut out = BTreeSet::new();
    let mut offer = |n: Node| {
        if naive_wagon_may_go(state, &nf, n) {
            let t = board.tile(n.0);
            let (_, loc) = state.piece_location(piece_id(state, n));
            out.insert(key(&Action::MoveWagon { at: t.pos, to: loc }));
        }
    };
    match state.rules().wagon_move() {
        WagonMove::C2 => {
            for (i, t) in board.tiles().iter().enumerate() {
                if (t.pos.x - from.pos.x).abs() <= 1 && (t.pos.y - from.pos.y).abs() <= 1 {
                    for j in 0..t.kind.info().def.features.len() {
                        offer((i, j));
                    }
                }
            }
        }
        WagonMove::C1 => {
            for (i, t) in board.tiles().iter().enumerate() {
                for group in naive_wagon_links(t.kind.id()) {
                    if group.iter().any(|&j| nf.comp[&(i, j)] == scored) {
                        for &j in &group {
                            offer((i, j));
                        }
                    }
                }
                if t.kind.info().wild_edges {
                    let touches = Side::ALL.into_iter().any(|s| {
                        let Some(ni) = board.tile_index(t.pos.step(s)) else { return false };
                        let n = board.tile(ni);
                        n.kind.info().def.features.iter().enumerate().any(|(j, f)| {
                            f.kind != FeatureKind::Field
                                && rotated_sides(n, f.sides).contains(&s.opposite())
                                && nf.comp[&(ni, j)] == scored
                        })
                    });
                    if touches {
                        offer((i, 0));
                    }
                }
            }
        }
    }
    out.insert(key(&Action::Pass));
    out
}

fn jetty_pairs(t: &PlacedTile) -> Vec<JettyPair> {
    let sides: Vec<Side> =
        t.kind.info().def.features.iter().filter(|f| f.jetty).flat_map(|f| rotated_sides(t, f.sides)).collect();
    let mut out = Vec::new();
    for (i, a) in sides.iter().enumerate() {
        for b in &sides[i + 1..] {
            out.push(JettyPair::new(*a, *b).unwrap());
        }
    }
    out
}

// ----- the checks -----------------------------------------------------------

fn key(a: &Action) -> String {
    format!("{a:?}")
}

/// A deploy action names a feature; any of its edges will do, so compare
/// by the canonical name.
fn canonical(state: &State, a: Action) -> Action {
    match a {
        // A barn's corner is its own name.
        Action::Deploy(_, Location::Corner(_)) => a,
        Action::Deploy(kind, loc) if state.step() == Step::Deploy => {
            let tile = state.placed_tile().and_then(|t| state.board().tile_index(t.pos));
            match tile.and_then(|t| state.resolve(t, loc)) {
                Some(p) => Action::Deploy(kind, state.piece_location(p).1),
                None => a,
            }
        }
        Action::MoveWagon { at, to } => match state.board().tile_index(at).and_then(|t| state.resolve(t, to)) {
            Some(p) if !matches!(to, Location::Corner(_)) => Action::MoveWagon { at, to: state.piece_location(p).1 },
            _ => a,
        },
        _ => a,
    }
}

fn location(rng: &mut Xoshiro256PlusPlus) -> Location {
    let side = Side::ALL[rng.random_range(0..4)];
    match rng.random_range(0..7) {
        0 => Location::Road(side),
        1 => Location::City(side),
        2 => Location::Field(HalfEdge::ALL[rng.random_range(0..8)]),
        3 => Location::InnerField,
        4 => Location::InnerField2,
        5 => Location::Corner(Corner::ALL[rng.random_range(0..4)]),
        _ => Location::Monastery,
    }
}

fn junk_action(state: &State, rng: &mut Xoshiro256PlusPlus) -> Action {
    let near = |rng: &mut Xoshiro256PlusPlus| {
        let t = state.board().tile(rng.random_range(0..state.board().tiles().len()));
        Pos::new(t.pos.x + rng.random_range(-2..=2), t.pos.y + rng.random_range(-2..=2))
    };
    let side = |rng: &mut Xoshiro256PlusPlus| Side::ALL[rng.random_range(0..4)];
    match rng.random_range(0..8) {
        0 => Action::Draw(TileKind::all().nth(rng.random_range(0..TileKind::all().count())).unwrap()),
        1 | 2 => Action::Place(Placement { pos: near(rng), rot: Rotation::ALL[rng.random_range(0..4)] }),
        3 => Action::Discard,
        4 => Action::Deploy(FollowerKind::ALL[rng.random_range(0..FollowerKind::COUNT)], location(rng)),
        7 if rng.random_range(0..2) == 0 => Action::PlaceAbbey(near(rng)),
        7 if rng.random_range(0..2) == 0 => Action::MoveWagon { at: near(rng), to: location(rng) },
        5 => Action::PlaceFerry(
            JettyPair::new(side(rng), side(rng)).unwrap_or(JettyPair::new(Side::N, Side::S).unwrap()),
        ),
        6 => Action::MoveFerry {
            at: near(rng),
            ferry: JettyPair::new(side(rng), side(rng)).unwrap_or(JettyPair::new(Side::E, Side::W).unwrap()),
        },
        _ => Action::Pass,
    }
}

fn check_ferries(state: &State) {
    for f in state.ferries().all() {
        let t = state.board().tile(f.tile as usize);
        assert!(t.kind.info().lake, "a ferry lies on a lake");
        assert!(jetty_pairs(t).contains(&f.jetties), "a ferry joins two jetties of its own lake");
    }
}

struct Totals {
    tiles: usize,
}

/// Figures of each kind a player has in a game under these rules: what the
/// expansions give, unless the setup says otherwise.
fn figures(state: &State, kind: FollowerKind) -> usize {
    let given = match kind {
        FollowerKind::Normal => 7,
        FollowerKind::Big if state.rules().has(Expansion::Inns) => 1,
        FollowerKind::Mayor | FollowerKind::Wagon | FollowerKind::Barn if state.rules().has(Expansion::Abbey) => 1,
        FollowerKind::Builder | FollowerKind::Pig if state.rules().has(Expansion::Traders) => 1,
        FollowerKind::Abbot if state.rules().has(Expansion::Abbot) => 1,
        _ => 0,
    };
    let rules = RuleOptions::of(state.rules());
    rules.figures.get(kind.name()).map_or(given, |n| *n as usize)
}

fn check_conservation(state: &State, start: &Totals, discarded: usize) {
    let n = state.rules().players();
    for p in 0..n {
        for kind in FollowerKind::ALL {
            let on_board = state.followers().iter().filter(|f| f.player as usize == p && f.kind == kind).count();
            let waiting = state.abbey_mayor().waiting.iter().filter(|w| w.player as usize == p).count();
            let waiting = if kind == FollowerKind::Wagon { waiting } else { 0 };
            assert_eq!(
                state.supply_of(kind)[p] as usize + on_board + waiting,
                figures(state, kind),
                "player {p}'s {kind} figures are conserved"
            );
        }
    }
    // Abbeys come from the players' hands, not the bag.
    let abbeys = if state.rules().has(Expansion::Abbey) {
        n * state.rules().abbeys() as usize - state.abbeys().iter().map(|a| *a as usize).sum::<usize>()
    } else {
        0
    };
    let in_play = state.bag().total() as usize + state.board().tiles().len() - abbeys
        + discarded
        + state.drawn().is_some() as usize;
    let placed_this_turn = state.drawn().is_some() && state.step() != Step::Place;
    assert_eq!(in_play - placed_this_turn as usize, start.tiles, "tiles are conserved");
}

/// Decisions of the expansions seen in the random games, to show they are exercised.
#[derive(Default, Debug)]
struct Seen {
    abbeys: usize,
    wagon_moves: usize,
    /// Wagon steps whose moves were checked against the naive reference.
    wagon_steps: usize,
    builders: usize,
    pigs: usize,
    second_turns: usize,
    /// Goods held, summed over the positions checked.
    goods: usize,
    barns: usize,
    mayors: usize,
    big: usize,
    abbots: usize,
    abbot_returns: usize,
    /// Deployments offered on a road through the labyrinth that others hold.
    labyrinth_joins: usize,
}

fn play_checked_game(setup: Setup, seed: u64, deep: bool, seen: &mut Seen) -> usize {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut game = Game::new(setup).unwrap();
    let start = Totals { tiles: game.state().bag().total() as usize + 1 };
    let mut buf = Vec::new();
    let mut discarded = 0;
    let mut positions = 0;
    let mut move_step_checked = false;
    // After a placement with Traders & Builders: whether a second turn is
    // due, for which player, and the turn count then.
    let mut expect_second: Option<(bool, usize, u32)> = None;
    // A state whose buffers are reused by `clone_from`, as search does.
    let mut scratch = State::new(game.state().rules().to_owned());
    loop {
        let state = game.state().clone();
        let legal = state.legal_action_list();
        assert_eq!(legal.is_empty(), state.is_over(), "legal actions exist exactly while the game goes on");
        let keys: BTreeSet<String> = legal.iter().map(key).collect();
        assert_eq!(keys.len(), legal.len(), "no duplicate legal actions");
        for a in &legal {
            assert!(state.is_legal(*a), "{a} is listed, so it is legal");
        }
        for _ in 0..4 {
            let j = junk_action(&state, &mut rng);
            let listed = keys.contains(&key(&canonical(&state, j)));
            assert_eq!(state.is_legal(j), listed, "is_legal({j}) must agree with the list at step {}", state.step());
        }
        match state.step() {
            Step::Place => {
                positions += 1;
                let kind = state.drawn().unwrap();
                let fast: BTreeSet<Placement> =
                    legal.iter().filter_map(|a| if let Action::Place(p) = a { Some(*p) } else { None }).collect();
                // A river tile's placements follow more than its edges:
                // river.rs checks them against the river's own rule.
                if kind.info().river == 0 {
                    assert_eq!(fast, naive_placements(&state, kind), "placements of {kind}");
                }
                move_step_checked = false;
            }
            Step::PlaceFerry => {
                let t = state.placed_tile().unwrap();
                let naive: BTreeSet<String> = jetty_pairs(t).into_iter().map(|p| key(&Action::PlaceFerry(p))).collect();
                assert_eq!(keys, naive, "ferry placements");
            }
            Step::MoveFerries if !move_step_checked => {
                move_step_checked = true;
                let new = state.board().tiles().len() - 1;
                let movable = naive_movable(&state, new);
                assert_eq!(state.movable_ferries().collect::<BTreeSet<_>>(), movable, "F6 movable ferries");
                let mut naive: BTreeSet<String> = BTreeSet::new();
                for at in &movable {
                    let f = state.ferry_at(*at).unwrap();
                    for p in jetty_pairs(state.board().tile_at(*at).unwrap()) {
                        if p != f.jetties {
                            naive.insert(key(&Action::MoveFerry { at: *at, ferry: p }));
                        }
                    }
                }
                naive.insert(key(&Action::Pass));
                assert_eq!(keys, naive, "ferry moves");
            }
            Step::Deploy if state.rules().has(Expansion::Traders) => {
                let specials: BTreeSet<String> = legal
                    .iter()
                    .filter(|a| matches!(a, Action::Deploy(FollowerKind::Builder | FollowerKind::Pig, _)))
                    .map(|a| key(&canonical(&state, *a)))
                    .collect();
                assert_eq!(specials, naive_special_deployments(&state), "builders and pigs");
            }
            Step::Deploy if state.rules().has(Expansion::Abbot) || state.rules().has(Expansion::Labyrinth) => {
                let mine: BTreeSet<String> = legal
                    .iter()
                    .filter(|a| {
                        matches!(
                            a,
                            Action::Deploy(FollowerKind::Normal | FollowerKind::Abbot, _) | Action::ReturnAbbot(_)
                        )
                    })
                    .map(|a| key(&canonical(&state, *a)))
                    .collect();
                assert_eq!(mine, naive_follower_choices(&state), "followers, abbots and their return");
                seen.labyrinth_joins += legal
                    .iter()
                    .filter(|a| match a {
                        Action::Deploy(FollowerKind::Normal, loc) => state
                            .placed_tile()
                            .and_then(|t| state.feature_at(t.pos, *loc))
                            .is_some_and(|t| t.followers > 0),
                        _ => false,
                    })
                    .count();
            }
            Step::MoveWagon => {
                let legal: BTreeSet<String> = legal.iter().map(|a| key(&canonical(&state, *a))).collect();
                assert_eq!(legal, naive_wagon_moves(&state), "wagon moves ({})", state.rules().wagon_move());
                seen.wagon_steps += 1;
            }
            _ => {}
        }
        let Some(action) = random_action(&state, &mut rng, &mut buf) else { break };
        // Traders & Builders: a tile that extends the player's builder, in a
        // first turn, earns a second one (found naively after placing).
        if let (Action::Place(_), true) = (action, state.rules().has(Expansion::Traders)) {
            let mut after = state.clone();
            after.play(action).unwrap();
            let nf = naive_features(&after);
            let i = after.board().tiles().len() - 1;
            let player = state.current_player() as u8;
            let builder_comps: BTreeSet<usize> = after
                .followers()
                .iter()
                .filter(|f| f.kind == FollowerKind::Builder && f.player == player)
                .filter_map(|f| nf.comp.iter().find(|(n, _)| piece_id(&after, **n) == f.piece).map(|(_, c)| *c))
                .collect();
            let extends = (0..after.board().tile(i).kind.info().def.features.len())
                .any(|j| builder_comps.contains(&nf.comp[&(i, j)]));
            expect_second = Some((extends && !state.is_second_turn(), state.current_player(), state.turns()));
            if extends && !state.is_second_turn() {
                seen.second_turns += 1;
            }
        }
        match action {
            Action::Discard => discarded += 1,
            Action::PlaceAbbey(_) => seen.abbeys += 1,
            Action::MoveWagon { .. } => seen.wagon_moves += 1,
            Action::Deploy(FollowerKind::Barn, _) => seen.barns += 1,
            Action::Deploy(FollowerKind::Mayor, _) => seen.mayors += 1,
            Action::Deploy(FollowerKind::Big, _) => seen.big += 1,
            Action::Deploy(FollowerKind::Builder, _) => seen.builders += 1,
            Action::Deploy(FollowerKind::Pig, _) => seen.pigs += 1,
            Action::Deploy(FollowerKind::Abbot, _) => seen.abbots += 1,
            Action::ReturnAbbot(_) => seen.abbot_returns += 1,
            _ => {}
        }
        let mut on_clone = state.clone();
        on_clone.play(action).unwrap();
        game.play(action).unwrap();
        assert_eq!(&on_clone, game.state(), "playing on a clone equals playing on the original");
        scratch.clone_from(game.state());
        assert_eq!(&scratch, game.state(), "clone_from copies the whole state");
        let after = game.state();
        for (b, a) in state.scores().iter().zip(after.scores()) {
            assert!(a >= b, "scores never decrease");
        }
        check_conservation(after, &start, discarded);
        // Goods are taken at the end of the turn that completes a city.
        if after.rules().has(Expansion::Traders) && (after.turns() != state.turns() || after.is_over()) {
            let held = (0..3).map(|g| after.goods().iter().map(|t| t[g] as u32).sum::<u32>()).collect::<Vec<_>>();
            assert_eq!(held, naive_goods_on_completed_cities(after), "the goods of completed cities are held");
            seen.goods += held.iter().sum::<u32>() as usize;
        }
        if let Some((second, player, turns)) = expect_second {
            if after.turns() > turns && !after.is_over() && after.bag().total() > 0 {
                let same = after.current_player() == player;
                assert_eq!(same, second, "a second turn exactly when the tile extended the player's builder");
                assert_eq!(after.is_second_turn(), second);
                expect_second = None;
            } else if after.turns() > turns {
                expect_second = None;
            }
        }
        check_ferries(after);
        if let Err(e) = carcassonne_engine::audit::check(after) {
            panic!("the engine's own audit: {e}");
        }
        if deep || after.step() == Step::Draw {
            check_features(after);
        }
        if after.step() == Step::Draw && (deep || after.turns().is_multiple_of(10)) {
            let json = game.record().to_json();
            let back = Record::from_json(&json).unwrap();
            assert_eq!(&back, game.record(), "the record round-trips through JSON");
            let replayed = Game::replay(&back).unwrap();
            assert_eq!(replayed.state(), game.state(), "replaying the record reproduces the state");
        }
    }
    assert_eq!(game.state().final_scores(), naive_final_scores(game.state()), "end-of-game scoring");
    let replayed = Game::replay(game.record()).unwrap();
    assert_eq!(replayed.state(), game.state());
    let v2 = game.record().to_v2().unwrap();
    assert_eq!(Game::replay(&v2).unwrap().state(), game.state(), "the version-2 record reproduces the state");
    let actions: Vec<Action> = v2.actions().unwrap().into_iter().flatten().collect();
    assert_eq!(&Record::from_actions(v2.setup.clone(), actions).unwrap(), game.record(), "actions back to version 1");
    assert!(game.state().bag().is_empty());
    positions
}

fn setup(players: usize, expansions: &[&str], edition: &str, rules: &RuleOptions) -> Setup {
    Setup {
        players: (0..players).map(|i| format!("P{i}")).collect(),
        expansions: expansions.iter().map(|s| s.parse().unwrap()).collect(),
        edition: Some(edition.parse().unwrap()),
        seed: None,
        rules: rules.clone(),
    }
}

fn run_games(games: u64, expansions: &[&str], edition: &str) -> Seen {
    run_games_with(games, expansions, edition, &RuleOptions::default())
}

fn run_games_with(games: u64, expansions: &[&str], edition: &str, rules: &RuleOptions) -> Seen {
    let mut positions = 0;
    let mut seen = Seen::default();
    let most = if expansions.contains(&"inns") { 6 } else { 5 };
    for seed in 0..games {
        let players = 2 + (seed % (most - 1)) as usize;
        positions += play_checked_game(setup(players, expansions, edition, rules), seed, seed % 10 == 0, &mut seen);
    }
    eprintln!("{games} games, {positions} placement positions cross-checked, {seen:?}");
    // The random games reach every decision of the expansions in play.
    if expansions.contains(&"abbey") {
        assert!(seen.abbeys > 0 && seen.wagon_moves > 0 && seen.barns > 0 && seen.mayors > 0, "{seen:?}");
        assert!(seen.wagon_steps >= seen.wagon_moves, "{seen:?}");
    }
    if expansions.contains(&"inns") {
        assert!(seen.big > 0, "{seen:?}");
    }
    if expansions.contains(&"traders") {
        assert!(seen.builders > 0 && seen.pigs > 0 && seen.second_turns > 0 && seen.goods > 0, "{seen:?}");
    }
    if expansions.contains(&"abbot") {
        assert!(seen.abbots > 0 && seen.abbot_returns > 0, "{seen:?}");
    }
    seen
}

#[test]
fn random_base_games_keep_every_invariant() {
    run_games(150, &[], "c3");
}

#[test]
fn random_ferries_games_keep_every_invariant_c3() {
    run_games(120, &["ferries"], "c3");
}

#[test]
fn random_ferries_games_keep_every_invariant_c2() {
    run_games(120, &["ferries"], "c2");
}

#[test]
fn random_inns_games_keep_every_invariant() {
    run_games(100, &["inns"], "c3");
}

#[test]
fn random_inns_and_ferries_games_keep_every_invariant() {
    run_games(100, &["inns", "ferries"], "c3");
}

#[test]
fn random_abbey_games_keep_every_invariant() {
    run_games(80, &["abbey"], "c3");
}

#[test]
fn random_abbey_and_ferries_games_keep_every_invariant() {
    run_games(80, &["abbey", "ferries"], "c3");
}

/// As JCloisterZone lets a setup choose: Abbey & Mayor's figures and abbeys
/// with the base game's tiles only, two of each a player, and the first
/// edition's wagon moves (C1).
#[test]
fn random_abbey_figures_on_base_tiles_with_c1_keep_every_invariant() {
    let rules = RuleOptions {
        tile_sets: Some(vec![]),
        figures: [("mayor", 2), ("wagon", 2), ("barn", 2)].into_iter().map(|(k, n)| (k.to_string(), n)).collect(),
        abbeys: Some(2),
        wagon_move: Some(WagonMove::C1),
        ..RuleOptions::default()
    };
    run_games_with(60, &["abbey"], "c3", &rules);
}

#[test]
fn random_traders_games_keep_every_invariant() {
    run_games(80, &["traders"], "c3");
}

#[test]
fn random_traders_and_ferries_games_keep_every_invariant() {
    run_games(80, &["traders", "ferries"], "c2");
}

#[test]
fn random_inns_traders_and_ferries_games_keep_every_invariant() {
    run_games(80, &["inns", "traders", "ferries"], "c3");
}

#[test]
fn random_games_with_every_expansion_keep_every_invariant() {
    run_games(80, &["ferries", "inns", "abbey", "traders"], "c2");
}

#[test]
fn random_abbot_games_keep_every_invariant() {
    run_games(60, &["abbot"], "c3");
    run_games(20, &["abbot", "river", "abbey"], "c3");
}

#[test]
fn random_labyrinth_games_keep_every_invariant() {
    let seen = run_games(60, &["labyrinth", "ferries"], "c3");
    // Legs of roads through the labyrinth that others hold were offered.
    assert!(seen.labyrinth_joins > 0, "{seen:?}");
    // Wagons moving onto free legs of its road (Abbey & Mayor).
    run_games(30, &["labyrinth", "abbey"], "c3");
    let basic = RuleOptions { labyrinth_variant: Some(LabyrinthVariant::Basic), ..RuleOptions::default() };
    run_games_with(20, &["labyrinth"], "c2", &basic);
}

#[test]
fn random_games_with_all_seven_keep_every_invariant() {
    run_games(30, &["ferries", "inns", "abbey", "traders", "river", "abbot", "labyrinth"], "c3");
}

/// The combinations of expansions the tests above leave out, so that all
/// sixteen are checked against the naive reference.
#[test]
fn random_games_of_the_other_combinations_keep_every_invariant() {
    let combinations: [(&[&str], &str); 6] = [
        (&["inns", "abbey"], "c3"),
        (&["inns", "traders"], "c2"),
        (&["abbey", "traders"], "c3"),
        (&["ferries", "inns", "abbey"], "c2"),
        (&["ferries", "abbey", "traders"], "c3"),
        (&["inns", "abbey", "traders"], "c2"),
    ];
    for (expansions, edition) in combinations {
        run_games(40, expansions, edition);
    }
}

/// Perft-style counts: the number of legal placements summed over the
/// positions of fixed seeded games; the fast generator and the naive one
/// must give the same totals.
#[test]
fn placement_counts_agree_with_the_naive_generator() {
    let mut counts: BTreeMap<u64, (usize, usize)> = BTreeMap::new();
    for seed in 1000..1040u64 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut state = State::new(setup(2, &["ferries"], "c3", &RuleOptions::default()).rules().unwrap());
        let mut buf = Vec::new();
        let (mut fast, mut naive) = (0, 0);
        while let Some(a) = random_action(&state, &mut rng, &mut buf) {
            if state.step() == Step::Place {
                let kind = state.drawn().unwrap();
                let mut n = 0;
                state.board().for_each_placement(kind, |_| n += 1);
                fast += n;
                naive += naive_placements(&state, kind).len();
            }
            state.play(a).unwrap();
        }
        counts.insert(seed, (fast, naive));
    }
    for (seed, (fast, naive)) in counts {
        assert_eq!(fast, naive, "game {seed}");
        assert!(fast > 0);
    }
}
