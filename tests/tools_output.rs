//! `outputSchema` checks of tool results.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcp_edge::proto::session::ProtocolError;
use mcp_edge::schema::output::OutputSchemas;
use serde_json::json;

fn schemas() -> (OutputSchemas, usize) {
    let mut o = OutputSchemas::default();
    let errors = o.update(&[
        json!({"name": "add", "inputSchema": {}, "outputSchema": {"type": "object", "properties": {"sum": {"type": "integer"}}, "required": ["sum"]}}),
        json!({"name": "broken", "inputSchema": {}, "outputSchema": {"$ref": "https://example.invalid/schema.json"}}),
        json!({"name": "plain", "inputSchema": {}}),
    ]);
    (o, errors.len())
}

#[test]
fn conforming_results_pass_and_others_fail_typed() {
    let (o, errors) = schemas();
    assert_eq!(errors, 1, "only the broken schema fails to compile");
    assert_eq!(
        o.check(
            "add",
            &json!({"content": [], "structuredContent": {"sum": 3}})
        ),
        Ok(())
    );
    match o.check(
        "add",
        &json!({"content": [], "structuredContent": {"sum": "3"}}),
    ) {
        Err(ProtocolError::OutputSchemaMismatch { tool, errors }) => {
            assert_eq!(tool, "add");
            assert!(errors[0].starts_with("/sum"), "{errors:?}");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        o.check("add", &json!({"content": []})),
        Err(ProtocolError::OutputSchemaMismatch { .. })
    ));
}

#[test]
fn errors_broken_schemas_and_unknown_tools_are_not_checked() {
    let (o, _) = schemas();
    assert_eq!(
        o.check("add", &json!({"content": [], "isError": true})),
        Ok(())
    );
    assert_eq!(
        o.check("broken", &json!({"structuredContent": 1})),
        Ok(()),
        "a broken schema affects only its tool, and does not block it"
    );
    assert_eq!(o.check("plain", &json!({"content": []})), Ok(()));
    assert_eq!(o.check("never-listed", &json!({})), Ok(()));
}

// Runs in the runtime `wasm-pack test` asks for (see tests/wasm-test-mode).
mcp_edge_wasm_test_mode::configure!();
