//! kubectl's JSONPath: the template of `-o jsonpath=` (text, `{.a.b}`, `{range .items[*]}` …
//! `{end}`, `{"\n"}`) and the paths of `--sort-by` and of printer columns: `.a.b`, `.a[0]`,
//! `.a[-1]`, `.a[*]`, `.a.*`, `..name` (anywhere below), `.a\.b` (a dot inside a key) and
//! filters `[?(@.type=="Ready")]`, `[?(@.x!="y")]`, `[?(@.x)]`.
//! Several results print separated by a space, text as itself and anything else as compact
//! JSON, as kubectl prints them.

mod template;

use serde_json::Value;

pub use self::template::Template;

/// Why a path or a template cannot be read or applied, said as kubectl says it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error("an empty path")]
    EmptyPath,
    #[error("a name is needed after '{after}' in {path}")]
    NameNeeded { after: &'static str, path: String },
    #[error("unclosed '[' in {0}")]
    UnclosedBracket(String),
    #[error("unexpected '{found}' in {path}")]
    Unexpected { found: char, path: String },
    #[error("cannot read [{within}] in {path}")]
    Bracket { within: String, path: String },
    #[error("a filter starts with @ in {0}")]
    FilterStart(String),
    #[error("cannot read the value {0}")]
    Literal(String),
    #[error("array index out of bounds: index {index}, length {length}")]
    OutOfBounds { index: i64, length: usize },
    #[error("the template is empty")]
    EmptyTemplate,
    #[error("unclosed action in the template: {{{0}")]
    UnclosedAction(String),
    #[error("{{end}} without a {{range}} before it")]
    EndWithoutRange,
    #[error("a {{range}} is not closed by {{end}}")]
    RangeNotClosed,
}

/// One step of a path.
#[derive(Clone, Debug, PartialEq)]
enum Step {
    Field(String),
    /// `..name`: the field wherever it is below.
    Anywhere(String),
    Index(i64),
    All,
    Filter(Filter),
}

#[derive(Clone, Debug, PartialEq)]
struct Filter {
    path: Vec<Step>,
    test: Test,
}

#[derive(Clone, Debug, PartialEq)]
enum Test {
    Exists,
    Equals(Value),
    NotEquals(Value),
}

/// A parsed path.
#[derive(Clone, Debug, PartialEq)]
pub struct Path(Vec<Step>);

fn key_char_end(c: char) -> bool {
    matches!(c, '.' | '[')
}

impl Path {
    /// Reads a path, with or without the braces `--sort-by` allows (`{.metadata.name}`).
    pub fn parse(text: &str) -> Result<Path, Error> {
        let trimmed = text.trim();
        let inner = trimmed
            .strip_prefix('{')
            .and_then(|t| t.strip_suffix('}'))
            .unwrap_or(trimmed)
            .trim();
        if inner.is_empty() {
            return Err(Error::EmptyPath);
        }
        let chars: Vec<char> = inner.chars().collect();
        let mut steps = Vec::new();
        let mut i = 0;
        // A path may start without its leading dot (`metadata.name`), as kubectl allows.
        if chars
            .first()
            .is_some_and(|c| *c != '.' && *c != '[' && *c != '@' && *c != '$')
        {
            let (key, next) = read_key(&chars, 0);
            steps.push(Step::Field(key));
            i = next;
        }
        if chars.get(i).is_some_and(|c| *c == '$' || *c == '@') {
            i = i.saturating_add(1);
        }
        while i < chars.len() {
            match chars[i] {
                '.' if chars.get(i.saturating_add(1)) == Some(&'.') => {
                    let (key, next) = read_key(&chars, i.saturating_add(2));
                    if key.is_empty() {
                        return Err(Error::NameNeeded {
                            after: "..",
                            path: inner.to_owned(),
                        });
                    }
                    steps.push(Step::Anywhere(key));
                    i = next;
                }
                '.' => {
                    let (key, next) = read_key(&chars, i.saturating_add(1));
                    match key.as_str() {
                        "" => {
                            return Err(Error::NameNeeded {
                                after: ".",
                                path: inner.to_owned(),
                            });
                        }
                        "*" => steps.push(Step::All),
                        _ => steps.push(Step::Field(key)),
                    }
                    i = next;
                }
                '[' => {
                    let close = closing_bracket(&chars, i)
                        .ok_or_else(|| Error::UnclosedBracket(inner.to_owned()))?;
                    let within: String = chars[i.saturating_add(1)..close].iter().collect();
                    steps.push(bracket(within.trim(), inner)?);
                    i = close.saturating_add(1);
                }
                c => {
                    return Err(Error::Unexpected {
                        found: c,
                        path: inner.to_owned(),
                    });
                }
            }
        }
        Ok(Path(steps))
    }

    /// Every value the path selects in `value`, in order.
    pub fn select<'v>(&self, value: &'v Value) -> Vec<&'v Value> {
        select(&self.0, value)
    }
}

/// A key up to the next `.` or `[`, with `\.` for a dot inside it.
fn read_key(chars: &[char], mut i: usize) -> (String, usize) {
    let mut key = String::new();
    while i < chars.len() && !key_char_end(chars[i]) {
        if chars[i] == '\\' && i.saturating_add(1) < chars.len() {
            i = i.saturating_add(1);
        }
        key.push(chars[i]);
        i = i.saturating_add(1);
    }
    (key, i)
}

/// The `]` closing the `[` at `open`, skipping quoted text.
fn closing_bracket(chars: &[char], open: usize) -> Option<usize> {
    let mut quote: Option<char> = None;
    let mut depth = 0usize;
    for (i, c) in chars.iter().enumerate().skip(open) {
        match (quote, *c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(*c),
            (None, '[') => depth = depth.saturating_add(1),
            (None, ']') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

fn bracket(within: &str, whole: &str) -> Result<Step, Error> {
    if within == "*" {
        return Ok(Step::All);
    }
    if let Ok(index) = within.parse::<i64>() {
        return Ok(Step::Index(index));
    }
    if let Some(key) = within
        .strip_prefix('\'')
        .and_then(|k| k.strip_suffix('\''))
        .or_else(|| within.strip_prefix('"').and_then(|k| k.strip_suffix('"')))
    {
        return Ok(Step::Field(key.to_owned()));
    }
    let Some(filter) = within
        .strip_prefix("?(")
        .and_then(|f| f.strip_suffix(')'))
        .map(str::trim)
    else {
        return Err(Error::Bracket {
            within: within.to_owned(),
            path: whole.to_owned(),
        });
    };
    let (left, test) = if let Some((l, r)) = filter.split_once("!=") {
        (l, Test::NotEquals(literal(r.trim())?))
    } else if let Some((l, r)) = filter.split_once("==") {
        (l, Test::Equals(literal(r.trim())?))
    } else {
        (filter, Test::Exists)
    };
    let left = left.trim();
    let Some(relative) = left.strip_prefix('@') else {
        return Err(Error::FilterStart(whole.to_owned()));
    };
    let path = if relative.is_empty() {
        Path(Vec::new())
    } else {
        Path::parse(relative)?
    };
    Ok(Step::Filter(Filter { path: path.0, test }))
}

/// A literal in a filter: a quoted string, or a number, true, false or null.
fn literal(text: &str) -> Result<Value, Error> {
    if let Some(s) = text
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .or_else(|| text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')))
    {
        return Ok(Value::String(s.to_owned()));
    }
    serde_json::from_str(text).map_err(|_| Error::Literal(text.to_owned()))
}

fn select<'v>(steps: &[Step], value: &'v Value) -> Vec<&'v Value> {
    walk(steps, value, false).unwrap_or_default()
}

/// The values the steps select; `strict`: an index past the end of a list is an error, as
/// kubectl's template makes it (a missing field is not: it prints nothing).
fn walk<'v>(steps: &[Step], value: &'v Value, strict: bool) -> Result<Vec<&'v Value>, Error> {
    let mut current = vec![value];
    for step in steps {
        let mut next = Vec::new();
        for value in current {
            match step {
                Step::Field(key) => next.extend(value.get(key.as_str())),
                Step::Anywhere(key) => anywhere(value, key, &mut next, 0),
                Step::Index(index) => {
                    if let Value::Array(items) = value {
                        let at = if *index < 0 {
                            usize::try_from(index.unsigned_abs())
                                .ok()
                                .and_then(|back| items.len().checked_sub(back))
                        } else {
                            usize::try_from(*index).ok()
                        };
                        match at.and_then(|at| items.get(at)) {
                            Some(item) => next.push(item),
                            None if strict => {
                                return Err(Error::OutOfBounds {
                                    index: *index,
                                    length: items.len(),
                                });
                            }
                            None => {}
                        }
                    }
                }
                Step::All => match value {
                    Value::Array(items) => next.extend(items.iter()),
                    Value::Object(map) => next.extend(map.values()),
                    _ => {}
                },
                Step::Filter(filter) => {
                    let items: Vec<&Value> = match value {
                        Value::Array(items) => items.iter().collect(),
                        Value::Object(map) => map.values().collect(),
                        _ => Vec::new(),
                    };
                    next.extend(items.into_iter().filter(|item| {
                        let found = select(&filter.path, item);
                        match &filter.test {
                            Test::Exists => !found.is_empty(),
                            Test::Equals(expected) => found.contains(&expected),
                            Test::NotEquals(expected) => {
                                !found.is_empty() && found.iter().all(|v| *v != expected)
                            }
                        }
                    }));
                }
            }
        }
        current = next;
    }
    Ok(current)
}

fn anywhere<'v>(value: &'v Value, key: &str, out: &mut Vec<&'v Value>, depth: usize) {
    if depth > 64 {
        return;
    }
    match value {
        Value::Object(map) => {
            if let Some(found) = map.get(key) {
                out.push(found);
            }
            for child in map.values() {
                anywhere(child, key, out, depth.saturating_add(1));
            }
        }
        Value::Array(items) => {
            for child in items {
                anywhere(child, key, out, depth.saturating_add(1));
            }
        }
        _ => {}
    }
}

/// A value as kubectl's template prints it: text as itself, anything else as compact JSON
/// with its keys in order (as Go writes a map).
pub fn shown(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => sorted(other, 0).to_string(),
    }
}

fn sorted(value: &Value, depth: usize) -> Value {
    match value {
        Value::Object(map) if depth < 64 => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), sorted(&map[k], depth.saturating_add(1))))
                    .collect(),
            )
        }
        Value::Array(items) if depth < 64 => Value::Array(
            items
                .iter()
                .map(|v| sorted(v, depth.saturating_add(1)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Text between expressions, with the escapes kubectl's template reads (`\n`, `\t`).
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some(other) => out.push(other),
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn list() -> Value {
        json!({"kind": "List", "items": [
            {"metadata": {"name": "a", "labels": {"controller.spectrocloud.com/pause": "true"}},
             "status": {"status": "Running", "conditions": [
                {"type": "Ready", "status": "True"}, {"type": "Validated", "status": "False"}]}},
            {"metadata": {"name": "b"}, "status": {"status": "Failed", "conditions": []}}
        ]})
    }

    #[test]
    fn templates_print_as_kubectl_prints_them() {
        let cases = [
            ("{.items[*].metadata.name}", "a b"),
            ("{.items[0].metadata.name}", "a"),
            ("{.items[-1].metadata.name}", "b"),
            (
                "{range .items[*]}{.metadata.name}{\"\\t\"}{.status.status}{\"\\n\"}{end}",
                "a\tRunning\nb\tFailed\n",
            ),
            ("{range .items[*]}{.metadata.name}:{end}", "a:b:"),
            (
                "{.items[0].status.conditions[?(@.type==\"Ready\")].status}",
                "True",
            ),
            (
                "{.items[0].status.conditions[?(@.status!=\"True\")].type}",
                "Validated",
            ),
            ("{.items[?(@.metadata.labels)].metadata.name}", "a"),
            (
                "{.items[0].metadata.labels.controller\\.spectrocloud\\.com/pause}",
                "true",
            ),
            ("{..name}", "a b"),
            ("names: {.items[*].metadata.name}\\n", "names: a b\n"),
            (
                "{.items[0].status.conditions[0]}",
                r#"{"status":"True","type":"Ready"}"#,
            ),
        ];
        for (template, printed) in cases {
            let parsed = Template::parse(template).unwrap_or_else(|e| panic!("{template}: {e}"));
            assert_eq!(parsed.render(&list()).as_deref(), Ok(printed), "{template}");
        }
    }

    /// As kubectl: an index past the end is an error (a script gets a failure, not an empty
    /// string); a missing field prints nothing.
    #[test]
    fn an_index_past_the_end_is_an_error_and_a_missing_field_is_empty() {
        let past = Template::parse("{.items[5].metadata.name}").expect("parses");
        assert_eq!(
            past.render(&list()),
            Err(Error::OutOfBounds {
                index: 5,
                length: 2
            })
        );
        let back = Template::parse("{.items[-3].metadata.name}").expect("parses");
        assert!(back.render(&list()).is_err());
        let missing = Template::parse("{.items[0].metadata.nothing}").expect("parses");
        assert_eq!(missing.render(&list()).as_deref(), Ok(""));
    }

    #[test]
    fn a_malformed_template_is_refused() {
        for bad in [
            "{.items",
            "{range .items[*]}{.a}",
            "{end}",
            "{.items[?(x==1)]}",
            "{.a..}",
            "{.items[}",
        ] {
            assert!(Template::parse(bad).is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn sort_paths_take_braces_or_not() {
        let object =
            json!({"metadata": {"name": "x", "creationTimestamp": "2026-01-01T00:00:00Z"}});
        for path in [".metadata.name", "{.metadata.name}", "metadata.name"] {
            let parsed = Path::parse(path).expect(path);
            assert_eq!(parsed.select(&object), [&json!("x")], "{path}");
        }
    }
}
