//! The bag: a multiset of tile kinds. Its order is never known to the
//! engine; chance draws from its contents.

use rand::Rng;

use crate::catalogue::catalogue;
use crate::rules::base::tiles::START_TILE;
use crate::setup::Rules;
use crate::tile::TileKind;

/// Room for every kind of the catalogue.
const MAX_KINDS: usize = 96;

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Bag {
    counts: [u8; MAX_KINDS],
    total: u16,
}

impl Bag {
    /// The start tile (placed before the first turn, so not in the bag).
    pub fn start_tile() -> TileKind {
        TileKind::parse(START_TILE).expect("the catalogue has the start tile")
    }

    /// The tiles of the base game and every expansion in play, in the chosen
    /// edition, less the start tile.
    pub fn for_rules(rules: &Rules) -> Bag {
        assert!(catalogue().kinds.len() <= MAX_KINDS, "the bag has room for every kind");
        let mut counts = [0u8; MAX_KINDS];
        // Only the sets in play are looked at: more expansions known cost
        // a game without them nothing.
        let kinds = &catalogue().kinds;
        for (expansion, range) in &catalogue().sets {
            if expansion.is_none_or(|e| rules.has_tiles(e)) {
                for i in range.clone() {
                    counts[i] = kinds[i].count(rules.edition());
                }
            }
        }
        counts[Bag::start_tile().index()] -= 1;
        let total = counts.iter().map(|c| *c as u16).sum();
        Bag { counts, total }
    }

    pub fn total(&self) -> u16 {
        self.total
    }

    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    pub fn count(&self, kind: TileKind) -> u8 {
        self.counts[kind.index()]
    }

    /// Kinds with at least one tile left.
    pub fn kinds(&self) -> impl Iterator<Item = TileKind> + '_ {
        TileKind::all().filter(|k| self.counts[k.index()] > 0)
    }

    pub(crate) fn remove(&mut self, kind: TileKind) {
        self.counts[kind.index()] -= 1;
        self.total -= 1;
    }

    /// Draws a kind at random, each tile in the bag equally likely (chance's
    /// move, for simulations; the state itself never draws).
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<TileKind> {
        if self.total == 0 {
            return None;
        }
        let mut r = rng.random_range(0..self.total);
        for (i, c) in self.counts.iter().enumerate() {
            if r < *c as u16 {
                return Some(TileKind(i as u8));
            }
            r -= *c as u16;
        }
        None
    }
}
