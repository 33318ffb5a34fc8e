//! A sequential probability ratio test on a match's score rate, to stop a
//! match as soon as it has shown whether one bot is stronger.
//!
//! The unit is a deal: one tile order played once per seating, its score
//! the first bot's wins plus half its ties over those games, as a share.
//! Deals are independent, while the games of one deal are not (they share
//! the tiles), so the test counts deals. It is the generalized SPRT with
//! the normal approximation (as chess engines' testing frameworks use):
//! with `n` deals of mean score `x` and variance `v`, the log-likelihood
//! ratio of H1 (score rate `h1`) against H0 (`h0`) is
//! `n (h1 - h0) (2x - h0 - h1) / (2v)`. The test accepts H1 once it reaches
//! `ln((1 - β) / α)` and H0 once it falls to `ln(β / (1 - α))`.

/// The hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub h0: f64,
    pub h1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl Default for Sprt {
    /// H0 50% against H1 60%, α = β = 0.05.
    fn default() -> Sprt {
        Sprt { h0: 0.5, h1: 0.6, alpha: 0.05, beta: 0.05 }
    }
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The score rate is at least `h1` (the first bot is stronger).
    H1,
    /// The score rate is at most `h0`.
    H0,
    /// Not yet decided.
    Continue,
}

/// Fewer deals than this never decide: the variance is not known yet.
pub const MIN_DEALS: usize = 8;

impl Sprt {
    /// The lower and upper bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of H1 against H0 after deals scoring `scores` (each in 0..=1).
    pub fn llr(&self, scores: &[f64]) -> f64 {
        let n = scores.len();
        if n < 2 {
            return 0.0;
        }
        let mean = scores.iter().sum::<f64>() / n as f64;
        let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        // A match whose every deal scored alike has not shown its spread yet.
        let var = var.max(0.01);
        n as f64 * (self.h1 - self.h0) * (2.0 * mean - self.h0 - self.h1) / (2.0 * var)
    }

    pub fn verdict(&self, scores: &[f64]) -> Verdict {
        if scores.len() < MIN_DEALS {
            return Verdict::Continue;
        }
        let (lo, hi) = self.bounds();
        let llr = self.llr(scores);
        if llr >= hi {
            Verdict::H1
        } else if llr <= lo {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }

    /// The first number of deals of `scores` at which the test decides, and how.
    pub fn first_decision(&self, scores: &[f64]) -> Option<(usize, Verdict)> {
        (MIN_DEALS..=scores.len()).find_map(|n| match self.verdict(&scores[..n]) {
            Verdict::Continue => None,
            v => Some((n, v)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Deals of two games, each won with chance `p` (no ties), until decided.
    fn run(p: f64, rng: &mut Xoshiro256PlusPlus) -> (Verdict, usize) {
        let t = Sprt::default();
        let mut scores = Vec::new();
        loop {
            let wins = u32::from(rng.random_bool(p)) + u32::from(rng.random_bool(p));
            scores.push(wins as f64 / 2.0);
            match t.verdict(&scores) {
                Verdict::Continue if scores.len() < 100_000 => {}
                v => return (v, scores.len()),
            }
        }
    }

    #[test]
    fn bounds_follow_the_error_rates() {
        let (lo, hi) = Sprt::default().bounds();
        assert!((hi - 19f64.ln()).abs() < 1e-12 && (lo + 19f64.ln()).abs() < 1e-12);
    }

    #[test]
    fn the_ratio_leans_towards_the_hypothesis_nearer_the_mean() {
        let t = Sprt::default();
        assert!(t.llr(&[0.5, 1.0, 0.5, 1.0]) > 0.0);
        assert!(t.llr(&[0.5, 0.0, 0.5, 0.0, 1.0]) < 0.0);
        assert!(t.llr(&[0.55, 0.55]).abs() < 1e-9);
        assert_eq!(t.verdict(&[1.0; MIN_DEALS - 1]), Verdict::Continue);
        assert_eq!(t.verdict(&[1.0; MIN_DEALS]), Verdict::H1);
    }

    #[test]
    fn errors_stay_near_alpha_and_beta() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let runs = 400;
        let strong = (0..runs).filter(|_| run(0.6, &mut rng).0 == Verdict::H1).count();
        let even = (0..runs).filter(|_| run(0.5, &mut rng).0 == Verdict::H0).count();
        // 95% each in theory; the normal approximation and the discrete
        // steps leave it within a few points.
        assert!(strong as f64 / runs as f64 > 0.9, "H1 accepted {strong} of {runs} at 60%");
        assert!(even as f64 / runs as f64 > 0.9, "H0 accepted {even} of {runs} at 50%");
        let (_, deals) = run(0.75, &mut rng);
        assert!(deals < 100, "a clear difference decides quickly: {deals} deals");
    }
}
