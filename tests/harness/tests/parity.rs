//! Parity: every scenario in `tests/scenarios/` runs against the same server logic over stdio and
//! over native Streamable HTTP; the normalised transcripts must be equal, and every expectation in
//! the scenario must hold on both. A mismatch prints a unified diff of the two transcripts.

mod support;

use mcp_edge_harness::scenario::Scenario;
use mcp_edge_harness::transcript::{diff, normalise};
use support::{run_http, run_stdio, save, scenarios_dir, HttpServer, Kind};

fn parity(file: &str) {
    let path = scenarios_dir().join(file);
    let sc = Scenario::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let kind = Kind::parse(&sc.server);
    let stdio = run_stdio(&sc, kind);
    let http = {
        let server = HttpServer::start(kind);
        run_http(&sc, &server.url)
    };
    let (sp, hp) = (save(&sc, &stdio), save(&sc, &http));
    let mut problems = Vec::new();
    for run in [&stdio, &http] {
        for f in &run.failures {
            problems.push(format!("[{}] {f}", run.transport));
        }
    }
    assert!(
        problems.is_empty(),
        "{}: expectations failed:\n{}\nstdio server stderr (tail):\n{}\ntranscripts: {} {}",
        sc.name,
        problems.join("\n"),
        stdio.stderr.as_deref().unwrap_or(""),
        sp.display(),
        hp.display()
    );
    let (a, b) = (normalise(&stdio.raw), normalise(&http.raw));
    assert!(
        a.len() > sc.steps.len(),
        "{}: the transcript is too short to mean anything",
        sc.name
    );
    if let Some(d) = diff(&a, &b, "stdio (normalised)", "http (normalised)") {
        panic!(
            "{}: PARITY FAILURE: stdio and HTTP transcripts differ\n{d}\nraw transcripts: {} {}",
            sc.name,
            sp.display(),
            hp.display()
        );
    }
}

macro_rules! scenarios {
    ($($test:ident => $file:literal,)+) => {
        $( #[test] fn $test() { parity($file); } )+

        /// Every scenario file has a test above, and there are at least 8.
        #[test]
        fn every_scenario_file_is_run() {
            support::check_every_scenario_listed(&[$($file),+], "parity");
        }
    };
}

scenarios! {
    python_modern_tools => "python-modern-tools.json",
    python_modern_progress => "python-modern-progress.json",
    python_modern_mrtr => "python-modern-mrtr.json",
    python_modern_param_header => "python-modern-param-header.json",
    python_modern_cancel => "python-modern-cancel.json",
    python_legacy_tools => "python-legacy-tools.json",
    python_legacy_progress => "python-legacy-progress.json",
    python_legacy_elicitation => "python-legacy-elicitation.json",
    everything_tools => "everything-tools.json",
    everything_prompts => "everything-prompts.json",
    everything_resources => "everything-resources.json",
    everything_progress => "everything-progress.json",
    everything_cancel => "everything-cancel.json",
    python_legacy_cancel => "python-legacy-cancel.json",
}
