//! The schema layer's errors: [`SchemaError`] when a schema cannot be compiled, [`ValidationError`]
//! for each way an instance fails a compiled schema.

use std::fmt;

/// Why a schema could not be compiled. Every variant names the JSON pointer (RFC 6901) of the
/// offending place inside the schema document (`""` is the document root).
///
/// MCP `basic/index` "JSON Schema Usage": schemas "MUST be valid according to their declared or
/// default dialect" and an unsupported dialect is reported "gracefully" with an error; a broken
/// `outputSchema` therefore fails to compile and only its own tool is affected.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SchemaError {
    /// A schema position holds something other than an object or a boolean (JSON Schema 2020-12
    /// Core § 4.3 "JSON Schema Documents").
    NotASchema {
        /// Where.
        pointer: String,
    },
    /// A keyword's value has the wrong shape (e.g. a negative `minLength`, `multipleOf: 0`, a
    /// `required` that is not an array of strings).
    InvalidKeyword {
        /// The keyword's location.
        pointer: String,
        /// What is wrong.
        reason: String,
    },
    /// `$schema` names a dialect this validator does not implement (MCP: "MUST handle unsupported
    /// dialects gracefully by returning an appropriate error").
    UnsupportedDialect {
        /// The `$schema` keyword's location.
        pointer: String,
        /// Its value.
        dialect: String,
    },
    /// A `$ref` that resolves outside the document (no `$id` in it matches). MCP 2026-07-28
    /// `basic/index` "`$ref` Resolution": implementations "MUST NOT automatically dereference"
    /// network URIs, and schemas with an unresolved external `$ref` "SHOULD be rejected".
    RemoteRef {
        /// The `$ref` keyword's location.
        pointer: String,
        /// The reference, resolved against the current base URI.
        reference: String,
    },
    /// A local `$ref` whose JSON pointer or anchor does not exist in the document.
    UnresolvedRef {
        /// The `$ref` keyword's location.
        pointer: String,
        /// The reference as written.
        reference: String,
    },
    /// A chain of in-place applicators (`$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`,
    /// `dependentSchemas`) that returns to a schema without moving into the instance: validating
    /// through it would never end.
    RefCycle {
        /// A schema on the cycle.
        pointer: String,
    },
    /// A `pattern` or `patternProperties` key that is not a valid ECMA-262 regular expression.
    InvalidPattern {
        /// The pattern's location.
        pointer: String,
        /// Offset of the problem, in characters from the pattern's start.
        offset: usize,
        /// What is wrong.
        reason: String,
    },
    /// A valid ECMA-262 construct this engine does not implement (backreferences, lookaround,
    /// Unicode property escapes, ...). Reported instead of being guessed at.
    UnsupportedPattern {
        /// The pattern's location.
        pointer: String,
        /// Offset of the construct, in characters from the pattern's start.
        offset: usize,
        /// The construct.
        construct: String,
    },
    /// The schema nests subschemas deeper than the limit (MCP 2026-07-28 "Composition-Keyword
    /// Resource Use": "a maximum schema depth").
    TooDeep {
        /// Where the limit was crossed.
        pointer: String,
        /// The limit.
        limit: usize,
    },
    /// The schema (or one pattern in it) is larger than the limit ("a cap on the total number of
    /// subschemas").
    TooLarge {
        /// Where the limit was crossed.
        pointer: String,
        /// The limit.
        limit: usize,
    },
}

impl SchemaError {
    /// The JSON pointer of the problem inside the schema document.
    pub fn pointer(&self) -> &str {
        match self {
            Self::NotASchema { pointer }
            | Self::InvalidKeyword { pointer, .. }
            | Self::UnsupportedDialect { pointer, .. }
            | Self::RemoteRef { pointer, .. }
            | Self::UnresolvedRef { pointer, .. }
            | Self::RefCycle { pointer }
            | Self::InvalidPattern { pointer, .. }
            | Self::UnsupportedPattern { pointer, .. }
            | Self::TooDeep { pointer, .. }
            | Self::TooLarge { pointer, .. } => pointer,
        }
    }
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = self.pointer();
        match self {
            Self::NotASchema { .. } => write!(f, "not a schema (object or boolean) at {at:?}"),
            Self::InvalidKeyword { reason, .. } => write!(f, "invalid keyword at {at:?}: {reason}"),
            Self::UnsupportedDialect { dialect, .. } => {
                write!(f, "unsupported JSON Schema dialect {dialect:?} at {at:?}")
            }
            Self::RemoteRef { reference, .. } => {
                write!(
                    f,
                    "remote $ref {reference:?} at {at:?} is never dereferenced"
                )
            }
            Self::UnresolvedRef { reference, .. } => {
                write!(
                    f,
                    "$ref {reference:?} at {at:?} does not resolve in this document"
                )
            }
            Self::RefCycle { .. } => write!(f, "$ref cycle without progress through {at:?}"),
            Self::InvalidPattern { offset, reason, .. } => {
                write!(f, "invalid pattern at {at:?}, character {offset}: {reason}")
            }
            Self::UnsupportedPattern {
                offset, construct, ..
            } => write!(
                f,
                "unsupported pattern construct {construct} at {at:?}, character {offset}"
            ),
            Self::TooDeep { limit, .. } => write!(f, "schema nested deeper than {limit} at {at:?}"),
            Self::TooLarge { limit, .. } => write!(f, "schema larger than {limit} at {at:?}"),
        }
    }
}

impl std::error::Error for SchemaError {}

/// What kind of failure a [`ValidationError`] reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ValidationErrorKind {
    /// The instance does not satisfy [`ValidationError::keyword`].
    Invalid,
    /// Validation nested deeper than [`Limits::max_depth`](crate::schema::Limits::max_depth) (a
    /// deeply nested instance); validation stopped, the instance is not accepted.
    TooDeep,
    /// Validation used more than [`Limits::max_steps`](crate::schema::Limits::max_steps); it
    /// stopped and the instance is not accepted (MCP 2026-07-28 "a per-validation time budget").
    WorkBudget,
    /// One `pattern` match ran out of backtracking steps
    /// ([`Limits::max_regex_steps`](crate::schema::Limits::max_regex_steps)); validation stopped and
    /// the instance is not accepted.
    PatternBudget,
}

/// One way an instance fails a schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationError {
    /// JSON pointer into the instance (`""` is the instance itself).
    pub instance_path: String,
    /// JSON pointer of the failing keyword inside the schema document (for a `false` schema, the
    /// schema's own location). Behind a `$ref` this is the target's location.
    pub schema_path: String,
    /// The failing keyword (`"false"` for a `false` schema, `""` for a limit).
    pub keyword: &'static str,
    /// The kind of failure.
    pub kind: ValidationErrorKind,
    /// A human-readable explanation.
    pub message: String,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} (schema {:?}): {}",
            self.instance_path, self.schema_path, self.message
        )
    }
}

impl std::error::Error for ValidationError {}
