#!/usr/bin/env bash
# Builds (or reuses) kube-apiserver, kube-controller-manager, kubectl and etcd from source through the Go
# module proxy, cached outside the repo so only the first run pays. kubectl comes from the same module as
# the servers (k8s.io/kubernetes/cmd/kubectl), so it shares their downloads and most compiled packages: it
# adds about 80 s on 2 cores, and a cache built before it gains just kubectl. The end-to-end tests run the
# docs' kubectl commands with it (test/e2e/docs-commands.test.ts).
#
#   scripts/control-plane/build.sh [VERSION]      # VERSION: $ORDINAL_K8S_VERSION, else v1.37.2
#
# Prints the bin directory on stdout; everything else goes to stderr. The cache lives in
# ${ORDINAL_CACHE:-$HOME/.cache/ordinal}/k8s-<version>/: bin/ holds the binaries and the stamp file
# bin/.complete (key=value lines: kubernetes, staging, etcd, go, seconds); mod-k8s/ and mod-etcd/ are the
# throwaway Go modules (never in the repo).
#
# Should the Go module proxy refuse the default version's source zip (it once answered 403 "This module
# version is not available" for a fresh patch release), the newest lower patch of the same minor that the
# proxy serves is built instead, and the refusal is printed. An explicitly
# requested version never falls back (set ORDINAL_K8S_FALLBACK=1 to allow it).
set -euo pipefail

DEFAULT_VERSION=v1.37.2
REQUESTED="${1:-${ORDINAL_K8S_VERSION:-}}"
FALLBACK="${ORDINAL_K8S_FALLBACK:-}"
if [ -z "$REQUESTED" ]; then REQUESTED=$DEFAULT_VERSION; FALLBACK="${FALLBACK:-1}"; fi
CACHE_ROOT="${ORDINAL_CACHE:-${HOME:-/tmp}/.cache/ordinal}"
BINARIES=(kube-apiserver kube-controller-manager kubectl etcd)
NICE="${ORDINAL_BUILD_NICE:-10}"

log() { printf '[build] %s\n' "$*" >&2; }
die() { printf '[build] ERROR: %s\n' "$*" >&2; exit 1; }

[[ "$REQUESTED" =~ ^v1\.([0-9]+)\.([0-9]+)$ ]] || die "version must look like v1.37.2, got '$REQUESTED'"

bin_dir_of() { echo "$CACHE_ROOT/k8s-$1/bin"; }
is_complete() {
  local bin b
  bin=$(bin_dir_of "$1")
  [ -f "$bin/.complete" ] || return 1
  for b in "${BINARIES[@]}"; do [ -x "$bin/$b" ] || return 1; done
}

if is_complete "$REQUESTED"; then
  log "reusing $(bin_dir_of "$REQUESTED") ($(tr '\n' ' ' <"$(bin_dir_of "$REQUESTED")/.complete"))"
  bin_dir_of "$REQUESTED"
  exit 0
fi

# A Go toolchain: the machine's, or /usr/local/go.
if ! command -v go >/dev/null 2>&1; then
  [ -x /usr/local/go/bin/go ] || die "no Go toolchain on PATH or in /usr/local/go (need go >= 1.26)"
  export PATH="/usr/local/go/bin:$PATH"
fi
export GOFLAGS="${GOFLAGS:-} -mod=mod"
export GOTOOLCHAIN=local
export CGO_ENABLED=0

json_field() { sed -n "s/^[[:space:]]*\"$1\": \"\\(.*\\)\",\\{0,1\\}\$/\\1/p" | head -n1; }

# Downloads k8s.io/kubernetes@$1 into the module cache; on failure prints the proxy's error on stdout.
download_error() {
  local out
  if out=$(go mod download -json "k8s.io/kubernetes@$1" 2>&1); then return 0; fi
  json_field Error <<<"$out" | sed 's/\\n\\t/ /g; s/\\n/ /g'
  [ -n "$(json_field Error <<<"$out")" ] || echo "$out"
}

# Picks the version to build: the requested one, or (fallback allowed) the newest lower patch served.
select_version() {
  local err minor patch v
  err=$(download_error "$REQUESTED")
  if [ -z "$err" ]; then echo "$REQUESTED"; return; fi
  log "go mod download -json k8s.io/kubernetes@$REQUESTED failed: $err"
  [ "$FALLBACK" = 1 ] || die "cannot fetch k8s.io/kubernetes@$REQUESTED through the Go module proxy"
  [[ "$REQUESTED" =~ ^v1\.([0-9]+)\.([0-9]+)$ ]]
  minor=${BASH_REMATCH[1]} patch=${BASH_REMATCH[2]}
  while [ "$patch" -gt 0 ]; do
    patch=$((patch - 1)) v="v1.$minor.$patch"
    if is_complete "$v"; then echo "$v"; return; fi
    err=$(download_error "$v")
    if [ -z "$err" ]; then echo "$v"; return; fi
    log "go mod download -json k8s.io/kubernetes@$v failed: $err"
  done
  die "no v1.$minor.x source of k8s.io/kubernetes is available through $(go env GOPROXY)"
}

VERSION=$(select_version)
if [ "$VERSION" != "$REQUESTED" ]; then
  log "FALLBACK: building k8s.io/kubernetes@$VERSION instead of $REQUESTED (its source is not served); /version will say $VERSION"
fi
BIN_DIR=$(bin_dir_of "$VERSION")
CACHE_DIR=$(dirname "$BIN_DIR")
STAMP="$BIN_DIR/.complete"
# One build per version at a time: a second caller waits, then reuses the first one's result.
mkdir -p "$CACHE_DIR"
exec 9>"$CACHE_DIR/.lock"
if ! flock -n 9; then
  log "another build.sh is building $VERSION; waiting for it"
  flock 9
fi
if is_complete "$VERSION"; then
  log "reusing $BIN_DIR ($(tr '\n' ' ' <"$STAMP"))"
  echo "$BIN_DIR"
  exit 0
fi
[[ "$VERSION" =~ ^v1\.([0-9]+)\.([0-9]+)$ ]]
K8S_MINOR="${BASH_REMATCH[1]}"
STAGING_VERSION="v0.$K8S_MINOR.${BASH_REMATCH[2]}"
mkdir -p "$BIN_DIR"
START=$(date +%s)
log "building Kubernetes $VERSION (staging modules $STAGING_VERSION) with $(go version) into $BIN_DIR"

K8S_MOD_JSON=$(go mod download -json "k8s.io/kubernetes@$VERSION") || die "go mod download k8s.io/kubernetes@$VERSION failed"
K8S_GOMOD=$(json_field GoMod <<<"$K8S_MOD_JSON")
K8S_INFO=$(json_field Info <<<"$K8S_MOD_JSON")
K8S_TIME=$(sed -n 's/.*"Time": *"\([^"]*\)".*/\1/p' "$K8S_INFO" 2>/dev/null || true)
# The proxy's .info carries no commit for k8s.io/kubernetes, so gitCommit is empty unless
# ORDINAL_K8S_GIT_COMMIT names it (better than upstream's "$Format:%H$" placeholder).
K8S_COMMIT="${ORDINAL_K8S_GIT_COMMIT:-$(json_field Hash <<<"$K8S_MOD_JSON")}"
[ -f "$K8S_GOMOD" ] || die "no go.mod for k8s.io/kubernetes@$VERSION in the module cache"
# The upstream go.mod lists the staging modules it replaces with ./staging/src/k8s.io/<name>.
mapfile -t STAGING < <(sed -n 's#^[[:space:]]*\(k8s\.io/[A-Za-z0-9._-]*\) => \./staging/src/.*#\1#p' "$K8S_GOMOD")
[ "${#STAGING[@]}" -gt 0 ] || die "found no staging replacements in $K8S_GOMOD"
GO_DIRECTIVE=$(sed -n 's/^go \([0-9.]*\)$/\1/p' "$K8S_GOMOD")
# etcd at the version kubernetes pins (go.etcd.io/etcd/server/v3 in its go.mod).
ETCD_VERSION="${ORDINAL_ETCD_VERSION:-$(sed -n 's#^[[:space:]]*go\.etcd\.io/etcd/server/v3 \(v[^ ]*\).*#\1#p' "$K8S_GOMOD" | head -n1)}"
[ -n "$ETCD_VERSION" ] || die "kubernetes $VERSION pins no go.etcd.io/etcd/server/v3"

write_k8s_module() {
  local dir="$1" m
  {
    printf 'module ordinal.local/k8s-build\n\ngo %s\n\n' "$GO_DIRECTIVE"
    printf 'godebug default=go1.%s\n\n' "$(cut -d. -f2 <<<"$GO_DIRECTIVE")"
    printf 'require k8s.io/kubernetes %s\n\nreplace (\n' "$VERSION"
    for m in "${STAGING[@]}"; do printf '\t%s => %s %s\n' "$m" "$m" "$STAGING_VERSION"; done
    printf ')\n'
  } >"$dir/go.mod"
  cat >"$dir/tools.go" <<'EOF'
//go:build tools

// Package tools only anchors the commands this throwaway module builds.
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kubectl"
)
EOF
}

# Mirrors hack/lib/version.sh kube::version::ldflags so /version reports $VERSION.
k8s_ldflags() {
  local date="$1" flags="-s -w" pkg
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    flags+=" -X $pkg.gitVersion=$VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$K8S_MINOR"
    flags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=$date -X $pkg.gitCommit=$K8S_COMMIT"
  done
  echo "$flags"
}

build_k8s() {
  local dir="$CACHE_DIR/mod-k8s" date cmd
  mkdir -p "$dir"
  write_k8s_module "$dir"
  # Reproducible build date: SOURCE_DATE_EPOCH if set, else the tag's time on the proxy.
  if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)
  else date=$(date -u -d "${K8S_TIME:-now}" +%Y-%m-%dT%H:%M:%SZ); fi
  log "resolving modules in $dir"
  (cd "$dir" && go mod tidy >"$dir/tidy.log" 2>&1) || { cat "$dir/tidy.log" >&2; die "go mod tidy failed in $dir"; }
  for cmd in kube-apiserver kube-controller-manager kubectl; do
    if [ -x "$BIN_DIR/$cmd" ] && [ -f "$BIN_DIR/.$cmd.ok" ]; then log "$cmd already built"; continue; fi
    log "go build k8s.io/kubernetes/cmd/$cmd (nice $NICE)"
    (cd "$dir" && nice -n "$NICE" go build -trimpath -ldflags "$(k8s_ldflags "$date")" \
      -o "$BIN_DIR/$cmd.tmp" "k8s.io/kubernetes/cmd/$cmd") || die "go build k8s.io/kubernetes/cmd/$cmd failed (in $dir)"
    mv "$BIN_DIR/$cmd.tmp" "$BIN_DIR/$cmd"
    touch "$BIN_DIR/.$cmd.ok"
  done
}

build_etcd() {
  local dir="$CACHE_DIR/mod-etcd"
  if [ -x "$BIN_DIR/etcd" ] && [ -f "$BIN_DIR/.etcd.ok" ]; then log "etcd already built"; return; fi
  mkdir -p "$dir"
  printf 'module ordinal.local/etcd-build\n\ngo %s\n\nrequire go.etcd.io/etcd/server/v3 %s\n' \
    "$GO_DIRECTIVE" "$ETCD_VERSION" >"$dir/go.mod"
  printf '//go:build tools\n\npackage tools\n\nimport _ "go.etcd.io/etcd/server/v3"\n' >"$dir/tools.go"
  (cd "$dir" && go mod tidy >"$dir/tidy.log" 2>&1) || { cat "$dir/tidy.log" >&2; die "go mod tidy failed in $dir"; }
  log "go build go.etcd.io/etcd/server/v3@$ETCD_VERSION (nice $NICE)"
  (cd "$dir" && nice -n "$NICE" go build -trimpath -ldflags "-s -w" -o "$BIN_DIR/etcd.tmp" go.etcd.io/etcd/server/v3) \
    || die "go build go.etcd.io/etcd/server/v3@$ETCD_VERSION failed (in $dir)"
  mv "$BIN_DIR/etcd.tmp" "$BIN_DIR/etcd"
  touch "$BIN_DIR/.etcd.ok"
}

build_etcd
build_k8s

ELAPSED=$(($(date +%s) - START))
printf 'kubernetes=%s\nstaging=%s\netcd=%s\ngo=%s\nseconds=%s\n' \
  "$VERSION" "$STAGING_VERSION" "$ETCD_VERSION" "$(go env GOVERSION)" "$ELAPSED" >"$STAMP"
log "done in ${ELAPSED}s"
echo "$BIN_DIR"
