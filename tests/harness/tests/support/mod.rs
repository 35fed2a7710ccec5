//! Shared test support: the real servers (installed by their own idempotent setup scripts under
//! `tests/servers/`), started on 127.0.0.1 and stopped by the test that started them.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use mcp_edge::proto::session::SessionConfig;
use mcp_edge_harness::scenario::Scenario;
use mcp_edge_harness::{Client, StdioCommand};
use serde_json::{json, Value};

/// Which server logic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `@modelcontextprotocol/server-everything` (npm, pinned in tests/servers/everything).
    Everything,
    /// The Python `mcp` SDK test server (tests/servers/python/server_2026.py).
    Python,
}

impl Kind {
    pub fn parse(name: &str) -> Kind {
        match name {
            "everything" => Kind::Everything,
            "python" => Kind::Python,
            other => panic!("unknown server {other:?} (everything, python)"),
        }
    }
    fn dir(self) -> &'static str {
        match self {
            Kind::Everything => "everything",
            Kind::Python => "python",
        }
    }
}

/// The harness crate's directory.
pub fn harness_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `tests/servers` in this tree, or `MCP_EDGE_SERVERS_DIR` (a local override, e.g. a checkout
/// where the servers are set up already).
pub fn servers_dir() -> PathBuf {
    match std::env::var_os("MCP_EDGE_SERVERS_DIR") {
        Some(d) => PathBuf::from(d),
        None => harness_dir().join("..").join("servers"),
    }
}

/// `tests/scenarios`.
pub fn scenarios_dir() -> PathBuf {
    harness_dir().join("..").join("scenarios")
}

/// The scenario files (`*.json`) in `tests/scenarios/`, sorted; checks that every one is in
/// `listed` (so a new scenario cannot be forgotten by a parity suite) and that there are at least 8.
pub fn check_every_scenario_listed(listed: &[&str], suite: &str) {
    let mut files: Vec<String> = std::fs::read_dir(scenarios_dir())
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".json"))
        .collect();
    files.sort();
    for f in &files {
        assert!(
            listed.contains(&f.as_str()),
            "tests/scenarios/{f} has no {suite} test"
        );
    }
    assert!(files.len() >= 8, "only {} scenarios", files.len());
}

/// Runs `<servers>/<kind>/setup.sh` once per test process (it is idempotent and skips when the
/// pinned versions are installed). Panics with its output when it fails: a missing server is a
/// failure, not a skip.
pub fn setup(kind: Kind) {
    static LOCK: Mutex<()> = Mutex::new(());
    static EVERYTHING: OnceLock<()> = OnceLock::new();
    static PYTHON: OnceLock<()> = OnceLock::new();
    let once = match kind {
        Kind::Everything => &EVERYTHING,
        Kind::Python => &PYTHON,
    };
    once.get_or_init(|| {
        let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let script = servers_dir().join(kind.dir()).join("setup.sh");
        let out = Command::new(&script)
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", script.display()));
        assert!(
            out.status.success(),
            "{} failed ({}):\n{}\n{}",
            script.display(),
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    });
}

/// A Streamable HTTP server started by `<kind>/start.sh` in a private run directory, stopped by
/// `<kind>/stop.sh` when dropped.
pub struct HttpServer {
    kind: Kind,
    run_dir: PathBuf,
    pub url: String,
}

impl HttpServer {
    pub fn start(kind: Kind) -> HttpServer {
        static N: AtomicUsize = AtomicUsize::new(0);
        setup(kind);
        let run_dir = std::env::temp_dir().join(format!(
            "mcp-edge-harness-{}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst),
            kind.dir()
        ));
        std::fs::create_dir_all(&run_dir).unwrap();
        let script = servers_dir().join(kind.dir()).join("start.sh");
        let out = Command::new(&script)
            .arg("0")
            .env("MCP_TEST_RUN_DIR", &run_dir)
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", script.display()));
        let server = HttpServer {
            kind,
            url: String::from_utf8_lossy(&out.stdout).trim().to_string(),
            run_dir,
        };
        assert!(
            out.status.success() && server.url.starts_with("http://127.0.0.1:"),
            "{} failed ({}): {}\n{}",
            script.display(),
            out.status,
            server.url,
            String::from_utf8_lossy(&out.stderr)
        );
        server
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let script = servers_dir().join(self.kind.dir()).join("stop.sh");
        let _ = Command::new(&script)
            .env("MCP_TEST_RUN_DIR", &self.run_dir)
            .output();
        let _ = std::fs::remove_dir_all(&self.run_dir);
    }
}

/// The command that runs `kind`'s server logic over stdio.
pub fn stdio_command(kind: Kind) -> StdioCommand {
    setup(kind);
    let servers = servers_dir();
    let mut cmd = match kind {
        Kind::Everything => {
            let entry = servers.join(
                "everything/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
            );
            StdioCommand::new("node", [entry.into_os_string(), "stdio".into()])
        }
        Kind::Python => StdioCommand::new(
            servers.join("python/.venv/bin/python"),
            [
                harness_dir()
                    .join("fixtures/python_stdio_server.py")
                    .into_os_string(),
                "--server-dir".into(),
                servers.join("python").into_os_string(),
            ],
        ),
    };
    // As start.sh does: the gzip tool may only fetch from loopback.
    cmd.env
        .push(("GZIP_ALLOWED_DOMAINS".into(), "127.0.0.1,localhost".into()));
    cmd
}

/// A misbehaving fixture server (tests/harness/fixtures/misbehaving_server.py) in `mode`.
pub fn misbehaving(mode: &str) -> StdioCommand {
    StdioCommand::new(
        "python3",
        [
            harness_dir()
                .join("fixtures/misbehaving_server.py")
                .into_os_string(),
            "--mode".into(),
            mode.into(),
        ],
    )
}

/// The session configuration the tests use.
pub fn config(endpoint: &str) -> SessionConfig {
    let mut cfg = if endpoint.is_empty() {
        SessionConfig::stdio()
    } else {
        SessionConfig::new(endpoint)
    };
    cfg.client_info = json!({"name": "mcp-edge-harness-tests", "version": "0.1.0"});
    cfg.request_timeout_ms = Some(30_000);
    // The stdio era probe: a Python server importing its SDK on a busy 2-core machine can take
    // more than the 5 s default to answer `server/discover` (see the report on the late answer).
    cfg.probe_timeout_ms = 20_000;
    cfg
}

/// The result of one scenario run over one transport.
pub struct Run {
    pub transport: &'static str,
    pub failures: Vec<String>,
    pub raw: Vec<Value>,
    pub stderr: Option<String>,
}

/// Runs `sc` over stdio against `kind`.
pub fn run_stdio(sc: &Scenario, kind: Kind) -> Run {
    let mut cfg = config("");
    sc.configure(&mut cfg);
    let mut client = Client::stdio(&stdio_command(kind), cfg).expect("start the stdio server");
    let failures = sc.run(&mut client);
    let raw = client.recorder().entries().to_vec();
    let stderr = client.stderr_tail(4000);
    client.close();
    Run {
        transport: "stdio",
        failures,
        raw,
        stderr,
    }
}

/// Runs `sc` over native HTTP against `url`.
pub fn run_http(sc: &Scenario, url: &str) -> Run {
    let mut cfg = config(url);
    sc.configure(&mut cfg);
    let mut client = Client::http(cfg).expect("HTTP client");
    let failures = sc.run(&mut client);
    let raw = client.recorder().entries().to_vec();
    client.close();
    Run {
        transport: "http",
        failures,
        raw,
        stderr: None,
    }
}

/// Writes a run's raw and normalised transcript under the cargo target tmp dir; returns the path.
pub fn save(sc: &Scenario, run: &Run) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("transcripts");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{}.{}.json", sc.name, run.transport));
    let doc = json!({
        "format": mcp_edge_harness::transcript::FORMAT,
        "scenario": sc.name,
        "transport": run.transport,
        "entries": run.raw,
        "normalised": mcp_edge_harness::transcript::normalise(&run.raw),
    });
    std::fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    path
}
