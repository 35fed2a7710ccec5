//! JSON object text written member by member, for the documents the crate writes by hand (the
//! authorization records): each member goes straight into the text, where `serde_json::json!`
//! would build a `Value` tree (a map insert and a conversion per member, inlined at every use)
//! only to serialise it once and drop it. The counterpart of [`super::read`].

use serde_json::Value;

/// An object being written. Members are written in the order given; `None` members are left out
/// (the readers take absent and `null` alike).
pub(crate) struct ObjectText(String);

impl ObjectText {
    pub(crate) fn new() -> Self {
        ObjectText(String::from("{"))
    }

    /// Starts member `k` and returns the text to write its value into.
    fn key(&mut self, k: &str) -> &mut String {
        if self.0.len() > 1 {
            self.0.push(',');
        }
        push_string(&mut self.0, k);
        self.0.push(':');
        &mut self.0
    }

    /// A string member (JSON-escaped).
    pub(crate) fn str(&mut self, k: &str, v: &str) -> &mut Self {
        push_string(self.key(k), v);
        self
    }

    /// A string member when `v` is `Some`.
    pub(crate) fn opt(&mut self, k: &str, v: Option<&str>) -> &mut Self {
        if let Some(v) = v {
            self.str(k, v);
        }
        self
    }

    /// A member whose value is already JSON text (a nested record, a number, a boolean).
    pub(crate) fn raw(&mut self, k: &str, json: &str) -> &mut Self {
        self.key(k).push_str(json);
        self
    }

    /// An unsigned integer member when `v` is `Some`.
    pub(crate) fn num(&mut self, k: &str, v: Option<u64>) -> &mut Self {
        if let Some(v) = v {
            self.raw(k, &v.to_string());
        }
        self
    }

    /// A boolean member.
    pub(crate) fn bool(&mut self, k: &str, v: bool) -> &mut Self {
        self.raw(k, if v { "true" } else { "false" })
    }

    /// An array-of-strings member when `v` is `Some`.
    pub(crate) fn list(&mut self, k: &str, v: Option<&[String]>) -> &mut Self {
        if let Some(v) = v {
            let out = self.key(k);
            out.push('[');
            for (i, s) in v.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_string(out, s);
            }
            out.push(']');
        }
        self
    }

    /// The finished text.
    pub(crate) fn finish(&mut self) -> String {
        let mut text = std::mem::take(&mut self.0);
        text.push('}');
        text
    }
}

/// `s` as a JSON string literal, escaped by the crate's one JSON writer. The `Value` copy is
/// on purpose: it reuses `json_text`'s instantiation of the writer, where
/// `serde_json::to_string(s)` adds one (+99 B gzip on the client build, measured); records are
/// written a few times per sign-in, so the copy costs nothing that matters.
fn push_string(out: &mut String, s: &str) {
    out.push_str(&super::json::json_text(&Value::from(s)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_what_serde_json_reads_back() {
        let text = ObjectText::new()
            .str("a", "q\"u\\o\nte")
            .opt("absent", None)
            .opt("b", Some("x"))
            .num("n", Some(18_446_744_073_709_551_615))
            .num("none", None)
            .bool("t", true)
            .list("l", Some(&["x".to_string(), "y\"".to_string()]))
            .list("empty", Some(&[]))
            .raw("o", "{\"k\":1}")
            .finish();
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            v,
            serde_json::json!({
                "a": "q\"u\\o\nte", "b": "x", "n": 18_446_744_073_709_551_615u64, "t": true,
                "l": ["x", "y\""], "empty": [], "o": {"k": 1},
            })
        );
        assert_eq!(ObjectText::new().finish(), "{}");
    }
}
