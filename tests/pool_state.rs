//! The pool's connection state machine on virtual time: bounded concurrency, per-server
//! deadlines, isolation, capped and budgeted backoff with deterministic jitter, auth, policy,
//! stdio on hosts without processes, stale reports, status and events.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcp_edge::pool::config::{PoolConfig, Vars};
use mcp_edge::pool::state::{
    BackoffPolicy, ConnectInfo, PoolCore, PoolEvent, PoolOptions, ServerState,
};
use mcp_edge::pool::{Policy, PoolError, Rule};
use mcp_edge::proto::session::{Era, ProtocolError};
use mcp_edge::util::hash::splitmix64;
use serde_json::{json, Map, Value};

fn config(servers: Value) -> PoolConfig {
    PoolConfig::from_value(&json!({ "mcpServers": servers }), &Vars::new()).unwrap()
}

fn many(n: usize) -> PoolConfig {
    let mut m = Map::new();
    for i in 0..n {
        m.insert(
            format!("s{i:02}"),
            json!({"url": format!("https://h{i}.example/mcp")}),
        );
    }
    config(Value::Object(m))
}

fn core(c: &PoolConfig, opts: PoolOptions) -> PoolCore {
    PoolCore::new(c, &Policy::default(), opts).unwrap()
}

fn network() -> PoolError {
    PoolError::Protocol(ProtocolError::Network("refused".into()))
}

#[test]
fn never_more_than_max_in_flight() {
    for max in [1usize, 2, 4, 6] {
        let c = many(13);
        let mut p = core(
            &c,
            PoolOptions {
                max_in_flight: max,
                ..PoolOptions::default()
            },
        );
        let mut running = Vec::new();
        let mut rng = max as u64;
        let mut now = 0;
        let mut connected = 0;
        while connected < 13 {
            while let Some(a) = p.next_to_connect(now) {
                running.push(a);
                assert!(p.in_flight() <= max);
                assert!(running.len() <= max, "max {max}: {} running", running.len());
            }
            assert!(!running.is_empty());
            // Finish a pseudo-random one.
            rng = splitmix64(rng);
            let a = running.remove((rng % running.len() as u64) as usize);
            now += 7;
            assert!(p.handle_connected(
                now,
                &a,
                ConnectInfo {
                    tool_count: 2,
                    ..Default::default()
                }
            ));
            connected += 1;
        }
        assert!(p
            .status()
            .servers
            .iter()
            .all(|s| s.state == ServerState::Connected && s.tool_count == 2));
        assert_eq!(p.next_to_connect(now), None);
    }
}

#[test]
fn one_hung_server_does_not_delay_the_others() {
    let c = config(json!({
        "a_hang": {"url": "https://hang.example/mcp", "timeoutMs": 5000},
        "b_ok": {"url": "https://ok.example/mcp", "timeoutMs": 60000},
        "c_ok": {"url": "https://ok2.example/mcp"},
        "d_bad": {"url": "https://bad.example/mcp", "timeoutMs": 2000}
    }));
    let mut p = core(
        &c,
        PoolOptions {
            max_in_flight: 2,
            default_timeout_ms: 10_000,
            ..PoolOptions::default()
        },
    );
    let hang = p.next_to_connect(0).unwrap();
    assert_eq!((hang.server.as_str(), hang.deadline), ("a_hang", 5000));
    let b = p.next_to_connect(0).unwrap();
    assert_eq!(
        (b.server.as_str(), b.deadline),
        ("b_ok", 60000),
        "each server has its own deadline"
    );
    assert_eq!(p.next_to_connect(0), None, "bound of 2 reached");
    assert_eq!(p.poll_timeout(), Some(5000));
    // b answers quickly; its slot goes to c at once, not after the hung server's deadline.
    assert!(p.handle_connected(
        10,
        &b,
        ConnectInfo {
            era: Some(Era::Modern),
            protocol_version: Some("2026-07-28".into()),
            tool_count: 3,
            ..ConnectInfo::default()
        }
    ));
    let cc = p.next_to_connect(10).unwrap();
    assert_eq!((cc.server.as_str(), cc.deadline), ("c_ok", 10_010));
    assert!(p.handle_connected(20, &cc, ConnectInfo::default()));
    let d = p.next_to_connect(20).unwrap();
    assert_eq!(d.server, "d_bad");
    assert!(p.handle_connect_failed(
        30,
        &d,
        PoolError::Protocol(ProtocolError::HttpStatus {
            status: 500,
            body: String::new(),
            retry_after_ms: None,
            body_length: None,
        })
    ));
    assert_eq!(p.state("b_ok"), Some(ServerState::Connected));
    assert_eq!(p.state("c_ok"), Some(ServerState::Connected));
    assert_eq!(p.state("d_bad"), Some(ServerState::Failed));
    assert_eq!(p.state("a_hang"), Some(ServerState::Connecting));
    // Nothing fires before the hung server's own deadline...
    p.handle_timeout(4999);
    assert_eq!(p.state("a_hang"), Some(ServerState::Connecting));
    assert_eq!(p.poll_abort(), None);
    // ...and at it, only that server times out.
    p.handle_timeout(5000);
    assert_eq!(p.state("a_hang"), Some(ServerState::Failed));
    assert_eq!(p.poll_abort(), Some(hang.clone()));
    let st = p.status();
    let a = st.servers.iter().find(|s| s.name == "a_hang").unwrap();
    assert_eq!(a.last_error.as_ref().unwrap().code, "TIMEOUT");
    assert!(a.next_retry_at.is_some());
    assert_eq!(p.state("b_ok"), Some(ServerState::Connected));
    // A late answer from the hung attempt is stale and ignored.
    assert!(!p.handle_connected(6000, &hang, ConnectInfo::default()));
    assert_eq!(p.state("a_hang"), Some(ServerState::Failed));
    let b_status = p
        .status()
        .servers
        .into_iter()
        .find(|s| s.name == "b_ok")
        .unwrap();
    assert_eq!((b_status.era, b_status.tool_count), (Some("modern"), 3));
}

#[test]
fn backoff_is_capped_budgeted_and_deterministic() {
    let b = BackoffPolicy {
        initial_ms: 1000,
        max_ms: 8000,
        multiplier: 2,
        jitter_percent: 20,
        max_retries: 6,
        max_total_retries: 50,
        stable_after_ms: 60_000,
        slow_ms: None,
    };
    let delays: Vec<u64> = (1..=8).map(|n| b.delay(42, "srv", n)).collect();
    let bases = [1000u64, 2000, 4000, 8000, 8000, 8000, 8000, 8000];
    for (d, base) in delays.iter().zip(bases) {
        assert!(*d <= base && *d >= base - base / 5, "{d} vs base {base}");
    }
    // Deterministic for (seed, server, n); different servers get different jitter.
    assert_eq!(
        delays,
        (1..=8).map(|n| b.delay(42, "srv", n)).collect::<Vec<_>>()
    );
    assert_ne!(
        delays,
        (1..=8).map(|n| b.delay(42, "other", n)).collect::<Vec<_>>()
    );
    assert_ne!(
        delays,
        (1..=8).map(|n| b.delay(43, "srv", n)).collect::<Vec<_>>()
    );
    let no_jitter = BackoffPolicy {
        jitter_percent: 0,
        ..b
    };
    assert_eq!(
        (1..=5)
            .map(|n| no_jitter.delay(1, "s", n))
            .collect::<Vec<_>>(),
        [1000, 2000, 4000, 8000, 8000]
    );
    assert_eq!(
        no_jitter.delay(1, "s", u32::MAX),
        8000,
        "huge n saturates, no overflow"
    );

    // Drive one server through failures: retries happen at the scheduled times, then stop.
    let c = config(json!({"s": {"url": "https://s.example/mcp"}}));
    let opts = PoolOptions {
        backoff: BackoffPolicy {
            max_retries: 3,
            ..b
        },
        jitter_seed: 42,
        ..PoolOptions::default()
    };
    let mut p = core(&c, opts.clone());
    let mut now = 0;
    let mut retry_times = Vec::new();
    for i in 0..4 {
        let a = p.next_to_connect(now).expect("attempt");
        assert!(p.handle_connect_failed(now + 1, &a, network()));
        let s = &p.status().servers[0];
        if i < 3 {
            let at = s.next_retry_at.unwrap();
            assert_eq!(at, now + 1 + opts.backoff.delay(42, "s", i + 1));
            assert_eq!(p.next_to_connect(at - 1), None, "not before its time");
            assert_eq!(p.poll_timeout(), Some(at));
            retry_times.push(at);
            now = at;
        } else {
            assert!(
                s.gave_up && s.next_retry_at.is_none(),
                "budget of 3 retries spent"
            );
            assert_eq!(p.poll_timeout(), None);
            assert_eq!(p.next_to_connect(now + 1_000_000), None);
        }
    }
    // Same seed, same schedule: a second pool replays it exactly.
    let mut q = core(&c, opts);
    let mut now = 0;
    for at in &retry_times {
        let a = q.next_to_connect(now).unwrap();
        q.handle_connect_failed(now + 1, &a, network());
        assert_eq!(q.status().servers[0].next_retry_at, Some(*at));
        now = *at;
    }
    // A manual reconnect resets the streak.
    assert!(p.reconnect("s").unwrap());
    assert_eq!(p.state("s"), Some(ServerState::Pending));
    assert!(!p.status().servers[0].gave_up);
}

#[test]
fn lifetime_budget_and_stable_connections() {
    let b = BackoffPolicy {
        initial_ms: 10,
        max_ms: 10,
        jitter_percent: 0,
        max_retries: 2,
        max_total_retries: 3,
        stable_after_ms: 100,
        multiplier: 2,
        slow_ms: None,
    };
    let c = config(json!({"s": {"url": "https://s.example/mcp"}}));
    let mut p = core(
        &c,
        PoolOptions {
            backoff: b,
            ..PoolOptions::default()
        },
    );
    let mut now = 0;
    // Connect, stay up long enough, drop: the streak resets each time, but the lifetime budget
    // of 3 retries still ends the loop.
    let mut drops = 0;
    while let Some(a) = p.next_to_connect(now) {
        p.handle_connected(now, &a, ConnectInfo::default());
        now += 150;
        assert!(p.handle_disconnected(now, "s", network()));
        drops += 1;
        now += 10;
        assert!(drops < 10, "unbounded reconnect loop");
    }
    assert_eq!(drops, 4, "initial connect + 3 retries");
    assert!(p.status().servers[0].gave_up);
    // A connection that drops at once does not reset the streak: 2 retries, then stop.
    let mut p = core(
        &c,
        PoolOptions {
            backoff: BackoffPolicy {
                max_total_retries: 100,
                ..b
            },
            ..PoolOptions::default()
        },
    );
    let mut drops = 0;
    while let Some(a) = p.next_to_connect(now) {
        p.handle_connected(now, &a, ConnectInfo::default());
        now += 1;
        p.handle_disconnected(now, "s", network());
        drops += 1;
        now += 10;
        assert!(drops < 10);
    }
    assert_eq!(drops, 3);
    // handle_disconnected is ignored unless connected.
    assert!(!p.handle_disconnected(now, "s", network()));
}

#[test]
fn auth_config_policy_stdio_and_duplicates() {
    let c = config(json!({
        "auth": {"url": "https://auth.example/mcp"},
        "broken": {"url": "https://x.example/${MISSING}"},
        "broken_off": {"url": "https://y.example/${MISSING}", "enabled": false},
        "denied": {"url": "https://denied.example/mcp"},
        "dup": {"url": "https://AUTH.example:443/mcp"},
        "off": {"url": "https://off.example/mcp", "enabled": false},
        "proc": {"command": "npx", "args": ["srv"]}
    }));
    let policy = Policy {
        denied: vec![Rule::ServerName("denied".into())],
        allowed: None,
    };
    let mut p = PoolCore::new(&c, &policy, PoolOptions::default()).unwrap();
    let st = |p: &PoolCore, n: &str| {
        p.status()
            .servers
            .into_iter()
            .find(|s| s.name == n)
            .unwrap()
    };
    assert_eq!(st(&p, "broken").state, ServerState::Failed);
    assert_eq!(
        st(&p, "broken").last_error.unwrap().code,
        "UNDEFINED_VARIABLE"
    );
    assert_eq!(st(&p, "broken_off").state, ServerState::Disabled);
    assert_eq!(st(&p, "denied").state, ServerState::Disabled);
    assert_eq!(st(&p, "denied").last_error.unwrap().code, "DENIED");
    assert_eq!(st(&p, "dup").state, ServerState::Disabled);
    assert!(st(&p, "dup")
        .last_error
        .unwrap()
        .message
        .contains("\"auth\""));
    assert_eq!(st(&p, "off").state, ServerState::Disabled);
    assert!(st(&p, "off").last_error.is_none());
    assert_eq!(st(&p, "proc").state, ServerState::Unsupported);
    assert_eq!(st(&p, "proc").last_error.unwrap().code, "STDIO_UNSUPPORTED");
    // Only "auth" is connectable.
    let a = p.next_to_connect(0).unwrap();
    assert_eq!(a.server, "auth");
    assert_eq!(p.next_to_connect(0), None);
    p.handle_connect_failed(
        5,
        &a,
        PoolError::Protocol(ProtocolError::Unauthorized {
            status: 401,
            www_authenticate: None,
        }),
    );
    assert_eq!(p.state("auth"), Some(ServerState::NeedsAuth));
    assert_eq!(p.poll_timeout(), None, "needs-auth is not retried");
    assert!(p.reconnect("auth").unwrap(), "auth completed");
    assert_eq!(p.next_to_connect(6).unwrap().server, "auth");
    // Enabling: policy and duplicates stay off; a config error shows once enabled.
    assert_eq!(p.enable("denied").unwrap_err().code(), "DENIED");
    assert_eq!(p.enable("dup").unwrap_err().code(), "DUPLICATE_SERVER");
    p.enable("broken_off").unwrap();
    assert_eq!(p.state("broken_off"), Some(ServerState::Failed));
    p.enable("off").unwrap();
    assert_eq!(p.state("off"), Some(ServerState::Pending));
    assert_eq!(
        p.enable("nope").unwrap_err(),
        PoolError::UnknownServer("nope".into())
    );
    // A host with processes connects stdio servers.
    let mut native = PoolCore::new(
        &c,
        &policy,
        PoolOptions {
            supports_stdio: true,
            ..PoolOptions::default()
        },
    )
    .unwrap();
    assert_eq!(native.state("proc"), Some(ServerState::Pending));
    let mut got = Vec::new();
    while let Some(a) = native.next_to_connect(0) {
        got.push(a.server);
    }
    assert_eq!(got, ["auth", "proc"]);
}

#[test]
fn disable_aborts_and_stale_reports_are_ignored() {
    let c = many(2);
    let mut p = core(&c, PoolOptions::default());
    let a = p.next_to_connect(0).unwrap();
    p.disable(&a.server).unwrap();
    assert_eq!(p.poll_abort(), Some(a.clone()));
    assert!(!p.handle_connected(1, &a, ConnectInfo::default()));
    assert_eq!(p.state(&a.server), Some(ServerState::Disabled));
    p.enable(&a.server).unwrap();
    let next = p.next_to_connect(2).unwrap();
    assert_eq!(next.server, a.server);
    assert_ne!(next.id, a.id);
    assert!(!p.handle_connect_failed(3, &a, network()), "old attempt id");
    assert!(p.handle_connected(3, &next, ConnectInfo::default()));
}

#[test]
fn edge_outbound_bound() {
    let c = many(10);
    let mut p = core(&c, PoolOptions::edge());
    p.set_outbound_in_use(4);
    assert!(p.next_to_connect(0).is_some());
    assert!(p.next_to_connect(0).is_some());
    assert_eq!(
        p.next_to_connect(0),
        None,
        "4 open requests + 2 attempts = 6"
    );
    p.set_outbound_in_use(0);
    let mut n = 2;
    while p.next_to_connect(0).is_some() {
        n += 1;
    }
    assert_eq!(n, 6);
    assert_eq!(
        PoolCore::new(
            &c,
            &Policy::default(),
            PoolOptions {
                max_in_flight: 0,
                ..PoolOptions::default()
            }
        )
        .unwrap_err()
        .code(),
        "INVALID_OPTION"
    );
}

#[test]
fn events_and_status_serialisation() {
    let c = config(json!({"s": {"url": "https://s.example/mcp"}}));
    let mut p = core(&c, PoolOptions::default());
    let a = p.next_to_connect(0).unwrap();
    p.handle_connected(
        1,
        &a,
        ConnectInfo {
            era: Some(Era::Legacy),
            protocol_version: Some("2025-11-25".into()),
            tool_count: 1,
            ..ConnectInfo::default()
        },
    );
    p.set_tool_count("s", 5);
    p.set_tool_count("s", 5);
    p.disable("s").unwrap();
    let mut events = Vec::new();
    while let Some(e) = p.poll_event() {
        events.push(e);
    }
    let transitions: Vec<(ServerState, ServerState)> = events
        .iter()
        .filter_map(|e| match e {
            PoolEvent::StateChanged { from, to, .. } => Some((*from, *to)),
            _ => None,
        })
        .collect();
    assert_eq!(
        transitions,
        [
            (ServerState::Pending, ServerState::Connecting),
            (ServerState::Connecting, ServerState::Connected),
            (ServerState::Connected, ServerState::Disabled)
        ]
    );
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(e, PoolEvent::ToolCount { count: 5, .. }))
            .count(),
        1
    );
    let mut q = core(&c, PoolOptions::default());
    let a = q.next_to_connect(0).unwrap();
    q.handle_connected(
        1,
        &a,
        ConnectInfo {
            era: Some(Era::Legacy),
            protocol_version: Some("2025-11-25".into()),
            tool_count: 1,
            ..ConnectInfo::default()
        },
    );
    let v = serde_json::to_value(q.status()).unwrap();
    assert_eq!(
        v,
        json!({"servers": [{"name": "s", "state": "connected", "transport": "http", "lastError": null,
            "toolCount": 1, "promptCount": 0, "resourceCount": 0, "era": "legacy", "protocolVersion": "2025-11-25", "retries": 0,
            "nextRetryAt": null, "deadline": null, "gaveUp": false, "slowRetry": false, "projectEntry": null}], "diagnostics": []})
    );
    assert_eq!(
        serde_json::to_value(ServerState::NeedsAuth).unwrap(),
        "needs-auth"
    );
}

#[test]
fn only_retryable_failures_schedule_a_retry() {
    let http = |status| {
        PoolError::Protocol(ProtocolError::HttpStatus {
            status,
            body: String::new(),
            retry_after_ms: None,
            body_length: None,
        })
    };
    let cases = [
        (http(404), false),
        (http(400), false),
        (http(429), true),
        (http(408), true),
        (http(503), true),
        (network(), true),
        (
            PoolError::Protocol(ProtocolError::Cors("expose Mcp-Session-Id".into())),
            false,
        ),
        (
            PoolError::Protocol(ProtocolError::LegacyHttpSseServer {
                endpoint: "/messages".into(),
            }),
            false,
        ),
        (
            PoolError::Protocol(ProtocolError::Timeout {
                after_ms: 5,
                total: false,
            }),
            true,
        ),
    ];
    for (err, retried) in cases {
        let c = config(json!({"s": {"url": "https://s.example/mcp"}}));
        let mut p = core(&c, PoolOptions::default());
        let a = p.next_to_connect(0).unwrap();
        p.handle_connect_failed(1, &a, err.clone());
        let s = &p.status().servers[0];
        assert_eq!(s.state, ServerState::Failed);
        assert_eq!(s.next_retry_at.is_some(), retried, "{err}");
        assert_eq!(s.last_error.as_ref().unwrap().code, err.code());
    }
}

// Runs in the runtime `wasm-pack test` asks for (see tests/wasm-test-mode).
mcp_edge_wasm_test_mode::configure!();

/// Once the fast retries are spent, a remote server is retried every `slow_ms` (jittered) for as
/// long as the pool lives, and comes back on its own; meanwhile it reports why it is unavailable.
#[test]
fn after_the_fast_retries_a_server_is_retried_slowly_forever_and_comes_back() {
    let b = BackoffPolicy {
        initial_ms: 10,
        max_ms: 10,
        jitter_percent: 20,
        max_retries: 2,
        max_total_retries: 3,
        stable_after_ms: 100,
        multiplier: 2,
        slow_ms: Some(60_000),
    };
    let c = config(json!({"s": {"url": "https://s.example/mcp"}}));
    let mut p = core(
        &c,
        PoolOptions {
            backoff: b,
            jitter_seed: 7,
            ..PoolOptions::default()
        },
    );
    let mut now = 0;
    let mut slow_gaps = Vec::new();
    // 200 failures in a row: never given up, and every gap after the fast ones is a slow one.
    for i in 0..200 {
        let a = p.next_to_connect(now).expect("always retried");
        assert!(p.handle_connect_failed(now, &a, network()));
        let s = p.status().servers[0].clone();
        assert!(!s.gave_up);
        let at = s.next_retry_at.expect("a retry is always scheduled");
        if i >= 2 {
            assert!(s.slow_retry, "retry {i} is slow");
            let gap = at - now;
            assert!((48_000..=60_000).contains(&gap), "jittered slow gap {gap}");
            slow_gaps.push(gap);
        } else {
            assert!(!s.slow_retry);
            assert!(at - now <= 10);
        }
        // A call meanwhile learns the state and the retry time.
        match p.unavailable("s", now) {
            Some(PoolError::ServerUnavailable {
                state,
                next_retry_at,
                retry_in_ms,
                ..
            }) => assert_eq!(
                (state, next_retry_at, retry_in_ms),
                ("failed", Some(at), Some(at - now))
            ),
            other => panic!("{other:?}"),
        }
        assert_eq!(p.next_to_connect(at - 1), None, "not before its time");
        now = at;
    }
    slow_gaps.dedup();
    assert!(slow_gaps.len() > 10, "the jitter varies: {slow_gaps:?}");
    // The server is back: connected, the slow mode ends, nothing is unavailable.
    let a = p.next_to_connect(now).unwrap();
    assert!(p.handle_connected(now, &a, ConnectInfo::default()));
    let s = &p.status().servers[0];
    assert!(!s.slow_retry && s.next_retry_at.is_none());
    assert_eq!(p.unavailable("s", now), None);
    // It flaps again at once: the streak was not reset, so the next retry is slow again.
    assert!(p.handle_disconnected(now + 1, "s", network()));
    assert!(p.status().servers[0].slow_retry);
    // A server that is off says so, with no retry time.
    p.disable("s").unwrap();
    assert!(matches!(
        p.unavailable("s", now),
        Some(PoolError::ServerUnavailable {
            state: "disabled",
            next_retry_at: None,
            ..
        })
    ));
}

#[test]
fn the_reconnect_option_is_read_over_the_defaults_and_checked() {
    let b = BackoffPolicy::from_json(
        &json!({"initialMs": 100, "maxMs": 400, "maxRetries": 3, "slowMs": 2000}),
    )
    .unwrap();
    assert_eq!(
        (b.initial_ms, b.max_ms, b.max_retries, b.slow_ms),
        (100, 400, 3, Some(2000))
    );
    assert_eq!(b.multiplier, BackoffPolicy::default().multiplier);
    assert_eq!(
        BackoffPolicy::from_json(&json!({"slowMs": null}))
            .unwrap()
            .slow_ms,
        None
    );
    assert_eq!(
        BackoffPolicy::from_json(&Value::Null).unwrap(),
        BackoffPolicy::default()
    );
    for bad in [
        json!({"jitterPercent": 101}),
        json!({"initialMs": -1}),
        json!({"slow": 5}),
        json!([1]),
    ] {
        let e = BackoffPolicy::from_json(&bad).unwrap_err();
        assert_eq!(e.code(), "INVALID_OPTION", "{bad}");
    }
}

/// Events nobody polls are bounded; the first poll after a loss says how many went.
#[test]
fn unpolled_events_are_bounded_and_the_loss_is_reported() {
    let mut servers = Map::new();
    for i in 0..1500 {
        servers.insert(
            format!("s{i:04}"),
            json!({"url": format!("https://h{i}.example/mcp")}),
        );
    }
    let c = config(json!(servers));
    let mut p = core(
        &c,
        PoolOptions {
            max_in_flight: 2000,
            ..PoolOptions::default()
        },
    );
    while p.next_to_connect(0).is_some() {}
    // 1,500 state changes, 1,024 kept.
    match p.poll_event() {
        Some(PoolEvent::Dropped { dropped }) => assert_eq!(dropped, 1500 - 1024),
        other => panic!("{other:?}"),
    }
    let mut rest = 0;
    while let Some(e) = p.poll_event() {
        assert!(matches!(e, PoolEvent::StateChanged { .. }));
        rest += 1;
    }
    assert_eq!(rest, 1024);
}

/// A browser reports a server that went away as a CORS failure: once the server connected from
/// this origin, a CORS failure of a reconnect is retried as a network failure; before that it is
/// a configuration error and is not.
#[test]
fn a_cors_failure_after_a_working_connection_is_retried() {
    let c = config(json!({"s": {"url": "https://s.example/mcp"}}));
    let cors = || PoolError::Protocol(ProtocolError::Cors("blocked".into()));
    let mut p = core(&c, PoolOptions::default());
    let a = p.next_to_connect(0).unwrap();
    p.handle_connect_failed(1, &a, cors());
    let s = p.status().servers[0].clone();
    assert_eq!(
        (s.state, s.next_retry_at),
        (ServerState::Failed, None),
        "never connected: CORS is final"
    );
    assert_eq!(s.last_error.unwrap().code, "CORS");
    let mut p = core(&c, PoolOptions::default());
    let a = p.next_to_connect(0).unwrap();
    p.handle_connected(1, &a, ConnectInfo::default());
    p.handle_disconnected(2, "s", network());
    let at = p.status().servers[0].next_retry_at.unwrap();
    let a = p.next_to_connect(at).unwrap();
    p.handle_connect_failed(at + 1, &a, cors());
    let s = p.status().servers[0].clone();
    assert!(s.next_retry_at.is_some(), "retried: {s:?}");
    assert_eq!(s.last_error.unwrap().code, "NETWORK");
}
