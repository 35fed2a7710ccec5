//! Tool search over a registry (ranking, incremental updates, held and app-only tools never
//! found) and deferred exports (threshold, the native shapes, the fixed meta-tool pair).
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcp_edge::tools::deferral::{
    export, meta_tools, search_answer, DeferMode, DeferStyle, ToolSearchConfig, CALL_TOOL,
    SEARCH_TOOL,
};
use mcp_edge::tools::export::ExportFormat;
use mcp_edge::tools::pinning::{tool_fingerprint, MemoryPinStore};
use mcp_edge::tools::{AdaptOptions, ToolRegistry};
use serde_json::{json, Value};
use std::collections::BTreeMap;

fn tool(name: &str, description: &str, params: &[&str]) -> Value {
    let props: serde_json::Map<String, Value> = params
        .iter()
        .map(|p| (p.to_string(), json!({"type": "string"})))
        .collect();
    json!({"name": name, "description": description,
           "inputSchema": {"type": "object", "properties": props}})
}

fn tracker() -> Vec<Value> {
    vec![
        tool(
            "issues.create",
            "Open a new issue in a project.",
            &["title", "body"],
        ),
        tool("issues.close", "Close an issue.", &["id"]),
        tool("sprints.list", "List the sprints of a board.", &["board"]),
    ]
}

fn chat() -> Vec<Value> {
    vec![
        tool(
            "postMessage",
            "Send a message to a channel.",
            &["channel", "text"],
        ),
        tool("listChannels", "List the channels of the workspace.", &[]),
    ]
}

fn registry() -> ToolRegistry {
    let mut r = ToolRegistry::default();
    r.set_server_tools("tracker", None, None, &tracker());
    r.set_server_tools("chat", None, None, &chat());
    r
}

fn names(r: &ToolRegistry, q: &str, limit: usize) -> Vec<String> {
    r.search(q, limit, None)
        .into_iter()
        .map(|(t, _)| t.name.clone())
        .collect()
}

#[test]
fn search_finds_tools_by_what_they_do_across_servers() {
    let r = registry();
    assert_eq!(
        names(&r, "open a bug report", 1),
        ["mcp__tracker__issues_create"]
    );
    assert_eq!(
        names(&r, "send chat message", 1),
        ["mcp__chat__postMessage"]
    );
    // Parameter names count: "board" is only a parameter.
    assert_eq!(names(&r, "board", 5), ["mcp__tracker__sprints_list"]);
    // Limit and server filter.
    assert_eq!(names(&r, "list", 5).len(), 2);
    assert_eq!(names(&r, "list", 1).len(), 1);
    let only: Vec<String> = r
        .search("list", 5, Some(&["chat".to_string()]))
        .into_iter()
        .map(|(t, _)| t.name.clone())
        .collect();
    assert_eq!(only, ["mcp__chat__listChannels"]);
}

#[test]
fn the_index_follows_list_changes_and_removed_servers() {
    let mut r = registry();
    assert!(names(&r, "archive", 5).is_empty());
    let mut t = chat();
    t.push(tool(
        "archiveChannel",
        "Archive a channel nobody uses.",
        &["channel"],
    ));
    r.set_server_tools("chat", None, None, &t);
    assert_eq!(names(&r, "archive", 5), ["mcp__chat__archiveChannel"]);
    // The tool disappears again: no longer found.
    r.set_server_tools("chat", None, None, &chat());
    assert!(names(&r, "archive", 5).is_empty());
    r.remove_server("tracker");
    assert!(names(&r, "issue", 5).is_empty());
    assert_eq!(names(&r, "message", 5), ["mcp__chat__postMessage"]);
}

#[test]
fn held_and_app_only_tools_are_never_found() {
    // A pin that no longer matches holds `postMessage` back.
    let mut pins = MemoryPinStore::default();
    let mut old = chat()[0].clone();
    old["description"] = json!("Something else.");
    pins.pins.insert(
        "chat".into(),
        BTreeMap::from([("postMessage".to_string(), tool_fingerprint(&old))]),
    );
    let mut r = ToolRegistry::new(AdaptOptions::default(), pins);
    let mut t = chat();
    t.push(
        json!({"name": "viewOnly", "description": "Refresh the message view.",
                  "inputSchema": {"type": "object"},
                  "_meta": {"ui": {"resourceUri": "ui://chat/view", "visibility": ["app"]}}}),
    );
    r.set_server_tools("chat", None, None, &t);
    assert!(
        names(&r, "message", 5).is_empty(),
        "{:?}",
        names(&r, "message", 5)
    );
    r.accept("mcp__chat__postMessage").unwrap();
    assert_eq!(names(&r, "message", 5), ["mcp__chat__postMessage"]);
}

fn config(mode: DeferMode, style: DeferStyle) -> ToolSearchConfig {
    ToolSearchConfig {
        mode,
        style,
        ..ToolSearchConfig::default()
    }
}

#[test]
fn below_the_threshold_nothing_is_deferred() {
    let r = registry();
    let cfg = ToolSearchConfig::default();
    let (tools, report) = export(&r.exported(), ExportFormat::Anthropic, &cfg);
    assert!(!report.deferred);
    assert_eq!(tools, r.tools(ExportFormat::Anthropic));
    assert_eq!(report.threshold_tokens, 10_000);
    assert_eq!(
        report.per_server.values().sum::<usize>(),
        report.total_tokens
    );
    assert_eq!(report.loaded, 5);
}

#[test]
fn above_the_threshold_the_native_shapes_defer_all_but_the_chosen_tools() {
    let r = registry();
    let mut cfg = ToolSearchConfig {
        context_tokens: 1_000,
        share_percent: 5,
        ..ToolSearchConfig::default()
    };
    cfg.always_loaded.insert("mcp__chat__postMessage".into());
    let (tools, report) = export(&r.exported(), ExportFormat::Anthropic, &cfg);
    assert!(report.deferred, "{report:?}");
    assert_eq!(report.threshold_tokens, 50);
    assert_eq!((report.loaded, report.deferred_tools), (1, 4));
    assert!(report.upfront_tokens < report.total_tokens);
    assert_eq!(tools[0]["name"], SEARCH_TOOL);
    assert!(tools[0].get("defer_loading").is_none());
    let deferred: Vec<&str> = tools
        .iter()
        .filter(|t| t["defer_loading"] == json!(true))
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(deferred.len(), 4);
    assert!(!deferred.contains(&"mcp__chat__postMessage"));
    // OpenAI Responses: the client tool_search tool, then the functions.
    let (tools, _) = export(&r.exported(), ExportFormat::OpenAiResponses, &cfg);
    assert_eq!(tools[0]["type"], "tool_search");
    assert_eq!(tools[0]["execution"], "client");
    assert_eq!(tools.len(), 6);
}

#[test]
fn the_meta_pair_never_changes_with_the_catalog() {
    let mut r = registry();
    let cfg = config(DeferMode::Always, DeferStyle::Native);
    // OpenAI Chat Completions has no native form: the meta pair.
    let (before, _) = export(&r.exported(), ExportFormat::OpenAi, &cfg);
    assert_eq!(before, meta_tools(ExportFormat::OpenAi).to_vec());
    r.set_server_tools("more", None, None, &[tool("x", "A new tool.", &[])]);
    let (after, report) = export(&r.exported(), ExportFormat::OpenAi, &cfg);
    assert_eq!(before, after);
    assert_eq!(report.deferred_tools, 6);
    let meta = config(DeferMode::Always, DeferStyle::Meta);
    let (a, _) = export(&r.exported(), ExportFormat::Anthropic, &meta);
    assert_eq!(a[0]["name"], SEARCH_TOOL);
    assert_eq!(a[1]["name"], CALL_TOOL);
    assert_eq!(a.len(), 2);
    // Never: everything, whatever the size.
    let never = config(DeferMode::Never, DeferStyle::Native);
    let (all, report) = export(&r.exported(), ExportFormat::Mcp, &never);
    assert!(!report.deferred);
    assert_eq!(all.len(), 6);
}

#[test]
fn search_answers_take_each_vendors_shape() {
    let r = registry();
    let hits = r.search("issue", 5, None);
    let refs = search_answer("issue", &hits, ExportFormat::Anthropic, true, None);
    assert_eq!(
        refs,
        json!([
            {"type": "tool_reference", "tool_name": "mcp__tracker__issues_close"},
            {"type": "tool_reference", "tool_name": "mcp__tracker__issues_create"},
        ])
    );
    let out = search_answer(
        "issue",
        &hits,
        ExportFormat::OpenAiResponses,
        true,
        Some("call_1"),
    );
    assert_eq!(out["type"], "tool_search_output");
    assert_eq!(out["call_id"], "call_1");
    assert_eq!(out["tools"][0]["type"], "function");
    assert_eq!(out["tools"].as_array().unwrap().len(), 2);
    let text = search_answer("issue", &hits, ExportFormat::Anthropic, false, None);
    let t = text["content"][0]["text"].as_str().unwrap();
    assert!(t.starts_with("2 tools match"), "{t}");
    assert!(t.contains("\"inputSchema\""), "{t}");
    let none = search_answer("zzz", &[], ExportFormat::Mcp, false, None);
    assert!(none["content"][0]["text"]
        .as_str()
        .unwrap()
        .starts_with("No tool matches"));
}

#[test]
fn settings_are_checked() {
    for bad in [
        json!({"mode": "sometimes"}),
        json!({"sharePercent": 0}),
        json!({"sharePercent": 101}),
        json!({"contextTokens": 0}),
        json!({"alwaysLoaded": "x"}),
        json!({"style": "fancy"}),
        json!({"shar": 5}),
        json!(3),
    ] {
        let e = ToolSearchConfig::from_json(&bad).unwrap_err();
        assert_eq!(e.code(), "INVALID_ARGUMENT", "{bad}");
    }
    let c = ToolSearchConfig::from_json(&json!({"mode": "always", "sharePercent": 2,
        "contextTokens": 1000000, "alwaysLoaded": ["a"], "style": "meta"}))
    .unwrap();
    assert_eq!(c.threshold_tokens(), 20_000);
    assert_eq!(c.mode, DeferMode::Always);
    assert_eq!(c.style, DeferStyle::Meta);
}

mcp_edge_wasm_test_mode::configure!();
