//! A draft as it is kept on disk: the manifest itself (so any manifest reader reads it),
//! after one comment line that says what it is for: a new pool or an edit, the hub (context)
//! it was written on, its namespace and name, the resourceVersion an edit started from, and
//! the field being typed with its text, kept or not. The comment is one line of JSON with every character outside ASCII escaped,
//! so no text typed can end it or start a YAML line of its own.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Draft;

/// Why a saved draft cannot be read back.
#[derive(Debug, thiserror::Error)]
pub enum Unreadable {
    #[error("it holds no ComputePool")]
    NoPool,
    #[error("its first line is not pooldeck's: {0}")]
    Header(serde_json::Error),
}

/// What a draft is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Aim {
    New,
    Edit,
}

impl Aim {
    pub fn word(self) -> &'static str {
        match self {
            Aim::New => "new",
            Aim::Edit => "edit",
        }
    }
}

/// The comment line's fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Header {
    aim: Aim,
    /// The kubeconfig context it was written on ("" when not known).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    context: String,
    namespace: String,
    name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    resource_version: Option<String>,
    /// A new pool with no name yet: when it was started, which keeps such drafts apart.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    started: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    typing: Option<Typing>,
}

/// The field being typed when the draft was saved, and its text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Typing {
    /// The field's path, as the wizard writes paths.
    pub path: String,
    pub text: String,
    /// The field's value before the typing began (Esc puts it back, after a resume too).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<Value>,
}

/// A draft on disk as the console knows it: its file, what it holds, when it was saved.
#[derive(Clone, Debug, PartialEq)]
pub struct Kept {
    pub file: String,
    pub saved: Saved,
    pub at: Option<chrono::DateTime<chrono::Utc>>,
}

/// A draft with what it is for.
#[derive(Clone, Debug, PartialEq)]
pub struct Saved {
    pub aim: Aim,
    /// The kubeconfig context it was written on ("" when not known): a draft is offered on
    /// that hub only.
    pub context: String,
    /// For an edit: the live resourceVersion it started from.
    pub resource_version: Option<String>,
    /// A new pool's start time (`20261201T141800`), for one with no name yet.
    pub started: String,
    pub typing: Option<Typing>,
    pub draft: Draft,
}

/// The marker the comment line starts with.
const MARK: &str = "# pooldeck draft: ";

impl Saved {
    pub fn namespace(&self) -> &str {
        self.draft.namespace()
    }

    /// The pool's name ("" while a new pool has none).
    pub fn name(&self) -> &str {
        self.draft
            .pool
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    /// The name as the lists say it: the pool's, or `unnamed-<started>` while it has none.
    fn shown_name(&self) -> String {
        match self.name().trim() {
            "" => format!("unnamed-{}", self.started),
            name => name.to_owned(),
        }
    }

    /// What names the draft for `--resume` and the lists: `namespace/name`, or
    /// `namespace/unnamed-<started>` for a new pool with no name yet.
    pub fn id(&self) -> String {
        format!("{}/{}", self.namespace(), self.shown_name())
    }

    /// Its file's name: a new pool's draft per namespace, name and start (two drafts of the
    /// same name never share a file), an edit's per hub (its context), namespace and pool
    /// (the same pool on two hubs keeps two drafts); only letters, digits and `-` (anything
    /// else becomes `_`), so no name can leave the drafts directory.
    pub fn file_name(&self) -> String {
        // A part kept as it is when it can be; otherwise its first letters and a hash of it
        // whole, so two names that differ only after the cut (or in what was replaced)
        // never share a file.
        let safe = |text: &str| -> String {
            let plain: String = text
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '-' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            if plain == text && plain.len() <= 63 {
                return plain;
            }
            let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
            });
            let head: String = plain.chars().take(46).collect();
            format!("{head}-{hash:016x}")
        };
        let name = self.shown_name();
        match self.aim {
            Aim::New if !self.name().trim().is_empty() && !self.started.is_empty() => format!(
                "{}.{}.{}.new.yaml",
                safe(self.namespace()),
                safe(&name),
                safe(&self.started)
            ),
            Aim::Edit if !self.context.is_empty() => format!(
                "{}.{}.{}.{}.yaml",
                safe(self.namespace()),
                safe(&name),
                safe(&self.context),
                Aim::Edit.word()
            ),
            aim => format!(
                "{}.{}.{}.yaml",
                safe(self.namespace()),
                safe(&name),
                aim.word()
            ),
        }
    }

    /// The file's text: the comment line, then the manifest.
    pub fn to_text(&self) -> String {
        let header = Header {
            aim: self.aim,
            context: self.context.clone(),
            namespace: self.namespace().to_owned(),
            name: self.name().to_owned(),
            resource_version: self.resource_version.clone(),
            started: self.started.clone(),
            typing: self.typing.clone(),
        };
        let json = serde_json::to_string(&header).unwrap_or_default();
        let mut line = String::with_capacity(json.len());
        for c in json.chars() {
            if c.is_ascii() && !c.is_ascii_control() {
                line.push(c);
            } else {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    line.push_str(&format!("\\u{unit:04x}"));
                }
            }
        }
        format!("{MARK}{line}\n{}", self.draft.to_yaml())
    }

    /// A draft read back: the comment line (absent in a draft an older pooldeck wrote: then a
    /// new pool, or an edit when it carries a uid) and the objects the manifest holds.
    pub fn from_parts(text: &str, objects: &[Value]) -> Result<Saved, Unreadable> {
        let draft = Draft::from_objects(objects).ok_or(Unreadable::NoPool)?;
        let header = text
            .lines()
            .next()
            .and_then(|line| line.strip_prefix(MARK))
            .map(|json| serde_json::from_str::<Header>(json).map_err(Unreadable::Header))
            .transpose()?;
        Ok(match header {
            Some(header) => Saved {
                aim: header.aim,
                context: header.context,
                resource_version: header.resource_version,
                started: header.started,
                typing: header.typing,
                draft,
            },
            None => Saved {
                context: String::new(),
                aim: if draft.pool.pointer("/metadata/uid").is_some() {
                    Aim::Edit
                } else {
                    Aim::New
                },
                resource_version: draft
                    .pool
                    .pointer("/metadata/resourceVersion")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
                started: String::new(),
                typing: None,
                draft,
            },
        })
    }
}

/// Why a draft could not be kept on disk, kept typed for the footer's next step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotKept {
    /// The drafts directory cannot be used (no state directory, a link, not a directory).
    Directory(crate::error::DirError),
    /// The draft's file could not be written.
    Written(crate::error::WriteError),
    /// A file the draft was kept in before could not be removed.
    Removed(Unremoved),
}

/// Why a draft's file could not be removed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unremoved {
    #[error("{file} is not a draft's file name")]
    NotAFileName { file: String },
    #[error("cannot remove the draft {}: {detail}", path.display())]
    Refused {
        path: std::path::PathBuf,
        detail: String,
    },
}

impl std::fmt::Display for NotKept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotKept::Directory(why) => write!(f, "{why}"),
            NotKept::Removed(why) => write!(f, "{why}"),
            NotKept::Written(error) => write!(f, "{error}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::path::YamlPath;
    use serde_json::json;

    fn objects(text: &str) -> Vec<Value> {
        crate::manifest::parse(text)
            .expect("parses")
            .iter()
            .map(|d| d.root.to_json())
            .collect()
    }

    #[test]
    fn a_draft_comes_back_with_what_it_is_for_and_the_text_being_typed() {
        let mut draft = Draft::new("ml-research");
        draft.set(&YamlPath::keys("metadata.name"), Some(json!("gpu-lab-01")));
        let saved = Saved {
            aim: Aim::Edit,
            context: "hub-a".into(),
            resource_version: Some("1234".into()),
            started: String::new(),
            // A line break, a YAML document marker and text outside ASCII: all inert.
            typing: Some(Typing {
                path: "metadata.annotations['spectrocloud.com/description']".into(),
                text: "two A100\n---\nkind: Secret \u{2028} é".into(),
                before: Some(json!("two")),
            }),
            draft,
        };
        let text = saved.to_text();
        assert_eq!(text.lines().filter(|l| l.starts_with('#')).count(), 1);
        assert!(text.lines().next().is_some_and(str::is_ascii));
        let back = Saved::from_parts(&text, &objects(&text)).expect("read back");
        assert_eq!(back, saved);
        assert_eq!(saved.id(), "ml-research/gpu-lab-01");
        assert_eq!(saved.file_name(), "ml-research.gpu-lab-01.hub-a.edit.yaml");
        // The same pool's edit on another hub keeps its own file.
        let other = Saved {
            context: "hub-b".into(),
            ..saved.clone()
        };
        assert_ne!(other.file_name(), saved.file_name());
    }

    #[test]
    fn names_stay_in_the_directory_and_unnamed_drafts_apart() {
        let mut draft = Draft::new("../../etc");
        let mut saved = Saved {
            aim: Aim::New,
            context: String::new(),
            resource_version: None,
            started: "20261201T141800".into(),
            typing: None,
            draft: draft.clone(),
        };
        let file = saved.file_name();
        assert!(file.starts_with("______etc-"), "{file}");
        assert!(
            file.ends_with(".unnamed-20261201T141800.new.yaml"),
            "{file}"
        );
        assert_eq!(saved.id(), "../../etc/unnamed-20261201T141800");
        draft.set(&YamlPath::keys("metadata.name"), Some(json!("a/b")));
        saved.draft = draft;
        assert!(!saved.file_name().contains('/'));
        // Named: the start stays in the file's name, so another draft of that name is safe.
        let file = saved.file_name();
        assert!(file.contains(".a_b-"), "{file}");
        assert!(file.ends_with(".20261201T141800.new.yaml"), "{file}");
        // Names alike up to the cut, or alike once replaced, keep their own files.
        let named = |name: &str| {
            let mut draft = Draft::new("ml");
            draft.set(&YamlPath::keys("metadata.name"), Some(json!(name)));
            Saved {
                aim: Aim::Edit,
                context: String::new(),
                resource_version: None,
                started: String::new(),
                typing: None,
                draft,
            }
            .file_name()
        };
        let long = "a".repeat(63);
        assert_ne!(named(&format!("{long}-one")), named(&format!("{long}-two")));
        assert_ne!(named("a.b"), named("a_b"));
        assert_eq!(named("gpu-lab-01"), "ml.gpu-lab-01.edit.yaml");
        // A draft an older pooldeck wrote (no comment line): read as what it holds.
        let plain = "apiVersion: spectrocloud.com/v1alpha1\nkind: ComputePool\nmetadata: {name: p, namespace: n}\n";
        let back = Saved::from_parts(plain, &objects(plain)).expect("read");
        assert_eq!(back.aim, Aim::New);
    }
}
