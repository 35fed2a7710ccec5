//! Small helpers every layer uses and none owns: one sort routine, sorted-vector maps, JSON member
//! readers and writers, JSON text, hashes. They know nothing about MCP; the layering test
//! (`tests/layering.rs`, rules in `docs/architecture.md`) keeps them free of imports from the
//! rest of the crate.

pub mod bounded;
pub mod hash;
pub(crate) mod json;
pub(crate) mod order;
pub(crate) mod read;
pub(crate) mod vec_map;
pub(crate) mod write;
