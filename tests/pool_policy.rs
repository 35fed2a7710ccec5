//! Deny list, then allow list; by name, URL pattern and command; deny wins; absent allow list
//! allows all, empty allows none.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcp_edge::pool::config::{PoolConfig, ServerConfig, Vars};
use mcp_edge::pool::policy::{glob_match, Policy, Rule};
use mcp_edge::pool::PoolError;
use serde_json::json;

fn servers() -> Vec<ServerConfig> {
    let doc = json!({"mcpServers": {
        "github": {"url": "https://api.github.example/mcp"},
        "corp": {"url": "https://tools.corp.example/mcp"},
        "evil": {"url": "https://evil.example/x.y"},
        "files": {"command": "npx", "args": ["-y", "fs-server"]},
        "shell": {"command": "bash", "args": ["-c", "serve"]}
    }});
    PoolConfig::from_value(&doc, &Vars::new())
        .unwrap()
        .servers
        .into_iter()
        .map(|e| e.config.unwrap())
        .collect()
}

fn allowed(p: &Policy) -> Vec<String> {
    servers()
        .into_iter()
        .filter(|s| p.check(s).is_ok())
        .map(|s| s.name)
        .collect()
}

#[test]
fn allow_list_triad() {
    let absent = Policy {
        denied: vec![],
        allowed: None,
    };
    assert_eq!(
        allowed(&absent),
        ["corp", "evil", "files", "github", "shell"]
    );
    let empty = Policy {
        denied: vec![],
        allowed: Some(vec![]),
    };
    assert!(allowed(&empty).is_empty());
    let err = empty.check(&servers()[0]).unwrap_err();
    assert_eq!(
        err,
        PoolError::NotAllowed {
            server: "corp".into()
        }
    );
    let some = Policy {
        denied: vec![],
        allowed: Some(vec![
            Rule::ServerName("github".into()),
            Rule::ServerUrl("https://*.corp.example/*".into()),
            Rule::ServerCommand(vec!["npx".into()]),
        ]),
    };
    assert_eq!(allowed(&some), ["corp", "files", "github"]);
}

#[test]
fn deny_wins_when_both_match() {
    let p = Policy {
        denied: vec![Rule::ServerName("github".into())],
        allowed: Some(vec![
            Rule::ServerName("github".into()),
            Rule::ServerName("corp".into()),
        ]),
    };
    assert_eq!(allowed(&p), ["corp"]);
    let gh = servers().into_iter().find(|s| s.name == "github").unwrap();
    assert_eq!(
        p.check(&gh).unwrap_err(),
        PoolError::Denied {
            server: "github".into(),
            rule: "serverName \"github\"".into()
        }
    );
    // Deny with no allow list: everything else passes.
    let p = Policy {
        denied: vec![Rule::ServerUrl("https://evil.example/*".into())],
        allowed: None,
    };
    assert_eq!(allowed(&p), ["corp", "files", "github", "shell"]);
}

#[test]
fn command_rules() {
    let exact = Policy {
        denied: vec![Rule::ServerCommand(vec![
            "bash".into(),
            "-c".into(),
            "serve".into(),
        ])],
        allowed: None,
    };
    assert_eq!(allowed(&exact), ["corp", "evil", "files", "github"]);
    let other_args = Policy {
        denied: vec![Rule::ServerCommand(vec!["bash".into(), "-c".into()])],
        allowed: None,
    };
    assert_eq!(
        allowed(&other_args).len(),
        5,
        "a longer rule must match the args exactly"
    );
    let any_args = Policy {
        denied: vec![Rule::ServerCommand(vec!["bash".into()])],
        allowed: None,
    };
    assert_eq!(allowed(&any_args), ["corp", "evil", "files", "github"]);
    // Command rules never match HTTP servers, URL rules never match stdio servers.
    let url_star = Policy {
        denied: vec![],
        allowed: Some(vec![Rule::ServerUrl("*".into())]),
    };
    assert_eq!(allowed(&url_star), ["corp", "evil", "github"]);
}

#[test]
fn url_patterns_are_literal_except_star() {
    // `.` is literal: "x.y" must not match "xzy".
    assert!(glob_match(
        "https://evil.example/x.y",
        "https://evil.example/x.y"
    ));
    assert!(!glob_match(
        "https://evil.example/x.y",
        "https://evil.example/xzy"
    ));
    for meta in ["a+b", "a?b", "(a)", "[ab]", "a|b", "^a$", "a\\b", "a{1}"] {
        assert!(glob_match(meta, meta), "{meta}");
    }
    assert!(!glob_match("a?b", "axb"));
    assert!(!glob_match("[ab]", "a"));
    assert!(glob_match("*", ""));
    assert!(glob_match("a*", "a"));
    assert!(glob_match("*b*d", "abcbd"));
    assert!(glob_match(
        "https://*.corp.example/*",
        "https://a.b.corp.example/x/y"
    ));
    assert!(!glob_match(
        "https://*.corp.example/*",
        "https://corp.example.evil/x"
    ));
    assert!(!glob_match("a*c", "abcd"));
    assert!(glob_match("ü*ß", "üxyzß"));
    // Pathological input finishes (the algorithm is O(n*m), no exponential backtracking).
    let text = "a".repeat(2000);
    assert!(!glob_match(&format!("{}b", "*a".repeat(50)), &text));
    // Patterns match the normalised URL (upper-case host and default port in the config).
    let doc = json!({"mcpServers": {"s": {"url": "HTTPS://Tools.CORP.example:443/mcp"}}});
    let s = PoolConfig::from_value(&doc, &Vars::new())
        .unwrap()
        .servers
        .remove(0)
        .config
        .unwrap();
    assert!(Rule::ServerUrl("https://tools.corp.example/*".into()).matches(&s));
}

#[test]
fn policy_from_json() {
    let p = Policy::from_value(&json!({
        "denied": ["evil*", {"serverUrl": "https://x/*"}, {"serverCommand": "bash"}],
        "allowed": [{"serverName": "github"}, {"serverCommand": ["npx", "-y", "fs-server"]}]
    }))
    .unwrap();
    assert_eq!(
        p.denied,
        vec![
            Rule::ServerName("evil*".into()),
            Rule::ServerUrl("https://x/*".into()),
            Rule::ServerCommand(vec!["bash".into()])
        ]
    );
    assert_eq!(allowed(&p), ["files", "github"]);
    assert_eq!(Policy::from_value(&json!({})).unwrap(), Policy::default());
    assert_eq!(
        Policy::from_value(&json!({"allowed": []})).unwrap().allowed,
        Some(vec![])
    );
    for bad in [
        json!([]),
        json!({"denied": "x"}),
        json!({"denied": [{"serverName": 1}]}),
        json!({"denied": [{"serverName": "a", "serverUrl": "b"}]}),
        json!({"allowed": [{"serverCommand": []}]}),
    ] {
        assert_eq!(
            Policy::from_value(&bad).unwrap_err().code(),
            "INVALID_OPTION",
            "{bad}"
        );
    }
}

// Runs in the runtime `wasm-pack test` asks for (see tests/wasm-test-mode).
mcp_edge_wasm_test_mode::configure!();
