//! A small map that keeps insertion order, with the delete-then-insert
//! behaviour of a script object: the legend's resolution walks its entries
//! in that order, and the order of a property's members decides the order
//! of the rules it expands into, so it has to be kept exactly.

#[derive(Clone, Debug)]
pub(crate) struct Dict<V> {
    entries: Vec<(String, V)>,
}

impl<V> Default for Dict<V> {
    fn default() -> Self {
        Dict {
            entries: Vec::new(),
        }
    }
}

impl<V> Dict<V> {
    fn position(&self, key: &str) -> Option<usize> {
        self.entries.iter().position(|(k, _)| k == key)
    }

    pub(crate) fn get(&self, key: &str) -> Option<&V> {
        self.position(key).map(|i| &self.entries[i].1)
    }

    pub(crate) fn get_mut(&mut self, key: &str) -> Option<&mut V> {
        self.position(key).map(|i| &mut self.entries[i].1)
    }

    pub(crate) fn contains(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    /// Replaces the value in place if the key is there, else appends.
    pub(crate) fn insert(&mut self, key: &str, value: V) {
        match self.position(key) {
            Some(i) => self.entries[i].1 = value,
            None => self.entries.push((key.to_string(), value)),
        }
    }

    pub(crate) fn remove(&mut self, key: &str) {
        if let Some(i) = self.position(key) {
            self.entries.remove(i);
        }
    }

    pub(crate) fn keys(&self) -> Vec<String> {
        self.entries.iter().map(|(k, _)| k.clone()).collect()
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, &V)> {
        self.entries.iter().map(|(k, v)| (k.as_str(), v))
    }
}
