#!/usr/bin/env bash
# The crates.io package: ships exactly the files in tests/tools/crate-files.txt (sources, the WIT
# world the `component` feature builds from, the README; cargo adds its own manifest, lock file
# and VCS note), nothing from tests/ and no node_modules; `cargo publish --dry-run` builds the
# packaged crate natively and for wasm32-unknown-unknown (its main target).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
expected="tests/tools/crate-files.txt"
actual="$(cargo package --list --allow-dirty --quiet | LC_ALL=C sort)"
if ! diff -u "$expected" <(printf '%s\n' "$actual"); then
    echo "check FAILED: the packaged files differ from $expected (update it if the change is meant)"
    exit 1
fi
if grep -nE '^tests/|node_modules|package-lock\.json|^pkg/|^www/|^target/' <<<"$actual"; then
    echo "check FAILED: test, build or npm files in the package"
    exit 1
fi
echo "check passed: the package holds the $(wc -l <"$expected") files of $expected"
cargo publish --dry-run --allow-dirty --quiet
echo "check passed: cargo publish --dry-run (native)"
cargo publish --dry-run --allow-dirty --quiet --target wasm32-unknown-unknown
echo "check passed: cargo publish --dry-run --target wasm32-unknown-unknown"
