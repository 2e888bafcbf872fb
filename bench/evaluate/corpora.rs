//! The evaluation corpora besides the first (data.rs), each built independently of it: other
//! sources, other edit generators, other length mixes, and one of real revisions.
//!
//! * **B, `gnome`**: GNOME's desktop help (scripts/corpus.py `gnome/`), English, Chinese,
//!   Japanese. Lengths log-uniform from 50 to 6,000 characters. Edits replace and insert
//!   units drawn from **outside** the document (the words or CJK characters of another
//!   source, the Debian man pages, that the document does not hold), delete units, and
//!   **move** runs of 2 to 5 units elsewhere; each edit's units count towards the share.
//!   Near-duplicates: 2, 5, 8 and 10 % of the units edited; not: 20 and 30 %, and three
//!   other pages of similar length.
//! * **C, `guides`**: the Debian installation guide and developer's reference
//!   (`install/`, `devref/`), English, Chinese (the guide only), Japanese. Two lengths:
//!   100–500 and 500–2,500 characters. Edits replace and insert units drawn from the
//!   document's **own** vocabulary, delete units, and delete or bring in (from another
//!   document) whole **phrases** of 4 to 12 units. Near-duplicates: 3, 6 and 10 %;
//!   not: 20 and 25 %, and three other documents.
//! * **D, `revisions`**: real revisions (scripts/revisions.py): the documentation files of
//!   npm and PyPI packages in consecutive versions, each pair of versions of one file that
//!   differ labelled by the measured word-level change (words outside CJK and CJK characters,
//!   `1 − LCS / max(len)` by a Myers diff): at most 10 % changed is a near-duplicate, at
//!   least 20 % is not, the band between is left out (and counted); byte-identical versions
//!   are left out (they say nothing). Different documents (another file, or another package,
//!   of the same language) are not near-duplicates either.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::data::{chunk, files, hash, in_language, sample, shuffle};
use crate::edit::{self, units, Lang, Unit};
use crate::Rng;

/// One labelled pair of a corpus.
pub struct P {
    pub a: usize,
    pub b: usize,
    pub dup: bool,
    pub lang: Lang,
    /// What kind of pair (for the per-kind lines): "edit 5%", "other", "revision".
    pub kind: String,
    /// The first corpus's tuning half (where the rule's free choices are made).
    pub tune: bool,
}

/// A corpus: texts and labelled pairs.
pub struct Set {
    pub name: &'static str,
    pub texts: Vec<String>,
    pub pairs: Vec<P>,
    /// What a near-duplicate means here (for the tables).
    pub meaning: &'static str,
    /// Pairs left out: in the revision band between 10 and 20 % changed.
    pub left_out: usize,
    /// Pairs left out: a version of more than [`MAX_UNITS`] units (the diff would be slow).
    pub too_long: usize,
}

/// Length classes of the cross-corpus tables, by the first text's characters.
pub const CLASSES: [(&str, usize); 3] = [("short", 0), ("medium", 300), ("long", 1000)];

pub fn class(text: &str) -> usize {
    let n = text.chars().count();
    CLASSES.iter().rposition(|&(_, lo)| n >= lo).unwrap_or(0)
}

pub const LANGS: [Lang; 3] = [Lang::En, Lang::Zh, Lang::Ja];

/// Documents of `lo..hi` characters from the files of `dirs` (log-uniform lengths when
/// `log`), at most `n`, in `lang`.
fn documents(
    dirs: &[&Path],
    lang: Lang,
    lengths: &[(usize, usize)],
    log: bool,
    n: usize,
    rng: &mut Rng,
) -> Vec<String> {
    let mut pages: Vec<String> = dirs
        .iter()
        .flat_map(|d| files(d).into_iter().map(|(_, t)| t))
        .collect();
    shuffle(&mut pages, rng);
    let mut out = Vec::new();
    for (i, page) in pages.iter().enumerate() {
        if out.len() >= n {
            break;
        }
        let (lo, hi) = lengths[i % lengths.len()];
        let target = if log {
            let (l, h) = ((lo as f64).ln(), (hi as f64).ln());
            (l + (h - l) * (rng.next() >> 11) as f64 / (1u64 << 53) as f64).exp() as usize
        } else {
            lo + rng.index(hi - lo + 1)
        };
        let paragraphs: Vec<&str> = page
            .split("\n\n")
            .map(str::trim)
            .filter(|p| p.chars().count() >= 20)
            .collect();
        if paragraphs.is_empty() {
            continue;
        }
        for _ in 0..10 {
            let start = rng.index(paragraphs.len());
            if let Some(text) = chunk(&paragraphs, start, target.max(50)) {
                if in_language(&text, lang) {
                    out.push(text);
                    break;
                }
            }
        }
    }
    out
}

fn render(lead: String, us: Vec<Unit>) -> String {
    edit::render(lead, us)
}

fn new_unit(text: String, by_char: bool, before: Option<&Unit>) -> Unit {
    let glue = before.map_or(" ", |b| edit::glue(&b.text, &text, by_char));
    Unit {
        text,
        sep: glue.to_string(),
    }
}

/// Corpus B's edits: `rate` of the units, each edit a replacement or insertion from
/// `outside`, a deletion (3 in 10 each), or a move of a run of 2 to 5 units (1 in 10; its
/// units count), until that many units changed.
fn edit_outside(text: &str, rate: f64, by_char: bool, outside: &[String], rng: &mut Rng) -> String {
    let (lead, mut us) = units(text, by_char);
    let n = us.len();
    let mut budget = (rate * n as f64).round() as usize;
    while budget > 0 && !us.is_empty() {
        let at = rng.index(us.len());
        match rng.index(10) {
            0..=2 => {
                us[at].text = outside[rng.index(outside.len())].clone();
                budget -= 1;
            }
            3..=5 => {
                let u = new_unit(
                    outside[rng.index(outside.len())].clone(),
                    by_char,
                    us.get(at),
                );
                us.insert(at + 1, u);
                budget -= 1;
            }
            6..=8 => {
                us.remove(at);
                budget -= 1;
            }
            _ => {
                let len = (2 + rng.index(4)).min(budget).min(us.len() - at);
                if len < 2 {
                    continue;
                }
                let run: Vec<Unit> = us.drain(at..at + len).collect();
                let to = rng.index(us.len() + 1);
                for (i, u) in run.into_iter().enumerate() {
                    us.insert(to + i, u);
                }
                budget -= len;
            }
        }
    }
    render(lead, us)
}

/// Corpus C's edits: replacements (2 in 5) and insertions (1 in 5) from the document's own
/// units, deletions of a unit (1 in 5), and phrases of 4 to 12 units deleted or brought in
/// from `other` (1 in 5). (A phrase repeated elsewhere in the document was an edit of the
/// first version of this generator: it changes no word the text holds, so no fingerprint of
/// its words can see it, and it was dropped.)
fn edit_inside(text: &str, rate: f64, by_char: bool, other: &str, rng: &mut Rng) -> String {
    let (lead, mut us) = units(text, by_char);
    let (_, theirs) = units(other, by_char);
    let own: Vec<String> = us.iter().map(|u| u.text.clone()).collect();
    let n = us.len();
    let mut budget = (rate * n as f64).round() as usize;
    while budget > 0 && !us.is_empty() {
        let at = rng.index(us.len());
        let len = (4 + rng.index(9)).min(budget);
        match rng.index(5) {
            0 | 1 => {
                us[at].text = own[rng.index(own.len())].clone();
                budget -= 1;
            }
            2 => {
                let u = new_unit(own[rng.index(own.len())].clone(), by_char, us.get(at));
                us.insert(at + 1, u);
                budget -= 1;
            }
            3 => {
                let len = len.min(us.len() - at);
                us.drain(at..at + len);
                budget -= len;
            }
            _ => {
                if theirs.len() < len {
                    continue;
                }
                let from = rng.index(theirs.len() - len + 1);
                let to = rng.index(us.len() + 1);
                for (i, u) in theirs[from..from + len].iter().enumerate() {
                    us.insert(
                        to + i,
                        Unit {
                            text: u.text.clone(),
                            sep: u.sep.clone(),
                        },
                    );
                }
                budget -= len;
            }
        }
    }
    render(lead, us)
}

/// Corpora B and C: documents, their edited copies and other documents.
#[allow(
    clippy::too_many_arguments,
    reason = "one call per corpus, each argument named there"
)]
fn synthetic(
    name: &'static str,
    meaning: &'static str,
    root: &Path,
    sources: &[&str],
    lengths: &[(usize, usize)],
    log: bool,
    near: &[u32],
    far: &[u32],
    inside: bool,
) -> Set {
    let mut set = Set {
        name,
        texts: Vec::new(),
        pairs: Vec::new(),
        meaning,
        left_out: 0,
        too_long: 0,
    };
    for lang in LANGS {
        let dirs: Vec<std::path::PathBuf> = sources
            .iter()
            .map(|s| root.join(s).join(lang.dir()))
            .filter(|d| d.join(".done").exists())
            .collect();
        if dirs.is_empty() {
            continue;
        }
        let dirs: Vec<&Path> = dirs.iter().map(|d| d.as_path()).collect();
        let mut rng = Rng(hash(&[name, lang.dir()]));
        let docs = documents(&dirs, lang, lengths, log, 240, &mut rng);
        // Units from another source (the man pages) for corpus B's edits from outside.
        let outside: Vec<String> = if inside {
            Vec::new()
        } else {
            let man = files(&root.join("man").join(lang.dir()));
            man.iter()
                .take(200)
                .flat_map(|(_, t)| edit::vocabulary(t, lang.by_char()))
                .filter(|u| u.chars().count() < 30)
                .collect()
        };
        let first = set.texts.len();
        set.texts.extend(docs.iter().cloned());
        for (i, doc) in docs.iter().enumerate() {
            let a = first + i;
            let own: BTreeSet<String> = edit::vocabulary(doc, lang.by_char()).into_iter().collect();
            let pool: Vec<String> = outside
                .iter()
                .filter(|u| !own.contains(*u))
                .cloned()
                .collect();
            let mut rng = Rng(hash(&[name, lang.dir(), &i.to_string()]));
            for &pm in near.iter().chain(far) {
                let rate = f64::from(pm) / 1000.0;
                let copy = if inside {
                    let other = &docs[(i + 1 + rng.index(docs.len() - 1)) % docs.len()];
                    edit_inside(doc, rate, lang.by_char(), other, &mut rng)
                } else {
                    edit_outside(doc, rate, lang.by_char(), &pool, &mut rng)
                };
                set.texts.push(copy);
                set.pairs.push(P {
                    a,
                    b: set.texts.len() - 1,
                    dup: near.contains(&pm),
                    lang,
                    kind: format!("edit {}%", pm / 10),
                    tune: false,
                });
            }
            // Other documents of a similar length (within a factor of two).
            let len = doc.chars().count();
            let alike: Vec<usize> = (0..docs.len())
                .filter(|&j| {
                    let l = docs[j].chars().count();
                    j != i && l * 2 >= len && l <= len * 2
                })
                .collect();
            for j in sample(&alike, 3, &mut rng) {
                set.pairs.push(P {
                    a,
                    b: first + j,
                    dup: false,
                    lang,
                    kind: "other".into(),
                    tune: false,
                });
            }
        }
    }
    set
}

pub fn gnome(root: &Path) -> Set {
    synthetic(
        "B gnome",
        "≤ 10 % of units edited from outside the text, with moves",
        root,
        &["gnome"],
        &[(50, 6000)],
        true,
        &[20, 50, 80, 100],
        &[200, 300],
        false,
    )
}

pub fn guides(root: &Path) -> Set {
    synthetic(
        "C guides",
        "≤ 10 % of units edited from the text's own, with phrases",
        root,
        &["install", "devref"],
        &[(100, 500), (500, 2500)],
        false,
        &[30, 60, 100],
        &[200, 250],
        true,
    )
}

/// The units a change is measured in: words outside CJK and CJK characters one by one.
fn measure_units(text: &str) -> Vec<String> {
    units(text, true).1.into_iter().map(|u| u.text).collect()
}

/// `1 − LCS / max(len)` of two unit sequences, by a Myers diff.
pub fn change(a: &[String], b: &[String]) -> f64 {
    let n = a.len().max(b.len());
    if n == 0 {
        return 0.0;
    }
    let ops = similar::capture_diff_slices_deadline(similar::Algorithm::Myers, a, b, None);
    let same: usize = ops
        .iter()
        .map(|op| match op {
            similar::DiffOp::Equal { len, .. } => *len,
            _ => 0,
        })
        .sum();
    1.0 - same as f64 / n as f64
}

/// The corpus/lang lines of the corpus folder's manifest that differ from
/// `scripts/corpus.tsv`, the corpus the figures of docs/ were measured on (Debian's archive
/// updates some packages in point releases, so a later fetch may differ); empty when none.
pub fn corpus_differences(root: &Path) -> Vec<String> {
    let pinned = include_str!("../../scripts/corpus.tsv");
    let have = std::fs::read_to_string(root.join("manifest.tsv")).unwrap_or_default();
    let lines = |text: &str| -> BTreeMap<String, String> {
        text.lines()
            .skip(1)
            .map(|l| {
                let key: Vec<&str> = l.split('\t').take(2).collect();
                (key.join("/"), l.to_string())
            })
            .collect()
    };
    let (want, got) = (lines(pinned), lines(&have));
    let mut keys: Vec<&String> = want.keys().chain(got.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| want.get(*k) != got.get(*k))
        .cloned()
        .collect()
}

/// Whether the revisions folder holds the versions `scripts/revisions.tsv` pins (and as many
/// files): the figures of docs/evaluation.md over D are of that corpus, and a folder fetched
/// otherwise (before the pin, or with `--latest`) gives others. `None` when it does; else
/// the packages that differ.
pub fn revisions_unpinned(root: &Path) -> Option<Vec<String>> {
    let pinned = include_str!("../../scripts/revisions.tsv");
    let mut differ = Vec::new();
    for line in pinned.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [name, _, lang, versions, files] = cols[..] else {
            continue;
        };
        let folder = root.join(lang).join(name.replace('/', "+"));
        let have = std::fs::read_to_string(folder.join("versions.txt")).unwrap_or_default();
        let have: Vec<&str> = have.split_whitespace().collect();
        let count: usize = have
            .iter()
            .map(|v| {
                std::fs::read_dir(folder.join(v)).map_or(0, |d| {
                    d.filter(|e| {
                        e.as_ref()
                            .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "txt"))
                    })
                    .count()
                })
            })
            .sum();
        if have != versions.split_whitespace().collect::<Vec<_>>() || count.to_string() != files {
            differ.push(name.to_string());
        }
    }
    (!differ.is_empty()).then_some(differ)
}

/// Versions longer than this many units are left out (a few manuals of hundreds of KB).
const MAX_UNITS: usize = 20_000;

/// Most pairs of versions taken of one package (the npm CLI's docs would outnumber the rest).
const PER_PACKAGE: usize = 120;

pub fn revisions(root: &Path) -> Set {
    let mut set = Set {
        name: "D revisions",
        texts: Vec::new(),
        pairs: Vec::new(),
        meaning: "≤ 10 % of words (CJK characters) changed between two released versions; ≥ 20 % or another file is not",
        left_out: 0,
        too_long: 0,
    };
    for lang in LANGS {
        let dir = root.join(lang.dir());
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut packages: Vec<std::path::PathBuf> = entries
            .map(|e| e.unwrap().path())
            .filter(|p| p.join("versions.txt").exists())
            .collect();
        packages.sort();
        // Each pair's first text, with the package and file it came from.
        let mut firsts: Vec<(usize, String)> = Vec::new();
        for package in &packages {
            let versions: Vec<String> = std::fs::read_to_string(package.join("versions.txt"))
                .unwrap()
                .split_whitespace()
                .map(String::from)
                .collect();
            // Every file's texts, oldest version first.
            let mut by_file: BTreeMap<String, Vec<String>> = BTreeMap::new();
            for v in &versions {
                for (name, text) in files(&package.join(v)) {
                    by_file.entry(name).or_default().push(text);
                }
            }
            let mut candidates: Vec<(String, String, String)> = Vec::new();
            for (file, texts) in &by_file {
                let mut distinct: Vec<&String> = Vec::new();
                for t in texts {
                    if distinct.last() != Some(&t) {
                        distinct.push(t);
                    }
                }
                // Consecutive distinct versions, and two and four apart (larger changes).
                for step in [1, 2, 4] {
                    for w in 0..distinct.len().saturating_sub(step) {
                        if distinct[w] != distinct[w + step] {
                            candidates.push((
                                file.clone(),
                                distinct[w].clone(),
                                distinct[w + step].clone(),
                            ));
                        }
                    }
                }
            }
            let name = package.file_name().unwrap().to_string_lossy().into_owned();
            let mut rng = Rng(hash(&["revisions", &name]));
            shuffle(&mut candidates, &mut rng);
            candidates.truncate(PER_PACKAGE);
            for (file, old, new) in candidates {
                let (a_units, b_units) = (measure_units(&old), measure_units(&new));
                if a_units.len().max(b_units.len()) > MAX_UNITS {
                    set.too_long += 1;
                    continue;
                }
                let c = change(&a_units, &b_units);
                let dup = if c <= 0.10 {
                    true
                } else if c >= 0.20 {
                    false
                } else {
                    set.left_out += 1;
                    continue;
                };
                set.texts.push(old);
                set.texts.push(new);
                let a = set.texts.len() - 2;
                firsts.push((a, format!("{name}/{file}")));
                set.pairs.push(P {
                    a,
                    b: a + 1,
                    dup,
                    lang,
                    kind: if dup {
                        "revision ≤ 10%"
                    } else {
                        "revision ≥ 20%"
                    }
                    .into(),
                    tune: false,
                });
            }
        }
        // Different documents: two other first versions of a similar length, not the same
        // text, for each pair's first text.
        let mut rng = Rng(hash(&["revisions", lang.dir(), "others"]));
        for (a, file) in &firsts {
            let a = *a;
            let len = set.texts[a].chars().count();
            let alike: Vec<usize> = firsts
                .iter()
                .filter(|(b, other)| {
                    let l = set.texts[*b].chars().count();
                    other != file && l * 2 >= len && l <= len * 2
                })
                .map(|(b, _)| *b)
                .collect();
            for b in sample(&alike, 2, &mut rng) {
                set.pairs.push(P {
                    a,
                    b,
                    dup: false,
                    lang,
                    kind: "other".into(),
                    tune: false,
                });
            }
        }
    }
    set
}
