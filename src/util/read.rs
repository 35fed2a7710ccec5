//! Member readers for JSON documents the crate reads by hand (session snapshots, authorization
//! metadata and records, the stored server description): one definition of each rule, shared
//! by every reader, so that "absent", "null" and "mistyped" mean the same everywhere.

use serde_json::Value;

/// The string member `k` of `v`; `None` when absent or not a string.
pub(crate) fn string(v: &Value, k: &str) -> Option<String> {
    v.get(k).and_then(Value::as_str).map(str::to_string)
}

/// An optional string member: absent or `null` is `Some(None)`, a string `Some(Some(..))`, any
/// other type `None` (mistyped).
pub(crate) fn opt_string(v: &Value, k: &str) -> Option<Option<String>> {
    match v.get(k) {
        None | Some(Value::Null) => Some(None),
        Some(Value::String(s)) => Some(Some(s.clone())),
        Some(_) => None,
    }
}

/// An array whose items are all strings; `None` when it is not an array or an item is not a
/// string (for formats the crate writes itself).
pub(crate) fn string_list(v: Option<&Value>) -> Option<Vec<String>> {
    v?.as_array()?
        .iter()
        .map(|x| x.as_str().map(str::to_string))
        .collect()
}

/// The strings of an array, other items skipped; `None` when it is not an array (for documents
/// other parties write, such as authorization-server metadata).
pub(crate) fn strings(v: Option<&Value>) -> Option<Vec<String>> {
    v?.as_array().map(|a| {
        a.iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn absent_null_and_mistyped_members() {
        let v = json!({"s": "x", "n": null, "i": 1, "a": ["p", "q"], "m": ["p", 1]});
        assert_eq!(string(&v, "s").as_deref(), Some("x"));
        assert_eq!(string(&v, "i"), None);
        assert_eq!(opt_string(&v, "s"), Some(Some("x".into())));
        assert_eq!(opt_string(&v, "n"), Some(None));
        assert_eq!(opt_string(&v, "absent"), Some(None));
        assert_eq!(opt_string(&v, "i"), None);
        assert_eq!(string_list(v.get("a")), Some(vec!["p".into(), "q".into()]));
        assert_eq!(string_list(v.get("m")), None);
        assert_eq!(strings(v.get("m")), Some(vec!["p".into()]));
        assert_eq!(strings(v.get("s")), None);
        assert_eq!(string_list(None), None);
    }
}
