#!/usr/bin/env bash
# Starts or stops kube-controller-manager against the control plane that up.sh started in DIR.
#
#   scripts/control-plane/kcm.sh DIR start [--controllers=a,b,...] [more kube-controller-manager flags]
#   scripts/control-plane/kcm.sh DIR stop
#
# --controllers defaults to garbagecollector,namespace,serviceaccount,serviceaccount-token (the upstream
# aliases are accepted). The built-in statefulset controller runs only when named (or with "*"): keep it
# off while Ordinal runs with --target=native, or both fight over the same StatefulSets. No leader
# election; it uses the admin kubeconfig (system:masters) and shares up.sh's --feature-gates. start
# waits for /healthz and prints the secure port on stdout.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=lib.sh
source "$HERE/lib.sh"

[ $# -ge 2 ] || cp_die "usage: kcm.sh DIR start|stop [--controllers=...] [flags...]"
DIR="$(cd "$1" && pwd)"
ACTION="$2"
shift 2
PIDFILE="$DIR/kube-controller-manager.pid"
LOG="$DIR/logs/kube-controller-manager.log"

start() {
  local controllers="garbagecollector,namespace,serviceaccount,serviceaccount-token" gates="" port
  local -a extra=()
  for arg in "$@"; do
    case "$arg" in
      --controllers=*) controllers="${arg#--controllers=}" ;;
      *) extra+=("$arg") ;;
    esac
  done
  [ -f "$DIR/admin.kubeconfig" ] || cp_die "no $DIR/admin.kubeconfig: run up.sh $DIR first"
  if [ -f "$PIDFILE" ] && cp_alive "$(cat "$PIDFILE")"; then cp_die "kube-controller-manager already runs ($(cat "$PIDFILE"))"; fi
  [ ! -f "$DIR/feature-gates" ] || gates="$(cat "$DIR/feature-gates")"
  [ -z "$gates" ] || extra+=("--feature-gates=$gates")
  local bin
  bin="$(. "$DIR/env" && echo "$ORDINAL_K8S_BIN")"
  port="$(cp_free_ports 1)"
  cp_log "starting kube-controller-manager on https://127.0.0.1:$port with --controllers=$controllers"
  "$bin/kube-controller-manager" --kubeconfig "$DIR/admin.kubeconfig" \
    --authentication-kubeconfig "$DIR/admin.kubeconfig" --authorization-kubeconfig "$DIR/admin.kubeconfig" \
    --bind-address 127.0.0.1 --secure-port "$port" \
    --tls-cert-file "$DIR/pki/kube-controller-manager.crt" --tls-private-key-file "$DIR/pki/kube-controller-manager.key" \
    --controllers "$controllers" --leader-elect=false --use-service-account-credentials=false \
    --service-account-private-key-file "$DIR/pki/sa.key" --root-ca-file "$DIR/pki/ca.crt" \
    --profiling=false --v 1 "${extra[@]}" \
    </dev/null >>"$LOG" 2>&1 &
  echo $! >"$PIDFILE"
  echo "$port" >"$DIR/kube-controller-manager.port"
  cp_wait kube-controller-manager "$!" "$LOG" 60 \
    curl -fsS --cacert "$DIR/pki/ca.crt" "https://127.0.0.1:$port/healthz" \
    || { cp_stop kube-controller-manager "$PIDFILE"; cp_die "kube-controller-manager did not become healthy"; }
  echo "$port"
}

case "$ACTION" in
  start) start "$@" ;;
  stop) cp_stop kube-controller-manager "$PIDFILE"; rm -f "$DIR/kube-controller-manager.port" ;;
  *) cp_die "unknown action: $ACTION (start|stop)" ;;
esac
