//! The ceiling under the fingerprints (`SIMPRINT_EVAL_EXACT=1`): statistics of the two texts'
//! feature sets computed exactly, with no fingerprint and so no chance in them, each flagged
//! under one threshold chosen on A's tuning half as the rules' free choices are, and scored on
//! every other corpus against that statistic's own best threshold there (an oracle).
//!
//! If no threshold on any of them transfers, no fingerprint of those features can do better
//! with a rule chosen the same way: a fingerprint only estimates such a statistic, with noise.

use std::collections::HashMap;

use simprint::{Algorithm, Fingerprinter, Options, Tokenizer, Weighting};

use crate::corpora::Set;
use crate::cross::Scored;
use crate::edit::Lang;
use crate::score::Score;

/// A text's features as the tokenizer makes them: each feature's hash and its occurrences,
/// sorted by hash.
type Bag = Vec<(u128, u32)>;

fn bags(set: &Set, word_n: usize, char_n: usize) -> HashMap<usize, Bag> {
    let tf = Fingerprinter::new(Options {
        tokenizer: Tokenizer::Auto { word_n, char_n },
        weighting: Weighting::TermFrequency,
        ..Options::default()
    })
    .unwrap();
    let mut out = HashMap::new();
    for p in &set.pairs {
        for i in [p.a, p.b] {
            out.entry(i).or_insert_with(|| {
                let mut bag: Bag = tf.explain(&set.texts[i]).map_or_else(
                    |_| Vec::new(),
                    |e| {
                        e.features
                            .iter()
                            .map(|f| (f.hash, f.weight as u32))
                            .collect()
                    },
                );
                bag.sort_unstable();
                bag
            });
        }
    }
    out
}

/// Distinct features of each text, shared distinct features, and the same counting every
/// occurrence (a multiset: `min` of the two counts shared).
struct Overlap {
    a: f64,
    b: f64,
    shared: f64,
    a_occ: f64,
    b_occ: f64,
    shared_occ: f64,
}

fn overlap(x: &Bag, y: &Bag) -> Overlap {
    let (mut i, mut j) = (0, 0);
    let (mut shared, mut shared_occ) = (0u64, 0u64);
    while i < x.len() && j < y.len() {
        match x[i].0.cmp(&y[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                shared_occ += u64::from(x[i].1.min(y[j].1));
                i += 1;
                j += 1;
            }
        }
    }
    let occ = |b: &Bag| b.iter().map(|f| f64::from(f.1)).sum::<f64>();
    Overlap {
        a: x.len() as f64,
        b: y.len() as f64,
        shared: shared as f64,
        a_occ: occ(x),
        b_occ: occ(y),
        shared_occ: shared_occ as f64,
    }
}

impl Overlap {
    /// `1 − J`, the Jaccard distance of the sets (what one-bit MinHash estimates).
    fn jaccard_distance(&self) -> f64 {
        let union = self.a + self.b - self.shared;
        if union == 0.0 {
            0.0
        } else {
            1.0 - self.shared / union
        }
    }

    /// The share of the larger text not shared (what the pair rule reads from the sizes and
    /// the angle), of the sets or of the multisets.
    fn edited(&self, occurrences: bool) -> f64 {
        let (a, b, shared) = if occurrences {
            (self.a_occ, self.b_occ, self.shared_occ)
        } else {
            (self.a, self.b, self.shared)
        };
        let big = a.max(b);
        if big == 0.0 {
            0.0
        } else {
            1.0 - shared / big
        }
    }
}

/// Pairs as (statistic, near-duplicate, corpus index, language, A's tuning half).
struct Row {
    x: f64,
    dup: bool,
    corpus: usize,
    lang: Lang,
    tune: bool,
}

/// The best F1 of "flag when `x ≤ t`" over every `t`, and that `t`.
fn best(rows: &[&Row]) -> (f64, f64) {
    let mut sorted: Vec<&&Row> = rows.iter().collect();
    sorted.sort_by(|a, b| a.x.total_cmp(&b.x));
    let positives = rows.iter().filter(|r| r.dup).count() as f64;
    let (mut tp, mut fp) = (0.0, 0.0);
    let (mut best_f1, mut best_t) = (0.0, f64::NEG_INFINITY);
    for (i, r) in sorted.iter().enumerate() {
        if r.dup {
            tp += 1.0;
        } else {
            fp += 1.0;
        }
        // Only where the next value differs can a threshold fall.
        if i + 1 < sorted.len() && sorted[i + 1].x == r.x {
            continue;
        }
        let f1 = 2.0 * tp / (tp + fp + positives);
        if f1 > best_f1 {
            (best_f1, best_t) = (f1, r.x);
        }
    }
    (best_f1, best_t)
}

fn f1_at(rows: &[&Row], t: f64) -> f64 {
    let mut score = Score::default();
    for r in rows {
        score.add(r.x <= t, r.dup);
    }
    score.f1()
}

pub fn ceiling(scored: &[Scored]) {
    let sets: Vec<&Set> = scored.iter().map(|s| s.set).collect();
    println!("\n## The ceiling under the fingerprints: exact feature statistics, a threshold chosen on A's tuning half\n");
    println!("No fingerprint: each statistic computed from the two texts' features themselves. \"t\" is chosen for the best F1 on A's");
    println!("tuning half (all languages); each corpus: F1 at t / its own best F1 for that statistic (an oracle), and the worst");
    println!("gap of en, zh, ja (F1 at t minus that language's own best). Corpus A: its held-out half.\n");
    // Tokenizations as (word_n, char_n): the first four get three statistics each, and (2, 2)
    // with (3, 3) make the combination at the end.
    let configs = [(1, 2), (1, 1), (2, 3), (3, 3), (2, 2)];
    let mut stats: Vec<(String, Vec<Vec<f64>>)> = Vec::new();
    let mut per_config: HashMap<(usize, usize), Vec<Vec<Overlap>>> = HashMap::new();
    for &(w, c) in &configs {
        let overlaps = sets
            .iter()
            .map(|s| {
                let bags = bags(s, w, c);
                s.pairs
                    .iter()
                    .map(|p| overlap(&bags[&p.a], &bags[&p.b]))
                    .collect()
            })
            .collect();
        per_config.insert((w, c), overlaps);
    }
    let default_overlaps = &per_config[&(1, 2)];
    let of = |w, c, f: &dyn Fn(&Overlap) -> f64| -> Vec<Vec<f64>> {
        per_config[&(w, c)]
            .iter()
            .map(|o| o.iter().map(f).collect())
            .collect()
    };
    let name = |w: usize, c: usize| match (w, c) {
        (1, 2) => "words, CJK bigrams (default)".to_string(),
        (1, 1) => "words, CJK characters".to_string(),
        _ => format!("{w}-word shingles, CJK {c}-grams"),
    };
    for &(w, c) in &configs[..4] {
        stats.push((
            format!("{}: 1 − J", name(w, c)),
            of(w, c, &|o| o.jaccard_distance()),
        ));
        stats.push((
            format!("{}: share edited", name(w, c)),
            of(w, c, &|o| o.edited(false)),
        ));
        stats.push((
            format!("{}: share edited, occurrences", name(w, c)),
            of(w, c, &|o| o.edited(true)),
        ));
    }
    // Runs of L edited units change about s·(L + n − 1)/L of a text's n-shingles for a share
    // s edited, so 2·c₂ − c₃ is s whatever the runs' lengths (and s(1 + s) when scattered).
    let two = of(2, 2, &|o| o.edited(true));
    let three = of(3, 3, &|o| o.edited(true));
    stats.push((
        "2 × (2-shingles) − (3-shingles), occurrences".to_string(),
        two.iter()
            .zip(&three)
            .map(|(a, b)| a.iter().zip(b).map(|(x, y)| 2.0 * x - y).collect())
            .collect(),
    ));
    println!(
        "{:<64} | {:>6} | {:<22} | {:<22} | {:<22} | {:<22}",
        "statistic", "t", "A held-out", "B", "C", "D"
    );
    for (label, values) in &stats {
        let rows: Vec<Row> = sets
            .iter()
            .enumerate()
            .flat_map(|(ci, s)| {
                s.pairs.iter().zip(&values[ci]).map(move |(p, &x)| Row {
                    x,
                    dup: p.dup,
                    corpus: ci,
                    lang: p.lang,
                    tune: p.tune,
                })
            })
            .collect();
        let tune: Vec<&Row> = rows.iter().filter(|r| r.corpus == 0 && r.tune).collect();
        let (_, t) = best(&tune);
        let mut line = format!("{label:<64} | {t:>6.3}");
        for ci in 0..sets.len() {
            let slice: Vec<&Row> = rows
                .iter()
                .filter(|r| r.corpus == ci && !(ci == 0 && r.tune))
                .collect();
            let worst = [Lang::En, Lang::Zh, Lang::Ja]
                .iter()
                .filter_map(|&l| {
                    let lang: Vec<&Row> = slice.iter().copied().filter(|r| r.lang == l).collect();
                    (lang.iter().any(|r| r.dup)).then(|| f1_at(&lang, t) - best(&lang).0)
                })
                .fold(f64::INFINITY, f64::min);
            line.push_str(&format!(
                " | {:.3} / {:.3} ({:+.3})",
                f1_at(&slice, t),
                best(&slice).0,
                worst
            ));
        }
        println!("{line}");
    }
    pair_sizes(scored, default_overlaps);
}

/// How a text's size is counted: from the pair's overlap, each text's.
type Size = dyn Fn(&Overlap) -> (f64, f64);

/// Which of the pair rule's approximations costs what: the sizes it reads as editing counted as
/// distinct features (as built), as every occurrence, or not at all (`k` of two equal sizes).
fn pair_sizes(scored: &[Scored], overlaps: &[Vec<Overlap>]) {
    println!("\n## The pair rule's sizes: distinct features (as built), every occurrence, none\n");
    if crate::cross::options() != Options::default() {
        // The sizes are the default features' and the rule SimHash's: a variant's distances
        // would be measured against another rule.
        println!("(a variant pipeline: this section reads the default one's distances)");
        return;
    }
    println!("F1 at the pair rule with each text's size counted three ways (the default features and tolerance), and in brackets");
    println!(
        "the gap of en, zh, ja to that language's best fixed k. Corpus A: its held-out half.\n"
    );
    for width in [64u32, 128] {
        let d = |s: &Scored| {
            if width == 64 {
                s.d64.clone()
            } else {
                s.d128.clone()
            }
        };
        let sizes: [(&str, &Size); 3] = [
            ("distinct features (as built)", &|o: &Overlap| (o.a, o.b)),
            ("every occurrence", &|o: &Overlap| (o.a_occ, o.b_occ)),
            ("none (equal sizes)", &|_: &Overlap| (1.0, 1.0)),
        ];
        for (label, size) in sizes {
            let mut line = format!("{width:>3} bits, sizes: {label:<30}");
            for (ci, s) in scored.iter().enumerate() {
                let dist = d(s);
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                let ks: Vec<u32> = overlaps[ci]
                    .iter()
                    .map(|o| {
                        let (a, b) = size(o);
                        Algorithm::SimHash
                            .pair_k(width, a as u32, b as u32, simprint::Tolerance::DEFAULT)
                            .unwrap()
                    })
                    .collect();
                let keep = |i: usize| !(ci == 0 && s.set.pairs[i].tune);
                let f1 = |k: &dyn Fn(usize) -> u32, lang: Option<Lang>| {
                    let mut score = Score::default();
                    for (i, p) in s.set.pairs.iter().enumerate() {
                        if keep(i) && lang.is_none_or(|l| p.lang == l) {
                            score.add(dist[i] <= k(i), p.dup);
                        }
                    }
                    score
                };
                let gaps: Vec<String> = [Lang::En, Lang::Zh, Lang::Ja]
                    .iter()
                    .map(|&l| {
                        let best = (0..width / 2)
                            .map(|k| f1(&|_| k, Some(l)).f1())
                            .fold(0.0, f64::max);
                        format!("{:+.3}", f1(&|i| ks[i], Some(l)).f1() - best)
                    })
                    .collect();
                line.push_str(&format!(
                    " | {} {:.3} [{}]",
                    &s.set.name[..1],
                    f1(&|i| ks[i], None).f1(),
                    gaps.join(" ")
                ));
            }
            println!("{line}");
        }
    }
}
