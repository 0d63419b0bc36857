//! The live filter of a list: which rows it keeps, from their words (lower case, made when
//! the rows are built) or, for `-l`, a label selector on the objects' labels (the parser
//! `pooldeck get -l` and the API server's use).

use crate::app::rows::{Cell, Row, Status};
use crate::domain::selector::LabelSelector;

/// Whether a row passes the warnings toggle (the TYPE column, when given) and the filter.
pub(super) fn keeps(filter: &Filter, warnings: Option<usize>, row: &Row, words: &str) -> bool {
    warnings.is_none_or(|column| {
        matches!(
            row.cells.get(column),
            Some(Cell::Status(Status::Event { warning: true, .. }))
        )
    }) && filter.keeps(row, words)
}

/// The live filter: nothing, `-l SELECTOR` on the objects' labels (kubectl's selectors:
/// `team=retail,tier in (gpu)`, `!owner`), `!text` to invert, or a substring of the row's
/// words (without regard to case).
pub(super) enum Filter {
    All,
    Label(LabelSelector),
    Words { needle: String, invert: bool },
}

impl Filter {
    /// The filter as typed, or why `-l` is not a label selector it can use.
    pub(super) fn parse(filter: &str) -> Result<Filter, String> {
        if filter.is_empty() {
            return Ok(Filter::All);
        }
        if let Some(selector) = filter.strip_prefix("-l").map(str::trim) {
            if selector.is_empty() {
                return Err(
                    "-l: give a label selector, as in -l team or -l team=retail-edge".to_owned(),
                );
            }
            return LabelSelector::parse(selector)
                .map(Filter::Label)
                .map_err(|e| format!("-l {selector}: {e}"));
        }
        Ok(match filter.strip_prefix('!') {
            Some(rest) => Filter::Words {
                needle: rest.to_lowercase(),
                invert: true,
            },
            None => Filter::Words {
                needle: filter.to_lowercase(),
                invert: false,
            },
        })
    }

    pub(super) fn keeps(&self, row: &Row, words: &str) -> bool {
        match self {
            Filter::All => true,
            Filter::Label(selector) => selector.matches(|key| row.object.label(key)),
            Filter::Words { needle, invert } => words.contains(needle.as_str()) != *invert,
        }
    }
}
