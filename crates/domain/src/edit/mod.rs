//! A pool edited as YAML in the user's editor (`pooldeck edit pool NAME`, the console's `E`),
//! in kubectl edit's manner: the live pool is written to a private file under a comment header;
//! what the editor saves is read back and checked with the same rules as `validate` and the
//! wizard; an edit with errors goes back into the file with its findings in the header, and the
//! editor opens again; an edit that passes becomes a plan (its changes, place by place, and a
//! replace naming the resourceVersion it was read at) behind the usual confirmation, dry run
//! first. An emptied or unchanged file sends nothing. Pure: the callers write the file and run
//! the editor.

use serde_json::Value;

use crate::draft::diff::{self, Change};
use crate::fixes::{Fix, Permission, Plan};
use crate::inert;
use crate::json::text_at;
use crate::kind::Kind;
use crate::object::ObjectRef;
use crate::operation::{Operation, Run};

mod check;
pub use check::check;

/// What every line pooldeck writes into the file starts with: such lines are its own, and go
/// when it writes the file again (the user's own comments stay).
const MARK: &str = "# pooldeck:";

/// How the header names the version an edit was made on.
const VERSION: &str = "resourceVersion";

/// Whether a kept edit (a file left by an earlier session) was made on the pool as it is now:
/// its header names the same resourceVersion and uid. An edit made on an older version is
/// not reopened as if it were this one's (its replace would undo what changed since).
pub fn made_on(kept: &str, live: &Value) -> bool {
    let Some(header) = kept
        .lines()
        .find(|l| l.starts_with(MARK) && l.contains(" editing ComputePool "))
    else {
        return false;
    };
    let version = text_at(live, "/metadata/resourceVersion");
    let uid = text_at(live, "/metadata/uid");
    !version.is_empty() && header.ends_with(&format!("({VERSION} {version}, uid {uid})"))
}

/// The text the editor opens first: the header saying what this is and how it ends, then the
/// pool as YAML.
pub fn opening(target: &ObjectRef, context: &str, live: &Value, yaml: &str) -> String {
    let mut out = String::new();
    for line in [
        format!(
            "editing ComputePool {}/{} on context {} ({VERSION} {}, uid {})",
            target.namespace,
            target.name,
            inert::line(context),
            inert::line(text_at(live, "/metadata/resourceVersion")),
            inert::line(text_at(live, "/metadata/uid"))
        ),
        "save and quit to check it with the configuration reference's rules; an error brings"
            .to_owned(),
        "you back here with what is wrong. Nothing is sent before a confirmation and a dry run."
            .to_owned(),
        "An unchanged or emptied file sends nothing. Lines starting with # are ignored.".to_owned(),
    ] {
        out.push_str(MARK);
        out.push(' ');
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(yaml);
    out
}

/// One thing that keeps an edit from being sent, at a line of the edit (pooldeck's own header
/// lines not counted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub line: u32,
    /// "error [rule]: message".
    pub text: String,
}

/// The text without pooldeck's header lines: what the user wrote, their comments included.
fn body(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines().filter(|l| !l.starts_with(MARK)) {
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The file again, with the problems that keep it from being sent at the top (what pooldeck
/// wrote there before is replaced; the rest, the user's comments included, is kept as saved),
/// each at its line in the file as written.
pub fn with_findings(text: &str, problems: &[Problem]) -> String {
    // The line naming the pool and the version the edit was made on stays on top.
    let naming = text
        .lines()
        .find(|l| l.starts_with(MARK) && l.contains(" editing ComputePool "));
    let mut out = String::new();
    if let Some(naming) = naming {
        out.push_str(naming);
        out.push('\n');
    }
    out.push_str(MARK);
    out.push_str(" the edit was NOT sent: fix what follows and save again, or empty the file to\n");
    out.push_str(MARK);
    out.push_str(" give up.\n");
    for line in in_file(problems, naming.is_some()) {
        out.push_str(MARK);
        out.push_str("   ");
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(&body(text));
    out
}

/// The problems as the file written back shows them, "line N: ...", N counted in that file
/// (its header included): the same words the command line prints.
pub fn in_file(problems: &[Problem], naming: bool) -> Vec<String> {
    let header = u32::try_from(problems.len())
        .unwrap_or(u32::MAX)
        .saturating_add(2)
        .saturating_add(u32::from(naming));
    problems
        .iter()
        .map(|problem| {
            format!(
                "line {}: {}",
                problem.line.saturating_add(header),
                inert::line(&problem.text)
            )
        })
        .collect()
}

/// How many times the editor opens on an edit that keeps failing the rules before pooldeck
/// stops (the edit kept): an editor that is a script, or stdin from nowhere, is no person
/// who will fix it.
pub const MOST_ROUNDS: usize = 20;

impl Problem {
    /// "line 12: error [rule]: message", the line counted in the edit itself.
    pub fn line(&self) -> String {
        format!("line {}: {}", self.line, self.text)
    }
}

/// What the saved file amounts to.
#[derive(Clone, Debug, PartialEq)]
pub enum Checked {
    /// Nothing but comments and blank lines: the user gave up.
    Emptied,
    /// The same pool as it was given (comments aside): nothing to send.
    Unchanged,
    /// What keeps it from being sent.
    Invalid(Vec<Problem>),
    /// It may be sent: the object, what it changes, and the warnings that do not block it.
    Valid {
        object: Value,
        changes: Vec<Change>,
        warnings: Vec<String>,
    },
}

/// The plan that sends an edit: a replace of the version it was read at, its changes listed;
/// an edit that takes something away (a worker pool, a field) asks for the pool's name typed.
pub fn plan(live: &Value, object: Value, changes: &[Change], warnings: &[String]) -> Plan {
    let text = |pointer: &str| text_at(live, pointer).to_owned();
    let (namespace, name) = (text("/metadata/namespace"), text("/metadata/name"));
    let resource_version = text("/metadata/resourceVersion");
    let target = ObjectRef::new(Kind::Pool, namespace.clone(), name.clone());
    // What the server owns is sent as it was read: the edit's own changes to it do not count
    // (and are not shown among the changes).
    let mut object = object;
    for path in diff::SERVER_OWNED {
        let pointer = format!("/{}", path.replace('.', "/"));
        let (parent, key) = pointer.rsplit_once('/').unwrap_or(("", ""));
        let was = live.pointer(&pointer).cloned();
        if let Some(map) = object.pointer_mut(parent).and_then(Value::as_object_mut) {
            match was {
                Some(was) => {
                    map.insert(key.to_owned(), was);
                }
                None => {
                    map.remove(key);
                }
            }
        }
    }
    // Something taken away: a field removed or emptied (set to null), or a finalizer changed.
    let removes = changes.iter().any(|c| {
        c.draft.is_none()
            || c.draft.as_deref() == Some("null")
            || c.path.starts_with("metadata.finalizers")
    });
    let unversioned = resource_version.is_empty();
    let mut explanation = vec![
        format!(
            "Replaces the pool with the edit, naming the resourceVersion it was read at \
             ({resource_version}): a pool changed since is refused, not overwritten."
        ),
        "status and the fields the server owns are sent as they were read.".to_owned(),
    ];
    if removes {
        explanation.push("The edit takes something away: type the pool's name.".to_owned());
    }
    explanation.extend(warnings.iter().map(|w| format!("Not blocking: {w}")));
    let mut impact = vec![format!(
        "{} changed:",
        crate::words::counted(changes.len(), "place")
    )];
    impact.extend(changes.iter().map(Change::line));
    Plan {
        fix: Fix::Edit,
        title: format!("Apply the edit of Compute Pool {name}"),
        explanation,
        targets: vec![format!("{namespace}/{name}")],
        impact,
        operations: vec![Operation::Update {
            target,
            object,
            resource_version,
            run: Run::Real,
        }],
        type_to_confirm: removes.then_some(name),
        acknowledge: None,
        permissions: vec![Permission {
            verb: "update",
            kind: Kind::Pool,
            namespace,
        }],
        // Never a replace of whatever is there: without the version read, nothing is sent.
        blocked: unversioned.then(|| {
            "the pool was read without a resourceVersion, so the edit cannot name the version \
             it was made on: nothing can be sent"
                .to_owned()
        }),
    }
}

/// The file an edit is kept in (in pooldeck's private edits directory) while it is under way,
/// and after a session that dropped: one per hub (its context, server, user and kubeconfig)
/// and pool; the readable part may be shared by names that differ only in odd characters, the
/// fingerprint of all of them is not.
pub fn file_name(hub: &crate::Hub, target: &ObjectRef) -> String {
    let context = hub.context.as_str();
    let safe = |text: &str| -> String {
        text.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    // FNV-1a over every part, each ended by a NUL (no part holds one).
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in [
        context,
        hub.server.as_str(),
        hub.user.as_str(),
        hub.kubeconfig.as_deref().unwrap_or(""),
        target.namespace.as_str(),
        target.name.as_str(),
    ] {
        for byte in part.bytes().chain([0]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!(
        "{}--{}--{}--{hash:016x}.yaml",
        safe(context),
        safe(&target.namespace),
        safe(&target.name)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Fleet;
    use serde_json::json;

    const SINGLE: &str = include_str!("../../../../demo/manifests/single-node.yaml");

    /// A clean pool as the hub sends it: a resourceVersion and a status.
    fn live() -> Value {
        let mut value = crate::manifest::parse(SINGLE).expect("example")[0]
            .root
            .to_json();
        value["metadata"]["resourceVersion"] = json!("7");
        value["status"] = json!({"status": "Running"});
        value
    }

    fn yaml(value: &Value) -> String {
        serde_saphyr::to_string(value).expect("yaml")
    }

    #[test]
    fn unchanged_emptied_and_only_server_fields_send_nothing() {
        let fleet = Fleet::new(Vec::new());
        let text = yaml(&live());
        let target = ObjectRef::new(Kind::Pool, "retail-east", "edge-single");
        let opened = opening(&target, "hub", &live(), &text);
        assert!(made_on(&opened, &live()), "{opened}");
        let mut newer = live();
        newer["metadata"]["resourceVersion"] = json!("8");
        assert!(!made_on(&opened, &newer), "made on 7, the pool is at 8");
        assert!(
            !made_on(&text, &live()),
            "no header: not known to be this version's"
        );
        assert_eq!(check(&opened, &live(), &fleet, None), Checked::Unchanged);
        assert_eq!(
            check("# all gone\n\n", &live(), &fleet, None),
            Checked::Emptied
        );
        let mut status = live();
        status["status"]["status"] = json!("Failed");
        assert_eq!(
            check(&yaml(&status), &live(), &fleet, None),
            Checked::Unchanged
        );
    }

    #[test]
    fn an_edit_that_breaks_a_rule_or_renames_is_refused_with_its_line() {
        let fleet = Fleet::new(Vec::new());
        let mut bad = live();
        bad["spec"]["deletionPolicy"] = json!("maybe");
        bad["metadata"]["name"] = json!("other");
        let text = yaml(&bad);
        let Checked::Invalid(findings) = check(&text, &live(), &fleet, None) else {
            panic!("refused");
        };
        assert!(
            findings
                .iter()
                .any(|f| f.text.contains("metadata.name cannot change")),
            "{findings:?}"
        );
        // Written back: the findings on top, the edit as saved below them, and each line
        // number names the line of the file as written.
        let again = with_findings(&text, &findings);
        assert!(again.starts_with("# pooldeck: the edit was NOT sent"));
        let lines: Vec<&str> = again.lines().collect();
        let policy = findings
            .iter()
            .find(|f| f.text.contains("deletionPolicy") || f.text.contains("maybe"))
            .expect("the policy's finding");
        let header = findings.len() + 2;
        let named = lines[usize::try_from(policy.line).expect("line") + header - 1];
        assert!(named.contains("deletionPolicy: maybe"), "{named}\n{again}");
        assert!(
            again.contains(&format!("line {}: error", policy.line as usize + header)),
            "{again}"
        );
        // Saved again as it was: the same findings, the same lines, one header.
        let Checked::Invalid(same) = check(&again, &live(), &fleet, None) else {
            panic!("still refused");
        };
        assert_eq!(same, findings);
        let twice = with_findings(&again, &same);
        assert_eq!(twice, again);
        assert!(check("a: [", &live(), &fleet, None) != Checked::Unchanged);
    }

    #[test]
    fn a_valid_edit_is_a_replace_of_the_version_read_with_its_changes() {
        let fleet = Fleet::new(Vec::new());
        let mut good = live();
        good["spec"]["deletionPolicy"] = json!("orphan");
        good["metadata"]["resourceVersion"] = json!("999");
        let Checked::Valid {
            object, changes, ..
        } = check(&yaml(&good), &live(), &fleet, None)
        else {
            panic!("valid");
        };
        assert_eq!(changes.len(), 1, "{changes:?}");
        let plan = plan(&live(), object, &changes, &[]);
        assert_eq!(plan.type_to_confirm, None, "nothing taken away");
        match &plan.operations[..] {
            [
                Operation::Update {
                    object,
                    resource_version,
                    ..
                },
            ] => {
                assert_eq!(resource_version, "7");
                assert_eq!(object["metadata"]["resourceVersion"], "7");
                assert_eq!(object["spec"]["deletionPolicy"], "orphan");
            }
            other => panic!("{other:?}"),
        }
        // Read without a version: never sent.
        let mut unversioned = live();
        unversioned["metadata"]
            .as_object_mut()
            .expect("metadata")
            .remove("resourceVersion");
        assert!(
            plan_of(&unversioned, good.clone(), &changes)
                .blocked
                .is_some()
        );
        // Taking a field away asks for the name.
        let mut less = live();
        less["metadata"]
            .as_object_mut()
            .expect("metadata")
            .remove("annotations");
        let Checked::Valid {
            object, changes, ..
        } = check(&yaml(&less), &live(), &fleet, None)
        else {
            panic!("valid");
        };
        assert_eq!(
            plan_of(&live(), object, &changes)
                .type_to_confirm
                .as_deref(),
            Some("edge-single")
        );
    }

    fn plan_of(live: &Value, object: Value, changes: &[Change]) -> Plan {
        plan(live, object, changes, &[])
    }

    #[test]
    fn file_names_keep_to_safe_characters_and_tell_hubs_apart() {
        let target = ObjectRef::new(Kind::Pool, "ml", "lab");
        let hub = |context: &str, server: &str| crate::Hub {
            context: context.to_owned(),
            server: server.to_owned(),
            ..crate::Hub::default()
        };
        let name = file_name(&hub("arn:aws/x y", "https://a"), &target);
        assert!(name.starts_with("arn_aws_x_y--ml--lab--"), "{name}");
        assert!(name.ends_with(".yaml") && name.is_ascii());
        // The same context name on another server, or a name that reads the same: apart.
        assert_ne!(name, file_name(&hub("arn:aws/x y", "https://b"), &target));
        assert_ne!(
            file_name(&hub("a/b", "s"), &target),
            file_name(&hub("a_b", "s"), &target)
        );
    }

    /// What the server owns goes as it was read, whatever the edit did to it; a field set to
    /// null is something taken away.
    #[test]
    fn server_fields_are_sent_as_read_and_nulls_are_removals() {
        let fleet = Fleet::new(Vec::new());
        let mut edited = live();
        edited["status"] = json!({"status": "Failed"});
        edited["metadata"]["generation"] = json!(99);
        edited["metadata"]["annotations"] = Value::Null;
        let Checked::Valid {
            object, changes, ..
        } = check(&yaml(&edited), &live(), &fleet, None)
        else {
            panic!("valid");
        };
        let plan = plan_of(&live(), object, &changes);
        let Operation::Update { object, .. } = &plan.operations[0] else {
            panic!("a replace");
        };
        assert_eq!(object["status"], live()["status"]);
        assert!(
            object["metadata"].get("generation").is_none(),
            "absent when read"
        );
        assert_eq!(plan.type_to_confirm.as_deref(), Some("edge-single"));
        // Another uid is another pool; leaving it out is fine.
        let mut other = live();
        other["metadata"]["uid"] = json!("other");
        let mut live_uid = live();
        live_uid["metadata"]["uid"] = json!("mine");
        assert!(matches!(
            check(&yaml(&other), &live_uid, &fleet, None),
            Checked::Invalid(_)
        ));
        let mut without = live_uid.clone();
        without["metadata"]
            .as_object_mut()
            .expect("metadata")
            .remove("uid");
        without["spec"]["profileBundleRef"]["name"] = json!("edge-profilebundle@v4");
        assert!(matches!(
            check(&yaml(&without), &live_uid, &fleet, None),
            Checked::Valid { .. }
        ));
    }
}
