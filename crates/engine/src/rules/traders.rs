//! Traders & Builders as a rules module: its 24 tiles, the trade goods on
//! their cities, the builder and the second turn it gives, and the pig.
//!
//! Its hooks: its [`TILES`] (ids `T1` to `T24`; docs/rules.md lists them
//! beside JCloisterZone's), its [`FIGURES`] (a builder and a pig each, which
//! win no majority: [`super::strength`]), where they may stand
//! ([`builder_may_join`], [`pig_may_join`]), the goods a completed city
//! gives the player who completed it ([`goods_of`]), the pig's bonus on a
//! farm, and the goods' end scoring ([`end_of_game`]).
//!
//! The state keeps the goods each player holds and where the turn stands
//! with the builder's second turn ([`Traders`]).

use crate::features::{Features, PieceId};
use crate::geometry::HalfEdge::{Ene, Ese, Nne, Nnw, Sse, Ssw, Wnw, Wsw};
use crate::geometry::Side::{E, N, S, W};
use crate::setup::{Expansion, MAX_PLAYERS};
use crate::state::{Follower, FollowerKind};
use crate::tile::Good::{Cloth, Grain, Wine};
use crate::tile::{city, city_with_good, field, monastery, road, tile, FeatureKind, Good, TileSet};

/// Figures each player has besides the base game's: a builder and a pig.
pub const FIGURES: &[(FollowerKind, u8)] = &[(FollowerKind::Builder, 1), (FollowerKind::Pig, 1)];

/// Points each player with the most tokens of a good (at least one) scores
/// for it at the end.
pub const GOOD_MAJORITY_POINTS: u32 = 10;

/// Points a pig adds per completed city to its owner's farm, when the owner
/// scores the farm.
pub(crate) const PIG_POINTS_PER_CITY: u32 = 1;

/// The 24 tiles of JCloisterZone's set `traders-and-builders:1`, one of
/// each, at rotation 0. Goods: wine 9, grain 6, cloth 5. No T&B tile has a
/// lake with jetties: none takes a ferry (F12).
pub static TILES: TileSet = TileSet {
    expansion: Some(Expansion::Traders),
    tiles: &[
        // N with grain, and with wine.
        tile!("T1", 1, [city_with_good(&[N, W], Grain), field(&[Ene, Ese, Sse, Ssw], &[0])]),
        tile!("T2", 1, [city_with_good(&[N, W], Wine), field(&[Ene, Ese, Sse, Ssw], &[0])]),
        // A band W-E with cloth (or wine) over a cap S, a field inside between them.
        tile!("T3", 1, [city_with_good(&[W, E], Cloth), city(&[S]), field(&[Nnw, Nne], &[0]), field(&[], &[0, 1])]),
        tile!("T4", 1, [city_with_good(&[W, E], Wine), city(&[S]), field(&[Nnw, Nne], &[0]), field(&[], &[0, 1])]),
        // R with grain.
        tile!("T5", 1, [city_with_good(&[N, E, W], Grain), field(&[Sse, Ssw], &[0])]),
        // A city N+W with cloth, caps S and E, a field inside.
        tile!("T6", 1, [city_with_good(&[N, W], Cloth), city(&[S]), city(&[E]), field(&[], &[0, 1, 2])]),
        // A city N+W with cloth, roads E and S ending at it; its spike to
        // the south-east corner parts the four fields.
        tile!(
            "T7",
            1,
            [
                city_with_good(&[N, W], Cloth),
                road(&[S]),
                road(&[E]),
                field(&[Ssw], &[0]),
                field(&[Sse], &[0]),
                field(&[Ese], &[0]),
                field(&[Ene], &[0]),
            ]
        ),
        // A city N+W with wine, roads E and S ending at it.
        tile!(
            "T8",
            1,
            [
                city_with_good(&[N, W], Wine),
                road(&[S]),
                road(&[E]),
                field(&[Ssw], &[0]),
                field(&[Ese, Sse], &[0]),
                field(&[Ene], &[0]),
            ]
        ),
        // A city N+W with cloth (or grain), a cap S, a road E ending at the first.
        tile!(
            "T9",
            1,
            [city_with_good(&[N, W], Cloth), city(&[S]), road(&[E]), field(&[Ene], &[0]), field(&[Ese], &[0, 1])]
        ),
        tile!(
            "T10",
            1,
            [city_with_good(&[N, W], Grain), city(&[S]), road(&[E]), field(&[Ene], &[0]), field(&[Ese], &[0, 1])]
        ),
        // A city N+W with cloth, a road E ending at it.
        tile!(
            "T11",
            1,
            [city_with_good(&[N, W], Cloth), road(&[E]), field(&[Ene], &[0]), field(&[Ese, Sse, Ssw], &[0])]
        ),
        // The same with wine and a spike parting the south-east field.
        tile!(
            "T12",
            1,
            [
                city_with_good(&[N, W], Wine),
                road(&[E]),
                field(&[Ene], &[0]),
                field(&[Ese], &[0]),
                field(&[Sse, Ssw], &[0]),
            ]
        ),
        // T with wine.
        tile!("T13", 1, [city_with_good(&[N, E, W], Wine), road(&[S]), field(&[Ssw], &[0]), field(&[Sse], &[0])]),
        // Two corner cities, N+W with wine and E+S, a field between them.
        tile!("T14", 1, [city_with_good(&[N, W], Wine), city(&[S, E]), field(&[], &[0, 1])]),
        // G with wine.
        tile!("T15", 1, [city_with_good(&[W, E], Wine), field(&[Nnw, Nne], &[0]), field(&[Sse, Ssw], &[0])]),
        // A cap N; a road from E ends at it.
        tile!("T16", 1, [city(&[N]), road(&[E]), field(&[Ene], &[0]), field(&[Ese, Sse, Ssw, Wsw, Wnw], &[0])]),
        // A band W-E with grain (or wine); a road from S ends at it.
        tile!(
            "T17",
            1,
            [
                city_with_good(&[W, E], Grain),
                road(&[S]),
                field(&[Nnw, Nne], &[0]),
                field(&[Ssw], &[0]),
                field(&[Sse], &[0])
            ]
        ),
        tile!(
            "T18",
            1,
            [
                city_with_good(&[W, E], Wine),
                road(&[S]),
                field(&[Nnw, Nne], &[0]),
                field(&[Ssw], &[0]),
                field(&[Sse], &[0])
            ]
        ),
        // A band W-E with wine; roads from N and from S end at it.
        tile!(
            "T19",
            1,
            [
                city_with_good(&[W, E], Wine),
                road(&[N]),
                road(&[S]),
                field(&[Nnw], &[0]),
                field(&[Nne], &[0]),
                field(&[Sse], &[0]),
                field(&[Ssw], &[0]),
            ]
        ),
        // W with a monastery where its three roads end.
        tile!(
            "T20",
            1,
            [
                monastery(),
                road(&[E]),
                road(&[S]),
                road(&[W]),
                field(&[Nnw, Nne, Ene, Wnw], &[]),
                field(&[Ese, Sse], &[]),
                field(&[Ssw, Wsw], &[]),
            ]
        ),
        // A city N+W with grain; a road from S ends at it (and the same
        // with a spike parting the south-east field).
        tile!(
            "T21",
            1,
            [city_with_good(&[N, W], Grain), road(&[S]), field(&[Ssw], &[0]), field(&[Ene, Ese, Sse], &[0])]
        ),
        tile!(
            "T22",
            1,
            [
                city_with_good(&[N, W], Grain),
                road(&[S]),
                field(&[Ssw], &[0]),
                field(&[Sse], &[0]),
                field(&[Ene, Ese], &[0])
            ]
        ),
        // A cap N; a road from S ends at it, a road from W ends alone.
        tile!(
            "T23",
            1,
            [
                city(&[N]),
                road(&[W]),
                road(&[S]),
                field(&[Wnw], &[0]),
                field(&[Ssw, Wsw], &[]),
                field(&[Ene, Ese, Sse], &[0]),
            ]
        ),
        // Two roads crossing without meeting, N-S over W-E.
        tile!(
            "T24",
            1,
            [
                road(&[N, S]),
                road(&[W, E]),
                field(&[Nnw, Wnw], &[]),
                field(&[Nne, Ene], &[]),
                field(&[Ese, Sse], &[]),
                field(&[Ssw, Wsw], &[]),
            ]
        ),
    ],
};

/// Where the builder's second turn stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum SecondTurn {
    /// A first turn, no second one earned yet.
    #[default]
    No,
    /// This turn's tile extended the player's builder: a second turn follows.
    Earned,
    /// This is the second turn: it gives no third.
    Playing,
}

/// What Traders & Builders keeps in the state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traders {
    /// Tokens of each good (by [`Good`]) each player holds.
    pub goods: [[u8; 3]; MAX_PLAYERS],
    pub second_turn: SecondTurn,
}

/// The goods shown on the pieces of the city holding `root`, by [`Good`].
pub(crate) fn goods_of(features: &Features, root: PieceId, defs: impl Fn(PieceId) -> Option<Good>) -> [u8; 3] {
    let mut goods = [0u8; 3];
    for m in features.members(root) {
        if let Some(g) = defs(m) {
            goods[g as usize] = goods[g as usize].saturating_add(1);
        }
    }
    goods
}

/// Whether `kind` is a follower that lets its owner's builder or pig join
/// its feature (the builder and the pig themselves and the barn are not).
pub(crate) fn is_follower(kind: FollowerKind) -> bool {
    matches!(kind, FollowerKind::Normal | FollowerKind::Big | FollowerKind::Mayor | FollowerKind::Wagon)
}

/// Whether `player` has a follower on the feature of `root`.
pub(crate) fn has_follower(features: &Features, followers: &[Follower], player: u8, root: PieceId) -> bool {
    followers.iter().any(|f| f.player == player && is_follower(f.kind) && features.find(f.piece) == root)
}

/// Whether `player` already has a figure of `kind` on the feature of `root`.
fn has_own(features: &Features, followers: &[Follower], player: u8, kind: FollowerKind, root: PieceId) -> bool {
    followers.iter().any(|f| f.player == player && f.kind == kind && features.find(f.piece) == root)
}

/// Whether `player`'s builder may join the feature of `p` (a road or city
/// piece of the tile just placed), or why not, in the words of the rules.
pub(crate) fn builder_may_join(
    features: &Features,
    followers: &[Follower],
    player: u8,
    p: PieceId,
) -> Result<(), &'static str> {
    let root = features.find(p);
    if !matches!(features.info(root).kind, FeatureKind::Road | FeatureKind::City) {
        return Err("the builder goes on a road or a city");
    }
    let totals = features.totals(root);
    if totals.open == 0 {
        return Err("the builder goes only on an unfinished road or city");
    }
    if totals.followers == 0 || !has_follower(features, followers, player, root) {
        return Err("the builder joins a road or city that holds one of its owner's followers");
    }
    if has_own(features, followers, player, FollowerKind::Builder, root) {
        return Err("a player's builders do not stack");
    }
    Ok(())
}

/// Whether `player`'s pig may join the farm of `p` (a field piece of the
/// tile just placed), or why not.
pub(crate) fn pig_may_join(
    features: &Features,
    followers: &[Follower],
    player: u8,
    p: PieceId,
) -> Result<(), &'static str> {
    let root = features.find(p);
    if features.info(root).kind != FeatureKind::Field {
        return Err("the pig goes on a field");
    }
    if features.totals(root).followers == 0 || !has_follower(features, followers, player, root) {
        return Err("the pig joins a farm that holds one of its owner's farmers");
    }
    if has_own(features, followers, player, FollowerKind::Pig, root) {
        return Err("a player's pigs do not stack");
    }
    Ok(())
}

/// The goods' end scoring: for each good, every player with the most tokens
/// of it (at least one) scores [`GOOD_MAJORITY_POINTS`].
pub(crate) fn end_of_game(traders: &Traders, players: usize, scores: &mut [u32]) {
    for g in Good::ALL {
        let best = traders.goods[..players].iter().map(|t| t[g as usize]).max().unwrap_or(0);
        if best == 0 {
            continue;
        }
        for (s, t) in scores.iter_mut().zip(&traders.goods[..players]) {
            if t[g as usize] == best {
                *s += GOOD_MAJORITY_POINTS;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::TileKind;

    #[test]
    fn the_set_has_24_tiles_with_9_wine_6_grain_5_cloth_and_no_lake() {
        assert_eq!(TILES.tiles.iter().map(|t| t.1 as usize).sum::<usize>(), 24);
        let mut goods = [0; 3];
        for (def, _, _) in TILES.tiles {
            for f in def.features {
                assert!(!f.jetty, "{}: the T&B lake is no ferry lake", def.id);
                if let Some(g) = f.good {
                    assert_eq!(f.kind, FeatureKind::City, "{}: goods are on cities", def.id);
                    goods[g as usize] += 1;
                }
            }
            assert!(TileKind::parse(def.id).is_some());
        }
        assert_eq!(goods, [9, 6, 5]);
    }

    #[test]
    fn each_good_scores_10_to_every_player_with_the_most_tokens() {
        let mut t = Traders::default();
        t.goods[0] = [2, 0, 1];
        t.goods[1] = [2, 1, 0];
        t.goods[2] = [0, 0, 1];
        let mut scores = [0u32; 3];
        end_of_game(&t, 3, &mut scores);
        // Wine: 2-2-0, both score; grain: Bob alone; cloth: 1-0-1, both score.
        assert_eq!(scores, [20, 20, 10]);
        let mut none = [0u32; 2];
        end_of_game(&Traders::default(), 2, &mut none);
        assert_eq!(none, [0, 0], "no token, no majority");
    }
}
