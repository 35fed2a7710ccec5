//! Form-mode elicitation support (MCP 2025-11-25 `client/elicitation` "Form Mode Elicitation
//! Requests"): "All primitive types support optional default values ... Clients that support
//! defaults SHOULD pre-populate form fields with these values."

use serde_json::{Map, Value};

/// The defaults a `requestedSchema` declares, as a pre-populated form (property -> default).
pub fn defaults(requested_schema: &Value) -> Map<String, Value> {
    let mut out = Map::new();
    if let Some(Value::Object(props)) = requested_schema.get("properties") {
        for (name, prop) in props {
            if let Some(d) = prop.get("default") {
                out.insert(name.clone(), d.clone());
            }
        }
    }
    out
}

/// Completes an accepted `ElicitResult`: every property the user left out that has a default gets
/// it, as a pre-populated field the user did not change would. Other actions are left alone.
pub fn apply_defaults(params: &Value, result: &mut Value) {
    if result.get("action").and_then(Value::as_str) != Some("accept") {
        return;
    }
    let mode = params.get("mode").and_then(Value::as_str).unwrap_or("form");
    if mode != "form" {
        return;
    }
    let d = defaults(params.get("requestedSchema").unwrap_or(&Value::Null));
    if d.is_empty() {
        return;
    }
    let Some(obj) = result.as_object_mut() else {
        return;
    };
    let content = obj
        .entry("content")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(c) = content {
        for (k, v) in d {
            c.entry(k).or_insert(v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defaults_fill_only_missing_fields_of_accepted_forms() {
        let params = json!({"message": "m", "requestedSchema": {"type": "object", "properties": {
            "name": {"type": "string", "default": "ann"},
            "age": {"type": "integer", "default": 30},
            "ok": {"type": "boolean"}}}});
        let mut r = json!({"action": "accept", "content": {"age": 41}});
        apply_defaults(&params, &mut r);
        assert_eq!(
            r,
            json!({"action": "accept", "content": {"age": 41, "name": "ann"}})
        );
        let mut empty = json!({"action": "accept"});
        apply_defaults(&params, &mut empty);
        assert_eq!(empty["content"], json!({"name": "ann", "age": 30}));
        let mut declined = json!({"action": "decline"});
        apply_defaults(&params, &mut declined);
        assert_eq!(declined, json!({"action": "decline"}));
        let url = json!({"mode": "url", "requestedSchema": params["requestedSchema"]});
        let mut r2 = json!({"action": "accept"});
        apply_defaults(&url, &mut r2);
        assert_eq!(r2, json!({"action": "accept"}));
    }
}
