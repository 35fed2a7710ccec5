//! The second real component host: runs the mcp-edge component in wasmtime (48.0.8, with
//! `wasmtime-wasi` and `wasmtime-wasi-http` providing the WASI imports) and implements the
//! component's `mcp-edge:client/host-input` import itself.
//!
//! Usage: `mcp-edge-wasmtime-host <component.wasm> <out-dir>` with `PY2026_URL` and
//! `EVERYTHING_URL` set (tests/component/run.sh). It checks, through the WIT interface only:
//!   1. `client` against both eras: connect, list-tools, call-tool;
//!   2. an elicitation round answered by this host, 2026-07-28 (MRTR) and 2025-11-25 (server
//!      requests), and the refusal of a host that answers nothing;
//!   3. `pool` over both servers: connect-all, then the tools in every format are written to
//!      `<out-dir>/wasmtime-tools-<format>.json` (pool.test.mjs compares them byte for byte with
//!      the JS `McpPool` and the jco run);
//!   4. server-everything's `resources/list_changed`, sent on the 2025 GET stream, reaching this
//!      host through `listen-json` and `poll-notifications`.
//! Prints one `ok ...` line per check; exits non-zero on the first failure.

use std::collections::VecDeque;

use anyhow::{bail, ensure, Context, Result};
use serde_json::Value;
use wasmtime::component::{Component, HasSelf, Linker, ResourceTable};
use wasmtime::{Config, Engine, Store};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};
use wasmtime_wasi_http::{WasiHttpCtx, WasiHttpCtxView, WasiHttpView};

wasmtime::component::bindgen!({
    path: "../../../wit",
    world: "mcp-client",
    with: {
        "wasi:http": wasmtime_wasi_http::p2::bindings::http,
        "wasi:io": wasmtime_wasi::p2::bindings::sync::io,
        "wasi:clocks": wasmtime_wasi::p2::bindings::clocks,
        "wasi:random": wasmtime_wasi::p2::bindings::random,
    },
});

use exports::mcp_edge::client::client::{ConnectOptions, Era, Notification};
use exports::mcp_edge::client::pool::ExportFormat;
use mcp_edge::client::host_input::{InputKind, InputRefusal, InputRequest};

/// The store's data: WASI, HTTP, and this host's answers to input requests.
struct HostState {
    wasi: WasiCtx,
    http: WasiHttpCtx,
    table: ResourceTable,
    /// Answers to give to the next elicitations, in order; empty: this host answers nothing.
    answers: VecDeque<String>,
    /// The requests the component passed to this host.
    seen: Vec<InputRequest>,
}

impl WasiView for HostState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

impl WasiHttpView for HostState {
    fn http(&mut self) -> WasiHttpCtxView<'_> {
        WasiHttpCtxView {
            ctx: &mut self.http,
            table: &mut self.table,
            hooks: Default::default(),
        }
    }
}

impl mcp_edge::client::host_input::Host for HostState {
    fn supported(&mut self) -> Vec<InputKind> {
        if self.answers.is_empty() {
            Vec::new()
        } else {
            vec![InputKind::Elicitation]
        }
    }

    fn answer(&mut self, request: InputRequest) -> Result<String, InputRefusal> {
        self.seen.push(request);
        match self.answers.pop_front() {
            Some(a) => {
                Ok(serde_json::json!({"action": "accept", "content": {"answer": a}}).to_string())
            }
            None => Err(InputRefusal {
                code: -32601,
                message: "no answer left".into(),
            }),
        }
    }
}

fn env(name: &str) -> Result<String> {
    std::env::var(name).with_context(|| format!("{name} is not set (run tests/component/run.sh)"))
}

fn text(content_json: &str) -> String {
    serde_json::from_str::<Value>(content_json)
        .ok()
        .and_then(|v| v.as_array().cloned())
        .unwrap_or_default()
        .iter()
        .filter_map(|c| c.get("text").and_then(Value::as_str).map(str::to_string))
        .collect()
}

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let wasm = args
        .next()
        .context("usage: mcp-edge-wasmtime-host <component.wasm> <out-dir>")?;
    let out_dir = args
        .next()
        .context("usage: mcp-edge-wasmtime-host <component.wasm> <out-dir>")?;
    let py = env("PY2026_URL")?;
    let everything = env("EVERYTHING_URL")?;

    let engine = Engine::new(&Config::new())?;
    let component = Component::from_file(&engine, &wasm)?;
    let mut linker: Linker<HostState> = Linker::new(&engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker)?;
    wasmtime_wasi_http::p2::add_only_http_to_linker_sync(&mut linker)?;
    mcp_edge::client::host_input::add_to_linker::<_, HasSelf<_>>(&mut linker, |s| s)?;
    let mut store = Store::new(
        &engine,
        HostState {
            wasi: WasiCtx::builder().inherit_stderr().build(),
            http: WasiHttpCtx::new(),
            table: ResourceTable::new(),
            answers: VecDeque::new(),
            seen: Vec::new(),
        },
    );
    let bindings = McpClient::instantiate(&mut store, &component, &linker)?;
    let client = bindings.mcp_edge_client_client().client();
    let pool = bindings.mcp_edge_client_pool().pool();

    let no_options = || ConnectOptions {
        headers: None,
        protocol_version: None,
        request_timeout_ms: None,
        max_total_timeout_ms: None,
        connect_timeout_ms: None,
        max_event_bytes: None,
        max_body_bytes: None,
        client_info_json: None,
        capabilities_json: None,
        auth: None,
        listen_json: None,
        extensions_json: None,
        tasks: None,
        max_task_wait_ms: None,
    };
    let connect = |store: &mut Store<HostState>, url: &str, version: Option<&str>| -> Result<_> {
        let options = ConnectOptions {
            protocol_version: version.map(str::to_string),
            ..no_options()
        };
        match client.call_connect(&mut *store, url, Some(&options))? {
            Ok(c) => Ok(c),
            Err(e) => bail!("connect {url}: {} {}", e.code, e.message),
        }
    };

    // 1. Both eras.
    for (url, era, tool, args, expect) in [
        (&py, "modern", "add", r#"{"a":2,"b":40}"#, "2 + 40 = 42"),
        (
            &everything,
            "legacy",
            "echo",
            r#"{"message":"from wasmtime"}"#,
            "from wasmtime",
        ),
    ] {
        let c = connect(&mut store, url, None)?;
        let info = client.call_server_info(&mut store, c)?;
        let got = match info.era {
            Era::Modern => "modern",
            Era::Legacy => "legacy",
        };
        ensure!(got == era, "{url}: era {got}, expected {era}");
        let tools = client
            .call_list_tools(&mut store, c)?
            .map_err(|e| anyhow::anyhow!(e.message))?;
        ensure!(
            tools.iter().any(|t| t.name == tool),
            "{url}: no tool {tool}"
        );
        let r = client
            .call_call_tool(&mut store, c, tool, args, None)?
            .map_err(|e| anyhow::anyhow!(e.message))?;
        ensure!(
            !r.is_error && text(&r.content_json).contains(expect),
            "{url}: {}",
            r.json
        );
        client
            .call_close(&mut store, c)?
            .map_err(|e| anyhow::anyhow!(e.message))?;
        c.resource_drop(&mut store)?;
        println!("ok client {era}: connect, list-tools, call-tool {tool}");
    }

    // 2. Elicitation through this host, both eras; then a host that answers nothing.
    for version in ["2026-07-28", "2025-11-25"] {
        store.data_mut().answers = ["one", "two"].map(String::from).into();
        store.data_mut().seen.clear();
        let c = connect(&mut store, &py, Some(version))?;
        let r = client
            .call_call_tool(&mut store, c, "mrtr_twice", "{}", None)?
            .map_err(|e| anyhow::anyhow!(e.message))?;
        ensure!(
            !r.is_error && text(&r.content_json) == "first=one second=two",
            "{version}: {}",
            r.json
        );
        let seen = &store.data().seen;
        ensure!(
            seen.len() == 2 && seen.iter().all(|s| s.method == "elicitation/create"),
            "{version}: {} requests",
            seen.len()
        );
        client.call_close(&mut store, c)?.ok();
        c.resource_drop(&mut store)?;
        println!("ok elicitation {version}: two rounds answered by the host");

        store.data_mut().answers.clear();
        let c = connect(&mut store, &py, Some(version))?;
        let refused = match client.call_call_tool(&mut store, c, "mrtr_twice", "{}", None)? {
            Ok(r) => r.is_error,
            Err(_) => true,
        };
        ensure!(refused, "{version}: the tool completed without answers");
        client.call_close(&mut store, c)?.ok();
        c.resource_drop(&mut store)?;
        println!("ok elicitation {version}: a host answering nothing is refused");
    }

    // 3. The pool over both servers; its exports go to files for pool.test.mjs.
    let config = serde_json::json!({
        "mcpServers": {"py": {"url": "${PY_URL}", "category": "read"}, "everything": {"url": everything}}
    })
    .to_string();
    let options = exports::mcp_edge::client::pool::PoolOptions {
        vars: Some(vec![("PY_URL".into(), py.clone())]),
        project_config_json: None,
        policy_json: None,
        max_concurrent_connects: None,
        connect_timeout_ms: None,
        client_info_json: None,
        request_timeout_ms: None,
        tool_search_json: None,
        reconnect_json: None,
    };
    let p = match pool.call_create(&mut store, &config, Some(&options))? {
        Ok(p) => p,
        Err(e) => bail!("pool: {}", e.message),
    };
    let status: Value = serde_json::from_str(&pool.call_connect_all(&mut store, p)?)?;
    let servers = status["servers"].as_array().cloned().unwrap_or_default();
    ensure!(
        servers.len() == 2 && servers.iter().all(|s| s["state"] == "connected"),
        "pool: {status}"
    );
    for (format, name) in [
        (ExportFormat::Openai, "openai"),
        (ExportFormat::OpenaiResponses, "openai-responses"),
        (ExportFormat::Anthropic, "anthropic"),
        (ExportFormat::Mcp, "mcp"),
    ] {
        let tools = pool.call_tools(&mut store, p, format)?;
        std::fs::write(format!("{out_dir}/wasmtime-tools-{name}.json"), tools)?;
    }
    let r: Value = serde_json::from_str(&pool.call_call(
        &mut store,
        p,
        "mcp__py__add",
        r#"{"a":1,"b":2}"#,
        None,
    )?)?;
    ensure!(r["isError"] == false, "pool call: {r}");
    let hits: Value = match pool.call_search_tools(&mut store, p, "add two numbers", None)? {
        Ok(text) => serde_json::from_str(&text)?,
        Err(e) => bail!("search-tools: {}", e.message),
    };
    ensure!(hits[0]["name"] == "mcp__py__add", "search-tools: {hits}");
    pool.call_close(&mut store, p)?;
    p.resource_drop(&mut store)?;
    println!("ok pool: both servers connected, exports written, call answered, search found the tool");

    // 4. The 2025 GET stream: a resource registered on server-everything is announced there.
    let options = ConnectOptions {
        listen_json: Some("{}".into()),
        extensions_json: None,
        tasks: None,
        max_task_wait_ms: None,
        ..no_options()
    };
    let c = match client.call_connect(&mut store, &everything, Some(&options))? {
        Ok(c) => c,
        Err(e) => bail!("connect {everything}: {}", e.message),
    };
    let mut seen = Vec::new();
    // The GET stream opens right after the connect; a change made before the server registered
    // it goes nowhere, so change again (bounded) until one arrives.
    'rounds: for i in 0..10 {
        let args = format!(
            r#"{{"name":"wasmtime-{i}.txt","data":"data:text/plain,hi","outputType":"resourceLink"}}"#
        );
        let r = client
            .call_call_tool(&mut store, c, "gzip-file-as-resource", &args, None)?
            .map_err(|e| anyhow::anyhow!(e.message))?;
        ensure!(!r.is_error, "gzip-file-as-resource: {}", r.json);
        for _ in 0..10 {
            for n in client.call_poll_notifications(&mut store, c, 200)? {
                if let Notification::Server(s) = n {
                    seen.push(s.method);
                }
            }
            if seen
                .iter()
                .any(|m| m == "notifications/resources/list_changed")
            {
                break 'rounds;
            }
        }
    }
    ensure!(
        seen.iter()
            .any(|m| m == "notifications/resources/list_changed"),
        "no list_changed on the GET stream; seen {seen:?}"
    );
    client.call_close(&mut store, c)?.ok();
    c.resource_drop(&mut store)?;
    println!("ok GET stream: resources/list_changed reached the host");

    // 5. Tasks: server-everything's task tool (2025-11-25) and the 2026 extension fixture,
    //    including a task given up on and resumed by id.
    let c = connect(&mut store, &everything, None)?;
    let r = client
        .call_call_tool(
            &mut store,
            c,
            "simulate-research-query",
            r#"{"topic":"wasmtime"}"#,
            None,
        )?
        .map_err(|e| anyhow::anyhow!(e.message))?;
    ensure!(
        text(&r.content_json).contains("Research Report: wasmtime"),
        "{}",
        r.json
    );
    ensure!(
        r.progress.iter().any(|p| p
            .task_json
            .as_deref()
            .is_some_and(|t| t.contains("2025-11-25"))),
        "no task status reports"
    );
    client.call_close(&mut store, c)?.ok();
    c.resource_drop(&mut store)?;
    println!("ok tasks 2025-11-25: simulate-research-query polled to its report");
    let tasks = env("TASKS2026_URL")?;
    let options = ConnectOptions {
        max_task_wait_ms: Some(300),
        ..no_options()
    };
    let c = match client.call_connect(&mut store, &tasks, Some(&options))? {
        Ok(c) => c,
        Err(e) => bail!("connect {tasks}: {}", e.message),
    };
    let args = r#"{"ms":1200,"steps":3,"pollMs":100}"#;
    let id = match client.call_call_tool(&mut store, c, "slow_compute", args, None)? {
        Err(e) if e.code == "TASK_TIMEOUT" => match e.kind {
            exports::mcp_edge::client::client::ErrorKind::TaskTimeout(t) => t.task_id,
            _ => bail!("TASK_TIMEOUT with another case"),
        },
        other => bail!("expected TASK_TIMEOUT, got {:?}", other.map(|r| r.json)),
    };
    client.call_close(&mut store, c)?.ok();
    c.resource_drop(&mut store)?;
    // Another client (as after a restart) resumes it by id.
    let c = connect(&mut store, &tasks, None)?;
    let task = format!(r#"{{"taskId":"{id}","shape":"extension","status":"working"}}"#);
    let r = client
        .call_resume_task(&mut store, c, &task, None)?
        .map_err(|e| anyhow::anyhow!(e.message))?;
    ensure!(text(&r.content_json) == "computed 3 steps", "{}", r.json);
    client.call_close(&mut store, c)?.ok();
    c.resource_drop(&mut store)?;
    println!("ok tasks 2026 extension: a task given up on was resumed by id");
    Ok(())
}
