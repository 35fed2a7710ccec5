//! Makes every wasm test suite of mcp-edge run where `wasm-pack test` asks, instead of being
//! skipped.
//!
//! `wasm-bindgen-test-runner` reads the runtime of a suite from a custom section its test
//! module carries (`wasm_bindgen_test_configure!`); a suite without one runs only in Node, and
//! `wasm-pack test --headless --chrome` (which sets `WASM_BINDGEN_TEST_ONLY_WEB`) then skips it
//! with "only configured to run in node.js" and reports success. A suite configured for the
//! browser is skipped the other way by `wasm-pack test --node`. wasm-pack passes its environment
//! to the build too, so [`configure!`] picks the section's byte at compile time from the same
//! variables the runner reads (`cargo` rebuilds the suites when they change):
//!
//! | build environment | runtime |
//! |---|---|
//! | `WASM_BINDGEN_USE_DEDICATED_WORKER` | a dedicated worker in the browser |
//! | `WASM_BINDGEN_USE_BROWSER` or `WASM_BINDGEN_TEST_ONLY_WEB` (`--chrome`, `--firefox`) | a browser page |
//! | neither (`--node`, plain `cargo test --target wasm32-unknown-unknown`) | Node |
//!
//! The byte values are those of the `wasm-bindgen-test` / `wasm-bindgen-cli` versions pinned
//! exactly in the crate's `Cargo.toml` (0.3.80 / 0.2.130): 0x01 browser, 0x02 dedicated worker,
//! 0x05 Node. `tests/run-all.sh` fails when any suite is skipped, so a change of that format
//! cannot pass silently.
#![cfg_attr(not(test), no_std)]

/// Section byte: run in a browser page.
pub const BROWSER: u8 = 0x01;
/// Section byte: run in a dedicated Web Worker.
pub const DEDICATED_WORKER: u8 = 0x02;
/// Section byte: run in Node.
pub const NODE: u8 = 0x05;

/// The runtime for a build that saw these variables.
pub const fn mode(dedicated_worker: bool, browser: bool, only_web: bool) -> u8 {
    if dedicated_worker {
        DEDICATED_WORKER
    } else if browser || only_web {
        BROWSER
    } else {
        NODE
    }
}

/// The runtime of this build.
pub const MODE: u8 = mode(
    option_env!("WASM_BINDGEN_USE_DEDICATED_WORKER").is_some(),
    option_env!("WASM_BINDGEN_USE_BROWSER").is_some(),
    option_env!("WASM_BINDGEN_TEST_ONLY_WEB").is_some(),
);

/// The JS scope the suites of this build run in: `window`, `worker` or `node`.
pub const SCOPE: &str = match MODE {
    BROWSER => "window",
    DEDICATED_WORKER => "worker",
    _ => "node",
};

/// Puts the calling test crate in the runtime of this build. Invoke once per test crate (at
/// its top level); it does nothing on other targets.
#[macro_export]
macro_rules! configure {
    () => {
        const _: () = {
            #[cfg(all(target_family = "wasm", target_os = "unknown"))]
            #[link_section = "__wasm_bindgen_test_unstable"]
            #[used]
            static MCP_EDGE_WASM_TEST_MODE: [u8; 1] = [$crate::MODE];
        };
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worker_wins_then_the_browser_then_node() {
        assert_eq!(mode(true, true, true), DEDICATED_WORKER);
        assert_eq!(mode(false, true, false), BROWSER);
        assert_eq!(mode(false, false, true), BROWSER);
        assert_eq!(mode(false, false, false), NODE);
    }
}
