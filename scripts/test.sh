#!/usr/bin/env bash
# Runs every test: native cargo tests (unit, integration, doc, README), the no_std build,
# wasm-bindgen tests under Node, node --test against pkg/ and the headless Chromium test.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
setup_all
ensure_chromium
cd "$ROOT"

say "cargo test (native)"
cargo test --quiet

say "no_std core builds without the std feature"
cargo build --quiet --lib --no-default-features --target wasm32-unknown-unknown

build_pkg

say "wasm-bindgen tests under Node"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test --target wasm32-unknown-unknown --test wasm

say "JavaScript tests (node --test) and the headless Chromium test"
node --test --test-concurrency=1 tests/js/
