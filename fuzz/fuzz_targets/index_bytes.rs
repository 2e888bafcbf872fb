#![no_main]
// The checks are in src/index_bytes.rs, shared with the replay test (tests/replay.rs).
libfuzzer_sys::fuzz_target!(|data: &[u8]| simprint_fuzz::index_bytes::check(data));
