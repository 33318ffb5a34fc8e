#!/usr/bin/env bash
# Every test of the project: all crates' tests, then the browser end-to-end
# test (installs Debian's Chromium and the npm packages it needs), played
# against `carcassonne serve` as built for the tests.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo test --workspace --locked

bin="${CARGO_TARGET_DIR:-$PWD/target}/debug/carcassonne"
if [ ! -x "$bin" ]; then
  cargo build --locked -p carcassonne-cli
fi
SERVER_BIN="$bin serve" bash e2e/run.sh
