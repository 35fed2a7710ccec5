//! Tool adapters: remote MCP tools as agent tools.
//!
//! Pure logic, no I/O: [`naming`] gives every (server, tool) a safe, reversible
//! `mcp__<server>__<tool>` name; [`adapt`] maps annotations to categories, adds provenance,
//! truncates and flattens results; [`export`] writes the OpenAI / Anthropic / MCP shapes and
//! server-instruction blocks; [`pinning`] holds back tools whose definitions changed;
//! [`registry`] ties them together for a pool.
//!
//! [`output`] (feature `validate`) checks tool results against their `outputSchema`; the rest is
//! the pool's (feature `pool`).
#[cfg(feature = "pool")]
pub mod adapt;
#[cfg(feature = "pool")]
pub mod export;
#[cfg(feature = "pool")]
pub mod hash;
#[cfg(feature = "pool")]
pub mod naming;
#[cfg(feature = "validate")]
pub mod output;
#[cfg(feature = "pool")]
pub mod pinning;
#[cfg(feature = "pool")]
pub mod registry;

#[cfg(feature = "pool")]
pub use adapt::{
    adapt_tool, flatten_result, AdaptOptions, AdaptedTool, Category, FlatResult, Hints,
};
#[cfg(feature = "pool")]
pub use export::{
    export_tools, instructions_block, ExportFormat, InstructionsDelta, InstructionsTracker,
};
#[cfg(feature = "pool")]
pub use naming::NameMap;
#[cfg(feature = "pool")]
pub use pinning::{MemoryPinStore, PinCheck, PinStore};
#[cfg(feature = "pool")]
pub use registry::{HeldTool, ToolEvent, ToolRegistry};
