# Helpers shared by up.sh, down.sh and kcm.sh (sourced, not run).
# shellcheck shell=bash

cp_log() { printf '[control-plane] %s\n' "$*" >&2; }
cp_die() { printf '[control-plane] ERROR: %s\n' "$*" >&2; exit 1; }

# Prints N distinct free TCP ports on 127.0.0.1, one per line. All are held open together while they are
# picked so that they differ; a port can still be taken by someone else before we bind it, which the
# readiness wait then reports.
cp_free_ports() {
  node -e '
    const net = require("node:net");
    const n = Number(process.argv[1]);
    const servers = [];
    const next = () => {
      if (servers.length === n) {
        console.log(servers.map((s) => s.address().port).join("\n"));
        servers.forEach((s) => s.close());
        return;
      }
      const s = net.createServer();
      s.listen(0, "127.0.0.1", () => { servers.push(s); next(); });
    };
    next();
  ' "$1"
}

cp_alive() { [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null; }

# cp_wait NAME PID LOG TIMEOUT_S CMD...: runs CMD until it succeeds; fails early when PID exits.
cp_wait() {
  local name="$1" pid="$2" logf="$3" timeout="$4" start
  shift 4
  start=$(date +%s)
  until "$@" >/dev/null 2>&1; do
    if ! cp_alive "$pid"; then
      cp_log "$name exited before it was ready; last lines of $logf:"
      tail -n 40 "$logf" >&2 || true
      return 1
    fi
    if [ $(($(date +%s) - start)) -ge "$timeout" ]; then
      cp_log "$name not ready after ${timeout}s; last lines of $logf:"
      tail -n 40 "$logf" >&2 || true
      return 1
    fi
    sleep 0.5
  done
  cp_log "$name ready after $(($(date +%s) - start))s"
}

# cp_stop NAME PIDFILE: SIGTERM, up to 20 s grace, then SIGKILL; removes the pid file.
cp_stop() {
  local name="$1" pidfile="$2" pid i
  [ -f "$pidfile" ] || return 0
  pid=$(cat "$pidfile")
  if cp_alive "$pid"; then
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 40; i++)); do cp_alive "$pid" || break; sleep 0.5; done
    if cp_alive "$pid"; then
      cp_log "$name ($pid) ignored SIGTERM; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    cp_log "stopped $name ($pid)"
  fi
  rm -f "$pidfile"
}

# cp_new_ca DIR NAME CN: a self-signed CA DIR/NAME.{crt,key}.
cp_new_ca() {
  local dir="$1" name="$2"
  openssl ecparam -name prime256v1 -genkey -noout -out "$dir/$name.key.tmp" 2>/dev/null
  openssl pkcs8 -topk8 -nocrypt -in "$dir/$name.key.tmp" -out "$dir/$name.key"
  rm -f "$dir/$name.key.tmp"
  openssl req -x509 -new -key "$dir/$name.key" -sha256 -days 3650 -subj "/CN=$3" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign,digitalSignature" \
    -out "$dir/$name.crt" 2>/dev/null
}

# cp_sign DIR NAME SUBJECT EXT [CA]: a key and a certificate signed by DIR/CA.{crt,key} (CA: ca).
cp_sign() {
  local dir="$1" name="$2" subject="$3" ext="$4" ca="${5:-ca}"
  openssl ecparam -name prime256v1 -genkey -noout -out "$dir/$name.key.tmp" 2>/dev/null
  openssl pkcs8 -topk8 -nocrypt -in "$dir/$name.key.tmp" -out "$dir/$name.key"
  rm -f "$dir/$name.key.tmp"
  openssl req -new -key "$dir/$name.key" -subj "$subject" -out "$dir/$name.csr" 2>/dev/null
  printf '%s\n' "$ext" >"$dir/$name.ext"
  openssl x509 -req -in "$dir/$name.csr" -CA "$dir/$ca.crt" -CAkey "$dir/$ca.key" -CAcreateserial \
    -days 3650 -sha256 -extfile "$dir/$name.ext" -out "$dir/$name.crt" 2>/dev/null
  rm -f "$dir/$name.csr" "$dir/$name.ext"
}
