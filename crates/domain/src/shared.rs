//! Values that repeat across many objects (an event's kind, reason, component, the object it
//! is about, messages; a fleet's few kinds of host hardware), held once and shared by whoever
//! holds the objects: a [`Table`] is a plain value (the console's inventory owns them), never
//! process-global. Objects are read with their own copies and shared after reading.
//!
//! A table is swept of the values nobody else holds whenever it has doubled since its last
//! sweep, so it holds at most twice what was alive then, or [`FIRST_SWEEP`] values. Texts
//! longer than [`LONGEST`] are never shared: they are rarely repeated.

use std::collections::HashSet;
use std::hash::Hash;
use std::sync::Arc;

/// A shared text: one pointer wide (an `Option` of it too), so an object with several of them
/// stays small.
pub type Shared = Arc<String>;

/// Texts longer than this get their own copy.
pub const LONGEST: usize = 1024;

/// The smallest a table is swept at.
const FIRST_SWEEP: usize = 1024;

/// One table of shared values of a type.
#[derive(Clone, Debug)]
pub struct Table<T> {
    values: HashSet<Arc<T>>,
    swept_at: usize,
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Table {
            values: HashSet::new(),
            swept_at: 0,
        }
    }
}

impl<T: Hash + Eq> Table<T> {
    /// The shared copy of `value` (it becomes the shared copy when it is the first).
    pub fn share(&mut self, value: Arc<T>) -> Arc<T> {
        if let Some(known) = self.values.get(&value) {
            return known.clone();
        }
        if self.values.len() >= self.swept_at.saturating_mul(2).max(FIRST_SWEEP) {
            self.sweep();
        }
        self.values.insert(value.clone());
        value
    }

    /// Lets go of the values nobody else holds.
    /// `value` as the table holds it: the copy already there (`value` is dropped at once),
    /// or `value` itself, now held.
    pub fn share_value(&mut self, value: T) -> Arc<T> {
        match self.values.get(&value) {
            Some(known) => known.clone(),
            None => self.share(Arc::new(value)),
        }
    }

    pub fn sweep(&mut self) {
        self.values.retain(|v| Arc::strong_count(v) > 1);
        self.swept_at = self.values.len();
    }

    /// How many values the table holds (shared or waiting for the next sweep).
    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

/// Texts in a fixed order (an event's own, the object it is about, its source), shared as
/// a set between the objects that say the same.
pub type Texts<const N: usize> = [Option<Shared>; N];

/// The shared copy of a text (a long one is not shared).
pub fn text(strings: &mut Table<String>, value: Shared) -> Shared {
    if value.len() > LONGEST {
        return value;
    }
    strings.share(value)
}

/// A text just read, shared through `strings` as [`text`] shares one already held.
pub fn text_of(strings: &mut Table<String>, value: String) -> Shared {
    if value.len() > LONGEST {
        return Arc::new(value);
    }
    strings.share_value(value)
}

/// A set of texts shared, each text and the set.
pub fn texts<const N: usize>(
    strings: &mut Table<String>,
    sets: &mut Table<Texts<N>>,
    texts: Arc<Texts<N>>,
) -> Arc<Texts<N>> {
    let mut own = Arc::unwrap_or_clone(texts);
    for each in own.iter_mut().flatten() {
        *each = text(strings, each.clone());
    }
    sets.share(Arc::new(own))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_texts_share_one_copy_and_long_ones_do_not() {
        let mut strings = Table::default();
        let a = text(&mut strings, Arc::new("ScaleUpPending".to_owned()));
        let b = text(&mut strings, Arc::new("ScaleUpPending".to_owned()));
        assert!(Arc::ptr_eq(&a, &b));
        let long = "x".repeat(LONGEST + 1);
        let (c, d) = (
            text(&mut strings, Arc::new(long.clone())),
            text(&mut strings, Arc::new(long)),
        );
        assert!(!Arc::ptr_eq(&c, &d));
    }

    #[test]
    fn a_table_keeps_within_twice_what_is_alive() {
        let mut table: Table<String> = Table::default();
        let mut alive = Vec::new();
        for round in 0..20_000 {
            let value = table.share(Arc::new(format!("message {round}")));
            // One in ten stays held; the rest are dropped at once.
            if round % 10 == 0 {
                alive.push(value);
            }
            assert!(
                table.len() <= (2 * alive.len()).max(FIRST_SWEEP) + 1,
                "{} values held for {} alive",
                table.len(),
                alive.len()
            );
        }
        // What is alive is still shared after the sweeps.
        let again = table.share(Arc::new("message 0".to_owned()));
        assert!(Arc::ptr_eq(&again, &alive[0]));
        drop(again);
        // Letting go of everything, then sweeping, leaves nothing held.
        alive.clear();
        assert!(!table.is_empty());
        table.sweep();
        assert!(table.is_empty(), "{} held after the sweep", table.len());
    }
}
