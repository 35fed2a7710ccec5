//! The `mcp-edge-harness` binary, run as a user would run it, against the well-behaved fixture.

use std::process::Command;

fn harness() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mcp-edge-harness"))
}

fn fixture() -> String {
    format!(
        "{}/fixtures/misbehaving_server.py",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn tools_and_call_over_stdio() {
    let out = harness()
        .args([
            "tools",
            "--stdio",
            "--",
            "python3",
            &fixture(),
            "--mode",
            "well-behaved",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "echo");

    let out = harness()
        .args(["call", "echo", r#"{"n": 5}"#, "--stdio", "--"])
        .args(["python3", &fixture(), "--mode", "well-behaved"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["content"][0]["text"], "{\"n\": 5}");
}

#[test]
fn scenario_with_a_transcript() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let scenario = dir.join("cli-scenario.json");
    let transcript = dir.join("cli-transcript.json");
    std::fs::write(
        &scenario,
        r#"{"name": "cli", "server": "fixture", "protocol": "2025-11-25", "steps": [
            {"op": "connect"},
            {"op": "list_tools", "expect": {"names_include": ["echo"]}},
            {"op": "call", "name": "echo", "arguments": {"x": true}, "expect": {"text": "{\"x\": true}"}}]}"#,
    )
    .unwrap();
    let out = harness()
        .arg("scenario")
        .arg(&scenario)
        .arg("--transcript")
        .arg(&transcript)
        .args([
            "--stdio",
            "--",
            "python3",
            &fixture(),
            "--mode",
            "well-behaved",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("ok cli (3 steps)"));
    let t: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&transcript).unwrap()).unwrap();
    assert_eq!(t["format"], "mcp-edge-transcript/1");
    assert_eq!(t["transport"], "stdio");
    let methods: Vec<&str> = t["normalised"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["dir"] == "out")
        .filter_map(|e| e["msg"]["method"].as_str())
        .collect();
    assert_eq!(
        methods,
        [
            "initialize",
            "notifications/initialized",
            "tools/list",
            "tools/call"
        ]
    );

    // A failed expectation is exit status 1 and names the step.
    std::fs::write(
        &scenario,
        r#"{"name": "cli", "server": "fixture", "protocol": "2025-11-25", "steps": [
            {"op": "connect"}, {"op": "call", "name": "echo", "expect": {"text": "nope"}}]}"#,
    )
    .unwrap();
    let out = harness()
        .arg("scenario")
        .arg(&scenario)
        .args([
            "--stdio",
            "--",
            "python3",
            &fixture(),
            "--mode",
            "well-behaved",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("step 1: expected text \"nope\""));
}

#[test]
fn usage_errors_exit_with_2() {
    for args in [
        &["tools"][..],
        &["tools", "--url", "http://127.0.0.1:1/mcp", "--", "x"],
        &["frob", "--url", "http://127.0.0.1:1/"],
    ] {
        let out = harness().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("usage"),
            "{args:?}"
        );
    }
    let out = harness()
        .args(["tools", "--url", "http://example.com/mcp"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("loopback"));
}
