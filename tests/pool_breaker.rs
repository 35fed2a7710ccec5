//! Per-tool circuit breakers: failure rate over a sliding window, minimum calls, cool-down,
//! one half-open probe, close on success.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcp_edge::pool::breaker::{Breaker, BreakerConfig, BreakerSet, BreakerState};
use mcp_edge::pool::PoolError;

fn cfg() -> BreakerConfig {
    BreakerConfig {
        window_ms: 10_000,
        min_calls: 5,
        failure_rate_percent: 50,
        cool_down_ms: 1_000,
        max_samples: 100,
    }
}

#[test]
fn opens_only_after_min_calls() {
    let mut b = Breaker::new(cfg());
    // Four failures out of four: 100 % but below the minimum of 5 calls.
    for t in 0..4 {
        b.try_call(t).unwrap();
        b.record(t, false);
        assert_eq!(b.state(t), BreakerState::Closed, "call {t}");
    }
    b.try_call(4).unwrap();
    b.record(4, false);
    assert_eq!(b.state(4), BreakerState::Open { until: 1004 });
    assert_eq!(b.try_call(500), Err(1004));
}

#[test]
fn rate_not_count_and_window_slides() {
    let mut b = Breaker::new(cfg());
    // 3 failures among 7 calls: 43 % < 50 %: stays closed.
    for (t, ok) in [true, true, false, true, false, true, false]
        .iter()
        .enumerate()
    {
        b.record(t as u64, *ok);
    }
    assert_eq!(b.state(7), BreakerState::Closed);
    // One more failure: 4 of 8 = 50 %: opens.
    b.record(8, false);
    assert!(matches!(b.state(8), BreakerState::Open { .. }));

    // Old failures leave the window: 4 failures at t=0..3, then successes after the window.
    let mut b = Breaker::new(cfg());
    for t in 0..4 {
        b.record(t, false);
    }
    for t in 0..3 {
        b.record(20_000 + t, true);
    }
    // Window now holds 3 successes only (below min calls) — and the old failures are gone.
    b.record(20_010, false);
    b.record(20_011, false);
    assert_eq!(
        b.state(20_011),
        BreakerState::Closed,
        "2 of 5 in the window = 40 %"
    );
}

#[test]
fn half_open_single_probe_then_close_or_reopen() {
    let mut b = Breaker::new(cfg());
    for t in 0..5 {
        b.record(t, false);
    }
    assert_eq!(b.state(1004), BreakerState::HalfOpen { probe_since: None });
    assert_eq!(b.try_call(1004), Ok(()), "the probe");
    assert_eq!(b.try_call(1005), Err(2004), "only one probe at a time");
    // Probe fails: open again for a full cool-down.
    b.record(1100, false);
    assert_eq!(b.state(1100), BreakerState::Open { until: 2100 });
    assert_eq!(b.try_call(2099), Err(2100));
    // Next probe succeeds: closed with an empty window.
    assert_eq!(b.try_call(2100), Ok(()));
    b.record(2150, true);
    assert_eq!(b.state(2150), BreakerState::Closed);
    for t in 0..4 {
        b.record(2200 + t, false);
    }
    assert_eq!(
        b.state(2204),
        BreakerState::Closed,
        "old samples were cleared on close"
    );
    // A lost probe frees its slot after the cool-down.
    let mut b = Breaker::new(cfg());
    for t in 0..5 {
        b.record(t, false);
    }
    b.try_call(1004).unwrap();
    assert!(b.try_call(1500).is_err());
    assert_eq!(b.try_call(2004), Ok(()));
}

#[test]
fn samples_are_bounded_and_sets_isolate_tools() {
    let mut b = Breaker::new(BreakerConfig {
        max_samples: 10,
        min_calls: 10,
        ..cfg()
    });
    for t in 0..1000 {
        b.record(t, true);
    }
    for t in 1000..1005 {
        b.record(t, false);
    }
    assert!(
        matches!(b.state(1005), BreakerState::Open { .. }),
        "5 of the last 10 failed"
    );

    let mut set = BreakerSet::new(cfg());
    for t in 0..5 {
        set.try_call("mcp__a__x", t).unwrap();
        set.record("mcp__a__x", t, false);
    }
    assert_eq!(
        set.try_call("mcp__a__x", 10),
        Err(PoolError::CircuitOpen {
            name: "mcp__a__x".into(),
            retry_at: 1004
        })
    );
    assert_eq!(
        set.try_call("mcp__b__x", 10),
        Ok(()),
        "other tools unaffected"
    );
    assert_eq!(set.state("mcp__never__called", 10), BreakerState::Closed);
    set.retain(|n| n != "mcp__a__x");
    assert_eq!(set.try_call("mcp__a__x", 11), Ok(()));
}

// Runs in the runtime `wasm-pack test` asks for (see tests/wasm-test-mode).
mcp_edge_wasm_test_mode::configure!();
