//! What editing a share of a text does to its fingerprint: the text's features as the
//! fingerprinter sees them (how many, how often each occurs, how many words or CJK characters
//! each spans, what each weighs), and from them the expected angle between the feature
//! vectors of the text and of a copy with a share `p` of its units edited, which SimHash turns
//! into a chance `θ/π` for each bit to differ (Charikar 2002).
//!
//! The model of an edit (docs/evaluation.md derives it): each unit (a word outside CJK, a CJK
//! character) is edited with probability `p`; an occurrence of a feature spanning `s` units
//! is destroyed when any of them is, so with probability `1 − (1 − p)^s`, and a feature
//! disappears when all `m` of its occurrences are; every destroyed occurrence is replaced by
//! one occurrence of a feature drawn like the text's own, which is new to the text as often
//! as the text's own occurrences were new when they occurred: `D/N`, its distinct features
//! over its occurrences. A text of distinct words meets a new word at every replacement; a
//! long text that repeats its words mostly meets words it has. (Good and Turing's estimate
//! of unseen mass, features seen once over occurrences, was the first choice: it says a
//! text repeated twice never meets a new word, and gives such a text a `k` of 0.)

use alloc::vec::Vec;

use crate::algorithm::Algorithm;
use crate::distinct::Distinct;
use crate::fingerprinter::Fingerprinter;
use crate::options::Weighting;
use crate::tokenize::is_cjk;

/// The distinct features of one text, grouped by span and occurrences.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Profile {
    /// (span, occurrences) → (features, the sum of their squared IDF factors).
    groups: Vec<Group>,
    weighting: Weighting,
    /// What the fingerprint measures: the angle (SimHash) or the Jaccard similarity (MinHash).
    algorithm: Algorithm,
    /// The mean squared IDF factor of the text's features: what a new feature is taken to
    /// weigh (1 without IDF).
    new_idf2: f64,
    /// The chance that a replacement is a feature the text does not have: its distinct
    /// features over its occurrences (1 for a text without features).
    novel: f64,
    /// How many distinct features the text has: what `feature_count` says.
    pub(crate) distinct: u32,
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Group {
    span: u32,
    occurrences: u32,
    features: f64,
    idf2: f64,
}

/// Units (words outside CJK, CJK characters) a feature's text covers, the feature being
/// `parts` joined by `separator` (however the tokenizer hands them over: one slice, or its
/// items apart): each CJK character is one, each run of other characters that are not spaces
/// is one. A word is 1, a CJK bigram 2, a word 3-shingle 3, a character 5-gram across a space
/// 2, a character 4-gram inside a word 1.
pub(crate) fn span(parts: &[&str], separator: &str) -> u32 {
    let mut units = 0u32;
    let mut in_run = false;
    for (i, part) in parts.iter().enumerate() {
        let joint = if i == 0 { "" } else { separator };
        for c in joint.chars().chain(part.chars()) {
            if is_cjk(c) {
                units = units.saturating_add(1);
                in_run = false;
            } else if c.is_whitespace() {
                in_run = false;
            } else if !in_run {
                units = units.saturating_add(1);
                in_run = true;
            }
        }
    }
    units.max(1)
}

/// A text's features counted as they come, by span: what [`Profile`] is made of. The one-shot
/// profile feeds it the whole text; a stream feeds it chunk by chunk (`Stream`).
pub(crate) struct Counts {
    /// One counting table per span: a handful (1 and 2 for the default tokenizer).
    tables: Vec<(u32, Distinct)>,
    wide: bool,
}

impl Counts {
    pub(crate) fn new(fingerprinter: &Fingerprinter) -> Counts {
        Counts {
            tables: Vec::new(),
            wide: fingerprinter.hasher().width() > 64,
        }
    }

    /// One occurrence of the feature of full hash `hash`, spanning `span` units.
    pub(crate) fn add(&mut self, span: u32, hash: u128) {
        let at = match self.tables.iter().position(|(t, _)| *t == span) {
            Some(at) => at,
            None => {
                self.tables.push((span, Distinct::new(self.wide, true)));
                self.tables.len() - 1
            }
        };
        self.tables[at].1.add(hash);
    }
}

impl Profile {
    /// The profile of `text` through `fingerprinter`'s folding, tokenizer and weights.
    pub(crate) fn of(fingerprinter: &Fingerprinter, text: &str) -> Profile {
        let folded = fingerprinter.fold(text);
        let mut counts = Counts::new(fingerprinter);
        fingerprinter
            .options()
            .tokenizer
            .for_each_feature(&folded, |parts, separator| {
                let hash = fingerprinter
                    .hasher()
                    .full_hash_in(&folded, parts, separator);
                counts.add(span(parts, separator), hash);
            });
        Profile::from_counts(fingerprinter, &counts)
    }

    /// The profile of the features in `counts`, under `fingerprinter`'s weights.
    pub(crate) fn from_counts(fingerprinter: &Fingerprinter, counts: &Counts) -> Profile {
        let options = fingerprinter.options();
        let tables = &counts.tables;
        // Sorted by (span, occurrences), found by binary search: one group per distinct pair,
        // hundreds for a long text, and a map would compile a B-tree's code once more (4 KB of
        // wasm). Each group sums its features in the same order as before, so the same bits.
        let mut groups: Vec<Group> = Vec::new();
        let (mut features, mut idf2_sum) = (0.0, 0.0);
        let mut distinct = 0usize;
        for (s, table) in tables {
            distinct += table.len();
            for (hash, m) in table.counts() {
                // More than 2^32 occurrences of one feature cannot come from a text in memory.
                let m = u32::try_from(m).unwrap_or(u32::MAX);
                // Every weighting gives 1 for one occurrence, so this is the IDF factor.
                let idf = fingerprinter.weight_of(hash, 1);
                let at = groups
                    .binary_search_by(|g| (g.span, g.occurrences).cmp(&(*s, m)))
                    .unwrap_or_else(|at| {
                        groups.insert(
                            at,
                            Group {
                                span: *s,
                                occurrences: m,
                                features: 0.0,
                                idf2: 0.0,
                            },
                        );
                        at
                    });
                groups[at].features += 1.0;
                groups[at].idf2 += idf * idf;
                features += 1.0;
                idf2_sum += idf * idf;
            }
        }
        let occurrences: f64 = groups
            .iter()
            .map(|g| g.features * f64::from(g.occurrences))
            .sum();
        Profile {
            novel: if occurrences > 0.0 {
                features / occurrences
            } else {
                1.0
            },
            groups,
            distinct: u32::try_from(distinct).unwrap_or(u32::MAX),
            weighting: options.weighting,
            algorithm: options.algorithm,
            new_idf2: if features > 0.0 {
                idf2_sum / features
            } else {
                1.0
            },
        }
    }

    /// How many distinct features the text has.
    #[cfg(test)]
    pub(crate) fn features(&self) -> f64 {
        self.groups.iter().map(|g| g.features).sum()
    }

    /// The text's groups, or one of a single word for a text without features.
    fn groups_or_one_word(&self) -> &[Group] {
        const ONE_WORD: [Group; 1] = [Group {
            span: 1,
            occurrences: 1,
            features: 1.0,
            idf2: 1.0,
        }];
        if self.groups.is_empty() {
            &ONE_WORD
        } else {
            &self.groups
        }
    }

    /// The expected cosine between the text's feature vector and that of a copy with a share
    /// `p` of its units edited. A text without features is taken as one of a single word.
    pub(crate) fn cosine(&self, p: f64) -> f64 {
        let groups = self.groups_or_one_word();
        let (mut dot, mut a2, mut b2, mut new) = (0.0, 0.0, 0.0, 0.0);
        for g in groups {
            let destroyed = 1.0 - libm::pow(1.0 - p, f64::from(g.span));
            let m = g.occurrences;
            let (w, w2) = self.moments(m, 1.0 - destroyed);
            let wm = self.weighting.weight(m);
            dot += g.idf2 * wm * w;
            a2 += g.idf2 * wm * wm;
            b2 += g.idf2 * w2;
            new += g.features * f64::from(m) * destroyed;
        }
        b2 += new * self.novel * self.new_idf2;
        if a2 <= 0.0 || b2 <= 0.0 {
            return 0.0;
        }
        (dot / libm::sqrt(a2 * b2)).clamp(-1.0, 1.0)
    }

    /// The expected Jaccard similarity between the text's set of features and that of a copy
    /// with a share `p` of its units edited (binary weights: the sets MinHash takes): the
    /// features expected to survive over the union of the text's features and the new ones
    /// the edit brings in.
    pub(crate) fn jaccard(&self, p: f64) -> f64 {
        let (mut kept, mut all, mut new) = (0.0, 0.0, 0.0);
        for g in self.groups_or_one_word() {
            let destroyed = 1.0 - libm::pow(1.0 - p, f64::from(g.span));
            let m = g.occurrences;
            kept += g.features * (1.0 - libm::pow(destroyed, f64::from(m)));
            all += g.features;
            new += g.features * f64::from(m) * destroyed;
        }
        let union = all + new * self.novel;
        if union <= 0.0 {
            return 0.0;
        }
        (kept / union).clamp(0.0, 1.0)
    }

    /// The chance that one bit of the two fingerprints differs at an edit of a share `p`:
    /// `θ/π` for SimHash at the expected angle `θ`, `(1 − J)/2` for one-bit MinHash at the
    /// expected Jaccard similarity `J`.
    pub(crate) fn flip_probability(&self, p: f64) -> f64 {
        match self.algorithm {
            Algorithm::SimHash => libm::acos(self.cosine(p)) / core::f64::consts::PI,
            Algorithm::MinHash => crate::minhash::flip_probability(self.jaccard(p)),
        }
    }

    /// `E[W(J)]` and `E[W(J)²]` for the weight `W` of a feature whose `m` occurrences each
    /// survive with probability `keep` (`J` binomial). Exact up to 256 occurrences; beyond, a
    /// count that large barely varies, so `W(E[J])`.
    fn moments(&self, m: u32, keep: f64) -> (f64, f64) {
        match self.weighting {
            Weighting::Binary => {
                let present = 1.0 - libm::pow(1.0 - keep, f64::from(m));
                (present, present)
            }
            Weighting::TermFrequency => {
                let (n, q) = (f64::from(m), keep);
                (n * q, n * q * (1.0 - q) + n * n * q * q)
            }
            Weighting::LogTermFrequency if m > 256 => {
                let w = self.weighting.weight(1) + libm::log(f64::from(m) * keep);
                (w, w * w)
            }
            Weighting::LogTermFrequency => {
                // The binomial probabilities from j = m down, by their ratio (no factorials).
                let lost = 1.0 - keep;
                if keep <= 0.0 {
                    return (0.0, 0.0);
                }
                let (mut e1, mut e2) = (0.0, 0.0);
                let mut pmf = libm::pow(keep, f64::from(m));
                for j in (1..=m).rev() {
                    let w = self.weighting.weight(j);
                    e1 += pmf * w;
                    e2 += pmf * w * w;
                    // P(J = j − 1) = P(J = j) · j / (m − j + 1) · lost / keep
                    pmf *= f64::from(j) / f64::from(m - j + 1) * lost / keep;
                }
                (e1, e2)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Options;
    use crate::tokenize::Tokenizer;
    use alloc::string::String;

    fn profile(text: &str, options: Options) -> Profile {
        Profile::of(&Fingerprinter::new(options).unwrap(), text)
    }

    #[test]
    fn spans_count_words_and_cjk_characters() {
        assert_eq!(span(&["word"], " "), 1);
        assert_eq!(span(&["管理"], ""), 2);
        assert_eq!(span(&["管", "理"], ""), 2);
        assert_eq!(span(&["quick", "brown", "fox"], " "), 3);
        assert_eq!(span(&["quick brown fox"], ""), 3);
        assert_eq!(span(&["k bro"], ""), 2);
        assert_eq!(span(&["k", " ", "b", "r"], ""), 2);
        // Characters of one word, handed over apart or as one slice: one unit.
        assert_eq!(span(&["a", "p", "t"], ""), 1);
        assert_eq!(span(&["apt"], ""), 1);
        assert_eq!(span(&["好a"], ""), 2);
        assert_eq!(span(&[""], ""), 1);
    }

    #[test]
    fn groups_by_span_and_occurrences() {
        let p = profile("apt apt get 管理员", Options::default());
        // apt ×2 (span 1), get ×1 (span 1), 管理 and 理员 (span 2).
        let groups: Vec<(u32, u32, f64)> = p
            .groups
            .iter()
            .map(|g| (g.span, g.occurrences, g.features))
            .collect();
        assert_eq!(groups, [(1, 1, 1.0), (1, 2, 1.0), (2, 1, 2.0)]);
        assert_eq!(p.features(), 4.0);
    }

    /// With binary weights and features occurring once (so every replacement is new), the
    /// cosine is the closed form `(1 − d)·D / sqrt(D · ((1 − d)·D + d·D)) = 1 − d` for
    /// `d = 1 − (1 − p)^s`.
    #[test]
    fn closed_form_for_distinct_words_and_bigrams() {
        let words: Vec<String> = (0..200).map(|i| alloc::format!("w{i}")).collect();
        let english = profile(&words.join(" "), Options::default());
        assert!((english.cosine(0.1) - 0.9).abs() < 1e-12);
        assert!(
            (english.flip_probability(0.1) - libm::acos(0.9) / core::f64::consts::PI).abs() < 1e-12
        );
        // Bigrams of distinct characters: each spans two, so d = 1 − 0.9² = 0.19.
        let han: String = (0x4E00u32..0x4E00 + 300)
            .filter_map(char::from_u32)
            .collect();
        let chinese = profile(&han, Options::default());
        assert!((chinese.cosine(0.1) - 0.81).abs() < 1e-12);
        // So the same edit rate moves a Chinese text further than an English one.
        assert!(chinese.flip_probability(0.1) > english.flip_probability(0.1));
    }

    #[test]
    fn min_hash_closed_form_for_distinct_words() {
        // Distinct words, each edit a new word: J = (1 − p)·N / (N + p·N) = (1 − p)/(1 + p).
        let words: Vec<String> = (0..200).map(|i| alloc::format!("w{i}")).collect();
        let options = Options {
            algorithm: crate::Algorithm::MinHash,
            ..Options::default()
        };
        let english = profile(&words.join(" "), options);
        assert!((english.jaccard(0.1) - 0.9 / 1.1).abs() < 1e-12);
        assert!((english.flip_probability(0.1) - (1.0 - 0.9 / 1.1) / 2.0).abs() < 1e-12);
        // An empty text counts as one word, as for SimHash.
        assert!((profile("", options).jaccard(0.1) - 0.9 / 1.1).abs() < 1e-12);
    }

    #[test]
    fn repeated_features_move_less_under_binary_weights() {
        let once: Vec<String> = (0..100).map(|i| alloc::format!("w{i}")).collect();
        let twice: Vec<String> = (0..200).map(|i| alloc::format!("w{}", i % 100)).collect();
        let a = profile(&once.join(" "), Options::default());
        let b = profile(&twice.join(" "), Options::default());
        assert!(b.flip_probability(0.1) < a.flip_probability(0.1));
    }

    #[test]
    fn more_editing_moves_further() {
        let text = "Debian 管理员手册介绍了如何安装和配置系统，以及如何使用 APT 工具维护软件包。";
        for weighting in [
            Weighting::Binary,
            Weighting::TermFrequency,
            Weighting::LogTermFrequency,
        ] {
            let p = profile(
                text,
                Options {
                    weighting,
                    ..Options::default()
                },
            );
            let mut last = 0.0;
            for share in [0.0, 0.05, 0.1, 0.2, 0.4, 1.0] {
                let flip = p.flip_probability(share);
                assert!(flip >= last, "{weighting:?} at {share}: {flip} < {last}");
                last = flip;
            }
            assert_eq!(p.flip_probability(0.0), 0.0);
        }
    }

    #[test]
    fn log_tf_moments_sum_the_binomial() {
        let p = profile(
            "a a a b",
            Options {
                weighting: Weighting::LogTermFrequency,
                ..Options::default()
            },
        );
        // m = 3, keep = 0.5: J = 1, 2, 3 with 3/8, 3/8, 1/8.
        let w = |j: u32| Weighting::LogTermFrequency.weight(j);
        let (e1, e2) = p.moments(3, 0.5);
        let want1 = 3.0 / 8.0 * w(1) + 3.0 / 8.0 * w(2) + 1.0 / 8.0 * w(3);
        let want2 = 3.0 / 8.0 * w(1) * w(1) + 3.0 / 8.0 * w(2) * w(2) + 1.0 / 8.0 * w(3) * w(3);
        assert!((e1 - want1).abs() < 1e-12 && (e2 - want2).abs() < 1e-12);
    }

    #[test]
    fn shingles_span_their_words() {
        let words: Vec<String> = (0..200).map(|i| alloc::format!("w{i}")).collect();
        let text = words.join(" ");
        let single = profile(&text, Options::default());
        let triples = profile(
            &text,
            Options {
                tokenizer: Tokenizer::Words { n: 3 },
                ..Options::default()
            },
        );
        assert!((triples.cosine(0.1) - 0.729).abs() < 0.01);
        assert!(triples.flip_probability(0.1) > single.flip_probability(0.1));
    }

    /// 100 words twice each: half the occurrences were new; 50 once and 50 three times:
    /// 100 distinct in 200.
    #[test]
    fn replacements_are_new_as_often_as_the_text_meets_new_words() {
        let twice: Vec<String> = (0..200).map(|i| alloc::format!("w{}", i % 100)).collect();
        assert!((profile(&twice.join(" "), Options::default()).novel - 0.5).abs() < 1e-12);
        let mut mixed: Vec<String> = (0..50).map(|i| alloc::format!("once{i}")).collect();
        for i in 0..150 {
            mixed.push(alloc::format!("thrice{}", i % 50));
        }
        assert!((profile(&mixed.join(" "), Options::default()).novel - 0.5).abs() < 1e-12);
        let distinct: Vec<String> = (0..200).map(|i| alloc::format!("w{i}")).collect();
        assert_eq!(profile(&distinct.join(" "), Options::default()).novel, 1.0);
    }

    #[test]
    fn empty_text_is_one_word() {
        let empty = profile("", Options::default());
        assert_eq!(empty.features(), 0.0);
        assert!((empty.cosine(0.1) - 0.9).abs() < 1e-12);
    }
}
