//! What the measurement programs share: the real-text corpus they read (fetched by
//! `python3 scripts/corpus.py`) and the statistics they report. Included by path
//! (`#[path]`), also by the peers' crate in bench/peers/.
#![allow(dead_code)]

use std::path::PathBuf;

pub fn home() -> PathBuf {
    PathBuf::from(std::env::var_os("HOME").unwrap_or_default())
}

/// `$SIMPRINT_CORPUS`, else ~/.cache/simprint/corpus.
pub fn corpus_dir() -> PathBuf {
    std::env::var_os("SIMPRINT_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| home().join(".cache/simprint/corpus"))
}

/// `(name, text)` of en.txt and zh.txt, or a message saying how to get them.
pub fn load_corpus() -> Result<Vec<(&'static str, String)>, String> {
    let dir = corpus_dir();
    let mut texts = Vec::new();
    for name in ["en.txt", "zh.txt"] {
        let path = dir.join(name);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            format!(
                "cannot read {}: {e}\n\
                 Fetch the corpus first with `python3 scripts/corpus.py` \
                 (or point SIMPRINT_CORPUS at a folder holding en.txt and zh.txt).",
                path.display()
            )
        })?;
        texts.push((name, text));
    }
    Ok(texts)
}

/// The mixed-text samples: Debian documentation the library was not tuned on, each at most
/// [`SAMPLE_BYTES`], cut from `scripts/corpus.py`'s folders (`<corpus>/<lang>`) in this order.
/// `docs-zh` and `docs-ja` are Chinese and Japanese technical writing with commands, options,
/// paths and code blocks in every few words; `docs-en` is English built the same way, their
/// yardstick; `man-en` is English man pages alone. The Chinese fast paths were tuned on
/// `docs-zh`; `help-*` (LibreOffice's help with its Basic and formula examples) and `guide-*`
/// (the Debian installation guide, then GNOME's help, whose untranslated steps stay English)
/// come from other projects and translators, with other ASCII shares, and are held out
/// (issue 30).
pub const SAMPLES: &[(&str, &[&str])] = &[
    ("docs-en", &["reference-code/en", "faq-code/en", "man/en"]),
    ("man-en", &["man/en"]),
    ("docs-zh", &["reference-code/zh", "faq-code/zh", "man/zh"]),
    ("docs-ja", &["reference-code/ja", "faq-code/ja", "man/ja"]),
    ("help-zh", &["help-code/zh"]),
    ("guide-zh", &["install/zh", "gnome/zh"]),
    ("help-ja", &["help-code/ja"]),
    ("guide-ja", &["install/ja", "gnome/ja"]),
];

/// The size of each sample, in bytes of UTF-8.
pub const SAMPLE_BYTES: usize = 1_000_000;

/// The sample `name` of [`SAMPLES`]: the `.txt` files of its folders, each folder's in name
/// order, joined by a blank line; the file that would pass [`SAMPLE_BYTES`] is cut at its last
/// paragraph break before it, and the sample ends there. `bench/samples.mjs` builds the same
/// bytes for the JavaScript programs.
pub fn load_sample(name: &str) -> Result<String, String> {
    let dir = corpus_dir();
    let (_, folders) = SAMPLES
        .iter()
        .chain(APP_SAMPLES)
        .find(|(n, _)| *n == name)
        .ok_or_else(|| format!("no sample called {name}"))?;
    let mut files = Vec::new();
    for folder in *folders {
        let path = dir.join(folder);
        let mut own: Vec<PathBuf> = std::fs::read_dir(&path)
            .map_err(|e| {
                format!(
                    "cannot read {}: {e}\nFetch the corpus first with `python3 scripts/corpus.py`.",
                    path.display()
                )
            })?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "txt"))
            .collect();
        own.sort();
        files.extend(own);
    }
    join_files(&files)
}

/// Held-out samples of applications' own manuals, in Debian but from other projects and
/// translators than [`SAMPLES`] (`scripts/corpus.py`'s `kicad`, `gimp`, `lilypond`, `edu` and
/// `help-tw` folders: electronics design, an image editor's help, a music typesetter's manuals
/// with its input language in every example, a school server's manual, LibreOffice's help in
/// Traditional Chinese), each folder one sample built like [`load_sample`]'s. Added on
/// 2026-11-27 to report Chinese and Japanese speed on text never measured before (issue 30);
/// several are small (GIMP's Chinese help is mostly untranslated: 64 KB are left). Last, the
/// Debian handbook's German and French (its `de` and `fr` folders, 0.62 and 0.23 MB): Latin
/// script with accented letters, added with their fast path (docs/performance.md).
pub const APP_SAMPLES: &[(&str, &[&str])] = &[
    ("kicad-zh", &["kicad/zh"]),
    ("gimp-zh", &["gimp/zh"]),
    ("lilypond-zh", &["lilypond/zh"]),
    ("edu-zh", &["edu/zh"]),
    ("help-tw", &["help-tw/zh"]),
    ("kicad-ja", &["kicad/ja"]),
    ("gimp-ja", &["gimp/ja"]),
    ("lilypond-ja", &["lilypond/ja"]),
    ("edu-ja", &["edu/ja"]),
    ("handbook-de", &["handbook/de"]),
    ("handbook-fr", &["handbook/fr"]),
];

/// The samples of [`APP_SAMPLES`] that can be built here: none from a corpus fetched before
/// they were added (run `python3 scripts/corpus.py` again: it fetches only what is missing).
pub fn load_app_samples() -> Result<Vec<(&'static str, String)>, String> {
    let mut texts = Vec::new();
    for &(name, folders) in APP_SAMPLES {
        if folders.iter().all(|f| corpus_dir().join(f).is_dir()) {
            texts.push((name, load_sample(name)?));
        }
    }
    Ok(texts)
}

/// Held-out samples from another source than Debian's: the Chinese and Japanese
/// documentation of npm and PyPI packages that `python3 scripts/revisions.py` fetches (its
/// `<lang>` folder), the newest version of each package, packages in name order and each
/// version's `.txt` files in path order, joined and cut like [`load_sample`]'s. READMEs with
/// code, written by each package's authors; measured only where that corpus was fetched.
pub const README_SAMPLES: &[(&str, &str)] = &[("readme-zh", "zh"), ("readme-ja", "ja")];

/// `$SIMPRINT_REVISIONS`, else ~/.cache/simprint/revisions (`scripts/revisions.py`'s folder).
pub fn revisions_dir() -> PathBuf {
    std::env::var_os("SIMPRINT_REVISIONS")
        .map(PathBuf::from)
        .unwrap_or_else(|| home().join(".cache/simprint/revisions"))
}

/// Every `.txt` file under `dir`.
fn txt_files_under(dir: &std::path::Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            txt_files_under(&path, out)?;
        } else if path.extension().is_some_and(|x| x == "txt") {
            out.push(path);
        }
    }
    Ok(())
}

/// The sample of [`README_SAMPLES`] for `lang`, or `None` when the revisions corpus is not
/// there.
pub fn load_readme_sample(lang: &str) -> Result<Option<String>, String> {
    let root = revisions_dir().join(lang);
    let Ok(entries) = std::fs::read_dir(&root) else {
        return Ok(None);
    };
    let mut packages: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    packages.sort();
    let mut files = Vec::new();
    for package in packages {
        let Ok(versions) = std::fs::read_to_string(package.join("versions.txt")) else {
            continue;
        };
        let Some(newest) = versions.lines().rfind(|l| !l.is_empty()) else {
            continue;
        };
        let mut own = Vec::new();
        txt_files_under(&package.join(newest), &mut own)
            .map_err(|e| format!("cannot read {}: {e}", package.display()))?;
        // By the paths' bytes (a `Path` sorts by components, which puts `a/b` before `a.b`).
        own.sort_by(|a, b| {
            a.as_os_str()
                .as_encoded_bytes()
                .cmp(b.as_os_str().as_encoded_bytes())
        });
        files.extend(own);
    }
    join_files(&files).map(Some)
}

/// The samples of [`README_SAMPLES`] that can be built here: none without the revisions corpus.
pub fn load_readme_samples() -> Result<Vec<(&'static str, String)>, String> {
    let mut texts = Vec::new();
    for &(name, lang) in README_SAMPLES {
        if let Some(text) = load_readme_sample(lang)? {
            texts.push((name, text));
        }
    }
    Ok(texts)
}

/// `files` joined by a blank line up to [`SAMPLE_BYTES`], the one that would pass it cut at its
/// last paragraph break before it.
fn join_files(files: &[PathBuf]) -> Result<String, String> {
    let mut out = String::new();
    for file in files {
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let sep = if out.is_empty() { "" } else { "\n\n" };
        if out.len() + sep.len() + text.len() <= SAMPLE_BYTES {
            out.push_str(sep);
            out.push_str(&text);
            continue;
        }
        let room = SAMPLE_BYTES.saturating_sub(out.len() + sep.len());
        if let Some(cut) = text[..text.floor_char_boundary(room)].rfind("\n\n") {
            out.push_str(sep);
            out.push_str(&text[..cut]);
        }
        break;
    }
    Ok(out)
}

/// `en.txt` and `zh.txt` (the handbook), then every sample of [`SAMPLES`].
pub fn load_corpus_and_samples() -> Result<Vec<(&'static str, String)>, String> {
    let mut texts = load_corpus()?;
    for (name, _) in SAMPLES {
        texts.push((name, load_sample(name)?));
    }
    Ok(texts)
}

/// The median of `xs` (the mean of the middle two for an even count).
pub fn median(xs: &[f64]) -> f64 {
    let mut s = xs.to_vec();
    s.sort_by(f64::total_cmp);
    let m = s.len() / 2;
    if s.len() % 2 == 1 {
        s[m]
    } else {
        (s[m - 1] + s[m]) / 2.0
    }
}

/// Nearest-rank percentile `p` (0 to 100) of `xs`.
pub fn percentile(xs: &[f64], p: f64) -> f64 {
    let mut s = xs.to_vec();
    s.sort_by(f64::total_cmp);
    let rank = ((p / 100.0 * s.len() as f64).ceil() as usize).clamp(1, s.len());
    s[rank - 1]
}

/// A plain scan with the POPCNT instruction enabled for this function only: the reference
/// a library's scan and index must beat (the default x86-64 target predates POPCNT, so elsewhere `count_ones` is a
/// bit-twiddling sequence).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn count_within_popcnt(q: u64, fps: &[u64], k: u32) -> usize {
    fps.iter().filter(|&&x| (q ^ x).count_ones() <= k).count()
}

/// [`count_within_popcnt`] where the CPU has POPCNT, else `None`.
pub fn popcnt_scan(q: u64, fps: &[u64], k: u32) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU was just checked to have the one feature the function enables.
        return Some(unsafe { count_within_popcnt(q, fps, k) });
    }
    let _ = (q, fps, k);
    None
}

/// A plan in a few words: its kind, key bits and radii.
pub fn describe(plan: &simprint::Plan) -> String {
    let radii = |plan: &simprint::Plan| {
        let r: Vec<String> = plan.tables().iter().map(|t| t.radius.to_string()).collect();
        r.join(",")
    };
    let bits = plan.tables().first().map_or(0, |t| t.key_bits);
    match plan.kind() {
        simprint::PlanKind::Scan => "scan".into(),
        simprint::PlanKind::Permuted { blocks } => {
            format!("perm {blocks}b, {} × {bits}-bit", plan.tables().len())
        }
        simprint::PlanKind::MultiIndex { substrings } => {
            format!("MIH {substrings} × {bits}-bit r {}", radii(plan))
        }
        simprint::PlanKind::Combined { blocks, key_blocks } => format!(
            "comb {blocks}b {} × {key_blocks} r {}",
            plan.tables().len(),
            radii(plan)
        ),
    }
}
