//! `outputSchema` checking (MCP 2025-06-18+ `server/tools` "Output Schema": "Clients SHOULD
//! validate structured results against this schema"), eval-free through [`crate::schema`].
//! Each tool's schema is compiled once per listing; a schema that does not compile affects only
//! its own tool (its results pass unchecked, and the compile error is reported once).

use std::collections::HashMap;

use serde_json::Value;

use crate::proto::session::ProtocolError;
use crate::schema::{Schema, SchemaError};

/// The compiled output schemas of one server's tools.
#[derive(Debug, Default)]
pub struct OutputSchemas {
    tools: HashMap<String, Result<Schema, SchemaError>>,
}

impl OutputSchemas {
    /// Replaces the schemas from a `tools/list` result's tools; returns the compile errors
    /// (tool name, error) so the host can report them.
    pub fn update(&mut self, tools: &[Value]) -> Vec<(String, SchemaError)> {
        self.tools.clear();
        let mut errors = Vec::new();
        for tool in tools {
            let (Some(name), Some(schema)) = (
                tool.get("name").and_then(Value::as_str),
                tool.get("outputSchema"),
            ) else {
                continue;
            };
            let compiled = Schema::compile(schema);
            if let Err(e) = &compiled {
                errors.push((name.to_string(), e.clone()));
            }
            self.tools.insert(name.to_string(), compiled);
        }
        errors
    }

    /// Checks a `tools/call` result of `tool`. An `isError` result is not checked; a tool with an
    /// output schema must return `structuredContent` that conforms.
    pub fn check(&self, tool: &str, result: &Value) -> Result<(), ProtocolError> {
        let Some(Ok(schema)) = self.tools.get(tool) else {
            return Ok(());
        };
        if result.get("isError").and_then(Value::as_bool) == Some(true) {
            return Ok(());
        }
        let Some(structured) = result.get("structuredContent") else {
            return Err(ProtocolError::OutputSchemaMismatch {
                tool: tool.to_string(),
                errors: vec![
                    "the tool declares an outputSchema but returned no structuredContent".into(),
                ],
            });
        };
        schema
            .validate(structured)
            .map_err(|errs| ProtocolError::OutputSchemaMismatch {
                tool: tool.to_string(),
                errors: errs
                    .iter()
                    .map(|e| format!("{}: {}", e.instance_path, e.message))
                    .collect(),
            })
    }
}
