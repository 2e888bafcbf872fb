//! The files under seeds/ are exactly what `simprint_fuzz::seeds::all()` writes (each seed
//! decoded back to the value it was written from), and the hand-made regression inputs under
//! regressions/ too. `SIMPRINT_BLESS=1` writes them, after a change to how a target decodes
//! its input; read `git diff --stat fuzz/` after.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use simprint_fuzz::seeds::{all, Folder};

#[test]
fn seed_files_are_what_the_seeds_module_writes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bless = std::env::var_os("SIMPRINT_BLESS").is_some();
    let inputs = all();
    let mut stale = Vec::new();
    for input in &inputs {
        let path = root
            .join(input.folder.name())
            .join(input.target)
            .join(input.name);
        assert!(
            input.bytes.len() <= 8192,
            "{}: {} bytes, more than scripts/fuzz.sh's -max_len",
            path.display(),
            input.bytes.len()
        );
        if bless {
            fs::create_dir_all(path.parent().expect("a folder")).expect("create the folder");
            fs::write(&path, &input.bytes).expect("write the input");
        } else if fs::read(&path).ok().as_deref() != Some(&input.bytes[..]) {
            stale.push(path.display().to_string());
        }
    }
    // seeds/ holds nothing else (regressions/ also holds what the fuzzer saved).
    for target in ["pipeline", "stream", "index_bytes", "index_ops"] {
        let made: BTreeSet<&str> = inputs
            .iter()
            .filter(|i| i.folder == Folder::Seeds && i.target == target)
            .map(|i| i.name)
            .collect();
        let dir = root.join("seeds").join(target);
        for entry in fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("directory entry").path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if !made.contains(name) {
                if bless {
                    fs::remove_file(&path).expect("remove a stale seed");
                } else {
                    stale.push(format!("{} (made by nothing)", path.display()));
                }
            }
        }
    }
    assert!(
        stale.is_empty(),
        "not what fuzz/src/seeds.rs writes (rewrite with SIMPRINT_BLESS=1 cargo test \
         --manifest-path fuzz/Cargo.toml --no-default-features --test seeds): {stale:#?}"
    );
}
