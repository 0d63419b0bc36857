//! The live filter of a list: which rows it keeps, from their words (lower case, made when
//! the rows are built) or, for `-l`, a pool's labels.

use crate::app::rows::{self, Cell, Row, Status};

/// Whether a row passes the warnings toggle (the TYPE column, when given) and the filter.
pub(super) fn keeps(filter: &Filter, warnings: Option<usize>, row: &Row, words: &str) -> bool {
    warnings.is_none_or(|column| {
        matches!(
            row.cells.get(column),
            Some(Cell::Status(Status::Event { warning: true, .. }))
        )
    }) && filter.keeps(row, words)
}

/// The live filter: nothing, `-l key[=value]` on a pool's labels, `!text` to invert, or a
/// substring of the row's words (without regard to case).
pub(super) enum Filter<'f> {
    All,
    Label { key: &'f str, value: &'f str },
    Words { needle: String, invert: bool },
}

impl<'f> Filter<'f> {
    /// The filter as typed, or why `-l` is not a label selector it can use.
    pub(super) fn parse(filter: &'f str) -> Result<Filter<'f>, String> {
        if filter.is_empty() {
            return Ok(Filter::All);
        }
        if let Some(selector) = filter.strip_prefix("-l").map(str::trim) {
            let (key, value) = selector.split_once('=').unwrap_or((selector, ""));
            if key.is_empty() {
                return Err(format!(
                    "-l {selector}: give a label key, as in -l team or -l team=retail-edge"
                ));
            }
            if let Some(why) = crate::domain::rules::names::qualified_key(key) {
                return Err(format!("-l {selector}: the label key \"{key}\" {why}"));
            }
            if let Some(why) = crate::domain::rules::names::label_value(value) {
                return Err(format!("-l {selector}: the value \"{value}\" {why}"));
            }
            return Ok(Filter::Label { key, value });
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
            Filter::Label { key, value } => {
                let label = match &row.object {
                    rows::Source::Object(object) => object
                        .pool()
                        .and_then(|p| p.meta())
                        .and_then(|m| m.label(key)),
                    rows::Source::Host { .. } | rows::Source::Value(_) => None,
                };
                label.is_some_and(|actual| value.is_empty() || actual == *value)
            }
            Filter::Words { needle, invert } => words.contains(needle.as_str()) != *invert,
        }
    }
}
