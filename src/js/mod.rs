//! The `#[wasm_bindgen]` API: what JS and TypeScript users import from the `mcp-edge` package.
//! The TypeScript declarations are written by hand in `mcp-edge.d.ts` and, for the pool (feature
//! `pool`), `mcp-edge-pool.d.ts` (no `any` in public types), and added to the package as
//! `typescript_custom_section`s.

#[cfg(feature = "apps")]
mod apps;
mod auth;
mod browser;
mod client;
mod convert;
mod glue;
#[cfg(feature = "pool")]
mod names;
#[cfg(feature = "pool")]
mod pool;

#[cfg(feature = "apps")]
pub use apps::{tool_ui, McpApp};
pub use browser::{browser_storage, open_authorization_popup};
pub use client::{is_mcp_error, McpClient};
#[cfg(feature = "pool")]
pub use names::tool_names;
#[cfg(feature = "pool")]
pub use pool::McpPool;

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = include_str!("mcp-edge.d.ts");

/// The app host's declarations, in the package only with it (feature `apps`).
#[cfg(feature = "apps")]
#[wasm_bindgen(typescript_custom_section)]
const APPS_TYPES: &'static str = include_str!("mcp-edge-apps.d.ts");

/// The pool's declarations, in the package only when the pool is (feature `pool`).
#[cfg(feature = "pool")]
#[wasm_bindgen(typescript_custom_section)]
const POOL_TYPES: &'static str = include_str!("mcp-edge-pool.d.ts");
