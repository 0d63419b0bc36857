//! The current view's rows, held per object so that a change to one object replaces only
//! that object's rows: each row sits in a slot with its filter words, its cell widths and its
//! place in the view's natural order, and the slots of each object are known by its key.

use std::cmp::Ordering;
use std::collections::HashMap;

use chrono::{DateTime, Utc};

use crate::app::rows::{self, Column, Row};
use crate::inventory::Key;

/// Where a row stands when no column is sorted: events by when they happened, everything
/// else by its hub, then its object's namespace and name; then the row's place among its
/// object's rows.
pub type Natural = (Option<DateTime<Utc>>, usize, Key, usize);

/// An object whose rows a view shows: its hub (an index of the console's hubs) and key.
pub type Owner = (usize, Key);

#[derive(Clone, Debug)]
struct Slot {
    row: Row,
    /// The row's words, lower case, for the filter: made when the row is built, so a
    /// keystroke only searches them.
    words: String,
    /// Each cell's width as drawn (without the rule marker).
    widths: Vec<u16>,
    natural: Natural,
}

#[derive(Clone, Debug, Default)]
pub struct Base {
    pub columns: Vec<Column>,
    slots: Vec<Option<Slot>>,
    free: Vec<usize>,
    /// The slots of each object's rows.
    by_owner: HashMap<Owner, Vec<usize>>,
}

impl Base {
    /// Every row in use, with its slot.
    pub fn slots(&self) -> impl Iterator<Item = usize> + '_ {
        self.slots
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.as_ref().map(|_| i))
    }

    /// The slots of one object's rows.
    pub fn slots_of(&self, owner: &Owner) -> &[usize] {
        self.by_owner.get(owner).map_or(&[], Vec::as_slice)
    }

    pub fn row(&self, slot: usize) -> Option<&Row> {
        Some(&self.slots.get(slot)?.as_ref()?.row)
    }

    pub fn row_mut(&mut self, slot: usize) -> Option<&mut Row> {
        Some(&mut self.slots.get_mut(slot)?.as_mut()?.row)
    }

    pub fn words(&self, slot: usize) -> &str {
        self.slot(slot).map_or("", |s| s.words.as_str())
    }

    pub fn widths(&self, slot: usize) -> &[u16] {
        self.slot(slot).map_or(&[], |s| s.widths.as_slice())
    }

    fn slot(&self, slot: usize) -> Option<&Slot> {
        self.slots.get(slot)?.as_ref()
    }

    /// Puts a row in a free slot and returns it.
    pub fn add(&mut self, row: Row, natural: Natural) -> usize {
        let words = words(&row);
        let widths = row
            .cells
            .iter()
            .map(|c| u16::try_from(c.width()).unwrap_or(u16::MAX))
            .collect();
        let owner = (natural.1, natural.2.clone());
        let slot = Slot {
            row,
            words,
            widths,
            natural,
        };
        let index = match self.free.pop() {
            Some(i) => {
                self.slots[i] = Some(slot);
                i
            }
            None => {
                self.slots.push(Some(slot));
                self.slots.len() - 1
            }
        };
        self.by_owner.entry(owner).or_default().push(index);
        index
    }

    /// Room for `rows` more rows.
    pub fn reserve(&mut self, rows: usize) {
        self.slots.reserve(rows);
        self.by_owner.reserve(rows);
    }

    /// Takes out every row of one hub; returns the slots they held.
    pub fn remove_hub(&mut self, hub: usize) -> Vec<usize> {
        let owners: Vec<Owner> = self
            .by_owner
            .keys()
            .filter(|(h, _)| *h == hub)
            .cloned()
            .collect();
        owners.iter().flat_map(|o| self.remove_owner(o)).collect()
    }

    /// Takes out every row of one object; returns the slots they held.
    pub fn remove_owner(&mut self, owner: &Owner) -> Vec<usize> {
        let slots = self.by_owner.remove(owner).unwrap_or_default();
        for i in &slots {
            if let Some(slot) = self.slots.get_mut(*i) {
                *slot = None;
                self.free.push(*i);
            }
        }
        slots
    }

    /// How two slots order: by a column's values (`column` is its index and whether
    /// descending) when one is sorted, then by their natural order.
    pub fn compare(&self, a: usize, b: usize, column: Option<(usize, bool)>) -> Ordering {
        match (self.slot(a), self.slot(b)) {
            (Some(x), Some(y)) => column
                .map_or(Ordering::Equal, |(c, descending)| {
                    rows::compare_by(&x.row, &y.row, c, descending)
                })
                .then_with(|| x.natural.cmp(&y.natural)),
            (x, y) => x.is_some().cmp(&y.is_some()),
        }
    }
}

/// A row's words for the filter, lower case.
fn words(row: &Row) -> String {
    let mut text = String::new();
    for cell in &row.cells {
        cell.search_text(&mut text);
        text.push('\u{1f}');
    }
    text.to_lowercase()
}
