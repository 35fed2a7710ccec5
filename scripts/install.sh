#!/usr/bin/env bash
# Installs every tool the tests and the demo need, at exact versions. Idempotent: each step checks
# the version already present and skips when it matches, so a warm machine pays only the checks.
#
#   bash scripts/install.sh            # everything run-all.sh needs
#   bash scripts/install.sh demo       # only what tests/demo.sh needs
#   bash scripts/install.sh --print-release-toolchain   # the toolchain name, nothing installed
#   bash scripts/install.sh targets release-toolchain apt wasm-bindgen wasm-pack binaryen esbuild cargo-fuzz npm-demo curl   # pick steps
#
# Only package registries are used (rustup targets, Debian apt, crates.io via `cargo install`, npm
# with a committed lockfile into a local folder). Nothing is installed globally with npm.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export CARGO_TERM_COLOR=never
LOG_DIR="${MCP_EDGE_LOG_DIR:-$ROOT/target/ci-logs}"
mkdir -p "$LOG_DIR"

# ---- pinned versions (change here, nowhere else) -------------------------------------------------
# wasm-bindgen-cli must equal the `wasm-bindgen` crate in Cargo.lock: read it from there.
WASM_BINDGEN_VERSION="$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/version = |"/, ""); print; exit}' "$ROOT/Cargo.lock")"
WASM_PACK_VERSION="0.15.1"
CARGO_FUZZ_VERSION="0.13.2"
RUST_TARGETS=(wasm32-unknown-unknown wasm32-wasip2)
# The toolchain release packages are built with (scripts/build-package.sh says why): a dated
# nightly with `rust-src` (std is rebuilt with the package) and the wasm32 target (wasm-pack checks
# for it). Tests, clippy and the WASI component use the stable toolchain.
RELEASE_TOOLCHAIN="nightly-2026-05-20"
APT_PACKAGES=(chromium chromium-driver)

log() { printf '  [install] %s\n' "$*"; }

# Runs a long install command with its output in a log file; shows the tail if it fails.
run_logged() {
    local name="$1"
    shift
    local logfile="$LOG_DIR/install-$name.log"
    log "running: $* (log: ${logfile#"$ROOT"/})"
    if ! "$@" >"$logfile" 2>&1; then
        echo "  [install] FAILED: $*" >&2
        tail -n 40 "$logfile" >&2
        return 1
    fi
}

# `cargo install` is only reachable through ~/.cargo/bin.
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

install_targets() {
    local installed missing=()
    installed="$(rustup target list --installed)"
    for t in "${RUST_TARGETS[@]}"; do
        grep -qx "$t" <<<"$installed" || missing+=("$t")
    done
    if ((${#missing[@]} == 0)); then
        log "rust targets present: ${RUST_TARGETS[*]}"
    else
        run_logged rustup-targets rustup target add "${missing[@]}"
    fi
}

# apt_install <package...>: installs the Debian packages that are not installed yet.
apt_install() {
    local missing=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if ((${#missing[@]} == 0)); then
        log "apt packages present: $*"
        return
    fi
    export DEBIAN_FRONTEND=noninteractive
    # Update the package lists only when apt does not know the packages yet (fresh image).
    if ! apt-cache show "${missing[@]}" >/dev/null 2>&1; then
        run_logged apt-update apt-get update
    fi
    if ! run_logged apt-install apt-get install -y "${missing[@]}" </dev/null; then
        # Stale lists (404 on a package file): refresh once and retry.
        run_logged apt-update apt-get update
        run_logged apt-install apt-get install -y "${missing[@]}" </dev/null
    fi
}

install_apt() {
    apt_install "${APT_PACKAGES[@]}"
    log "$(chromium --version 2>/dev/null || echo 'chromium: version unknown')"
}

# The demo drives the server with curl.
install_curl() { command -v curl >/dev/null 2>&1 && log "curl present" || apt_install curl; }

# cargo_install <crate> <version> <binary> [extra cargo install args...]: skipped when `<binary> --version`
# already names <version>.
cargo_install() {
    local crate="$1" version="$2" bin="$3"
    shift 3
    local have
    have="$("$bin" --version 2>/dev/null || true)"
    # Version output looks like "wasm-bindgen 0.2.130" / "wasm-pack 0.15.1" / "cargo-fuzz 0.13.2".
    if [[ " $have " == *" $version "* ]]; then
        log "$crate $version present"
        return
    fi
    log "$crate $version missing (found: ${have:-none}); building it (a few minutes)"
    run_logged "$crate" cargo install "$crate" --version "$version" "$@"
}

install_wasm_bindgen() {
    if [[ -z "$WASM_BINDGEN_VERSION" ]]; then
        echo "  [install] cannot read the wasm-bindgen version from Cargo.lock" >&2
        return 1
    fi
    # Not --locked: the CLI's lockfile pins a webpki-roots version the registry lacks (toolchain.md).
    cargo_install wasm-bindgen-cli "$WASM_BINDGEN_VERSION" wasm-bindgen
    # The test runner comes from the same package; check it too.
    local runner
    runner="$(wasm-bindgen-test-runner --version 2>/dev/null || true)"
    if [[ " $runner " != *" $WASM_BINDGEN_VERSION "* ]]; then
        run_logged wasm-bindgen-cli cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
    fi
}

install_release_toolchain() {
    if rustup component list --toolchain "$RELEASE_TOOLCHAIN" --installed 2>/dev/null | grep -q '^rust-src' \
        && rustup target list --toolchain "$RELEASE_TOOLCHAIN" --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
        log "release toolchain present: $RELEASE_TOOLCHAIN (rust-src, wasm32-unknown-unknown)"
    else
        run_logged rustup-release-toolchain rustup toolchain install "$RELEASE_TOOLCHAIN" --profile minimal \
            --component rust-src --target wasm32-unknown-unknown
    fi
}

install_wasm_pack() { cargo_install wasm-pack "$WASM_PACK_VERSION" wasm-pack --locked; }

install_cargo_fuzz() {
    # `cargo fuzz --version` prints "cargo-fuzz X.Y.Z"; probe the binary directly.
    cargo_install cargo-fuzz "$CARGO_FUZZ_VERSION" cargo-fuzz --locked
}

# npm_local <dir>: `npm ci` into <dir>/node_modules from its committed lockfile, skipped when the
# lockfile has not changed since the last successful install.
npm_local() {
    local dir="$ROOT/$1" stamp sum
    stamp="$dir/node_modules/.mcp-edge-lock.sha256"
    sum="$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)"
    if [[ -f "$stamp" && "$(cat "$stamp")" == "$sum" ]]; then
        log "npm packages in $1 present (lockfile unchanged)"
        return
    fi
    run_logged "npm-${1//\//-}" npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error
    echo "$sum" >"$stamp"
}

install_npm_demo() { npm_local tests/demo; }

# binaryen's wasm-opt (scripts/wasm-opt.sh runs it on every release package).
install_binaryen() { npm_local scripts/binaryen; }

# esbuild (scripts/shrink-package.sh minifies every release package's JS with it).
install_esbuild() { npm_local scripts/esbuild; }

main() {
    local steps=("$@")
    if ((${#steps[@]} == 0)); then
        steps=(targets release-toolchain apt wasm-bindgen wasm-pack binaryen esbuild cargo-fuzz npm-demo)
    fi
    local s
    for s in "${steps[@]}"; do
        case "$s" in
            targets) install_targets ;;
            release-toolchain) install_release_toolchain ;;
            --print-release-toolchain) echo "$RELEASE_TOOLCHAIN" ;;
            apt) install_apt ;;
            wasm-bindgen) install_wasm_bindgen ;;
            wasm-pack) install_wasm_pack ;;
            cargo-fuzz) install_cargo_fuzz ;;
            npm-demo) install_npm_demo ;;
            binaryen) install_binaryen ;;
            esbuild) install_esbuild ;;
            curl) install_curl ;;
            demo) install_curl && install_npm_demo ;;
            *)
                echo "install.sh: unknown step '$s'" >&2
                return 2
                ;;
        esac
    done
}

main "$@"
