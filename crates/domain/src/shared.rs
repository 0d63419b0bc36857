//! Values that repeat across many objects (an event's kind, reason, component, the object it
//! is about, and messages, which repeat across the objects a controller reports on) held once
//! and shared.
//!
//! A table is swept of the values nobody else holds whenever it has doubled since its last
//! sweep (so it holds at most twice what was alive then, or [`FIRST_SWEEP`] values), and when
//! the console lets go of a whole picture ([`Table::sweep`]: another context or namespace).
//! Texts longer than [`LONGEST`] are never shared: they are rarely repeated.

use std::collections::HashSet;
use std::hash::Hash;
use std::sync::{Arc, LazyLock, Mutex};

/// A shared text: one pointer wide (an `Option` of it too), so an object with several of them
/// stays small.
pub type Shared = Arc<String>;

/// Texts longer than this get their own copy.
pub const LONGEST: usize = 1024;

/// The smallest a table is swept at.
const FIRST_SWEEP: usize = 1024;

/// One table of shared values of a type.
pub struct Table<T> {
    values: Mutex<(HashSet<Arc<T>>, usize)>,
}

impl<T: Hash + Eq> Table<T> {
    pub fn new() -> Table<T> {
        Table {
            values: Mutex::new((HashSet::new(), 0)),
        }
    }
}

impl<T: Hash + Eq> Table<T> {
    /// The shared copy of `value` (it becomes the shared copy when it is the first).
    pub fn share(&self, value: T) -> Arc<T> {
        let Ok(mut guard) = self.values.lock() else {
            return Arc::new(value);
        };
        let (values, swept_at) = &mut *guard;
        if let Some(known) = values.get(&value) {
            return known.clone();
        }
        if values.len() >= (*swept_at).saturating_mul(2).max(FIRST_SWEEP) {
            values.retain(|v| Arc::strong_count(v) > 1);
            *swept_at = values.len();
        }
        let shared = Arc::new(value);
        values.insert(shared.clone());
        shared
    }

    /// Lets go of the values nobody else holds.
    pub fn sweep(&self) {
        if let Ok(mut guard) = self.values.lock() {
            let (values, swept_at) = &mut *guard;
            values.retain(|v| Arc::strong_count(v) > 1);
            *swept_at = values.len();
        }
    }

    /// How many values the table holds (shared or waiting for the next sweep).
    pub fn len(&self) -> usize {
        self.values.lock().map_or(0, |v| v.0.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<T: Hash + Eq> Default for Table<T> {
    fn default() -> Self {
        Table::new()
    }
}

/// The texts shared across objects.
static TEXTS: LazyLock<Table<String>> = LazyLock::new(Table::new);

/// Lets go of the texts nobody else holds (after the tables that hold texts are swept).
pub fn sweep_texts() {
    TEXTS.sweep();
}

/// The shared copy of a text (a long one is not shared).
pub fn text(value: String) -> Shared {
    if value.len() > LONGEST {
        return Arc::new(value);
    }
    TEXTS.share(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_texts_share_one_copy_and_long_ones_do_not() {
        let a = text("ScaleUpPending".to_owned());
        let b = text("ScaleUpPending".to_owned());
        assert!(Arc::ptr_eq(&a, &b));
        let long = "x".repeat(LONGEST + 1);
        assert!(!Arc::ptr_eq(&text(long.clone()), &text(long)));
    }

    #[test]
    fn a_table_keeps_within_twice_what_is_alive() {
        let table: Table<String> = Table::new();
        let mut alive = Vec::new();
        for round in 0..20_000 {
            let value = table.share(format!("message {round}"));
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
        let again = table.share("message 0".to_owned());
        assert!(Arc::ptr_eq(&again, &alive[0]));
        drop(again);
        // Letting go of everything, then sweeping, leaves nothing held.
        alive.clear();
        assert!(!table.is_empty());
        table.sweep();
        assert!(table.is_empty(), "{} held after the sweep", table.len());
    }
}
