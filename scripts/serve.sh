#!/usr/bin/env bash
# Builds pkg/ and serves the demo on http://127.0.0.1:${PORT:-8080}/www/ (loopback only).
# Only www/ and pkg/ are served (scripts/serve.mjs); / redirects to the page.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
setup_all
build_pkg
PORT="${PORT:-8080}"
say "serving the demo at http://127.0.0.1:$PORT/www/ (Ctrl-C stops)"
exec node "$ROOT/scripts/serve.mjs" "$PORT"
