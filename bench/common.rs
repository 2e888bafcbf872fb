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
