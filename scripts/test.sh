#!/usr/bin/env bash
# Runs every test: native cargo tests (unit, integration, doc, README), the no_std build,
# wasm-bindgen tests under Node, node --test against pkg/ and the headless Chromium test.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
setup_all
ensure_chromium
cd "$ROOT"

say "cargo test (native)"
cargo test --quiet

say "the core builds for wasm32 as no_std, and depends on nothing of wasm-bindgen's"
cargo build --quiet -p simprint --lib --target wasm32-unknown-unknown
if cargo tree -p simprint -e normal,build --target all --prefix none | grep -q '^wasm-bindgen'; then
  echo "the core crate depends on wasm-bindgen" >&2
  exit 1
fi

build_pkg

say "wasm-bindgen tests under Node: the core's kernels inside wasm"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test -p simprint-wasm --target wasm32-unknown-unknown --test core

say "JavaScript tests (node --test) and the headless Chromium test"
node --test --test-concurrency=1 tests/js/
