//! Bounds of the schema validator (MCP 2026-07-28 `basic/index` "Composition-Keyword Resource
//! Use"): hostile depth, size and work end in typed errors, never a stack overflow or a hang, and
//! the number of reported errors is capped.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcp_edge::schema::{Limits, Schema, SchemaError, ValidationErrorKind};
use serde_json::{json, Map, Value};

/// `[[[...0...]]]` nested `depth` times.
fn nested_array(depth: usize) -> Value {
    let mut v = json!(0);
    for _ in 0..depth {
        v = Value::Array(vec![v]);
    }
    v
}

fn kinds(r: Result<(), Vec<mcp_edge::schema::ValidationError>>) -> Vec<ValidationErrorKind> {
    r.err().unwrap_or_default().iter().map(|e| e.kind).collect()
}

#[test]
fn deep_instance_is_a_typed_error() {
    let schema =
        Schema::compile(&json!({"type": ["array", "integer"], "items": {"$ref": "#"}})).unwrap();
    assert!(schema.validate(&nested_array(100)).is_ok());
    let errors = schema.validate(&nested_array(1000)).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].kind, ValidationErrorKind::TooDeep);
    assert_eq!(errors[0].instance_path.matches("/0").count(), 129);
    assert!(!schema.is_valid(&nested_array(1000)));
}

#[test]
fn deep_instance_under_not_is_still_rejected() {
    // Fail closed: a limit hit inside `not` must not turn into "valid".
    // `a` accepts only arrays nested down to an empty array; `[[[0]]]` fails it, so `not a`
    // holds for every finite-depth array ending in a number.
    let schema = Schema::compile(&json!({"not": {"$ref": "#/$defs/a"},
        "$defs": {"a": {"items": {"$ref": "#/$defs/a"}, "type": "array"}}}))
    .unwrap();
    assert!(schema.is_valid(&nested_array(5)));
    assert!(!schema.is_valid(&json!([[[]]])));
    assert_eq!(
        kinds(schema.validate(&nested_array(500))),
        vec![ValidationErrorKind::TooDeep]
    );
}

/// `{key: value}` without copying `value` (`json!` would serialise it again, recursively).
fn object(key: &str, value: Value) -> Value {
    let mut m = Map::new();
    m.insert(key.to_owned(), value);
    Value::Object(m)
}

/// `{"properties": {"a": ... {"type": "integer"} ...}}` with `levels` nestings, and a matching
/// instance.
fn nested_schema(levels: usize) -> (Value, Value) {
    let mut s = json!({"type": "integer"});
    let mut v = json!(1);
    for _ in 0..levels {
        s = object("properties", object("a", s));
        v = object("a", v);
    }
    (s, v)
}

#[test]
fn deep_schema_is_a_typed_error() {
    // Exactly at the limit (128 nestings below the root) compiles and validates: the
    // recursion at the limit fits the stack (also on wasm32, where tests run unoptimised).
    let (s, v) = nested_schema(128);
    let schema = Schema::compile(&s).unwrap();
    assert!(schema.is_valid(&v));
    let (s, _) = nested_schema(129);
    match Schema::compile(&s) {
        Err(SchemaError::TooDeep { pointer, limit }) => {
            assert_eq!(limit, 128);
            assert_eq!(pointer.matches("/properties/a").count(), 129);
        }
        other => panic!("{other:?}"),
    }
    let (s, _) = nested_schema(1000);
    assert!(matches!(
        Schema::compile(&s),
        Err(SchemaError::TooDeep { .. })
    ));
}

#[test]
fn deep_const_is_a_typed_error() {
    let schema = object("const", nested_array(200));
    assert!(matches!(
        Schema::compile(&schema),
        Err(SchemaError::TooDeep { pointer, .. }) if pointer == "/const"
    ));
}

#[test]
fn deep_unique_items_is_a_typed_error() {
    let schema = Schema::compile(&json!({"uniqueItems": true})).unwrap();
    let errors = schema.validate(&json!([1, nested_array(300)])).unwrap_err();
    assert_eq!(errors[0].kind, ValidationErrorKind::TooDeep);
}

/// `d0 … d{n-1}`, each `{"$ref": next}`, the last an integer check: a long non-cyclic chain.
fn ref_chain(n: usize) -> Value {
    let mut defs = Map::new();
    for i in 0..n {
        let body = if i + 1 == n {
            json!({"type": "integer"})
        } else {
            json!({"$ref": format!("#/$defs/d{}", i + 1)})
        };
        defs.insert(format!("d{i}"), body);
    }
    json!({"$defs": defs, "$ref": "#/$defs/d0"})
}

#[test]
fn long_ref_chain_compiles_and_call_depth_is_bounded() {
    let short = Schema::compile(&ref_chain(300)).unwrap();
    assert!(short.is_valid(&json!(1)));
    assert!(!short.is_valid(&json!("1")));
    let long = Schema::compile(&ref_chain(2000)).unwrap();
    assert_eq!(
        kinds(long.validate(&json!(1))),
        vec![ValidationErrorKind::TooDeep]
    );
}

#[test]
fn exponential_schema_hits_the_work_budget() {
    // Each level evaluates both oneOf branches on the same instance: 2^40 evaluations.
    let mut defs = Map::new();
    for i in 0..40 {
        let next = format!("#/$defs/d{}", i + 1);
        defs.insert(
            format!("d{i}"),
            json!({"oneOf": [{"$ref": next}, {"$ref": next}]}),
        );
    }
    defs.insert("d40".into(), json!({"type": "integer"}));
    let doc = json!({"$defs": defs, "$ref": "#/$defs/d0"});
    let mut limits = Limits::default();
    limits.max_steps = 200_000;
    let schema = Schema::compile_with(&doc, limits).unwrap();
    let errors = schema.validate(&json!(1)).unwrap_err();
    assert_eq!(errors.last().unwrap().kind, ValidationErrorKind::WorkBudget);
    // And with the default budget it also ends.
    let schema = Schema::compile(&doc).unwrap();
    assert_eq!(
        kinds(schema.validate(&json!(1))).last(),
        Some(&ValidationErrorKind::WorkBudget)
    );
}

#[test]
fn catastrophic_pattern_on_long_input_ends() {
    let schema = Schema::compile(&json!({"pattern": "^(a+)+$"})).unwrap();
    let input = Value::String(format!("{}!", "a".repeat(5000)));
    let errors = schema.validate(&input).unwrap_err();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].kind, ValidationErrorKind::PatternBudget);
    assert_eq!(errors[0].schema_path, "/pattern");
    // Many such strings share the total budget rather than multiplying it.
    let schema = Schema::compile(&json!({"items": {"pattern": "^(a+)+$"}})).unwrap();
    let many = Value::Array(vec![json!("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"); 200]);
    let errors = schema.validate(&many).unwrap_err();
    let last = errors.last().unwrap().kind;
    assert!(
        last == ValidationErrorKind::PatternBudget || last == ValidationErrorKind::WorkBudget,
        "{errors:?}"
    );
}

#[test]
fn simple_pattern_on_long_input_is_linear() {
    let schema = Schema::compile(&json!({"pattern": "^[a-z]+$"})).unwrap();
    assert!(schema.is_valid(&Value::String("x".repeat(200_000))));
    assert!(!schema.is_valid(&Value::String(format!("{}A", "x".repeat(200_000)))));
}

#[test]
fn node_count_is_bounded() {
    let mut props = Map::new();
    for i in 0..100 {
        props.insert(format!("p{i}"), json!({"type": "string"}));
    }
    let doc = json!({ "properties": props });
    let mut limits = Limits::default();
    limits.max_nodes = 50;
    assert!(matches!(
        Schema::compile_with(&doc, limits),
        Err(SchemaError::TooLarge { limit: 50, .. })
    ));
    assert!(Schema::compile(&doc).is_ok());
}

#[test]
fn error_count_is_bounded() {
    let schema = Schema::compile(&json!({"items": {"type": "string"}})).unwrap();
    let bad = Value::Array((0..100).map(|i| json!(i)).collect());
    let errors = schema.validate(&bad).unwrap_err();
    assert_eq!(errors.len(), 20);
    assert_eq!(errors[0].instance_path, "/0");
    assert_eq!(errors[19].instance_path, "/19");
    let mut limits = Limits::default();
    limits.max_errors = 3;
    let schema = Schema::compile_with(&json!({"items": {"type": "string"}}), limits).unwrap();
    assert_eq!(schema.validate(&bad).unwrap_err().len(), 3);
}

#[test]
fn large_valid_instance_fits_the_default_budget() {
    let schema = Schema::compile(&json!({"type": "array", "items": {
        "type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string", "maxLength": 64}},
        "required": ["id", "name"], "additionalProperties": false}, "uniqueItems": true}))
    .unwrap();
    let rows = Value::Array(
        (0..50_000)
            .map(|i| json!({"id": i, "name": format!("row {i}")}))
            .collect(),
    );
    assert!(schema.validate(&rows).is_ok());
}

#[test]
fn errors_are_clone_and_comparable() {
    let e = Schema::compile(&json!({"$ref": "https://example.com/s.json"})).unwrap_err();
    assert_eq!(e.clone(), e);
    assert_eq!(
        e,
        SchemaError::RemoteRef {
            pointer: "/$ref".into(),
            reference: "https://example.com/s.json".into()
        }
    );
    let schema = Schema::compile(&json!({"type": "string"})).unwrap();
    let v = schema.validate(&json!(1)).unwrap_err();
    assert_eq!(v.clone(), v);
    assert_eq!(v[0].message, "expected string, found number");
}

// Runs in the runtime `wasm-pack test` asks for (see tests/wasm-test-mode).
mcp_edge_wasm_test_mode::configure!();
