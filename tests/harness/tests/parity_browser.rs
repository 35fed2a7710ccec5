//! Browser parity: every scenario in `tests/scenarios/` runs over native Streamable HTTP (the Rust
//! harness) and through the wasm client's public JS API in headless Chromium
//! (`tests/harness/browser/`), against the same server. The browser leg writes a raw transcript;
//! it is normalised here with the harness's own `normalise`, so both legs go through one
//! normaliser. Every expectation must hold on both legs and the normalised transcripts must be
//! equal, else the harness's unified diff is printed. With `tests/parity.rs` (stdio == HTTP)
//! this makes the three legs equal.
//!
//! Needs node, `/usr/bin/chromium` and the wasm `web` package; `tests/harness/browser/setup.sh`
//! (run once per test process) installs playwright-core as locked and builds the package when
//! its sources changed. The legs run one at a time (one server and one browser at once).

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

use mcp_edge_harness::scenario::Scenario;
use mcp_edge_harness::transcript::{diff, normalise, FORMAT};
use serde_json::Value;
use support::{harness_dir, run_http, save, scenarios_dir, HttpServer, Kind, Run};

/// One scenario at a time: each starts a server and a browser, and the machine has 2 cores.
static SERIAL: Mutex<()> = Mutex::new(());

fn browser_dir() -> PathBuf {
    harness_dir().join("browser")
}

/// Runs `browser/setup.sh` once (idempotent); returns the wasm package directory. A failure is a
/// test failure, not a skip.
fn web_package() -> &'static Path {
    static PKG: OnceLock<PathBuf> = OnceLock::new();
    PKG.get_or_init(|| {
        let script = browser_dir().join("setup.sh");
        let mut cmd = Command::new(&script);
        // If the package is stale, wasm-pack runs cargo; a separate target directory keeps it
        // clear of the lock of the `cargo test` that runs this test.
        cmd.env(
            "CARGO_TARGET_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("parity-web-cargo"),
        );
        let out = cmd
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", script.display()));
        assert!(
            out.status.success(),
            "{} failed ({}):\n{}",
            script.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
    })
}

/// Runs `sc` in headless Chromium against `url`; the raw transcript and failed expectations.
fn run_browser(sc: &Scenario, file: &Path, url: &str) -> Run {
    let pkg = web_package();
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-legs");
    std::fs::create_dir_all(&out_dir).unwrap();
    let out = out_dir.join(format!("{}.raw.json", sc.name));
    let _ = std::fs::remove_file(&out);
    let script = browser_dir().join("run-browser-leg.mjs");
    let status = Command::new("node")
        .arg(&script)
        .arg("--scenario")
        .arg(file)
        .arg("--url")
        .arg(url)
        .arg("--out")
        .arg(&out)
        .arg("--pkg")
        .arg(pkg)
        .output()
        .unwrap_or_else(|e| panic!("cannot run node {}: {e}", script.display()));
    assert!(
        status.status.success(),
        "{}: the browser leg did not run ({}):\n{}",
        sc.name,
        status.status,
        String::from_utf8_lossy(&status.stderr)
    );
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(doc["format"], FORMAT, "{}", out.display());
    assert_eq!(doc["transport"], "browser", "{}", out.display());
    let raw = doc["entries"].as_array().cloned().unwrap_or_default();
    let failures = doc["failures"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|f| f.as_str().unwrap_or("?").to_string())
                .collect()
        })
        .unwrap_or_else(|| vec!["the browser leg wrote no failures list".into()]);
    let console = doc["console"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default();
    Run {
        transport: "browser",
        failures,
        raw,
        stderr: Some(console),
    }
}

fn browser_parity(file: &str) {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let path = scenarios_dir().join(file);
    let sc = Scenario::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let kind = Kind::parse(&sc.server);
    let server = HttpServer::start(kind);
    let http = run_http(&sc, &server.url);
    let browser = run_browser(&sc, &path, &server.url);
    drop(server);
    let (hp, bp) = (save(&sc, &http), save(&sc, &browser));
    let mut problems = Vec::new();
    for run in [&http, &browser] {
        for f in &run.failures {
            problems.push(format!("[{}] {f}", run.transport));
        }
    }
    assert!(
        problems.is_empty(),
        "{}: expectations failed:\n{}\nbrowser console:\n{}\ntranscripts: {} {}",
        sc.name,
        problems.join("\n"),
        browser.stderr.as_deref().unwrap_or(""),
        hp.display(),
        bp.display()
    );
    let (a, b) = (normalise(&http.raw), normalise(&browser.raw));
    assert!(
        b.len() > sc.steps.len(),
        "{}: the browser transcript is too short to mean anything",
        sc.name
    );
    if let Some(d) = diff(&a, &b, "http (normalised)", "browser (normalised)") {
        panic!(
            "{}: PARITY FAILURE: native HTTP and browser transcripts differ\n{d}\nraw transcripts: {} {}",
            sc.name,
            hp.display(),
            bp.display()
        );
    }
}

/// The browser leg's own unit tests (`browser/unit.test.mjs`: the event-stream decoder at every
/// split, the line-paced fetch, the recorder, the scenario checks), run with `node --test`.
#[test]
fn browser_leg_unit_tests() {
    let out = Command::new("node")
        .arg("--test")
        .arg(browser_dir().join("unit.test.mjs"))
        .output()
        .expect("run node --test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "node --test failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("# fail 0"), "{stdout}");
}

macro_rules! scenarios {
    ($($test:ident => $file:literal,)+) => {
        $( #[test] fn $test() { browser_parity($file); } )+

        /// Every scenario file has a browser parity test above.
        #[test]
        fn every_scenario_file_runs_in_the_browser() {
            support::check_every_scenario_listed(&[$($file),+], "browser parity");
        }
    };
}

scenarios! {
    browser_python_modern_tools => "python-modern-tools.json",
    browser_python_modern_progress => "python-modern-progress.json",
    browser_python_modern_mrtr => "python-modern-mrtr.json",
    browser_python_modern_param_header => "python-modern-param-header.json",
    browser_python_modern_cancel => "python-modern-cancel.json",
    browser_python_legacy_tools => "python-legacy-tools.json",
    browser_python_legacy_progress => "python-legacy-progress.json",
    browser_python_legacy_elicitation => "python-legacy-elicitation.json",
    browser_python_legacy_cancel => "python-legacy-cancel.json",
    browser_everything_tools => "everything-tools.json",
    browser_everything_prompts => "everything-prompts.json",
    browser_everything_resources => "everything-resources.json",
    browser_everything_progress => "everything-progress.json",
    browser_everything_cancel => "everything-cancel.json",
}
