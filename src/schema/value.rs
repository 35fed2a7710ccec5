//! JSON value semantics that JSON Schema needs and `serde_json` does not give directly: numbers
//! compared by mathematical value (2020-12 Core § 4.2.2 "Instance Equality": `1` equals `1.0`),
//! integer detection ("a number with a zero fractional part", Core § 4.2.1), exact `multipleOf`
//! on decimal literals, and a canonical form used to test `uniqueItems` in O(n log n).

use serde_json::{Number, Value};
use std::cmp::Ordering;
use std::fmt::Write;

/// A JSON number as an exact integer when it is one, else a float.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Num {
    Int(i128),
    Float(f64),
}

impl Num {
    pub(crate) fn of(n: &Number) -> Num {
        if let Some(i) = n.as_i64() {
            Num::Int(i128::from(i))
        } else if let Some(u) = n.as_u64() {
            Num::Int(i128::from(u))
        } else {
            Num::Float(n.as_f64().unwrap_or(f64::NAN))
        }
    }

    pub(crate) fn is_integer(self) -> bool {
        match self {
            Num::Int(_) => true,
            Num::Float(f) => f.is_finite() && f.fract() == 0.0,
        }
    }

    pub(crate) fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }
}

/// Exact order of an integer against a float (`None` for NaN).
fn cmp_int_float(i: i128, f: f64) -> Option<Ordering> {
    if f.is_nan() {
        return None;
    }
    // |i| < 2^65 always; floats beyond ±2^100 are out of its reach.
    if f >= 1e30 {
        return Some(Ordering::Less);
    }
    if f <= -1e30 {
        return Some(Ordering::Greater);
    }
    let floor = f.floor();
    let fl = floor as i128; // exact: |floor| < 1e30 < 2^127
    match i.cmp(&fl) {
        Ordering::Equal if floor == f => Some(Ordering::Equal),
        Ordering::Equal => Some(Ordering::Less), // i == floor(f) < f
        o => Some(o),
    }
}

/// Mathematical order of two JSON numbers (`None` only for NaN, which JSON cannot carry).
pub(crate) fn cmp_num(a: Num, b: Num) -> Option<Ordering> {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => Some(x.cmp(&y)),
        (Num::Float(x), Num::Float(y)) => x.partial_cmp(&y),
        (Num::Int(x), Num::Float(y)) => cmp_int_float(x, y),
        (Num::Float(x), Num::Int(y)) => cmp_int_float(y, x).map(Ordering::reverse),
    }
}

/// The shortest text that round-trips a finite `f` (serde_json's float formatting, so no
/// second float formatter is linked in). `None` for NaN and infinities, which JSON cannot carry.
pub(crate) fn float_text(f: f64) -> Option<String> {
    Number::from_f64(f).map(|n| n.to_string())
}

/// The shortest decimal that round-trips `f`, as `(digits, exponent)` with `|f| = digits *
/// 10^exponent`. `None` for non-finite values or more than 38 digits.
fn decimal(f: f64) -> Option<(u128, i32)> {
    let text = float_text(f.abs())?; // e.g. "0.00125", "1.25e-5", "123.0", "1e300"
    let (mantissa, exp) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.trim_start_matches('+').parse::<i32>().ok()?),
        None => (text.as_str(), 0),
    };
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut digits: u128 = 0;
    for c in int_part.chars().chain(frac_part.chars()) {
        let d = c.to_digit(10)?;
        digits = digits.checked_mul(10)?.checked_add(u128::from(d))?;
    }
    Some((digits, exp - i32::try_from(frac_part.len()).ok()?))
}

fn decimal_of(n: Num) -> Option<(u128, i32)> {
    match n {
        Num::Int(i) => Some((i.unsigned_abs(), 0)),
        Num::Float(f) => decimal(f),
    }
}

/// Whether `x` is an integer multiple of `d` (`d > 0`; 2020-12 Validation § 6.2.1), exactly, on
/// the numbers' shortest decimal forms (so `0.3` is a multiple of `0.1`, which float division
/// gets wrong).
pub(crate) fn is_multiple_of(x: Num, d: Num) -> bool {
    if let (Num::Int(a), Num::Int(b)) = (x, d) {
        return b != 0 && a % b == 0;
    }
    let (Some((a, ea)), Some((b, eb))) = (decimal_of(x), decimal_of(d)) else {
        return false;
    };
    if a == 0 {
        return true;
    }
    if b == 0 {
        return false;
    }
    if ea >= eb {
        // x / d = a * 10^k / b: drop from b the factors that 10^k supplies, k times at most.
        let (mut b, mut k) = (b, ea - eb);
        while k > 0 && b > 1 {
            let g = gcd(b, 10);
            if g == 1 {
                break;
            }
            b /= g;
            k -= 1;
        }
        a % b == 0
    } else {
        // x / d = a / (b * 10^k): needs b * 10^k to divide a (< 2^128).
        match u32::try_from(eb - ea)
            .ok()
            .and_then(|k| 10u128.checked_pow(k))
            .and_then(|p| p.checked_mul(b))
        {
            Some(m) => a % m == 0,
            None => false,
        }
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// JSON equality by value: numbers mathematically, objects regardless of member order.
pub(crate) fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => {
            cmp_num(Num::of(x), Num::of(y)) == Some(Ordering::Equal)
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equal(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equal(v, w)))
        }
        _ => false,
    }
}

/// Writes a canonical text for `v`: equal values (by [`equal`]) get equal texts and different
/// values different texts. Integral numbers are written as exact integers, object members sorted.
/// Returns `false` (text incomplete) when `v` nests deeper than `depth`.
pub(crate) fn canonical(v: &Value, out: &mut String, depth: usize) -> bool {
    if depth == 0 {
        return false;
    }
    match v {
        Value::Null => out.push('n'),
        Value::Bool(b) => out.push(if *b { 't' } else { 'f' }),
        Value::Number(n) => {
            out.push('#');
            match Num::of(n) {
                Num::Int(i) => {
                    let _ = write!(out, "{i}");
                }
                // Integral floats that an integer could equal are written as that integer.
                Num::Float(f) if f.fract() == 0.0 && f.abs() < 1e38 => {
                    let _ = write!(out, "{}", f as i128);
                }
                Num::Float(f) => out.push_str(&float_text(f).unwrap_or_default()),
            }
        }
        Value::String(s) => {
            // Length-prefixed: injective without escaping.
            let _ = write!(out, "\"{}:{s}", s.len());
        }
        Value::Array(items) => {
            out.push('[');
            for item in items {
                if !canonical(item, out, depth - 1) {
                    return false;
                }
                out.push(',');
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            crate::util::order::sort_by_str(&mut keys, |k| k);
            out.push('{');
            for k in keys {
                let _ = write!(out, "{}:{k}=", k.len());
                let Some(item) = map.get(k.as_str()) else {
                    continue;
                };
                if !canonical(item, out, depth - 1) {
                    return false;
                }
                out.push(',');
            }
            out.push('}');
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn n(v: Value) -> Num {
        match v {
            Value::Number(n) => Num::of(&n),
            _ => unreachable!(),
        }
    }

    #[test]
    fn numbers() {
        assert!(n(json!(1.0)).is_integer());
        assert!(!n(json!(1.5)).is_integer());
        assert_eq!(cmp_num(n(json!(1)), n(json!(1.0))), Some(Ordering::Equal));
        assert_eq!(cmp_num(n(json!(2)), n(json!(1.5))), Some(Ordering::Greater));
        assert_eq!(cmp_num(n(json!(1)), n(json!(1.5))), Some(Ordering::Less));
        assert_eq!(cmp_num(n(json!(-2)), n(json!(-1.5))), Some(Ordering::Less));
        assert_eq!(
            cmp_num(n(json!(u64::MAX)), n(json!(1.8446744073709552e19))),
            Some(Ordering::Less)
        );
        assert!(is_multiple_of(n(json!(0.3)), n(json!(0.1))));
        assert!(!is_multiple_of(n(json!(0.35)), n(json!(0.1))));
        assert!(is_multiple_of(n(json!(10)), n(json!(2.5))));
        assert!(is_multiple_of(n(json!(4.0)), n(json!(2))));
        assert!(!is_multiple_of(n(json!(7)), n(json!(2))));
        assert!(is_multiple_of(n(json!(1e300)), n(json!(1e-300))));
        assert!(is_multiple_of(n(json!(1e300)), n(json!(8))));
        assert!(!is_multiple_of(n(json!(1e300)), n(json!(3))));
        assert!(!is_multiple_of(n(json!(1e-5)), n(json!(1e30))));
        assert!(is_multiple_of(n(json!(0.0075)), n(json!(0.0001))));
        assert!(!is_multiple_of(n(json!(0.00751)), n(json!(0.0001))));
    }

    #[test]
    fn equality_and_canonical() {
        let a = json!({"a": [1, 2.0, "x"], "b": null});
        let b = json!({"b": null, "a": [1.0, 2, "x"]});
        assert!(equal(&a, &b));
        let (mut ca, mut cb) = (String::new(), String::new());
        assert!(canonical(&a, &mut ca, 10));
        assert!(canonical(&b, &mut cb, 10));
        assert!(!canonical(&a, &mut String::new(), 2));
        assert_eq!(ca, cb);
        assert!(!equal(&json!([1]), &json!([true])));
        assert!(!equal(&json!("1"), &json!(1)));
    }
}
