//! Counting: precision, recall and F1 of a decision over pairs, and the rule family
//! `recommended_k` belongs to.

use crate::data::{Data, Pair};

#[derive(Clone, Copy, Default)]
pub struct Score {
    pub tp: u32,
    pub fp: u32,
    pub fn_: u32,
}

impl Score {
    pub fn add(&mut self, flagged: bool, duplicate: bool) {
        match (flagged, duplicate) {
            (true, true) => self.tp += 1,
            (true, false) => self.fp += 1,
            (false, true) => self.fn_ += 1,
            _ => {}
        }
    }
    pub fn precision(&self) -> f64 {
        if self.tp + self.fp == 0 {
            1.0
        } else {
            f64::from(self.tp) / f64::from(self.tp + self.fp)
        }
    }
    pub fn recall(&self) -> f64 {
        if self.tp + self.fn_ == 0 {
            1.0
        } else {
            f64::from(self.tp) / f64::from(self.tp + self.fn_)
        }
    }
    pub fn f1(&self) -> f64 {
        let (p, r) = (self.precision(), self.recall());
        if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        }
    }
    /// "P R F1" to three decimals (the targets are at the second, so the third shows the margin).
    pub fn prf(&self) -> String {
        format!(
            "{:.3} {:.3} {:.3}",
            self.precision(),
            self.recall(),
            self.f1()
        )
    }
}

/// Scores the pairs `keep` selects, flagging pair `i` when its distance is at most `k[i]`.
pub fn score(data: &Data, d: &[u32], k: &[u32], keep: impl Fn(&Pair) -> bool) -> Score {
    let mut s = Score::default();
    for (i, p) in data.pairs.iter().enumerate() {
        if keep(p) {
            s.add(d[i] <= k[i], p.kind.duplicate());
        }
    }
    s
}

/// Scores at every fixed k from 0 to `max`.
pub fn sweep(data: &Data, d: &[u32], max: u32, keep: impl Fn(&Pair) -> bool) -> Vec<Score> {
    let mut out = vec![Score::default(); max as usize + 1];
    for (p, &dist) in data.pairs.iter().zip(d) {
        if keep(p) {
            for (k, s) in out.iter_mut().enumerate() {
                s.add(dist <= k as u32, p.kind.duplicate());
            }
        }
    }
    out
}

/// The k with the best F1, and that F1.
pub fn best(scores: &[Score]) -> (u32, f64) {
    scores
        .iter()
        .enumerate()
        .map(|(k, s)| (k as u32, s.f1()))
        .fold((0, -1.0), |b, x| if x.1 > b.1 { x } else { b })
}

/// What `recommended_k` reads of a text: words outside CJK (runs of other letters, digits and
/// `_`) and CJK characters. Mirrors the library, which does not expose the counts; `main`
/// checks that [`Rule::CHOSEN`] over these counts gives `recommended_k` for every text.
pub fn counts(text: &str) -> (u32, u32) {
    let (mut words, mut cjk, mut in_word) = (0, 0, false);
    for c in text.chars() {
        if crate::edit::is_cjk(c) {
            cjk += 1;
            in_word = false;
        } else if c.is_alphanumeric() || c == '_' {
            words += u32::from(!in_word);
            in_word = true;
        } else {
            in_word = false;
        }
    }
    (words, cjk)
}

/// The rule family: at 64 bits `round(latin + (cjk − latin)·s + bump·max(0, 1 − n/fade))`,
/// halves up, with `n` words plus CJK characters and `s` the CJK share of them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rule {
    pub latin: u32,
    pub cjk: u32,
    pub bump: u32,
    pub fade: u32,
}

impl Rule {
    /// What `recommended_k` implements.
    pub const CHOSEN: Rule = Rule {
        latin: 11,
        cjk: 13,
        bump: 1,
        fade: 80,
    };

    pub fn k(self, (words, cjk): (u32, u32)) -> u32 {
        let (w, c) = (u64::from(words), u64::from(cjk));
        let n = w + c;
        let fade = u64::from(self.fade.max(1));
        if n == 0 {
            return self.latin + self.bump;
        }
        let num = fade * (u64::from(self.latin) * w + u64::from(self.cjk) * c)
            + u64::from(self.bump) * fade.saturating_sub(n) * n;
        let den = fade * n;
        ((2 * num + den) / (2 * den)) as u32
    }

    pub fn name(self) -> String {
        if self.bump == 0 {
            format!("{} → {}", self.latin, self.cjk)
        } else {
            format!(
                "{} → {}, +{} → 0 at {}",
                self.latin, self.cjk, self.bump, self.fade
            )
        }
    }
}
