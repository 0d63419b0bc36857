//! The live filter of a list: which rows it keeps, from their words (lower case, kept per
//! row while a filter reads them) or, for `-l`, a label selector on the objects' labels (the parser
//! `pooldeck get -l` and the API server's use).

use crate::domain::selector::LabelSelector;

/// Why `-l` in a filter is not a label selector it can use.
#[derive(Debug, thiserror::Error)]
pub(super) enum FilterError {
    #[error("-l: give a label selector, as in -l team or -l team=retail-edge")]
    NoSelector,
    #[error("-l {selector}: {why}")]
    Selector {
        selector: String,
        why: crate::domain::selector::SelectorError,
    },
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
    pub(super) fn parse(filter: &str) -> Result<Filter, FilterError> {
        if filter.is_empty() {
            return Ok(Filter::All);
        }
        if let Some(selector) = filter.strip_prefix("-l").map(str::trim) {
            if selector.is_empty() {
                return Err(FilterError::NoSelector);
            }
            return LabelSelector::parse(selector)
                .map(Filter::Label)
                .map_err(|why| FilterError::Selector {
                    selector: selector.to_owned(),
                    why,
                });
        }
        Ok(match filter.strip_prefix('!') {
            // `!` alone, the inverted text still to come: nothing is left out yet.
            Some("") => Filter::All,
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

    /// Whether the filter reads the rows' words (kept per row while it does).
    pub(super) fn reads_words(&self) -> bool {
        matches!(self, Filter::Words { .. })
    }

    /// Whether a row passes: by its words (lower case; a row whose words are not worked out
    /// yet passes no words filter) or its object's labels.
    pub(super) fn keeps<'l>(
        &self,
        words: Option<&str>,
        label: impl Fn(&str) -> Option<&'l str>,
    ) -> bool {
        match self {
            Filter::All => true,
            Filter::Label(selector) => selector.matches(label),
            Filter::Words { needle, invert } => {
                words.is_some_and(|w| w.contains(needle.as_str()) != *invert)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Filter;

    /// `!` alone (the text to leave out not typed yet) leaves nothing out; `!x` leaves out
    /// the rows with x; a row whose words are not known yet passes no words filter.
    #[test]
    fn an_inverted_filter_without_text_keeps_every_row() {
        let keeps = |filter: &str, words: Option<&str>| {
            Filter::parse(filter)
                .expect("a filter")
                .keeps(words, |_| None)
        };
        assert!(keeps("!", Some("pool-a\u{1f}running")));
        assert!(!keeps("!run", Some("pool-a\u{1f}running")));
        assert!(keeps("!run", Some("pool-b\u{1f}failed")));
        assert!(!keeps("!run", None) && !keeps("run", None));
    }
}
