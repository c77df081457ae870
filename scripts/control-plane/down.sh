#!/usr/bin/env bash
# Stops what up.sh and kcm.sh started in DIR (every kube-controller-manager instance, kube-apiserver,
# etcd, in that order), by the pids they recorded. Keeps DIR (logs, certificates) unless --purge is given.
#
#   scripts/control-plane/down.sh DIR [--purge]
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=lib.sh
source "$HERE/lib.sh"

[ $# -ge 1 ] || cp_die "usage: down.sh DIR [--purge]"
DIR="$1"
[ -d "$DIR" ] || { cp_log "$DIR does not exist; nothing to stop"; exit 0; }
for pidfile in "$DIR"/kube-controller-manager*.pid; do
  [ -e "$pidfile" ] || continue
  cp_stop "$(basename "$pidfile" .pid)" "$pidfile"
done
cp_stop kube-apiserver "$DIR/kube-apiserver.pid"
cp_stop etcd "$DIR/etcd.pid"
if [ "${2:-}" = --purge ]; then
  rm -rf "$DIR"
  cp_log "removed $DIR"
fi
