#!/usr/bin/env bash
# Runs every test: the JavaScript linter, formatting, clippy and rustdoc with warnings as
# errors over every crate, native cargo tests
# (unit, integration, doc, README), the fuzz seeds and regressions replayed, the no_std build,
# wasm-bindgen tests under Node, node --test against pkg/ (the CLI among them), the headless
# Chromium test, the Worker in workerd, and the SQL self-join in DuckDB and in Spark (pyspark,
# local mode).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
setup_all
ensure_chromium
ensure_spark
cd "$ROOT"

say "the JavaScript: lint and format (Biome, pinned in package.json; rules in biome.json)"
npx --no-install biome ci

say "cargo fmt, clippy (the curated lints on library code, the default ones on all), cargo doc"
cargo fmt --all --check
cargo fmt --manifest-path fuzz/Cargo.toml --all --check
cargo fmt --manifest-path bench/peers/Cargo.toml --all --check
cargo clippy --quiet --workspace --lib -- -D warnings
cargo clippy --quiet -p simprint-wasm --lib --target wasm32-unknown-unknown -- -D warnings
# The bindings as simprint/fingerprint builds them: without the index.
cargo clippy --quiet -p simprint-wasm --lib --target wasm32-unknown-unknown --no-default-features --features runtime -- -D warnings
# Tests, benchmarks and the fuzz crate may cast and drop results freely; the rest of clippy
# holds for them.
ALLOW_IN_TESTS=(-A clippy::cast_lossless -A clippy::cast_possible_truncation
  -A clippy::cast_possible_wrap -A clippy::cast_sign_loss -A clippy::must_use_candidate
  -A clippy::missing_errors_doc -A clippy::missing_panics_doc -A clippy::disallowed_methods)
cargo clippy --quiet --workspace --all-targets -- -D warnings "${ALLOW_IN_TESTS[@]}"
# The core as aarch64 compiles it (no x86 kernels: the portable ones); its tests run there
# under emulation by hand (DEVELOPING.md, "Other targets").
cargo clippy --quiet -p simprint --lib --features parallel --target aarch64-unknown-linux-gnu -- -D warnings
# The parallel feature (std::thread; off by default) with its tests and benchmark.
cargo clippy --quiet -p simprint --all-targets --features parallel -- -D warnings "${ALLOW_IN_TESTS[@]}"
# The fuzz crate with its targets (--features targets: checked without libFuzzer's C++ build).
cargo clippy --quiet --manifest-path fuzz/Cargo.toml --no-default-features --features targets \
  --all-targets -- -D warnings "${ALLOW_IN_TESTS[@]}"
# The peer benchmarks, a crate of their own (outside the workspace so the peers never enter
# simprint's dependency tree).
cargo clippy --quiet --manifest-path bench/peers/Cargo.toml --all-targets -- -D warnings \
  "${ALLOW_IN_TESTS[@]}"
RUSTDOCFLAGS="-D warnings" cargo doc --quiet --no-deps --workspace
# The crate's front page documents the main items (Structs, Functions), not re-export lines.
front="$ROOT/target/doc/simprint/index.html"
if ! grep -q 'id="structs"' "$front" || ! grep -q 'id="functions"' "$front" || grep -q 'id="reexports"' "$front"; then
  echo "cargo doc's front page lists re-exports instead of the main items (see src/lib.rs)" >&2
  exit 1
fi

say "cargo test (native)"
cargo test --quiet

say "the parallel feature against the serial path and brute force (tests/parallel.rs, its doctests)"
# Two commands, not `a && b`: under `set -e` a failure before `&&` would not stop the script.
cargo test --quiet --features parallel --test parallel
cargo test --quiet --features parallel --doc -- _parallel

say "the fuzz targets' checks on their seeds and saved regressions (stable, no libFuzzer)"
cargo test --quiet --manifest-path fuzz/Cargo.toml --no-default-features

say "the core builds for wasm32 as no_std, and depends on nothing of wasm-bindgen's"
cargo build --quiet -p simprint --lib --target wasm32-unknown-unknown
if cargo tree -p simprint -e normal,build --target all --prefix none | grep -q '^wasm-bindgen'; then
  echo "the core crate depends on wasm-bindgen" >&2
  exit 1
fi

build_pkg
pack_pkg
say "installing the Worker examples' dependencies (the packed packages in vendor/, the pinned wrangler)"
for example in worker worker-scale; do
  # npm keeps an installed package of the same version: the rebuilt ones must replace it.
  rm -rf "$ROOT/examples/$example/node_modules/simprint" "$ROOT/examples/$example/node_modules/simprint-worker-common"
  (cd "$ROOT/examples/$example" && npm install --no-audit --no-fund --no-package-lock --prefer-offline --loglevel=error)
done
say "installing the SQL example's dependencies (the packed package, its pinned @duckdb/node-api)"
rm -rf "$ROOT/examples/sql/node_modules/simprint"
(cd "$ROOT/examples/sql" && npm install --no-audit --no-fund --no-package-lock --prefer-offline --loglevel=error)

say "wasm-bindgen tests under Node: the core's kernels inside wasm"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test -p simprint-wasm --no-default-features --target wasm32-unknown-unknown --test core

say "JavaScript tests (node --test) and the headless Chromium test"
node --test --test-concurrency=1 tests/js/
