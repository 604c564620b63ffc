#!/usr/bin/env bash
# Install the real applications of benchmarks/realapps.py outside the repository: Trac,
# Mercurial (hgweb), Datasette and coverage.py in a virtual environment of their own (PyPI),
# TiddlyWiki in a node_modules of its own (npm). Node.js from Debian's packages when missing.
#   bash scripts/realapps.sh [DIR]   (DIR: $STATECRAWL_REALAPPS or ~/.cache/statecrawl/realapps)
# Safe to run again: it skips what is already there.
set -euo pipefail
dir="${1:-${STATECRAWL_REALAPPS:-$HOME/.cache/statecrawl/realapps}}"
mkdir -p "$dir"
cd "$dir"

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nodejs npm >/dev/null
fi

if [ ! -x venv/bin/python ]; then
  python3 -m venv venv
fi
for tool in tracd hg datasette coverage; do
  if [ ! -x "venv/bin/$tool" ]; then
    venv/bin/python -m pip install -q --disable-pip-version-check \
      "Trac==1.6" "mercurial==7.2.4" "datasette==0.65.5" "coverage==7.18.0"
    break
  fi
done

if [ ! -f node/node_modules/tiddlywiki/tiddlywiki.js ]; then
  npm install --silent --no-audit --no-fund --prefix node "tiddlywiki@5.4.1"
fi
echo "real applications installed in $dir"
