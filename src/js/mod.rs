//! The `#[wasm_bindgen]` API: what JS and TypeScript users import from the `mcp-edge` package.
//! The TypeScript declarations are written by hand in `mcp-edge.d.ts` (no `any` in public types)
//! and added to the package as a `typescript_custom_section`.

mod auth;
mod browser;
mod client;
mod convert;
mod glue;
mod names;
mod pool;

pub use browser::{browser_storage, open_authorization_popup};
pub use client::{is_mcp_error, McpClient};
pub use names::tool_names;
pub use pool::McpPool;

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = include_str!("mcp-edge.d.ts");
