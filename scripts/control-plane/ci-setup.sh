# Sourced by .ci/run: installs what a fresh Debian machine lacks, builds (or reuses) kube-apiserver,
# kube-controller-manager and etcd, starts etcd + kube-apiserver in a temp dir, exports
# ORDINAL_E2E_KUBECONFIG / ORDINAL_E2E_DIR / ORDINAL_K8S_BIN for the e2e suite, and traps EXIT to stop
# them. A failed build or start is reported and the run goes on without the variables, so the e2e tests
# fail loudly under CI=true (test/e2e/control-plane.ts) while the other tests still run.
# shellcheck shell=bash

_ordinal_cp_here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

_ordinal_cp_install_missing() {
  local tool missing=() sudo=()
  for tool in openssl curl; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
  [ "${#missing[@]}" -gt 0 ] || return 0
  [ "$(id -u)" = 0 ] || sudo=(sudo)
  echo "== apt-get install ${missing[*]}"
  "${sudo[@]}" apt-get update -qq && DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

_ordinal_cp_teardown() {
  local rc=$? dir="${ORDINAL_E2E_DIR:-}"
  if [ -n "$dir" ] && [ -d "$dir" ]; then
    "$_ordinal_cp_here/down.sh" "$dir" || true
    if [ "$rc" != 0 ]; then
      local f
      for f in "$dir"/logs/*.log; do
        [ -f "$f" ] || continue
        echo "== last lines of $f"
        tail -n 30 "$f" || true
      done
    fi
    rm -rf "$dir"
  fi
  eval "${_ordinal_cp_prev_trap:-}"
}

_ordinal_cp_setup() {
  local start bin dir
  echo "::group::control plane (kube-apiserver + etcd for test/e2e)"
  _ordinal_cp_install_missing || { echo "control plane: installing openssl/curl failed; e2e tests will fail"; echo "::endgroup::"; return 0; }
  start=$(date +%s)
  if ! bin="$("$_ordinal_cp_here/build.sh")"; then
    echo "control plane: build.sh failed after $(($(date +%s) - start))s (error above); e2e tests will fail"
    echo "::endgroup::"
    return 0
  fi
  echo "control plane: binaries ready in $(($(date +%s) - start))s ($bin: $(tr '\n' ' ' <"$bin/.complete"))"
  dir="$(mktemp -d "${TMPDIR:-/tmp}/ordinal-e2e.XXXXXX")"
  if ! ORDINAL_K8S_BIN="$bin" "$_ordinal_cp_here/up.sh" "$dir"; then
    echo "control plane: up.sh failed (error above); e2e tests will fail"
    "$_ordinal_cp_here/down.sh" "$dir" --purge || true
    echo "::endgroup::"
    return 0
  fi
  export ORDINAL_E2E_KUBECONFIG="$dir/admin.kubeconfig" ORDINAL_E2E_DIR="$dir" ORDINAL_K8S_BIN="$bin"
  _ordinal_cp_prev_trap="$(trap -p EXIT | sed "s/^trap -- '\\(.*\\)' EXIT\$/\\1/")"
  trap _ordinal_cp_teardown EXIT
  echo "::endgroup::"
}

_ordinal_cp_setup
