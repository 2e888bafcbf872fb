#![no_main]
// The checks are in src/pipeline.rs, shared with the replay test (tests/replay.rs).
libfuzzer_sys::fuzz_target!(|data: &[u8]| simprint_fuzz::pipeline::check(data));
