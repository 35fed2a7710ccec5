//! Per-tool circuit breakers: stop calling a tool that keeps failing, probe it after a pause.
//!
//! - **closed**: calls pass; each outcome is recorded in a sliding window of `window_ms`
//!   (at most `max_samples` entries). Once the window holds at least `min_calls` outcomes and the
//!   share of failures reaches `failure_rate_percent`, the breaker opens. Fewer calls never open
//!   it, however many of them failed (one bad call out of one is not a rate).
//! - **open**: calls are refused until `cool_down_ms` has passed since opening.
//! - **half-open**: exactly one probe call is let through; its success closes the breaker (with
//!   an empty window), its failure re-opens it for another cool-down. A probe whose outcome is
//!   never recorded frees the slot after `cool_down_ms`, so a lost probe cannot wedge the tool.
//!
//! What counts as a failure is the caller's decision; the intended rule is transport and
//! protocol errors and timeouts, not `isError` results (those usually mean the model passed bad
//! arguments, not that the server is unhealthy).
use crate::util::vec_map::VecMap;
use std::collections::VecDeque;

use super::error::PoolError;

/// Breaker thresholds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BreakerConfig {
    /// Length of the sliding window.
    pub window_ms: u64,
    /// Outcomes the window must hold before the rate counts.
    pub min_calls: usize,
    /// Failure share that opens the breaker (1 ..= 100).
    pub failure_rate_percent: u8,
    /// Pause before the half-open probe.
    pub cool_down_ms: u64,
    /// Most outcomes kept (oldest dropped first).
    pub max_samples: usize,
}

impl Default for BreakerConfig {
    fn default() -> Self {
        BreakerConfig {
            window_ms: 60_000,
            min_calls: 5,
            failure_rate_percent: 50,
            cool_down_ms: 30_000,
            max_samples: 100,
        }
    }
}

/// The state of one breaker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BreakerState {
    /// Calls pass.
    Closed,
    /// Calls are refused until `until`.
    Open {
        /// End of the cool-down.
        until: u64,
    },
    /// One probe may pass; `probe_since` is when the current probe started, if one runs.
    HalfOpen {
        /// Start of the running probe.
        probe_since: Option<u64>,
    },
}

/// One tool's breaker.
#[derive(Debug, Clone)]
pub struct Breaker {
    config: BreakerConfig,
    state: BreakerState,
    /// (time, success).
    samples: VecDeque<(u64, bool)>,
}

impl Breaker {
    /// A closed breaker.
    pub fn new(config: BreakerConfig) -> Self {
        Breaker {
            config,
            state: BreakerState::Closed,
            samples: VecDeque::new(),
        }
    }

    /// The state at `now` (an open breaker whose cool-down passed reads as half-open).
    pub fn state(&self, now: u64) -> BreakerState {
        match self.state {
            BreakerState::Open { until } if now >= until => {
                BreakerState::HalfOpen { probe_since: None }
            }
            s => s,
        }
    }

    /// Asks to make a call at `now`. `Err(retry_at)` when refused.
    pub fn try_call(&mut self, now: u64) -> Result<(), u64> {
        match self.state(now) {
            BreakerState::Closed => Ok(()),
            BreakerState::Open { until } => Err(until),
            BreakerState::HalfOpen { probe_since } => match probe_since {
                Some(t) if now < t.saturating_add(self.config.cool_down_ms) => {
                    Err(t.saturating_add(self.config.cool_down_ms))
                }
                _ => {
                    self.state = BreakerState::HalfOpen {
                        probe_since: Some(now),
                    };
                    Ok(())
                }
            },
        }
    }

    /// Records a call's outcome.
    pub fn record(&mut self, now: u64, success: bool) {
        match self.state(now) {
            BreakerState::HalfOpen { .. } => {
                self.samples.clear();
                self.state = if success {
                    BreakerState::Closed
                } else {
                    BreakerState::Open {
                        until: now.saturating_add(self.config.cool_down_ms),
                    }
                };
            }
            // A call admitted before the breaker opened finished late: nothing to learn.
            BreakerState::Open { .. } => {}
            BreakerState::Closed => {
                self.samples.push_back((now, success));
                while self.samples.len() > self.config.max_samples.max(1) {
                    self.samples.pop_front();
                }
                let horizon = now.saturating_sub(self.config.window_ms);
                while self.samples.front().is_some_and(|&(t, _)| t < horizon) {
                    self.samples.pop_front();
                }
                let n = self.samples.len();
                let failures = self.samples.iter().filter(|(_, ok)| !ok).count();
                if n >= self.config.min_calls.max(1)
                    && failures * 100 >= n * usize::from(self.config.failure_rate_percent)
                {
                    self.state = BreakerState::Open {
                        until: now.saturating_add(self.config.cool_down_ms),
                    };
                }
            }
        }
    }
}

/// Breakers for many tools, keyed by namespaced tool name.
#[derive(Debug, Clone, Default)]
pub struct BreakerSet {
    config: BreakerConfig,
    breakers: VecMap<String, Breaker>,
}

impl BreakerSet {
    /// An empty set; every tool's breaker uses `config`.
    pub fn new(config: BreakerConfig) -> Self {
        BreakerSet {
            config,
            breakers: VecMap::new(),
        }
    }

    /// Asks to call `tool` at `now`; `Err(CircuitOpen)` when its breaker refuses.
    pub fn try_call(&mut self, tool: &str, now: u64) -> Result<(), PoolError> {
        let config = self.config;
        self.breakers
            .get_or_insert_with(tool.to_string(), || Breaker::new(config))
            .try_call(now)
            .map_err(|retry_at| PoolError::CircuitOpen {
                name: tool.to_string(),
                retry_at,
            })
    }

    /// Records the outcome of a call to `tool`.
    pub fn record(&mut self, tool: &str, now: u64, success: bool) {
        let config = self.config;
        self.breakers
            .get_or_insert_with(tool.to_string(), || Breaker::new(config))
            .record(now, success);
    }

    /// The state of `tool`'s breaker (closed when it has none).
    pub fn state(&self, tool: &str, now: u64) -> BreakerState {
        self.breakers
            .get(tool)
            .map_or(BreakerState::Closed, |b| b.state(now))
    }

    /// Forgets breakers of tools that no longer exist.
    pub fn retain(&mut self, keep: impl Fn(&str) -> bool) {
        self.breakers.retain(|k, _| keep(k));
    }
}
