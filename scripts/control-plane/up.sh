#!/usr/bin/env bash
# Starts etcd and kube-apiserver on 127.0.0.1 for the end-to-end tests (no kubelet, no scheduler, no
# kube-controller-manager: the e2e suite starts the controllers it wants with kcm.sh).
#
#   scripts/control-plane/up.sh DIR [--feature-gates=A=true,B=false] [--audit]
#
# DIR gets pki/ (CA, serving and client certificates, service-account key pair), admin.kubeconfig
# (O=system:masters), etcd-data/, logs/, *.pid, ports and env (source it to point the e2e suite here).
# Binaries come from $ORDINAL_K8S_BIN, else from build.sh (cached). Extra kube-apiserver flags:
# $ORDINAL_APISERVER_ARGS (word-split). --audit writes kube-apiserver's audit log to DIR/audit.log (every
# request at Metadata level, StatefulSet status writes with their bodies; for `npm run bench:upstream`).
# Stop with down.sh DIR.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=lib.sh
source "$HERE/lib.sh"

[ $# -ge 1 ] || cp_die "usage: up.sh DIR [--feature-gates=...] [--audit]"
mkdir -p "$1"
DIR="$(cd "$1" && pwd)"
shift
FEATURE_GATES="${ORDINAL_FEATURE_GATES:-}"
AUDIT=
for arg in "$@"; do
  case "$arg" in
    --feature-gates=*) FEATURE_GATES="${arg#--feature-gates=}" ;;
    --audit) AUDIT=1 ;;
    *) cp_die "unknown argument: $arg" ;;
  esac
done
for tool in openssl curl node; do command -v "$tool" >/dev/null || cp_die "$tool is required (ci-setup.sh installs it)"; done
if [ -f "$DIR/kube-apiserver.pid" ] && cp_alive "$(cat "$DIR/kube-apiserver.pid")"; then
  cp_die "a control plane already runs in $DIR (down.sh $DIR first)"
fi

BIN="${ORDINAL_K8S_BIN:-$("$HERE/build.sh")}"
for b in etcd kube-apiserver kube-controller-manager; do [ -x "$BIN/$b" ] || cp_die "missing $BIN/$b"; done
PKI="$DIR/pki"
mkdir -p "$PKI" "$DIR/logs"

make_pki() {
  [ -f "$PKI/.complete" ] && return
  cp_log "generating certificates in $PKI"
  cp_new_ca "$PKI" ca ordinal-e2e-ca
  # The front-proxy (request header) CA, as kubeadm sets it up, so delegated authentication in
  # kube-controller-manager finds a complete extension-apiserver-authentication ConfigMap.
  cp_new_ca "$PKI" front-proxy-ca ordinal-e2e-front-proxy-ca
  local serving="basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth"
  cp_sign "$PKI" apiserver "/CN=kube-apiserver" "$serving
subjectAltName=IP:127.0.0.1,IP:10.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local"
  cp_sign "$PKI" kube-controller-manager "/CN=kube-controller-manager" "$serving
subjectAltName=IP:127.0.0.1,DNS:localhost"
  cp_sign "$PKI" admin "/O=system:masters/CN=ordinal-e2e-admin" "basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=clientAuth"
  cp_sign "$PKI" front-proxy-client "/CN=front-proxy-client" "basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=clientAuth" front-proxy-ca
  openssl genrsa -out "$PKI/sa.key" 2048 2>/dev/null
  openssl rsa -in "$PKI/sa.key" -pubout -out "$PKI/sa.pub" 2>/dev/null
  chmod 600 "$PKI"/*.key
  touch "$PKI/.complete"
}

write_kubeconfig() {
  local server="$1" out="$DIR/admin.kubeconfig"
  cat >"$out.tmp" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: ordinal-e2e
  cluster:
    server: $server
    certificate-authority-data: $(base64 -w0 <"$PKI/ca.crt")
users:
- name: ordinal-e2e-admin
  user:
    client-certificate-data: $(base64 -w0 <"$PKI/admin.crt")
    client-key-data: $(base64 -w0 <"$PKI/admin.key")
contexts:
- name: ordinal-e2e
  context:
    cluster: ordinal-e2e
    user: ordinal-e2e-admin
    namespace: default
current-context: ordinal-e2e
EOF
  chmod 600 "$out.tmp"
  mv "$out.tmp" "$out"
}

start_etcd() {
  local client="$1" peer="$2"
  cp_log "starting etcd on 127.0.0.1:$client (peer $peer)"
  rm -rf "$DIR/etcd-data" # every up starts from an empty cluster
  "$BIN/etcd" --name ordinal-e2e --data-dir "$DIR/etcd-data" \
    --listen-client-urls "http://127.0.0.1:$client" --advertise-client-urls "http://127.0.0.1:$client" \
    --listen-peer-urls "http://127.0.0.1:$peer" --initial-advertise-peer-urls "http://127.0.0.1:$peer" \
    --initial-cluster "ordinal-e2e=http://127.0.0.1:$peer" --initial-cluster-state new \
    --unsafe-no-fsync --log-level warn \
    </dev/null >"$DIR/logs/etcd.log" 2>&1 &
  echo $! >"$DIR/etcd.pid"
  cp_wait etcd "$!" "$DIR/logs/etcd.log" 60 curl -fsS "http://127.0.0.1:$client/health"
}

# RBAC only: the admin is system:masters and there is no kubelet for the Node authorizer. The
# ServiceAccount admission plugin is off (as in upstream's StatefulSet integration tests) because no
# controller creates the "default" ServiceAccount unless kcm.sh runs one, and no kubelet mounts tokens;
# TokenRequest still works, so least-privilege tests can mint ServiceAccount tokens. The endpoint
# reconciler is off because Endpoints may not hold a loopback address.
# The status subresource at RequestResponse, so a status write that changed nothing can be told apart.
write_audit_policy() {
  cat >"$DIR/audit-policy.yaml" <<'EOF'
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: RequestResponse
    resources:
      - group: apps
        resources: [statefulsets/status]
      - group: apps.ordinal.dev
        resources: [statefulsets/status]
  - level: Metadata
EOF
}

start_apiserver() {
  local etcd_port="$1" port="$2"
  local -a extra=()
  [ -z "$FEATURE_GATES" ] || extra+=("--feature-gates=$FEATURE_GATES")
  # shellcheck disable=SC2206
  [ -z "${ORDINAL_APISERVER_ARGS:-}" ] || extra+=(${ORDINAL_APISERVER_ARGS})
  if [ -n "$AUDIT" ]; then
    write_audit_policy
    extra+=(--audit-policy-file "$DIR/audit-policy.yaml" --audit-log-path "$DIR/audit.log"
      --audit-log-format json --audit-log-mode blocking --audit-log-maxsize 1024)
  fi
  cp_log "starting kube-apiserver on https://127.0.0.1:$port"
  "$BIN/kube-apiserver" --etcd-servers "http://127.0.0.1:$etcd_port" \
    --bind-address 127.0.0.1 --advertise-address 127.0.0.1 --secure-port "$port" \
    --tls-cert-file "$PKI/apiserver.crt" --tls-private-key-file "$PKI/apiserver.key" \
    --client-ca-file "$PKI/ca.crt" --cert-dir "$DIR/pki/generated" \
    --service-account-issuer https://kubernetes.default.svc.cluster.local \
    --service-account-key-file "$PKI/sa.pub" --service-account-signing-key-file "$PKI/sa.key" \
    --service-cluster-ip-range 10.0.0.0/24 --endpoint-reconciler-type none \
    --authorization-mode RBAC --disable-admission-plugins ServiceAccount \
    --requestheader-client-ca-file "$PKI/front-proxy-ca.crt" --requestheader-allowed-names front-proxy-client \
    --requestheader-username-headers X-Remote-User --requestheader-group-headers X-Remote-Group \
    --requestheader-extra-headers-prefix X-Remote-Extra- \
    --proxy-client-cert-file "$PKI/front-proxy-client.crt" --proxy-client-key-file "$PKI/front-proxy-client.key" \
    --profiling=false --v 1 "${extra[@]}" \
    </dev/null >"$DIR/logs/kube-apiserver.log" 2>&1 &
  echo $! >"$DIR/kube-apiserver.pid"
  cp_wait kube-apiserver "$!" "$DIR/logs/kube-apiserver.log" 180 \
    curl -fsS --cacert "$PKI/ca.crt" --cert "$PKI/admin.crt" --key "$PKI/admin.key" "https://127.0.0.1:$port/readyz"
}

write_env() {
  cat >"$DIR/env" <<EOF
export ORDINAL_E2E_DIR='$DIR'
export ORDINAL_E2E_KUBECONFIG='$DIR/admin.kubeconfig'
export ORDINAL_K8S_BIN='$BIN'
EOF
}

START=$(date +%s)
make_pki
mapfile -t PORTS < <(cp_free_ports 3)
printf 'etcd=%s\netcd-peer=%s\nkube-apiserver=%s\n' "${PORTS[0]}" "${PORTS[1]}" "${PORTS[2]}" >"$DIR/ports"
printf '%s\n' "$FEATURE_GATES" >"$DIR/feature-gates"
start_etcd "${PORTS[0]}" "${PORTS[1]}" || { "$HERE/down.sh" "$DIR"; cp_die "etcd did not start"; }
start_apiserver "${PORTS[0]}" "${PORTS[2]}" || { "$HERE/down.sh" "$DIR"; cp_die "kube-apiserver did not start"; }
write_kubeconfig "https://127.0.0.1:${PORTS[2]}"
write_env
cp_log "up in $(($(date +%s) - START))s: kubeconfig $DIR/admin.kubeconfig ($("$BIN/kube-apiserver" --version))"
