#!/usr/bin/env bash
# Builds pkg/ and serves the demo on http://127.0.0.1:${PORT:-8080}/www/ (loopback only).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
setup_all
build_pkg
PORT="${PORT:-8080}"
say "serving the demo at http://127.0.0.1:$PORT/www/ (Ctrl-C stops)"
cd "$ROOT"
# http-server 14.1.1 trips a Node 20 deprecation warning that is not ours to fix.
NODE_OPTIONS=--no-deprecation exec http-server "$ROOT" -a 127.0.0.1 -p "$PORT" -c-1 --silent
