#!/usr/bin/env bash
# The crates.io package ships what a user needs and nothing else: every source file under src/,
# the WIT world the `component` feature builds from (wit/**/*.wit), the README, and the files cargo
# adds itself (the normalised Cargo.toml, Cargo.toml.orig, Cargo.lock, .cargo_vcs_info.json). No
# test, test server, fixture, npm lock file, node_modules or build output. Then
# `cargo publish --dry-run` builds the packaged crate natively and for wasm32-unknown-unknown (its
# main target).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
packaged="$(cargo package --list --allow-dirty --quiet | LC_ALL=C sort)"
cargo_files='^(Cargo\.toml|Cargo\.toml\.orig|Cargo\.lock|\.cargo_vcs_info\.json|README\.md)$'
extra="$(grep -vE "$cargo_files|^src/|^wit/.*\.wit$" <<<"$packaged" || true)"
if [[ -n "$extra" ]]; then
    printf 'check FAILED: files a user does not need are in the package:\n%s\n' "$extra"
    exit 1
fi
# Everything under src/ and every .wit file of the tree (tracked or new) must be in it.
needed="$( (git ls-files --cached --others --exclude-standard -- src; git ls-files --cached --others --exclude-standard -- 'wit/*.wit') | LC_ALL=C sort -u)"
missing="$(LC_ALL=C comm -23 <(printf '%s\n' "$needed") <(printf '%s\n' "$packaged"))"
if [[ -n "$missing" ]]; then
    printf 'check FAILED: files the crate needs are missing from the package:\n%s\n' "$missing"
    exit 1
fi
for f in Cargo.toml README.md; do
    grep -qx "$f" <<<"$packaged" || { echo "check FAILED: $f is not in the package"; exit 1; }
done
echo "check passed: the package holds $(grep -c '^src/' <<<"$packaged") files of src/, $(grep -c '^wit/' <<<"$packaged") of wit/, README.md and cargo's own files, nothing else:"
grep -vE '^(src|wit)/' <<<"$packaged" | sed 's/^/  /'
cargo publish --dry-run --allow-dirty --quiet
echo "check passed: cargo publish --dry-run (native)"
cargo publish --dry-run --allow-dirty --quiet --target wasm32-unknown-unknown
echo "check passed: cargo publish --dry-run --target wasm32-unknown-unknown"
