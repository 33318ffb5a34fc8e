#!/usr/bin/env bash
# Every test of the project: all crates' tests, the Python package's tests,
# then the browser end-to-end test (installs Debian's Chromium and the npm
# packages it needs), played against `carcassonne serve`.
#
# The tests build in the release profile, the one `cargo run --release` and
# `cargo install` use, so the dependencies are compiled once for both.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo test --release --workspace --locked

# Cargo built the binary for the command line's own tests; build it only if
# a filter skipped them. (`cargo build -p carcassonne-cli` after the tests
# is no no-op: it resolves the dependencies' features for that package
# alone, not for the whole workspace with its dev-dependencies as the tests
# did, and so compiled 47 crates again, the engine among them.)
target="${CARGO_TARGET_DIR:-$PWD/target}"
bin="$target/release/carcassonne"
[ -x "$bin" ] || cargo build --release --locked -p carcassonne-cli

# The Python package (crates/python, docs/python.md): pip builds it from the
# repository with maturin, in the release profile and this target directory,
# into a new virtual environment with its tests' dependencies from PyPI;
# pytest runs its tests, which run the command line built above too.
venv=$(mktemp -d)
trap 'rm -rf "$venv"' EXIT
python3 -m venv "$venv"
CARGO_TARGET_DIR="$target" "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  ./crates/python pytest open_spiel numpy
CARCASSONNE_BIN="$bin" "$venv/bin/python" -m pytest -q -p no:cacheprovider crates/python/tests
SERVER_BIN="$bin serve" bash e2e/run.sh
