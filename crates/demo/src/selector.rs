//! Label and field selectors as the API server reads them from `labelSelector` and
//! `fieldSelector`, and matching them against objects.

use serde_json::Value;

/// A label selector as the API server reads `labelSelector`: pooldeck's one parser (the same
/// that `pooldeck get -l` and the console's `/ -l` use), so kubectl against the demo and
/// pooldeck refuse a selector with the same words.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LabelSelector(pooldeck_domain::selector::LabelSelector);

/// Splits on commas that are not inside parentheses.
fn split_top_level(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect()
}

impl LabelSelector {
    pub fn parse(text: &str) -> Result<LabelSelector, String> {
        pooldeck_domain::selector::LabelSelector::parse(text)
            .map(LabelSelector)
            .map_err(|e| e.to_string())
    }

    pub fn matches(&self, object: &Value) -> bool {
        let labels = object.pointer("/metadata/labels");
        self.0
            .matches(|key| labels.and_then(|l| l.get(key)).and_then(Value::as_str))
    }
}

/// A parsed field selector over the fields the server supports for a resource.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FieldSelector(Vec<(String, bool, String)>);

/// Fields every resource can be selected on, and the extra ones events allow.
const COMMON_FIELDS: &[&str] = &["metadata.name", "metadata.namespace"];
const EVENT_FIELDS: &[&str] = &[
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

impl FieldSelector {
    pub fn parse(text: &str, is_event: bool) -> Result<FieldSelector, String> {
        let mut terms = Vec::new();
        for part in split_top_level(text) {
            let (field, equal, value) = if let Some((f, v)) = part.split_once("!=") {
                (f, false, v)
            } else if let Some((f, v)) = part.split_once("==") {
                (f, true, v)
            } else if let Some((f, v)) = part.split_once('=') {
                (f, true, v)
            } else {
                return Err(format!(
                    "invalid selector: '{part}'; can't understand '{part}'"
                ));
            };
            let field = field.trim();
            let supported =
                COMMON_FIELDS.contains(&field) || (is_event && EVENT_FIELDS.contains(&field));
            if !supported {
                return Err(format!("field label not supported: {field}"));
            }
            terms.push((field.to_owned(), equal, value.trim().to_owned()));
        }
        Ok(FieldSelector(terms))
    }

    pub fn matches(&self, object: &Value) -> bool {
        self.0.iter().all(|(field, equal, value)| {
            let pointer = if field == "source" {
                "/source/component".to_owned()
            } else {
                format!("/{}", field.replace('.', "/"))
            };
            let actual = object
                .pointer(&pointer)
                .and_then(Value::as_str)
                .unwrap_or("");
            (actual == value) == *equal
        })
    }

    /// The name this selector pins, if it pins one (`metadata.name=x`), for watch by name.
    pub fn name(&self) -> Option<&str> {
        self.0
            .iter()
            .find(|(field, equal, _)| field == "metadata.name" && *equal)
            .map(|(_, _, value)| value.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn label_selectors() {
        let object = json!({"metadata": {"labels": {"team": "ml", "env": "prod"}}});
        for (selector, expected) in [
            ("", true),
            ("team=ml", true),
            ("team==ml,env=prod", true),
            ("team!=ml", false),
            ("team in (ml, ops)", true),
            ("env notin (prod)", false),
            ("team", true),
            ("!paused", true),
            ("!team", false),
        ] {
            let parsed = LabelSelector::parse(selector).expect(selector);
            assert_eq!(parsed.matches(&object), expected, "{selector}");
        }
        assert!(LabelSelector::parse("team in ml").is_err());
    }

    #[test]
    fn field_selectors() {
        let event = json!({"metadata": {"name": "e1", "namespace": "ns"}, "involvedObject": {"name": "pool-a", "kind": "ComputePool"}, "type": "Warning"});
        let selector =
            FieldSelector::parse("involvedObject.name=pool-a,type!=Normal", true).expect("parses");
        assert!(selector.matches(&event));
        assert!(FieldSelector::parse("involvedObject.name=x", false).is_err());
        assert_eq!(
            FieldSelector::parse("metadata.name=a", false)
                .expect("parses")
                .name(),
            Some("a")
        );
    }
}
