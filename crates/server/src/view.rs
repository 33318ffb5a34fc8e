//! What a client sees of a game: the view (board, seats, legal actions,
//! log, final breakdown), the action history, and the view serialized once
//! per version for every client. The types here are the server's JSON;
//! docs/api.md describes them.

use axum::body::Bytes;
use carcassonne_engine::{Expansion, FeatureKind, FollowerKind, Location, RuleOptions, Step};
use serde::Serialize;

use crate::live::{LastPlaced, Live, SeatPublic};
use crate::wire::{xy, ActionOut};

/// Whose view is built: everyone's (with the legal actions or, for past
/// versions, without), or a seat's own over its provisional decisions.
#[derive(Clone, Copy, Debug)]
pub enum Mode {
    Public {
        with_legal: bool,
    },
    /// A tentative game (its seat's provisional decisions played): `undoable`
    /// decisions may be taken back; `seq` orders the seat's views.
    Seat {
        seat: usize,
        undoable: usize,
        seq: u64,
        /// The seat's turn is played out (see [`crate::live::Pending::played_out`]).
        played_out: bool,
    },
}

impl Live {
    /// The public view, as JSON text.
    pub fn view_json(&self, with_legal: bool) -> String {
        let mut out = Vec::new();
        self.write_view(&mut out, Mode::Public { with_legal });
        String::from_utf8(out).unwrap_or_default()
    }

    /// Appends the view, as JSON, to `out`.
    pub fn write_view(&self, out: &mut Vec<u8>, mode: Mode) {
        out.reserve(self.log.len() + 16 * 1024);
        let start = out.len();
        if serde_json::to_writer(&mut *out, &self.view(mode)).is_err() || out.last() != Some(&b'}') {
            out.truncate(start);
            out.extend_from_slice(b"{}");
            return;
        }
        // The log goes last, spliced in from its serialized form.
        out.pop();
        out.extend_from_slice(b",\"log\":[");
        out.extend_from_slice(self.log.as_bytes());
        out.extend_from_slice(b"]}");
    }

    fn view(&self, mode: Mode) -> View<'_> {
        let s = self.state();
        let (with_legal, seat, undoable, seq, played_out) = match mode {
            Mode::Public { with_legal } => (with_legal, None, None, None, false),
            Mode::Seat { seat, undoable, seq, played_out } => (true, Some(seat), Some(undoable), Some(seq), played_out),
        };
        // A seat's tentative game whose turn is played out (a draw is due,
        // the game is over, another seat decides next: a wagon's owner, or
        // its second turn begins with its abbey) waits for the seat to end
        // it: nothing is drawn or final before that.
        let confirming = seat.filter(|_| played_out);
        let board = s
            .board()
            .tiles()
            .iter()
            .map(|t| TileOut { tile: t.kind.id(), at: xy(t.pos), rot: t.rot.degrees() })
            .collect();
        let followers = s
            .followers()
            .iter()
            .map(|f| {
                let (at, loc) = s.piece_location(f.piece);
                let info = s.features().info(f.piece);
                // A barn stands on a corner of its tile, not on a field's name.
                let feature = match (f.kind, s.barn_at(f.piece)) {
                    (FollowerKind::Barn, Some((_, corner))) => Location::Corner(corner).to_string(),
                    _ => loc.to_string(),
                };
                FollowerOut {
                    seat: f.player as usize,
                    at: xy(at),
                    feature,
                    piece: info.local,
                    kind: info.kind.name(),
                    figure: f.kind.name(),
                }
            })
            .collect();
        let ferries = s
            .ferries()
            .all()
            .iter()
            .map(|f| FerryOut { at: xy(s.board().tile(f.tile as usize).pos), ferry: f.jetties.to_string() })
            .collect();
        let movable_ferries =
            if s.step() == Step::MoveFerries { s.movable_ferries().map(xy).collect() } else { Vec::new() };
        let abbey = s.rules().has(Expansion::Abbey);
        let traders = s.rules().has(Expansion::Traders);
        let waiting_wagons = s
            .abbey_mayor()
            .waiting
            .iter()
            .map(|w| {
                let tile = s.board().tile(w.tile as usize);
                WagonOut {
                    seat: w.player as usize,
                    at: xy(tile.pos),
                    feature: w.location.to_string(),
                    piece: s.resolve(w.tile as usize, w.location).map(|p| s.features().info(p).local),
                    kind: w.location.kind().name(),
                }
            })
            .collect();
        let legal = if confirming.is_some() {
            vec![ActionOut::end_turn()]
        } else if with_legal && self.to_act().is_some() && !self.is_over() {
            s.legal_action_list().into_iter().map(|a| ActionOut::legal(s, a)).collect()
        } else {
            Vec::new()
        };
        // What the player to act may point at and not choose, and why.
        let refused = if confirming.is_none() && with_legal && self.to_act().is_some() && !self.is_over() {
            crate::why::refusals(s)
        } else {
            Vec::new()
        };
        let over = self.is_over() && confirming.is_none();
        // Hints asked for, per seat: in a game with hints, or a record that holds some.
        let used = self.game.hints_used();
        let hints = (self.meta.seats.iter().any(|s| s.hints) || used.iter().any(|&n| n > 0)).then_some(used);
        let bag =
            BagOut { total: s.bag().total(), tiles: s.bag().kinds().map(|k| (k.id(), s.bag().count(k))).collect() };
        View {
            game: &self.meta.id,
            version: self.version,
            status: if over { "finished" } else { "active" },
            rated: self.meta.rated,
            clock: self.clock.as_ref().map(|c| ClockOut { deadline: if over { None } else { c.deadline() }, clock: c }),
            setup: SetupOut {
                players: &self.record().setup.players,
                expansions: &self.record().setup.expansions,
                edition: s.rules().edition().name(),
                rules: &self.record().setup.rules,
            },
            seats: self.meta.public_seats(),
            turn: s.turns(),
            step: if confirming.is_some() { "end_turn" } else { step_name(s.step()) },
            current: s.current_player(),
            to_act: if self.forfeit().is_some() { None } else { confirming.or(self.to_act()) },
            drawn: s.drawn().map(|k| k.id()),
            board,
            last_placed: self.last_placed,
            followers,
            ferries,
            movable_ferries,
            abbeys: if abbey { Some(s.abbeys().to_vec()) } else { None },
            goods: traders
                .then(|| s.goods().iter().map(|g| GoodsOut { wine: g[0], grain: g[1], cloth: g[2] }).collect()),
            second_turn: traders.then(|| s.is_second_turn()),
            waiting_wagons,
            scores: s.scores().to_vec(),
            projected_scores: s.final_scores(),
            supply: s.supply().to_vec(),
            figures: s
                .rules()
                .figures()
                .into_iter()
                .map(|(kind, each)| FigureOut { figure: kind.name(), each, supply: s.supply_of(kind).to_vec() })
                .collect(),
            bag,
            legal,
            refused,
            hints,
            undoable,
            seq,
            final_: over.then(|| self.final_breakdown()),
        }
    }

    fn final_breakdown(&self) -> FinalOut {
        let s = self.state();
        let n = s.rules().players();
        // Lost on time: the scores as they stood, no end-of-game scoring,
        // the best of the other seats the winners.
        if let Some(lost) = self.forfeit() {
            let scores = s.scores().to_vec();
            let best = (0..n).filter(|&i| i != lost).map(|i| scores[i]).max().unwrap_or(0);
            return FinalOut {
                goods: None,
                winners: (0..n).filter(|&i| i != lost && scores[i] == best).collect(),
                before_end_scoring: scores.clone(),
                scores,
                by_kind: vec![ByKind::default(); n],
                scorings: Vec::new(),
                forfeit: Some(lost),
            };
        }
        let mut scorings = Vec::new();
        let scores = s.final_scores_with(|sc| scorings.push(sc));
        let mut by_kind = vec![ByKind::default(); n];
        for sc in &scorings {
            for (b, p) in by_kind.iter_mut().zip(&sc.points) {
                match sc.kind {
                    FeatureKind::Road => b.road += p,
                    FeatureKind::City => b.city += p,
                    // A garden scores as a monastery does, and is counted with them.
                    FeatureKind::Monastery | FeatureKind::Garden => b.monastery += p,
                    FeatureKind::Field => b.field += p,
                }
            }
        }
        let best = scores.iter().copied().max().unwrap_or(0);
        // Traders & Builders: what the goods scored, beyond the features.
        let goods = s.rules().has(Expansion::Traders).then(|| {
            (0..n)
                .map(|i| {
                    let b = &by_kind[i];
                    scores[i].saturating_sub(s.scores()[i] + b.road + b.city + b.monastery + b.field)
                })
                .collect()
        });
        FinalOut {
            goods,
            winners: (0..n).filter(|i| scores[*i] == best).collect(),
            before_end_scoring: s.scores().to_vec(),
            scores,
            by_kind,
            scorings: scorings.clone(),
            forfeit: None,
        }
    }

    /// The history: the action that led to each version.
    pub fn history_json(&self) -> String {
        let actions: Vec<HistoryOut> = self
            .actions
            .iter()
            .enumerate()
            .map(|(i, (seat, a))| HistoryOut { version: i as u64 + 1, seat: *seat, action: ActionOut::of(*a) })
            .collect();
        serde_json::to_string(&serde_json::json!({ "actions": actions })).unwrap_or_else(|_| "{}".into())
    }
}

pub fn step_name(s: Step) -> &'static str {
    match s {
        Step::Draw => "draw",
        Step::Place => "place",
        Step::Deploy => "deploy",
        Step::PlaceFerry => "place_ferry",
        Step::MoveFerries => "move_ferries",
        Step::Abbey => "abbey",
        Step::MoveWagon => "move_wagon",
        Step::GameOver => "game_over",
    }
}

/// A seat's own view over its provisional decisions, for its clients alone.
#[derive(Clone, Debug)]
pub struct SeatView {
    pub seat: usize,
    pub view: ViewText,
}

#[derive(Serialize)]
struct HistoryOut {
    version: u64,
    seat: Option<usize>,
    action: ActionOut,
}

#[derive(Serialize)]
struct View<'a> {
    game: &'a str,
    version: u64,
    status: &'static str,
    /// Created as rated (absent otherwise).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    rated: bool,
    /// The time control and the clocks (absent without one).
    #[serde(skip_serializing_if = "Option::is_none")]
    clock: Option<ClockOut<'a>>,
    setup: SetupOut<'a>,
    seats: Vec<SeatPublic>,
    turn: u32,
    step: &'static str,
    current: usize,
    to_act: Option<usize>,
    drawn: Option<&'static str>,
    board: Vec<TileOut>,
    last_placed: Option<LastPlaced>,
    followers: Vec<FollowerOut>,
    ferries: Vec<FerryOut>,
    movable_ferries: Vec<[i32; 2]>,
    /// Abbey & Mayor: abbeys each seat still holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    abbeys: Option<Vec<u8>>,
    /// Abbey & Mayor: wagons whose feature was scored, waiting for their
    /// owners to move them, in the order they decide (the first one at
    /// step `move_wagon`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    waiting_wagons: Vec<WagonOut>,
    /// Traders & Builders: the trade goods each seat holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    goods: Option<Vec<GoodsOut>>,
    /// Traders & Builders: whether this turn is a second turn, given by
    /// the current seat's builder.
    #[serde(skip_serializing_if = "Option::is_none")]
    second_turn: Option<bool>,
    scores: Vec<u32>,
    projected_scores: Vec<u32>,
    supply: Vec<u8>,
    figures: Vec<FigureOut>,
    bag: BagOut,
    legal: Vec<ActionOut>,
    /// Beside `legal`: what the rules refuse at this step, and why (`crate::why`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    refused: Vec<crate::why::Refusal>,
    /// Hints each seat has asked for (absent in a game without them).
    #[serde(skip_serializing_if = "Option::is_none")]
    hints: Option<Vec<u32>>,
    /// A seat's own view: how many of its provisional decisions undo may take back.
    #[serde(skip_serializing_if = "Option::is_none")]
    undoable: Option<usize>,
    /// A seat's own view: orders its views within the turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    seq: Option<u64>,
    #[serde(rename = "final")]
    final_: Option<FinalOut>,
}

/// The clocks as a view shows them: their state, and when the running one
/// runs out (milliseconds since 1970, by the server's clock).
#[derive(Serialize)]
struct ClockOut<'a> {
    #[serde(flatten)]
    clock: &'a crate::game::clock::Clock,
    #[serde(skip_serializing_if = "Option::is_none")]
    deadline: Option<i64>,
}

#[derive(Serialize)]
struct SetupOut<'a> {
    players: &'a [String],
    expansions: &'a [carcassonne_engine::Expansion],
    edition: &'static str,
    #[serde(skip_serializing_if = "RuleOptions::is_empty")]
    rules: &'a RuleOptions,
}

#[derive(Serialize)]
struct TileOut {
    tile: &'static str,
    at: [i32; 2],
    rot: u16,
}

#[derive(Serialize)]
struct FollowerOut {
    seat: usize,
    at: [i32; 2],
    feature: String,
    piece: u8,
    kind: &'static str,
    figure: &'static str,
}

/// A wagon waiting to move: its owner, and where it stood.
#[derive(Serialize)]
struct WagonOut {
    seat: usize,
    at: [i32; 2],
    feature: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    piece: Option<u8>,
    kind: &'static str,
}

/// Traders & Builders: a seat's trade goods.
#[derive(Serialize)]
struct GoodsOut {
    wine: u8,
    grain: u8,
    cloth: u8,
}

/// A figure in play: how many each player starts with and has in supply.
#[derive(Serialize)]
struct FigureOut {
    figure: &'static str,
    each: u8,
    supply: Vec<u8>,
}

#[derive(Serialize)]
struct FerryOut {
    at: [i32; 2],
    ferry: String,
}

#[derive(Serialize)]
struct BagOut {
    total: u16,
    tiles: std::collections::BTreeMap<&'static str, u8>,
}

#[derive(Serialize, Clone, Default)]
struct ByKind {
    road: u32,
    city: u32,
    monastery: u32,
    field: u32,
}

#[derive(Serialize)]
struct FinalOut {
    scores: Vec<u32>,
    winners: Vec<usize>,
    before_end_scoring: Vec<u32>,
    by_kind: Vec<ByKind>,
    /// Traders & Builders: each seat's points for the goods (10 a good it has the most of).
    #[serde(skip_serializing_if = "Option::is_none")]
    goods: Option<Vec<u32>>,
    scorings: Vec<carcassonne_engine::Scoring>,
    /// The seat that lost on time (docs/api.md, Clocks).
    #[serde(skip_serializing_if = "Option::is_none")]
    forfeit: Option<usize>,
}

/// A view serialized once per version, in the form a WebSocket sends it
/// (`{"type":"view","view":…}`), from which the bare view is a slice.
#[derive(Clone, Debug)]
pub struct ViewText(Bytes);

const VIEW_PREFIX: &str = "{\"type\":\"view\",\"view\":";

impl ViewText {
    pub(crate) fn new(live: &Live) -> ViewText {
        ViewText::with_mode(live, Mode::Public { with_legal: true })
    }

    pub(crate) fn with_mode(live: &Live, mode: Mode) -> ViewText {
        let mut out = Vec::with_capacity(VIEW_PREFIX.len() + live.log.len() + 16 * 1024);
        out.extend_from_slice(VIEW_PREFIX.as_bytes());
        live.write_view(&mut out, mode);
        out.push(b'}');
        ViewText(Bytes::from(out))
    }

    /// The WebSocket message.
    pub fn message(&self) -> Bytes {
        self.0.clone()
    }

    /// The view alone (JSON), without copying.
    pub fn view(&self) -> Bytes {
        self.0.slice(VIEW_PREFIX.len()..self.0.len() - 1)
    }
}
