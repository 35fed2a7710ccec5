//! What the single-threaded hosts share above the protocol core and below the drivers: the
//! boxed local future every async host runs, and the bound on outbound exchanges a pool's
//! clients share, and the timers and wake flag of the no-waker executors. Pure `std`: no JS, no
//! WASI, no clock.

pub mod gate;
pub mod timers;

pub use gate::{OutboundGate, Permit, EDGE_MAX_OUTBOUND};

/// A boxed future that need not be `Send`: what the single-threaded wasm hosts (a JS event
/// loop, the component's `wasi:io/poll` executor) run.
pub type LocalFuture<T> = std::pin::Pin<Box<dyn std::future::Future<Output = T>>>;
