//! The current view's rows, held per object so that a change to one object replaces only
//! that object's rows, and held small so that the store grows with the window, not the fleet.
//!
//! Each row sits in a slot that keeps only what ordering and laying out every row needs: its
//! object (the owner: hub and the object as the inventory holds it, whose key names it), its
//! place among that object's rows, when it happened
//! (events), its cells' widths, its markers and whether it is a warning. Whole rows are held
//! for the window around the selection only (the App builds them from the inventory when the
//! window moves), or for every row of a view that is made whole (projects, problems: small).
//! The filter's words and the sorted column's values are kept per slot only while a filter
//! or a sort asks for them.

mod derived;

#[cfg(test)]
pub use self::derived::words_of;

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::sync::Arc;

use chrono::{DateTime, Utc};

use crate::app::rows::{self, Cell, Column, Row};
use crate::domain::field::Text;
use crate::domain::rules::Severity;
use crate::inventory::{Key, Object};

/// An object whose rows a view shows: its hub (an index of the console's hubs) and key.
pub type Owner = (usize, Key);

/// The key of the rows that are about no one object (a whole table's).
static NO_KEY: Key = (Text::const_new(""), Text::const_new(""));

/// The columns whose widths a slot keeps. A console row has at most 15 cells and the HUB
/// column; a column past these counts as filled to the widest (u16::MAX: the layout gives it
/// the room left).
const KEPT_WIDTHS: usize = 16;

/// Cell widths as drawn, at most 255 (the console draws no column but the last wider than
/// 48, and the last at least 16: a wider value never changes a layout).
type Widths = [u8; KEPT_WIDTHS];

/// No next slot: the last of its object's rows.
const LAST: u32 = u32::MAX;

#[derive(Clone, Debug)]
struct Slot {
    /// The object the row is about, as the inventory holds it (a row built again when its
    /// object changes holds the new one): its key names the owner without a copy of its
    /// own. None for a whole table's rows.
    object: Option<Arc<Object>>,
    /// The owner's hub.
    hub: u32,
    /// The row's place among its object's rows.
    index: u32,
    /// The slot of the object's next row ([`LAST`]: none).
    next: u32,
    /// When an event happened: the events list's natural order.
    time: Option<DateTime<Utc>>,
    /// Each cell's width as drawn (without the rule marker), and in its compact form.
    widths: Widths,
    compact: Widths,
    /// The pool's spec breaks an error-level rule; the doctor's worst finding about it.
    broken: bool,
    worst: Option<Severity>,
    /// The row's TYPE cell says Warning (the events list's `w`).
    warning: bool,
}

impl Slot {
    fn key(&self) -> &Key {
        self.object.as_ref().map_or(&NO_KEY, |o| &o.key)
    }

    fn owner(&self) -> (usize, &Key) {
        (self.hub as usize, self.key())
    }
}

/// What a slot keeps of a row, worked out once when the row is built.
pub struct Kept {
    /// The row's hub.
    pub hub: usize,
    /// The object the row is about; none for a whole table's rows.
    pub object: Option<Arc<Object>>,
    pub index: usize,
    pub time: Option<DateTime<Utc>>,
}

#[derive(Clone, Debug, Default)]
pub struct Base {
    pub columns: Vec<Column>,
    /// The column whose Warning the events list's `w` keeps, if the view has one.
    pub warning_column: Option<usize>,
    slots: Vec<Option<Slot>>,
    free: Vec<usize>,
    /// The slots of each object's first and last rows, found by its owner; the others
    /// follow the first through `next`, in the order of its rows. Only slot numbers: the
    /// owners are the slots' own. Guarded by `cargo bench --bench fleet -- events`: a std
    /// map keyed by (hub, key) would copy every key, 7 MB or more where that run peaks at 147.
    by_owner: hashbrown::HashTable<(u32, u32)>,
    hasher: RandomState,
    /// Whether every row is held whole (a view made whole), not only the window's.
    pub whole: bool,
    /// The rows held whole, by slot.
    held: HashMap<usize, Row>,
    /// Each slot's filter words, lower case, while a filter reads them (`None` until worked
    /// out).
    words: Option<Vec<Option<Box<str>>>>,
    /// The sorted column and each slot's value there, while a column is sorted.
    sort_keys: Option<(usize, Vec<Option<Cell>>)>,
}

impl Base {
    /// An empty store for a view's rows: every row held whole, or the window's only.
    pub fn new(whole: bool) -> Base {
        Base {
            whole,
            ..Base::default()
        }
    }

    /// Every row in use, with its slot.
    pub fn slots(&self) -> impl Iterator<Item = usize> + '_ {
        self.slots
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.as_ref().map(|_| i))
    }

    /// The objects whose rows are held.
    pub fn owners(&self) -> impl Iterator<Item = (usize, &Key)> + '_ {
        self.by_owner
            .iter()
            .filter_map(|(first, _)| self.owner(*first as usize))
    }

    /// The slots of one object's rows, in the order of its rows.
    pub fn slots_of(&self, owner: &Owner) -> Vec<usize> {
        let mut slots = Vec::new();
        let mut at = self.ends(owner).map(|(first, _)| first as usize);
        while let Some(slot) = at {
            slots.push(slot);
            at = self
                .slot(slot)
                .map(|s| s.next)
                .filter(|n| *n != LAST)
                .map(|n| n as usize);
        }
        slots
    }

    /// The slots of an object's first and last rows.
    fn ends(&self, owner: &Owner) -> Option<(u32, u32)> {
        self.ends_of(owner.0, &owner.1)
    }

    /// [`Base::ends`], of a hub and key.
    fn ends_of(&self, hub: usize, key: &Key) -> Option<(u32, u32)> {
        let hash = self.hasher.hash_one((hub, key));
        let slots = &self.slots;
        self.by_owner
            .find(hash, |(first, _)| owned_by(slots, *first, hub, key))
            .copied()
    }

    /// The object a slot's row is about: its hub and key.
    pub fn owner(&self, slot: usize) -> Option<(usize, &Key)> {
        Some(self.slot(slot)?.owner())
    }

    /// The row of a slot, if it is held whole (its view's, or in the window).
    pub fn row(&self, slot: usize) -> Option<&Row> {
        self.held.get(&slot)
    }

    /// Holds a slot's row whole (built for the window).
    pub fn hold(&mut self, slot: usize, row: Row) {
        if self.slot(slot).is_some() {
            self.held.insert(slot, row);
        }
    }

    /// Lets go of the rows held whole outside `keep` (a view made whole keeps all).
    pub fn let_go(&mut self, keep: &std::collections::HashSet<usize>) {
        if !self.whole {
            self.held.retain(|slot, _| keep.contains(slot));
        }
    }

    /// How many rows are held whole.
    pub fn held(&self) -> usize {
        self.held.len()
    }

    fn slot(&self, slot: usize) -> Option<&Slot> {
        self.slots.get(slot)?.as_ref()
    }

    /// Puts a row in a free slot and returns it; the row is held whole when `hold` (built
    /// for a change: the window may show it) or the view is made whole.
    pub fn add(&mut self, row: Row, kept: Kept, hold: bool) -> usize {
        // A row with fewer cells than columns shows nothing in the others.
        let mut widths = [0; KEPT_WIDTHS];
        let mut compact = [0; KEPT_WIDTHS];
        for (i, cell) in row.cells.iter().take(KEPT_WIDTHS).enumerate() {
            let width = cell.width();
            widths[i] = u8::try_from(width).unwrap_or(u8::MAX);
            // Only bars and sparklines shrink: every other cell keeps its width.
            let small = if cell.has_compact_form() {
                cell.compact_width()
            } else {
                width
            };
            compact[i] = u8::try_from(small).unwrap_or(u8::MAX);
        }
        let warning = self.warning_column.is_some_and(|c| {
            matches!(
                row.cells.get(c),
                Some(Cell::Status(rows::Status::Event { warning: true, .. }))
            )
        });
        // Hashed and found as the slot holds it.
        let hub = u32::try_from(kept.hub).unwrap_or(u32::MAX);
        let key = kept.object.as_ref().map_or(&NO_KEY, |o| &o.key);
        let hash = self.hasher.hash_one((hub as usize, key));
        let known = self.ends_of(hub as usize, key);
        let slot = Slot {
            object: kept.object,
            hub,
            index: u32::try_from(kept.index).unwrap_or(u32::MAX),
            next: LAST,
            time: kept.time,
            widths,
            compact,
            broken: row.broken,
            worst: row.worst,
            warning,
        };
        let index = match self.free.pop() {
            Some(i) => {
                self.slots[i] = Some(slot);
                i
            }
            None => {
                self.slots.push(Some(slot));
                if let Some(words) = self.words.as_mut() {
                    words.push(None);
                }
                if let Some((_, keys)) = self.sort_keys.as_mut() {
                    keys.push(None);
                }
                self.slots.len() - 1
            }
        };
        self.set_derived(index, &row);
        if hold || self.whole {
            self.held.insert(index, row);
        }
        // Slot numbers are held as u32: a view of 4 billion rows would need 450 GB of slots.
        debug_assert!(index < LAST as usize, "slot {index} past the slot numbers");
        let number = u32::try_from(index).unwrap_or(LAST);
        match known {
            // The object's next row: after its last.
            Some((first, last)) => {
                if let Some(last) = self.slots.get_mut(last as usize).and_then(Option::as_mut) {
                    last.next = number;
                }
                // A slot is the first row of one object at most: its number names the entry.
                if let Some(ends) = self.by_owner.find_mut(hash, |(f, _)| *f == first) {
                    ends.1 = number;
                }
            }
            None => {
                let (slots, hasher) = (&self.slots, &self.hasher);
                self.by_owner
                    .insert_unique(hash, (number, number), |(first, _)| {
                        hash_of(slots, hasher, *first)
                    });
            }
        }
        index
    }

    /// Room for `rows` more rows, of `objects` more objects.
    pub fn reserve(&mut self, rows: usize, objects: usize) {
        self.slots.reserve(rows);
        let (slots, hasher) = (&self.slots, &self.hasher);
        self.by_owner
            .reserve(objects, |(first, _)| hash_of(slots, hasher, *first));
    }

    /// Takes out every row of one hub; returns the slots they held.
    pub fn remove_hub(&mut self, hub: usize) -> Vec<usize> {
        let owners: Vec<Owner> = self
            .owners()
            .filter(|(h, _)| *h == hub)
            .map(|(h, key)| (h, key.clone()))
            .collect();
        owners.iter().flat_map(|o| self.remove_owner(o)).collect()
    }

    /// Takes out every row of one object; returns the slots they held.
    pub fn remove_owner(&mut self, owner: &Owner) -> Vec<usize> {
        let slots = self.slots_of(owner);
        let hash = self.hasher.hash_one(owner);
        if let Some(head) = slots.first()
            && let Ok(entry) = self
                .by_owner
                .find_entry(hash, |(first, _)| *first as usize == *head)
        {
            entry.remove();
        }
        for i in &slots {
            if let Some(slot) = self.slots.get_mut(*i) {
                *slot = None;
                self.free.push(*i);
            }
            self.held.remove(i);
            if let Some(words) = self.words.as_mut().and_then(|w| w.get_mut(*i)) {
                *words = None;
            }
            if let Some(key) = self.sort_keys.as_mut().and_then(|(_, k)| k.get_mut(*i)) {
                *key = None;
            }
        }
        slots
    }
}

/// Whether a slot is in use by an object's row.
fn owned_by(slots: &[Option<Slot>], slot: u32, hub: usize, key: &Key) -> bool {
    slots
        .get(slot as usize)
        .and_then(Option::as_ref)
        .is_some_and(|s| s.owner() == (hub, key))
}

/// The hash of the owner of the slot a table entry names.
fn hash_of(slots: &[Option<Slot>], hasher: &RandomState, slot: u32) -> u64 {
    match slots.get(slot as usize).and_then(Option::as_ref) {
        Some(s) => hasher.hash_one(s.owner()),
        None => 0,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use proptest::prelude::*;
    use serde_json::Value;

    use super::*;
    use crate::app::rows::Source;
    use crate::domain::ObjectRef;
    use crate::inventory::Kind;

    fn owner(n: u8) -> Owner {
        // Names past 24 bytes as well as short ones: both forms of a text.
        let name = if n.is_multiple_of(2) {
            format!("pool-{n}")
        } else {
            format!("pool-{n}.18f3c2a1b2c3d4e5f6a7b8c9")
        };
        (
            usize::from(n % 3),
            (format!("ns-{}", n % 4).into(), name.into()),
        )
    }

    /// An object of an owner's key, as the inventory would hold it.
    fn object_of(owner: &Owner) -> Arc<Object> {
        let (namespace, name) = &owner.1;
        let raw = serde_json::json!({"metadata": {"namespace": namespace.as_str(), "name": name.as_str()}});
        let object = Arc::new(Object::new(Kind::Event, raw));
        assert_eq!(object.key, owner.1);
        object
    }

    fn row() -> Row {
        Row {
            id: ObjectRef {
                kind: Kind::Event,
                namespace: "ns".into(),
                name: "e".into(),
            },
            part: None,
            cells: Vec::new(),
            broken: false,
            worst: None,
            object: Source::Value(Value::Null),
            hub: 0,
        }
    }

    proptest! {
        /// Whatever objects come and go (several rows each, freed slots used again), each
        /// object's slots are those its rows were put in, in their order; the store lists
        /// exactly the objects it holds; no slot is lost or held twice.
        #[test]
        fn each_objects_rows_are_found_in_their_order(
            steps in prop::collection::vec((any::<bool>(), 0u8..24, 1usize..4), 1..120)
        ) {
            let mut base = Base::new(false);
            let mut model: BTreeMap<Owner, Vec<usize>> = BTreeMap::new();
            for (add, n, rows) in steps {
                let who = owner(n);
                if add {
                    if n.is_multiple_of(5) {
                        base.reserve(rows, 1);
                    }
                    for _ in 0..rows {
                        let index = model.get(&who).map_or(0, Vec::len);
                        let kept = Kept {
                            hub: who.0,
                            object: Some(object_of(&who)),
                            index,
                            time: None,
                        };
                        let slot = base.add(row(), kept, false);
                        model.entry(who.clone()).or_default().push(slot);
                    }
                } else if n == 23 {
                    // Every row of one hub at once.
                    let hub = rows % 3;
                    let mut removed = base.remove_hub(hub);
                    removed.sort_unstable();
                    let mut expected: Vec<usize> = Vec::new();
                    model.retain(|o, slots| {
                        if o.0 == hub {
                            expected.extend(slots.iter().copied());
                        }
                        o.0 != hub
                    });
                    expected.sort_unstable();
                    prop_assert_eq!(removed, expected);
                } else {
                    let removed = base.remove_owner(&who);
                    prop_assert_eq!(removed, model.remove(&who).unwrap_or_default());
                }
                for (o, slots) in &model {
                    prop_assert_eq!(&base.slots_of(o), slots);
                    for (i, s) in slots.iter().enumerate() {
                        prop_assert_eq!(base.owner(*s), Some((o.0, &o.1)));
                        prop_assert_eq!(base.slot(*s).map(|s| s.index as usize), Some(i));
                    }
                }
                // One entry per object held, none left behind by a removal.
                prop_assert_eq!(base.by_owner.len(), model.len());
                prop_assert_eq!(base.owners().count(), model.len());
                let owners: BTreeSet<Owner> = base.owners().map(|(h, k)| (h, k.clone())).collect();
                prop_assert_eq!(owners, model.keys().cloned().collect::<BTreeSet<_>>());
                for (o, slots) in &model {
                    let ends = slots.first().zip(slots.last()).map(|(f, l)| (*f as u32, *l as u32));
                    prop_assert_eq!(base.ends(o), ends);
                }
                let used: BTreeSet<usize> = base.slots().collect();
                let expected: BTreeSet<usize> = model.values().flatten().copied().collect();
                prop_assert_eq!(used.len(), model.values().map(Vec::len).sum::<usize>());
                prop_assert_eq!(&used, &expected);
                // Every slot is in use or free, never both and never lost.
                let free: BTreeSet<usize> = base.free.iter().copied().collect();
                prop_assert_eq!(free.len(), base.free.len());
                prop_assert!(free.is_disjoint(&used));
                prop_assert_eq!(free.len() + used.len(), base.slots.len());
            }
        }
    }
}
