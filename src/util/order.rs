//! One sorting routine for the whole crate. Every `sort_unstable` call instantiates the standard
//! library's sort (quicksort, heapsort, small-sort networks) for its element type and comparator,
//! about 4 KB of wasm each; the crate sorts only short lists (names, cache keys, header
//! designations, tool lists), so it sorts positions instead and moves the items once: one
//! instantiation of the standard sort in the package.

use std::cmp::Ordering;

/// The positions of `n` items in the order `cmp` gives; ties keep their positions.
fn order(n: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut positions: Vec<usize> = (0..n).collect();
    positions.sort_unstable_by(|&a, &b| cmp(a, b).then(a.cmp(&b)));
    positions
}

/// Sorts `v` by `cmp`, stably, in O(n log n) comparisons and one move of each item.
pub(crate) fn sort_by<T>(v: &mut Vec<T>, cmp: impl Fn(&T, &T) -> Ordering) {
    let positions = order(v.len(), &|a, b| cmp(&v[a], &v[b]));
    let mut slots: Vec<Option<T>> = std::mem::take(v).into_iter().map(Some).collect();
    v.extend(positions.into_iter().filter_map(|i| slots[i].take()));
}

/// Sorts `v` by the string `key` gives for each item (stably).
pub(crate) fn sort_by_str<T>(v: &mut Vec<T>, key: impl Fn(&T) -> &str) {
    sort_by(v, |a, b| key(a).cmp(key(b)));
}

/// `v` with the members of every object, at every depth, in key order: the canonical form the
/// result cache keys ([`crate::proto::session`]) and the tool pins' fingerprints are built from.
pub(crate) fn sorted_keys(v: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::Object(o) => {
            let mut names: Vec<&String> = o.keys().collect();
            sort_by_str(&mut names, |k| k);
            Value::Object(
                names
                    .into_iter()
                    .map(|k| (k.clone(), sorted_keys(&o[k])))
                    .collect(),
            )
        }
        Value::Array(a) => Value::Array(a.iter().map(sorted_keys).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_like_the_standard_stable_sort() {
        let mut seed = 0x2545_f491_u64;
        for len in [0, 1, 2, 3, 7, 20, 33, 200] {
            let items: Vec<(u8, usize)> = (0..len)
                .map(|i| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    ((seed % 5) as u8, i)
                })
                .collect();
            let mut ours = items.clone();
            sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
            let mut std_sorted = items;
            std_sorted.sort_by_key(|a| a.0);
            assert_eq!(ours, std_sorted, "length {len}");
        }
    }

    #[test]
    fn sorts_by_a_string_key() {
        let mut v = vec![("b", 1), ("a", 2), ("c", 3), ("a", 0)];
        sort_by_str(&mut v, |x| x.0);
        assert_eq!(v, [("a", 2), ("a", 0), ("b", 1), ("c", 3)]);
    }
}
