//! Names for ids: an index keyed by strings (URLs, document keys) as well as by numbers. Each
//! name is stored under an id of its own, allocated from [`FIRST_NAMED_ID`] up, and the names
//! travel with the index's bytes.
//!
//! Named ids lie in `FIRST_NAMED_ID..=u64::MAX`, whatever put them there (this allocator, or
//! bytes: `from_bytes` refuses a name below [`FIRST_NAMED_ID`]). A new name takes the id after
//! the last one given, skipping ids in use; past `u64::MAX` (reachable only through bytes that
//! name an id near it) the count starts again at [`FIRST_NAMED_ID`], so it never wraps into the
//! numbers' range nor lands on an id in use.

use alloc::collections::BTreeMap;
use alloc::string::String;

/// The first id given to a name: 2^53, above every id a JavaScript number holds exactly, so a
/// program that mixes numeric and named ids in JavaScript never sees them collide.
///
/// ```
/// assert_eq!(simprint::index::FIRST_NAMED_ID, 1 << 53);
/// ```
pub const FIRST_NAMED_ID: u64 = 1 << 53;

/// Longest name, in bytes: longer ones are refused, as a key would be anywhere else.
///
/// ```
/// assert_eq!(simprint::index::MAX_NAME_BYTES, 65_535);
/// ```
pub const MAX_NAME_BYTES: usize = 65_535;

/// The names of an index's named entries, both ways.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Names {
    ids: BTreeMap<String, u64>,
    names: BTreeMap<u64, String>,
    /// Where the search for a new name's id starts (0 before any: read as [`FIRST_NAMED_ID`]).
    next: u64,
}

/// The named id after `id`: the next one up, or [`FIRST_NAMED_ID`] after `u64::MAX`.
fn after(id: u64) -> u64 {
    id.checked_add(1).unwrap_or(FIRST_NAMED_ID)
}

impl Names {
    /// About the heap bytes held: each name twice, with a map node's overhead.
    pub(crate) fn bytes(&self) -> usize {
        self.names.values().map(|n| 2 * n.len() + 160).sum()
    }

    pub(crate) fn id_of(&self, name: &str) -> Option<u64> {
        self.ids.get(name).copied()
    }

    pub(crate) fn name_of(&self, id: u64) -> Option<&str> {
        self.names.get(&id).map(String::as_str)
    }

    /// The id of `name`, given it a new one when it has none: the first from the last one
    /// given up (see the module's comment) that no name holds and `taken` says is free.
    pub(crate) fn id_for(&mut self, name: &str, taken: impl Fn(u64) -> bool) -> u64 {
        if let Some(id) = self.id_of(name) {
            return id;
        }
        // Ends: the range holds 2^64 - 2^53 ids, far more than an index can hold entries.
        let mut id = self.next.max(FIRST_NAMED_ID);
        while self.names.contains_key(&id) || taken(id) {
            id = after(id);
        }
        self.next = after(id);
        self.ids.insert(String::from(name), id);
        self.names.insert(id, String::from(name));
        id
    }

    /// Adds a name read back from bytes (ids and names already checked to be unique, and ids
    /// to lie in the named range). Called in ascending id order, as bytes hold them, so new
    /// names go after the last (from [`FIRST_NAMED_ID`] when that is `u64::MAX`).
    pub(crate) fn restore(&mut self, id: u64, name: String) {
        self.next = after(id);
        self.ids.insert(name.clone(), id);
        self.names.insert(id, name);
    }

    /// Forgets the name of `id`, if it has one.
    pub(crate) fn forget(&mut self, id: u64) {
        if let Some(name) = self.names.remove(&id) {
            self.ids.remove(&name);
        }
    }

    pub(crate) fn clear(&mut self) {
        *self = Names::default();
    }

    /// Every `(id, name)`, by id.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (u64, &str)> {
        self.names.iter().map(|(&id, name)| (id, name.as_str()))
    }
}
