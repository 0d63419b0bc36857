//! How a wizard field's value is written as text and read back: counts, one item per line
//! (SSH keys), `key=value` per line (labels, annotations, resource groups, as `kubectl label`
//! writes them), and `key=value:Effect` per line (taints, as `kubectl taint` writes them).
//!
//! Reading keeps what the rules should judge (a count that is not a number stays text, so the
//! rule says what is wrong); only text that has no shape at all (a label line with no `=`) is
//! refused, with the line named, and the field keeps its text for fixing.

use serde_json::{Map, Value, json};

use super::draft::Entry;

/// Why typed text cannot be a field's value; `line` counts from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("line {line}: write key=value (\"{text}\" has no =)")]
    NoEquals { line: usize, text: String },
    #[error("line {line}: the key before = is empty")]
    EmptyKey { line: usize },
    #[error("line {line}: write key=value:Effect, for example gpu=true:NoSchedule")]
    NoTaintKey { line: usize },
    #[error("a pool needs a namespace (its Project's)")]
    NoNamespace,
    /// A namespace name Kubernetes refuses, with the rule it breaks.
    #[error("{0}")]
    NamespaceName(String),
}

fn scalar(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// The text an editor starts from.
pub fn text_of(entry: Entry, value: Option<&Value>) -> String {
    let Some(value) = value else {
        return String::new();
    };
    match (entry, value) {
        (Entry::Lines, Value::Array(items)) => {
            items.iter().map(scalar).collect::<Vec<_>>().join("\n")
        }
        (Entry::Pairs { hidden }, Value::Object(map)) => map
            .iter()
            .filter(|(k, _)| !hidden.contains(&k.as_str()))
            .map(|(k, v)| format!("{k}={}", scalar(v)))
            .collect::<Vec<_>>()
            .join("\n"),
        (Entry::Taints, Value::Array(items)) => items
            .iter()
            .map(|t| {
                let key = t.get("key").map(scalar).unwrap_or_default();
                let value = t.get("value").map(scalar).unwrap_or_default();
                let effect = t.get("effect").map(scalar).unwrap_or_default();
                match (value.is_empty(), effect.is_empty()) {
                    (true, true) => key,
                    (true, false) => format!("{key}:{effect}"),
                    (false, true) => format!("{key}={value}"),
                    (false, false) => format!("{key}={value}:{effect}"),
                }
            })
            .collect::<Vec<_>>()
            .join("\n"),
        (_, other) => scalar(other),
    }
}

/// One line for the field list: a list or mapping summed up, a scalar as it is.
pub fn summary(entry: Entry, value: Option<&Value>) -> String {
    match (entry, value) {
        (Entry::Lines | Entry::Pairs { .. } | Entry::Taints, Some(_)) => {
            let text = text_of(entry, value);
            let items: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
            match items.len() {
                0 => String::new(),
                1 if items[0].chars().count() <= 48 => items[0].to_owned(),
                n => {
                    let first: String = items[0].chars().take(36).collect();
                    let more = if items[0].chars().count() > 36 {
                        "…"
                    } else {
                        ""
                    };
                    format!("{first}{more} (+{} more)", n.saturating_sub(1))
                        .replace(" (+0 more)", "")
                }
            }
        }
        (_, value) => value.map(scalar).unwrap_or_default(),
    }
}

/// What typed text becomes in the object; `Ok(None)` removes the field. `current` is the
/// field's value before (a mapping keeps its hidden key from it).
pub fn read(entry: Entry, text: &str, current: Option<&Value>) -> Result<Option<Value>, Refused> {
    match entry {
        Entry::Lines => {
            let items: Vec<Value> = lines(text).map(|(_, l)| json!(l)).collect();
            Ok((!items.is_empty()).then(|| Value::Array(items)))
        }
        Entry::Pairs { hidden } => read_pairs(text, hidden, current),
        Entry::Taints => read_taints(text),
        Entry::Namespace => {
            let text = text.trim();
            if text.is_empty() {
                return Err(Refused::NoNamespace);
            }
            match crate::rules::names::namespace_problem(text) {
                Some(problem) => Err(Refused::NamespaceName(problem)),
                None => Ok(Some(json!(text))),
            }
        }
        Entry::Count => {
            let text = text.trim();
            Ok((!text.is_empty()).then(|| {
                text.parse::<u64>()
                    .map(|n| json!(n))
                    .unwrap_or_else(|_| json!(text))
            }))
        }
        _ => {
            let text = text.trim();
            Ok((!text.is_empty()).then(|| json!(text)))
        }
    }
}

/// The lines of typed text that are not blank, trimmed, with their index.
fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .map(str::trim)
        .enumerate()
        .filter(|(_, l)| !l.is_empty())
}

/// `key=value` lines as a mapping, keeping the `hidden` keys `current` had.
fn read_pairs(
    text: &str,
    hidden: &[&str],
    current: Option<&Value>,
) -> Result<Option<Value>, Refused> {
    let mut map = Map::new();
    for hidden in hidden {
        if let Some(kept) = current.and_then(|c| c.get(*hidden)) {
            map.insert((*hidden).to_owned(), kept.clone());
        }
    }
    for (number, line) in lines(text) {
        let Some((key, value)) = line.split_once('=') else {
            return Err(Refused::NoEquals {
                line: number.saturating_add(1),
                text: line.to_owned(),
            });
        };
        let key = key.trim();
        if key.is_empty() {
            return Err(Refused::EmptyKey {
                line: number.saturating_add(1),
            });
        }
        map.insert(key.to_owned(), json!(value.trim()));
    }
    Ok((!map.is_empty()).then(|| Value::Object(map)))
}

/// `key[=value][:effect]` lines as a list of taints.
fn read_taints(text: &str) -> Result<Option<Value>, Refused> {
    let mut items = Vec::new();
    for (number, line) in lines(text) {
        let (rest, effect) = match line.rsplit_once(':') {
            Some((rest, effect)) => (rest, Some(effect.trim())),
            None => (line, None),
        };
        let (key, value) = match rest.split_once('=') {
            Some((key, value)) => (key.trim(), Some(value.trim())),
            None => (rest.trim(), None),
        };
        if key.is_empty() {
            return Err(Refused::NoTaintKey {
                line: number.saturating_add(1),
            });
        }
        let mut taint = Map::new();
        taint.insert("key".into(), json!(key));
        if let Some(value) = value {
            taint.insert("value".into(), json!(value));
        }
        if let Some(effect) = effect {
            taint.insert("effect".into(), json!(effect));
        }
        items.push(Value::Object(taint));
    }
    Ok((!items.is_empty()).then(|| Value::Array(items)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const PAIRS: Entry = Entry::Pairs { hidden: &[] };

    #[test]
    fn labels_are_key_equals_value_lines() {
        let read = read(PAIRS, "team=ml\n\n env = prod \n", None).unwrap();
        assert_eq!(read, Some(json!({"team": "ml", "env": "prod"})));
        assert_eq!(text_of(PAIRS, read.as_ref()), "team=ml\nenv=prod");
        let refused = super::read(PAIRS, "team=ml\nbroken", None)
            .unwrap_err()
            .to_string();
        assert!(
            refused.contains("line 2") && refused.contains("broken"),
            "{refused}"
        );
    }

    #[test]
    fn a_hidden_key_is_neither_shown_nor_lost() {
        let entry = Entry::Pairs {
            hidden: &["spectrocloud.com/description"],
        };
        let current = json!({"spectrocloud.com/description": "GPU pool", "owner": "ops"});
        assert_eq!(text_of(entry, Some(&current)), "owner=ops");
        let kept = read(entry, "owner=ml\n", Some(&current)).unwrap().unwrap();
        assert_eq!(kept["spectrocloud.com/description"], "GPU pool");
        assert_eq!(kept["owner"], "ml");
    }

    #[test]
    fn taints_read_as_kubectl_writes_them() {
        let read = read(
            Entry::Taints,
            "workload-type=gpu-intensive:NoSchedule\ndedicated:NoExecute",
            None,
        )
        .unwrap();
        assert_eq!(
            read,
            Some(json!([
                {"key": "workload-type", "value": "gpu-intensive", "effect": "NoSchedule"},
                {"key": "dedicated", "effect": "NoExecute"}
            ]))
        );
        assert_eq!(
            text_of(Entry::Taints, read.as_ref()),
            "workload-type=gpu-intensive:NoSchedule\ndedicated:NoExecute"
        );
    }

    #[test]
    fn a_count_that_is_not_a_number_stays_text_for_the_rules() {
        assert_eq!(read(Entry::Count, " 4 ", None).unwrap(), Some(json!(4)));
        assert_eq!(
            read(Entry::Count, "four", None).unwrap(),
            Some(json!("four"))
        );
        assert_eq!(read(Entry::Count, "  ", None).unwrap(), None);
    }

    #[test]
    fn a_long_list_is_summed_up_on_one_line() {
        let keys = json!([
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPooldeckExampleKeyOnly ops@example.com",
            "ssh-rsa B x"
        ]);
        let line = summary(Entry::Lines, Some(&keys));
        assert!(line.ends_with("… (+1 more)"), "{line}");
        assert!(!line.contains('\n'));
    }

    proptest! {
        /// Labels written as text read back as the same mapping.
        #[test]
        fn pairs_round_trip(map in proptest::collection::btree_map("[a-z][a-z0-9./-]{0,12}", "[A-Za-z0-9 _.-]{0,12}", 0..6)) {
            let value = Value::Object(map.iter().map(|(k, v)| (k.clone(), json!(v.trim()))).collect());
            let text = text_of(PAIRS, Some(&value));
            let back = read(PAIRS, &text, None).unwrap();
            prop_assert_eq!(back.unwrap_or(json!({})), value);
        }

        /// Taints written as text read back as the same list.
        #[test]
        fn taints_round_trip(taints in proptest::collection::vec(("[a-z][a-z0-9-]{0,8}", "[a-z0-9-]{1,8}", prop::sample::select(vec!["NoSchedule", "PreferNoSchedule", "NoExecute"])), 0..5)) {
            let value = Value::Array(taints.iter().map(|(k, v, e)| json!({"key": k, "value": v, "effect": e})).collect());
            let text = text_of(Entry::Taints, Some(&value));
            let back = read(Entry::Taints, &text, None).unwrap();
            prop_assert_eq!(back.unwrap_or(json!([])), value);
        }
    }
}
