#!/usr/bin/env bash
# Browser end-to-end test: installs what it needs (Debian's Chromium, the
# npm packages from the lockfile), builds and starts the real server, plays a
# game with The Ferries by clicking. Last line: "N passed, M failed".
#
# Chromium: $CHROMIUM if set, else the first of the places Debian, Ubuntu
# and snap put it; if there is none, it is installed with apt-get (through
# sudo when not root), or the script says what to install.
set -euo pipefail
cd "$(dirname "$0")"

# shellcheck source=../scripts/packages.sh
. ../scripts/packages.sh

# Installs Debian packages, or explains which and exits.
need_packages() {
  install_packages "$@" && return 0
  echo "e2e/run.sh: cannot install $* (needs apt-get and root or sudo)." >&2
  echo "Install them yourself (Debian: apt-get install $*; Ubuntu: chromium-browser for chromium)," >&2
  echo "or point CHROMIUM at a Chromium or Chrome binary." >&2
  exit 1
}

find_chromium() {
  local c
  for c in "${CHROMIUM:-}" /usr/bin/chromium /usr/bin/chromium-browser /snap/bin/chromium \
    /usr/lib/chromium/chromium /usr/bin/google-chrome /usr/bin/google-chrome-stable; do
    if [ -n "$c" ] && [ -x "$c" ]; then
      echo "$c"
      return 0
    fi
  done
  return 1
}

if [ -n "${CHROMIUM:-}" ] && [ ! -x "$CHROMIUM" ]; then
  echo "e2e/run.sh: CHROMIUM=$CHROMIUM is not an executable file" >&2
  exit 1
fi
if ! CHROMIUM=$(find_chromium); then
  need_packages chromium
  CHROMIUM=$(find_chromium) || { echo "e2e/run.sh: chromium was installed but is not found" >&2; exit 1; }
fi
export CHROMIUM
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  need_packages nodejs npm
fi
npm ci --no-audit --no-fund --loglevel=error
exec node play.test.mjs "$@"
