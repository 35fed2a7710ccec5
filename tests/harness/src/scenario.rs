//! Scenario scripts: data files (`tests/scenarios/*.json`) that list steps such as connect, list
//! tools, call a tool, read a resource, get a prompt, expect progress, cancel. The same script
//! runs over any transport; its transcript is what parity compares. The format is documented in
//! `tests/scenarios/README.md`.

use std::path::Path;
use std::time::Duration;

use mcp_edge::proto::session::{
    ListKind, OpId, ProtocolChoice, ProtocolError, RequestOptions, SessionConfig,
};
use serde_json::{json, Map, Value};

use crate::driver::{Client, Outcome};
use crate::error::HarnessError;

/// A parsed scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// Its name (the file stem by convention).
    pub name: String,
    /// Which server logic it is written for (`everything`, `python`).
    pub server: String,
    /// Protocol selection for the session.
    pub protocol: ProtocolChoice,
    /// What it checks, for people.
    pub description: String,
    /// Client capabilities to declare (e.g. `{"elicitation": {"form": {}}}`), when not `{}`.
    pub capabilities: Option<Value>,
    /// The steps, as written (each is also recorded verbatim in the transcript).
    pub steps: Vec<Value>,
    parsed: Vec<Step>,
}

/// What a step does.
#[derive(Debug, Clone, PartialEq)]
enum Action {
    Connect,
    List(ListKind),
    Request {
        method: String,
        params: Value,
        progress: bool,
        timeout_ms: Option<u64>,
        cancel_after_ms: Option<u64>,
        answers: Vec<Value>,
    },
    ExpectProgress {
        min: usize,
    },
}

#[derive(Debug, Clone, PartialEq)]
struct Step {
    action: Action,
    expect: Expect,
}

/// Expectations on a step's outcome.
#[derive(Debug, Clone, PartialEq, Default)]
struct Expect {
    error: Option<String>,
    rpc_code: Option<i64>,
    is_error: Option<bool>,
    text: Option<String>,
    text_contains: Option<String>,
    names_include: Vec<String>,
    names_exclude: Vec<String>,
    count: Option<usize>,
}

fn bad(i: usize, m: impl std::fmt::Display) -> HarnessError {
    HarnessError::Scenario(format!("step {i}: {m}"))
}

fn take_str(o: &mut Map<String, Value>, k: &str, i: usize) -> Result<Option<String>, HarnessError> {
    match o.remove(k) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(v) => Err(bad(i, format!("{k} must be a string, not {v}"))),
    }
}

fn take_u64(o: &mut Map<String, Value>, k: &str, i: usize) -> Result<Option<u64>, HarnessError> {
    match o.remove(k) {
        None => Ok(None),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| bad(i, format!("{k} must be a non-negative integer, not {v}"))),
    }
}

fn take_obj(o: &mut Map<String, Value>, k: &str, i: usize) -> Result<Value, HarnessError> {
    match o.remove(k) {
        None => Ok(json!({})),
        Some(v @ Value::Object(_)) => Ok(v),
        Some(v) => Err(bad(i, format!("{k} must be an object, not {v}"))),
    }
}

fn take_names(o: &mut Map<String, Value>, k: &str, i: usize) -> Result<Vec<String>, HarnessError> {
    match o.remove(k) {
        None => Ok(Vec::new()),
        Some(Value::Array(a)) => a
            .into_iter()
            .map(|v| match v {
                Value::String(s) => Ok(s),
                v => Err(bad(i, format!("{k} must hold strings, not {v}"))),
            })
            .collect(),
        Some(v) => Err(bad(i, format!("{k} must be an array, not {v}"))),
    }
}

fn parse_expect(v: Option<Value>, i: usize) -> Result<Expect, HarnessError> {
    let Some(v) = v else {
        return Ok(Expect::default());
    };
    let Value::Object(mut o) = v else {
        return Err(bad(i, "expect must be an object"));
    };
    let e = Expect {
        error: take_str(&mut o, "error", i)?,
        rpc_code: match o.remove("rpc_code") {
            None => None,
            Some(v) => Some(
                v.as_i64()
                    .ok_or_else(|| bad(i, "rpc_code must be an integer"))?,
            ),
        },
        is_error: match o.remove("is_error") {
            None => None,
            Some(Value::Bool(b)) => Some(b),
            Some(_) => return Err(bad(i, "is_error must be a boolean")),
        },
        text: take_str(&mut o, "text", i)?,
        text_contains: take_str(&mut o, "text_contains", i)?,
        names_include: take_names(&mut o, "names_include", i)?,
        names_exclude: take_names(&mut o, "names_exclude", i)?,
        count: take_u64(&mut o, "count", i)?.map(|c| c as usize),
    };
    if let Some(k) = o.keys().next() {
        return Err(bad(i, format!("unknown expectation {k:?}")));
    }
    Ok(e)
}

fn parse_step(v: &Value, i: usize) -> Result<Step, HarnessError> {
    let Value::Object(o) = v else {
        return Err(bad(i, "a step must be an object"));
    };
    let mut o = o.clone();
    let op = take_str(&mut o, "op", i)?.ok_or_else(|| bad(i, "missing \"op\""))?;
    let expect = parse_expect(o.remove("expect"), i)?;
    let request = |o: &mut Map<String, Value>, method: &str, params: Value| {
        let progress = match o.remove("progress") {
            None => false,
            Some(Value::Bool(b)) => b,
            Some(_) => return Err(bad(i, "progress must be a boolean")),
        };
        let answers = match o.remove("answers") {
            None => Vec::new(),
            Some(Value::Array(a)) => a,
            Some(_) => return Err(bad(i, "answers must be an array")),
        };
        Ok(Action::Request {
            method: method.to_string(),
            params,
            progress,
            timeout_ms: take_u64(o, "timeout_ms", i)?,
            cancel_after_ms: take_u64(o, "cancel_after_ms", i)?,
            answers,
        })
    };
    let action = match op.as_str() {
        "connect" => Action::Connect,
        "list_tools" => Action::List(ListKind::Tools),
        "list_prompts" => Action::List(ListKind::Prompts),
        "list_resources" => Action::List(ListKind::Resources),
        "list_resource_templates" => Action::List(ListKind::ResourceTemplates),
        "call" => {
            let name = take_str(&mut o, "name", i)?.ok_or_else(|| bad(i, "call needs \"name\""))?;
            let arguments = take_obj(&mut o, "arguments", i)?;
            request(
                &mut o,
                "tools/call",
                json!({"name": name, "arguments": arguments}),
            )?
        }
        "read_resource" => {
            let uri =
                take_str(&mut o, "uri", i)?.ok_or_else(|| bad(i, "read_resource needs \"uri\""))?;
            request(&mut o, "resources/read", json!({"uri": uri}))?
        }
        "get_prompt" => {
            let name =
                take_str(&mut o, "name", i)?.ok_or_else(|| bad(i, "get_prompt needs \"name\""))?;
            let arguments = take_obj(&mut o, "arguments", i)?;
            request(
                &mut o,
                "prompts/get",
                json!({"name": name, "arguments": arguments}),
            )?
        }
        "request" => {
            let method =
                take_str(&mut o, "method", i)?.ok_or_else(|| bad(i, "request needs \"method\""))?;
            let params = take_obj(&mut o, "params", i)?;
            request(&mut o, &method, params)?
        }
        "expect_progress" => Action::ExpectProgress {
            min: take_u64(&mut o, "min", i)?.unwrap_or(1) as usize,
        },
        other => return Err(bad(i, format!("unknown op {other:?}"))),
    };
    if let Some(k) = o.keys().next() {
        return Err(bad(i, format!("unknown field {k:?} for op {op:?}")));
    }
    Ok(Step { action, expect })
}

impl Scenario {
    /// Parses a scenario document.
    pub fn from_json(text: &str) -> Result<Self, HarnessError> {
        let v: Value = serde_json::from_str(text)
            .map_err(|e| HarnessError::Scenario(format!("not JSON: {e}")))?;
        let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        let name = s("name").ok_or_else(|| HarnessError::Scenario("missing \"name\"".into()))?;
        let server =
            s("server").ok_or_else(|| HarnessError::Scenario("missing \"server\"".into()))?;
        let protocol = match s("protocol").as_deref() {
            None | Some("auto") => ProtocolChoice::Auto,
            Some(v) => ProtocolChoice::Exact(v.to_string()),
        };
        let steps = v
            .get("steps")
            .and_then(Value::as_array)
            .cloned()
            .ok_or_else(|| HarnessError::Scenario("missing \"steps\" array".into()))?;
        let parsed = steps
            .iter()
            .enumerate()
            .map(|(i, st)| parse_step(st, i))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| HarnessError::Scenario(format!("{name}: {e}")))?;
        if !matches!(parsed.first().map(|s| &s.action), Some(Action::Connect)) {
            return Err(HarnessError::Scenario(format!(
                "{name}: the first step must be connect"
            )));
        }
        Ok(Scenario {
            name,
            server,
            protocol,
            description: s("description").unwrap_or_default(),
            capabilities: v.get("capabilities").cloned(),
            steps,
            parsed,
        })
    }

    /// Reads and parses a scenario file.
    pub fn load(path: &Path) -> Result<Self, HarnessError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| HarnessError::Io(format!("{}: {e}", path.display())))?;
        Self::from_json(&text).map_err(|e| match e {
            HarnessError::Scenario(m) => HarnessError::Scenario(format!("{}: {m}", path.display())),
            e => e,
        })
    }

    /// Applies the scenario's protocol choice to a session configuration.
    pub fn configure(&self, cfg: &mut SessionConfig) {
        cfg.protocol = self.protocol.clone();
        if let Some(c) = &self.capabilities {
            cfg.capabilities = c.clone();
        }
    }

    /// Runs the steps on `client`. Returns the failed expectations (empty = all held). Stops
    /// early only when connecting fails.
    pub fn run(&self, client: &mut Client) -> Vec<String> {
        let mut failures = Vec::new();
        let mut last: Option<Outcome> = None;
        for (i, (raw, step)) in self.steps.iter().zip(&self.parsed).enumerate() {
            client.recorder().step(i, raw);
            let outcome = match &step.action {
                Action::ExpectProgress { min } => {
                    check_progress(last.as_ref(), *min, &mut failures, i);
                    continue;
                }
                Action::Connect => {
                    let op = client.start_connect();
                    wait(client, op, i)
                }
                Action::List(kind) => {
                    let op = client.start_list(*kind);
                    wait(client, op, i)
                }
                Action::Request {
                    method,
                    params,
                    progress,
                    timeout_ms,
                    cancel_after_ms,
                    answers,
                } => {
                    let opts = RequestOptions {
                        timeout_ms: *timeout_ms,
                        progress: *progress,
                        ..RequestOptions::default()
                    };
                    let op = client.start_request(method, params.clone(), opts);
                    client.recorder().label(op, i);
                    if !answers.is_empty() {
                        client.script_answers(op, answers.clone());
                    }
                    if let Some(ms) = cancel_after_ms {
                        client.run_for(Duration::from_millis(*ms));
                        client.cancel(op);
                    }
                    wait(client, op, i)
                }
            };
            let outcome = match outcome {
                Ok(o) => o,
                Err(e) => {
                    failures.push(format!("step {i}: {e}"));
                    break;
                }
            };
            check(&step.expect, &outcome.result, &mut failures, i);
            let connect_failed = step.action == Action::Connect && outcome.result.is_err();
            last = Some(outcome);
            if connect_failed {
                break;
            }
        }
        failures
    }
}

fn wait(client: &mut Client, op: OpId, step: usize) -> Result<Outcome, HarnessError> {
    client.recorder().label(op, step);
    client.wait_outcome(op)
}

fn check_progress(last: Option<&Outcome>, min: usize, failures: &mut Vec<String>, i: usize) {
    let Some(o) = last else {
        failures.push(format!("step {i}: expect_progress with no earlier request"));
        return;
    };
    if o.progress.len() < min {
        failures.push(format!(
            "step {i}: expected at least {min} progress notifications, got {}",
            o.progress.len()
        ));
    }
    if o.progress.windows(2).any(|w| w[1].0 <= w[0].0) {
        failures.push(format!(
            "step {i}: progress did not increase: {:?}",
            o.progress
        ));
    }
}

/// The `text` of the first text content block of a result.
fn first_text(v: &Value) -> Option<&str> {
    v.get("content")?
        .as_array()?
        .iter()
        .find(|c| c.get("type").and_then(Value::as_str) == Some("text"))?
        .get("text")?
        .as_str()
}

/// Names of the items of a list result (`{tools: [...]}` etc.) or of a read's `contents` (uri).
fn names(v: &Value) -> Option<Vec<String>> {
    let o = v.as_object()?;
    let items = o.values().find_map(Value::as_array)?;
    Some(
        items
            .iter()
            .filter_map(|it| {
                it.get("name")
                    .or_else(|| it.get("uri"))
                    .and_then(Value::as_str)
                    .map(str::to_string)
            })
            .collect(),
    )
}

fn check(e: &Expect, result: &Result<Value, ProtocolError>, failures: &mut Vec<String>, i: usize) {
    let mut fail = |m: String| failures.push(format!("step {i}: {m}"));
    match (result, &e.error) {
        (Err(err), None) => return fail(format!("failed: {err} [{}]", err.code())),
        (Err(err), Some(code)) => {
            if err.code() != code {
                fail(format!("expected error {code}, got {err} [{}]", err.code()));
            }
            if let (Some(want), ProtocolError::Rpc { code, .. }) = (e.rpc_code, err) {
                if want != *code {
                    fail(format!("expected JSON-RPC error {want}, got {code}"));
                }
            }
            return;
        }
        (Ok(v), Some(code)) => return fail(format!("expected error {code}, got a result: {v}")),
        (Ok(_), None) => {}
    }
    let Ok(v) = result else { return };
    if let Some(want) = e.is_error {
        let got = v.get("isError").and_then(Value::as_bool).unwrap_or(false);
        if got != want {
            fail(format!("expected isError {want}, got {got}: {v}"));
        }
    }
    if let Some(want) = &e.text {
        if first_text(v) != Some(want.as_str()) {
            fail(format!("expected text {want:?}, got {:?}", first_text(v)));
        }
    }
    if let Some(want) = &e.text_contains {
        if !first_text(v).is_some_and(|t| t.contains(want.as_str())) {
            fail(format!(
                "expected text containing {want:?}, got {:?}",
                first_text(v)
            ));
        }
    }
    if e.count.is_some() || !e.names_include.is_empty() || !e.names_exclude.is_empty() {
        let got = names(v).unwrap_or_default();
        if let Some(n) = e.count {
            if got.len() != n {
                fail(format!("expected {n} items, got {}: {got:?}", got.len()));
            }
        }
        for want in &e.names_include {
            if !got.contains(want) {
                fail(format!("expected an item named {want:?} in {got:?}"));
            }
        }
        for bad in &e.names_exclude {
            if got.contains(bad) {
                fail(format!("expected no item named {bad:?} in {got:?}"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_op_and_rejects_typos() {
        let sc = Scenario::from_json(
            r#"{"name": "x", "server": "python", "protocol": "2025-11-25", "steps": [
                {"op": "connect"}, {"op": "list_tools", "expect": {"names_include": ["add"]}},
                {"op": "call", "name": "echo", "arguments": {"message": "hi"}, "progress": true,
                 "cancel_after_ms": 5, "timeout_ms": 100, "answers": [{}], "expect": {"error": "ABORTED"}},
                {"op": "expect_progress", "min": 2}, {"op": "read_resource", "uri": "x:/y"},
                {"op": "get_prompt", "name": "p", "arguments": {"a": "1"}}, {"op": "list_prompts"},
                {"op": "request", "method": "ping"}]}"#,
        )
        .unwrap();
        assert_eq!(sc.parsed.len(), 8);
        assert_eq!(sc.protocol, ProtocolChoice::Exact("2025-11-25".into()));
        for bad in [
            r#"{"name": "x", "server": "s", "steps": [{"op": "connect"}, {"op": "cal"}]}"#,
            r#"{"name": "x", "server": "s", "steps": [{"op": "connect"}, {"op": "call", "name": "a", "argument": {}}]}"#,
            r#"{"name": "x", "server": "s", "steps": [{"op": "list_tools"}]}"#,
            r#"{"name": "x", "server": "s", "steps": [{"op": "connect", "expect": {"txt": "a"}}]}"#,
        ] {
            assert!(Scenario::from_json(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn expectations_can_fail() {
        let mut f = Vec::new();
        let e = Expect {
            text: Some("hi".into()),
            ..Expect::default()
        };
        check(
            &e,
            &Ok(json!({"content": [{"type": "text", "text": "ho"}]})),
            &mut f,
            1,
        );
        check(
            &Expect::default(),
            &Err(ProtocolError::Cancelled),
            &mut f,
            2,
        );
        let e = Expect {
            names_include: vec!["add".into()],
            count: Some(2),
            ..Expect::default()
        };
        check(&e, &Ok(json!({"tools": [{"name": "echo"}]})), &mut f, 3);
        assert_eq!(f.len(), 4, "{f:?}");
    }
}
