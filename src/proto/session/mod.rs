//! The MCP client session: one state machine for both protocol eras (written by the session work item).
