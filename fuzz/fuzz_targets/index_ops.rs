#![no_main]
// The checks are in src/index_ops.rs, shared with the replay test (tests/replay.rs).
libfuzzer_sys::fuzz_target!(|data: &[u8]| simprint_fuzz::index_ops::check(data));
