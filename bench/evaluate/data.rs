//! The evaluation's data: documents cut from the corpora `scripts/corpus.py` fetches, their
//! variants (the edit models of `edit.rs`) and the labelled pairs, all from fixed seeds.

use std::path::Path;

use crate::edit::{self, Lang};
use crate::Rng;

/// A language group: documents of one language from sources of different shape.
pub struct Group {
    pub name: &'static str,
    pub lang: Lang,
    /// Corpus folders (`<root>/<source>/<lang>/`).
    pub sources: &'static [&'static str],
}

/// The groups, in the order the tables list them. `+code` groups draw on the corpora that
/// keep code blocks (each document holds one) and on man pages: technical text mixed with
/// commands, options, paths and program output.
pub const GROUPS: &[Group] = &[
    Group {
        name: "en",
        lang: Lang::En,
        sources: &["handbook", "reference", "help", "faq"],
    },
    Group {
        name: "en+code",
        lang: Lang::En,
        sources: &["handbook-code", "reference-code", "man"],
    },
    Group {
        name: "zh",
        lang: Lang::Zh,
        sources: &["handbook", "reference", "help", "faq"],
    },
    Group {
        name: "zh+code",
        lang: Lang::Zh,
        sources: &["handbook-code", "reference-code", "man"],
    },
    Group {
        name: "ja",
        lang: Lang::Ja,
        sources: &["handbook", "reference", "help", "faq"],
    },
    Group {
        name: "ja+code",
        lang: Lang::Ja,
        sources: &["handbook-code", "reference-code", "man"],
    },
    Group {
        name: "ko",
        lang: Lang::Ko,
        sources: &["handbook", "help", "faq"],
    },
    Group {
        name: "de",
        lang: Lang::De,
        sources: &["handbook", "reference", "man", "faq"],
    },
    Group {
        name: "fr",
        lang: Lang::Fr,
        sources: &["handbook", "reference", "man", "faq"],
    },
];

/// Sources held out whole: no document of theirs is tuned on.
pub const HELD_OUT_SOURCES: &[&str] = &["faq"];

/// Length classes: (name, shortest, longest) in characters; each document's target length is
/// drawn uniformly in between. "short" is what edge dedup mostly sees: comments and posts.
pub const LENGTHS: [(&str, usize, usize); 3] = [
    ("short", 50, 300),
    ("medium", 300, 1000),
    ("long", 1000, 4000),
];

/// Base documents per group, source, length class and split (at most: small sources have
/// fewer pages).
pub const DOCS: usize = 30;

/// Paragraphs shorter than this (headings, menu entries) are not cut into documents.
const MIN_PARAGRAPH: usize = 30;

/// Edit rates, per mille of the units: up to 10 % the copy is a near-duplicate, beyond it is
/// not (the line the project draws).
pub const EDIT_RATES: [u32; 6] = [10, 30, 50, 100, 200, 400];
/// Typo rates, per mille of the words.
pub const TYPO_RATES: [u32; 2] = [30, 100];
/// Other documents paired with each base document, per kind of negative.
const NEGATIVES: usize = 5;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
pub enum Kind {
    /// Units substituted, inserted or deleted, per mille.
    Edit(u32),
    /// Typos inside words, per mille of the words.
    Typo(u32),
    /// Whitespace and punctuation changed.
    Format,
    /// A header and/or signature added.
    Boilerplate,
    /// The same, the other way round: the first text has it, the second does not.
    Unboilerplate,
    /// Wrapped in HTML.
    Html,
    /// Paragraphs (or sentences) reordered.
    Reorder,
    /// Another document of the same source, language and length class.
    SameSource,
    /// A document of another source of the same language group and length class.
    OtherSource,
}

impl Kind {
    pub fn duplicate(self) -> bool {
        match self {
            Kind::Edit(pm) => pm <= 100,
            Kind::SameSource | Kind::OtherSource => false,
            _ => true,
        }
    }

    pub fn label(self) -> String {
        match self {
            Kind::Edit(pm) => format!("edit {}%", pm / 10),
            Kind::Typo(pm) => format!("typos {}%", pm / 10),
            Kind::Format => "spaces, punct.".into(),
            Kind::Boilerplate => "boilerplate +".into(),
            Kind::Unboilerplate => "boilerplate -".into(),
            Kind::Html => "HTML wrapper".into(),
            Kind::Reorder => "reorder".into(),
            Kind::SameSource => "same source".into(),
            Kind::OtherSource => "other source".into(),
        }
    }
}

pub struct Pair {
    /// The text whose `recommended_k` decides (the one a query would start from).
    pub a: usize,
    pub b: usize,
    pub kind: Kind,
    pub group: usize,
    pub source: &'static str,
    pub length: usize,
    pub held_out: bool,
}

#[derive(Default)]
pub struct Data {
    pub texts: Vec<String>,
    pub pairs: Vec<Pair>,
    /// The base documents (what document frequencies are computed from).
    pub bases: Vec<usize>,
}

struct Doc {
    text: String,
    source: &'static str,
    length: usize,
    held_out: bool,
}

/// FNV-1a over `parts`: seeds and the split, stable across runs and platforms.
pub fn hash(parts: &[&str]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for p in parts {
        for b in p.bytes().chain([0xff]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// Whether a page is held out: every page of a held-out source; otherwise half the pages,
/// by a hash of the page (not of the section or the file, so a page's sections, and its
/// copies with and without code blocks, all fall on the same side).
fn held_out(source: &str, lang: Lang, file: &str) -> bool {
    if HELD_OUT_SOURCES.contains(&source) {
        return true;
    }
    let corpus = source.trim_end_matches("-code");
    let stem = file.trim_end_matches(".txt");
    // HTML sections are <page>-<nn>; man pages <name>.<section>.
    let page = match stem.rsplit_once('-') {
        Some((page, nn)) if nn.len() == 2 && nn.bytes().all(|b| b.is_ascii_digit()) => page,
        _ => stem,
    };
    hash(&[corpus, lang.dir(), page]) >> 63 == 1
}

pub fn files(dir: &Path) -> Vec<(String, String)> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e} (run python3 scripts/corpus.py)", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(p).unwrap())
        })
        .collect()
}

/// At most `room` characters of `p`, ending at a sentence end, a line end or a space if one
/// is late enough (past half of it).
fn cut(p: &str, room: usize) -> String {
    let chars: Vec<char> = p.chars().take(room).collect();
    let is_end = |i: usize| {
        let c = chars[i];
        matches!(c, '。' | '！' | '？' | '\n')
            || (matches!(c, '.' | '!' | '?') && chars.get(i + 1).is_none_or(|n| n.is_whitespace()))
    };
    let half = chars.len() / 2;
    let end = (half..chars.len())
        .rev()
        .find(|&i| is_end(i))
        .map(|i| i + 1)
        .or_else(|| {
            (half..chars.len())
                .rev()
                .find(|&i| chars[i].is_whitespace())
        })
        .unwrap_or(chars.len());
    chars[..end]
        .iter()
        .collect::<String>()
        .trim_end()
        .to_string()
}

/// A chunk of `page` of `target` characters (give or take a quarter) starting at paragraph
/// `start`: whole paragraphs while they fit, the last one cut (see [`cut`]).
pub fn chunk(paragraphs: &[&str], start: usize, target: usize) -> Option<String> {
    let mut out = String::new();
    let mut n = 0;
    for p in &paragraphs[start..] {
        if n >= target {
            break;
        }
        if !out.is_empty() {
            out.push_str("\n\n");
            n += 2;
        }
        let room = (target + target / 4).saturating_sub(n);
        let len = p.chars().count();
        if len <= room {
            out.push_str(p);
            n += len;
        } else {
            out.push_str(&cut(p, room));
            break;
        }
    }
    let out = out.trim().to_string();
    let n = out.chars().count();
    (n >= target * 3 / 4 && n >= LENGTHS[0].1).then_some(out)
}

/// Whether `text` is in `lang` and not in English it was left in by a translation: at least
/// 10 % of its non-space characters CJK (Chinese, Japanese) or Hangul (Korean); for German
/// and French at most 4 % of its words English function words.
pub fn in_language(text: &str, lang: Lang) -> bool {
    let chars = text.chars().filter(|c| !c.is_whitespace()).count();
    let share = |f: fn(char) -> bool| text.chars().filter(|&c| f(c)).count() * 10 >= chars;
    match lang {
        Lang::En => true,
        Lang::Zh | Lang::Ja => share(edit::is_cjk),
        Lang::Ko => share(edit::is_hangul),
        Lang::De | Lang::Fr => {
            let words: Vec<String> = text
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .map(str::to_lowercase)
                .collect();
            let english = words
                .iter()
                .filter(|w| matches!(w.as_str(), "the" | "and" | "of" | "is" | "to"))
                .count();
            english * 25 <= words.len()
        }
    }
}

/// A document of `lo..hi` characters from `page`, from a random paragraph on, in `lang`
/// (see [`in_language`]); for code corpora one that holds a code block. `None` if a few
/// tries find none.
fn document(
    page: &str,
    lang: Lang,
    (lo, hi): (usize, usize),
    code: bool,
    rng: &mut Rng,
) -> Option<String> {
    let paragraphs: Vec<&str> = page
        .split("\n\n")
        .map(str::trim)
        .filter(|p| p.chars().count() >= MIN_PARAGRAPH)
        .collect();
    if paragraphs.is_empty() {
        return None;
    }
    let target = lo + rng.index(hi - lo + 1);
    for _ in 0..20 {
        let start = rng.index(paragraphs.len());
        if let Some(text) = chunk(&paragraphs, start, target) {
            let has_code = text.split("\n\n").any(|p| p.contains('\n'));
            if (has_code || !code) && in_language(&text, lang) {
                return Some(text);
            }
        }
    }
    None
}

pub fn shuffle<T>(xs: &mut [T], rng: &mut Rng) {
    for i in (1..xs.len()).rev() {
        xs.swap(i, rng.index(i + 1));
    }
}

/// Up to `n` distinct items of `from`, in random order.
pub fn sample(from: &[usize], n: usize, rng: &mut Rng) -> Vec<usize> {
    let mut xs = from.to_vec();
    shuffle(&mut xs, rng);
    xs.truncate(n);
    xs
}

pub fn build(root: &Path) -> Data {
    let mut data = Data::default();
    for (g, group) in GROUPS.iter().enumerate() {
        let lang = group.lang;
        let mut docs: Vec<Doc> = Vec::new();
        for &source in group.sources {
            let files = files(&root.join(source).join(lang.dir()));
            for (length, &(name, lo, hi)) in LENGTHS.iter().enumerate() {
                let mut rng = Rng(hash(&[group.name, source, name]));
                let mut order: Vec<usize> = (0..files.len()).collect();
                shuffle(&mut order, &mut rng);
                let mut taken = [0usize; 2];
                for i in order {
                    let held = held_out(source, lang, &files[i].0);
                    if taken[usize::from(held)] >= DOCS {
                        continue;
                    }
                    let code = source.ends_with("-code");
                    if let Some(text) = document(&files[i].1, lang, (lo, hi), code, &mut rng) {
                        docs.push(Doc {
                            text,
                            source,
                            length,
                            held_out: held,
                        });
                        taken[usize::from(held)] += 1;
                    }
                }
            }
        }
        let vocab: Vec<String> = docs
            .iter()
            .flat_map(|d| edit::vocabulary(&d.text, lang.by_char()))
            .collect();
        let first = data.texts.len();
        data.texts.extend(docs.iter().map(|d| d.text.clone()));
        for (i, doc) in docs.iter().enumerate() {
            let a = first + i;
            data.bases.push(a);
            let mut rng = Rng(hash(&[group.name, &i.to_string()]));
            let pair = |a: usize, b: usize, kind: Kind| Pair {
                a,
                b,
                kind,
                group: g,
                source: doc.source,
                length: doc.length,
                held_out: doc.held_out,
            };
            let variant = |data: &mut Data, text: String, kind: Kind| {
                data.texts.push(text);
                let b = data.texts.len() - 1;
                // The copy that lost its boilerplate is the second text of its pair.
                data.pairs.push(if kind == Kind::Unboilerplate {
                    pair(b, a, kind)
                } else {
                    pair(a, b, kind)
                });
            };
            let text = &doc.text;
            for pm in EDIT_RATES {
                let rate = f64::from(pm) / 1000.0;
                let edited = edit::edit(text, rate, lang.by_char(), &vocab, &mut rng);
                variant(&mut data, edited, Kind::Edit(pm));
            }
            for pm in TYPO_RATES {
                let typos = edit::typos(text, f64::from(pm) / 1000.0, &mut rng);
                variant(&mut data, typos, Kind::Typo(pm));
            }
            let formatted = edit::format(text, lang.by_char(), &mut rng);
            variant(&mut data, formatted, Kind::Format);
            let with = edit::boilerplate(text, lang, &mut rng);
            variant(&mut data, with, Kind::Boilerplate);
            let with = edit::boilerplate(text, lang, &mut rng);
            variant(&mut data, with, Kind::Unboilerplate);
            let html = edit::html(text, &mut rng);
            variant(&mut data, html, Kind::Html);
            if let Some(reordered) = edit::reorder(text, &mut rng) {
                variant(&mut data, reordered, Kind::Reorder);
            }
            let alike = |j: usize, same: bool| {
                let d = &docs[j];
                j != i
                    && d.length == doc.length
                    && d.held_out == doc.held_out
                    && (d.source == doc.source) == same
            };
            for same in [true, false] {
                let candidates: Vec<usize> = (0..docs.len()).filter(|&j| alike(j, same)).collect();
                let kind = if same {
                    Kind::SameSource
                } else {
                    Kind::OtherSource
                };
                for j in sample(&candidates, NEGATIVES, &mut rng) {
                    data.pairs.push(pair(a, first + j, kind));
                }
            }
        }
    }
    data
}
