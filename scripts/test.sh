#!/usr/bin/env bash
# Every test of the project: all crates' tests, the Python package's tests,
# then the browser end-to-end test (installs Debian's Chromium and the npm
# packages it needs), played against `carcassonne serve`.
#
# The tests build in the release profile, the one `cargo run --release` and
# `cargo install` use, so the dependencies are compiled once for both.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/packages.sh

# PostgreSQL's server programs, for the test of several servers and bot
# workers on one database (crates/cli/tests/suite/postgres.rs, which starts a
# throwaway cluster of its own): Debian's package, installed if missing.
# Set CARCASSONNE_PG_BIN to use others.
if [ -z "${CARCASSONNE_PG_BIN:-}" ] && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  install_packages postgresql || {
    echo "scripts/test.sh: cannot install PostgreSQL (Debian: apt-get install postgresql), or set CARCASSONNE_PG_BIN" >&2
    exit 1
  }
fi
export CARCASSONNE_PG_REQUIRED=1

cargo test --release --workspace --locked

# The run command's build must be a part of the tests' build: the same
# dependencies with the same features (crates/workspace-hack unifies them)
# and the same code generation, so that after the tests it compiles nothing,
# and a fresh machine that ran the run command first compiles no dependency
# again here. If it compiles something, a dependency change broke that:
# regenerate crates/workspace-hack (.config/hakari.toml says how).
target="${CARGO_TARGET_DIR:-$PWD/target}"
bin="$target/release/carcassonne"
log=$(cargo build --release --locked -p carcassonne-cli 2>&1) || { echo "$log" >&2; exit 1; }
if grep '^ *Compiling' <<<"$log" >&2; then
  echo "error: after the tests, \`cargo build --release -p carcassonne-cli\` compiled the crates above again:" \
    "their features or code generation differ between the two builds; regenerate crates/workspace-hack (.config/hakari.toml)" >&2
  exit 1
fi

# The Python package (crates/python, docs/python.md): pip builds it from the
# repository with maturin, in the release profile and this target directory,
# into a new virtual environment with its tests' dependencies from PyPI;
# pytest runs its tests, which run the command line built above too.
venv=$(mktemp -d)
trap 'rm -rf "$venv"' EXIT
python3 -m venv "$venv"
CARGO_TARGET_DIR="$target" "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  ./crates/python pytest open_spiel numpy gymnasium
CARCASSONNE_BIN="$bin" "$venv/bin/python" -m pytest -q -p no:cacheprovider crates/python/tests
SERVER_BIN="$bin serve" bash e2e/run.sh
