//! Redaction of what leaves a hub (a support bundle, a recording): only the secret part of a
//! text is replaced, so a message still reads; a field named like a credential is masked
//! whole; each place is listed with what was there, never the value.

use regex::{Captures, Regex};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub const REDACTED: &str = "REDACTED";

/// A place something was redacted, and what kind of secret it was (never its value).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Found {
    pub place: String,
    pub what: String,
}

/// A secret's shape: the pattern and how a match is told and replaced.
struct Shape {
    pattern: Regex,
    what: Says,
    replace: Says,
}

/// The patterns a text is read with: the built-in shapes and those the user adds.
pub struct Redactor {
    shapes: Vec<Shape>,
    extra: Vec<Regex>,
    /// What the user's patterns matched, each numbered once: the same text is always the
    /// same `redacted-N`, so a name redacted stays a name (lower case) and its references
    /// still meet it.
    seen: std::sync::Mutex<std::collections::HashMap<String, usize>>,
}

/// How a match is told (what kind of secret) or replaced.
type Says = fn(&Captures) -> String;

/// Whether a word after `Bearer` or `Basic` looks like a credential rather than English
/// ("Basic checks passed"): a digit, a capital or a token character in it.
fn credential_word(word: &str) -> bool {
    word.chars()
        .any(|c| c.is_ascii_digit() || c.is_ascii_uppercase() || "+/=._~-".contains(c))
}

/// The built-in shapes: PEM blocks (keys, certificates), bearer and basic credentials,
/// credentials in a URL, JWTs, SSH public keys, and `password=…`-like assignments.
const SHAPES: &[(&str, Says, Says)] = &[
    (
        r"-----BEGIN ([A-Z0-9 ]{1,40})-----(?s:.*?)(?:-----END [A-Z0-9 ]{1,40}-----|\z)",
        |c| c[1].to_lowercase(),
        |c| {
            format!(
                "-----BEGIN {}----- {REDACTED} -----END {}-----",
                &c[1], &c[1]
            )
        },
    ),
    (
        r"(?i)\b(bearer|basic)(\s+)([A-Za-z0-9._~+/=-]{6,})",
        |c| format!("{} credentials", c[1].to_lowercase()),
        |c| {
            if credential_word(&c[3]) && &c[3] != REDACTED {
                format!("{}{}{REDACTED}", &c[1], &c[2])
            } else {
                c[0].to_owned()
            }
        },
    ),
    (
        r"(?i)\b([a-z][a-z0-9+.-]*://)([^/\s:@]*):([^/\s@]+)@",
        |_| "credentials in a URL".to_owned(),
        |c| {
            if &c[3] == REDACTED {
                c[0].to_owned()
            } else {
                format!("{}{}:{REDACTED}@", &c[1], &c[2])
            }
        },
    ),
    (
        // Tokens known by their prefix: AWS access keys, GitHub, GitLab, Slack, Google,
        // OpenAI, Hugging Face and npm tokens.
        r"\b(?:AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{35}|sk-[A-Za-z0-9_-]{20,}|hf_[A-Za-z0-9]{20,}|npm_[A-Za-z0-9]{36})",
        |_| "token".to_owned(),
        |_| REDACTED.to_owned(),
    ),
    (
        r"\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*",
        |_| "token".to_owned(),
        |_| REDACTED.to_owned(),
    ),
    (
        r"\b(ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-[a-z0-9-]+)\s+AAAA[A-Za-z0-9+/=]+(?:[ \t]+[^\s,]+)?",
        |_| "ssh key".to_owned(),
        |c| format!("{} {REDACTED}", &c[1]),
    ),
    (
        r#"(?i)\b([a-z0-9_.-]*?(password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key))(\\?["']?\s*[:=]\s*\\?["']?)([^\s"',;&}\\]+)"#,
        |c| c[2].to_lowercase(),
        |c| {
            if &c[4] == REDACTED {
                c[0].to_owned()
            } else {
                format!("{}{}{REDACTED}", &c[1], &c[3])
            }
        },
    ),
];

/// A `--redact` pattern that is not a regular expression.
#[derive(Debug, thiserror::Error)]
#[error("--redact {pattern:?} is not a pattern: {why}")]
pub struct BadPattern {
    pub pattern: String,
    pub why: String,
}

impl Redactor {
    /// The built-in shapes and the user's patterns (regular expressions; a match is replaced
    /// whole).
    pub fn new(extra: &[String]) -> Result<Redactor, BadPattern> {
        // A built-in shape that does not compile is refused, never left out: redaction
        // fails closed.
        let shapes = SHAPES
            .iter()
            .map(|(pattern, what, replace)| {
                Ok(Shape {
                    pattern: Regex::new(pattern).map_err(|e| BadPattern {
                        pattern: (*pattern).to_owned(),
                        why: format!("a built-in pattern: {e}"),
                    })?,
                    what: *what,
                    replace: *replace,
                })
            })
            .collect::<Result<_, BadPattern>>()?;
        let extra = extra
            .iter()
            .map(|p| {
                let pattern = Regex::new(p).map_err(|e| BadPattern {
                    pattern: p.clone(),
                    why: e.to_string(),
                })?;
                if pattern.is_match("") {
                    return Err(BadPattern {
                        pattern: p.clone(),
                        why: "it matches an empty text, so everywhere".to_owned(),
                    });
                }
                Ok(pattern)
            })
            .collect::<Result<_, _>>()?;
        Ok(Redactor {
            shapes,
            extra,
            seen: std::sync::Mutex::default(),
        })
    }

    /// The text with each secret part replaced, and what each was; `None` when nothing was.
    pub fn text(&self, text: &str) -> Option<(String, Vec<String>)> {
        let mut found = Vec::new();
        let mut out = std::borrow::Cow::Borrowed(text);
        for shape in &self.shapes {
            if !shape.pattern.is_match(&out) {
                continue;
            }
            let replaced = shape.pattern.replace_all(&out, |c: &Captures| {
                let replacement = (shape.replace)(c);
                if replacement != c[0] {
                    found.push((shape.what)(c));
                }
                replacement
            });
            out = std::borrow::Cow::Owned(replaced.into_owned());
        }
        for (n, pattern) in self.extra.iter().enumerate() {
            let replaced = pattern.replace_all(&out, |c: &Captures| {
                found.push(format!("--redact pattern {}", n.saturating_add(1)));
                let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
                let next = seen.len().saturating_add(1);
                format!("redacted-{}", seen.entry(c[0].to_owned()).or_insert(next))
            });
            out = std::borrow::Cow::Owned(replaced.into_owned());
        }
        (!found.is_empty()).then(|| (out.into_owned(), found))
    }

    /// An object made safe to hand over: managedFields dropped, a field named like a
    /// credential (a last-applied configuration too) masked whole, every text read; each
    /// place noted, prefixed with `at`.
    pub fn object(&self, object: &mut Value, at: &str, found: &mut Vec<Found>) {
        crate::json::drop_managed_fields(object);
        self.value(object, &mut at.to_owned(), found);
    }

    fn value(&self, value: &mut Value, path: &mut String, found: &mut Vec<Found>) {
        match value {
            Value::Object(map) => self.map(map, path, found),
            Value::Array(items) if path.ends_with(".sshKeys") => ssh_keys(items, path, found),
            Value::Array(items) => {
                for (i, item) in items.iter_mut().enumerate() {
                    let len = path.len();
                    path.push_str(&format!("[{i}]"));
                    self.value(item, path, found);
                    path.truncate(len);
                }
            }
            Value::String(text) => {
                if let Some((safe, whats)) = self.text(text) {
                    *text = safe;
                    found.extend(whats.into_iter().map(|what| Found {
                        place: path.clone(),
                        what,
                    }));
                }
            }
            _ => {}
        }
    }

    fn map(&self, map: &mut Map<String, Value>, path: &mut String, found: &mut Vec<Found>) {
        // A variable named like a credential (`{name: DB_PASSWORD, value: …}`): its value
        // goes whole.
        let named = map
            .get("name")
            .and_then(Value::as_str)
            .is_some_and(crate::json::credential_like);
        if named
            && let Some(value) = map.get_mut("value")
            && value.as_str().is_some_and(|v| v != REDACTED)
        {
            *value = Value::from(REDACTED);
            found.push(Found {
                place: format!("{path}.value"),
                what: "a value named like a credential".to_owned(),
            });
        }
        // A key can hold a secret too (an annotation named with a token): renamed.
        let keys: Vec<(String, String)> = map
            .keys()
            .filter_map(|k| self.text(k).map(|(safe, _)| (k.clone(), safe)))
            .collect();
        for (key, safe) in keys {
            if let Some(child) = map.shift_remove(&key) {
                found.push(Found {
                    place: format!("{path}[{safe:?}]"),
                    what: "a key holding a secret".to_owned(),
                });
                map.insert(safe, child);
            }
        }
        for (key, child) in map.iter_mut() {
            let len = path.len();
            if key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                path.push('.');
                path.push_str(key);
            } else {
                path.push_str(&format!("[{key:?}]"));
            }
            if crate::json::credential_like(key) && !child.is_null() && child != REDACTED {
                *child = Value::from(REDACTED);
                found.push(Found {
                    place: path.clone(),
                    what: "a field named like a credential".to_owned(),
                });
            } else {
                self.value(child, path, found);
            }
            path.truncate(len);
        }
    }
}

/// SSH keys are never kept, whatever their shape: their type at most.
fn ssh_keys(items: &mut [Value], path: &str, found: &mut Vec<Found>) {
    for (i, item) in items.iter_mut().enumerate() {
        let kind = item.as_str().and_then(|k| k.split_whitespace().next());
        let kind = kind.filter(|k| k.starts_with("ssh-") || k.starts_with("ecdsa-"));
        let masked = kind.map_or(REDACTED.to_owned(), |k| format!("{k} {REDACTED}"));
        if item.as_str() != Some(masked.as_str()) {
            *item = Value::from(masked);
            found.push(Found {
                place: format!("{path}[{i}]"),
                what: "ssh key".to_owned(),
            });
        }
    }
}

#[cfg(test)]
#[path = "redact_tests.rs"]
mod tests;
