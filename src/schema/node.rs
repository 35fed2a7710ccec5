//! The compiled form of a schema: a flat arena of nodes that refer to each other by index, so
//! `$ref` cycles are plain indices and nothing is reference-counted.

use super::regex::Regex;
use super::value::Num;
use serde_json::Value;
use std::collections::HashMap;

/// Index of a node in [`Compiled::nodes`].
pub(crate) type NodeId = usize;

/// `type` names as bits (2020-12 Validation § 6.1.1).
pub(crate) mod types {
    pub(crate) const NULL: u8 = 1;
    pub(crate) const BOOLEAN: u8 = 2;
    pub(crate) const OBJECT: u8 = 4;
    pub(crate) const ARRAY: u8 = 8;
    pub(crate) const NUMBER: u8 = 16;
    pub(crate) const STRING: u8 = 32;
    pub(crate) const INTEGER: u8 = 64;

    /// The bit for a type name.
    pub(crate) fn bit(name: &str) -> Option<u8> {
        Some(match name {
            "null" => NULL,
            "boolean" => BOOLEAN,
            "object" => OBJECT,
            "array" => ARRAY,
            "number" => NUMBER,
            "string" => STRING,
            "integer" => INTEGER,
            _ => return None,
        })
    }

    /// The names in a bit set, for messages.
    pub(crate) fn names(bits: u8) -> String {
        let all = [
            (NULL, "null"),
            (BOOLEAN, "boolean"),
            (OBJECT, "object"),
            (ARRAY, "array"),
            (NUMBER, "number"),
            (STRING, "string"),
            (INTEGER, "integer"),
        ];
        all.iter()
            .filter(|(b, _)| bits & b != 0)
            .map(|(_, n)| *n)
            .collect::<Vec<_>>()
            .join(" or ")
    }
}

/// One compiled (sub)schema.
#[derive(Debug, Clone)]
pub(crate) enum Node {
    /// A boolean schema (2020-12 Core § 4.3.2): `true` accepts everything, `false` nothing.
    Bool {
        /// The value.
        value: bool,
        /// Location in the schema document.
        pointer: String,
    },
    /// An object schema.
    Keywords(Box<Keywords>),
}

/// The keywords of one object schema that take part in validation. Absent keywords are `None` /
/// empty; unknown keywords and annotations (`title`, `format`, ...) are not kept.
#[derive(Debug, Clone, Default)]
pub(crate) struct Keywords {
    pub(crate) pointer: String,
    /// `$ref` (and `$dynamicRef` / `$recursiveRef`, resolved statically).
    pub(crate) refs: Vec<NodeId>,
    pub(crate) types: Option<u8>,
    pub(crate) enumeration: Option<Vec<Value>>,
    pub(crate) constant: Option<Value>,
    pub(crate) minimum: Option<Num>,
    pub(crate) maximum: Option<Num>,
    pub(crate) exclusive_minimum: Option<Num>,
    pub(crate) exclusive_maximum: Option<Num>,
    pub(crate) multiple_of: Option<Num>,
    pub(crate) min_length: Option<u64>,
    pub(crate) max_length: Option<u64>,
    pub(crate) pattern: Option<(Regex, String)>,
    /// `prefixItems`, or draft-07 `items` given as an array.
    pub(crate) prefix_items: Vec<NodeId>,
    /// Applies to the items after `prefix_items` (`items`, or draft-07 `additionalItems`).
    pub(crate) items: Option<NodeId>,
    pub(crate) contains: Option<NodeId>,
    pub(crate) min_contains: Option<u64>,
    pub(crate) max_contains: Option<u64>,
    pub(crate) min_items: Option<u64>,
    pub(crate) max_items: Option<u64>,
    pub(crate) unique_items: bool,
    pub(crate) properties: HashMap<String, NodeId>,
    pub(crate) pattern_properties: Vec<(Regex, String, NodeId)>,
    pub(crate) additional_properties: Option<NodeId>,
    pub(crate) property_names: Option<NodeId>,
    pub(crate) required: Vec<String>,
    pub(crate) dependent_required: Vec<(String, Vec<String>)>,
    pub(crate) dependent_schemas: Vec<(String, NodeId)>,
    pub(crate) min_properties: Option<u64>,
    pub(crate) max_properties: Option<u64>,
    pub(crate) all_of: Vec<NodeId>,
    pub(crate) any_of: Vec<NodeId>,
    pub(crate) one_of: Vec<NodeId>,
    pub(crate) not: Option<NodeId>,
    pub(crate) if_: Option<NodeId>,
    pub(crate) then_: Option<NodeId>,
    pub(crate) else_: Option<NodeId>,
    pub(crate) unevaluated_properties: Option<NodeId>,
    pub(crate) unevaluated_items: Option<NodeId>,
}

impl Keywords {
    /// Subschemas applied to the same instance location ("in-place applicators", 2020-12 Core
    /// § 10.2): the edges along which a cycle would never make progress.
    pub(crate) fn in_place(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.refs
            .iter()
            .chain(&self.all_of)
            .chain(&self.any_of)
            .chain(&self.one_of)
            .chain(self.dependent_schemas.iter().map(|(_, id)| id))
            .chain(self.not.iter())
            .chain(self.if_.iter())
            .chain(self.then_.iter())
            .chain(self.else_.iter())
            .copied()
    }
}

/// A compiled schema document.
#[derive(Debug, Clone)]
pub(crate) struct Compiled {
    pub(crate) nodes: Vec<Node>,
    pub(crate) root: NodeId,
}
