//! An eval-free JSON Schema validator for MCP tool `outputSchema` / `structuredContent`.
//!
//! MCP `server/tools` "Output Schema" (2025-06-18 onward): when a tool declares an `outputSchema`,
//! "Clients SHOULD validate structured results against this schema". JS validators that generate
//! code (`new Function`) cannot run in isolates that forbid `eval`, so the client validates here,
//! in plain Rust over `serde_json::Value`.
//!
//! ```text
//!   outputSchema ──► Schema::compile ──► Schema (once per tool; a broken schema fails here only)
//!   structuredContent ──► Schema::validate ──► Ok(()) | Err(errors with instance + schema pointers)
//! ```
//!
//! # Dialects (MCP `basic/index` "JSON Schema Usage")
//! No `$schema` means JSON Schema 2020-12. `$schema` may also name 2019-09, draft-07, draft-06 or
//! draft-04; anything else is [`SchemaError::UnsupportedDialect`]. Per dialect: before 2019-09 a
//! `$ref` replaces its sibling keywords; draft-04 reads `id` and boolean
//! `exclusiveMinimum`/`exclusiveMaximum`. In every dialect `definitions` works like `$defs`, `items`
//! given as an array is a tuple (with `additionalItems` for the rest) and `dependencies` splits into
//! `dependentRequired`/`dependentSchemas`, because MCP servers commonly emit those spellings.
//!
//! # Keywords
//! Assertions: `type` (`integer` = a number with zero fractional part, so `1.0` is an integer),
//! `enum`, `const` (numbers compared by value), `minimum`, `maximum`, `exclusiveMinimum`,
//! `exclusiveMaximum`, `multipleOf` (exact on decimals), `minLength`/`maxLength` (code points),
//! `pattern` (see below), `minItems`, `maxItems`, `uniqueItems`, `minContains`/`maxContains`,
//! `minProperties`, `maxProperties`, `required`, `dependentRequired`. Applicators: `properties`,
//! `patternProperties`, `additionalProperties`, `propertyNames`, `prefixItems`, `items`,
//! `contains`, `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, `dependentSchemas`,
//! `unevaluatedProperties`, `unevaluatedItems`, `$ref`. `format` and the other annotations are
//! not asserted (2020-12 Validation § 7.2: format is annotation-only by default). Unknown
//! keywords are ignored.
//!
//! # References (MCP 2026-07-28 `basic/index` "`$ref` Resolution")
//! `$ref` resolves against `$id` base URIs per RFC 3986 inside the document only: JSON pointers
//! (`#`, `#/$defs/x`, percent- and `~`-escaped), `$anchor` names and embedded `$id` resources.
//! Anything else — `http:`, `https:`, a relative file — is [`SchemaError::RemoteRef`]: network
//! references are never dereferenced. Recursion through `$ref` is allowed; a cycle of in-place
//! applicators that never descends into the instance is [`SchemaError::RefCycle`].
//! Deviation: `$dynamicRef` and `$recursiveRef` are resolved statically, like `$ref`.
//!
//! # Patterns
//! ECMA-262 regular expressions run on a small backtracking engine (`regex` module) with a step
//! budget: a pathological pattern such as `^(a+)+$` stops with
//! [`ValidationErrorKind::PatternBudget`] instead of hanging. Constructs it does not implement
//! (backreferences, lookaround, `\p{..}`) fail compilation with
//! [`SchemaError::UnsupportedPattern`].
//!
//! # Bounds (MCP 2026-07-28 "Composition-Keyword Resource Use")
//! [`Limits`] caps schema depth and size at compile time and instance depth, nesting, total work,
//! per-match regex work and the number of reported errors at validation time. Hitting a bound is a
//! typed error; the instance is then not accepted.

mod compile;
mod error;
mod node;
pub mod output;
mod pointer;
mod regex;
mod uri;
mod validate;
mod value;

pub use error::{SchemaError, ValidationError, ValidationErrorKind};

use serde_json::Value;

/// JSON Schema dialects this validator implements, oldest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// `http://json-schema.org/draft-04/schema#`.
    Draft04,
    /// `http://json-schema.org/draft-06/schema#`.
    Draft06,
    /// `http://json-schema.org/draft-07/schema#`.
    Draft07,
    /// `https://json-schema.org/draft/2019-09/schema`.
    Draft2019_09,
    /// `https://json-schema.org/draft/2020-12/schema`, the default when `$schema` is absent (MCP
    /// 2025-11-25 `basic/index` "Schema Dialect").
    Draft2020_12,
}

/// Bounds on compilation and validation work. Construct with [`Limits::default`] and adjust
/// fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Deepest subschema nesting in a schema, and deepest instance nesting validated (default 128).
    pub max_depth: usize,
    /// Most subschemas one schema may compile to (default 20 000).
    pub max_nodes: usize,
    /// Most subschema evaluations in progress at once, i.e. the validator's recursion depth
    /// (default 512).
    pub max_call_depth: usize,
    /// Total work for one validation: subschema evaluations, regex steps and items compared for
    /// `uniqueItems` (default 10 000 000).
    pub max_steps: u64,
    /// Backtracking steps for one `pattern` / `patternProperties` match (default 1 000 000).
    pub max_regex_steps: u64,
    /// Most errors reported by one validation (default 20; 0 reports a single generic error).
    pub max_errors: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_depth: 128,
            max_nodes: 20_000,
            max_call_depth: 512,
            max_steps: 10_000_000,
            max_regex_steps: 1_000_000,
            max_errors: 20,
        }
    }
}

/// A compiled schema: compile once per tool, validate each result.
#[derive(Debug, Clone)]
pub struct Schema {
    compiled: node::Compiled,
    dialect: Dialect,
    limits: Limits,
}

impl Schema {
    /// Compiles `schema` (a whole schema document) with [`Limits::default`].
    pub fn compile(schema: &Value) -> Result<Schema, SchemaError> {
        Self::compile_with(schema, Limits::default())
    }

    /// Compiles `schema` with explicit limits.
    pub fn compile_with(schema: &Value, limits: Limits) -> Result<Schema, SchemaError> {
        let (compiled, dialect) = compile::compile(schema, limits)?;
        Ok(Schema {
            compiled,
            dialect,
            limits,
        })
    }

    /// The dialect the schema was compiled as (from `$schema`, else 2020-12).
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Validates `instance`. On failure returns at most [`Limits::max_errors`] errors (plus one
    /// when a limit stopped validation), each with the instance location, the schema location and
    /// a message.
    pub fn validate(&self, instance: &Value) -> Result<(), Vec<ValidationError>> {
        validate::validate(&self.compiled, &self.limits, instance)
    }

    /// Whether `instance` is valid (stops at the first failure).
    pub fn is_valid(&self, instance: &Value) -> bool {
        let mut limits = self.limits;
        limits.max_errors = 0;
        validate::validate(&self.compiled, &limits, instance).is_ok()
    }
}
