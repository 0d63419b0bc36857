//! What pooldeck itself knows of a pool: what it did (its audit log), what the controller's
//! log says of it, and when pooldeck was watching at all.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::entry::{Clock, Entry, SAME_CHANGE, Source};

/// pooldeck's audit records about these objects (`ComputePool ns/name`, `AIWorkload
/// ns/name`) on the hub at `server`: one entry per request, dated when it was sent and told
/// with its outcome (or as sent, when no outcome was written).
pub fn from_audit(log: &str, server: &str, objects: &[String]) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::new();
    let mut open: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for record in log
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
    {
        let object = record["objects"][0].as_str().unwrap_or_default();
        if record["server"].as_str() != Some(server) || !objects.iter().any(|o| o == object) {
            continue;
        }
        let Some(at) = record["time"].as_str().and_then(crate::time::parse) else {
            continue;
        };
        let request = record["request"].as_str().unwrap_or_default().to_owned();
        let entry = action(&record, object, at);
        match open.get(&request) {
            // Dated when it was sent (its intent), told with its outcome.
            Some(&i) => {
                out[i] = Entry {
                    at: out[i].at,
                    ..entry
                }
            }
            None => {
                open.insert(request, out.len());
                out.push(entry);
            }
        }
    }
    out
}

fn action(record: &Value, object: &str, at: DateTime<Utc>) -> Entry {
    let text = |key: &str| record[key].as_str().unwrap_or("?").to_owned();
    let dry = if record["dryRun"] == Value::Bool(true) {
        " (dry run)"
    } else {
        ""
    };
    let outcome = match record["outcome"]["result"].as_str() {
        Some(result) => {
            let message = record["outcome"]["message"].as_str().unwrap_or_default();
            format!(
                "{result}{}",
                if message.is_empty() {
                    String::new()
                } else {
                    format!(": {message}")
                }
            )
        }
        None => "sent; no outcome recorded".to_owned(),
    };
    let line = format!(
        "{} ran {} {object}{dry}: {outcome}",
        text("user"),
        text("operation")
    );
    let detail = vec![
        format!("request: {}", text("request")),
        format!("context: {}", text("context")),
        format!("server: {}", text("server")),
        format!("kubectl: {}", text("kubectl")),
    ];
    Entry::new(at, Clock::Pooldeck, Source::Action, object)
        .says("", line)
        .with(detail)
}

/// Whether a text names `name` as a whole word (not inside a longer name).
pub fn mentions(text: &str, name: &str) -> bool {
    if name.is_empty() {
        return false;
    }
    let word = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '.';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text
            .get(at.saturating_add(name.len())..)
            .and_then(|t| t.chars().next());
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

/// The controller's log lines that name the pool, dated by the time each begins with (a
/// line without one cannot be placed and is left out). A line that names a namespace
/// (`"namespace":"…"`, as the controller writes it) must name the pool's.
pub fn from_log<'a>(
    lines: impl IntoIterator<Item = &'a str>,
    (namespace, name): (&str, &str),
) -> Vec<Entry> {
    let own = format!("\"namespace\":\"{namespace}\"");
    lines
        .into_iter()
        .filter(|line| mentions(line, name))
        .filter(|line| !line.contains("\"namespace\":\"") || line.contains(&own))
        .filter_map(|line| {
            let (stamp, rest) = line.split_once(char::is_whitespace)?;
            let at = crate::time::parse(stamp)?;
            // The server's date first (asked for), then often the controller's own: said once.
            let rest = match rest.trim_start().split_once(char::is_whitespace) {
                Some((again, after)) if crate::time::parse(again).is_some() => after,
                _ => rest,
            };
            let text = crate::inert::cut(rest.trim(), 300).into_owned();
            Some(Entry::new(at, Clock::Hub, Source::Log, "log").says("", text))
        })
        .collect()
}

/// A time pooldeck watched a hub: from, until (unknown when its session ended without
/// saying), and the namespaces it watched (none: all).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    pub from: DateTime<Utc>,
    #[serde(default)]
    pub to: Option<DateTime<Utc>>,
    #[serde(default)]
    pub namespaces: Vec<String>,
}

/// When pooldeck started watching `namespace` and each time it was not watching it since (for
/// longer than a change takes to be seen twice): a gap is said, never left as silence.
pub fn gaps(spans: &[Span], namespace: &str) -> Vec<Entry> {
    let mut spans: Vec<&Span> = spans
        .iter()
        .filter(|s| s.namespaces.is_empty() || s.namespaces.iter().any(|n| n == namespace))
        .collect();
    spans.sort_by_key(|s| s.from);
    let mark = |at, state: &str, text: &str| {
        Entry::new(at, Clock::Pooldeck, Source::Watch, "watch").says(state, text.to_owned())
    };
    let Some(first) = spans.first() else {
        return Vec::new();
    };
    let mut out = vec![mark(
        first.from,
        "watching",
        "pooldeck started watching (before this, only what the hub keeps)",
    )];
    // Until when the spans so far are known to cover; `None`: the last ended without saying.
    let mut covered = first.to;
    for span in spans.iter().skip(1) {
        match covered {
            Some(until) if span.from.signed_duration_since(until) > SAME_CHANGE => {
                let length = span
                    .from
                    .signed_duration_since(until)
                    .to_std()
                    .unwrap_or_default();
                let text = format!(
                    "not watched for {}, until {}",
                    crate::duration::format_age(length),
                    span.from.format("%Y-%m-%d %H:%M:%S")
                );
                out.push(mark(until, "gap", &text));
            }
            None => out.push(mark(
                span.from,
                "gap",
                "not watched for a while before this: the last watch ended without saying when",
            )),
            Some(_) => {}
        }
        covered = match (covered, span.to) {
            (Some(a), Some(b)) => Some(a.max(b)),
            _ => span.to,
        };
    }
    out
}
