//! `mcp-edge-harness`: connect to an MCP server over stdio (a command) or Streamable HTTP (a
//! loopback URL), list its tools, call one, or run a scenario script; optionally record the
//! transcript.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use mcp_edge::proto::session::{ListKind, ProtocolChoice, SessionConfig};
use mcp_edge_harness::scenario::Scenario;
use mcp_edge_harness::transcript::normalise;
use mcp_edge_harness::{Client, HarnessError, StdioCommand};
use serde_json::{json, Value};

const USAGE: &str = "\
usage: mcp-edge-harness [options] <command> [args] (--url <http://127.0.0.1:PORT/mcp> | --stdio -- <program> [args..])

commands:
  tools                      list every tool (all pages)
  call <tool> <json-args>    call a tool; prints the result as JSON
  scenario <file.json>       run a scenario script; exit status 1 if an expectation fails

options:
  --url <url>                Streamable HTTP endpoint (http:// to a loopback host only)
  --stdio -- <program> ..    start the server as a child process (no shell); everything after
                             `--` is the program and its arguments
  --protocol <p>             auto (default), 2026-07-28, 2025-11-25, 2025-06-18 or 2025-03-26
  --timeout-ms <n>           per-request timeout (default 60000)
  --probe-timeout-ms <n>     stdio: how long `server/discover` may go unanswered before the
                             server is taken for a 2025-era one (default 5000)
  --transcript <out.json>    write the raw and normalised transcript
  --stderr                   copy a stdio server's stderr to ours as it arrives
";

struct Args {
    url: Option<String>,
    stdio: Option<Vec<OsString>>,
    protocol: Option<ProtocolChoice>,
    timeout_ms: Option<u64>,
    probe_timeout_ms: Option<u64>,
    transcript: Option<PathBuf>,
    echo_stderr: bool,
    command: Vec<String>,
}

fn parse_args(raw: Vec<OsString>) -> Result<Args, HarnessError> {
    let mut a = Args {
        url: None,
        stdio: None,
        protocol: None,
        timeout_ms: None,
        probe_timeout_ms: None,
        transcript: None,
        echo_stderr: false,
        command: Vec::new(),
    };
    let mut stdio_flag = false;
    let mut it = raw.into_iter();
    let usage = |m: &str| HarnessError::Usage(m.to_string());
    while let Some(arg) = it.next() {
        let s = arg
            .to_str()
            .ok_or_else(|| usage("arguments before `--` must be UTF-8"))?
            .to_string();
        let mut value = |name: &str| -> Result<String, HarnessError> {
            it.next()
                .and_then(|v| v.into_string().ok())
                .ok_or_else(|| usage(&format!("{name} needs a value")))
        };
        match s.as_str() {
            "--" => {
                let rest: Vec<OsString> = it.by_ref().collect();
                if rest.is_empty() {
                    return Err(usage("`--` must be followed by the server program"));
                }
                a.stdio = Some(rest);
                break;
            }
            "--stdio" => stdio_flag = true,
            "--url" => a.url = Some(value("--url")?),
            "--protocol" => {
                a.protocol = Some(match value("--protocol")?.as_str() {
                    "auto" => ProtocolChoice::Auto,
                    v => ProtocolChoice::Exact(v.to_string()),
                })
            }
            "--timeout-ms" => {
                let v = value("--timeout-ms")?;
                a.timeout_ms = Some(
                    v.parse()
                        .map_err(|_| usage("--timeout-ms takes a number"))?,
                );
            }
            "--probe-timeout-ms" => {
                let v = value("--probe-timeout-ms")?;
                a.probe_timeout_ms = Some(
                    v.parse()
                        .map_err(|_| usage("--probe-timeout-ms takes a number"))?,
                );
            }
            "--transcript" => a.transcript = Some(PathBuf::from(value("--transcript")?)),
            "--stderr" => a.echo_stderr = true,
            "-h" | "--help" => return Err(usage("")),
            flag if flag.starts_with("--") => return Err(usage(&format!("unknown option {flag}"))),
            _ => a.command.push(s),
        }
    }
    match (&a.url, &a.stdio, stdio_flag) {
        (Some(_), None, false) | (None, Some(_), _) => {}
        (None, None, true) => return Err(usage("--stdio needs `-- <program> [args..]`")),
        (Some(_), Some(_), _) => return Err(usage("give either --url or --stdio, not both")),
        _ => return Err(usage("give --url <url> or --stdio -- <program> [args..]")),
    }
    match a
        .command
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["tools"] | ["call", _, _] | ["scenario", _] => {}
        [] => return Err(usage("missing command (tools, call, scenario)")),
        other => {
            return Err(usage(&format!(
                "unknown command or wrong arguments: {other:?}"
            )))
        }
    }
    Ok(a)
}

fn run(a: Args) -> Result<bool, HarnessError> {
    let scenario = match a.command.as_slice() {
        [c, file] if c == "scenario" => Some(Scenario::load(std::path::Path::new(file))?),
        _ => None,
    };
    let mut cfg = match &a.url {
        Some(u) => SessionConfig::new(u.clone()),
        None => SessionConfig::stdio(),
    };
    cfg.client_info = json!({"name": "mcp-edge-harness", "version": env!("CARGO_PKG_VERSION")});
    if let Some(s) = &scenario {
        s.configure(&mut cfg);
    }
    if let Some(p) = &a.protocol {
        cfg.protocol = p.clone();
    }
    if a.timeout_ms.is_some() {
        cfg.request_timeout_ms = a.timeout_ms;
    }
    if let Some(p) = a.probe_timeout_ms {
        cfg.probe_timeout_ms = p;
    }
    let mut client = match &a.stdio {
        Some(argv) => {
            let mut cmd = StdioCommand::new(argv[0].clone(), argv[1..].iter().cloned());
            cmd.echo_stderr = a.echo_stderr;
            Client::stdio(&cmd, cfg)?
        }
        None => Client::http(cfg)?,
    };
    let outcome = command(&mut client, &a.command, scenario.as_ref());
    client.close();
    if let Some(path) = &a.transcript {
        let mut doc = client
            .recorder()
            .to_json(scenario.as_ref().map(|s| s.name.as_str()));
        let normalised = normalise(client.recorder().entries());
        doc["normalised"] = Value::Array(normalised);
        let text = serde_json::to_string_pretty(&doc).unwrap_or_default();
        std::fs::write(path, text + "\n")
            .map_err(|e| HarnessError::Io(format!("{}: {e}", path.display())))?;
    }
    outcome
}

fn command(
    client: &mut Client,
    cmd: &[String],
    scenario: Option<&Scenario>,
) -> Result<bool, HarnessError> {
    match (cmd, scenario) {
        (_, Some(s)) => {
            let failures = s.run(client);
            for f in &failures {
                eprintln!("FAIL {}: {f}", s.name);
            }
            if failures.is_empty() {
                println!("ok {} ({} steps)", s.name, s.steps.len());
            }
            Ok(failures.is_empty())
        }
        ([c], None) if c == "tools" => {
            client.connect()?;
            let list = client.list(ListKind::Tools)?;
            for t in list
                .get("tools")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let name = t.get("name").and_then(Value::as_str).unwrap_or("?");
                let desc = t
                    .get("description")
                    .and_then(Value::as_str)
                    .and_then(|d| d.lines().next())
                    .unwrap_or("");
                println!("{name}\t{desc}");
            }
            Ok(true)
        }
        ([c, tool, args], None) if c == "call" => {
            let arguments: Value = serde_json::from_str(args)
                .map_err(|e| HarnessError::Usage(format!("<json-args> is not JSON: {e}")))?;
            client.connect()?;
            let result =
                client.call("tools/call", json!({"name": tool, "arguments": arguments}))?;
            println!(
                "{}",
                serde_json::to_string_pretty(&result).unwrap_or_default()
            );
            Ok(!result
                .get("isError")
                .and_then(Value::as_bool)
                .unwrap_or(false))
        }
        _ => Err(HarnessError::Usage(format!(
            "unknown command {:?}",
            cmd.join(" ")
        ))),
    }
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args_os().skip(1).collect()) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("mcp-edge-harness: {e}");
            ExitCode::FAILURE
        }
    }
}
