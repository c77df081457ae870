#!/usr/bin/env bash
# Starts or stops kube-controller-manager against the control plane that up.sh started in DIR.
#
#   scripts/control-plane/kcm.sh DIR start [--instance=NAME] [--controllers=a,b,...] [more flags]
#   scripts/control-plane/kcm.sh DIR stop [--instance=NAME | --all]
#
# --controllers defaults to garbage-collector-controller,namespace-controller,serviceaccount-controller,
# serviceaccount-token-controller (old aliases such as garbagecollector work too). The built-in
# statefulset-controller runs only when named (or with "*"): keep it off while Ordinal runs with
# --target=native, or both fight over the same StatefulSets. Several instances (--instance, default
# "default") may run side by side, e.g. one per test file; they must not run the same controller.
# No leader election; it uses the admin kubeconfig (system:masters) and up.sh's --feature-gates.
# start waits for /healthz and prints the secure port on stdout.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=lib.sh
source "$HERE/lib.sh"

[ $# -ge 2 ] || cp_die "usage: kcm.sh DIR start|stop [--instance=NAME] [--controllers=...] [flags...]"
DIR="$(cd "$1" && pwd)"
ACTION="$2"
shift 2
INSTANCE=default
ALL=""
ARGS=()
for arg in "$@"; do
  case "$arg" in
    --instance=*) INSTANCE="${arg#--instance=}" ;;
    --all) ALL=1 ;;
    *) ARGS+=("$arg") ;;
  esac
done
[[ "$INSTANCE" =~ ^[A-Za-z0-9._-]+$ ]] || cp_die "bad --instance name: $INSTANCE"
SUFFIX=""
[ "$INSTANCE" = default ] || SUFFIX="-$INSTANCE"
PIDFILE="$DIR/kube-controller-manager$SUFFIX.pid"
PORTFILE="$DIR/kube-controller-manager$SUFFIX.port"
LOG="$DIR/logs/kube-controller-manager$SUFFIX.log"

start() {
  local controllers="garbage-collector-controller,namespace-controller,serviceaccount-controller,serviceaccount-token-controller"
  local gates="" port bin arg
  local -a extra=()
  for arg in "$@"; do
    case "$arg" in
      --controllers=*) controllers="${arg#--controllers=}" ;;
      *) extra+=("$arg") ;;
    esac
  done
  [ -f "$DIR/admin.kubeconfig" ] || cp_die "no $DIR/admin.kubeconfig: run up.sh $DIR first"
  if [ -f "$PIDFILE" ] && cp_alive "$(cat "$PIDFILE")"; then
    cp_die "kube-controller-manager instance $INSTANCE already runs ($(cat "$PIDFILE"))"
  fi
  [ ! -f "$DIR/feature-gates" ] || gates="$(cat "$DIR/feature-gates")"
  [ -z "$gates" ] || extra+=("--feature-gates=$gates")
  # the binaries up.sh used, so both components are the same build
  bin="$(sed -n "s/^export ORDINAL_K8S_BIN='\(.*\)'\$/\1/p" "$DIR/env")"
  [ -x "$bin/kube-controller-manager" ] || cp_die "no kube-controller-manager in '$bin' (from $DIR/env)"
  port="$(cp_free_ports 1)"
  cp_log "starting kube-controller-manager ($INSTANCE) on https://127.0.0.1:$port with --controllers=$controllers"
  "$bin/kube-controller-manager" --kubeconfig "$DIR/admin.kubeconfig" \
    --authentication-kubeconfig "$DIR/admin.kubeconfig" --authorization-kubeconfig "$DIR/admin.kubeconfig" \
    --bind-address 127.0.0.1 --secure-port "$port" \
    --tls-cert-file "$DIR/pki/kube-controller-manager.crt" --tls-private-key-file "$DIR/pki/kube-controller-manager.key" \
    --controllers "$controllers" --leader-elect=false --use-service-account-credentials=false \
    --service-account-private-key-file "$DIR/pki/sa.key" --root-ca-file "$DIR/pki/ca.crt" \
    --profiling=false --v 1 "${extra[@]}" \
    </dev/null >>"$LOG" 2>&1 &
  echo $! >"$PIDFILE"
  echo "$port" >"$PORTFILE"
  cp_wait "kube-controller-manager ($INSTANCE)" "$!" "$LOG" 60 \
    curl -fsS --cacert "$DIR/pki/ca.crt" "https://127.0.0.1:$port/healthz" \
    || { cp_stop kube-controller-manager "$PIDFILE"; cp_die "kube-controller-manager did not become healthy"; }
  echo "$port"
}

case "$ACTION" in
  start) start "${ARGS[@]}" ;;
  stop)
    if [ -z "$ALL" ]; then cp_stop "kube-controller-manager ($INSTANCE)" "$PIDFILE"; rm -f "$PORTFILE"; exit 0; fi
    for pidfile in "$DIR"/kube-controller-manager*.pid; do
      [ -e "$pidfile" ] || continue
      cp_stop "$(basename "$pidfile" .pid)" "$pidfile"
      rm -f "${pidfile%.pid}.port"
    done
    ;;
  *) cp_die "unknown action: $ACTION (start|stop)" ;;
esac
