//! Fitting the tolerance to a user's own edits: the recommended `k` assumes a model of how
//! copies are edited (scattered edits that bring new words), and text edited otherwise (words
//! reused from the text, edits in runs, insertions and deletions) wants another tolerance. A
//! few hundred pairs labelled by the user tell which.

use alloc::vec::Vec;

use crate::edits::Profile;
use crate::error::Error;
use crate::fingerprinter::Fingerprinter;
use crate::recommend::{recommendation_of, Tolerance};

/// The tolerances [`Fingerprinter::calibrate`] chooses from: `near` from 0.02 to 0.30 in
/// steps of 0.01, each told apart from twice as much editing.
const STEPS: core::ops::RangeInclusive<u32> = 2..=30;

/// What [`Fingerprinter::calibrate`] found on labelled pairs: the tolerance whose
/// recommended `k` scores best on them, and for comparison the default tolerance and the best
/// single `k`.
///
/// ```
/// use simprint::{Fingerprinter, Options};
/// let fp = Fingerprinter::new(Options::default())?;
/// let text = "the quick brown fox jumps over the lazy dog near the river bank today";
/// let c = fp.calibrate([
///     (text, "the quick brown fox jumps over the lazy dog near the river bank", true),
///     (text, "a slow green turtle walks under the busy bridge far from any town", false),
/// ])?;
/// assert_eq!((c.pairs, c.duplicates), (2, 1));
/// assert!(c.f1 >= c.default_f1 && c.fixed_f1 >= c.f1);
/// # Ok::<(), simprint::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Calibration {
    /// The tolerance to pass to [`Fingerprinter::recommended_k`] (and the index's queries).
    pub tolerance: Tolerance,
    /// On the labelled pairs, at that tolerance: the share of flagged pairs that are
    /// near-duplicates (1 when none is flagged).
    pub precision: f64,
    /// The share of near-duplicates flagged.
    pub recall: f64,
    /// Their harmonic mean: `2·tp / (2·tp + fp + fn)`.
    pub f1: f64,
    /// F1 at [`Tolerance::DEFAULT`], to see what calibrating gained.
    pub default_f1: f64,
    /// The one `k` that scores best on the pairs (ties: the smallest), and its F1: the
    /// ceiling of a fixed `k` on these very pairs, which no rule need reach on others.
    pub fixed_k: u32,
    /// F1 at `fixed_k`.
    pub fixed_f1: f64,
    /// Pairs read.
    pub pairs: usize,
    /// Pairs labelled near-duplicates.
    pub duplicates: usize,
}

/// True positives, false positives, false negatives (u64: an iterator may give more pairs
/// than a u32 counts).
#[derive(Clone, Copy, Default)]
struct Counts {
    tp: u64,
    fp: u64,
    fn_: u64,
}

/// A count as a float (exact below 2^53, and any count here is).
#[allow(
    clippy::cast_precision_loss,
    reason = "counts of pairs, far below 2^53"
)]
fn float(n: u64) -> f64 {
    n as f64
}

impl Counts {
    fn add(&mut self, flagged: bool, duplicate: bool) {
        match (flagged, duplicate) {
            (true, true) => self.tp += 1,
            (true, false) => self.fp += 1,
            (false, true) => self.fn_ += 1,
            (false, false) => {}
        }
    }

    fn f1(self) -> f64 {
        let tp = float(self.tp);
        let denominator = 2.0 * tp + float(self.fp) + float(self.fn_);
        if denominator == 0.0 {
            0.0
        } else {
            2.0 * tp / denominator
        }
    }
}

fn tolerance_at(step: u32) -> Tolerance {
    let near = f64::from(step) / 100.0;
    Tolerance {
        near,
        far: (2.0 * near).min(1.0),
    }
}

impl Fingerprinter {
    /// Chooses the tolerance under which each pair's first text's recommended `k` (this
    /// fingerprinter's, as [`Fingerprinter::recommended_k`] gives it) best separates the
    /// pairs labelled near-duplicates from the others: F1 over `near` from 0.02 to 0.30 in
    /// steps of 0.01 (`far` twice it), ties going to the one nearest the default 0.10.
    ///
    /// The default tolerance models scattered edits that bring new words. Copies whose edits
    /// reuse the text's words, come in runs or mostly insert and delete land closer, and want
    /// a smaller tolerance; measured on four corpora, 100 to 200 labelled pairs of a corpus
    /// chose one within about 0.02 F1 of that corpus's best fixed `k` on its other pairs,
    /// where the default was up to 0.07 below; where the default was already right, a
    /// sample's noise cost up to 0.02 (docs/evaluation.md). At 128 bits a hundred pairs were
    /// not enough (gaps up to 0.06), and on some edits one fixed `k` beat the rule at any
    /// tolerance: compare [`Calibration::fixed_f1`] with [`Calibration::f1`].
    ///
    /// Each pair costs about three fingerprints: both texts', and a second read of the first
    /// for its profile (what every tolerance's `k` is derived from, once for the whole grid).
    ///
    /// # Errors
    ///
    /// [`Error::CalibrationNeedsBothKinds`] unless the pairs hold at least one near-duplicate
    /// and one other pair.
    ///
    /// ```
    /// use simprint::{Fingerprinter, Options, Tolerance};
    /// let fp = Fingerprinter::new(Options::default())?;
    /// let a = "Debian 管理员手册介绍了如何安装和配置系统，以及如何使用 APT 工具维护软件包。";
    /// let pairs = [
    ///     (a, "Debian 管理员手册介绍如何安装与配置系统，以及如何使用 APT 工具来维护软件包。", true),
    ///     (a, "这本书讲述了如何在笔记本电脑上编译内核并调试驱动程序中的问题。", false),
    /// ];
    /// let c = fp.calibrate(pairs)?;
    /// let k = fp.recommended_k(a, c.tolerance)?;
    /// assert!(fp.fingerprint(a).distance(&fp.fingerprint(pairs[0].1))? <= k);
    /// assert!(fp.calibrate([(a, a, true)]).is_err()); // no pair of the other kind
    /// # Ok::<(), simprint::Error>(())
    /// ```
    pub fn calibrate<A: AsRef<str>, B: AsRef<str>>(
        &self,
        pairs: impl IntoIterator<Item = (A, B, bool)>,
    ) -> Result<Calibration, Error> {
        let width = self.options().width;
        let steps = STEPS.count();
        // Per step, its counts; per k (0..=width), the fixed k's.
        let mut at = Vec::new();
        at.resize(steps, Counts::default());
        let mut fixed = Vec::new();
        fixed.resize(width as usize + 1, Counts::default());
        let (mut n, mut duplicates) = (0usize, 0usize);
        let default_step = STEPS
            .clone()
            .position(|s| tolerance_at(s) == Tolerance::DEFAULT)
            .unwrap_or(0);
        for (a, b, duplicate) in pairs {
            let (a, b) = (a.as_ref(), b.as_ref());
            let d = self.fingerprint(a).distance(&self.fingerprint(b))?;
            let profile = Profile::of(self, a);
            for (counts, step) in at.iter_mut().zip(STEPS) {
                let k = recommendation_of(&profile, width, tolerance_at(step)).k;
                counts.add(d <= k, duplicate);
            }
            for (k, counts) in fixed.iter_mut().enumerate() {
                counts.add(d as usize <= k, duplicate);
            }
            n += 1;
            duplicates += usize::from(duplicate);
        }
        if duplicates == 0 || duplicates == n {
            return Err(Error::CalibrationNeedsBothKinds {
                duplicates,
                others: n - duplicates,
            });
        }
        let mut best = default_step;
        for (i, counts) in at.iter().enumerate() {
            let (f, top) = (counts.f1(), at[best].f1());
            let nearer = i.abs_diff(default_step) < best.abs_diff(default_step);
            if f > top || (f == top && nearer) {
                best = i;
            }
        }
        let mut fixed_k = 0;
        for (k, counts) in fixed.iter().enumerate() {
            if counts.f1() > fixed[fixed_k].f1() {
                fixed_k = k;
            }
        }
        let chosen = at[best];
        let flagged = chosen.tp + chosen.fp;
        Ok(Calibration {
            tolerance: tolerance_at(STEPS.start() + u32::try_from(best).unwrap_or(0)),
            precision: if flagged == 0 {
                1.0
            } else {
                float(chosen.tp) / float(flagged)
            },
            recall: float(chosen.tp) / float(chosen.tp + chosen.fn_),
            f1: chosen.f1(),
            default_f1: at[default_step].f1(),
            fixed_k: u32::try_from(fixed_k).unwrap_or(width),
            fixed_f1: fixed[fixed_k].f1(),
            pairs: n,
            duplicates,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Options;

    /// The F1 of `recommended_k` at `tolerance` over the pairs, computed the plain way.
    fn f1_of(fp: &Fingerprinter, pairs: &[(&str, &str, bool)], tolerance: Tolerance) -> f64 {
        let mut c = Counts::default();
        for &(a, b, dup) in pairs {
            let k = fp.recommended_k(a, tolerance).unwrap();
            let d = fp.fingerprint(a).distance(&fp.fingerprint(b)).unwrap();
            c.add(d <= k, dup);
        }
        c.f1()
    }

    fn edited(words: &[&str], every: usize, with: &str) -> alloc::string::String {
        let mut out = Vec::new();
        for (i, w) in words.iter().enumerate() {
            out.push(if i % every == 0 { with } else { w });
        }
        out.join(" ")
    }

    #[test]
    fn chooses_the_best_tolerance_of_the_grid_and_reports_it_truly() {
        let fp = Fingerprinter::new(Options::default()).unwrap();
        let base: Vec<alloc::string::String> = (0..12)
            .map(|d| {
                (0..120)
                    .map(|i| alloc::format!("w{}x{}", (i * 7 + d * 13) % 97, i % 5))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        // Near-duplicates: the same word reused every 8th place (edits from the text's own
        // words, which the default models as new words); others: every 3rd.
        let mut texts = Vec::new();
        for b in &base {
            let words: Vec<&str> = b.split(' ').collect();
            texts.push((b.clone(), edited(&words, 8, words[1]), true));
            texts.push((b.clone(), edited(&words, 3, words[1]), false));
        }
        let pairs: Vec<(&str, &str, bool)> = texts
            .iter()
            .map(|(a, b, d)| (a.as_str(), b.as_str(), *d))
            .collect();
        let c = fp.calibrate(pairs.iter().copied()).unwrap();
        assert_eq!((c.pairs, c.duplicates), (24, 12));
        // What it reports is what recommended_k gives at that tolerance ...
        assert!((c.f1 - f1_of(&fp, &pairs, c.tolerance)).abs() < 1e-12);
        assert!((c.default_f1 - f1_of(&fp, &pairs, Tolerance::DEFAULT)).abs() < 1e-12);
        // ... and no tolerance of the grid does better.
        for step in STEPS {
            assert!(f1_of(&fp, &pairs, tolerance_at(step)) <= c.f1 + 1e-12);
        }
        // Edits that reuse the text's words move it less than the default models: a smaller
        // tolerance separates them better.
        assert!(c.f1 > c.default_f1 && c.tolerance.near < 0.10, "{c:?}");
        // The best fixed k is the best of every k.
        for k in 0..=64 {
            let mut counts = Counts::default();
            for &(a, b, dup) in &pairs {
                let d = fp.fingerprint(a).distance(&fp.fingerprint(b)).unwrap();
                counts.add(d <= k, dup);
            }
            assert!(counts.f1() <= c.fixed_f1 + 1e-12);
        }
    }

    #[test]
    fn ties_go_to_the_default() {
        let fp = Fingerprinter::new(Options::default()).unwrap();
        // Identical copies and unrelated texts: every tolerance in a wide band separates them.
        let a = "one two three four five six seven eight nine ten eleven twelve";
        let b = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu";
        let c = fp.calibrate([(a, a, true), (a, b, false)]).unwrap();
        assert_eq!(c.tolerance, Tolerance::DEFAULT);
        assert_eq!((c.f1, c.precision, c.recall), (1.0, 1.0, 1.0));
    }

    #[test]
    fn one_kind_alone_is_an_error() {
        let fp = Fingerprinter::new(Options::default()).unwrap();
        let none: [(&str, &str, bool); 0] = [];
        assert_eq!(
            fp.calibrate(none).unwrap_err(),
            Error::CalibrationNeedsBothKinds {
                duplicates: 0,
                others: 0
            }
        );
        assert_eq!(
            fp.calibrate([("a b", "a c", false)]).unwrap_err(),
            Error::CalibrationNeedsBothKinds {
                duplicates: 0,
                others: 1
            }
        );
    }
}
