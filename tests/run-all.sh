#!/usr/bin/env bash
# Every test of mcp-edge, in one command (CI runs exactly this through .ci/run):
#
#   bash tests/run-all.sh                 # all stages, in order
#   bash tests/run-all.sh fmt clippy      # only the named stages (in the order given)
#   SKIP_STAGES="fuzz install" bash tests/run-all.sh
#   FUZZ_SECONDS=120 bash tests/run-all.sh fuzz
#
# Works on a fresh Debian 12 machine with rustup (stable), Node 20 and Python 3 (the `install` stage
# brings the rest, see scripts/install.sh) and is fast on a warm one (installs are skipped when
# the exact version is present; cargo builds are incremental).
#
# Adding a stage: write a `stage_<name>` function below and add <name> to STAGES. A stage fails by
# returning non-zero. Counting: every `test result:` line (cargo test, wasm-bindgen-test-runner) adds
# its passed/failed numbers; a stage may also print `check passed: <what>` / `check FAILED: <what>`
# lines, each counted as one passed / failed check. A failing stage that printed no failed count counts as one failure. The run stops
# at the first failing stage, prints a timing summary and ends with the line `N passed, M failed`.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export CARGO_TERM_COLOR=never
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export MCP_EDGE_LOG_DIR="$ROOT/target/ci-logs"
LOG_DIR="$MCP_EDGE_LOG_DIR"
# A fresh clone builds everything once: incremental caches only cost disk there (docs/testing.md,
# "Disk"). A developer's machine keeps Cargo's default.
if [ -n "${CI:-}" ]; then export CARGO_INCREMENTAL=0; fi
mkdir -p "$LOG_DIR"

FUZZ_SECONDS="${FUZZ_SECONDS:-20}"
WASM_TARGET=wasm32-unknown-unknown

STAGES=(
    install
    fmt
    clippy
    clippy_wasm
    clippy_component
    test_native
    docs
    wasm_pack
    wasm_imports
    package
    crate_package
    types
    transport
    client_e2e
    soak
    auth_e2e
    conformance
    harness
    browser
    browser_auth
    bench_smoke
    edge
    component
    fuzz
)

check_passed() { echo "check passed: $*"; }

# ---- stages --------------------------------------------------------------------------------------

stage_install() {
    bash scripts/install.sh
    rustc --version
    node --version
    check_passed "toolchain installed"
}

stage_fmt() {
    cargo fmt --all --check
    cargo fmt --manifest-path tests/fuzz/Cargo.toml --check
    check_passed "cargo fmt --check (crate and fuzz targets)"
}

stage_clippy() {
    cargo clippy --workspace --all-targets -- -D warnings
    check_passed "cargo clippy --workspace --all-targets (native, with the harness)"
    # The core without the pool and the validator (the client build's features).
    cargo clippy --lib --no-default-features -- -D warnings
    check_passed "cargo clippy --lib --no-default-features (native)"
}

# The WASI component glue only compiles for wasm32-wasip2 with the `component` feature.
stage_clippy_component() {
    cargo clippy --target wasm32-wasip2 --features component --lib -- -D warnings
    check_passed "cargo clippy --target wasm32-wasip2 --features component"
}

# The browser/worker code (wasm-bindgen, fetch transport) only compiles for wasm32: lint it there too.
stage_clippy_wasm() {
    cargo clippy --all-targets --target "$WASM_TARGET" -- -D warnings
    check_passed "cargo clippy --all-targets --target $WASM_TARGET"
    # The client build (no pool, adapters, validator or app host), and each feature alone.
    local f
    for f in "" pool validate apps; do
        cargo clippy --lib --target "$WASM_TARGET" --no-default-features ${f:+--features "$f"} -- -D warnings
        check_passed "cargo clippy --lib --target $WASM_TARGET --no-default-features${f:+ --features $f}"
    done
}

stage_test_native() {
    cargo test --all-targets
    # Doc tests are not part of --all-targets.
    cargo test --doc
    # The layering rules of docs/architecture.md against every `use crate::…` in src/.
    cargo test -p mcp-edge-layering
}

# `cargo doc` with warnings as errors, natively and for wasm32 (where the Rust API lives; its
# examples are compiled as doc tests by the wasm_pack stage).
stage_docs() {
    RUSTDOCFLAGS="-D warnings" cargo doc --no-deps
    check_passed "cargo doc --no-deps, -D warnings (native)"
    RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --target "$WASM_TARGET"
    check_passed "cargo doc --no-deps, -D warnings ($WASM_TARGET)"
}

# Every wasm suite (the library's unit tests, each tests/*.rs, the doc examples) with plain
# `wasm-pack test --headless --chrome` and `wasm-pack test --node` at the root, the local servers
# up; each run must run every suite, none skipped. First, without the servers, the suites that
# need them must fail naming this command. See tests/wasm/run-wasm-pack.sh.
stage_wasm_pack() {
    bash tests/wasm/run-wasm-pack.sh
}

# The wasm module must import nothing from `env`: hosts (browsers, workers, edge isolates) have none.
stage_wasm_imports() {
    cargo build --lib --release --target "$WASM_TARGET"
    node tests/tools/check-wasm-imports.mjs --self-test
    node tests/tools/check-wasm-imports.mjs "target/$WASM_TARGET/release/mcp_edge.wasm"
    check_passed "no env imports in the $WASM_TARGET module"
}

# The npm package for the web, bundler and nodejs targets: name, declarations, sizes; and the
# client build (--no-default-features) for the web: no pool declared or exported, its size.
stage_package() {
    bash tests/tools/check-package.sh
}

# The crates.io package: its file list and `cargo publish --dry-run`.
stage_crate_package() {
    bash tests/tools/check-crate.sh
}

# The hand-written TypeScript declarations: tsc --strict against a typed program that uses every
# declared member, option and event, which then runs in Node against the real servers; the values it
# gets back are compiled against their declared types; McpErrorCode matches the Rust codes.
stage_types() {
    bash tests/types/run.sh
}

# The fetch transport against a real loopback server in a Chromium dedicated worker (the page and
# Node runs are part of wasm_pack).
stage_transport() {
    bash tests/servers/fixture/run-transport-tests.sh worker
}

# McpClient and McpPool end to end against server-everything, the Python 2026/2025 server and the
# misbehaving fixture, in a Chromium dedicated worker (the page and Node runs are part of
# wasm_pack), and the pool example (tests/demo/pool-example.mjs).
stage_client_e2e() {
    bash tests/wasm/run-client-tests.sh worker
}

# The fault-injection soak: 1,000 tool calls through McpPool in Node and 200 in headless Chromium,
# to servers of both eras behind a proxy that breaks, stalls, throttles and corrupts their
# responses; no call may hang, lose its result, run twice or fail without a typed error.
stage_soak() {
    bash tests/soak/run.sh
}

# OAuth end to end in Node: McpClient and McpPool against a real authorization server
# (oidc-provider) and protected MCP servers of both eras (authorization code with the person's
# pages filled in over HTTP, refresh rotation, signIn / completeAuthorization, client credentials
# with a secret and ES256, redaction of every secret of the run).
stage_auth_e2e() {
    bash tests/auth/run.sh
}

# The official MCP conformance suite (client scenarios, both required sets); the Tasks extension
# fixture and the suite's tasks-* server scenarios against it.
stage_conformance() {
    bash tests/conformance/run.sh
    # The Tasks extension has no published server: the loopback fixture the 2026 task tests use
    # is checked against the ext-tasks text, and the pinned suite's tasks-* server scenarios (not
    # scored by the suite; it has no client scenario for tasks) are run against it.
    local line
    line=$(node tests/servers/tasks2026/check.mjs | tail -1)
    if [[ "$line" =~ ^[0-9]+\ passed,\ 0\ failed$ ]]; then
        check_passed "tasks2026 fixture follows ext-tasks: $line"
    else
        echo "check FAILED: tasks2026 fixture: $line"
    fi
    if node tests/servers/tasks2026/conformance.mjs; then
        check_passed "conformance tasks-* server scenarios pass against the tasks2026 fixture"
    else
        echo "check FAILED: conformance tasks-* server scenarios against the tasks2026 fixture"
    fi
}

# stdio parity: the same scenarios over stdio and native HTTP, transcripts compared.
stage_harness() {
    bash tests/harness/run-parity.sh
}

# The playground page in headless Chromium (Playwright).
stage_browser() {
    bash tests/browser/run.sh
}

# Sign-in in a browser page (headless Chromium, popup blocker on) against oidc-provider and
# protected servers of both eras: popup (also under COOP), blocked popup, full-page redirect,
# CORS-less token endpoint and a relay, two tabs sharing a rotating refresh token, the playground.
stage_browser_auth() {
    bash tests/browser-auth/run.sh
}

# The side-by-side benchmark (tests/bench/run.sh) in its smoke mode: tiny sizes, one round. It
# checks that both clients still build, load and deliver every event and echo in both eras; the
# figures come from a full `bash tests/bench/run.sh`, never from CI.
stage_bench_smoke() {
    bash tests/bench/run.sh --smoke
    check_passed "benchmark smoke run (mcp-edge and the SDK, both eras, every measurement)"
}

# The edge agent template in real workerd (routes, the 6-request cap, snapshot across isolate
# starts) and the pool in a Chromium dedicated worker.
stage_edge() {
    bash tests/edge/run.sh
}

# The WASI component through its WIT interface in two hosts (jco and wasmtime), against servers of
# both eras: client, pool (export bytes equal to the JS McpPool's), host input, standing streams.
stage_component() {
    bash tests/component/run.sh
    # The wasmtime host's build (about 1 GB) is needed by no later stage; a fresh clone frees it.
    if [ -n "${CI:-}" ]; then rm -rf tests/component/wasmtime-host/target; fi
}

# Fuzz smoke: each cargo-fuzz target for FUZZ_SECONDS, starting from the committed seeds plus the
# corpus grown by earlier local runs (tests/fuzz/corpus, git-ignored). cargo-fuzz needs unstable
# rustc flags (sanitizers, coverage passes): RUSTC_BOOTSTRAP=1 enables them on the stable toolchain,
# on which every test runs (only release packages use the pinned nightly of build-package.sh).
stage_fuzz() {
    export RUSTC_BOOTSTRAP=1
    local dir=tests/fuzz t log failed=()
    cargo fuzz build --fuzz-dir "$dir"
    local targets
    targets="$(cargo fuzz list --fuzz-dir "$dir")"
    # Every target runs even after one fails, so one run reports all of them.
    for t in $targets; do
        log="$LOG_DIR/fuzz-$t.log"
        mkdir -p "$dir/corpus/$t" "$dir/seeds/$t"
        echo "fuzz $t: ${FUZZ_SECONDS}s (log: ${log#"$ROOT"/})"
        if ! cargo fuzz run --fuzz-dir "$dir" "$t" "$dir/corpus/$t" "$dir/seeds/$t" -- \
            -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
            >"$log" 2>&1; then
            grep -m1 -A3 -E "panicked at|ERROR: libFuzzer|==ERROR" "$log" || tail -n 30 "$log"
            grep -E "^artifact_prefix|Test unit written to" "$log" || true
            echo "check FAILED: fuzz $t; replay: RUSTC_BOOTSTRAP=1 cargo fuzz run --fuzz-dir $dir $t <artifact file>"
            failed+=("$t")
            continue
        fi
        grep -E '^Done [0-9]+ runs' "$log" | sed "s/^/  $t: /"
        grep -E '^stat::(number_of_executed_units|new_units_added|peak_rss_mb)' "$log" | sed "s/^/  $t: /"
        check_passed "fuzz $t (${FUZZ_SECONDS}s, no crash)"
    done
    ((${#failed[@]} == 0)) || {
        echo "fuzz targets failed: ${failed[*]}" >&2
        return 1
    }
}

# ---- runner --------------------------------------------------------------------------------------

TOTAL_PASSED=0
TOTAL_FAILED=0
STAGE_RC=0
SUMMARY=()

# count_results <log>: prints "<passed> <failed>" from test-result and check lines.
count_results() {
    awk '
        /^test result:/ {
            for (i = 1; i < NF; i++) {
                if ($(i+1) ~ /^passed;?$/) p += $i
                if ($(i+1) ~ /^failed;?$/) f += $i
            }
        }
        /^# pass [0-9]+$/ { p += $3 }
        /^# fail [0-9]+$/ { f += $3 }
        /^conformance: [0-9]+ passed, [0-9]+ failed/ { p += $2; f += $4 }
        /^check passed: / { p += 1 }
        /^check FAILED: / { f += 1 }
        END { print p + 0, f + 0 }
    ' "$1"
}

print_summary() {
    echo
    echo "==== summary ===="
    printf '%-14s %-6s %8s %8s %8s\n' stage result seconds passed failed
    local line
    for line in "${SUMMARY[@]}"; do
        # shellcheck disable=SC2086
        printf '%-14s %-6s %8s %8s %8s\n' $line
    done
    echo "total: $((SECONDS - RUN_START)) s; logs in ${LOG_DIR#"$ROOT"/}"
    echo "$TOTAL_PASSED passed, $TOTAL_FAILED failed"
}

run_stage() {
    local name="$1" index="$2" count="$3"
    local log="$LOG_DIR/stage-$name.log" start rc=0 passed failed
    echo
    echo "==== [$index/$count] $name ===="
    start=$SECONDS
    set +e
    (
        set -euo pipefail
        "stage_$name"
    ) 2>&1 | tee "$log"
    rc="${PIPESTATUS[0]}"
    set -e
    read -r passed failed < <(count_results "$log")
    if ((rc != 0 && failed == 0)); then
        failed=1
    fi
    TOTAL_PASSED=$((TOTAL_PASSED + passed))
    TOTAL_FAILED=$((TOTAL_FAILED + failed))
    local result=ok
    ((rc == 0)) || result=FAILED
    SUMMARY+=("$name $result $((SECONDS - start)) $passed $failed")
    echo "---- $name: $result in $((SECONDS - start)) s ($passed passed, $failed failed)"
    STAGE_RC=$rc
}

main() {
    local selected=("$@") skip=" ${SKIP_STAGES:-} " s
    if ((${#selected[@]} == 0)); then
        selected=("${STAGES[@]}")
    fi
    for s in "${selected[@]}"; do
        if ! declare -F "stage_$s" >/dev/null; then
            echo "run-all.sh: unknown stage '$s' (stages: ${STAGES[*]})" >&2
            exit 2
        fi
    done
    local run=()
    for s in "${selected[@]}"; do
        [[ "$skip" == *" $s "* ]] || run+=("$s")
    done
    RUN_START=$SECONDS
    echo "mcp-edge run-all: stages: ${run[*]}"
    local i=0
    for s in "${run[@]}"; do
        i=$((i + 1))
        # Not `if ! run_stage`: bash ignores `set -e` in everything a condition runs, even in
        # the subshell that turns it on again, so a failing command in the middle of a stage
        # would go unnoticed.
        run_stage "$s" "$i" "${#run[@]}"
        if ((STAGE_RC != 0)); then
            echo "stage $s failed; stopping" >&2
            print_summary
            exit 1
        fi
    done
    print_summary
}

main "$@"
