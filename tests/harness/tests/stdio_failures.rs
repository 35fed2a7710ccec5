//! The stdio transport against servers that misbehave on purpose
//! (`tests/harness/fixtures/misbehaving_server.py`), and against a command that does not exist.

mod support;

use std::time::Duration;

use mcp_edge::proto::session::{ListKind, ProtocolError};
use mcp_edge_harness::{Client, DriverLimits, HarnessError, ShutdownOutcome, StdioCommand};
use serde_json::json;
use support::{config, misbehaving};

fn client(cmd: &StdioCommand) -> Client {
    let mut cfg = config("");
    // A 2025-era fixture answers the probe with -32601 at once; these bound the silent one.
    cfg.probe_timeout_ms = 2_000;
    cfg.request_timeout_ms = Some(60_000);
    let mut c = Client::stdio(cmd, cfg).expect("spawn");
    c.set_limits(DriverLimits {
        max_wait: Duration::from_secs(90),
        ..DriverLimits::default()
    });
    c
}

#[test]
fn the_control_fixture_works() {
    let mut c = client(&misbehaving("well-behaved"));
    let info = c.connect().unwrap();
    assert_eq!(info["era"], "legacy");
    assert_eq!(info["serverInfo"]["name"], "misbehaving-well-behaved");
    let tools = c.list(ListKind::Tools).unwrap();
    assert_eq!(tools["tools"][0]["name"], "echo");
    let r = c
        .call("tools/call", json!({"name": "echo", "arguments": {"k": 1}}))
        .unwrap();
    assert_eq!(r["content"][0]["text"], "{\"k\": 1}");
    // stdin closed: the fixture's read loop ends and it exits by itself within the grace period.
    assert_eq!(c.close(), Some(ShutdownOutcome::Exited(Some(0))));
}

#[test]
fn a_banner_on_stdout_is_a_clear_error_naming_the_line() {
    let mut c = client(&misbehaving("banner"));
    let err = c.connect().unwrap_err();
    match &err {
        HarnessError::Protocol(ProtocolError::StdoutNotJsonRpc { line }) => {
            assert!(line.contains("Starting demo-server v1.2"), "{line}")
        }
        other => panic!("expected StdoutNotJsonRpc, got {other:?}"),
    }
    assert!(
        err.to_string().contains("Starting demo-server v1.2"),
        "{err}"
    );
}

#[test]
fn a_megabyte_of_stderr_does_not_stall_the_server() {
    let mut cmd = misbehaving("stderr-flood");
    cmd.stderr_keep_bytes = 16 * 1024;
    let mut c = client(&cmd);
    // The fixture writes 1 MiB to stderr before it reads its first message: it can only answer
    // if the pipe is drained while it writes (a pipe holds 64 KiB).
    c.connect().unwrap();
    let r = c
        .call("tools/call", json!({"name": "echo", "arguments": {}}))
        .unwrap();
    assert_eq!(r["content"][0]["text"], "{}");
    let log = c.stderr_log().unwrap();
    let log = log.lock().unwrap();
    assert!(log.total() >= 1 << 20, "drained {} bytes", log.total());
    assert_eq!(log.len(), 16 * 1024, "the log is bounded");
    assert!(
        log.text().ends_with("flood done\n"),
        "keeps the newest bytes"
    );
}

#[test]
fn a_server_exiting_mid_call_fails_the_call_promptly() {
    let mut c = client(&misbehaving("exit-mid-call"));
    c.connect().unwrap();
    // The request timeout is 60 s: a Network error (not a Timeout) shows the exit was noticed.
    let err = c
        .call("tools/call", json!({"name": "echo", "arguments": {}}))
        .unwrap_err();
    match &err {
        HarnessError::Protocol(ProtocolError::Network(reason)) => {
            assert!(reason.contains("exit status: 3"), "{reason}");
            assert!(
                reason.contains("simulated crash while handling tools/call"),
                "{reason}"
            );
        }
        other => panic!("expected a Network error, got {other:?}"),
    }
    // Later requests fail at once too, and nothing is left running.
    let again = c.call("tools/call", json!({"name": "echo"})).unwrap_err();
    assert!(matches!(again, HarnessError::Protocol(_)), "{again:?}");
    assert_eq!(c.pending_ops(), 0);
}

#[test]
fn a_server_that_never_answers_times_out() {
    let mut cfg = config("");
    cfg.probe_timeout_ms = 300;
    cfg.request_timeout_ms = Some(700);
    let mut c = Client::stdio(&misbehaving("silent"), cfg).unwrap();
    let err = c.connect().unwrap_err();
    assert_eq!(
        err,
        HarnessError::Protocol(ProtocolError::Timeout {
            after_ms: 700,
            total: false
        })
    );
    // Its read loop ends when stdin closes, so it exits within the grace period.
    assert!(matches!(c.close(), Some(ShutdownOutcome::Exited(_))));
}

#[test]
fn a_server_that_ignores_stdin_close_is_killed_after_the_grace_period() {
    let mut cmd = StdioCommand::new(
        "python3",
        [
            "-c",
            "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\ntime.sleep(600)",
        ],
    );
    cmd.grace = Duration::from_millis(200);
    let mut cfg = config("");
    cfg.probe_timeout_ms = 100;
    cfg.request_timeout_ms = Some(200);
    let mut c = Client::stdio(&cmd, cfg).unwrap();
    assert!(c.connect().is_err());
    assert_eq!(c.close(), Some(ShutdownOutcome::Killed));
}

#[test]
fn a_command_that_does_not_exist_is_a_clear_spawn_error() {
    let cmd = StdioCommand::new("/nonexistent/mcp-server-xyz", ["--flag"]);
    let err = Client::stdio(&cmd, config(""))
        .err()
        .expect("no such program");
    match &err {
        HarnessError::Spawn { program, reason } => {
            assert_eq!(program, "/nonexistent/mcp-server-xyz");
            assert!(reason.contains("No such file"), "{reason}");
        }
        other => panic!("expected Spawn, got {other:?}"),
    }
    assert!(err.to_string().contains("/nonexistent/mcp-server-xyz"));
    // A program name is never run through a shell: metacharacters are part of the name.
    let err = Client::stdio(
        &StdioCommand::new("echo hi; true", Vec::<String>::new()),
        config(""),
    )
    .err()
    .expect("not a program");
    assert!(matches!(err, HarnessError::Spawn { .. }), "{err:?}");
}

/// A server that never reads its stdin cannot make the client's write queue grow without end:
/// once the bound is reached, further lines are refused with the reason.
#[test]
fn a_server_that_does_not_read_stdin_fills_a_bounded_queue_then_writes_are_refused() {
    use mcp_edge_harness::stdio::{StdioProcess, MAX_QUEUED_BYTES};
    let (tx, _rx) = std::sync::mpsc::sync_channel(64);
    let mut p = StdioProcess::spawn(&StdioCommand::new("sleep", ["30"]), tx).expect("spawn");
    let line = vec![b'x'; 64 * 1024];
    let mut accepted = 0usize;
    let refused = loop {
        match p.write_line(line.clone()) {
            Ok(()) => accepted += 1,
            Err(e) => break e,
        }
        assert!(accepted < 10_000, "the queue never refused a line");
    };
    assert!(refused.contains("not reading its stdin"), "{refused}");
    // What was accepted stays within the byte bound (plus what the pipe took).
    assert!(
        accepted * line.len() <= MAX_QUEUED_BYTES + (1 << 20),
        "{accepted} lines"
    );
    assert_eq!(p.shutdown(), ShutdownOutcome::Killed);
}
