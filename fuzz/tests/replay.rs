//! Replays every input under `seeds/<target>/` (the hand-made corpus, fuzz/src/seeds.rs) and
//! `regressions/<target>/` (crashes found by scripts/fuzz.sh and hand-made inputs of past bugs)
//! through the target's checks, on stable Rust. Every one of those folders must hold inputs: a
//! replay of none (a folder moved, emptied or misnamed) fails instead of passing.

use std::fs;
use std::path::Path;

fn replay(target: &str, check: fn(&[u8])) {
    for folder in ["seeds", "regressions"] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(folder)
            .join(target);
        let mut n = 0;
        for entry in fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("directory entry").path();
            if path.is_file() && path.file_name().is_some_and(|n| n != ".gitkeep") {
                let data = fs::read(&path).expect("readable input");
                eprintln!("{target}: {}", path.display());
                check(&data);
                n += 1;
            }
        }
        eprintln!("{target}: {n} inputs replayed from {}", dir.display());
        assert!(n > 0, "{}: no inputs to replay", dir.display());
    }
}

#[test]
fn pipeline() {
    replay("pipeline", simprint_fuzz::pipeline::check);
}

#[test]
fn stream() {
    replay("stream", simprint_fuzz::stream::check);
}

#[test]
fn index_bytes() {
    replay("index_bytes", simprint_fuzz::index_bytes::check);
}

#[test]
fn index_ops() {
    replay("index_ops", simprint_fuzz::index_ops::check);
}
