//! The `mcpServers` document: parsing, `${VAR}` expansion (errors name server, field and
//! variable, never a value), the two-layer merge, URL normalisation and de-duplication.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcp_edge::pool::config::{
    expand_vars, merge_layers, normalize_url, DroppedDuplicate, ExpandError, PoolConfig,
    ProjectEntry, ServerConfig, Transport, Vars,
};
use mcp_edge::pool::{Policy, PoolCore, PoolError, PoolEvent, PoolOptions, ServerState};
use mcp_edge::proto::session::ProtocolChoice;
use mcp_edge::tools::Category;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

const USER: &str = include_str!("vectors/pool/user.json");
const PROJECT: &str = include_str!("vectors/pool/project.json");
const SECRET: &str = "ghp_SuperSecretValue123";

fn vars(pairs: &[(&str, &str)]) -> Vars {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn entry<'a>(c: &'a PoolConfig, name: &str) -> &'a Result<ServerConfig, PoolError> {
    &c.servers.iter().find(|e| e.name == name).unwrap().config
}

#[test]
fn expansion_rules() {
    let v = vars(&[("A", "1"), ("EMPTY", ""), ("B_2", "two")]);
    assert_eq!(expand_vars("x${A}y${B_2}", &v).unwrap(), "x1ytwo");
    assert_eq!(expand_vars("${MISSING:-dflt}", &v).unwrap(), "dflt");
    assert_eq!(
        expand_vars("${EMPTY:-dflt}", &v).unwrap(),
        "dflt",
        ":- also covers empty"
    );
    assert_eq!(expand_vars("${EMPTY}", &v).unwrap(), "");
    assert_eq!(expand_vars("${A:-}", &v).unwrap(), "1");
    assert_eq!(expand_vars("$${A}", &v).unwrap(), "${A}", "the $${{ escape");
    assert_eq!(expand_vars("cost: $5 $ ${A}", &v).unwrap(), "cost: $5 $ 1");
    assert_eq!(expand_vars("${A:-a:-b}", &v).unwrap(), "1");
    assert_eq!(expand_vars("${MISSING:-a:-b}", &v).unwrap(), "a:-b");
    assert_eq!(
        expand_vars("pre ${NOPE} post", &v),
        Err(ExpandError::Undefined("NOPE".into()))
    );
    assert_eq!(expand_vars("ab${A", &v), Err(ExpandError::Malformed(2)));
    assert_eq!(expand_vars("${1A}", &v), Err(ExpandError::Malformed(0)));
    assert_eq!(expand_vars("${A B}", &v), Err(ExpandError::Malformed(0)));
    assert_eq!(expand_vars("$${A}${", &v), Err(ExpandError::Malformed(5)));
    // Unicode around references stays intact.
    assert_eq!(expand_vars("é${A}ü", &v).unwrap(), "é1ü");
}

#[test]
fn undefined_variable_fails_that_server_only_and_never_leaks_values() {
    let doc = json!({"mcpServers": {
        "gh": {"url": "https://h.example/mcp", "headers": {"Authorization": "Bearer ${GH_TOKEN} ${TEAM_ID}"}},
        "ok": {"url": "https://ok.example/mcp", "headers": {"Authorization": "Bearer ${GH_TOKEN}"}}
    }});
    let c = PoolConfig::from_value(&doc, &vars(&[("GH_TOKEN", SECRET)])).unwrap();
    let err = entry(&c, "gh").clone().unwrap_err();
    assert_eq!(
        err,
        PoolError::UndefinedVariable {
            server: "gh".into(),
            field: "headers.Authorization".into(),
            variable: "TEAM_ID".into()
        }
    );
    let text = err.to_string();
    assert!(
        text.contains("gh") && text.contains("headers.Authorization") && text.contains("TEAM_ID")
    );
    assert!(!text.contains(SECRET), "{text}");
    assert!(!format!("{err:?}").contains(SECRET));
    // The other server is unaffected and got the value.
    let ok = entry(&c, "ok").clone().unwrap();
    let Transport::Http { headers, .. } = ok.transport else {
        panic!()
    };
    assert_eq!(
        headers,
        vec![("Authorization".into(), format!("Bearer {SECRET}"))]
    );
}

#[test]
fn errors_in_other_fields_name_the_field_and_hide_the_value() {
    let doc = json!({"mcpServers": {
        "u": {"url": "${BASE}/mcp"},
        "a": {"url": "https://a.example", "auth": {"client": {"secret": "${CLIENT_SECRET}"}}},
        "c": {"command": "run", "args": ["--token", "${TOK}"]},
        "e": {"command": "run", "env": {"KEY": "${K}"}},
        "bad_url": {"url": "ftp://${SECRET_HOST}/x"},
        "crlf": {"url": "https://c.example", "headers": {"X": "${INJECT}"}}
    }});
    let v = vars(&[("SECRET_HOST", SECRET), ("INJECT", "a\r\nEvil: 1")]);
    let c = PoolConfig::from_value(&doc, &v).unwrap();
    let field_of = |n: &str| match entry(&c, n).clone().unwrap_err() {
        PoolError::UndefinedVariable {
            field, variable, ..
        } => (field, variable),
        PoolError::InvalidField { field, .. } => (field, String::new()),
        e => panic!("{e:?}"),
    };
    assert_eq!(field_of("u"), ("url".into(), "BASE".into()));
    assert_eq!(
        field_of("a"),
        ("auth.client.secret".into(), "CLIENT_SECRET".into())
    );
    assert_eq!(field_of("c"), ("args[1]".into(), "TOK".into()));
    assert_eq!(field_of("e"), ("env.KEY".into(), "K".into()));
    assert_eq!(field_of("bad_url"), ("url".into(), String::new()));
    assert_eq!(field_of("crlf"), ("headers.X".into(), String::new()));
    for e in &c.servers {
        let text = e.config.clone().unwrap_err().to_string();
        assert!(!text.contains(SECRET) && !text.contains("Evil"), "{text}");
    }
}

#[test]
fn parses_every_field() {
    let doc = json!({"other": 1, "mcpServers": {
        "h": {"type": "http", "url": "https://h.example/mcp", "headers": {"A": "1"},
              "auth": {"scopes": ["x"]}, "category": "edit", "timeoutMs": 5000, "autoApprove": ["get", "list"],
              "protocol": "2025-06-18", "unknownField": true},
        "s": {"command": "node", "args": ["srv.js"], "env": {"Z": "z", "A": "a"}, "enabled": false},
        "d": {"url": "https://d.example", "disabled": true}
    }});
    let c = PoolConfig::from_value(&doc, &Vars::new()).unwrap();
    assert_eq!(c.other.get("other"), Some(&json!(1)));
    let names: Vec<&str> = c.servers.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["d", "h", "s"], "sorted by name");
    let h = entry(&c, "h").clone().unwrap();
    assert_eq!(h.category, Some(Category::Write), "edit is read as write");
    assert!(h.auto_approve.covers("get") && !h.auto_approve.covers("delete"));
    assert_eq!(h.timeout_ms, Some(5000));
    assert_eq!(h.protocol, ProtocolChoice::Exact("2025-06-18".into()));
    assert_eq!(h.auth, Some(json!({"scopes": ["x"]})));
    let s = entry(&c, "s").clone().unwrap();
    assert_eq!(
        s.transport,
        Transport::Stdio {
            command: "node".into(),
            args: vec!["srv.js".into()],
            env: vec![("A".into(), "a".into()), ("Z".into(), "z".into())]
        }
    );
    assert!(!c.servers.iter().find(|e| e.name == "s").unwrap().enabled);
    assert!(!c.servers.iter().find(|e| e.name == "d").unwrap().enabled);
}

#[test]
fn typed_errors_for_bad_entries() {
    let cases: Vec<(Value, &str, &str)> = vec![
        (json!("nope"), "", "CONFIG_FIELD"),
        (json!({}), "", "CONFIG_TRANSPORT"),
        (
            json!({"url": "https://a", "command": "x"}),
            "",
            "CONFIG_TRANSPORT",
        ),
        (json!({"url": 5}), "url", "CONFIG_FIELD"),
        (
            json!({"url": "https://a", "timeoutMs": 0}),
            "timeoutMs",
            "CONFIG_FIELD",
        ),
        (
            json!({"url": "https://a", "timeoutMs": -3}),
            "timeoutMs",
            "CONFIG_FIELD",
        ),
        (
            json!({"url": "https://a", "callTimeoutMs": 3_600_001}),
            "callTimeoutMs",
            "CONFIG_FIELD",
        ),
        (
            json!({"url": "https://a", "category": "admin"}),
            "category",
            "CONFIG_FIELD",
        ),
        (
            json!({"url": "https://a", "autoApprove": ["ok", 3]}),
            "autoApprove",
            "CONFIG_FIELD",
        ),
        (
            json!({"url": "https://a", "autoApprove": "all"}),
            "autoApprove",
            "CONFIG_FIELD",
        ),
        (
            json!({"url": "https://a", "protocol": "2024-11-05"}),
            "protocol",
            "CONFIG_FIELD",
        ),
        (
            json!({"url": "https://a", "headers": {"Bad Name": "x"}}),
            "headers.Bad Name",
            "CONFIG_FIELD",
        ),
        (
            json!({"url": "https://a", "headers": ["x"]}),
            "headers",
            "CONFIG_FIELD",
        ),
        (
            json!({"url": "https://a", "enabled": "yes"}),
            "enabled",
            "CONFIG_FIELD",
        ),
        (
            json!({"url": "https://a", "type": "stdio"}),
            "type",
            "CONFIG_FIELD",
        ),
        (
            json!({"command": "", "args": []}),
            "command",
            "CONFIG_FIELD",
        ),
        (
            json!({"command": "x", "args": [1]}),
            "args[0]",
            "CONFIG_FIELD",
        ),
        (json!({"url": "mailto:a@b"}), "url", "CONFIG_FIELD"),
    ];
    for (e, field, code) in cases {
        let c =
            PoolConfig::from_value(&json!({"mcpServers": {"s": e.clone()}}), &Vars::new()).unwrap();
        let err = entry(&c, "s").clone().unwrap_err();
        assert_eq!(err.code(), code, "{e}: {err}");
        if let PoolError::InvalidField {
            field: f, server, ..
        } = &err
        {
            assert_eq!(f, field, "{e}");
            assert_eq!(server, "s");
        }
    }
    // Document-level errors.
    assert_eq!(
        PoolConfig::from_json("[1]", &Vars::new())
            .unwrap_err()
            .code(),
        "CONFIG"
    );
    assert_eq!(
        PoolConfig::from_json("{", &Vars::new()).unwrap_err().code(),
        "CONFIG"
    );
    assert_eq!(
        PoolConfig::from_json(r#"{"mcpServers": []}"#, &Vars::new())
            .unwrap_err()
            .code(),
        "CONFIG"
    );
    assert!(PoolConfig::from_json(r#"{"theme": 1}"#, &Vars::new())
        .unwrap()
        .servers
        .is_empty());
}

#[test]
fn two_layer_merge() {
    let user: Value = serde_json::from_str(USER).unwrap();
    let project: Value = serde_json::from_str(PROJECT).unwrap();
    let none = BTreeSet::new();
    let merged = merge_layers(&user, &project, &none).unwrap();
    // Scalars: project overrides, user-only ones stay.
    assert_eq!(merged.doc["theme"], "light");
    assert_eq!(merged.doc["maxTokens"], 1000);
    let servers = &merged.doc["mcpServers"];
    // A server both layers name: the user's entry wins, whatever the project's says.
    assert_eq!(servers["github"], user["mcpServers"]["github"]);
    assert_eq!(servers["files"], user["mcpServers"]["files"]);
    assert_eq!(
        servers["notes"], user["mcpServers"]["notes"],
        "a project null removes nothing"
    );
    // Project-only entries are added.
    assert!(servers.get("search").is_some());
    assert_eq!(
        merged.project,
        BTreeMap::from([
            ("files".to_string(), ProjectEntry::Ignored),
            ("github".to_string(), ProjectEntry::Ignored),
            ("notes".to_string(), ProjectEntry::Ignored),
            ("search".to_string(), ProjectEntry::Added),
        ])
    );
    // Approved: the project's entry replaces the user's whole (its credentials do not carry over).
    let approved: BTreeSet<String> = ["github".to_string(), "notes".to_string()].into();
    let merged = merge_layers(&user, &project, &approved).unwrap();
    let servers = &merged.doc["mcpServers"];
    assert_eq!(servers["github"], project["mcpServers"]["github"]);
    assert!(servers["github"]["headers"].get("Authorization").is_none());
    assert!(servers.get("notes").is_none(), "an approved null removes");
    assert_eq!(merged.project["github"], ProjectEntry::Approved);
    assert_eq!(merged.project["files"], ProjectEntry::Ignored);

    let c = PoolConfig::from_layers(&user, &project, &none, &vars(&[("GH_TOKEN", "t")])).unwrap();
    let names: Vec<&str> = c.servers.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["files", "github", "notes", "search"]);
    assert_eq!(c.other["theme"], "light");
    assert_eq!(c.project["github"], ProjectEntry::Ignored);
    // The pool reports it: in status and once as an event.
    let mut core = PoolCore::new(&c, &Policy::default(), PoolOptions::default()).unwrap();
    let status = serde_json::to_value(core.status()).unwrap();
    let of = |n: &str| {
        status["servers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["name"] == n)
            .unwrap()["projectEntry"]
            .clone()
    };
    assert_eq!(
        (of("github"), of("search")),
        (json!("ignored"), json!("added"))
    );
    let mut ignored = Vec::new();
    while let Some(e) = core.poll_event() {
        if let PoolEvent::ProjectEntryIgnored { server } = e {
            ignored.push(server);
        }
    }
    assert_eq!(ignored, ["files", "github", "notes"]);
    assert_eq!(
        merge_layers(&json!([]), &json!({}), &none)
            .unwrap_err()
            .code(),
        "CONFIG"
    );
}

#[test]
fn url_normalisation() {
    let ok = |a: &str, b: &str| assert_eq!(normalize_url(a).unwrap(), b, "{a}");
    ok(
        "HTTPS://Example.COM:443/MCP?x=1#frag",
        "https://example.com/MCP?x=1",
    );
    ok("http://example.com:80", "http://example.com/");
    ok("http://example.com:8080/", "http://example.com:8080/");
    ok("https://example.com:0443/a", "https://example.com/a");
    ok("  https://example.com?q  ", "https://example.com/?q");
    ok("https://User@Example.com/a", "https://User@example.com/a");
    ok("http://[::1]:80/mcp", "http://[::1]/mcp");
    ok("http://[::1]:3000/mcp", "http://[::1]:3000/mcp");
    for bad in [
        "example.com/mcp",
        "ftp://x/y",
        "https:///x",
        "https://a b/",
        "https://a:99999x/",
        "http://[::1/x",
    ] {
        assert!(normalize_url(bad).is_err(), "{bad}");
    }
}

#[test]
fn dedupe_by_signature_reports_the_dropped_entry() {
    let doc = json!({"mcpServers": {
        "b_dup": {"url": "HTTPS://API.example.com:443/mcp"},
        "a_main": {"url": "https://api.example.com/mcp", "headers": {"X": "1"}},
        "c_other_path": {"url": "https://api.example.com/mcp2"},
        "d_cmd": {"command": "npx", "args": ["-y", "srv"]},
        "e_cmd_dup": {"command": "npx", "args": ["-y", "srv"], "env": {"DIFFERENT": "env"}},
        "f_cmd_other": {"command": "npx", "args": ["-y", "srv", "--flag"]},
        "g_disabled_dup": {"url": "https://api.example.com/mcp", "enabled": false}
    }});
    let c = PoolConfig::from_value(&doc, &Vars::new()).unwrap();
    assert_eq!(
        c.duplicates(),
        vec![
            DroppedDuplicate {
                dropped: "b_dup".into(),
                kept: "a_main".into()
            },
            DroppedDuplicate {
                dropped: "e_cmd_dup".into(),
                kept: "d_cmd".into()
            },
        ]
    );
    let sig = entry(&c, "a_main").as_ref().unwrap().signature();
    assert_eq!(sig, "url:https://api.example.com/mcp");
}

// Runs in the runtime `wasm-pack test` asks for (see tests/wasm-test-mode).
mcp_edge_wasm_test_mode::configure!();

/// A server only the project layer defines waits for the host: `pending-approval` in status,
/// one `approvalRequired` event, never handed out to connect; approval connects it, rejection
/// keeps it off. Servers approved in advance connect like the user's own.
#[test]
fn project_only_servers_wait_for_approval() {
    let user = json!({"mcpServers": {"mine": {"url": "https://mine.example/mcp"}}});
    let project = json!({"mcpServers": {
        "proj": {"url": "https://proj.example/mcp"},
        "other": {"url": "https://other.example/mcp"},
        "pre": {"url": "https://pre.example/mcp"}}});
    let approved: BTreeSet<String> = ["pre".to_string()].into();
    let c = PoolConfig::load(Ok(&user), Some(Ok(&project)), &approved, &Vars::new());
    let mut core = PoolCore::new(&c, &Policy::default(), PoolOptions::default()).unwrap();
    let mut asked = Vec::new();
    while let Some(e) = core.poll_event() {
        if let PoolEvent::ApprovalRequired { server } = e {
            asked.push(server);
        }
    }
    assert_eq!(asked, ["other", "proj"]);
    let mut started = Vec::new();
    while let Some(a) = core.next_to_connect(0) {
        started.push(a.server);
    }
    assert_eq!(started, ["mine", "pre"], "nothing unapproved connects");
    assert_eq!(core.state("proj"), Some(ServerState::PendingApproval));
    assert_eq!(
        serde_json::to_value(core.status()).unwrap()["servers"][3]["state"],
        "pending-approval"
    );
    // A call meanwhile learns why.
    assert!(matches!(
        core.unavailable("proj", 0),
        Some(PoolError::ServerUnavailable {
            state: "pending-approval",
            ..
        })
    ));
    assert!(core.approve("proj").unwrap());
    assert_eq!(core.next_to_connect(0).unwrap().server, "proj");
    assert!(core.reject("other").unwrap());
    assert_eq!(core.state("other"), Some(ServerState::Disabled));
    assert_eq!(
        core.status().servers[1].last_error.as_ref().unwrap().code,
        "NOT_APPROVED"
    );
    assert!(core.enable("other").is_err(), "enable does not approve");
    assert!(
        !core.approve("mine").unwrap(),
        "the user's own needs no approval"
    );
    assert!(!core.reject("mine").unwrap());
    assert!(
        core.approve("other").unwrap(),
        "a rejected server can still be approved"
    );
    assert_eq!(core.state("other"), Some(ServerState::Pending));
}

/// Two names for one endpoint: the user's entry is kept, even when the project's sorts first.
#[test]
fn duplicates_keep_the_user_s_entry_never_the_project_s() {
    let user = json!({"mcpServers": {"zz-mine": {"url": "https://same.example/mcp"}}});
    let project = json!({"mcpServers": {"aa-copy": {"url": "https://same.example/mcp"}}});
    let c = PoolConfig::load(
        Ok(&user),
        Some(Ok(&project)),
        &BTreeSet::new(),
        &Vars::new(),
    );
    let d = c.duplicates();
    assert_eq!(
        (d[0].dropped.as_str(), d[0].kept.as_str()),
        ("aa-copy", "zz-mine")
    );
    // Approved in advance, the project's copy still does not push the user's out.
    let approved: BTreeSet<String> = ["aa-copy".to_string()].into();
    let c = PoolConfig::load(Ok(&user), Some(Ok(&project)), &approved, &Vars::new());
    assert_eq!(c.duplicates()[0].kept, "zz-mine");
}

/// A document that cannot be used fails open: the pool starts without that layer and reports it
/// (diagnostics, one `ConfigRejected` event); a bad entry fails only itself.
#[test]
fn an_unusable_layer_fails_open() {
    let none = BTreeSet::new();
    let bad_text = mcp_edge::pool::config::parse_text("{\"mcpServers\": {");
    let c = PoolConfig::load(
        bad_text.as_ref().map_err(Clone::clone),
        None,
        &none,
        &Vars::new(),
    );
    assert!(c.servers.is_empty());
    assert_eq!(c.diagnostics.len(), 1);
    assert!(
        c.diagnostics[0]
            .to_string()
            .contains("user layer ignored: not JSON (line 1"),
        "{}",
        c.diagnostics[0]
    );
    let user = json!({"mcpServers": {"ok": {"url": "https://ok.example/mcp"}, "bad": {"url": 3}}});
    for project in [json!([1]), json!({"mcpServers": "x"})] {
        let c = PoolConfig::load(Ok(&user), Some(Ok(&project)), &none, &Vars::new());
        assert_eq!(c.servers.len(), 2, "the user's layer is kept");
        assert!(
            c.diagnostics[0]
                .to_string()
                .contains("project layer ignored"),
            "{:?}",
            c.diagnostics
        );
        let mut core = PoolCore::new(&c, &Policy::default(), PoolOptions::default()).unwrap();
        assert!(matches!(
            core.poll_event(),
            Some(PoolEvent::ConfigRejected { .. })
        ));
        assert_eq!(core.status().diagnostics[0].code, "CONFIG");
        assert_eq!(core.state("bad"), Some(ServerState::Failed));
        assert_eq!(core.next_to_connect(0).unwrap().server, "ok");
    }
    let c = PoolConfig::load(Ok(&json!("text")), None, &none, &Vars::new());
    assert!(c.servers.is_empty() && c.diagnostics.len() == 1);
}
