#!/usr/bin/env bash
# Browser end-to-end test: installs what it needs (Debian's Chromium, the
# npm packages from the lockfile), builds and starts the real server, plays a
# game with The Ferries by clicking. Last line: "N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")"

if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
fi
if ! command -v node >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq nodejs npm >/dev/null
fi
npm ci --no-audit --no-fund --loglevel=error
exec node play.test.mjs "$@"
