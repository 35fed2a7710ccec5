# Shared helpers for the test-server start/stop scripts (sourced, not run).
#
# A server is known by a NAME; its files live in $MCP_TEST_RUN_DIR (default
# tests/servers/.run, git-ignored): NAME.pid, NAME.port, NAME.log.
# Stopping kills exactly the PID that start recorded, after checking that the
# process still runs the command it was started with (guards against PID reuse).

servers_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
run_dir="${MCP_TEST_RUN_DIR:-$servers_dir/.run}"

# start_bg NAME MARKER CMD...: run CMD in the background with stdin from
# /dev/null and output to NAME.log, record its PID, wait (at most 30 s) until
# the server has written NAME.port, print http://127.0.0.1:PORT/mcp.
# MARKER is a string that must appear in the process's command line.
start_bg() {
  local name=$1 marker=$2; shift 2
  mkdir -p "$run_dir"
  local pid_file="$run_dir/$name.pid" port_file="$run_dir/$name.port" log_file="$run_dir/$name.log"
  if [ -f "$pid_file" ] && is_ours "$(cat "$pid_file")" "$marker"; then
    echo "$name is already running (pid $(cat "$pid_file")); stop it first" >&2
    return 1
  fi
  rm -f "$pid_file" "$port_file"
  "$@" </dev/null >"$log_file" 2>&1 &
  local pid=$!
  echo "$pid" >"$pid_file"
  local i
  for i in $(seq 1 300); do
    if [ -s "$port_file" ]; then
      echo "http://127.0.0.1:$(cat "$port_file")/mcp"
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "$name exited during start-up; its log ($log_file):" >&2
      cat "$log_file" >&2
      rm -f "$pid_file"
      return 1
    fi
    sleep 0.1
  done
  echo "$name did not report a port within 30 s; stopping pid $pid" >&2
  stop_named "$name" "$marker"
  return 1
}

# is_ours PID MARKER: the process exists and its command line contains MARKER.
is_ours() {
  local pid=$1 marker=$2
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$marker"
}

# stop_named NAME MARKER: TERM the recorded PID, KILL it after 5 s, remove the files.
stop_named() {
  local name=$1 marker=$2
  local pid_file="$run_dir/$name.pid"
  if [ ! -f "$pid_file" ]; then
    echo "$name: not running (no $pid_file)"
    return 0
  fi
  local pid
  pid="$(cat "$pid_file")"
  if is_ours "$pid" "$marker"; then
    kill -TERM "$pid" 2>/dev/null || true
    local i
    for i in $(seq 1 50); do
      is_ours "$pid" "$marker" || break
      sleep 0.1
    done
    if is_ours "$pid" "$marker"; then
      kill -KILL "$pid" 2>/dev/null || true
    fi
    echo "$name: stopped pid $pid"
  else
    echo "$name: pid $pid is no longer running $marker; nothing to kill"
  fi
  rm -f "$pid_file" "$run_dir/$name.port"
}
