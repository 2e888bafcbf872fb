//! Detection quality: how well each text pipeline tells near-duplicates from other documents.
//!
//!     python3 scripts/corpus.py                                  # fetch the text once
//!     cargo run --release --example evaluate -- ~/.cache/simprint/corpus
//!
//! Data, built deterministically (fixed seed) from real documentation:
//! * documents: chunks of the Debian Administrator's Handbook, English and Chinese, of three
//!   lengths (short ~150, medium ~500, long ~2,000 characters), one chunk per page and length;
//! * variants of each document: edits of 1, 3, 5, 10, 20 and 40 % of the words (English) or
//!   of the characters (Chinese; English words inside Chinese text are edited as words) —
//!   substitute, insert or delete, equally likely — and a reorder of its paragraphs (or
//!   sentences, for one-paragraph documents);
//! * pairs: duplicates are (document, edit ≤ 10 %) and (document, reorder); non-duplicates are
//!   (document, edit of 20 or 40 %), five other documents of the same book, same language and
//!   length ("same source", the hard negatives), and five of the Debian Reference ("other
//!   source").
//!
//! For each pipeline it prints precision, recall and F1 at each k, per language, and the
//! distance distribution per edit kind; then per-length results for the chosen default and a
//! 64-bit against 128-bit comparison.
use std::path::Path;

use simprint::{DocumentFrequencies, Fingerprinter, Normalization, Options, Tokenizer, Weighting};

#[path = "../tests/support/splitmix64.rs"]
mod splitmix64;
use splitmix64::SplitMix64 as Rng;

impl Rng {
    fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }
    fn chance(&mut self, p: f64) -> bool {
        ((self.next() >> 11) as f64 / (1u64 << 53) as f64) < p
    }
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Lang {
    En,
    Zh,
}

const LENGTHS: [(&str, usize); 3] = [("short", 150), ("medium", 500), ("long", 2000)];
const EDIT_RATES: [f64; 6] = [0.01, 0.03, 0.05, 0.10, 0.20, 0.40];
const NEGATIVES: usize = 5;
const MAX_K: u32 = 24;

fn is_han(c: char) -> bool {
    ('\u{3400}'..='\u{9fff}').contains(&c) || ('\u{f900}'..='\u{faff}').contains(&c)
}

fn pages(dir: &Path) -> Vec<String> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e} (run python3 scripts/corpus.py)", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect()
}

/// A chunk of about `target` characters from `page`, starting at paragraph `skip`: whole
/// paragraphs while they fit, the last one cut at a word (or character) boundary.
fn chunk(page: &str, target: usize, skip: usize) -> Option<String> {
    let paras: Vec<&str> = page
        .split("\n\n")
        .map(str::trim)
        .filter(|p| p.chars().count() >= 40)
        .collect();
    let mut out = String::new();
    for p in paras.iter().skip(skip) {
        let have = out.chars().count();
        if have >= target {
            break;
        }
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        let room = target + target / 4 - have;
        if p.chars().count() <= room {
            out.push_str(p);
        } else {
            let cut: String = p.chars().take(room).collect();
            // End at a space if there is one late enough, so English words stay whole.
            let end = cut
                .rfind(' ')
                .filter(|&i| i > cut.len() / 2)
                .unwrap_or(cut.len());
            out.push_str(&cut[..end]);
        }
    }
    (out.chars().count() >= target * 3 / 4).then_some(out)
}

/// Edit units: whitespace words; with `by_char`, words holding Han characters are split into
/// characters (Chinese is edited character by character, embedded English word by word).
fn units(text: &str, by_char: bool) -> Vec<String> {
    let mut out = Vec::new();
    for w in text.split_whitespace() {
        if by_char && w.chars().any(is_han) {
            out.extend(w.chars().map(String::from));
        } else {
            out.push(String::from(w));
        }
    }
    out
}

fn join(units: Vec<String>, by_char: bool) -> String {
    let mut out = String::new();
    for u in units {
        let glued = by_char && u.chars().any(is_han) && out.chars().last().is_some_and(is_han);
        if !out.is_empty() && !glued {
            out.push(' ');
        }
        out.push_str(&u);
    }
    out
}

/// Edits about `rate` of the units: substitute, insert or delete, equally likely.
fn edit(text: &str, rate: f64, by_char: bool, vocab: &[String], rng: &mut Rng) -> String {
    let mut out = Vec::new();
    for u in units(text, by_char) {
        if rng.chance(rate) {
            match rng.index(3) {
                0 => out.push(vocab[rng.index(vocab.len())].clone()),
                1 => {
                    out.push(u);
                    out.push(vocab[rng.index(vocab.len())].clone());
                }
                _ => {}
            }
        } else {
            out.push(u);
        }
    }
    join(out, by_char)
}

/// The paragraphs (or, for one paragraph, the sentences) in another order.
fn reorder(text: &str, rng: &mut Rng) -> String {
    let paras: Vec<&str> = text.split("\n\n").collect();
    let (mut parts, sep): (Vec<String>, &str) = if paras.len() >= 2 {
        (paras.iter().map(|p| p.to_string()).collect(), "\n\n")
    } else {
        let mut sentences = Vec::new();
        let mut cur = String::new();
        for c in text.chars() {
            cur.push(c);
            if matches!(c, '.' | '!' | '?' | '。' | '！' | '？' | '；') {
                sentences.push(std::mem::take(&mut cur));
            }
        }
        if !cur.trim().is_empty() {
            sentences.push(cur);
        }
        (sentences, "")
    };
    if parts.len() < 2 {
        return text.to_string();
    }
    let original = parts.clone();
    while parts == original {
        for i in (1..parts.len()).rev() {
            parts.swap(i, rng.index(i + 1));
        }
    }
    parts
        .iter()
        .map(|p| p.trim())
        .collect::<Vec<_>>()
        .join(if sep.is_empty() { " " } else { sep })
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Kind {
    Edit(u32), // per mille
    Reorder,
    SameSource,
    OtherSource,
}

impl Kind {
    fn duplicate(self) -> bool {
        match self {
            Kind::Edit(pm) => pm <= 100,
            Kind::Reorder => true,
            _ => false,
        }
    }
    fn label(self) -> String {
        match self {
            Kind::Edit(pm) => format!("edit {}%", pm / 10),
            Kind::Reorder => "reorder".into(),
            Kind::SameSource => "same source".into(),
            Kind::OtherSource => "other source".into(),
        }
    }
}

struct Pair {
    a: usize,
    b: usize,
    kind: Kind,
    lang: Lang,
    length: usize,
}

struct Data {
    texts: Vec<String>,
    /// Indices of the base documents (for the IDF table).
    bases: Vec<usize>,
    pairs: Vec<Pair>,
}

fn build(root: &Path) -> Data {
    let mut rng = Rng(0x5151_2026);
    let mut texts = Vec::new();
    let mut bases = Vec::new();
    let mut pairs = Vec::new();
    for (lang, dir, other) in [(Lang::En, "en", "other-en"), (Lang::Zh, "zh", "other-zh")] {
        let by_char = lang == Lang::Zh;
        let book = pages(&root.join(dir));
        let reference = pages(&root.join(other));
        let vocab: Vec<String> = book.iter().flat_map(|p| units(p, by_char)).collect();
        for (length, &(_, target)) in LENGTHS.iter().enumerate() {
            // Skip a different number of paragraphs per length so the lengths are not prefixes
            // of each other.
            let docs: Vec<String> = book
                .iter()
                .filter_map(|p| chunk(p, target, 2 * length + 1))
                .collect();
            let others: Vec<String> = reference
                .iter()
                .flat_map(|p| (0..8).filter_map(move |i| chunk(p, target, 1 + i * 7)))
                .collect();
            let first = texts.len();
            texts.extend(docs.iter().cloned());
            let other_first = texts.len();
            texts.extend(others.iter().cloned());
            for (i, doc) in docs.iter().enumerate() {
                let a = first + i;
                bases.push(a);
                for rate in EDIT_RATES {
                    texts.push(edit(doc, rate, by_char, &vocab, &mut rng));
                    let kind = Kind::Edit((rate * 1000.0).round() as u32);
                    pairs.push(Pair {
                        a,
                        b: texts.len() - 1,
                        kind,
                        lang,
                        length,
                    });
                }
                texts.push(reorder(doc, &mut rng));
                pairs.push(Pair {
                    a,
                    b: texts.len() - 1,
                    kind: Kind::Reorder,
                    lang,
                    length,
                });
                for _ in 0..NEGATIVES {
                    let mut j = rng.index(docs.len());
                    while j == i {
                        j = rng.index(docs.len());
                    }
                    pairs.push(Pair {
                        a,
                        b: first + j,
                        kind: Kind::SameSource,
                        lang,
                        length,
                    });
                    let o = other_first + rng.index(others.len());
                    pairs.push(Pair {
                        a,
                        b: o,
                        kind: Kind::OtherSource,
                        lang,
                        length,
                    });
                }
            }
        }
    }
    Data {
        texts,
        bases,
        pairs,
    }
}

#[derive(Clone, Copy, Default)]
struct Score {
    tp: u32,
    fp: u32,
    fn_: u32,
}

impl Score {
    fn f1(&self) -> f64 {
        let p = self.precision();
        let r = self.recall();
        if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        }
    }
    fn precision(&self) -> f64 {
        if self.tp + self.fp == 0 {
            1.0
        } else {
            f64::from(self.tp) / f64::from(self.tp + self.fp)
        }
    }
    fn recall(&self) -> f64 {
        if self.tp + self.fn_ == 0 {
            1.0
        } else {
            f64::from(self.tp) / f64::from(self.tp + self.fn_)
        }
    }
}

/// Scores at each k for the pairs `keep` selects.
fn scores(data: &Data, d: &[u32], keep: impl Fn(&Pair) -> bool) -> Vec<Score> {
    let mut out = vec![Score::default(); MAX_K as usize * 2 + 1];
    for (p, &dist) in data.pairs.iter().zip(d) {
        if !keep(p) {
            continue;
        }
        for (k, s) in out.iter_mut().enumerate() {
            let flagged = dist <= k as u32;
            match (flagged, p.kind.duplicate()) {
                (true, true) => s.tp += 1,
                (true, false) => s.fp += 1,
                (false, true) => s.fn_ += 1,
                _ => {}
            }
        }
    }
    out
}

fn distances(data: &Data, fp: &Fingerprinter) -> Vec<u32> {
    let fps: Vec<_> = data.texts.iter().map(|t| fp.fingerprint(t)).collect();
    data.pairs
        .iter()
        .map(|p| fps[p.a].distance(&fps[p.b]).unwrap())
        .collect()
}

fn best(scores: &[Score]) -> (usize, f64) {
    scores
        .iter()
        .enumerate()
        .map(|(k, s)| (k, s.f1()))
        .fold((0, -1.0), |b, x| if x.1 > b.1 { x } else { b })
}

fn percentile(mut xs: Vec<u32>, p: f64) -> u32 {
    if xs.is_empty() {
        return 0;
    }
    xs.sort_unstable();
    xs[((xs.len() - 1) as f64 * p).round() as usize]
}

fn fingerprinter(options: Options, idf: bool, data: &Data) -> Fingerprinter {
    let fp = Fingerprinter::new(options).unwrap();
    if !idf {
        return fp;
    }
    let mut df = DocumentFrequencies::new(options).unwrap();
    for &i in &data.bases {
        df.add(&data.texts[i]);
    }
    fp.with_document_frequencies(&df).unwrap()
}

/// Precision, recall and F1 at each of `ks` for each language and length, and the best k.
fn detail(data: &Data, d: &[u32], ks: std::ops::RangeInclusive<usize>) {
    type Group = (String, Box<dyn Fn(&Pair) -> bool>);
    let groups: Vec<Group> = vec![
        ("English".into(), Box::new(|p: &Pair| p.lang == Lang::En)),
        ("Chinese".into(), Box::new(|p: &Pair| p.lang == Lang::Zh)),
        ("both".into(), Box::new(|_: &Pair| true)),
        ("short (~150)".into(), Box::new(|p: &Pair| p.length == 0)),
        ("medium (~500)".into(), Box::new(|p: &Pair| p.length == 1)),
        ("long (~2000)".into(), Box::new(|p: &Pair| p.length == 2)),
        (
            "en short".into(),
            Box::new(|p: &Pair| p.lang == Lang::En && p.length == 0),
        ),
        (
            "en medium".into(),
            Box::new(|p: &Pair| p.lang == Lang::En && p.length == 1),
        ),
        (
            "en long".into(),
            Box::new(|p: &Pair| p.lang == Lang::En && p.length == 2),
        ),
        (
            "zh short".into(),
            Box::new(|p: &Pair| p.lang == Lang::Zh && p.length == 0),
        ),
        (
            "zh medium".into(),
            Box::new(|p: &Pair| p.lang == Lang::Zh && p.length == 1),
        ),
        (
            "zh long".into(),
            Box::new(|p: &Pair| p.lang == Lang::Zh && p.length == 2),
        ),
    ];
    print!("{:<14}", "k");
    for (name, _) in &groups {
        print!(" | {:^14}", name);
    }
    println!();
    let tables: Vec<Vec<Score>> = groups.iter().map(|(_, f)| scores(data, d, f)).collect();
    for k in ks {
        print!("{k:<14}");
        for t in &tables {
            let s = t[k];
            print!(" | {:.2} {:.2} {:.2}", s.precision(), s.recall(), s.f1());
        }
        println!();
    }
    print!("{:<14}", "best k: F1");
    for t in &tables {
        let (k, f) = best(t);
        print!(" | {:>5}: {:.3}  ", k, f);
    }
    println!();
}

fn main() {
    let root = std::env::args().nth(1).unwrap_or_else(|| {
        let home = std::env::var("HOME").unwrap_or_default();
        format!("{home}/.cache/simprint/corpus")
    });
    let data = build(Path::new(&root));
    let count = |f: &dyn Fn(&Pair) -> bool| data.pairs.iter().filter(|p| f(p)).count();
    println!(
        "{} texts; {} pairs: {} duplicates, {} non-duplicates (English {}, Chinese {})",
        data.texts.len(),
        data.pairs.len(),
        count(&|p| p.kind.duplicate()),
        count(&|p| !p.kind.duplicate()),
        count(&|p| p.lang == Lang::En),
        count(&|p| p.lang == Lang::Zh),
    );

    let tokenizers = [
        (
            "auto w1 c2",
            Tokenizer::Auto {
                word_n: 1,
                char_n: 2,
            },
        ),
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
        ("tf", Weighting::TermFrequency, false),
        ("logtf", Weighting::LogTermFrequency, false),
        ("binary", Weighting::Binary, false),
        ("tf-idf", Weighting::TermFrequency, true),
        ("logtf-idf", Weighting::LogTermFrequency, true),
    ];
    let ks = [3u32, 4, 5, 6, 8];
    println!("\n## Every pipeline, 64-bit, width folding: F1 at k (English / Chinese / both), and the best k for both");
    print!("{:<24}", "pipeline");
    for k in ks {
        print!(" | {:^17}", format!("k = {k}"));
    }
    println!(" | best k: F1 both");
    let mut results: Vec<(f64, String)> = Vec::new();
    for (tname, tokenizer) in tokenizers {
        for (wname, weighting, idf) in weightings {
            let options = Options {
                tokenizer,
                weighting,
                ..Options::default()
            };
            let d = distances(&data, &fingerprinter(options, idf, &data));
            let en = scores(&data, &d, |p| p.lang == Lang::En);
            let zh = scores(&data, &d, |p| p.lang == Lang::Zh);
            let both = scores(&data, &d, |_| true);
            let name = format!("{tname} {wname}");
            print!("{name:<24}");
            for k in ks {
                let k = k as usize;
                print!(" | {:.2} {:.2} {:.2}", en[k].f1(), zh[k].f1(), both[k].f1());
            }
            let (bk, bf) = best(&both);
            println!(" | {bk:>2}: {bf:.3}");
            results.push((bf, name));
        }
    }
    results.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!("\nbest five by F1 (both languages, each at its best k):");
    for (f, name) in results.iter().take(5) {
        println!("  {f:.3}  {name}");
    }

    // The chosen default in detail.
    let default = Options::default();
    let d = distances(&data, &Fingerprinter::new(default).unwrap());
    println!(
        "\n## Default pipeline ({:?}), 64-bit: distance per kind (median / 90th percentile)",
        default.tokenizer
    );
    let mut kinds: Vec<Kind> = data.pairs.iter().map(|p| p.kind).collect();
    kinds.sort();
    kinds.dedup();
    print!("{:<14}", "kind");
    for lang in ["en", "zh"] {
        for (name, _) in LENGTHS {
            print!(" | {:>11}", format!("{lang} {name}"));
        }
    }
    println!();
    for kind in kinds {
        print!("{:<14}", kind.label());
        for lang in [Lang::En, Lang::Zh] {
            for length in 0..LENGTHS.len() {
                let xs: Vec<u32> = data
                    .pairs
                    .iter()
                    .zip(&d)
                    .filter(|(p, _)| p.kind == kind && p.lang == lang && p.length == length)
                    .map(|(_, &x)| x)
                    .collect();
                print!(
                    " | {:>5} {:>5}",
                    percentile(xs.clone(), 0.5),
                    percentile(xs, 0.9)
                );
            }
        }
        println!();
    }

    println!("\n## Default pipeline, 64-bit: precision / recall / F1 at each k");
    detail(&data, &d, 0..=16);
    for (name, tokenizer, weighting) in [
        (
            "auto w1 c1 binary",
            Tokenizer::Auto {
                word_n: 1,
                char_n: 1,
            },
            Weighting::Binary,
        ),
        (
            "auto w1 c1 logtf",
            Tokenizer::Auto {
                word_n: 1,
                char_n: 1,
            },
            Weighting::LogTermFrequency,
        ),
        (
            "auto w1 c2 binary",
            Tokenizer::Auto {
                word_n: 1,
                char_n: 2,
            },
            Weighting::Binary,
        ),
        (
            "auto w1 c2 tf",
            Tokenizer::Auto {
                word_n: 1,
                char_n: 2,
            },
            Weighting::TermFrequency,
        ),
    ] {
        println!("\n## {name}, 64-bit: precision / recall / F1 at k = 4 to 12");
        let options = Options {
            tokenizer,
            weighting,
            ..Options::default()
        };
        detail(
            &data,
            &distances(&data, &Fingerprinter::new(options).unwrap()),
            4..=12,
        );
    }

    println!(
        "\n## Width folding: full-width copies (ASCII letters and digits turned full-width) as duplicates"
    );
    for normalization in [Normalization::Width, Normalization::None] {
        let fp = Fingerprinter::new(Options {
            normalization,
            ..default
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

    println!("\n## 64-bit against 128-bit (default pipeline): F1 both at k and at 2k");
    let wide = distances(
        &data,
        &Fingerprinter::new(Options {
            width: 128,
            ..default
        })
        .unwrap(),
    );
    let s64 = scores(&data, &d, |_| true);
    let s128 = scores(&data, &wide, |_| true);
    for k in [2usize, 3, 4, 5, 6, 8] {
        println!(
            "  64-bit k = {k:>2}: {:.3}    128-bit k = {:>2}: {:.3}",
            s64[k].f1(),
            2 * k,
            s128[2 * k].f1()
        );
    }
    println!(
        "  best: 64-bit k = {} F1 {:.3}; 128-bit k = {} F1 {:.3}",
        best(&s64).0,
        best(&s64).1,
        best(&s128).0,
        best(&s128).1
    );

    // The same seed gives the same data on every run; this line makes that checkable.
    println!(
        "\n(data set: {} texts, {} bytes)",
        data.texts.len(),
        data.texts.iter().map(String::len).sum::<usize>()
    );
}
