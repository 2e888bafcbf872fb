//! Source files that their own tests generate (tables derived from the standard library): a
//! generator renders the part above the file's test module, and the test module stays as it
//! is written.

extern crate std;

use alloc::string::String;

/// What a generated file should hold: `head`, then the test module of `file` (its text as
/// compiled, `include_str!` of itself).
pub(crate) fn expected(head: String, file: &str) -> String {
    let tests = file
        .find("\n#[cfg(test)]\nmod tests {")
        .unwrap_or(file.len());
    head + &file[tests..]
}

/// Writes `contents` to `path` (from the crate's folder) when the environment has `variable`
/// (how a table is generated anew); true when it did.
pub(crate) fn write_if_asked(variable: &str, path: &str, contents: &str) -> bool {
    if std::env::var_os(variable).is_none() {
        return false;
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::write(&path, contents).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    true
}
