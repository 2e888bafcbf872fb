//! The real-text corpus the benches read (fetched by `python3 scripts/corpus.py`).

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
