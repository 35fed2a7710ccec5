//! The multi-server pool: configuration, policy, per-server connection states, circuit breakers.
//!
//! Pure logic, no I/O and no clock reads: time comes in as `now` (milliseconds on any monotonic
//! host clock) and jitter from a seed. A driver (the async client layer, the JS `McpPool`) owns a
//! [`state::PoolCore`], asks it which server to connect next, reports outcomes, and sleeps until
//! [`state::PoolCore::poll_timeout`]. [`driver::PoolDriver`] is that driver, over whatever
//! clients, tasks and timers the target provides ([`driver::PoolHost`]).
pub mod breaker;
pub mod config;
pub mod driver;
pub mod error;
pub mod policy;
pub mod state;

pub use crate::runtime::{OutboundGate, Permit, EDGE_MAX_OUTBOUND};
pub use breaker::{Breaker, BreakerConfig, BreakerSet, BreakerState};
pub use config::{PoolConfig, ServerConfig, ServerEntry, Transport, Vars};
pub use driver::{CallOutcome, DriverEvent, DriverOptions, PoolDriver};
pub use error::PoolError;
pub use policy::{Policy, Rule};
pub use state::{
    Attempt, BackoffPolicy, ConnectInfo, PoolCore, PoolEvent, PoolOptions, PoolStatus, ServerState,
    ServerStatus,
};
