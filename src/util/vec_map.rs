//! Ordered maps kept as sorted vectors.
//!
//! The session and the client keep a dozen small maps (requests in flight, progress tokens,
//! exchanges, list pages, tool headers). `HashMap` and `BTreeMap` instantiate their whole machinery
//! (hashing, probing and rehashing, or node splits and merges) for every key and value type, and
//! that was most of the collection code in the wasm module; a sorted `Vec` searched by bisection
//! costs a few hundred bytes per type and iterates in key order. Inserting and removing move the
//! entries behind the slot: linear, which the callers' bounds keep small (requests in flight,
//! input requests of one round, cached results, followed cursors), and ids that only grow are
//! appended at the end. Maps whose size a server decides (the names of a tool list) stay hashed.

use std::borrow::Borrow;

/// A map ordered by key.
#[derive(Debug, Clone)]
pub(crate) struct VecMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        Self {
            entries: Vec::new(),
        }
    }
}

impl<K: Ord, V> VecMap<K, V> {
    pub(crate) const fn new() -> Self {
        Self {
            entries: Vec::new(),
        }
    }

    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.entries.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    pub(crate) fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &self.entries[i].1)
    }

    pub(crate) fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &mut self.entries[i].1)
    }

    pub(crate) fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.find(key).is_ok()
    }

    /// Sets `key` to `value`; returns the value it replaced.
    pub(crate) fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    /// The value at `key`, inserted from `make` when there is none.
    // The JS client (wasm32-unknown-unknown) and the pool call it.
    #[cfg_attr(
        not(all(target_family = "wasm", target_os = "unknown")),
        allow(dead_code)
    )]
    pub(crate) fn get_or_insert_with(&mut self, key: K, make: impl FnOnce() -> V) -> &mut V {
        let i = match self.find(&key) {
            Ok(i) => i,
            Err(i) => {
                self.entries.insert(i, (key, make()));
                i
            }
        };
        &mut self.entries[i].1
    }

    pub(crate) fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| self.entries.remove(i).1)
    }

    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(k, v));
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Entries in key order.
    pub(crate) fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    pub(crate) fn keys(&self) -> impl DoubleEndedIterator<Item = &K> {
        self.entries.iter().map(|(k, _)| k)
    }

    pub(crate) fn values(&self) -> impl DoubleEndedIterator<Item = &V> {
        self.entries.iter().map(|(_, v)| v)
    }

    pub(crate) fn into_keys(self) -> impl Iterator<Item = K> {
        self.entries.into_iter().map(|(k, _)| k)
    }
}

impl<K, V> IntoIterator for VecMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_keeps_keys_sorted_and_unique() {
        let mut m = VecMap::new();
        for k in [5, 1, 9, 3, 7, 1] {
            m.insert(k, k * 10);
        }
        assert_eq!(m.insert(3, 33), Some(30));
        assert_eq!(m.keys().copied().collect::<Vec<_>>(), [1, 3, 5, 7, 9]);
        assert_eq!(m.get(&3), Some(&33));
        assert_eq!(m.remove(&5), Some(50));
        assert_eq!(m.remove(&5), None);
        assert!(!m.contains_key(&5));
        *m.get_or_insert_with(4, || 0) += 4;
        *m.get_or_insert_with(4, || 0) += 4;
        assert_eq!(m.get(&4), Some(&8));
        m.retain(|k, _| k % 3 != 0);
        assert_eq!(
            m.iter().map(|(k, v)| (*k, *v)).collect::<Vec<_>>(),
            [(1, 10), (4, 8), (7, 70)]
        );
    }

    #[test]
    fn string_keys_are_found_by_str() {
        let mut m: VecMap<String, u8> = VecMap::new();
        m.insert("b".into(), 2);
        m.insert("a".into(), 1);
        assert_eq!(m.get("a"), Some(&1));
        assert_eq!(m.remove("b"), Some(2));
        assert!(!m.contains_key("b"));
    }
}
