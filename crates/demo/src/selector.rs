//! Label and field selectors as the API server reads them from `labelSelector` and
//! `fieldSelector`, and matching them against objects.

use serde_json::Value;

/// A label selector as the API server reads `labelSelector`: pooldeck's one parser (the same
/// that `pooldeck get -l` and the console's `/ -l` use), so kubectl against the demo and
/// pooldeck refuse a selector with the same words.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LabelSelector(pooldeck_domain::selector::LabelSelector);

impl LabelSelector {
    pub fn parse(text: &str) -> Result<LabelSelector, pooldeck_domain::selector::SelectorError> {
        pooldeck_domain::selector::LabelSelector::parse(text).map(LabelSelector)
    }

    pub fn matches(&self, object: &Value) -> bool {
        let labels = object.pointer("/metadata/labels");
        self.0
            .matches(|key| labels.and_then(|l| l.get(key)).and_then(Value::as_str))
    }
}

/// A parsed field selector over the fields the server supports for a resource: the domain's
/// parser (the one `pooldeck get` uses), so what a real server answers 400 for (a malformed
/// selector, `metadata.name==x==`, or a field it does not select on) is refused here too.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FieldSelector(pooldeck_domain::field_selector::FieldSelector);

impl FieldSelector {
    pub fn parse(
        text: &str,
        is_event: bool,
    ) -> Result<FieldSelector, pooldeck_domain::field_selector::FieldSelectorError> {
        use pooldeck_domain::field_selector::{self as fields, FieldSelector as Parsed};
        let parsed = Parsed::parse(text)?;
        parsed.supported(if is_event {
            fields::EVENT_FIELDS
        } else {
            fields::OBJECT_FIELDS
        })?;
        Ok(FieldSelector(parsed))
    }

    pub fn matches(&self, object: &Value) -> bool {
        self.0
            .matches(|field| pooldeck_domain::field_selector::field_of(object, field))
    }

    /// The name this selector pins, if it pins one (`metadata.name=x`), for watch by name.
    pub fn name(&self) -> Option<&str> {
        self.0
            .0
            .iter()
            .find(|term| term.field == "metadata.name" && term.equals)
            .map(|term| term.value.as_str())
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
        // What a real server answers 400 for.
        assert!(FieldSelector::parse("metadata.name==x==", false).is_err());
        assert!(FieldSelector::parse("metadata.name", false).is_err());
    }
}
