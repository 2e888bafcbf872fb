#!/usr/bin/env bash
# Fuzzes simprint with cargo-fuzz (libFuzzer), each target for a bounded time, one after the
# other:
#   pipeline     arbitrary text and options: no panic; explain, features, widths, IDF agree
#   stream       streaming against one shot for arbitrary bytes and chunk cuts
#   index_bytes  Index::from_bytes on arbitrary (and checksum-sealed) bytes; round trips
#   index_ops    random operation sequences on the Index against a brute-force model
#
#   bash scripts/fuzz.sh                          # every target, 60 s each
#   FUZZ_SECONDS=240 bash scripts/fuzz.sh stream  # one target, 4 minutes
#
# Each target starts from its hand-made seeds (fuzz/seeds/<target>/, written by
# fuzz/src/seeds.rs) and saved regressions. Inputs that crash (or time out, or run out of
# memory) are copied into fuzz/regressions/<target>/, which
# `cargo test --manifest-path fuzz/Cargo.toml --no-default-features` replays with the seeds on
# stable Rust (the script runs it at the end; so does scripts/test.sh). The growing corpus stays
# in fuzz/corpus/ (ignored by git). Prints the executions per target; exits non-zero if
# anything was found.
#
# cargo-fuzz needs nightly Rust: rustup's nightly if installed, else the stable compiler with
# RUSTC_BOOTSTRAP=1. No sanitizer (the crate forbids unsafe code); debug assertions and
# overflow checks are on, so an arithmetic overflow is a crash too.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

SECONDS_EACH="${FUZZ_SECONDS:-60}"
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(pipeline stream index_bytes index_ops)
CARGO_FUZZ_VERSION=0.13.2

export PATH="$TOOLS/bin:$PATH"
if ! cargo-fuzz --version 2>/dev/null | grep -qF "$CARGO_FUZZ_VERSION"; then
  say "installing cargo-fuzz $CARGO_FUZZ_VERSION into $TOOLS (once, about a minute)"
  cargo install --locked cargo-fuzz --version "$CARGO_FUZZ_VERSION" --root "$TOOLS"
fi

if rustup run nightly rustc --version >/dev/null 2>&1; then
  CARGO=(cargo +nightly)
else
  say "no nightly toolchain: using stable rustc with RUSTC_BOOTSTRAP=1"
  export RUSTC_BOOTSTRAP=1
  CARGO=(cargo)
fi
FUZZ_FLAGS=(--release --debug-assertions --sanitizer none)

say "building the fuzz targets"
"${CARGO[@]}" fuzz build "${FUZZ_FLAGS[@]}"

found=0
summary=()
for target in "${TARGETS[@]}"; do
  corpus="fuzz/corpus/$target"
  saved="fuzz/regressions/$target"
  artifacts="fuzz/artifacts/$target"
  mkdir -p "$corpus" "$saved" "$artifacts"
  log="fuzz/artifacts/$target.log"
  say "fuzzing $target for ${SECONDS_EACH}s"
  # The saved regressions and the seeds start the corpus (read-only directories after the
  # first). -timeout flags an input that takes over 20 s, -rss_limit_mb one that needs over 2 GB.
  set +e
  "${CARGO[@]}" fuzz run "${FUZZ_FLAGS[@]}" "$target" "$corpus" "$saved" "fuzz/seeds/$target" -- \
    -max_total_time="$SECONDS_EACH" -timeout=20 -rss_limit_mb=2048 -max_len=8192 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" >"$log" 2>&1
  status=$?
  set -e
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1 || true)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || true)
  new=0
  for f in "$artifacts"/crash-* "$artifacts"/timeout-* "$artifacts"/oom-* "$artifacts"/slow-unit-*; do
    [ -e "$f" ] || continue
    base=$(basename "$f")
    if [ ! -e "$saved/$base" ]; then
      cp "$f" "$saved/$base"
      new=$((new + 1))
    fi
  done
  line="$target: ${execs:-?} executions in ${SECONDS_EACH}s, coverage ${cov:-?}, exit $status"
  if [ "$status" -ne 0 ] || [ "$new" -gt 0 ]; then
    found=1
    line="$line, $new new input(s) saved in $saved (log: $log)"
    grep -m1 -A12 -E 'panicked|ERROR: libFuzzer' "$log" >&2 || tail -20 "$log" >&2
  fi
  summary+=("$line")
done

say "replaying fuzz/seeds/ and fuzz/regressions/ (stable, no libFuzzer)"
cargo test --quiet --manifest-path fuzz/Cargo.toml --no-default-features --test replay || found=1

say "summary"
printf '%s\n' "${summary[@]}"
exit "$found"
