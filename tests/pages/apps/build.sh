#!/usr/bin/env bash
# Rebuild every tests/pages/apps/dist/<app>/ from src/, with the exact versions pinned in
# package-lock.json. Extra arguments name the apps to rebuild (default: all of them).
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
node build.mjs "$@"
