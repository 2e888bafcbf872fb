//! Detection quality: how well fingerprints at `recommended_k` tell near-duplicates from other
//! documents, in nine language groups and three lengths, on text the rule was not tuned on;
//! and every text pipeline compared the same way.
//!
//!     python3 scripts/corpus.py                     # fetch the text once (about 2 minutes)
//!     cargo run --release --example evaluate        # about 2 minutes; prints every table
//!     python3 bench/minhash.py                      # MinHash LSH on the same pairs
//!
//! The data (evaluate/data.rs, evaluate/edit.rs), built from fixed seeds:
//! * documents cut from the corpora of scripts/corpus.py (Debian documentation: the handbook,
//!   the Debian Reference, the FAQ, LibreOffice's help, man pages) in nine groups: English,
//!   Chinese and Japanese, each also as technical text mixed with code (code blocks kept,
//!   man pages); Korean, German, French. Three length classes: short (50–300 characters:
//!   comments, posts), medium (300–1,000), long (1,000–4,000); up to 30 documents per group,
//!   source, length class and split;
//! * the split: the FAQ is held out whole; of every other source, half the pages (by a hash
//!   of the page) are held out. The rule of `recommended_k` was chosen on the other half
//!   ("tune"); every table says which half it shows;
//! * near-duplicates of each document: 1, 3, 5 and 10 % of the units edited (words; CJK
//!   characters one by one), typos in 3 and 10 % of the words (ASCII words in CJK text
//!   too), whitespace and punctuation changed, a header or signature added (and removed),
//!   wrapped in HTML, paragraphs or sentences reordered;
//! * non-duplicates: 20 and 40 % edited, five other documents of the same source (the hard
//!   negatives) and five of another source, same group, length class and split.
//!
//! It also writes the pairs to ~/.cache/simprint/eval/ (texts.jsonl, pairs.tsv) for
//! bench/minhash.py.
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use simprint::{
    recommended_k, DocumentFrequencies, Fingerprinter, Normalization, Options, Tokenizer, Weighting,
};

#[path = "../tests/support/splitmix64.rs"]
mod splitmix64;
use splitmix64::SplitMix64 as Rng;

#[path = "evaluate/corpora.rs"]
mod corpora;
#[path = "evaluate/cross.rs"]
mod cross;
#[path = "evaluate/data.rs"]
mod data;
#[path = "evaluate/edit.rs"]
mod edit;
#[path = "evaluate/exact.rs"]
mod exact;
#[path = "evaluate/score.rs"]
mod score;

use data::{Data, Kind, Pair, GROUPS, LENGTHS};
use score::{best, counts, score, sweep, Rule, Score};

impl Rng {
    fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }
    fn chance(&mut self, p: f64) -> bool {
        ((self.next() >> 11) as f64 / (1u64 << 53) as f64) < p
    }
}

const MAX_K: u32 = 40;

type Filter = Box<dyn Fn(&Pair) -> bool>;

/// The rows of the main tables: each group, each length class, all pairs.
fn slices() -> Vec<(String, Filter)> {
    let mut out: Vec<(String, Filter)> = Vec::new();
    for (g, group) in GROUPS.iter().enumerate() {
        out.push((group.name.into(), Box::new(move |p: &Pair| p.group == g)));
    }
    for (l, (name, lo, hi)) in LENGTHS.iter().enumerate() {
        out.push((
            format!("{name} ({lo}–{hi})"),
            Box::new(move |p: &Pair| p.length == l),
        ));
    }
    out.push(("all".into(), Box::new(|_: &Pair| true)));
    out
}

fn edits_only(p: &Pair) -> bool {
    matches!(
        p.kind,
        Kind::Edit(_) | Kind::Reorder | Kind::SameSource | Kind::OtherSource
    )
}

/// The rule `recommended_k` implemented before this evaluation: 9 at 64 bits unless CJK
/// letters outnumber the others; then 12, or 15 below 300 characters.
fn previous_rule(text: &str) -> u32 {
    let (mut cjk, mut other) = (0, 0);
    for c in text.chars().filter(|c| c.is_alphanumeric()) {
        if edit::is_cjk(c) {
            cjk += 1;
        } else {
            other += 1;
        }
    }
    if cjk > other {
        if text.chars().count() < 300 {
            15
        } else {
            12
        }
    } else {
        9
    }
}

fn distances(data: &Data, fp: &Fingerprinter) -> Vec<u32> {
    let fps: Vec<_> = data.texts.iter().map(|t| fp.fingerprint(t)).collect();
    data.pairs
        .iter()
        .map(|p| fps[p.a].distance(&fps[p.b]).unwrap())
        .collect()
}

fn percentile(mut xs: Vec<u32>, p: f64) -> u32 {
    if xs.is_empty() {
        return 0;
    }
    xs.sort_unstable();
    xs[((xs.len() - 1) as f64 * p).round() as usize]
}

/// The per-pair k of a rule (from the first text's counts).
fn rule_ks(data: &Data, measures: &[(u32, u32)], rule: Rule) -> Vec<u32> {
    data.pairs.iter().map(|p| rule.k(measures[p.a])).collect()
}

/// Summary figures of a per-pair k on one split: macro F1 over the groups, F1 of all pairs,
/// of short texts, the lowest group F1, and the lowest precision and F1 over the cells
/// (group × length class).
struct Summary {
    macro_f1: f64,
    all: Score,
    short: Score,
    min_group_f1: f64,
    min_cell_p: f64,
    min_cell_f1: f64,
}

fn summary(data: &Data, d: &[u32], k: &[u32], held_out: bool) -> Summary {
    let mut cells = vec![Score::default(); GROUPS.len() * LENGTHS.len()];
    let mut groups = vec![Score::default(); GROUPS.len()];
    let (mut all, mut short) = (Score::default(), Score::default());
    for (i, p) in data.pairs.iter().enumerate() {
        if p.held_out != held_out {
            continue;
        }
        let flagged = d[i] <= k[i];
        let dup = p.kind.duplicate();
        cells[p.group * LENGTHS.len() + p.length].add(flagged, dup);
        groups[p.group].add(flagged, dup);
        all.add(flagged, dup);
        if p.length == 0 {
            short.add(flagged, dup);
        }
    }
    let min = |xs: &mut dyn Iterator<Item = f64>| xs.fold(1.0, f64::min);
    Summary {
        macro_f1: groups.iter().map(Score::f1).sum::<f64>() / groups.len() as f64,
        all,
        short,
        min_group_f1: min(&mut groups.iter().map(Score::f1)),
        min_cell_p: min(&mut cells.iter().map(Score::precision)),
        min_cell_f1: min(&mut cells.iter().map(Score::f1)),
    }
}

fn fingerprinter(options: Options, idf: bool, data: &Data) -> Fingerprinter {
    let fp = Fingerprinter::new(options).unwrap();
    if !idf {
        return fp;
    }
    // Document frequencies from the tuning half's documents only (each has one pair of
    // every edit kind, so its 1 % edit names it once).
    let mut df = DocumentFrequencies::new(options).unwrap();
    for p in &data.pairs {
        if p.kind == Kind::Edit(10) && !p.held_out {
            df.add(&data.texts[p.a]);
        }
    }
    fp.with_document_frequencies(&df).unwrap()
}

/// The rules of the family on the tuning half, highest macro F1 first; with `constrained`
/// only those with precision ≥ 0.905 and F1 ≥ 0.92 in every group × length cell (the targets
/// are 0.90 and 0.92: the half point of margin is for text not tuned on).
struct Search {
    latin: std::ops::RangeInclusive<u32>,
    cjk: std::ops::RangeInclusive<u32>,
    bumps: &'static [u32],
    fades: &'static [u32],
    constrained: bool,
    /// Rules whose largest k (latin or cjk, plus bump) exceeds this are left out.
    max_k: u32,
}

/// The largest k the index must serve for a pipeline to become the default: the single-corpus
/// evaluation's bar is 50 µs a query among 1M fingerprints, and multi-index hashing (docs/index.md)
/// takes 44 µs at k = 12 and 118 µs at k = 15 (64 bits, random fingerprints, native).
const INDEX_K: u32 = 12;

fn search_rules(
    data: &Data,
    d: &[u32],
    measures: &[(u32, u32)],
    search: &Search,
) -> Vec<(Rule, Summary)> {
    let mut found = Vec::new();
    for l in search.latin.clone() {
        for c in search.cjk.clone() {
            for &bump in search.bumps {
                for &fade in search.fades {
                    if bump == 0 && fade != search.fades[0] {
                        continue;
                    }
                    if l.max(c) + bump > search.max_k {
                        continue;
                    }
                    let rule = Rule {
                        latin: l,
                        cjk: c,
                        bump,
                        fade,
                    };
                    let s = summary(data, d, &rule_ks(data, measures, rule), false);
                    if !search.constrained || (s.min_cell_p >= 0.905 && s.min_cell_f1 >= 0.92) {
                        found.push((rule, s));
                    }
                }
            }
        }
    }
    found.sort_by(|a, b| b.1.macro_f1.total_cmp(&a.1.macro_f1));
    found
}

fn main() {
    let home = std::env::var("HOME").unwrap_or_default();
    let root = std::env::args()
        .nth(1)
        .unwrap_or_else(|| format!("{home}/.cache/simprint/corpus"));
    let revisions = std::env::args()
        .nth(2)
        .unwrap_or_else(|| format!("{home}/.cache/simprint/revisions"));
    let started = std::time::Instant::now();
    let data = data::build(Path::new(&root));
    let a = corpora::Set {
        name: "A debian",
        texts: data.texts.clone(),
        pairs: data
            .pairs
            .iter()
            .map(|p| corpora::P {
                a: p.a,
                b: p.b,
                dup: p.kind.duplicate(),
                lang: GROUPS[p.group].lang,
                kind: p.kind.label(),
                tune: !p.held_out,
            })
            .collect(),
        meaning: "≤ 10 % of units edited (from the group's vocabulary), typos, formatting, boilerplate, HTML, reordering",
        left_out: 0,
        too_long: 0,
    };
    let sets = [
        a,
        corpora::gnome(Path::new(&root)),
        corpora::guides(Path::new(&root)),
        corpora::revisions(Path::new(&revisions)),
    ];
    println!("# Detection quality across corpora (bench/evaluate.rs)\n");
    println!(
        "{:<13} | {:<4} | {:>6} | {:>6} | {:>6} | {:>6} | what a near-duplicate is",
        "corpus", "lang", "texts", "pairs", "dups", "others"
    );
    for s in &sets {
        for lang in corpora::LANGS
            .iter()
            .chain(&[edit::Lang::Ko, edit::Lang::De, edit::Lang::Fr])
        {
            let pairs: Vec<&corpora::P> = s.pairs.iter().filter(|p| p.lang == *lang).collect();
            if pairs.is_empty() {
                continue;
            }
            let mut texts: Vec<usize> = pairs.iter().flat_map(|p| [p.a, p.b]).collect();
            texts.sort_unstable();
            texts.dedup();
            let dups = pairs.iter().filter(|p| p.dup).count();
            println!(
                "{:<13} | {:<4} | {:>6} | {:>6} | {:>6} | {:>6} | {}",
                s.name,
                lang.dir(),
                texts.len(),
                pairs.len(),
                dups,
                pairs.len() - dups,
                s.meaning
            );
        }
        if s.left_out + s.too_long > 0 {
            println!(
                "{:<13} | left out: {} pairs between 10 and 20 % changed, {} with a version over 20,000 units",
                s.name, s.left_out, s.too_long
            );
        }
    }
    let differ = corpora::corpus_differences(Path::new(&root));
    if differ.is_empty() {
        println!("A, B, C       | the corpus of scripts/corpus.tsv");
    } else {
        println!(
            "A, B, C       | NOT the corpus of scripts/corpus.tsv ({}): figures over those may differ from docs/evaluation.md's",
            differ.join(", ")
        );
    }
    match corpora::revisions_unpinned(Path::new(&revisions)) {
        None => println!("D revisions   | the versions pinned in scripts/revisions.tsv"),
        Some(differ) => println!(
            "D revisions   | NOT the versions pinned in scripts/revisions.tsv ({}): its figures will not be docs/evaluation.md's; run python3 scripts/revisions.py",
            differ.join(", ")
        ),
    }
    if cross::options() != simprint::Options::default() {
        let o = cross::options();
        println!(
            "Pipeline: {} fingerprints of {:?} (not the default)",
            o.algorithm, o.tokenizer
        );
    }
    let scored: Vec<cross::Scored> = sets.iter().map(cross::score_set).collect();
    cross::choose(&scored[0]);
    cross::check_chosen(&scored);
    cross::choose_on_each(&scored);
    cross::table(&scored, 64);
    cross::table(&scored, 128);
    cross::pair_table(&scored, 64);
    cross::pair_table(&scored, 128);
    cross::curves(&scored);
    cross::length_tables(&scored);
    cross::calibration(&scored, 100, 64);
    cross::calibration(&scored, 200, 64);
    cross::calibration(&scored, 100, 128);
    cross::kinds(&scored);
    cross::write_pairs(&scored, &Path::new(&home).join(".cache/simprint/eval"));
    if std::env::var_os("SIMPRINT_EVAL_EXACT").is_some() {
        exact::ceiling(&scored);
    }
    if std::env::var_os("SIMPRINT_EVAL_FULL").is_some() {
        single_corpus(&data, &root);
    }
    println!("\n({:.0} s)", started.elapsed().as_secs_f64());
}

/// The first corpus's own tables (the single-corpus evaluation of 2026-11-23), with
/// `SIMPRINT_EVAL_FULL=1`.
fn single_corpus(data: &Data, root: &str) {
    let started = std::time::Instant::now();
    let measures: Vec<(u32, u32)> = data.texts.iter().map(|t| counts(t)).collect();

    println!("# Detection quality (bench/evaluate.rs)\n");
    println!(
        "{} texts ({} bytes), {} pairs: {} near-duplicates, {} not; corpus {root}",
        data.texts.len(),
        data.texts.iter().map(String::len).sum::<usize>(),
        data.pairs.len(),
        data.pairs.iter().filter(|p| p.kind.duplicate()).count(),
        data.pairs.iter().filter(|p| !p.kind.duplicate()).count(),
    );
    println!("\n## The data: documents and pairs per group (tune / held-out), CJK share of characters and of words + CJK characters\n");
    println!(
        "{:<9} | {:<38} | {:>11} | {:>13} | {:>5} | {:>5}",
        "group", "sources (the FAQ is held out whole)", "documents", "pairs", "chars", "feats"
    );
    for (g, group) in GROUPS.iter().enumerate() {
        let bases: Vec<&Pair> = data
            .pairs
            .iter()
            .filter(|p| p.group == g && p.kind == Kind::Edit(10))
            .collect();
        let split = |held: bool| bases.iter().filter(|p| p.held_out == held).count();
        let pairs = |held: bool| {
            data.pairs
                .iter()
                .filter(|p| p.group == g && p.held_out == held)
                .count()
        };
        let (mut chars, mut cjk, mut w, mut c) = (0usize, 0usize, 0u64, 0u64);
        for p in &bases {
            let t = &data.texts[p.a];
            chars += t.chars().filter(|c| !c.is_whitespace()).count();
            cjk += t.chars().filter(|&c| edit::is_cjk(c)).count();
            w += u64::from(measures[p.a].0);
            c += u64::from(measures[p.a].1);
        }
        println!(
            "{:<9} | {:<38} | {:>5} {:>5} | {:>6} {:>6} | {:>4.0}% | {:>4.0}%",
            group.name,
            group.sources.join(", "),
            split(false),
            split(true),
            pairs(false),
            pairs(true),
            100.0 * cjk as f64 / chars.max(1) as f64,
            100.0 * c as f64 / (w + c).max(1) as f64
        );
    }

    let fp = Fingerprinter::new(Options::default()).unwrap();
    let d = distances(data, &fp);
    let k_rec: Vec<u32> = data
        .pairs
        .iter()
        .map(|p| recommended_k(&data.texts[p.a], 64))
        .collect();
    let k_prev: Vec<u32> = data
        .pairs
        .iter()
        .map(|p| previous_rule(&data.texts[p.a]))
        .collect();

    println!("\n## At recommended_k (default pipeline, 64 bits): precision recall F1\n");
    println!("Held-out: documents the rule was not chosen on. \"edits only\": held-out pairs of the earlier evaluation's kinds only (edits, reorders, other documents).\n");
    println!(
        "{:<18} | {:>6} | {:^17} | {:^17} | {:^17} | {:^17} | {:^17}",
        "pairs", "held", "tune", "held-out", "held-out, before", "edits only", "edits only, before"
    );
    for (name, keep) in slices() {
        let tune = score(data, &d, &k_rec, |p| !p.held_out && keep(p));
        let held = score(data, &d, &k_rec, |p| p.held_out && keep(p));
        let edits = score(data, &d, &k_rec, |p| p.held_out && edits_only(p) && keep(p));
        let before = score(data, &d, &k_prev, |p| p.held_out && keep(p));
        let edits_before = score(data, &d, &k_prev, |p| {
            p.held_out && edits_only(p) && keep(p)
        });
        let n = data.pairs.iter().filter(|p| p.held_out && keep(p)).count();
        println!(
            "{name:<18} | {n:>6} | {} | {} | {} | {} | {}",
            tune.prf(),
            held.prf(),
            before.prf(),
            edits.prf(),
            edits_before.prf()
        );
    }
    println!("(\"before\": the rule recommended_k implemented until now: 9 unless CJK letters outnumber the others, then 12, 15 below 300 characters.)");

    println!("\n## Held-out, by source (shape) and by group and length, at recommended_k: precision recall F1 (pairs)\n");
    let mut sources: Vec<&str> = data.pairs.iter().map(|p| p.source).collect();
    sources.sort_unstable();
    sources.dedup();
    for source in sources {
        let s = score(data, &d, &k_rec, |p| p.held_out && p.source == source);
        let n = data
            .pairs
            .iter()
            .filter(|p| p.held_out && p.source == source)
            .count();
        println!("{source:<15} | {} | {n:>6}", s.prf());
    }
    println!();
    print!("{:<9}", "group");
    for (name, lo, hi) in LENGTHS {
        print!(" | {:^17}", format!("{name} {lo}–{hi}"));
    }
    println!();
    for (g, group) in GROUPS.iter().enumerate() {
        print!("{:<9}", group.name);
        for l in 0..LENGTHS.len() {
            let s = score(data, &d, &k_rec, |p| {
                p.held_out && p.group == g && p.length == l
            });
            print!(" | {}", s.prf());
        }
        println!();
    }

    println!("\n## Per kind, held-out, at recommended_k: share of pairs flagged (recall for near-duplicates, false-positive rate for the rest)\n");
    let mut kinds: Vec<Kind> = data.pairs.iter().map(|p| p.kind).collect();
    kinds.sort();
    kinds.dedup();
    print!("{:<15}", "kind");
    for group in GROUPS {
        print!(" | {:>7}", group.name);
    }
    println!();
    for &kind in &kinds {
        print!("{:<15}", kind.label());
        for g in 0..GROUPS.len() {
            let (mut n, mut flagged) = (0, 0);
            for (i, p) in data.pairs.iter().enumerate() {
                if p.held_out && p.group == g && p.kind == kind {
                    n += 1;
                    flagged += u32::from(d[i] <= k_rec[i]);
                }
            }
            print!(" | {:>7.3}", f64::from(flagged) / f64::from(n.max(1)));
        }
        println!();
    }

    println!(
        "\n## Distance per kind, all pairs: median / 90th percentile (default pipeline, 64 bits)\n"
    );
    print!("{:<15}", "kind");
    for group in GROUPS {
        print!(" | {:>7}", group.name);
    }
    println!();
    for &kind in &kinds {
        print!("{:<15}", kind.label());
        for g in 0..GROUPS.len() {
            let xs: Vec<u32> = data
                .pairs
                .iter()
                .zip(&d)
                .filter(|(p, _)| p.group == g && p.kind == kind)
                .map(|(_, &x)| x)
                .collect();
            print!(
                " | {:>3} {:>3}",
                percentile(xs.clone(), 0.5),
                percentile(xs, 0.9)
            );
        }
        println!();
    }

    println!("\n## What chose the rule (tuning half only)\n");
    println!("F1 at a fixed k per group and length class, and the best fixed k:\n");
    print!("{:<16}", "");
    for k in 9..=15 {
        print!(" | k = {k:<2}");
    }
    println!(" | best k: F1");
    for (g, group) in GROUPS.iter().enumerate() {
        for l in [LENGTHS.len(), 0, 1, 2] {
            let s = sweep(data, &d, MAX_K, |p| {
                !p.held_out && p.group == g && (l == LENGTHS.len() || p.length == l)
            });
            let label = if l == LENGTHS.len() {
                group.name.to_string()
            } else {
                format!("  {}", LENGTHS[l].0)
            };
            print!("{label:<16}");
            for score in &s[9..=15] {
                print!(" | {:.3} ", score.f1());
            }
            let (bk, bf) = best(&s);
            println!(" | {bk:>2}: {bf:.3}");
        }
    }

    println!("\nBest fixed k (and its F1) by the CJK share s and the count n of words + CJK characters of the first text (cells under 200 pairs left out):\n");
    let n_edges = [0u32, 15, 30, 50, 80, 120, 240, 480, u32::MAX];
    let s_edges: [f64; 8] = [0.0, 0.001, 0.3, 0.5, 0.7, 0.8, 0.9, 1.001];
    print!("{:<10}", "s \\ n");
    for w in n_edges.windows(2) {
        let label = if w[1] == u32::MAX {
            format!("≥ {}", w[0])
        } else {
            format!("{}–{}", w[0], w[1] - 1)
        };
        print!(" | {label:^9}");
    }
    println!();
    for sw in s_edges.windows(2) {
        if sw[0] == 0.0 {
            print!("{:<10}", "0");
        } else {
            print!("{:<10}", format!("{:.1}–{:.1}", sw[0], sw[1].min(1.0)));
        }
        for nw in n_edges.windows(2) {
            let keep = |p: &Pair| {
                let (w, c) = measures[p.a];
                let n = w + c;
                let s = f64::from(c) / f64::from(n.max(1));
                !p.held_out && n >= nw[0] && n < nw[1] && s >= sw[0] && s < sw[1]
            };
            if data.pairs.iter().filter(|p| keep(p)).count() < 200 {
                print!(" | {:^9}", "");
                continue;
            }
            let (k, f) = best(&sweep(data, &d, MAX_K, keep));
            print!(" | {k:>2}: {f:.3}");
        }
        println!();
    }

    println!("\nThe rule family: k = round(latin + (cjk − latin)·s + bump·max(0, 1 − n/fade)); best on the tuning half by macro F1 (mean of the groups' F1) among rules with precision ≥ 0.905 and F1 ≥ 0.92 in every group × length cell (the first is recommended_k's):\n");
    let found = search_rules(
        data,
        &d,
        &measures,
        &Search {
            latin: 9..=13,
            cjk: 11..=16,
            bumps: &[0, 1, 2, 3, 4],
            fades: &[50, 30, 40, 60, 80, 100],
            constrained: true,
            max_k: 64,
        },
    );
    println!(
        "{:<26} | {:>8} | {:>8} | {:>8} | {:>9} | {:>9}",
        "rule", "macro F1", "all F1", "short F1", "min cell P", "min cell F1"
    );
    for (rule, s) in found.iter().take(8) {
        println!(
            "{:<26} | {:>8.4} | {:>8.4} | {:>8.4} | {:>9.3} | {:>9.3}",
            rule.name(),
            s.macro_f1,
            s.all.f1(),
            s.short.f1(),
            s.min_cell_p,
            s.min_cell_f1
        );
    }
    if found.first().map(|f| f.0) != Some(Rule::CHOSEN) {
        println!(
            "\n(the search's best is not what recommended_k implements: see score::Rule::CHOSEN)"
        );
    }
    println!("\nCandidates on both halves (macro F1 / all F1 / short F1 / lowest group F1 / lowest cell P / lowest cell F1):\n");
    let mut candidates: Vec<(String, Vec<u32>)> =
        vec![("before: 9, 12, 15".into(), k_prev.clone())];
    for k in [9, 11, 12, 13] {
        candidates.push((format!("fixed {k}"), vec![k; data.pairs.len()]));
    }
    for rule in [
        Rule {
            latin: 11,
            cjk: 13,
            bump: 0,
            fade: 50,
        },
        Rule::CHOSEN,
        Rule {
            latin: 11,
            cjk: 13,
            bump: 2,
            fade: 50,
        },
        Rule {
            latin: 11,
            cjk: 13,
            bump: 2,
            fade: 60,
        },
        Rule {
            latin: 11,
            cjk: 13,
            bump: 4,
            fade: 50,
        },
        Rule {
            latin: 10,
            cjk: 14,
            bump: 2,
            fade: 50,
        },
    ] {
        let mark = if rule == Rule::CHOSEN {
            " (chosen)"
        } else {
            ""
        };
        candidates.push((
            format!("{}{mark}", rule.name()),
            rule_ks(data, &measures, rule),
        ));
    }
    println!("{:<35} | {:^38} | {:^38}", "per-text k", "tune", "held-out");
    for (name, k) in &candidates {
        print!("{name:<35}");
        for held in [false, true] {
            let s = summary(data, &d, k, held);
            print!(
                " | {:.4} {:.4} {:.4} {:.3} {:.3} {:.3}",
                s.macro_f1,
                s.all.f1(),
                s.short.f1(),
                s.min_group_f1,
                s.min_cell_p,
                s.min_cell_f1
            );
        }
        println!();
    }

    pipelines(data, &measures);

    println!("\n## Width folding: copies with ASCII letters and digits turned full-width, as near-duplicates\n");
    for normalization in [Normalization::Width, Normalization::None] {
        let fp = Fingerprinter::new(Options {
            normalization,
            ..Options::default()
        })
        .unwrap();
        let mut ds = Vec::new();
        for p in data.pairs.iter().filter(|p| p.kind == Kind::Edit(10)) {
            let wide: String = data.texts[p.a]
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() {
                        char::from_u32(c as u32 - 0x21 + 0xff01).unwrap_or(c)
                    } else {
                        c
                    }
                })
                .collect();
            ds.push(
                fp.fingerprint(&data.texts[p.a])
                    .distance(&fp.fingerprint(&wide))
                    .unwrap(),
            );
        }
        println!(
            "  {:<5} distance to the full-width copy: median {}, 90th percentile {}, max {}",
            normalization.name(),
            percentile(ds.clone(), 0.5),
            percentile(ds.clone(), 0.9),
            ds.iter().max().unwrap()
        );
    }

    println!(
        "\n## 64 against 128 bits (default pipeline), held-out, at recommended_k for each width\n"
    );
    let wide = distances(
        data,
        &Fingerprinter::new(Options {
            width: 128,
            ..Options::default()
        })
        .unwrap(),
    );
    let k128: Vec<u32> = data
        .pairs
        .iter()
        .map(|p| recommended_k(&data.texts[p.a], 128))
        .collect();
    for (name, keep) in slices()
        .iter()
        .filter(|(n, _)| n == "all" || n.starts_with("short"))
    {
        println!(
            "  {name:<16}  64-bit: {}   128-bit: {}",
            score(data, &d, &k_rec, |p| p.held_out && keep(p)).prf(),
            score(data, &wide, &k128, |p| p.held_out && keep(p)).prf()
        );
    }

    write_pairs(data, &d, &k_rec);
    println!(
        "\n(data set: {} texts, {} bytes; {:.0} s)",
        data.texts.len(),
        data.texts.iter().map(String::len).sum::<usize>(),
        started.elapsed().as_secs_f64()
    );
}

/// Every pipeline: its best fixed k and its best rule of the family, each chosen on the
/// tuning half and scored on the held-out half.
fn pipelines(data: &Data, measures: &[(u32, u32)]) {
    let tokenizers = [
        ("auto w1 c2", Tokenizer::default()),
        (
            "auto w1 c1",
            Tokenizer::Auto {
                word_n: 1,
                char_n: 1,
            },
        ),
        (
            "auto w1 c3",
            Tokenizer::Auto {
                word_n: 1,
                char_n: 3,
            },
        ),
        (
            "auto w2 c2",
            Tokenizer::Auto {
                word_n: 2,
                char_n: 2,
            },
        ),
        (
            "auto w2 c3",
            Tokenizer::Auto {
                word_n: 2,
                char_n: 3,
            },
        ),
        (
            "auto w3 c3",
            Tokenizer::Auto {
                word_n: 3,
                char_n: 3,
            },
        ),
        ("words n1", Tokenizer::Words { n: 1 }),
        ("words n2", Tokenizer::Words { n: 2 }),
        ("chars n3", Tokenizer::Chars { n: 3 }),
        ("chars n4", Tokenizer::Chars { n: 4 }),
        ("chars n5", Tokenizer::Chars { n: 5 }),
    ];
    let weightings = [
        ("binary", Weighting::Binary, false),
        ("tf", Weighting::TermFrequency, false),
        ("logtf", Weighting::LogTermFrequency, false),
        ("tf-idf", Weighting::TermFrequency, true),
        ("logtf-idf", Weighting::LogTermFrequency, true),
    ];
    println!("\n## Every pipeline (64 bits, width folding): its best fixed k and its best rule of the family, chosen on the tuning half, F1 on the held-out half\n");
    println!("(rule: latin → cjk, +bump fading out at n: searched over latin 6–24, cjk 6–30, bump 0, 1, 2, 4 fading out at 50 or 80, best macro F1 on the tuning half, no cell constraints; \"rule, k ≤ {INDEX_K}\": the same search kept to rules whose k never exceeds {INDEX_K}, what multi-index hashing serves within 50 µs at 1M; tf-idf: document frequencies of the tuning half's documents)\n");
    println!(
        "{:<22} | {:>7} | {:>8} {:>8} | {:<24} | {:>8} {:>8} {:>8} {:>8} | {:<24} | {:>8}",
        "pipeline",
        "fixed k",
        "tune F1",
        "held F1",
        "rule",
        "tune F1",
        "held F1",
        "macro",
        "short",
        format!("rule, k ≤ {INDEX_K}"),
        "held F1"
    );
    let mut results: BTreeMap<String, f64> = BTreeMap::new();
    let mut capped_results: BTreeMap<String, f64> = BTreeMap::new();
    for (tname, tokenizer) in tokenizers {
        for (wname, weighting, idf) in weightings {
            // IDF only where it was worth measuring: the word and script-aware tokenizers.
            if idf && matches!(tokenizer, Tokenizer::Chars { .. }) {
                continue;
            }
            let options = Options {
                tokenizer,
                weighting,
                ..Options::default()
            };
            let d = distances(data, &fingerprinter(options, idf, data));
            let tune = sweep(data, &d, MAX_K, |p| !p.held_out);
            let held = sweep(data, &d, MAX_K, |p| p.held_out);
            let (k, tf) = best(&tune);
            let mut search = Search {
                latin: 6..=24,
                cjk: 6..=30,
                bumps: &[0, 1, 2, 4],
                fades: &[50, 80],
                constrained: false,
                max_k: 64,
            };
            let found = search_rules(data, &d, measures, &search);
            let (rule, ts) = &found[0];
            let hs = summary(data, &d, &rule_ks(data, measures, *rule), true);
            search.max_k = INDEX_K;
            let capped = search_rules(data, &d, measures, &search);
            let (capped_rule, _) = &capped[0];
            let cs = summary(data, &d, &rule_ks(data, measures, *capped_rule), true);
            let name = format!("{tname} {wname}");
            println!(
                "{name:<22} | {k:>7} | {tf:>8.4} {:>8.4} | {:<24} | {:>8.4} {:>8.4} {:>8.4} {:>8.4} | {:<24} | {:>8.4}",
                held[k as usize].f1(),
                rule.name(),
                ts.all.f1(),
                hs.all.f1(),
                hs.macro_f1,
                hs.short.f1(),
                capped_rule.name(),
                cs.all.f1()
            );
            results.insert(name, hs.all.f1());
            capped_results.insert(format!("{tname} {wname}"), cs.all.f1());
        }
    }
    let mut ranked: Vec<(&String, &f64)> = results.iter().collect();
    ranked.sort_by(|a, b| b.1.total_cmp(a.1));
    println!("\nbest five by held-out F1 with their own rule:");
    for (name, f) in ranked.iter().take(5) {
        println!("  {f:.4}  {name}");
    }
    let mut ranked: Vec<(&String, &f64)> = capped_results.iter().collect();
    ranked.sort_by(|a, b| b.1.total_cmp(a.1));
    println!("best five by held-out F1 with their own rule at k ≤ {INDEX_K}:");
    for (name, f) in ranked.iter().take(5) {
        println!("  {f:.4}  {name}");
    }
}

/// The pairs for bench/minhash.py: texts.jsonl (one JSON string per line, line i is text i)
/// and pairs.tsv (a, b, duplicate, group, source, length class, split, kind, distance, k).
fn write_pairs(data: &Data, d: &[u32], k: &[u32]) {
    let home = std::env::var("HOME").unwrap_or_default();
    let dir = Path::new(&home).join(".cache/simprint/eval");
    std::fs::create_dir_all(&dir).unwrap();
    let mut texts =
        std::io::BufWriter::new(std::fs::File::create(dir.join("texts.jsonl")).unwrap());
    for t in &data.texts {
        writeln!(texts, "{}", serde_json::to_string(t).unwrap()).unwrap();
    }
    let mut pairs = std::io::BufWriter::new(std::fs::File::create(dir.join("pairs.tsv")).unwrap());
    writeln!(
        pairs,
        "a\tb\tduplicate\tgroup\tsource\tlength\tsplit\tkind\tdistance\tk"
    )
    .unwrap();
    for (i, p) in data.pairs.iter().enumerate() {
        writeln!(
            pairs,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            p.a,
            p.b,
            u8::from(p.kind.duplicate()),
            GROUPS[p.group].name,
            p.source,
            LENGTHS[p.length].0,
            if p.held_out { "held-out" } else { "tune" },
            p.kind.label(),
            d[i],
            k[i]
        )
        .unwrap();
    }
    println!(
        "\n(pairs written to {} for bench/minhash.py)",
        dir.display()
    );
}
