//! What a slot keeps of its row besides the row: the filter's words, the sorted value, the cells' widths and the pool's markers; and the order they give.

use std::cmp::Ordering;

use super::Base;
use crate::app::rows::{self, Row};
use crate::domain::rules::Severity;

/// A row's words for the filter, lower case.
pub fn words_of(row: &Row) -> String {
    let mut text = String::new();
    for cell in &row.cells {
        cell.search_text(&mut text);
        text.push('\u{1f}');
    }
    text.to_lowercase()
}

impl Base {
    /// A slot's filter words; `None` until they are worked out.
    pub fn words(&self, slot: usize) -> Option<&str> {
        self.words.as_ref()?.get(slot)?.as_deref()
    }

    /// Whether the slots keep their filter words.
    pub fn has_words(&self) -> bool {
        self.words.is_some()
    }

    /// The column the slots keep sort values of.
    pub fn sorted_by(&self) -> Option<usize> {
        self.sort_keys.as_ref().map(|(c, _)| *c)
    }

    /// Starts keeping filter words (empty until [`Base::set_derived`] fills them) or stops.
    pub fn keep_words(&mut self, keep: bool) {
        self.words = keep.then(|| vec![None; self.slots.len()]);
    }

    /// Starts keeping the sort values of a column (empty until filled) or stops.
    pub fn keep_sort(&mut self, column: Option<usize>) {
        self.sort_keys = column.map(|c| (c, vec![None; self.slots.len()]));
    }

    /// Sets what is kept of a slot's row for the filter and the sort.
    pub fn set_derived(&mut self, slot: usize, row: &Row) {
        if let Some(words) = self.words.as_mut().and_then(|w| w.get_mut(slot)) {
            *words = Some(words_of(row).into_boxed_str());
        }
        if let Some((column, keys)) = self.sort_keys.as_mut()
            && let Some(key) = keys.get_mut(slot)
        {
            *key = row.cells.get(*column).filter(|c| !c.is_blank()).cloned();
        }
    }

    /// Each cell's width of a slot's row, without the rule marker, in the console's form and
    /// in its compact form (0 for a cell the row lacks, u16::MAX past the kept columns).
    pub fn widths(&self, slot: usize) -> Option<(impl Iterator<Item = (u16, u16)> + '_, bool)> {
        let slot = self.slot(slot)?;
        let columns = self.columns.len();
        let widths = (0..columns).map(|i| match (slot.widths.get(i), slot.compact.get(i)) {
            (Some(w), Some(c)) => (u16::from(*w), u16::from(*c)),
            _ => (u16::MAX, u16::MAX),
        });
        Some((widths, slot.broken || slot.worst.is_some()))
    }

    /// Whether a slot's row is a warning (the events list's `w`).
    pub fn is_warning(&self, slot: usize) -> bool {
        self.slot(slot).is_some_and(|s| s.warning)
    }

    /// A slot's markers: the rule broken and the doctor's worst.
    pub fn marks(&self, slot: usize) -> Option<(bool, Option<Severity>)> {
        self.slot(slot).map(|s| (s.broken, s.worst))
    }

    /// Sets a slot's markers (and its held row's).
    pub fn set_marks(&mut self, slot: usize, broken: bool, worst: Option<Severity>) {
        if let Some(s) = self.slots.get_mut(slot).and_then(Option::as_mut) {
            s.broken = broken;
            s.worst = worst;
        }
        if let Some(row) = self.held.get_mut(&slot) {
            row.broken = broken;
            row.worst = worst;
        }
    }

    /// How two slots order: by the sorted column's values (`column` is its index and
    /// whether descending; its values are kept while it is sorted), then by their natural
    /// order: events by when they happened, everything else by hub, then the object's
    /// namespace and name; then the row's place among its object's rows.
    pub fn compare(&self, a: usize, b: usize, column: Option<(usize, bool)>) -> Ordering {
        match (self.slot(a), self.slot(b)) {
            (Some(x), Some(y)) => column
                .map_or(Ordering::Equal, |(c, descending)| {
                    let value = |slot: usize| match &self.sort_keys {
                        Some((sorted, keys)) if *sorted == c => keys.get(slot)?.as_ref(),
                        _ => None,
                    };
                    rows::compare_values(value(a), value(b), descending)
                })
                .then_with(|| {
                    (x.time, x.hub, x.key(), x.index).cmp(&(y.time, y.hub, y.key(), y.index))
                }),
            (x, y) => x.is_some().cmp(&y.is_some()),
        }
    }
}
