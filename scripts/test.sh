#!/usr/bin/env bash
# Every test of the project: all crates' tests, then the browser end-to-end
# test (installs Debian's Chromium and the npm packages it needs), played
# against `carcassonne serve`.
#
# The tests build in the release profile, the one `cargo run --release` and
# `cargo install` use, so the dependencies are compiled once for both.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo test --release --workspace --locked

# Cargo builds the binary for the command line's own tests; build it if a
# filter skipped them.
cargo build --release --locked -p carcassonne-cli
bin="${CARGO_TARGET_DIR:-$PWD/target}/release/carcassonne"
SERVER_BIN="$bin serve" bash e2e/run.sh
