#!/usr/bin/env bash
# The size budget: each build's shipped gzip -9 size (scripts/shipped-size.sh) against the figure
# recorded in tests/tools/size-budget.txt (one `name bytes` line per build; build `name` is the
# package directory pkg/<name>). Run by check-package.sh after it has built the packages; runs
# on an existing pkg/ without rebuilding anything.
#
#   bash tests/tools/size-budget.sh check    # fails when a build is more than 1% over its figure
#   bash tests/tools/size-budget.sh update   # writes the measured sizes into the budget file
#
# `check` prints one `check passed:` / `check FAILED:` line per build and exits 1 if any failed.
# A build more than 1% under its figure passes with a note to lower the figure. `update` is for a
# deliberate change: commit the new figures with the change that made them, the reason in the
# commit message. SIZE_BUDGET_FILE overrides the budget file (default tests/tools/size-budget.txt).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
BUDGET="${SIZE_BUDGET_FILE:-tests/tools/size-budget.txt}"
# The `name bytes` lines of the budget file (comments and blank lines skipped).
entries() { awk '{ sub(/#.*/, "") } NF { if (NF != 2 || $2 !~ /^[0-9]+$/) { print "bad line: " $0 > "/dev/stderr"; exit 1 } print $1, $2 }' "$BUDGET"; }
measured() {
    [[ -f "pkg/$1/mcp_edge_bg.wasm" ]] || return 1
    local total _
    read -r total _ < <(bash scripts/shipped-size.sh "pkg/$1")
    echo "$total"
}
# Signed percentage of $1 against $2, two decimals: +1.23% / -0.50%.
percent() { awk -v m="$1" -v r="$2" 'BEGIN { printf "%+.2f%%", (m - r) * 100 / r }'; }

case "${1:-}" in
check)
    list="$(entries)" || { echo "check FAILED: size budget: $BUDGET is malformed"; exit 1; }
    [[ -n "$list" ]] || { echo "check FAILED: size budget: $BUDGET records no build"; exit 1; }
    failed=0
    while read -r name recorded; do
        if ! size="$(measured "$name")"; then
            echo "check FAILED: size budget $name: pkg/$name is not built (bash tests/tools/check-package.sh builds it)"
            failed=1
            continue
        fi
        pct="$(percent "$size" "$recorded")"
        if ((size * 100 > recorded * 101)); then
            echo "check FAILED: size budget $name: $size B is $pct over the recorded $recorded B (allowed: +1%); shrink it, or, if the growth is deliberate, update $BUDGET in the same commit (bash tests/tools/size-budget.sh update) and give the reason in the commit message"
            failed=1
            continue
        fi
        echo "check passed: size budget $name: $size B (recorded $recorded B, $pct)"
        if ((size * 100 < recorded * 99)); then
            echo "note: size budget $name: $size B is $pct under the recorded $recorded B: lower the figure in $BUDGET (bash tests/tools/size-budget.sh update) so that the budget keeps what was won"
        fi
    done <<<"$list"
    exit "$failed"
    ;;
update)
    entries >/dev/null
    tmp="$(mktemp)"
    cp "$BUDGET" "$tmp"
    while read -r name recorded; do
        size="$(measured "$name")" || { echo "pkg/$name is not built (bash tests/tools/check-package.sh builds it)" >&2; rm -f "$tmp"; exit 1; }
        # Replace the number on the build's line, keeping its trailing comment.
        awk -v n="$name" -v s="$size" '!/^[[:space:]]*#/ && $1 == n && match($0, /^[[:space:]]*[^[:space:]]+[[:space:]]+/) {
            rest = substr($0, RLENGTH + 1); sub(/^[0-9]+/, s, rest); $0 = substr($0, 1, RLENGTH) rest } { print }' "$tmp" >"$tmp.new"
        mv "$tmp.new" "$tmp"
        echo "$name: $recorded -> $size B ($(percent "$size" "$recorded"))"
    done < <(entries)
    cat "$tmp" >"$BUDGET"
    rm -f "$tmp"
    ;;
*)
    echo "usage: $0 check|update" >&2
    exit 2
    ;;
esac
