//! Field selectors as kubectl's `--field-selector` and the API server's `fieldSelector` read
//! them: `field=value`, `field==value` and `field!=value`, joined by commas; a backslash
//! escapes `\`, `,` and `=` in a value, and an unescaped `=` or `,` in a value is refused (so
//! `metadata.name==x==` is an error, as from a real server). Which fields a kind can be
//! selected on is the server's to say: [`FieldSelector::supported`] checks them against the
//! list a caller gives. One parser for `pooldeck get` and the demo cluster.

use std::fmt;

/// One term: a field, whether it must equal or differ from the value, and the value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    pub field: String,
    pub equals: bool,
    pub value: String,
}

/// A parsed field selector; the empty one matches everything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FieldSelector(pub Vec<Term>);

/// Why a field selector cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldSelectorError {
    /// A term without an operator, or an empty field.
    NotUnderstood { selector: String, term: String },
    /// A value holding an unescaped `=` or `,`, or ending in a lone `\`.
    Unescaped { selector: String, character: char },
    /// A field the kind cannot be selected on.
    NotSupported(String),
}

impl fmt::Display for FieldSelectorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldSelectorError::NotUnderstood { selector, term } => {
                write!(
                    f,
                    "invalid field selector '{selector}': cannot understand '{term}'"
                )
            }
            FieldSelectorError::Unescaped {
                selector,
                character,
            } => write!(
                f,
                "invalid field selector '{selector}': a value holds an unescaped '{character}' \
                 (write \\{character})"
            ),
            FieldSelectorError::NotSupported(field) => {
                write!(f, "field label not supported: {field}")
            }
        }
    }
}

impl std::error::Error for FieldSelectorError {}

/// The terms of a selector, split on the commas a backslash does not escape.
fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut escaped = false;
    for c in text.chars() {
        if escaped {
            current.push('\\');
            current.push(c);
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == ',' {
            out.push(std::mem::take(&mut current));
        } else {
            current.push(c);
        }
    }
    if escaped {
        current.push('\\');
    }
    out.push(current);
    out
}

/// A value with its escapes taken out; an unescaped `=` or `,` is refused.
fn unescape(value: &str) -> Result<String, char> {
    let mut out = String::new();
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(next @ ('\\' | ',' | '=')) => out.push(next),
                Some(other) => return Err(other),
                None => return Err('\\'),
            },
            '=' | ',' => return Err(c),
            c => out.push(c),
        }
    }
    Ok(out)
}

impl FieldSelector {
    pub fn parse(text: &str) -> Result<FieldSelector, FieldSelectorError> {
        let mut out = Vec::new();
        let text_trimmed = text.trim();
        if text_trimmed.is_empty() {
            return Ok(FieldSelector::default());
        }
        // An empty term (`type=Warning,`) is skipped, as the API server skips it.
        for term in terms(text_trimmed)
            .into_iter()
            .filter(|t| !t.trim().is_empty())
        {
            let not_understood = || FieldSelectorError::NotUnderstood {
                selector: text.to_owned(),
                term: term.clone(),
            };
            // The first operator from the left: `!=`, then `==`, then `=`.
            let found = term.char_indices().find_map(|(i, _)| {
                let rest = &term[i..];
                ["!=", "==", "="]
                    .into_iter()
                    .find(|op| rest.starts_with(op))
                    .map(|op| (i, op))
            });
            let Some((at, op)) = found else {
                return Err(not_understood());
            };
            let field = term[..at].trim();
            if field.is_empty() {
                return Err(not_understood());
            }
            let raw = &term[at.saturating_add(op.len())..];
            let value = unescape(raw).map_err(|character| FieldSelectorError::Unescaped {
                selector: text.to_owned(),
                character,
            })?;
            out.push(Term {
                field: field.to_owned(),
                equals: op != "!=",
                value,
            });
        }
        Ok(FieldSelector(out))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The first field not among `fields` (what a kind can be selected on), refused in the
    /// server's words.
    pub fn supported(&self, fields: &[&str]) -> Result<(), FieldSelectorError> {
        match self.0.iter().find(|t| !fields.contains(&t.field.as_str())) {
            Some(term) => Err(FieldSelectorError::NotSupported(term.field.clone())),
            None => Ok(()),
        }
    }

    /// Whether an object's fields match (an absent field reads as empty, as the server reads
    /// it).
    pub fn matches(&self, field: impl Fn(&str) -> Option<String>) -> bool {
        self.0.iter().all(|term| {
            let value = field(&term.field).unwrap_or_default();
            (value == term.value) == term.equals
        })
    }
}

/// The fields every namespaced object can be selected on.
pub const OBJECT_FIELDS: &[&str] = &["metadata.name", "metadata.namespace"];

/// The fields an Event can be selected on.
pub const EVENT_FIELDS: &[&str] = &[
    "metadata.name",
    "metadata.namespace",
    "involvedObject.kind",
    "involvedObject.namespace",
    "involvedObject.name",
    "involvedObject.uid",
    "involvedObject.apiVersion",
    "involvedObject.resourceVersion",
    "involvedObject.fieldPath",
    "reason",
    "reportingComponent",
    "source",
    "type",
];

/// A field of an object as JSON, by its dotted name (`source` is the event's component).
pub fn field_of(object: &serde_json::Value, field: &str) -> Option<String> {
    let pointer = match field {
        "source" => "/source/component".to_owned(),
        other => format!("/{}", other.replace('.', "/")),
    };
    match object.pointer(&pointer)? {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Null => None,
        other => Some(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn terms_operators_and_escapes() {
        let s = FieldSelector::parse("metadata.name=a,type!=Normal,reason==X").expect("parses");
        assert_eq!(s.0.len(), 3);
        assert!(s.0[0].equals && !s.0[1].equals && s.0[2].equals);
        let escaped = FieldSelector::parse(r"metadata.name=a\,b\=c\\d").expect("parses");
        assert_eq!(escaped.0[0].value, r"a,b=c\d");
        assert!(FieldSelector::parse("").expect("empty").is_empty());
        assert!(
            FieldSelector::parse("metadata.name=").is_ok(),
            "an empty value"
        );
    }

    /// What a real API server answers 400 for is refused here too.
    #[test]
    fn malformed_selectors_are_refused() {
        assert_eq!(
            FieldSelector::parse("type=Warning,")
                .expect("parses")
                .0
                .len(),
            1,
            "an empty term skipped, as the server skips it"
        );
        for bad in [
            "metadata.name==x==",
            "metadata.name",
            "=x",
            "a=b=c",
            r"a=b\",
        ] {
            assert!(FieldSelector::parse(bad).is_err(), "{bad}");
        }
        let said = FieldSelector::parse("metadata.name==x==")
            .expect_err("refused")
            .to_string();
        assert!(said.contains("unescaped '='"), "{said}");
        let s = FieldSelector::parse("spec.vip=1").expect("parses");
        assert_eq!(
            s.supported(OBJECT_FIELDS).expect_err("no").to_string(),
            "field label not supported: spec.vip"
        );
    }

    #[test]
    fn matching_reads_absent_fields_as_empty() {
        let event =
            json!({"metadata": {"name": "e"}, "type": "Warning", "source": {"component": "hue"}});
        let field = |f: &str| field_of(&event, f);
        assert!(
            FieldSelector::parse("type=Warning")
                .expect("p")
                .matches(field)
        );
        assert!(
            !FieldSelector::parse("type!=Warning")
                .expect("p")
                .matches(field)
        );
        assert!(FieldSelector::parse("reason=").expect("p").matches(field));
        assert!(
            FieldSelector::parse("source=hue")
                .expect("p")
                .matches(field)
        );
        assert!(
            FieldSelector::parse("reason!=X,metadata.name=e")
                .expect("p")
                .matches(field)
        );
    }
}
