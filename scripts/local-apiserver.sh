#!/usr/bin/env bash
# A real kube-apiserver and etcd on loopback for Kubeloop's end-to-end tests (docs/testing.md).
#
# kube-apiserver is built once from the Kubernetes source in Debian's archive (source package
# `kubernetes`, 1.20) and cached; etcd comes from Debian's `etcd-server`. Nothing else runs: no
# controller-manager (no garbage collector, namespace or token controller), no scheduler, no
# kubelet. Everything binds 127.0.0.1 only.
#
#   scripts/local-apiserver.sh build      build and cache kube-apiserver (no-op when cached by the
#                                         current recipe: scripts/lib/kubernetes-build.sh)
#   scripts/local-apiserver.sh start [--audit]
#                                         start etcd and kube-apiserver (builds first if needed),
#                                         wait until ready, write the kubeconfig; --audit (or
#                                         KUBELOOP_APISERVER_AUDIT=1) also writes an audit log: one
#                                         JSON line per request (Metadata level: user, user agent,
#                                         verb, resource, subresource, namespace, name, response
#                                         code), for counting writes and 409s whoever the client is.
#                                         A running kube-apiserver without it is restarted with it;
#                                         a plain start turns it off the next time it starts one
#   scripts/local-apiserver.sh stop       stop both by PID (state kept: a later start resumes it)
#   scripts/local-apiserver.sh stop-apiserver
#                                         stop kube-apiserver only (etcd keeps running; start
#                                         brings it back on the same etcd and port)
#   scripts/local-apiserver.sh restart [--compact]
#                                         stop kube-apiserver only and start it again on the same
#                                         etcd and port; --compact moves etcd's revision on and
#                                         compacts it while the apiserver is down, so every
#                                         resourceVersion a client holds has expired (410 Gone)
#   scripts/local-apiserver.sh status     what runs, where, and the log files
#   scripts/local-apiserver.sh env        prints `export KUBECONFIG=...`
#   scripts/local-apiserver.sh kubeconfig prints the kubeconfig's path
#   scripts/local-apiserver.sh audit-log  prints the audit log's path (fails unless started with --audit)
#   scripts/local-apiserver.sh etcd-get KEY   print the value etcd stores under KEY (what the API
#                                         server wrote, e.g. the version an object is stored in)
#   scripts/local-apiserver.sh clean      stop and delete the state (etcd data, certs, tokens)
#
# Environment:
#   KUBELOOP_CACHE_DIR      binary cache (default ${XDG_CACHE_HOME:-~/.cache}/kubeloop)
#   KUBELOOP_APISERVER_DIR  state: etcd data, certificates, tokens, logs, PIDs, kubeconfig
#                           (default <repository>/target/local-apiserver, one per checkout)
#   KUBELOOP_APISERVER_PORT secure port (default: a free port, chosen once and then kept)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE_DIR=${KUBELOOP_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kubeloop}
STATE_DIR=${KUBELOOP_APISERVER_DIR:-$ROOT/target/local-apiserver}
BIN_DIR=$CACHE_DIR/bin
APISERVER_BIN=$BIN_DIR/kube-apiserver

PKI=$STATE_DIR/pki
LOGS=$STATE_DIR/logs
KUBECONFIG_FILE=$STATE_DIR/kubeconfig
AUDIT_POLICY=$STATE_DIR/audit-policy.yaml
AUDIT_LOG=$LOGS/audit.log
AUDIT_MARKER=$STATE_DIR/audit.on   # present while kube-apiserver is (to be) started with the audit log

RUNTIME_PACKAGES=(etcd-server etcd-client openssl curl)
READY_TIMEOUT=${KUBELOOP_APISERVER_READY_TIMEOUT:-90}

log() { printf '[local-apiserver] %s\n' "$*" >&2; }
die() { printf '[local-apiserver] error: %s\n' "$*" >&2; exit 1; }

PID_DIR=$STATE_DIR
# shellcheck source=lib/kubernetes-build.sh
. "$ROOT/scripts/lib/kubernetes-build.sh"
# shellcheck source=lib/local-node.sh
. "$ROOT/scripts/lib/local-node.sh"

# --- build -----------------------------------------------------------------------------------

cmd_build() { kube_build kube-apiserver; }

# --- state: ports, certificates, tokens ------------------------------------------------------

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

free_port() {
  local port tries=0
  while [ $tries -lt 200 ]; do
    port=$((20000 + RANDOM % 12000))
    if ! port_in_use "$port" && ! grep -qx "$port" "$STATE_DIR/ports.taken" 2>/dev/null; then
      echo "$port" >>"$STATE_DIR/ports.taken"
      echo "$port"
      return 0
    fi
    tries=$((tries + 1))
  done
  die "no free loopback port found"
}

# Ports are chosen once and kept in the state, so that a restart serves the same URL.
ensure_ports() {
  if [ ! -f "$STATE_DIR/ports" ]; then
    : >"$STATE_DIR/ports.taken"
    local api=${KUBELOOP_APISERVER_PORT:-}
    [ -n "$api" ] || api=$(free_port)
    printf 'APISERVER_PORT=%s\nETCD_PORT=%s\nETCD_PEER_PORT=%s\n' "$api" "$(free_port)" "$(free_port)" >"$STATE_DIR/ports"
  fi
  # shellcheck disable=SC1091
  . "$STATE_DIR/ports"
}

ensure_pki() {
  [ -f "$PKI/serving.crt" ] && [ -f "$PKI/sa.key" ] && return 0
  mkdir -p "$PKI"
  chmod 700 "$PKI"
  log "creating certificates and service-account keys in $PKI"
  (
    cd "$PKI"
    pki_ca kubeloop-local-apiserver-ca
    pki_cert serving /CN=kube-apiserver \
      "subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc" \
      "extendedKeyUsage=serverAuth" "keyUsage=digitalSignature,keyEncipherment"
    pki_sa_keys
  )
}

# One static token: an admin in system:masters. Tests that need a narrower identity ask the
# TokenRequest API for a real ServiceAccount token (the apiserver signs it itself; no token
# controller needed).
ensure_tokens() {
  [ -f "$STATE_DIR/tokens.csv" ] && return 0
  local token
  token=$(openssl rand -hex 32)
  umask 077
  printf '%s,kubeloop-admin,kubeloop-admin,"system:masters"\n' "$token" >"$STATE_DIR/tokens.csv"
  echo "$token" >"$STATE_DIR/admin.token"
}

admin_token() { cat "$STATE_DIR/admin.token"; }

write_kubeconfig() {
  local ca
  ca=$(base64 -w0 <"$PKI/ca.crt")
  umask 077
  cat >"$KUBECONFIG_FILE.tmp" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: kubeloop-local
  cluster:
    server: https://127.0.0.1:$APISERVER_PORT
    certificate-authority-data: $ca
users:
- name: kubeloop-admin
  user:
    token: $(admin_token)
contexts:
- name: kubeloop-local
  context:
    cluster: kubeloop-local
    user: kubeloop-admin
    namespace: default
current-context: kubeloop-local
EOF
  mv "$KUBECONFIG_FILE.tmp" "$KUBECONFIG_FILE"
}

# --- processes ---------------------------------------------------------------------------------

etcd_endpoint() { echo "http://127.0.0.1:$ETCD_PORT"; }

etcdctl_() { ETCDCTL_API=3 etcdctl --endpoints="$(etcd_endpoint)" --command-timeout=10s "$@"; }

start_etcd() {
  running_pid etcd >/dev/null && return 0
  mkdir -p "$STATE_DIR/etcd"
  chmod 700 "$STATE_DIR/etcd"
  spawn etcd etcd --name kubeloop --data-dir "$STATE_DIR/etcd" \
    --listen-client-urls "$(etcd_endpoint)" --advertise-client-urls "$(etcd_endpoint)" \
    --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-cluster "kubeloop=http://127.0.0.1:$ETCD_PEER_PORT" \
    --listen-metrics-urls "" --logger zap --log-level warn
  local deadline=$((SECONDS + 30))
  until etcdctl_ endpoint health >/dev/null 2>&1; do
    running_pid etcd >/dev/null || { tail -n 20 "$LOGS/etcd.log" >&2; die "etcd exited (log: $LOGS/etcd.log)"; }
    [ $SECONDS -lt $deadline ] || die "etcd not healthy after 30 s (log: $LOGS/etcd.log)"
    sleep 0.2
  done
  log "etcd $(etcd_endpoint) (PID $(cat "$STATE_DIR/etcd.pid"))"
}

# Every request at the Metadata level (no bodies), once its response is complete (a watch also
# when it starts). The log backend's default mode is blocking: no event is dropped under load,
# which a count needs; batch mode drops events when its buffer is full.
write_audit_policy() {
  cat >"$AUDIT_POLICY" <<EOF
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: Metadata
EOF
}

audit_flags() {
  [ -f "$AUDIT_MARKER" ] || return 0
  write_audit_policy
  # rotation (100 MB by default) would split a measurement over two files: 4 GB, one backup
  printf '%s\n' --audit-policy-file="$AUDIT_POLICY" --audit-log-path="$AUDIT_LOG" --audit-log-format=json \
    --audit-log-maxsize=4096 --audit-log-maxbackup=1
}

start_apiserver() {
  running_pid kube-apiserver >/dev/null && return 0
  port_in_use "$APISERVER_PORT" && die "port $APISERVER_PORT is taken by another process"
  local audit
  mapfile -t audit < <(audit_flags)
  spawn kube-apiserver "$APISERVER_BIN" "${audit[@]}" \
    --etcd-servers="$(etcd_endpoint)" \
    --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="$APISERVER_PORT" \
    --insecure-port=0 \
    --cert-dir="$PKI" --tls-cert-file="$PKI/serving.crt" --tls-private-key-file="$PKI/serving.key" \
    --client-ca-file="$PKI/ca.crt" \
    --token-auth-file="$STATE_DIR/tokens.csv" \
    --authorization-mode=RBAC \
    --service-account-issuer=https://kubernetes.default.svc \
    --service-account-key-file="$PKI/sa.pub" --service-account-signing-key-file="$PKI/sa.key" \
    --service-cluster-ip-range=10.96.0.0/16 \
    --disable-admission-plugins=ServiceAccount \
    --endpoint-reconciler-type=none \
    --allow-privileged=true --profiling=false --v=1
  local deadline=$((SECONDS + READY_TIMEOUT)) code
  while true; do
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 --cacert "$PKI/ca.crt" \
      -H "Authorization: Bearer $(admin_token)" "https://127.0.0.1:$APISERVER_PORT/readyz" || true)
    [ "$code" = 200 ] && break
    running_pid kube-apiserver >/dev/null \
      || { tail -n 30 "$LOGS/kube-apiserver.log" >&2; die "kube-apiserver exited (log: $LOGS/kube-apiserver.log)"; }
    [ $SECONDS -lt $deadline ] \
      || { tail -n 30 "$LOGS/kube-apiserver.log" >&2; die "kube-apiserver not ready after $READY_TIMEOUT s (log: $LOGS/kube-apiserver.log)"; }
    sleep 0.25
  done
  log "kube-apiserver https://127.0.0.1:$APISERVER_PORT ready (PID $(cat "$STATE_DIR/kube-apiserver.pid"))"
  [ ${#audit[@]} -eq 0 ] || log "audit log: $AUDIT_LOG"
}

prepare_state() {
  mkdir -p "$STATE_DIR" "$LOGS"
  ensure_ports
  ensure_pki
  ensure_tokens
}

cmd_start() {
  local started=$SECONDS audit=false
  case "${KUBELOOP_APISERVER_AUDIT:-}" in 1 | true | on) audit=true ;; esac
  case "${1:-}" in
    --audit) audit=true ;;
    "") ;;
    *) die "unknown option for start: $1 (expected --audit)" ;;
  esac
  kube_cached kube-apiserver || cmd_build
  ensure_packages "${RUNTIME_PACKAGES[@]}"
  prepare_state
  choose_audit "$audit"
  start_etcd
  start_apiserver
  write_kubeconfig
  log "ready in $((SECONDS - started)) s; KUBECONFIG=$KUBECONFIG_FILE"
}

# Decides whether the kube-apiserver this start brings up writes the audit log. A running one is
# left alone, unless the audit log was asked for and it has none: it is restarted (etcd keeps the
# state). A plain start never turns off the audit log of a running kube-apiserver.
choose_audit() {
  local audit=$1
  if running_pid kube-apiserver >/dev/null; then
    if $audit && [ ! -f "$AUDIT_MARKER" ]; then
      log "kube-apiserver runs without the audit log: restarting it with it"
      touch "$AUDIT_MARKER"
      stop_process kube-apiserver
    fi
  elif $audit; then
    touch "$AUDIT_MARKER"
  else
    rm -f "$AUDIT_MARKER"
  fi
}

cmd_audit_log() {
  [ -f "$AUDIT_MARKER" ] || die "no audit log: kube-apiserver was not started with start --audit"
  echo "$AUDIT_LOG"
}

cmd_stop() {
  [ -d "$STATE_DIR" ] || return 0
  stop_process kube-apiserver
  stop_process etcd
}

# Moves etcd's revision past anything a client has seen and compacts it there: every
# resourceVersion held before is gone, so re-watching from one answers 410 Gone.
compact_etcd() {
  local revision
  etcdctl_ put /kubeloop-local-apiserver/compaction-marker "$(date +%s%N)" >/dev/null
  revision=$(etcdctl_ put /kubeloop-local-apiserver/compaction-marker "$(date +%s%N)" -w json \
    | grep -o '"revision":[0-9]*' | head -n1 | cut -d: -f2)
  [ -n "$revision" ] || die "could not read etcd's revision"
  etcdctl_ compact "$revision" >/dev/null
  log "etcd compacted at revision $revision"
}

cmd_stop_apiserver() {
  [ -d "$STATE_DIR" ] || return 0
  stop_process kube-apiserver
}

cmd_restart() {
  local compact=false
  [ "${1:-}" = --compact ] && compact=true
  [ -f "$STATE_DIR/ports" ] || die "nothing to restart: start it first"
  . "$STATE_DIR/ports"
  running_pid etcd >/dev/null || die "etcd is not running: use start"
  local started=$SECONDS
  stop_process kube-apiserver
  $compact && compact_etcd
  start_apiserver
  log "restarted in $((SECONDS - started)) s"
}

cmd_status() {
  if [ ! -f "$STATE_DIR/ports" ]; then
    echo "not started (state: $STATE_DIR)"
    return 3
  fi
  . "$STATE_DIR/ports"
  local rc=0 pid
  if pid=$(running_pid etcd); then echo "etcd:           running, PID $pid, $(etcd_endpoint)"; else echo "etcd:           stopped"; rc=3; fi
  if pid=$(running_pid kube-apiserver); then
    echo "kube-apiserver: running, PID $pid, https://127.0.0.1:$APISERVER_PORT"
  else
    echo "kube-apiserver: stopped"
    rc=3
  fi
  echo "binary:         $APISERVER_BIN ($(cat "$APISERVER_BIN.version" 2>/dev/null || echo 'not built'))"
  echo "kubeconfig:     $KUBECONFIG_FILE"
  if [ -f "$AUDIT_MARKER" ]; then echo "audit log:      $AUDIT_LOG"; else echo "audit log:      off"; fi
  echo "logs:           $LOGS/"
  return $rc
}

case "${1:-}" in
  build) cmd_build ;;
  start) shift; cmd_start "$@" ;;
  stop) cmd_stop ;;
  stop-apiserver) cmd_stop_apiserver ;;
  restart) shift; cmd_restart "$@" ;;
  status) cmd_status ;;
  env) echo "export KUBECONFIG=$KUBECONFIG_FILE" ;;
  kubeconfig) echo "$KUBECONFIG_FILE" ;;
  audit-log) cmd_audit_log ;;
  etcd-get)
    shift
    [ -f "$STATE_DIR/ports" ] || die "not started"
    . "$STATE_DIR/ports"
    etcdctl_ get --print-value-only "$@"
    ;;
  clean) cmd_stop; rm -rf "$STATE_DIR"; log "removed $STATE_DIR" ;;
  *)
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
