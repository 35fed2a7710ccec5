//! Response classification (MCP `basic/transports/streamable-http`, "Sending Messages to the
//! Server") and the 2026-07-28 request-metadata header rules ("Request Metadata": standard headers,
//! "Custom Headers from Tool Parameters", "Value Encoding").
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcp_edge::proto::headers::{
    base64_decode, base64_encode, decode_value, encode_value, param_header_values, param_headers,
    partition_tools, standard_headers, HeaderError, ParamHeader, ParamType,
};
use mcp_edge::proto::http::{
    classify, is_event_stream, is_json, media_type, put_header, retry_after_ms, ResponseHead,
    ResponseKind,
};
use serde_json::{json, Value};

fn head(status: u16, headers: &[(&str, &str)]) -> ResponseHead {
    ResponseHead {
        status,
        headers: headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    }
}

// ---------------------------------------------------------------------------------------------
// classify
// ---------------------------------------------------------------------------------------------

/// A status, its headers, and the expected classification.
type Case = (u16, &'static [(&'static str, &'static str)], ResponseKind);

#[test]
fn classify_table() {
    use ResponseKind::*;
    let table: &[Case] = &[
        (202, &[], Accepted),
        (202, &[("content-type", "application/json")], Accepted),
        (
            200,
            &[("Content-Type", "application/json; charset=utf-8")],
            Json,
        ),
        (
            200,
            &[("content-type", "Application/JSON;Charset=UTF-8")],
            Json,
        ),
        (200, &[("CONTENT-TYPE", " \tapplication/json \t")], Json),
        (201, &[("content-type", "application/json")], Json),
        (200, &[("content-type", "Text/Event-Stream")], EventStream),
        (
            200,
            &[("content-type", "text/event-stream ; charset=utf-8")],
            EventStream,
        ),
        (204, &[], Accepted),
        (204, &[("content-type", "application/json")], Accepted),
        (200, &[("content-length", "0")], Accepted),
        (200, &[("Content-Length", " 0 ")], Accepted),
        (
            200,
            &[("content-type", "text/plain"), ("content-length", "0")],
            Accepted,
        ),
        (200, &[], UnexpectedContentType),
        (200, &[("content-length", "17")], UnexpectedContentType),
        (
            200,
            &[("content-type", "text/html; charset=utf-8")],
            UnexpectedContentType,
        ),
        (
            200,
            &[("content-type", "application/json-seq")],
            UnexpectedContentType,
        ),
        (
            200,
            &[("content-type", "application/jsonx")],
            UnexpectedContentType,
        ),
        (
            200,
            &[("content-type", "text/event-streams")],
            UnexpectedContentType,
        ),
        (200, &[("content-type", "")], UnexpectedContentType),
        (
            404,
            &[("content-type", "application/json")],
            HttpError { status: 404 },
        ),
        (500, &[], HttpError { status: 500 }),
        (
            400,
            &[("content-type", "application/json")],
            HttpError { status: 400 },
        ),
        (
            401,
            &[("www-authenticate", "Bearer")],
            HttpError { status: 401 },
        ),
        (302, &[("location", "/x")], HttpError { status: 302 }),
        (199, &[], HttpError { status: 199 }),
        (300, &[], HttpError { status: 300 }),
    ];
    for (status, headers, want) in table {
        assert_eq!(
            classify(&head(*status, headers)),
            *want,
            "{status} {headers:?}"
        );
    }
}

#[test]
fn media_type_helpers() {
    assert_eq!(
        media_type(" Application/JSON ; charset=utf-8"),
        "Application/JSON"
    );
    assert_eq!(media_type("text/event-stream"), "text/event-stream");
    assert!(is_json("APPLICATION/json;q=1"));
    assert!(!is_json("application/problem+json"));
    assert!(is_event_stream("text/EVENT-stream;"));
    assert!(!is_event_stream("text/plain"));
}

#[test]
fn retry_after_delay_seconds_only() {
    let ra = |v: &str| retry_after_ms(&head(503, &[("Retry-After", v)]));
    assert_eq!(ra("120"), Some(120_000));
    assert_eq!(ra(" 5\t"), Some(5_000));
    assert_eq!(ra("0"), Some(0));
    assert_eq!(ra("99999999999999999999999"), Some(u64::MAX));
    assert_eq!(ra("Fri, 31 Dec 1999 23:59:59 GMT"), None);
    assert_eq!(ra("-1"), None);
    assert_eq!(ra("1.5"), None);
    assert_eq!(ra("+3"), None);
    assert_eq!(ra(""), None);
    assert_eq!(retry_after_ms(&head(429, &[])), None);
}

// ---------------------------------------------------------------------------------------------
// Value encoding
// ---------------------------------------------------------------------------------------------

/// The spec's "Encoding examples" table.
const SPEC_EXAMPLES: &[(&str, &str)] = &[
    ("us-west1", "us-west1"),
    ("Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="),
    (" padded ", "=?base64?IHBhZGRlZCA=?="),
    ("line1\nline2", "=?base64?bGluZTEKbGluZTI=?="),
    ("=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="),
];

#[test]
fn spec_encoding_examples_both_ways() {
    for (plain, encoded) in SPEC_EXAMPLES {
        assert_eq!(encode_value(plain), *encoded, "encode {plain:?}");
        assert_eq!(
            decode_value(encoded).as_deref(),
            Ok(*plain),
            "decode {encoded:?}"
        );
    }
}

#[test]
fn plain_values_stay_plain_and_unsafe_ones_are_encoded() {
    for plain in [
        "",
        "get_weather",
        "a b\tc",
        "file:///projects/myapp/config.json",
        "=?base64?",
        "?=",
    ] {
        assert_eq!(encode_value(plain), plain);
    }
    for unsafe_value in [
        "\tlead",
        "trail\t",
        " ",
        "a\rb",
        "nul\0",
        "del\x7f",
        "é",
        "=?base64?x?=",
    ] {
        let enc = encode_value(unsafe_value);
        assert!(
            enc.starts_with("=?base64?") && enc.ends_with("?="),
            "{unsafe_value:?} -> {enc}"
        );
        assert_eq!(decode_value(&enc).as_deref(), Ok(unsafe_value));
    }
    // Overlapping prefix and suffix still match the sentinel pattern, so it is encoded.
    assert_eq!(encode_value("=?base64?="), "=?base64?PT9iYXNlNjQ/PQ==?=");
    assert_eq!(decode_value("=?base64?=").as_deref(), Ok("=?base64?="));
    assert_eq!(decode_value("=?base64??=").as_deref(), Ok(""));
}

/// xorshift64*: deterministic "random-ish" input without a dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

#[test]
fn random_strings_round_trip_and_encode_to_safe_values() {
    let pool: Vec<char> = "aZ09 \t\r\n\0\x1f\x7f=?/+-_~éß世界🦀\u{feff}\u{2028}"
        .chars()
        .collect();
    let fragments = ["=?base64?", "?=", " ", "=="];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..5000 {
        let len = (rng.next() % 24) as usize;
        let mut s = String::new();
        for _ in 0..len {
            let r = rng.next();
            if r.is_multiple_of(7) {
                s.push_str(fragments[(r / 7 % fragments.len() as u64) as usize]);
            } else {
                s.push(pool[(r / 7 % pool.len() as u64) as usize]);
            }
        }
        let enc = encode_value(&s);
        assert!(
            enc.chars()
                .all(|c| matches!(c, '\x21'..='\x7e' | ' ' | '\t')),
            "{s:?} -> {enc:?}"
        );
        assert!(
            !enc.starts_with([' ', '\t']) && !enc.ends_with([' ', '\t']),
            "{enc:?}"
        );
        assert_eq!(
            decode_value(&enc).as_deref(),
            Ok(s.as_str()),
            "{s:?} -> {enc:?}"
        );
        let b = base64_encode(s.as_bytes());
        assert_eq!(base64_decode(&b).as_deref(), Some(s.as_bytes()));
    }
}

#[test]
fn decode_errors() {
    for bad in [
        "=?base64?***?=",        // outside the alphabet
        "=?base64?Zg?=",         // padding missing
        "=?base64?Zh==?=",       // non-zero pad bits
        "=?base64?Zg==Zg==?=",   // padding in the middle
        "=?base64?SGVsbG8=\n?=", // stray newline
        "=?base64?/w==?=",       // decodes to 0xFF: not UTF-8
        "=?base64?SGVs bG8=?=",  // space inside
        "=?base64?SGVsbG8-?=",   // URL-safe alphabet
    ] {
        assert_eq!(
            decode_value(bad),
            Err(HeaderError::InvalidEncoding),
            "{bad:?}"
        );
    }
    for bad in ["héllo", "a\nb", "nul\0", "\x7f"] {
        assert_eq!(
            decode_value(bad),
            Err(HeaderError::InvalidCharacters),
            "{bad:?}"
        );
    }
    // The markers are case-sensitive: an uppercase one is a plain value.
    assert_eq!(
        decode_value("=?BASE64?Zg==?=").as_deref(),
        Ok("=?BASE64?Zg==?=")
    );
}

// ---------------------------------------------------------------------------------------------
// Standard headers
// ---------------------------------------------------------------------------------------------

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn standard_headers_per_method() {
    let call = json!({"name": "get_weather", "arguments": {}});
    assert_eq!(
        standard_headers("tools/call", Some(&call)),
        pairs(&[("mcp-method", "tools/call"), ("mcp-name", "get_weather")])
    );
    assert_eq!(
        standard_headers("prompts/get", Some(&json!({"name": "Grüße"}))),
        pairs(&[
            ("mcp-method", "prompts/get"),
            ("mcp-name", "=?base64?R3LDvMOfZQ==?=")
        ])
    );
    assert_eq!(
        standard_headers(
            "resources/read",
            Some(&json!({"uri": "file:///projects/myapp/config.json", "name": "ignored"}))
        ),
        pairs(&[
            ("mcp-method", "resources/read"),
            ("mcp-name", "file:///projects/myapp/config.json")
        ])
    );
    assert_eq!(
        standard_headers("tasks/get", Some(&json!({"taskId": "t-1"}))),
        pairs(&[("mcp-method", "tasks/get"), ("mcp-name", "t-1")])
    );
    assert_eq!(
        standard_headers("tools/list", Some(&json!({"name": "x"}))),
        pairs(&[("mcp-method", "tools/list")])
    );
    assert_eq!(
        standard_headers("tools/call", Some(&json!({"name": 5}))),
        pairs(&[("mcp-method", "tools/call")])
    );
    assert_eq!(
        standard_headers("tools/call", None),
        pairs(&[("mcp-method", "tools/call")])
    );
    assert_eq!(
        standard_headers("notifications/initialized", None),
        pairs(&[("mcp-method", "notifications/initialized")])
    );
}

// ---------------------------------------------------------------------------------------------
// x-mcp-header validation
// ---------------------------------------------------------------------------------------------

fn ph(name: &str, path: &[&str], kind: ParamType) -> ParamHeader {
    ParamHeader {
        name: name.into(),
        path: path.iter().map(|s| s.to_string()).collect(),
        kind,
    }
}

#[test]
fn param_headers_valid_cases() {
    let schema = json!({
        "type": "object",
        "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "query": {"type": "string"},
            "limits": {
                "type": "object",
                "properties": {
                    "max_rows": {"type": "integer", "x-mcp-header": "Max-Rows"},
                    "deep": {"properties": {"dry": {"type": "boolean", "x-mcp-header": "dry_run!"}}}
                }
            },
            "x-mcp-header": {"type": "string", "description": "a property merely named so"},
            "tenant~/id": {"type": "string", "x-mcp-header": "Tenant"}
        },
        "required": ["region", "x-mcp-header"],
        "$defs": {"x-mcp-header": {"type": "string"}}
    });
    assert_eq!(
        param_headers(&schema),
        Ok(vec![
            ph("Region", &["region"], ParamType::String),
            ph("Max-Rows", &["limits", "max_rows"], ParamType::Integer),
            ph("dry_run!", &["limits", "deep", "dry"], ParamType::Boolean),
            ph("Tenant", &["tenant~/id"], ParamType::String),
        ])
    );
    // Property *names* that look like keywords are still a `properties` chain.
    let keyword_names = json!({"properties": {
        "items": {"properties": {"anyOf": {"type": "string", "x-mcp-header": "A"}}},
        "$ref": {"type": "boolean", "x-mcp-header": "B"}
    }});
    assert_eq!(
        param_headers(&keyword_names),
        Ok(vec![
            ph("A", &["items", "anyOf"], ParamType::String),
            ph("B", &["$ref"], ParamType::Boolean),
        ])
    );
    assert_eq!(param_headers(&json!({"type": "object"})), Ok(vec![]));
    assert_eq!(param_headers(&json!(true)), Ok(vec![]));
    assert_eq!(param_headers(&json!({})), Ok(vec![]));
    assert_eq!(
        ph("Max-Rows", &[], ParamType::Integer).header_name(),
        "mcp-param-max-rows"
    );
}

/// A schema whose only property `p` has `annotated` as its schema.
fn with_prop(annotated: Value) -> Value {
    json!({"type": "object", "properties": {"p": annotated}})
}

#[test]
fn param_headers_invalid_names() {
    let at = || "/properties/p".to_string();
    assert_eq!(
        param_headers(&with_prop(json!({"type": "string", "x-mcp-header": ""}))),
        Err(HeaderError::EmptyName { at: at() })
    );
    for bad in [
        json!("Has Space"),
        json!("a:b"),
        json!("a/b"),
        json!("(x)"),
        json!("é"),
        json!("line\r\nInjected: 1"),
        json!("tab\t"),
        json!("nul\u{0}"),
        json!("del\u{7f}"),
        json!("quote\""),
        json!(42),
        json!(null),
        json!(["Region"]),
    ] {
        assert_eq!(
            param_headers(&with_prop(json!({"type": "string", "x-mcp-header": bad}))),
            Err(HeaderError::InvalidName { at: at() }),
            "{bad}"
        );
    }
}

#[test]
fn param_headers_duplicates_case_insensitively() {
    let schema = json!({"properties": {
        "a": {"type": "string", "x-mcp-header": "Region"},
        "n": {"properties": {"b": {"type": "integer", "x-mcp-header": "REGION"}}}
    }});
    assert_eq!(
        param_headers(&schema),
        Err(HeaderError::DuplicateName {
            name: "Region".into()
        })
    );
}

#[test]
fn param_headers_unsupported_types() {
    for ty in [
        json!({"type": "number"}),
        json!({"type": "object"}),
        json!({"type": "array", "items": {"type": "string"}}),
        json!({"type": "null"}),
        json!({"type": ["string", "null"]}),
        json!({"type": ["integer"]}),
        json!({"enum": ["a", "b"]}),
        json!({"$ref": "#/$defs/S"}),
        json!({}),
        json!({"type": "String"}),
    ] {
        let mut prop = ty.clone();
        prop["x-mcp-header"] = json!("H");
        assert_eq!(
            param_headers(&with_prop(prop)),
            Err(HeaderError::UnsupportedType {
                at: "/properties/p".into()
            }),
            "{ty}"
        );
    }
}

#[test]
fn param_headers_not_statically_reachable() {
    let h = json!({"type": "string", "x-mcp-header": "H"});
    let cases: Vec<(Value, &str)> = vec![
        (
            json!({"type": "string", "x-mcp-header": "H"}),
            "/x-mcp-header",
        ),
        (
            with_prop(json!({"type": "array", "items": h})),
            "/properties/p/items/x-mcp-header",
        ),
        (
            with_prop(
                json!({"type": "array", "items": {"type": "object", "properties": {"q": h}}}),
            ),
            "/properties/p/items/properties/q/x-mcp-header",
        ),
        (
            with_prop(json!({"prefixItems": [{"type": "integer"}, h]})),
            "/properties/p/prefixItems/1/x-mcp-header",
        ),
        (
            with_prop(json!({"contains": h})),
            "/properties/p/contains/x-mcp-header",
        ),
        (
            json!({"type": "object", "additionalProperties": h}),
            "/additionalProperties/x-mcp-header",
        ),
        (
            json!({"unevaluatedProperties": h}),
            "/unevaluatedProperties/x-mcp-header",
        ),
        (json!({"propertyNames": h}), "/propertyNames/x-mcp-header"),
        (
            json!({"patternProperties": {"^r": h}}),
            "/patternProperties/^r/x-mcp-header",
        ),
        (
            json!({"anyOf": [{"type": "null"}, h]}),
            "/anyOf/1/x-mcp-header",
        ),
        (
            json!({"oneOf": [{"properties": {"q": h}}]}),
            "/oneOf/0/properties/q/x-mcp-header",
        ),
        (
            json!({"allOf": [{"properties": {"q": h}}]}),
            "/allOf/0/properties/q/x-mcp-header",
        ),
        (
            with_prop(json!({"not": h})),
            "/properties/p/not/x-mcp-header",
        ),
        (
            json!({"if": {"properties": {"q": h}}}),
            "/if/properties/q/x-mcp-header",
        ),
        (
            json!({"then": {"properties": {"q": h}}}),
            "/then/properties/q/x-mcp-header",
        ),
        (
            json!({"else": {"properties": {"q": h}}}),
            "/else/properties/q/x-mcp-header",
        ),
        (
            json!({"dependentSchemas": {"q": {"properties": {"r": h}}}}),
            "/dependentSchemas/q/properties/r/x-mcp-header",
        ),
        (
            json!({"properties": {"p": {"$ref": "#/$defs/P"}}, "$defs": {"P": h}}),
            "/$defs/P/x-mcp-header",
        ),
        (
            json!({"properties": {"p": {"$ref": "#/definitions/P"}}, "definitions": {"P": h}}),
            "/definitions/P/x-mcp-header",
        ),
        // A property reached through properties, then composition below it.
        (
            with_prop(
                json!({"type": "string", "anyOf": [{"x-mcp-header": "H", "type": "string"}]}),
            ),
            "/properties/p/anyOf/0/x-mcp-header",
        ),
        // A misplaced annotation: a member of the properties map, not of a property schema.
        (
            json!({"properties": {"x-mcp-header": "Region"}}),
            "/properties/x-mcp-header",
        ),
        // The key has a slash: escaped in the pointer (RFC 6901).
        (
            json!({"patternProperties": {"a/b~": h}}),
            "/patternProperties/a~1b~0/x-mcp-header",
        ),
    ];
    for (schema, at) in cases {
        assert_eq!(
            param_headers(&schema),
            Err(HeaderError::NotStaticallyReachable { at: at.into() }),
            "{schema}"
        );
    }
}

#[test]
fn an_otherwise_valid_annotation_does_not_excuse_a_stray_one() {
    let schema = json!({
        "properties": {"region": {"type": "string", "x-mcp-header": "Region"}},
        "$defs": {"Other": {"type": "string", "x-mcp-header": "Other"}}
    });
    assert_eq!(
        param_headers(&schema),
        Err(HeaderError::NotStaticallyReachable {
            at: "/$defs/Other/x-mcp-header".into()
        })
    );
}

// ---------------------------------------------------------------------------------------------
// Header values
// ---------------------------------------------------------------------------------------------

#[test]
fn param_header_values_by_type_and_presence() {
    let schema = json!({"type": "object", "properties": {
        "region": {"type": "string", "x-mcp-header": "Region"},
        "count": {"type": "integer", "x-mcp-header": "Count"},
        "dry": {"type": "boolean", "x-mcp-header": "Dry-Run"},
        "opts": {"type": "object", "properties": {"tenant": {"type": "string", "x-mcp-header": "Tenant"}}}
    }});
    let designations = param_headers(&schema).unwrap();
    let values = |args: Value| param_header_values(&designations, &args);

    assert_eq!(
        values(
            json!({"region": "us-west1", "count": 42, "dry": false, "opts": {"tenant": "Grüße"}})
        ),
        pairs(&[
            ("mcp-param-region", "us-west1"),
            ("mcp-param-count", "42"),
            ("mcp-param-dry-run", "false"),
            ("mcp-param-tenant", "=?base64?R3LDvMOfZQ==?="),
        ])
    );
    // null and missing are omitted; so are values of another type than declared.
    assert_eq!(
        values(json!({"region": null, "dry": true})),
        pairs(&[("mcp-param-dry-run", "true")])
    );
    assert_eq!(values(json!({})), pairs(&[]));
    assert_eq!(values(json!(null)), pairs(&[]));
    assert_eq!(
        values(json!({"region": 5, "count": "42", "dry": "true", "opts": "tenant"})),
        pairs(&[])
    );
    assert_eq!(values(json!({"opts": {"tenant": null}})), pairs(&[]));
    assert_eq!(values(json!({"opts": {}})), pairs(&[]));
    // Integers: the ±(2^53 − 1) range, integral floats accepted, fractions omitted.
    let count = |n: Value| values(json!({ "count": n }));
    assert_eq!(count(json!(-7)), pairs(&[("mcp-param-count", "-7")]));
    assert_eq!(
        count(json!(9007199254740991i64)),
        pairs(&[("mcp-param-count", "9007199254740991")])
    );
    assert_eq!(
        count(json!(-9007199254740991i64)),
        pairs(&[("mcp-param-count", "-9007199254740991")])
    );
    assert_eq!(count(json!(9007199254740992i64)), pairs(&[]));
    assert_eq!(count(json!(-9007199254740992i64)), pairs(&[]));
    assert_eq!(count(json!(u64::MAX)), pairs(&[]));
    assert_eq!(count(json!(42.0)), pairs(&[("mcp-param-count", "42")]));
    assert_eq!(count(json!(1.5)), pairs(&[]));
    assert_eq!(count(json!(1e300)), pairs(&[]));
    assert_eq!(count(json!(9007199254740992.0)), pairs(&[]));
    // Strings are encoded per "Value Encoding".
    assert_eq!(
        values(json!({"region": " padded "})),
        pairs(&[("mcp-param-region", "=?base64?IHBhZGRlZCA=?=")])
    );
}

#[test]
fn spec_example_tool_produces_the_spec_headers() {
    let tool = json!({
        "name": "execute_sql",
        "inputSchema": {
            "type": "object",
            "properties": {
                "region": {"type": "string", "description": "The region", "x-mcp-header": "Region"},
                "query": {"type": "string"}
            },
            "required": ["region", "query"]
        }
    });
    let designations = param_headers(&tool["inputSchema"]).unwrap();
    let params =
        json!({"name": "execute_sql", "arguments": {"region": "us-west1", "query": "SELECT 1"}});
    let mut headers = standard_headers("tools/call", Some(&params));
    headers.extend(param_header_values(&designations, &params["arguments"]));
    assert_eq!(
        headers,
        pairs(&[
            ("mcp-method", "tools/call"),
            ("mcp-name", "execute_sql"),
            ("mcp-param-region", "us-west1"),
        ])
    );
}

#[test]
fn tool_list_with_one_invalid_tool_keeps_the_others() {
    let tools = vec![
        json!({"name": "good", "inputSchema": {"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"}}}}),
        json!({"name": "bad_items", "inputSchema": {"type": "object", "properties": {
            "list": {"type": "array", "items": {"type": "string", "x-mcp-header": "Item"}}}}}),
        json!({"name": "bad_number", "inputSchema": {"type": "object", "properties": {
            "ratio": {"type": "number", "x-mcp-header": "Ratio"}}}}),
        json!({"name": "plain", "inputSchema": {"type": "object"}}),
        json!({"name": "no_schema"}),
    ];
    let (kept, rejected) = partition_tools(tools);
    let kept_names: Vec<&str> = kept
        .iter()
        .map(|(t, _)| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(kept_names, ["good", "plain", "no_schema"]);
    assert_eq!(
        kept[0].1,
        vec![ph("Region", &["region"], ParamType::String)]
    );
    assert!(kept[1].1.is_empty());
    assert_eq!(rejected.len(), 2);
    assert_eq!(rejected[0].name, "bad_items");
    assert_eq!(
        rejected[0].error,
        HeaderError::NotStaticallyReachable {
            at: "/properties/list/items/x-mcp-header".into()
        }
    );
    assert_eq!(rejected[1].name, "bad_number");
    assert_eq!(
        rejected[1].error,
        HeaderError::UnsupportedType {
            at: "/properties/ratio".into()
        }
    );
    assert!(rejected[1].error.to_string().contains("/properties/ratio"));
}

#[test]
fn put_header_replaces_every_case_of_a_name_and_keeps_the_others() {
    let mut headers: Vec<(String, String)> = [
        ("Authorization", "Bearer static"),
        ("accept", "application/json"),
        ("AUTHORIZATION", "Bearer other"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    put_header(&mut headers, "authorization", Some("DPoP t".into()));
    assert_eq!(
        headers,
        [
            ("accept".to_string(), "application/json".to_string()),
            ("authorization".to_string(), "DPoP t".to_string()),
        ]
    );
    put_header(&mut headers, "authorization", None);
    assert_eq!(headers.len(), 1);
    assert_eq!(headers[0].0, "accept");
}

// Runs in the runtime `wasm-pack test` asks for (see tests/wasm-test-mode).
mcp_edge_wasm_test_mode::configure!();
