//! The bag: a multiset of tile kinds. Its order is never known to the
//! engine; chance draws from its contents, a stage at a time where a tile
//! set says some tiles come first (The River's tiles, then its lake).

use rand::Rng;

use crate::catalogue::{catalogue, TILE_SETS};
use crate::rules::base::tiles::START_TILE;
use crate::setup::Rules;
use crate::tile::{TileKind, STAGES};

/// Room for every kind of the catalogue (a multiple of eight, for
/// [`Bag::sample`]).
const MAX_KINDS: usize = 112;

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Bag {
    counts: [u8; MAX_KINDS],
    total: u16,
    /// Tiles left in each draw stage above 0 ([`crate::tile::TileSet::stages`]):
    /// only the highest stage with tiles left may be drawn, stage 0 (every
    /// other tile) once they are all out. All zero unless a set in play has
    /// stages, so that a game without pays one test a draw.
    staged: [u16; STAGES],
    /// Their sum.
    first: u16,
}

impl Bag {
    /// The start tile of these rules (placed before the first turn, so not
    /// in the bag): the base game's D, unless a tile set in play brings its
    /// own (The River's spring).
    pub fn start_for(rules: &Rules) -> TileKind {
        let own =
            TILE_SETS.iter().find_map(|set| set.start.filter(|_| set.expansion.is_some_and(|e| rules.has_tiles(e))));
        TileKind::parse(own.unwrap_or(START_TILE)).expect("the catalogue has the start tile")
    }

    /// The tiles of the base game and every expansion in play, in the chosen
    /// edition, less the start tile.
    pub fn for_rules(rules: &Rules) -> Bag {
        assert!(catalogue().kinds.len() <= MAX_KINDS, "the bag has room for every kind");
        let mut counts = [0u8; MAX_KINDS];
        // Only the sets in play are looked at: more expansions known cost
        // a game without them nothing.
        let kinds = &catalogue().kinds;
        let mut staged_sets = false;
        let in_play = |e: &Option<_>| e.is_none_or(|e| rules.has_tiles(e));
        for ((expansion, range), set) in catalogue().sets.iter().zip(TILE_SETS) {
            if in_play(expansion) {
                for i in range.clone() {
                    counts[i] = kinds[i].count(rules.edition());
                }
                staged_sets |= !set.stages.is_empty();
            }
        }
        for set in TILE_SETS.iter().filter(|set| in_play(&set.expansion)) {
            for (own, plain) in set.replaces {
                let (own, plain) = (TileKind::parse(own), TileKind::parse(plain));
                if let (Some(own), Some(plain)) = (own, plain) {
                    counts[plain.index()] = counts[plain.index()].saturating_sub(counts[own.index()]);
                }
            }
        }
        counts[Bag::start_for(rules).index()] -= 1;
        let total = counts.iter().map(|c| *c as u16).sum();
        let mut staged = [0; STAGES];
        if staged_sets {
            for (c, kind) in counts.iter().zip(kinds) {
                staged[kind.stage as usize] += *c as u16;
            }
            staged[0] = 0;
        }
        let first = staged.iter().sum();
        Bag { counts, total, staged, first }
    }

    /// The draw stage tiles are drawn from now.
    fn stage(&self) -> u8 {
        (1..STAGES).rev().find(|s| self.staged[*s] > 0).unwrap_or(0) as u8
    }

    /// Whether `kind` may be drawn now: it is in the bag, and no tile of a
    /// stage drawn before it is left.
    pub fn may_draw(&self, kind: TileKind) -> bool {
        self.count(kind) > 0 && (self.first == 0 || kind.info().stage == self.stage())
    }

    /// Kinds that may be drawn now (see [`may_draw`](Self::may_draw)).
    pub fn drawable(&self) -> impl Iterator<Item = TileKind> + '_ {
        let (stage, all) = (self.stage(), self.first == 0);
        self.kinds().filter(move |k| all || k.info().stage == stage)
    }

    /// How many tiles may be drawn now: each is equally likely.
    pub fn drawable_total(&self) -> u16 {
        match self.stage() {
            0 => self.total - self.first,
            s => self.staged[s as usize],
        }
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
        if self.first > 0 {
            self.remove_staged(kind);
        }
    }

    #[cold]
    #[inline(never)]
    fn remove_staged(&mut self, kind: TileKind) {
        let stage = kind.info().stage as usize;
        if stage > 0 {
            self.staged[stage] -= 1;
            self.first -= 1;
        }
    }

    /// Draws a kind at random, each tile that may be drawn now equally
    /// likely (chance's move, for simulations; the state itself never draws).
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<TileKind> {
        if self.total == 0 {
            return None;
        }
        if self.first > 0 {
            return self.sample_stage(rng);
        }
        let mut r = rng.random_range(0..self.total);
        // Eight kinds at a time: no kind has more than 31 tiles, so the
        // bytes of a word sum without carrying into each other.
        for (w, chunk) in self.counts.chunks_exact(8).enumerate() {
            let word = u64::from_le_bytes(chunk.try_into().expect("eight counts"));
            let sum = (word.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u16;
            if r >= sum {
                r -= sum;
                continue;
            }
            for (i, c) in chunk.iter().enumerate() {
                if r < *c as u16 {
                    return Some(TileKind((w * 8 + i) as u8));
                }
                r -= *c as u16;
            }
        }
        None
    }

    /// [`sample`](Self::sample) while tiles of a later stage wait.
    #[cold]
    #[inline(never)]
    fn sample_stage<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<TileKind> {
        let mut r = rng.random_range(0..self.drawable_total());
        for kind in self.drawable() {
            let c = self.count(kind) as u16;
            if r < c {
                return Some(kind);
            }
            r -= c;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expansion::{Edition, Expansion};
    use rand::SeedableRng;

    /// The word-at-a-time sum in `sample` needs every count below 32.
    #[test]
    fn no_kind_has_more_than_31_tiles() {
        for k in &catalogue().kinds {
            for edition in [Edition::C3, Edition::C2] {
                assert!(k.count(edition) <= 31, "{}", k.def.id);
            }
        }
    }

    /// `sample` maps the same random number to the same kind as a walk
    /// over the counts one by one would.
    #[test]
    fn sampling_by_words_picks_what_a_plain_walk_picks() {
        let all = [Expansion::Inns, Expansion::Abbey, Expansion::Traders, Expansion::Ferries];
        for expansions in [&[][..], &[Expansion::Ferries], &all] {
            let rules = Rules::new(2, expansions, Edition::C3).unwrap();
            let mut bag = Bag::for_rules(&rules);
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
            while !bag.is_empty() {
                let mut again = rng.clone();
                let kind = bag.sample(&mut rng).unwrap();
                let mut r = again.random_range(0..bag.total);
                let plain = bag.counts.iter().position(|c| {
                    let hit = r < *c as u16;
                    r = r.wrapping_sub(*c as u16);
                    hit
                });
                assert_eq!(Some(kind.index()), plain);
                bag.remove(kind);
            }
        }
    }
}
