//! JSON Schema vectors (`tests/vectors/schema/*.json`, format in its README): every group either
//! compiles and gives the expected verdict for each instance — through both `validate` and
//! `is_valid`, with the exact error locations where a case lists them — or fails to compile with
//! the expected `SchemaError` variant at the expected JSON pointer. The files are embedded with
//! `include_str!`, so the same checks run on wasm32.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcp_edge::schema::{Schema, SchemaError, ValidationError, ValidationErrorKind};
use serde_json::Value;

fn schema_error_kind(e: &SchemaError) -> &'static str {
    match e {
        SchemaError::NotASchema { .. } => "NotASchema",
        SchemaError::InvalidKeyword { .. } => "InvalidKeyword",
        SchemaError::UnsupportedDialect { .. } => "UnsupportedDialect",
        SchemaError::RemoteRef { .. } => "RemoteRef",
        SchemaError::UnresolvedRef { .. } => "UnresolvedRef",
        SchemaError::RefCycle { .. } => "RefCycle",
        SchemaError::InvalidPattern { .. } => "InvalidPattern",
        SchemaError::UnsupportedPattern { .. } => "UnsupportedPattern",
        SchemaError::TooDeep { .. } => "TooDeep",
        SchemaError::TooLarge { .. } => "TooLarge",
        _ => "other",
    }
}

fn validation_kind(e: &ValidationError) -> &'static str {
    match e.kind {
        ValidationErrorKind::Invalid => "Invalid",
        ValidationErrorKind::TooDeep => "TooDeep",
        ValidationErrorKind::WorkBudget => "WorkBudget",
        ValidationErrorKind::PatternBudget => "PatternBudget",
        _ => "other",
    }
}

/// Runs every group of one vector file; returns how many checks ran.
fn run(file: &str, text: &str) -> usize {
    let groups: Vec<Value> = serde_json::from_str(text).unwrap();
    assert!(!groups.is_empty(), "{file}: no groups");
    let mut checks = 0;
    for group in &groups {
        let gname = format!("{file}: {}", group["description"].as_str().unwrap());
        let compiled = Schema::compile(&group["schema"]);
        if let Some(expected) = group.get("compile_error") {
            let err = match compiled {
                Err(e) => e,
                Ok(_) => panic!("{gname}: compiled, expected {expected}"),
            };
            assert_eq!(
                schema_error_kind(&err),
                expected["kind"].as_str().unwrap(),
                "{gname}: {err}"
            );
            assert_eq!(
                err.pointer(),
                expected["pointer"].as_str().unwrap(),
                "{gname}: {err}"
            );
            assert!(!err.to_string().is_empty());
            checks += 1;
            continue;
        }
        let schema = compiled.unwrap_or_else(|e| panic!("{gname}: does not compile: {e}"));
        let tests = group["tests"].as_array().unwrap();
        assert!(!tests.is_empty(), "{gname}: no tests");
        for case in tests {
            let name = format!("{gname} / {}", case["description"].as_str().unwrap());
            let want = case["valid"].as_bool().unwrap();
            let got = schema.validate(&case["data"]);
            assert_eq!(got.is_ok(), want, "{name}: {got:?}");
            assert_eq!(
                schema.is_valid(&case["data"]),
                want,
                "{name}: is_valid disagrees"
            );
            let errors = got.err().unwrap_or_default();
            assert!(errors.len() <= 21, "{name}: unbounded errors");
            for e in &errors {
                assert!(!e.message.is_empty(), "{name}: empty message");
                assert!(
                    e.instance_path.is_empty() || e.instance_path.starts_with('/'),
                    "{name}: {e:?}"
                );
            }
            if let Some(kind) = case.get("error_kind") {
                let kind = kind.as_str().unwrap();
                assert!(
                    errors.iter().any(|e| validation_kind(e) == kind),
                    "{name}: expected a {kind} error, got {errors:?}"
                );
            } else if !want {
                assert!(
                    errors
                        .iter()
                        .all(|e| e.kind == ValidationErrorKind::Invalid),
                    "{name}: {errors:?}"
                );
            }
            if let Some(expected) = case.get("errors") {
                let got: Vec<(String, String, String)> = errors
                    .iter()
                    .map(|e| {
                        (
                            e.instance_path.clone(),
                            e.schema_path.clone(),
                            e.keyword.to_owned(),
                        )
                    })
                    .collect();
                let want: Vec<(String, String, String)> = expected
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|e| {
                        (
                            e["instance_path"].as_str().unwrap().to_owned(),
                            e["schema_path"].as_str().unwrap().to_owned(),
                            e["keyword"].as_str().unwrap().to_owned(),
                        )
                    })
                    .collect();
                assert_eq!(got, want, "{name}");
            }
            checks += 1;
        }
    }
    checks
}

macro_rules! vectors {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                let checks = run(
                    stringify!($name),
                    include_str!(concat!("vectors/schema/", stringify!($name), ".json")),
                );
                assert!(checks > 0);
            }
        )*
    };
}

vectors!(
    type_,
    enum_const,
    numeric,
    string,
    pattern,
    array,
    object,
    combinators,
    unevaluated,
    ref_,
    dialect,
    mcp,
);

// Runs in the runtime `wasm-pack test` asks for (see tests/wasm-test-mode).
mcp_edge_wasm_test_mode::configure!();
