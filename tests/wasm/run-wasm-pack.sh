#!/usr/bin/env bash
# Every wasm test suite of the crate, run the way a Rust developer runs them: plain
# `wasm-pack test --headless --chrome` and `wasm-pack test --node` at the repository root, with
# the local servers up (server-everything, the Python 2026/2025 server, the misbehaving fixture;
# their URLs are compiled into the suites that need them).
#
#   missing  the suites that need servers, built WITHOUT their URLs, must fail and name the test
#            command (never pass or skip silently)
#   chrome   `wasm-pack test --headless --chrome`: every suite in a headless Chromium page
#   node     `wasm-pack test --node`: every suite in Node
#
# Each run must run every suite (the library's unit tests, each tests/*.rs and the doc examples),
# skip none, ignore none and fail none. Usage: run-wasm-pack.sh [missing|chrome|node]...  (default: all three)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
# A suite (e.g. the 4,000-notification burst in a debug build) may take longer than the
# runner's 20 s default on a loaded 2-core machine.
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-120}"
log_dir="${MCP_EDGE_LOG_DIR:-$root/target/ci-logs}"
mkdir -p "$log_dir"
runs=("$@")
[ ${#runs[@]} -eq 0 ] && runs=(missing chrome node)

# What the message of a server-less run must name: the test command (docs/testing.md).
test_command="bash tests/run-all.sh wasm_pack"
url_vars=(MCP_EDGE_EVERYTHING_URL MCP_EDGE_PY2026_URL MCP_EDGE_PY2026_ADMIN_URL
  MCP_EDGE_FIXTURE_URL MCP_EDGE_FIXTURE_NOCORS_URL MCP_EDGE_FIXTURE_DEAD_URL MCP_EDGE_EXPECT_SCOPE
  MCP_EDGE_AUTH_ISSUER MCP_EDGE_AUTH_PY_URL MCP_EDGE_AUTH_CC_ID MCP_EDGE_AUTH_CC_SECRET)
# Runner variables a caller's shell might carry; they would move suites elsewhere.
mode_vars=(WASM_BINDGEN_USE_BROWSER WASM_BINDGEN_USE_DEDICATED_WORKER WASM_BINDGEN_USE_NODE_EXPERIMENTAL
  WASM_BINDGEN_TEST_ONLY_WEB WASM_BINDGEN_TEST_ONLY_NODE)
unset "${mode_vars[@]}"

# Suites every run must report: the library's unit tests and each integration test file.
expected_suites=$((1 + $(find tests -maxdepth 1 -name '*.rs' | wc -l)))

status=0
fail() {
  echo "check FAILED: $*"
  status=1
}

# check_run <log> <what>: every suite ran, none skipped, nothing ignored or failed.
check_run() {
  local log="$1" what="$2" suites skipped results doc_suites
  suites=$(grep -cE '^ +Running (unittests|tests/)' "$log" || true)
  skipped=$(grep -cE 'only configured to run in|no tests to run' "$log" || true)
  read -r passed failed ignored < <(awk '/^test result:/ {
      for (i = 1; i < NF; i++) {
        if ($(i+1) ~ /^passed;?$/) p += $i
        if ($(i+1) ~ /^failed;?$/) f += $i
        if ($(i+1) ~ /^ignored;?$/) g += $i
      } } END { print p + 0, f + 0, g + 0 }' "$log")
  # A test whose future never settles ends Node's event loop: the runner exits 0 mid-suite,
  # without the suite's `test result:` line. Every suite that started, and the doc tests, must
  # have reported.
  results=$(grep -cE '^test result:' "$log" || true)
  doc_suites=$(grep -cE '^ +Doc-tests ' "$log" || true)
  if ((suites != expected_suites)); then
    fail "$what: $suites of $expected_suites suites ran (log: ${log#"$root"/})"
  elif ((doc_suites != 1)); then
    fail "$what: the doc examples did not run (no Doc-tests line; log: ${log#"$root"/})"
  elif ((results != suites + doc_suites)); then
    fail "$what: $((suites + doc_suites - results)) of $((suites + doc_suites)) suites ended without a result (a test that never settled?) (log: ${log#"$root"/})"
  elif ((skipped > 0)); then
    fail "$what: $skipped suites were skipped"
  elif ((failed > 0 || ignored > 0 || passed == 0)); then
    fail "$what: $passed passed, $failed failed, $ignored ignored"
  else
    echo "check passed: $what ran all $suites suites: $passed tests, 0 skipped, 0 ignored, 0 failed"
  fi
}

run_missing() {
  local log="$log_dir/wasm-pack-missing.log" rc=0
  echo "== server suites without servers (wasm-pack test --node): must fail naming the test command"
  : >"$log"
  local suite unset_urls=() v
  for v in "${url_vars[@]}"; do unset_urls+=(-u "$v"); done
  for suite in rust_app transport_fetch; do
    env "${unset_urls[@]}" wasm-pack --log-level warn test --node -- --test "$suite" >>"$log" 2>&1 || rc=$?
  done
  local named failed_suites
  named=$(grep -c "$test_command" "$log" || true)
  failed_suites=$(grep -c '^test result: FAILED' "$log" || true)
  if ((rc == 0)); then
    fail "the server suites passed without servers (log: ${log#"$root"/})"
  elif ((failed_suites != 2)); then
    fail "$failed_suites of the 2 server suites failed without servers (log: ${log#"$root"/})"
  elif ((named == 0)); then
    fail "the server suites failed without naming '$test_command' (log: ${log#"$root"/})"
  else
    # The failing tests' messages, once each, as a user sees them.
    grep -h "was not set at compile time\|not compiled in" "$log" | sort -u | sed 's/^ */  /' || true
    echo "check passed: without servers the server suites fail ($named messages name '$test_command')"
  fi
}

# shellcheck source=tests/wasm/servers.sh
. "$here/servers.sh"
start_servers() {
  [ -n "${wasm_test_servers_started:-}" ] || start_wasm_test_servers
}
trap stop_wasm_test_servers EXIT

for run in "${runs[@]}"; do
  case "$run" in
    missing) run_missing ;;
    chrome)
      start_servers
      log="$log_dir/wasm-pack-chrome.log"
      echo "== wasm-pack test --headless --chrome (every suite, headless Chromium)"
      wasm-pack --log-level warn test --headless --chrome 2>&1 | tee "$log" || true
      check_run "$log" "wasm-pack test --headless --chrome"
      ;;
    node)
      start_servers
      log="$log_dir/wasm-pack-node.log"
      echo "== wasm-pack test --node (every suite, Node)"
      wasm-pack --log-level warn test --node 2>&1 | tee "$log" || true
      check_run "$log" "wasm-pack test --node"
      ;;
    *)
      echo "unknown run $run (missing|chrome|node)" >&2
      exit 2
      ;;
  esac
done
exit $status
