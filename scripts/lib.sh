# Shared by scripts/serve.sh and scripts/test.sh: installs what is missing, caches it, builds pkg/.
# Everything comes from the registries (rustup, crates.io, npm, Debian); nothing downloads
# binaries from elsewhere.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# cargo-installed tools live outside the checkout so fresh clones reuse them.
TOOLS="${SIMPRINT_TOOLS:-$HOME/.cache/simprint/tools}"
WASM_PACK_VERSION=0.15.1
WASM_BINDGEN_VERSION=0.2.130 # must equal the wasm-bindgen version in Cargo.lock

say() { printf '\n==> %s\n' "$*" >&2; }

ensure_rust_tools() {
  # rustup's default profile has them; a minimal one does not.
  for component in clippy rustfmt; do
    if ! rustup component list --installed | grep -q "^$component"; then
      say "adding rustup component $component"
      rustup component add "$component"
    fi
  done
  # aarch64 (Apple silicon, Graviton) runs the portable kernels: the test command lints the
  # core for it, so code behind `cfg(target_arch)` compiles where no x86 path exists.
  for target in wasm32-unknown-unknown aarch64-unknown-linux-gnu; do
    if ! rustup target list --installed | grep -qx "$target"; then
      say "adding rustup target $target"
      rustup target add "$target"
    fi
  done
  if ! "$TOOLS/bin/wasm-pack" --version 2>/dev/null | grep -qF "$WASM_PACK_VERSION"; then
    say "installing wasm-pack $WASM_PACK_VERSION into $TOOLS (once, about 2 minutes)"
    cargo install --locked wasm-pack --version "$WASM_PACK_VERSION" --root "$TOOLS"
  fi
  if ! "$TOOLS/bin/wasm-bindgen" --version 2>/dev/null | grep -qF "$WASM_BINDGEN_VERSION"; then
    say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION into $TOOLS (once, about 3 minutes)"
    # Not --locked: its lockfile pins a webpki-roots version the registry no longer has.
    cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --root "$TOOLS"
  fi
}

ensure_npm_deps() {
  # npm ci installs exactly package-lock.json; skip it when node_modules already matches.
  if ! cmp -s "$ROOT/package-lock.json" "$ROOT/node_modules/.simprint-lock" 2>/dev/null; then
    say "installing npm dev dependencies (exact versions from package-lock.json)"
    (cd "$ROOT" && npm ci --no-audit --no-fund --loglevel=error)
    cp "$ROOT/package-lock.json" "$ROOT/node_modules/.simprint-lock"
  fi
}

ensure_chromium() {
  # A CJK font too, so screenshots of Chinese text show characters rather than boxes.
  local missing=()
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  [ -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || missing+=(fonts-wqy-microhei)
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing Debian packages: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

setup_path() {
  # npm's binaryen wasm-opt must come first: Debian's (108) breaks wasm-bindgen 0.2.130 output,
  # and with none on PATH wasm-pack would try to download one.
  export PATH="$ROOT/node_modules/.bin:$TOOLS/bin:$PATH"
}

build_pkg() {
  say "building pkg/ (wasm-pack --target web, release, wasm-opt -O3)"
  # LLVM's inliner at threshold 75 instead of -O3's 250, for the .wasm only: 34 KB smaller
  # (10.4 KB gzipped) for about 2-3 % on index builds and queries, fingerprinting unchanged
  # (docs/performance.md, "Size"). RUSTFLAGS replaces the rustflags of .cargo/config.toml,
  # so +simd128 is repeated here; native builds and the wasm tests keep LLVM's default.
  local rustflags="-C target-feature=+simd128 -C llvm-args=-inline-threshold=75"
  # Panic locations in dependencies name their files under cargo's home: cut that prefix, so
  # the .wasm holds no path of the machine that built it and builds the same bytes elsewhere.
  # The folder need not exist yet (a fresh machine fetches the crates in this very build).
  # RUSTFLAGS splits at spaces: a cargo home with one keeps its paths.
  local sources="${CARGO_HOME:-$HOME/.cargo}/registry/src/"
  if [[ "$sources" != *" "* ]]; then
    rustflags+=" --remap-path-prefix=$sources="
  fi
  (cd "$ROOT/bindings/wasm" &&
    RUSTFLAGS="$rustflags" wasm-pack --quiet build --target web --release \
      --out-dir "$ROOT/pkg" --out-name simprint)
  # `simprint/fingerprint`: the same without `Index` and `Plan` (the bindings' `index` feature),
  # for pages that only fingerprint (docs/api.md, "Loading the package").
  rm -rf "$ROOT/pkg/fingerprint"
  (cd "$ROOT/bindings/wasm" &&
    RUSTFLAGS="$rustflags" wasm-pack --quiet build --target web --release \
      --out-dir "$ROOT/pkg/fingerprint" --out-name simprint -- --no-default-features --features runtime)
  # The npm package around wasm-pack's output: entries per environment, exports map, types.
  node "$ROOT/bindings/wasm/js/package.mjs" "$ROOT/pkg" "$ROOT/node_modules/.bin/esbuild"
  local wasm
  for wasm in "$ROOT/pkg/simprint_bg.wasm" "$ROOT/pkg/fingerprint/simprint_bg.wasm"; do
    say "${wasm#"$ROOT/"}: $(stat -c %s "$wasm") bytes, $(gzip -9 -c "$wasm" | wc -c) gzipped"
  done
}

# `npm pack` of pkg/ and of examples/worker-common/ into target/npm/: the tarballs the package
# tests install as users would. Each example gets what it depends on in its vendor/ folder,
# which its package.json installs from, so a copy of the folder installs on its own.
pack_pkg() {
  mkdir -p "$ROOT/target/npm"
  (cd "$ROOT/pkg" && npm pack --silent --pack-destination "$ROOT/target/npm" >/dev/null)
  (cd "$ROOT/examples/worker-common" && npm pack --silent --pack-destination "$ROOT/target/npm" >/dev/null)
  local example
  for example in worker worker-scale sql; do
    mkdir -p "$ROOT/examples/$example/vendor"
    cp "$ROOT/target/npm/simprint-0.1.0.tgz" "$ROOT/examples/$example/vendor/"
  done
  for example in worker worker-scale; do
    cp "$ROOT/target/npm/simprint-worker-common-0.1.0.tgz" "$ROOT/examples/$example/vendor/"
  done
}

setup_all() {
  ensure_rust_tools
  ensure_npm_deps
  setup_path
}

# pyspark in local mode for the Spark test (tests/js/spark.test.mjs): a venv cached outside the
# checkout (PyPI's pyspark wheel carries Spark's jars, about 450 MB) and a Java runtime, Debian's
# openjdk-17-jre-headless when no `java` is on PATH (Spark 4 needs Java 17 or later).
PYSPARK_VERSION=4.3.0
SPARK_VENV="${SIMPRINT_SPARK_VENV:-$HOME/.cache/simprint/spark-venv}"
ensure_spark() {
  if ! command -v java >/dev/null; then
    say "installing Debian's openjdk-17-jre-headless (Spark needs a Java runtime)"
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq openjdk-17-jre-headless >/dev/null
  fi
  if ! "$SPARK_VENV/bin/python" -c "import pyspark, sys; sys.exit(pyspark.__version__ != '$PYSPARK_VERSION')" 2>/dev/null; then
    say "installing pyspark $PYSPARK_VERSION into $SPARK_VENV (once, about 2 minutes)"
    python3 -m venv "$SPARK_VENV"
    "$SPARK_VENV/bin/pip" install --quiet --disable-pip-version-check "pyspark==$PYSPARK_VERSION"
  fi
  export SIMPRINT_SPARK_PYTHON="$SPARK_VENV/bin/python"
}
