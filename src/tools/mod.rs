//! Tool adapters: remote MCP tools as agent tools.
//!
//! Pure logic, no I/O: [`naming`] gives every (server, tool) a safe, reversible
//! `mcp__<server>__<tool>` name; [`adapt`] maps annotations to categories, adds provenance,
//! truncates and flattens results; [`export`] writes the OpenAI / Anthropic / MCP shapes and
//! server-instruction blocks; [`pinning`] holds back tools whose definitions changed;
//! [`registry`] ties them together for a pool.
//! They exist with the pool (feature `pool`).
pub mod adapt;
pub mod deferral;
pub mod error;
pub mod export;
pub mod naming;
pub mod pinning;
pub mod registry;
pub mod search;

pub use adapt::{
    adapt_tool, flatten_result, AdaptOptions, AdaptedTool, Category, FlatResult, Hints,
};
pub use error::ToolError;
pub use export::{
    export_tools, instructions_block, ExportFormat, InstructionsDelta, InstructionsTracker,
};
pub use naming::NameMap;
pub use pinning::{MemoryPinStore, PinCheck, PinStore};
pub use registry::{HeldTool, ToolEvent, ToolRegistry};
