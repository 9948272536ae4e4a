# What scripts/local-apiserver.sh and scripts/local-cluster.sh both do with their daemons and
# certificates. Sourced, not run; the caller defines log, and sets STATE_DIR (every daemon's command
# line names it: that is how a PID is known to be ours), PID_DIR and LOGS.
#
#   spawn NAME COMMAND...      start a daemon detached (own session, no inherited descriptors),
#                              its output appended to $LOGS/NAME.log, its PID in $PID_DIR/NAME.pid
#   running_pid NAME           the PID in the file if that process is still ours (a recycled PID is not)
#   stop_pid NAME PID [SECS]   TERM, then KILL after SECS (default 10), waits until it is gone
#   stop_process NAME [SECS]   stop_pid on NAME's PID file, if running; removes the file
#   pki_ca CN                  ca.key and ca.crt in the current directory
#   pki_cert NAME SUBJECT EXTENSION...  NAME.key and NAME.crt signed by that CA (openssl -subj, -extfile lines)
#   pki_sa_keys                sa.key and sa.pub: the service-account token signing keys

spawn() {
  local name=$1
  shift
  setsid "$@" </dev/null >>"$LOGS/$name.log" 2>&1 &
  echo $! >"$PID_DIR/$name.pid"
}

running_pid() {
  local name=$1 pid
  [ -f "$PID_DIR/$name.pid" ] || return 1
  pid=$(cat "$PID_DIR/$name.pid")
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "$STATE_DIR" || return 1
  echo "$pid"
}

stop_pid() {
  local name=$1 pid=$2 seconds=${3:-10} i
  kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 1 $((seconds * 10))); do
    [ -d "/proc/$pid" ] || break
    sleep 0.1
  done
  if [ -d "/proc/$pid" ]; then
    log "$name (PID $pid) did not stop within $seconds s; killing it"
    kill -KILL "$pid" 2>/dev/null || true
    while [ -d "/proc/$pid" ]; do sleep 0.1; done
  fi
}

stop_process() {
  local name=$1 pid
  if pid=$(running_pid "$name"); then
    stop_pid "$name" "$pid" "${2:-10}"
    log "stopped $name (PID $pid)"
  fi
  rm -f "$PID_DIR/$name.pid"
}

pki_ca() {
  openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 3650 -keyout ca.key -out ca.crt -subj "/CN=$1" 2>/dev/null
}

pki_cert() {
  local name=$1 subject=$2
  shift 2
  openssl req -newkey rsa:2048 -nodes -sha256 -keyout "$name.key" -out "$name.csr" -subj "$subject" 2>/dev/null
  printf '%s\n' "$@" >"$name.ext"
  openssl x509 -req -sha256 -days 3650 -in "$name.csr" -CA ca.crt -CAkey ca.key -CAcreateserial \
    -extfile "$name.ext" -out "$name.crt" 2>/dev/null
  rm -f "$name.csr" "$name.ext"
}

pki_sa_keys() {
  openssl genrsa -out sa.key 2048 2>/dev/null
  openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
}
