//! From a schema document (`serde_json::Value`) to a [`Compiled`] arena.
//!
//! Two passes. The first walks every subschema position and records the resources (`$id`, and
//! `id` in draft-04) and anchors (`$anchor`, `$dynamicAnchor`, draft-06/07 `$id: "#name"`) with their
//! JSON pointers, so a `$ref` can point forward. The second compiles each subschema once per
//! location; a `$ref` becomes the index of its target, compiled from a work list rather than by
//! recursion, so long reference chains do not deepen the stack. Finally the in-place applicator
//! graph is checked for cycles (a loop that would never consume instance structure).

use super::error::SchemaError;
use super::node::{types, Compiled, Keywords, Node, NodeId};
use super::regex::{Regex, RegexError};
use super::value::Num;
use super::{pointer, uri, Dialect, Limits};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Keywords whose value is one subschema.
const SINGLE: &[&str] = &[
    "additionalProperties",
    "propertyNames",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
    "contentSchema",
    "items",
];
/// Keywords whose value is an object of subschemas.
const MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
];
/// Keywords whose value is an array of subschemas.
const ARRAYS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems", "items"];

/// Every (child value, child pointer) at a subschema position of `map`, at `at`.
fn children<'v>(map: &'v Map<String, Value>, at: &str) -> Vec<(&'v Value, String)> {
    let mut out = Vec::new();
    for (kw, v) in map {
        let kw = kw.as_str();
        if SINGLE.contains(&kw) && (v.is_object() || v.is_boolean()) {
            out.push((v, pointer::push(at, kw)));
        } else if MAPS.contains(&kw) {
            if let Value::Object(m) = v {
                let base = pointer::push(at, kw);
                for (k, c) in m {
                    if c.is_object() || c.is_boolean() {
                        out.push((c, pointer::push(&base, k)));
                    }
                }
            }
        } else if ARRAYS.contains(&kw) {
            if let Value::Array(items) = v {
                let base = pointer::push(at, kw);
                for (i, c) in items.iter().enumerate() {
                    out.push((c, pointer::push_index(&base, i)));
                }
            }
        }
    }
    out
}

/// Recognises `$schema` values (with or without the empty fragment, http or https).
fn dialect_of(uri: &str) -> Option<Dialect> {
    let u = uri.trim_end_matches('#');
    let u = u
        .strip_prefix("https://")
        .or_else(|| u.strip_prefix("http://"))?;
    Some(match u {
        "json-schema.org/draft/2020-12/schema" => Dialect::Draft2020_12,
        "json-schema.org/draft/2019-09/schema" => Dialect::Draft2019_09,
        "json-schema.org/draft-07/schema" => Dialect::Draft07,
        "json-schema.org/draft-06/schema" => Dialect::Draft06,
        "json-schema.org/draft-04/schema" => Dialect::Draft04,
        _ => return None,
    })
}

fn invalid(pointer: String, reason: impl Into<String>) -> SchemaError {
    SchemaError::InvalidKeyword {
        pointer,
        reason: reason.into(),
    }
}

fn regex_error(pointer: String, e: RegexError) -> SchemaError {
    match e {
        RegexError::Syntax { offset, reason } => SchemaError::InvalidPattern {
            pointer,
            offset,
            reason: reason.to_owned(),
        },
        RegexError::Unsupported { offset, construct } => SchemaError::UnsupportedPattern {
            pointer,
            offset,
            construct: construct.to_owned(),
        },
        RegexError::TooLarge { limit } => SchemaError::TooLarge { pointer, limit },
    }
}

/// Depth of a JSON value (a scalar is 1), stopping once it exceeds `limit`.
fn exceeds_depth(v: &Value, limit: usize) -> bool {
    if limit == 0 {
        return true;
    }
    match v {
        Value::Array(items) => items.iter().any(|i| exceeds_depth(i, limit - 1)),
        Value::Object(map) => map.values().any(|i| exceeds_depth(i, limit - 1)),
        _ => false,
    }
}

struct Compiler<'d> {
    doc: &'d Value,
    dialect: Dialect,
    limits: Limits,
    nodes: Vec<Option<Node>>,
    by_pointer: HashMap<String, NodeId>,
    /// Absolute URI (no fragment) of each resource → its pointer.
    resources: HashMap<String, String>,
    /// `uri#name` → pointer.
    anchors: HashMap<String, String>,
    /// Pointer of each indexed subschema → the base URI in effect inside it.
    bases: HashMap<String, String>,
    /// Reserved nodes whose compilation is pending: (id, pointer, base inside).
    pending: Vec<(NodeId, String, String)>,
}

/// Compiles `doc` (the whole schema document; its root is the schema).
pub(crate) fn compile(doc: &Value, limits: Limits) -> Result<(Compiled, Dialect), SchemaError> {
    let dialect = match doc.get("$schema") {
        None => Dialect::Draft2020_12,
        Some(Value::String(s)) => dialect_of(s).ok_or_else(|| SchemaError::UnsupportedDialect {
            pointer: "/$schema".into(),
            dialect: s.clone(),
        })?,
        Some(_) => return Err(invalid("/$schema".into(), "$schema must be a string")),
    };
    let mut c = Compiler {
        doc,
        dialect,
        limits,
        nodes: Vec::new(),
        by_pointer: HashMap::new(),
        resources: HashMap::new(),
        anchors: HashMap::new(),
        bases: HashMap::new(),
        pending: Vec::new(),
    };
    c.resources.insert(uri::DEFAULT_BASE.into(), String::new());
    c.index(doc, String::new(), uri::DEFAULT_BASE, 0)?;
    let root_base = c
        .bases
        .get("")
        .cloned()
        .unwrap_or_else(|| uri::DEFAULT_BASE.into());
    let root = c.compile_at(doc, String::new(), &root_base, 0)?;
    while let Some((id, at, base)) = c.pending.pop() {
        let value = pointer::tokens(&at)
            .and_then(|t| pointer::resolve(doc, "", &t))
            .map(|(v, _)| v)
            .ok_or_else(|| SchemaError::UnresolvedRef {
                pointer: at.clone(),
                reference: at.clone(),
            })?;
        c.build(id, value, at, &base, 0)?;
    }
    let nodes: Vec<Node> = c
        .nodes
        .into_iter()
        .map(|n| {
            n.unwrap_or(Node::Bool {
                value: false,
                pointer: String::new(),
            })
        })
        .collect();
    check_cycles(&nodes)?;
    Ok((Compiled { nodes, root }, dialect))
}

impl Compiler<'_> {
    fn id_keyword(&self) -> &'static str {
        if self.dialect == Dialect::Draft04 {
            "id"
        } else {
            "$id"
        }
    }

    /// The base URI inside `map`, given the base outside it; records resources and anchors.
    fn enter(&mut self, map: &Map<String, Value>, at: &str, outer: &str) -> String {
        let mut base = outer.to_owned();
        if let Some(Value::String(id)) = map.get(self.id_keyword()) {
            let legacy = self.dialect <= Dialect::Draft07;
            if legacy && id.starts_with('#') {
                // draft-06/07 plain-name fragment: a location-independent identifier (anchor).
                self.anchors
                    .entry(format!("{outer}#{}", &id[1..]))
                    .or_insert_with(|| at.to_owned());
            } else {
                let resolved = uri::resolve(outer, id);
                let (absolute, fragment) = uri::split_fragment(&resolved);
                base = absolute.to_owned();
                self.resources
                    .entry(base.clone())
                    .or_insert_with(|| at.to_owned());
                if legacy && !fragment.is_empty() && !fragment.starts_with('/') {
                    self.anchors
                        .entry(format!("{base}#{fragment}"))
                        .or_insert_with(|| at.to_owned());
                }
            }
        }
        for kw in ["$anchor", "$dynamicAnchor"] {
            if let Some(Value::String(name)) = map.get(kw) {
                self.anchors
                    .entry(format!("{base}#{name}"))
                    .or_insert_with(|| at.to_owned());
            }
        }
        base
    }

    fn index(
        &mut self,
        v: &Value,
        at: String,
        outer: &str,
        depth: usize,
    ) -> Result<(), SchemaError> {
        if depth > self.limits.max_depth {
            return Err(SchemaError::TooDeep {
                pointer: at,
                limit: self.limits.max_depth,
            });
        }
        if let Value::Object(map) = v {
            let base = self.enter(map, &at, outer);
            for (child, child_at) in children(map, &at) {
                self.index(child, child_at, &base, depth + 1)?;
            }
            self.bases.insert(at, base);
        }
        Ok(())
    }

    fn reserve(&mut self, at: &str) -> Result<NodeId, SchemaError> {
        if self.nodes.len() >= self.limits.max_nodes {
            return Err(SchemaError::TooLarge {
                pointer: at.to_owned(),
                limit: self.limits.max_nodes,
            });
        }
        self.nodes.push(None);
        let id = self.nodes.len() - 1;
        self.by_pointer.insert(at.to_owned(), id);
        Ok(id)
    }

    /// The node for the subschema `v` at `at` (compiled now unless already known).
    fn compile_at(
        &mut self,
        v: &Value,
        at: String,
        outer: &str,
        depth: usize,
    ) -> Result<NodeId, SchemaError> {
        if let Some(&id) = self.by_pointer.get(&at) {
            return Ok(id);
        }
        if depth > self.limits.max_depth {
            return Err(SchemaError::TooDeep {
                pointer: at,
                limit: self.limits.max_depth,
            });
        }
        let id = self.reserve(&at)?;
        let base = match v {
            Value::Object(map) => self
                .bases
                .get(&at)
                .cloned()
                .unwrap_or_else(|| self.enter(map, &at, outer)),
            _ => outer.to_owned(),
        };
        self.build(id, v, at, &base, depth)?;
        Ok(id)
    }

    /// Resolves a `$ref` value written at `at` (the keyword's pointer) against `base`, and
    /// returns the target's node (reserved now, compiled later if new).
    fn reference(&mut self, reference: &str, at: &str, base: &str) -> Result<NodeId, SchemaError> {
        let absolute = uri::resolve(base, reference);
        let (resource, fragment) = uri::split_fragment(&absolute);
        let unresolved = || SchemaError::UnresolvedRef {
            pointer: at.to_owned(),
            reference: reference.to_owned(),
        };
        let Some(root_at) = self.resources.get(resource).cloned() else {
            return Err(SchemaError::RemoteRef {
                pointer: at.to_owned(),
                reference: absolute.clone(),
            });
        };
        let fragment = pointer::percent_decode(fragment).ok_or_else(unresolved)?;
        let target_at = if fragment.is_empty() || fragment.starts_with('/') {
            let root = pointer::tokens(&root_at)
                .and_then(|t| pointer::resolve(self.doc, "", &t))
                .map(|(v, _)| v)
                .ok_or_else(unresolved)?;
            let tokens = pointer::tokens(&fragment).ok_or_else(unresolved)?;
            let (target, target_at) =
                pointer::resolve(root, &root_at, &tokens).ok_or_else(unresolved)?;
            if !(target.is_object() || target.is_boolean()) {
                return Err(SchemaError::NotASchema { pointer: target_at });
            }
            target_at
        } else {
            self.anchors
                .get(&format!("{resource}#{fragment}"))
                .cloned()
                .ok_or_else(unresolved)?
        };
        if let Some(&id) = self.by_pointer.get(&target_at) {
            return Ok(id);
        }
        let id = self.reserve(&target_at)?;
        let target_base = self
            .bases
            .get(&target_at)
            .cloned()
            .unwrap_or_else(|| resource.to_owned());
        self.pending.push((id, target_at, target_base));
        Ok(id)
    }

    fn build(
        &mut self,
        id: NodeId,
        v: &Value,
        at: String,
        base: &str,
        depth: usize,
    ) -> Result<(), SchemaError> {
        let node = match v {
            Value::Bool(b) => Node::Bool {
                value: *b,
                pointer: at,
            },
            Value::Object(map) => Node::Keywords(self.keywords(map, at, base, depth)?),
            _ => return Err(SchemaError::NotASchema { pointer: at }),
        };
        self.nodes[id] = Some(node);
        Ok(())
    }

    fn child(
        &mut self,
        v: &Value,
        at: String,
        base: &str,
        depth: usize,
    ) -> Result<NodeId, SchemaError> {
        self.compile_at(v, at, base, depth + 1)
    }

    fn child_list(
        &mut self,
        v: &Value,
        at: &str,
        base: &str,
        depth: usize,
    ) -> Result<Vec<NodeId>, SchemaError> {
        let Value::Array(items) = v else {
            return Err(invalid(at.to_owned(), "must be an array of schemas"));
        };
        if items.is_empty() {
            return Err(invalid(at.to_owned(), "must not be empty"));
        }
        let mut out = Vec::with_capacity(items.len());
        for (i, c) in items.iter().enumerate() {
            out.push(self.child(c, pointer::push_index(at, i), base, depth)?);
        }
        Ok(out)
    }

    fn child_map(
        &mut self,
        v: &Value,
        at: &str,
        base: &str,
        depth: usize,
    ) -> Result<Vec<(String, NodeId)>, SchemaError> {
        let Value::Object(m) = v else {
            return Err(invalid(at.to_owned(), "must be an object of schemas"));
        };
        let mut out = Vec::with_capacity(m.len());
        for (k, c) in m {
            let id = self.child(c, pointer::push(at, k), base, depth)?;
            out.push((k.clone(), id));
        }
        Ok(out)
    }

    /// Compiles the keywords of one object schema. The recursive path (subschema keywords) is
    /// kept apart from the assertion keywords so its stack frames stay small: nesting must fit
    /// a wasm stack.
    fn keywords(
        &mut self,
        map: &Map<String, Value>,
        at: String,
        base: &str,
        depth: usize,
    ) -> Result<Box<Keywords>, SchemaError> {
        let mut k = Box::<Keywords>::default();
        // Before 2019-09, `$ref` replaces its siblings (draft-07 Core § 8.3).
        let ref_only = self.dialect <= Dialect::Draft07 && map.contains_key("$ref");
        for kw in ["$ref", "$dynamicRef", "$recursiveRef"] {
            if let Some(v) = map.get(kw) {
                let kw_at = pointer::push(&at, kw);
                let Value::String(r) = v else {
                    return Err(invalid(kw_at, "must be a string"));
                };
                let target = self.reference(r, &kw_at, base)?;
                k.refs.push(target);
            }
        }
        if !ref_only {
            for (kw, v) in map {
                if !self.subschema_keyword(&mut k, map, kw, v, &at, base, depth)? {
                    assertion_keyword(&mut k, kw, v, &at, self.limits.max_depth)?;
                }
            }
            // draft-04 § 5.1.2 / 5.1.3: boolean exclusiveMinimum/Maximum modify min/max.
            if map.get("exclusiveMinimum") == Some(&Value::Bool(true)) {
                k.exclusive_minimum = k.minimum.take();
            }
            if map.get("exclusiveMaximum") == Some(&Value::Bool(true)) {
                k.exclusive_maximum = k.maximum.take();
            }
        }
        k.pointer = at;
        Ok(k)
    }

    /// Compiles `kw` if it takes subschemas; `Ok(false)` if it is not such a keyword. Each
    /// shape has its own small function so the frames on the recursive path stay small.
    #[allow(clippy::too_many_arguments)]
    fn subschema_keyword(
        &mut self,
        k: &mut Keywords,
        map: &Map<String, Value>,
        kw: &str,
        v: &Value,
        at: &str,
        base: &str,
        depth: usize,
    ) -> Result<bool, SchemaError> {
        match kw {
            "items" if v.is_array() => self.tuple(k, map, v, at, base, depth)?,
            "items"
            | "contains"
            | "additionalProperties"
            | "propertyNames"
            | "not"
            | "if"
            | "then"
            | "else"
            | "unevaluatedProperties"
            | "unevaluatedItems" => {
                self.single(k, kw, v, at, base, depth)?;
            }
            "prefixItems" | "allOf" | "anyOf" | "oneOf" => self.list(k, kw, v, at, base, depth)?,
            "properties" | "patternProperties" | "dependentSchemas" | "$defs" | "definitions" => {
                self.map(k, kw, v, at, base, depth)?;
            }
            "dependencies" => self.dependencies(k, v, pointer::push(at, kw), base, depth)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// 2019-09 and earlier: `items` as an array is a tuple; `additionalItems` covers the rest.
    fn tuple(
        &mut self,
        k: &mut Keywords,
        map: &Map<String, Value>,
        v: &Value,
        at: &str,
        base: &str,
        depth: usize,
    ) -> Result<(), SchemaError> {
        let kw_at = pointer::push(at, "items");
        if map.contains_key("prefixItems") {
            return Err(invalid(kw_at, "must be a schema next to prefixItems"));
        }
        k.prefix_items = self.child_list(v, &kw_at, base, depth)?;
        if let Some(extra) = map.get("additionalItems") {
            let extra_at = pointer::push(at, "additionalItems");
            k.items = Some(self.child(extra, extra_at, base, depth)?);
        }
        Ok(())
    }

    /// A keyword whose value is one subschema.
    fn single(
        &mut self,
        k: &mut Keywords,
        kw: &str,
        v: &Value,
        at: &str,
        base: &str,
        depth: usize,
    ) -> Result<(), SchemaError> {
        let id = self.child(v, pointer::push(at, kw), base, depth)?;
        let slot = match kw {
            "items" => &mut k.items,
            "contains" => &mut k.contains,
            "additionalProperties" => &mut k.additional_properties,
            "propertyNames" => &mut k.property_names,
            "not" => &mut k.not,
            "if" => &mut k.if_,
            "then" => &mut k.then_,
            "else" => &mut k.else_,
            "unevaluatedProperties" => &mut k.unevaluated_properties,
            _ => &mut k.unevaluated_items,
        };
        *slot = Some(id);
        Ok(())
    }

    /// A keyword whose value is a non-empty array of subschemas.
    fn list(
        &mut self,
        k: &mut Keywords,
        kw: &str,
        v: &Value,
        at: &str,
        base: &str,
        depth: usize,
    ) -> Result<(), SchemaError> {
        let ids = self.child_list(v, &pointer::push(at, kw), base, depth)?;
        *match kw {
            "prefixItems" => &mut k.prefix_items,
            "allOf" => &mut k.all_of,
            "anyOf" => &mut k.any_of,
            _ => &mut k.one_of,
        } = ids;
        Ok(())
    }

    /// A keyword whose value is an object of subschemas. `$defs` / `definitions` are compiled
    /// so that a broken definition is reported even when unused.
    fn map(
        &mut self,
        k: &mut Keywords,
        kw: &str,
        v: &Value,
        at: &str,
        base: &str,
        depth: usize,
    ) -> Result<(), SchemaError> {
        let kw_at = pointer::push(at, kw);
        let children = self.child_map(v, &kw_at, base, depth)?;
        match kw {
            "properties" => k.properties = children.into_iter().collect(),
            "patternProperties" => k.pattern_properties = pattern_properties(children, &kw_at)?,
            "dependentSchemas" => k.dependent_schemas = children,
            _ => {}
        }
        Ok(())
    }

    /// draft-07 § 6.5.7 `dependencies`: an array means `dependentRequired`, a schema
    /// `dependentSchemas`.
    fn dependencies(
        &mut self,
        k: &mut Keywords,
        v: &Value,
        at: String,
        base: &str,
        depth: usize,
    ) -> Result<(), SchemaError> {
        let Value::Object(m) = v else {
            return Err(invalid(at, "must be an object"));
        };
        for (key, dep) in m {
            let dep_at = pointer::push(&at, key);
            if dep.is_array() {
                k.dependent_required
                    .push((key.clone(), strings(dep, dep_at)?));
            } else {
                let id = self.child(dep, dep_at, base, depth)?;
                k.dependent_schemas.push((key.clone(), id));
            }
        }
        Ok(())
    }
}

/// Compiles the regexes of `patternProperties` (each key is an ECMA-262 pattern).
#[inline(never)]
fn pattern_properties(
    children: Vec<(String, NodeId)>,
    at: &str,
) -> Result<Vec<(Regex, String, NodeId)>, SchemaError> {
    children
        .into_iter()
        .map(|(key, id)| {
            let re = Regex::new(&key).map_err(|e| regex_error(pointer::push(at, &key), e))?;
            Ok((re, key, id))
        })
        .collect()
}

/// Compiles one keyword that takes no subschema; unknown keywords and annotations are ignored.
#[inline(never)]
fn assertion_keyword(
    k: &mut Keywords,
    kw: &str,
    v: &Value,
    at: &str,
    max_depth: usize,
) -> Result<(), SchemaError> {
    let p = || pointer::push(at, kw);
    let too_deep = || SchemaError::TooDeep {
        pointer: p(),
        limit: max_depth,
    };
    match kw {
        "type" => {
            let bits = match v {
                Value::String(s) => types::bit(s),
                Value::Array(names) if !names.is_empty() => names.iter().try_fold(0u8, |acc, n| {
                    n.as_str().and_then(types::bit).map(|b| acc | b)
                }),
                _ => None,
            };
            k.types = Some(bits.ok_or_else(|| {
                invalid(
                    p(),
                    "must be a type name or a non-empty array of type names",
                )
            })?);
        }
        "enum" => {
            let Value::Array(values) = v else {
                return Err(invalid(p(), "must be an array"));
            };
            if exceeds_depth(v, max_depth) {
                return Err(too_deep());
            }
            k.enumeration = Some(values.clone());
        }
        "const" => {
            if exceeds_depth(v, max_depth) {
                return Err(too_deep());
            }
            k.constant = Some(v.clone());
        }
        "minimum" => k.minimum = Some(number(v, p())?),
        "maximum" => k.maximum = Some(number(v, p())?),
        "exclusiveMinimum" | "exclusiveMaximum" if v.is_boolean() => {} // draft-04: see caller
        "exclusiveMinimum" => k.exclusive_minimum = Some(number(v, p())?),
        "exclusiveMaximum" => k.exclusive_maximum = Some(number(v, p())?),
        "multipleOf" => {
            let n = number(v, p())?;
            if n.as_f64() <= 0.0 {
                return Err(invalid(p(), "must be greater than 0"));
            }
            k.multiple_of = Some(n);
        }
        "minLength" => k.min_length = Some(count(v, p())?),
        "maxLength" => k.max_length = Some(count(v, p())?),
        "pattern" => {
            let Value::String(s) = v else {
                return Err(invalid(p(), "must be a string"));
            };
            let re = Regex::new(s).map_err(|e| regex_error(p(), e))?;
            k.pattern = Some((re, s.clone()));
        }
        "minContains" => k.min_contains = Some(count(v, p())?),
        "maxContains" => k.max_contains = Some(count(v, p())?),
        "minItems" => k.min_items = Some(count(v, p())?),
        "maxItems" => k.max_items = Some(count(v, p())?),
        "uniqueItems" => {
            k.unique_items = v
                .as_bool()
                .ok_or_else(|| invalid(p(), "must be a boolean"))?;
        }
        "required" => k.required = strings(v, p())?,
        "dependentRequired" => {
            let Value::Object(m) = v else {
                return Err(invalid(p(), "must be an object"));
            };
            for (key, names) in m {
                let names = strings(names, pointer::push(&p(), key))?;
                k.dependent_required.push((key.clone(), names));
            }
        }
        "minProperties" => k.min_properties = Some(count(v, p())?),
        "maxProperties" => k.max_properties = Some(count(v, p())?),
        _ => {} // annotations (`format`, `title`, ...) and unknown keywords
    }
    Ok(())
}

fn number(v: &Value, at: String) -> Result<Num, SchemaError> {
    match v {
        Value::Number(n) => Ok(Num::of(n)),
        _ => Err(invalid(at, "must be a number")),
    }
}

/// A non-negative integer (2.0 counts: Validation § 6 "non-negative integer").
fn count(v: &Value, at: String) -> Result<u64, SchemaError> {
    let n = match v {
        Value::Number(n) => Num::of(n),
        _ => return Err(invalid(at, "must be a non-negative integer")),
    };
    match n {
        Num::Int(i) if i >= 0 => Ok(u64::try_from(i).unwrap_or(u64::MAX)),
        Num::Float(f) if f >= 0.0 && f.fract() == 0.0 => {
            Ok(if f >= 1.8e19 { u64::MAX } else { f as u64 })
        }
        _ => Err(invalid(at, "must be a non-negative integer")),
    }
}

fn strings(v: &Value, at: String) -> Result<Vec<String>, SchemaError> {
    let Value::Array(items) = v else {
        return Err(invalid(at, "must be an array of strings"));
    };
    items
        .iter()
        .map(|i| i.as_str().map(str::to_owned))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| invalid(at, "must be an array of strings"))
}

/// Rejects a cycle in the in-place applicator graph (iterative depth-first search).
fn check_cycles(nodes: &[Node]) -> Result<(), SchemaError> {
    const WHITE: u8 = 0;
    const GREY: u8 = 1;
    const BLACK: u8 = 2;
    let edges = |id: NodeId| -> Vec<NodeId> {
        match &nodes[id] {
            Node::Keywords(k) => k.in_place().collect(),
            Node::Bool { .. } => Vec::new(),
        }
    };
    let mut colour = vec![WHITE; nodes.len()];
    for start in 0..nodes.len() {
        if colour[start] != WHITE {
            continue;
        }
        colour[start] = GREY;
        let mut stack = vec![(start, edges(start), 0usize)];
        while let Some((node, out, next)) = stack.last_mut() {
            if let Some(&to) = out.get(*next) {
                *next += 1;
                match colour[to] {
                    GREY => {
                        let pointer = match &nodes[to] {
                            Node::Keywords(k) => k.pointer.clone(),
                            Node::Bool { pointer, .. } => pointer.clone(),
                        };
                        return Err(SchemaError::RefCycle { pointer });
                    }
                    WHITE => {
                        colour[to] = GREY;
                        stack.push((to, edges(to), 0));
                    }
                    _ => {}
                }
            } else {
                colour[*node] = BLACK;
                stack.pop();
            }
        }
    }
    Ok(())
}
