//! Tool search over a large catalog, natively: index build time (the registry as a pool builds
//! it, and the search index alone), the time to replace one server's tools, query latency, the
//! retrieval quality on a fixed query set (recall@5, hit@1) and the token cost of the exports
//! with and without deferral.
//!
//! Run through `bash tests/bench/search/run.sh`, which writes the catalog and the queries as
//! JSON and passes their paths: `MCP_EDGE_CATALOG=<file> MCP_EDGE_QUERIES=<file> cargo bench
//! --bench tool_search`. Prints one JSON object (medians over the rounds, the machine's load
//! average); asserts nothing about speed. `MCP_EDGE_SEARCH_MISSES=1` also lists, on stderr, each
//! query whose expected tools are not all in its top 5.

use mcp_edge::tools::deferral::{export, ToolSearchConfig};
use mcp_edge::tools::export::ExportFormat;
use mcp_edge::tools::search::SearchIndex;
use mcp_edge::tools::ToolRegistry;
use serde_json::{json, Value};
use std::hint::black_box;
use std::time::Instant;

const ROUNDS: usize = 7;
const QUERY_REPEATS: usize = 20;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn percentile(mut v: Vec<f64>, p: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    v[i]
}

/// The JSON file `var` names. Without it (`cargo test --all-targets` runs this binary too) the
/// pool vectors' small catalog and one query stand in, so the code path still runs.
fn read(var: &str) -> Value {
    let Ok(path) = std::env::var(var) else {
        return match var {
            "MCP_EDGE_CATALOG" => {
                let v: Value =
                    serde_json::from_str(include_str!("../tests/vectors/pool/tools.json"))
                        .unwrap_or_default();
                let m: serde_json::Map<String, Value> = v
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|(s, x)| (s.clone(), x["tools"].clone()))
                    .collect();
                Value::Object(m)
            }
            _ => json!([{"query": "search", "expected": [{"server": "alpha", "tool": "search"}]}]),
        };
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

fn main() {
    let catalog = read("MCP_EDGE_CATALOG");
    let queries = read("MCP_EDGE_QUERIES");
    let servers: Vec<(String, Vec<Value>)> = catalog
        .as_object()
        .expect("catalog: {server: [tools]}")
        .iter()
        .map(|(s, t)| (s.clone(), t.as_array().cloned().unwrap_or_default()))
        .collect();
    let tools: usize = servers.iter().map(|(_, t)| t.len()).sum();

    let mut build = Vec::new();
    let mut index_only = Vec::new();
    let mut replace_one = Vec::new();
    let mut registry = ToolRegistry::default();
    for _ in 0..ROUNDS {
        let t = Instant::now();
        let mut r = ToolRegistry::default();
        for (s, list) in &servers {
            r.set_server_tools(s, None, None, list);
        }
        build.push(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        let mut ix = SearchIndex::new();
        for (s, list) in &servers {
            ix.set_server(s, list.iter());
        }
        index_only.push(t.elapsed().as_secs_f64() * 1e3);
        black_box(&ix);
        // One server's list changed: only its tools are replaced.
        let (s, list) = &servers[0];
        let t = Instant::now();
        r.set_server_tools(s, None, None, list);
        replace_one.push(t.elapsed().as_secs_f64() * 1e3);
        registry = r;
    }

    let qs: Vec<(String, Vec<(String, String)>)> = queries
        .as_array()
        .expect("queries: an array")
        .iter()
        .map(|q| {
            let expected = q["expected"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|e| {
                    (
                        e["server"].as_str().unwrap_or_default().to_string(),
                        e["tool"].as_str().unwrap_or_default().to_string(),
                    )
                })
                .collect();
            (
                q["query"].as_str().unwrap_or_default().to_string(),
                expected,
            )
        })
        .collect();
    let mut latencies = Vec::new();
    for _ in 0..QUERY_REPEATS {
        for (q, _) in &qs {
            let t = Instant::now();
            black_box(registry.search(q, 5, None));
            latencies.push(t.elapsed().as_secs_f64() * 1e6);
        }
    }
    let (mut found, mut wanted, mut hit1) = (0usize, 0usize, 0usize);
    for (q, expected) in &qs {
        let hits = registry.search(q, 5, None);
        let got: Vec<(&str, &str)> = hits
            .iter()
            .map(|(t, _)| (t.server.as_str(), t.tool.as_str()))
            .collect();
        if std::env::var_os("MCP_EDGE_SEARCH_MISSES").is_some()
            && !expected
                .iter()
                .all(|(s, t)| got.contains(&(s.as_str(), t.as_str())))
        {
            eprintln!("miss: {q:?}\n  want {expected:?}\n  got  {got:?}");
        }
        wanted += expected.len();
        found += expected
            .iter()
            .filter(|(s, t)| got.contains(&(s.as_str(), t.as_str())))
            .count();
        if got
            .first()
            .is_some_and(|g| expected.iter().any(|(s, t)| (s.as_str(), t.as_str()) == *g))
        {
            hit1 += 1;
        }
    }
    let mut tokens = serde_json::Map::new();
    let exported = registry.exported();
    for format in [
        ExportFormat::OpenAi,
        ExportFormat::OpenAiResponses,
        ExportFormat::Anthropic,
        ExportFormat::Mcp,
    ] {
        let (_, r) = export(&exported, format, &ToolSearchConfig::default());
        tokens.insert(
            serde_json::to_value(format)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default(),
            json!({"all": r.total_tokens, "upfront": r.upfront_tokens, "deferred": r.deferred}),
        );
    }
    let report = json!({
        "servers": servers.len(),
        "tools": tools,
        "exported": exported.len(),
        "queries": qs.len(),
        "rounds": ROUNDS,
        "registryBuildMs": median(build),
        "indexBuildMs": median(index_only),
        "replaceOneServerMs": median(replace_one),
        "queryUs": {"p50": percentile(latencies.clone(), 0.5), "p99": percentile(latencies, 0.99)},
        "recallAt5": found as f64 / wanted.max(1) as f64,
        "hitAt1": hit1 as f64 / qs.len().max(1) as f64,
        "tokens": tokens,
        "loadAverage": load_average(),
    });
    println!("{report}");
}
