//! Annotations to categories (honest default `execute`; hints never auto-approve), provenance,
//! description truncation, result flattening and truncation, errors as `isError` results.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcp_edge::pool::PoolError;
use mcp_edge::tools::adapt::{
    adapt_tool, base64_decoded_len, estimate_tokens, flatten_result, provenance_note,
    truncate_chars, AdaptOptions, Category, FlatResult, Hints,
};
use mcp_edge::tools::ToolError;
use serde_json::json;

#[test]
fn hints_and_categories() {
    let opts = AdaptOptions::default();
    let ro = json!({"name": "get", "description": "d", "inputSchema": {"type": "object"},
                    "annotations": {"readOnlyHint": true}});
    let t = adapt_tool("srv", "mcp__srv__get", &ro, None, &opts).unwrap();
    assert_eq!(
        t.category,
        Category::Execute,
        "a hint alone never sets the category"
    );
    assert_eq!(t.hinted_category, Category::Read);
    assert!(!t.auto_approve, "readOnlyHint alone never auto-approves");
    let user_read = adapt_tool("srv", "n", &ro, Some(Category::Read), &opts).unwrap();
    assert_eq!(user_read.category, Category::Read);
    assert!(
        !user_read.auto_approve,
        "only the user's autoApprove approves in advance"
    );
    let user_write = adapt_tool("srv", "n", &ro, Some(Category::Write), &opts).unwrap();
    assert_eq!(user_write.category.as_str(), "write");
    assert_eq!(
        Category::parse("edit"),
        Some(Category::Write),
        "the earlier spelling"
    );
    // Spec defaults for absent hints.
    assert_eq!(
        Hints::from_annotations(None),
        Hints {
            read_only: false,
            destructive: true,
            idempotent: false,
            open_world: true
        }
    );
    let h = Hints::from_annotations(Some(
        &json!({"destructiveHint": false, "idempotentHint": true, "openWorldHint": false, "readOnlyHint": "yes"}),
    ));
    assert_eq!(
        h,
        Hints {
            read_only: false,
            destructive: false,
            idempotent: true,
            open_world: false
        }
    );
    assert_eq!(h.category(), Category::Write);
    assert_eq!(Hints::default().category(), Category::Execute);
    let v = serde_json::to_value(h).unwrap();
    assert_eq!(
        v,
        json!({"readOnly": false, "destructive": false, "idempotent": true, "openWorld": false})
    );
    assert_eq!(serde_json::to_value(Category::Execute).unwrap(), "execute");
}

#[test]
fn descriptions_get_provenance_and_safe_truncation() {
    let opts = AdaptOptions {
        max_description_chars: 10,
        ..AdaptOptions::default()
    };
    let tool =
        json!({"name": "t", "description": "ééééééééééééééé", "inputSchema": {"type": "object"}});
    let t = adapt_tool("srv", "n", &tool, None, &opts).unwrap();
    assert!(
        t.description
            .starts_with("éééééééééé … [description truncated: 5 more characters]"),
        "{}",
        t.description
    );
    assert!(t.description.ends_with(&provenance_note("srv")));
    assert_eq!(
        provenance_note("srv"),
        "(Provided by the external MCP server \"srv\"; not sandboxed.)"
    );
    // Short descriptions are untouched; a title stands in for a missing description.
    let t = adapt_tool(
        "srv",
        "n",
        &json!({"name": "t", "title": "Title", "inputSchema": {}}),
        None,
        &AdaptOptions::default(),
    )
    .unwrap();
    assert_eq!(
        t.description,
        format!("Title\n\n{}", provenance_note("srv"))
    );
    assert_eq!(t.title.as_deref(), Some("Title"));
    let bare = adapt_tool(
        "srv",
        "n",
        &json!({"name": "t"}),
        None,
        &AdaptOptions::default(),
    )
    .unwrap();
    assert_eq!(bare.description, provenance_note("srv"));
    assert_eq!(bare.input_schema, json!({"type": "object"}));
    // Default limit is 2048.
    let long = json!({"name": "t", "description": "x".repeat(5000)});
    let t = adapt_tool("srv", "n", &long, None, &AdaptOptions::default()).unwrap();
    assert!(t.description.starts_with(&format!(
        "{} … [description truncated: 2952 more characters]",
        "x".repeat(2048)
    )));
}

#[test]
fn invalid_tools_are_typed_errors() {
    let o = AdaptOptions::default();
    let err = adapt_tool("srv", "n", &json!({"description": "no name"}), None, &o).unwrap_err();
    assert_eq!(err.code(), "INVALID_TOOL");
    let err = adapt_tool(
        "srv",
        "n",
        &json!({"name": "t", "inputSchema": "string"}),
        None,
        &o,
    )
    .unwrap_err();
    assert_eq!(
        err,
        ToolError::InvalidTool {
            server: "srv".into(),
            tool: "t".into(),
            reason: "\"inputSchema\" is not an object".into()
        }
    );
    assert!(adapt_tool("srv", "n", &json!([1]), None, &o).is_err());
}

#[test]
fn truncate_is_char_boundary_safe() {
    let (s, cut) = truncate_chars("a😀b😀c", 3, |k, t| format!("[{k}/{t}]"));
    assert_eq!((s.as_str(), cut), ("a😀b[3/5]", true));
    let (s, cut) = truncate_chars("abc", 3, |_, _| unreachable!());
    assert_eq!((s.as_str(), cut), ("abc", false));
    assert_eq!(estimate_tokens(""), 0);
    assert_eq!(estimate_tokens("abcde"), 2);
}

#[test]
fn flattening_every_content_type() {
    let result = json!({"content": [
        {"type": "text", "text": "hello"},
        {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
        {"type": "audio", "data": "AAAA\nAAAA", "mimeType": "audio/wav"},
        {"type": "resource_link", "uri": "file:///a.txt", "name": "a.txt", "mimeType": "text/plain", "size": 12, "description": "a file"},
        {"type": "resource", "resource": {"uri": "mem://x", "mimeType": "text/markdown", "text": "# X"}},
        {"type": "resource", "resource": {"uri": "mem://y", "mimeType": "application/pdf", "blob": "QUJDRA=="}},
        {"type": "hologram"}
    ], "structuredContent": {"ignored": "because text exists"}});
    let f = flatten_result(&result, &AdaptOptions::default());
    assert_eq!(
        f.text,
        "hello\n\n[image: image/png, 8 bytes]\n\n[audio: audio/wav, 6 bytes]\n\n\
         [resource link: a.txt <file:///a.txt>, text/plain, 12 bytes — a file]\n\n\
         [embedded resource <mem://x>, text/markdown]\n# X\n\n\
         [embedded resource <mem://y>: application/pdf, 4 bytes]\n\n[unsupported content type \"hologram\"]"
    );
    assert!(!f.is_error && !f.truncated);
    assert_eq!(base64_decoded_len("iVBORw0KGgo="), 8);
    assert_eq!(base64_decoded_len("QUI="), 2);
    assert_eq!(base64_decoded_len("QUJD"), 3);
    assert_eq!(base64_decoded_len("QUJDRA"), 4, "unpadded");
    assert_eq!(base64_decoded_len(""), 0);
}

#[test]
fn structured_content_only_when_no_text() {
    let r = json!({"content": [], "structuredContent": {"temp": 21.5, "unit": "C"}});
    assert_eq!(
        flatten_result(&r, &AdaptOptions::default()).text,
        r#"{"temp":21.5,"unit":"C"}"#
    );
    let r = json!({"content": [{"type": "image", "data": "", "mimeType": "image/gif"}], "structuredContent": [1, 2]});
    assert_eq!(
        flatten_result(&r, &AdaptOptions::default()).text,
        "[image: image/gif, 0 bytes]\n\n[1,2]"
    );
    let r = json!({"content": [{"type": "text", "text": "{\"temp\":21.5}"}], "structuredContent": {"temp": 21.5}});
    assert_eq!(
        flatten_result(&r, &AdaptOptions::default()).text,
        "{\"temp\":21.5}"
    );
}

#[test]
fn result_truncation_by_chars_and_tokens() {
    let big = json!({"content": [{"type": "text", "text": "é".repeat(200_000)}]});
    let f = flatten_result(&big, &AdaptOptions::default());
    assert!(f.truncated);
    assert!(f
        .text
        .ends_with("\n… [result truncated: showing 100000 of 200000 characters]"));
    assert_eq!(f.text.chars().filter(|&c| c == 'é').count(), 100_000);
    // The token cap (x4 chars) wins when smaller.
    let f = flatten_result(
        &big,
        &AdaptOptions {
            max_result_tokens: 10,
            ..AdaptOptions::default()
        },
    );
    assert_eq!(
        f.text,
        format!(
            "{}\n… [result truncated: showing 40 of 200000 characters]",
            "é".repeat(40)
        )
    );
}

#[test]
fn errors_become_is_error_results() {
    let r = json!({"content": [{"type": "text", "text": "bad city"}], "isError": true});
    let f = flatten_result(&r, &AdaptOptions::default());
    assert!(f.is_error);
    assert_eq!(
        f.to_call_result(),
        json!({"content": [{"type": "text", "text": "bad city"}], "isError": true})
    );
    let err = PoolError::CircuitOpen {
        name: "mcp__a__b".into(),
        retry_at: 5,
    };
    let f = FlatResult::error(err.to_string());
    assert_eq!(f.to_call_result()["isError"], true);
    assert!(f.to_call_result()["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("mcp__a__b"));
    // A result with no content at all flattens to empty text, not an error.
    assert_eq!(
        flatten_result(&json!({}), &AdaptOptions::default()),
        FlatResult {
            text: String::new(),
            is_error: false,
            truncated: false
        }
    );
}

// Runs in the runtime `wasm-pack test` asks for (see tests/wasm-test-mode).
mcp_edge_wasm_test_mode::configure!();
