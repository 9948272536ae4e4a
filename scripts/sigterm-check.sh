#!/usr/bin/env bash
# A stop by SIGTERM under `./mvnw spring-boot:run` looks like a normal stop (issue 20): the
# application shuts down gracefully and exits 0 (kubeloop.exit-zero-on-sigterm), so Maven reports
# no BUILD FAILURE and no ERROR line. Two stops, as they happen:
#   app:   SIGTERM to the application's JVM (a process manager, an IDE stopping the process it runs):
#          Maven then ends with BUILD SUCCESS and exit code 0;
#   maven: SIGTERM to Maven's JVM (a terminal's kill, a CI job's timeout): Maven's own shutdown stops
#          the application the same way; Maven itself ends with 143, as any process killed by SIGTERM.
#
#   bash scripts/sigterm-check.sh <project directory> [maven arguments before spring-boot:run]
set -euo pipefail
dir=$1; shift
log_dir=$(mktemp -d)

run() { # maven arguments; $stop: app or maven
  local log=$log_dir/$stop.log
  # setsid: its own process group, so that nothing here signals this script
  (cd "$dir" && exec setsid ./mvnw -B "$@" spring-boot:run -Dspring-boot.run.arguments=--server.port=0) \
      > "$log" 2>&1 &
  local maven=$!
  local started=""
  for _ in $(seq 1 300); do # the first start compiles: up to 5 minutes
    if grep -q "Started .* in .* seconds" "$log"; then started=yes; break; fi
    if ! kill -0 "$maven" 2>/dev/null; then break; fi
    sleep 1
  done
  if [ -z "$started" ]; then
    echo "sigterm-check: the application did not start; $log:" >&2; tail -40 "$log" >&2; kill -9 -- "-$maven" 2>/dev/null || true
    exit 1
  fi
  local target=$maven
  if [ "$stop" = app ]; then target=$(pgrep -P "$maven" java); fi
  # what the stop printed: lines before it (a slow machine's reconcile timeouts, say) are not its doing
  local before
  before=$(wc -l < "$log")
  kill -TERM "$target"
  local code=0
  wait "$maven" || code=$?
  local after=$log_dir/$stop.after-sigterm.log
  tail -n "+$((before + 1))" "$log" > "$after"
  if grep -n "BUILD FAILURE\|\[ERROR\]\| ERROR " "$after" >&2; then
    echo "sigterm-check ($stop): error lines after a SIGTERM, in $log" >&2; exit 1
  fi
  grep -q "Kubeloop stopped" "$after" || { echo "sigterm-check ($stop): no graceful shutdown in $log" >&2; exit 1; }
  if [ "$stop" = app ]; then
    [ "$code" = 0 ] && grep -q "BUILD SUCCESS" "$after" \
        || { echo "sigterm-check (app): Maven ended with $code, not BUILD SUCCESS and 0" >&2; exit 1; }
  fi
  echo "sigterm-check ($stop): clean stop in $dir (Maven's exit code $code)"
}

stop=app run "$@"
stop=maven run "$@"
