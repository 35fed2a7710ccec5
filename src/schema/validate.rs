//! Applying a [`Compiled`] schema to an instance (JSON Schema 2020-12 Core § 10 "A Vocabulary for
//! Applying Subschemas", Validation § 6 "A Vocabulary for Structural Validation").
//!
//! Errors are collected up to [`Limits::max_errors`]. Subschemas whose failure does not fail the
//! parent (`anyOf`, `oneOf`, `not`, `if`, `contains`, `propertyNames`) are evaluated quietly and
//! the parent reports one error of its own. `unevaluatedProperties` / `unevaluatedItems` (Core
//! § 11) see the locations evaluated by adjacent keywords and by successful in-place subschemas.
//!
//! Work is bounded: every subschema evaluation and every regex step costs one step of
//! [`Limits::max_steps`]; nesting is bounded by [`Limits::max_depth`] (instance depth) and
//! [`Limits::max_call_depth`] (subschema evaluations in progress). Hitting a bound stops validation
//! with one typed error and the instance is rejected (never accepted by accident, even under
//! `not`).

use super::error::{ValidationError, ValidationErrorKind};
use super::node::{types, Compiled, Keywords, Node, NodeId};
use super::regex::Regex;
use super::value::{self, cmp_num, Num};
use super::Limits;
use serde_json::Value;
use std::cmp::Ordering;
use std::collections::hash_map::{Entry, HashMap};
use std::fmt::Write;

/// One step from the parent location.
#[derive(Clone, Copy)]
enum Seg<'a> {
    Root,
    Key(&'a str),
    Index(usize),
}

/// An instance location as a chain of parent links on the stack: nothing is allocated unless an
/// error is reported.
#[derive(Clone, Copy)]
struct Loc<'a> {
    parent: Option<&'a Loc<'a>>,
    seg: Seg<'a>,
    depth: usize,
}

impl<'a> Loc<'a> {
    fn key(&'a self, key: &'a str) -> Loc<'a> {
        Loc {
            parent: Some(self),
            seg: Seg::Key(key),
            depth: self.depth + 1,
        }
    }

    fn index(&'a self, i: usize) -> Loc<'a> {
        Loc {
            parent: Some(self),
            seg: Seg::Index(i),
            depth: self.depth + 1,
        }
    }

    /// The JSON pointer (RFC 6901) of this location.
    fn pointer(&self) -> String {
        let mut segs = Vec::new();
        let mut at = Some(self);
        while let Some(l) = at {
            segs.push(l.seg);
            at = l.parent;
        }
        let mut out = String::new();
        for seg in segs.iter().rev() {
            match seg {
                Seg::Root => {}
                Seg::Key(k) => out = super::pointer::push(&out, k),
                Seg::Index(i) => {
                    let _ = write!(out, "/{i}");
                }
            }
        }
        out
    }
}

/// Which object members / array items have been evaluated (for `unevaluated*`).
#[derive(Clone, Default)]
struct Seen {
    marks: Vec<bool>,
}

impl Seen {
    fn for_instance(inst: &Value) -> Seen {
        let n = match inst {
            Value::Object(m) => m.len(),
            Value::Array(a) => a.len(),
            _ => 0,
        };
        Seen {
            marks: vec![false; n],
        }
    }

    fn mark(&mut self, i: usize) {
        if let Some(m) = self.marks.get_mut(i) {
            *m = true;
        }
    }

    fn merge(&mut self, other: &Seen) {
        for (a, b) in self.marks.iter_mut().zip(&other.marks) {
            *a |= *b;
        }
    }
}

/// Validation stopped at a limit; the error has been recorded.
struct Fatal;

type Outcome = Result<bool, Fatal>;

pub(crate) struct Validator<'s> {
    nodes: &'s [Node],
    limits: &'s Limits,
    errors: Vec<ValidationError>,
    steps: u64,
    calls: usize,
}

/// Validates `instance` against `compiled`.
pub(crate) fn validate(
    compiled: &Compiled,
    limits: &Limits,
    instance: &Value,
) -> Result<(), Vec<ValidationError>> {
    let mut v = Validator {
        nodes: &compiled.nodes,
        limits,
        errors: Vec::new(),
        steps: 0,
        calls: 0,
    };
    let root = Loc {
        parent: None,
        seg: Seg::Root,
        depth: 0,
    };
    let loud = limits.max_errors > 0;
    match v.eval(compiled.root, instance, &root, loud, None) {
        Ok(true) => Ok(()),
        Ok(false) if v.errors.is_empty() => Err(vec![ValidationError {
            instance_path: String::new(),
            schema_path: String::new(),
            keyword: "",
            kind: ValidationErrorKind::Invalid,
            message: "instance does not match the schema".into(),
        }]),
        Ok(false) | Err(Fatal) => Err(v.errors),
    }
}

fn kind_of(inst: &Value) -> &'static str {
    match inst {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Object(_) => "object",
        Value::Array(_) => "array",
        Value::Number(_) => "number",
        Value::String(_) => "string",
    }
}

fn type_matches(bits: u8, inst: &Value) -> bool {
    match inst {
        Value::Null => bits & types::NULL != 0,
        Value::Bool(_) => bits & types::BOOLEAN != 0,
        Value::Object(_) => bits & types::OBJECT != 0,
        Value::Array(_) => bits & types::ARRAY != 0,
        Value::String(_) => bits & types::STRING != 0,
        Value::Number(n) => {
            bits & types::NUMBER != 0 || (bits & types::INTEGER != 0 && Num::of(n).is_integer())
        }
    }
}

/// What an applicator's own error says.
#[derive(Clone, Copy)]
enum Detail {
    /// `contains` matches: count, limit, whether too few.
    Count(u64, u64, bool),
    /// No subschema matched (`anyOf`, `oneOf`): how many there are.
    NoneOf(usize),
    /// Two `oneOf` subschemas matched: their indexes.
    Several(usize, usize),
    /// The `not` subschema matched.
    Not,
}

fn pattern_pointer(at: &str, source: &str) -> String {
    super::pointer::push(&super::pointer::push(at, "patternProperties"), source)
}

fn show(n: Num) -> String {
    match n {
        Num::Int(i) => i.to_string(),
        Num::Float(f) => value::float_text(f).unwrap_or_default(),
    }
}

impl Validator<'_> {
    fn fatal(
        &mut self,
        loc: &Loc<'_>,
        pointer: &str,
        kind: ValidationErrorKind,
        msg: String,
    ) -> Fatal {
        self.errors.push(ValidationError {
            instance_path: loc.pointer(),
            schema_path: pointer.to_owned(),
            keyword: "",
            kind,
            message: msg,
        });
        Fatal
    }

    #[inline(never)]
    fn too_deep(&mut self, loc: &Loc<'_>, at: &str) -> Fatal {
        let message = if loc.depth > self.limits.max_depth {
            format!("instance nested deeper than {}", self.limits.max_depth)
        } else {
            format!(
                "more than {} nested subschema evaluations",
                self.limits.max_call_depth
            )
        };
        self.fatal(loc, at, ValidationErrorKind::TooDeep, message)
    }

    fn spend(&mut self, n: u64, loc: &Loc<'_>, pointer: &str) -> Result<(), Fatal> {
        self.steps = self.steps.saturating_add(n);
        if self.steps > self.limits.max_steps {
            let limit = self.limits.max_steps;
            return Err(self.fatal(
                loc,
                pointer,
                ValidationErrorKind::WorkBudget,
                format!("validation needs more than {limit} steps"),
            ));
        }
        Ok(())
    }

    /// Records an error; returns whether evaluation of the current schema should stop.
    fn report(
        &mut self,
        loud: bool,
        loc: &Loc<'_>,
        at: &str,
        keyword: &'static str,
        message: impl FnOnce() -> String,
    ) -> bool {
        if !loud {
            return true;
        }
        if self.errors.len() < self.limits.max_errors {
            self.errors.push(ValidationError {
                instance_path: loc.pointer(),
                schema_path: if keyword.is_empty() || keyword == "false" {
                    at.to_owned()
                } else {
                    super::pointer::push(at, keyword)
                },
                keyword,
                kind: ValidationErrorKind::Invalid,
                message: message(),
            });
        }
        self.errors.len() >= self.limits.max_errors
    }

    fn is_match(&mut self, re: &Regex, text: &str, loc: &Loc<'_>, at: &str) -> Result<bool, Fatal> {
        let remaining = self.limits.max_steps.saturating_sub(self.steps);
        let allowance = remaining.min(self.limits.max_regex_steps);
        let mut budget = allowance;
        let result = re.is_match(text, &mut budget);
        self.steps += allowance - budget;
        match result {
            Ok(hit) => Ok(hit),
            Err(_) if allowance < self.limits.max_regex_steps => {
                self.spend(1, loc, at)?;
                Ok(false)
            }
            Err(_) => {
                let limit = self.limits.max_regex_steps;
                Err(self.fatal(
                    loc,
                    at,
                    ValidationErrorKind::PatternBudget,
                    format!("pattern match needs more than {limit} steps"),
                ))
            }
        }
    }

    /// Evaluates node `id` against `inst` at `loc`. `loud` collects errors; quiet mode stops at
    /// the first failure. `seen` receives the evaluated members/items when the caller needs them.
    fn eval(
        &mut self,
        id: NodeId,
        inst: &Value,
        loc: &Loc<'_>,
        loud: bool,
        seen: Option<&mut Seen>,
    ) -> Outcome {
        let nodes = self.nodes;
        let (k, at) = match &nodes[id] {
            Node::Bool { value: true, .. } => return Ok(true),
            Node::Bool {
                value: false,
                pointer,
            } => {
                self.report(loud, loc, pointer, "false", || {
                    "the false schema accepts nothing".into()
                });
                return Ok(false);
            }
            Node::Keywords(k) => (k.as_ref(), k.pointer.as_str()),
        };
        self.spend(1, loc, at)?;
        if loc.depth > self.limits.max_depth || self.calls >= self.limits.max_call_depth {
            return Err(self.too_deep(loc, at));
        }
        self.calls += 1;
        let needs_local = (k.unevaluated_properties.is_some() && inst.is_object())
            || (k.unevaluated_items.is_some() && inst.is_array());
        let result = if needs_local {
            self.with_unevaluated(k, at, inst, loc, loud, seen)
        } else {
            self.keywords(k, at, inst, loc, loud, seen)
        };
        self.calls -= 1;
        result
    }

    /// Evaluates a schema that has `unevaluatedProperties` / `unevaluatedItems` (Core § 11):
    /// its own keywords and in-place subschemas record what they evaluated, then the rest is
    /// checked; a valid result passes the record up.
    #[inline(never)]
    fn with_unevaluated(
        &mut self,
        k: &Keywords,
        at: &str,
        inst: &Value,
        loc: &Loc<'_>,
        loud: bool,
        seen: Option<&mut Seen>,
    ) -> Outcome {
        let mut local = Seen::for_instance(inst);
        let valid = self.keywords(k, at, inst, loc, loud, Some(&mut local))?;
        if !valid && self.stop(loud) {
            return Ok(false);
        }
        let rest = self.unevaluated(k, inst, loc, loud, &mut local)?;
        let valid = valid && rest;
        if let (true, Some(parent)) = (valid, seen) {
            parent.merge(&local);
        }
        Ok(valid)
    }

    fn unevaluated(
        &mut self,
        k: &Keywords,
        inst: &Value,
        loc: &Loc<'_>,
        loud: bool,
        seen: &mut Seen,
    ) -> Outcome {
        let mut valid = true;
        match inst {
            Value::Object(map) => {
                if let Some(child) = k.unevaluated_properties {
                    for (i, (key, v)) in map.iter().enumerate() {
                        if seen.marks.get(i) == Some(&true) {
                            continue;
                        }
                        let l = loc.key(key);
                        if self.eval(child, v, &l, loud, None)? {
                            seen.mark(i);
                        } else {
                            valid = false;
                            if !loud || self.errors.len() >= self.limits.max_errors {
                                return Ok(false);
                            }
                        }
                    }
                }
            }
            Value::Array(items) => {
                if let Some(child) = k.unevaluated_items {
                    for (i, v) in items.iter().enumerate() {
                        if seen.marks.get(i) == Some(&true) {
                            continue;
                        }
                        let l = loc.index(i);
                        if self.eval(child, v, &l, loud, None)? {
                            seen.mark(i);
                        } else {
                            valid = false;
                            if !loud || self.errors.len() >= self.limits.max_errors {
                                return Ok(false);
                            }
                        }
                    }
                }
            }
            _ => {}
        }
        Ok(valid)
    }

    /// Whether evaluation of the current schema should stop after a failure.
    fn stop(&self, loud: bool) -> bool {
        !loud || self.errors.len() >= self.limits.max_errors
    }

    /// All keywords of one object schema. Split into helpers so that the frames on the recursive
    /// path (instance children, in-place applicators) stay small: deep recursion must fit a
    /// wasm stack.
    fn keywords(
        &mut self,
        k: &Keywords,
        at: &str,
        inst: &Value,
        loc: &Loc<'_>,
        loud: bool,
        mut seen: Option<&mut Seen>,
    ) -> Outcome {
        let mut valid = self.assertions(k, at, inst, loc, loud)?;
        if !valid && self.stop(loud) {
            return Ok(false);
        }
        let children = match inst {
            Value::Array(items) => self.items(k, items, loc, loud, seen.as_deref_mut())?,
            Value::Object(map) => self.members(k, at, map, loc, loud, seen.as_deref_mut())?,
            _ => true,
        };
        valid &= children;
        if !valid && self.stop(loud) {
            return Ok(false);
        }
        let applied = self.applicators(k, at, inst, loc, loud, seen)?;
        Ok(valid && applied)
    }

    /// Keywords that look at the instance without applying subschemas to its children.
    #[inline(never)]
    fn assertions(
        &mut self,
        k: &Keywords,
        at: &str,
        inst: &Value,
        loc: &Loc<'_>,
        loud: bool,
    ) -> Outcome {
        let mut valid = true;
        macro_rules! fail {
            ($kw:expr, $($msg:tt)+) => {{
                valid = false;
                if self.report(loud, loc, at, $kw, || format!($($msg)+)) {
                    return Ok(false);
                }
            }};
        }
        if let Some(bits) = k.types {
            if !type_matches(bits, inst) {
                fail!(
                    "type",
                    "expected {}, found {}",
                    types::names(bits),
                    kind_of(inst)
                );
            }
        }
        if let Some(options) = &k.enumeration {
            if !options.iter().any(|o| value::equal(o, inst)) {
                fail!(
                    "enum",
                    "value is not one of the {} allowed values",
                    options.len()
                );
            }
        }
        if let Some(c) = &k.constant {
            if !value::equal(c, inst) {
                fail!("const", "value does not equal the constant {}", c);
            }
        }
        match inst {
            Value::Number(n) => {
                let x = Num::of(n);
                let cmp = |limit: Num| cmp_num(x, limit);
                if let Some(m) = k.minimum {
                    if cmp(m) == Some(Ordering::Less) {
                        fail!("minimum", "{} is less than the minimum {}", n, show(m));
                    }
                }
                if let Some(m) = k.maximum {
                    if cmp(m) == Some(Ordering::Greater) {
                        fail!("maximum", "{} is greater than the maximum {}", n, show(m));
                    }
                }
                if let Some(m) = k.exclusive_minimum {
                    if cmp(m) != Some(Ordering::Greater) {
                        fail!("exclusiveMinimum", "{} is not greater than {}", n, show(m));
                    }
                }
                if let Some(m) = k.exclusive_maximum {
                    if cmp(m) != Some(Ordering::Less) {
                        fail!("exclusiveMaximum", "{} is not less than {}", n, show(m));
                    }
                }
                if let Some(d) = k.multiple_of {
                    if !value::is_multiple_of(x, d) {
                        fail!("multipleOf", "{} is not a multiple of {}", n, show(d));
                    }
                }
            }
            Value::String(s) => {
                if k.min_length.is_some() || k.max_length.is_some() {
                    // Length in code points (Validation § 6.3.1, RFC 8259).
                    let len = s.chars().count() as u64;
                    if let Some(m) = k.min_length {
                        if len < m {
                            fail!("minLength", "length {len} is less than {m}");
                        }
                    }
                    if let Some(m) = k.max_length {
                        if len > m {
                            fail!("maxLength", "length {len} is greater than {m}");
                        }
                    }
                }
                if let Some((re, source)) = &k.pattern {
                    let p = super::pointer::push(at, "pattern");
                    if !self.is_match(re, s, loc, &p)? {
                        fail!("pattern", "does not match the pattern {:?}", source);
                    }
                }
            }
            Value::Array(items) => {
                let len = items.len() as u64;
                if let Some(m) = k.min_items {
                    if len < m {
                        fail!("minItems", "{len} items, fewer than {m}");
                    }
                }
                if let Some(m) = k.max_items {
                    if len > m {
                        fail!("maxItems", "{len} items, more than {m}");
                    }
                }
                if k.unique_items && items.len() > 1 {
                    self.spend(len, loc, at)?;
                    if let Some((i, j)) = self.duplicate(items, loc, at)? {
                        fail!("uniqueItems", "items {i} and {j} are equal");
                    }
                }
            }
            Value::Object(map) => {
                let len = map.len() as u64;
                if let Some(m) = k.min_properties {
                    if len < m {
                        fail!("minProperties", "{len} properties, fewer than {m}");
                    }
                }
                if let Some(m) = k.max_properties {
                    if len > m {
                        fail!("maxProperties", "{len} properties, more than {m}");
                    }
                }
                for name in &k.required {
                    if !map.contains_key(name) {
                        fail!("required", "missing required property {name:?}");
                    }
                }
                for (name, deps) in &k.dependent_required {
                    if map.contains_key(name) {
                        for d in deps {
                            if !map.contains_key(d) {
                                fail!(
                                    "dependentRequired",
                                    "property {name:?} requires property {d:?}"
                                );
                            }
                        }
                    }
                }
                if let Some(names) = k.property_names {
                    for key in map.keys() {
                        let key_value = Value::String(key.clone());
                        if !self.eval(names, &key_value, loc, false, None)? {
                            fail!("propertyNames", "property name {key:?} is not allowed");
                        }
                    }
                }
            }
            _ => {}
        }
        Ok(valid)
    }

    /// Fails the current schema with one error of its own (for applicators whose subschemas
    /// were evaluated quietly).
    #[inline(never)]
    fn own_error(
        &mut self,
        loud: bool,
        loc: &Loc<'_>,
        at: &str,
        keyword: &'static str,
        detail: Detail,
    ) -> bool {
        self.report(loud, loc, at, keyword, || match detail {
            Detail::Count(hits, limit, fewer) => {
                let rel = if fewer { "fewer" } else { "more" };
                format!("{hits} items match contains, {rel} than {limit}")
            }
            Detail::NoneOf(n) => format!("matches none of the {n} {keyword} schemas"),
            Detail::Several(a, b) => {
                format!("matches more than one oneOf schema (indexes {a} and {b})")
            }
            Detail::Not => "matches the schema in not".to_owned(),
        })
    }

    /// `prefixItems`, `items` and `contains` (Core § 10.3.1).
    fn items(
        &mut self,
        k: &Keywords,
        items: &[Value],
        loc: &Loc<'_>,
        loud: bool,
        mut seen: Option<&mut Seen>,
    ) -> Outcome {
        let mut valid = true;
        for (i, item) in items.iter().enumerate() {
            let child = match k.prefix_items.get(i) {
                Some(&c) => Some(c),
                None => k.items,
            };
            if let Some(child) = child {
                let l = loc.index(i);
                if self.eval(child, item, &l, loud, None)? {
                    if let Some(s) = seen.as_deref_mut() {
                        s.mark(i);
                    }
                } else {
                    valid = false;
                    if self.stop(loud) {
                        return Ok(false);
                    }
                }
            }
        }
        if let Some(c) = k.contains {
            let mut hits = 0u64;
            for (i, item) in items.iter().enumerate() {
                let l = loc.index(i);
                if self.eval(c, item, &l, false, None)? {
                    hits += 1;
                    if let Some(s) = seen.as_deref_mut() {
                        s.mark(i);
                    }
                }
            }
            let min = k.min_contains.unwrap_or(1);
            let at = k.pointer.as_str();
            if hits < min {
                valid = false;
                if self.own_error(loud, loc, at, "contains", Detail::Count(hits, min, true)) {
                    return Ok(false);
                }
            }
            if let Some(max) = k.max_contains {
                if hits > max {
                    valid = false;
                    let detail = Detail::Count(hits, max, false);
                    if self.own_error(loud, loc, at, "maxContains", detail) {
                        return Ok(false);
                    }
                }
            }
        }
        Ok(valid)
    }

    /// `properties`, `patternProperties`, `additionalProperties` (Core § 10.3.2).
    fn members(
        &mut self,
        k: &Keywords,
        at: &str,
        map: &serde_json::Map<String, Value>,
        loc: &Loc<'_>,
        loud: bool,
        mut seen: Option<&mut Seen>,
    ) -> Outcome {
        if k.properties.is_empty()
            && k.pattern_properties.is_empty()
            && k.additional_properties.is_none()
        {
            return Ok(true);
        }
        let mut valid = true;
        for (i, (key, v)) in map.iter().enumerate() {
            let l = loc.key(key);
            let mut matched = false;
            let mut ok = true;
            if let Some(&child) = k.properties.get(key) {
                matched = true;
                ok &= self.eval(child, v, &l, loud, None)?;
            }
            for (re, source, child) in &k.pattern_properties {
                if ok || loud {
                    let p = pattern_pointer(at, source);
                    if self.is_match(re, key, loc, &p)? {
                        matched = true;
                        ok &= self.eval(*child, v, &l, loud, None)?;
                    }
                }
            }
            if !matched {
                if let Some(child) = k.additional_properties {
                    matched = true;
                    ok &= self.eval(child, v, &l, loud, None)?;
                }
            }
            if !ok {
                valid = false;
                if self.stop(loud) {
                    return Ok(false);
                }
            }
            if matched {
                if let Some(s) = seen.as_deref_mut() {
                    s.mark(i);
                }
            }
        }
        Ok(valid)
    }

    /// In-place applicators (Core § 10.2): `dependentSchemas`, `$ref`, `allOf`, `anyOf`,
    /// `oneOf`, `not`, `if`/`then`/`else`.
    fn applicators(
        &mut self,
        k: &Keywords,
        at: &str,
        inst: &Value,
        loc: &Loc<'_>,
        loud: bool,
        mut seen: Option<&mut Seen>,
    ) -> Outcome {
        let mut valid = true;
        macro_rules! sub_failed {
            () => {{
                valid = false;
                if self.stop(loud) {
                    return Ok(false);
                }
            }};
        }
        macro_rules! own {
            ($kw:expr, $detail:expr) => {{
                valid = false;
                if self.own_error(loud, loc, at, $kw, $detail) {
                    return Ok(false);
                }
            }};
        }
        if let Value::Object(map) = inst {
            for (name, child) in &k.dependent_schemas {
                if map.contains_key(name)
                    && !self.eval(*child, inst, loc, loud, seen.as_deref_mut())?
                {
                    sub_failed!();
                }
            }
        }
        for &target in &k.refs {
            if !self.eval(target, inst, loc, loud, seen.as_deref_mut())? {
                sub_failed!();
            }
        }
        for &child in &k.all_of {
            if !self.eval(child, inst, loc, loud, seen.as_deref_mut())? {
                sub_failed!();
            }
        }
        if !k.any_of.is_empty() && !self.any_of(k, inst, loc, seen.as_deref_mut())? {
            own!("anyOf", Detail::NoneOf(k.any_of.len()));
        }
        if !k.one_of.is_empty() {
            match self.one_of(k, inst, loc, seen.as_deref_mut())? {
                (Some(_), None) => {}
                (None, _) => own!("oneOf", Detail::NoneOf(k.one_of.len())),
                (Some(a), Some(b)) => own!("oneOf", Detail::Several(a, b)),
            }
        }
        if let Some(child) = k.not {
            if self.eval(child, inst, loc, false, None)? {
                own!("not", Detail::Not);
            }
        }
        if k.if_.is_some() && !self.conditional(k, inst, loc, loud, seen)? {
            sub_failed!();
        }
        Ok(valid)
    }

    /// `anyOf` (Core § 10.2.1.2): whether a subschema holds. Without annotations to collect it
    /// stops at the first that does.
    #[inline(never)]
    fn any_of(
        &mut self,
        k: &Keywords,
        inst: &Value,
        loc: &Loc<'_>,
        mut seen: Option<&mut Seen>,
    ) -> Result<bool, Fatal> {
        let mut any = false;
        for &child in &k.any_of {
            match seen.as_deref_mut() {
                Some(s) => {
                    let mut branch = Seen::for_instance(inst);
                    if self.eval(child, inst, loc, false, Some(&mut branch))? {
                        any = true;
                        s.merge(&branch);
                    }
                }
                None => {
                    if self.eval(child, inst, loc, false, None)? {
                        return Ok(true);
                    }
                }
            }
        }
        Ok(any)
    }

    /// `oneOf` (Core § 10.2.1.3): the first two subschemas that hold (stops at two).
    #[inline(never)]
    fn one_of(
        &mut self,
        k: &Keywords,
        inst: &Value,
        loc: &Loc<'_>,
        seen: Option<&mut Seen>,
    ) -> Result<(Option<usize>, Option<usize>), Fatal> {
        let mut first = None;
        let mut kept = None;
        for (i, &child) in k.one_of.iter().enumerate() {
            let mut branch = seen.as_ref().map(|_| Seen::for_instance(inst));
            if self.eval(child, inst, loc, false, branch.as_mut())? {
                if first.is_some() {
                    return Ok((first, Some(i)));
                }
                first = Some(i);
                kept = branch;
            }
        }
        if let (Some(s), Some(b)) = (seen, kept) {
            s.merge(&b);
        }
        Ok((first, None))
    }

    /// `if` / `then` / `else` (Core § 10.2.2): whether the chosen branch holds.
    #[inline(never)]
    fn conditional(
        &mut self,
        k: &Keywords,
        inst: &Value,
        loc: &Loc<'_>,
        loud: bool,
        mut seen: Option<&mut Seen>,
    ) -> Outcome {
        let Some(cond) = k.if_ else {
            return Ok(true);
        };
        let mut branch = seen.as_ref().map(|_| Seen::for_instance(inst));
        let holds = self.eval(cond, inst, loc, false, branch.as_mut())?;
        if holds {
            if let (Some(s), Some(b)) = (seen.as_deref_mut(), branch) {
                s.merge(&b);
            }
        }
        match if holds { k.then_ } else { k.else_ } {
            Some(child) => self.eval(child, inst, loc, loud, seen),
            None => Ok(true),
        }
    }

    /// The first pair of equal items, by hashing canonical texts (expected O(n)).
    fn duplicate(
        &mut self,
        items: &[Value],
        loc: &Loc<'_>,
        at: &str,
    ) -> Result<Option<(usize, usize)>, Fatal> {
        let mut first: HashMap<String, usize> = HashMap::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let mut text = String::new();
            if !value::canonical(item, &mut text, self.limits.max_depth) {
                let limit = self.limits.max_depth;
                return Err(self.fatal(
                    &loc.index(i),
                    at,
                    ValidationErrorKind::TooDeep,
                    format!("instance nested deeper than {limit}"),
                ));
            }
            self.spend(text.len() as u64 / 64, loc, at)?;
            match first.entry(text) {
                Entry::Occupied(e) => return Ok(Some((*e.get(), i))),
                Entry::Vacant(e) => {
                    e.insert(i);
                }
            }
        }
        Ok(None)
    }
}
