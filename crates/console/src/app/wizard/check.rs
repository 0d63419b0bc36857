//! Checking the draft: the rules `pooldeck validate` runs, against the watched pools; the
//! references against what the pool's namespace has; quota and hosts against its Project.
//! Run on every change (and every keystroke, on the text being typed), and again when the
//! hub's picture changes under an open wizard. A namespace the console does not watch is
//! watched as well once the draft names it, so every check follows the draft's namespace.

use super::context::{groups_in, host_findings, names_in, picture, quota_findings, variants_in};
use super::state::{Offered, Purpose, Wizard};
use crate::app::Effect;
use crate::app::Overlay;
use crate::app::component::{Ask, Ctx};
use crate::app::hub::HubState;
use crate::app::ports::Namespaces;
use crate::domain::Kind;
use crate::domain::draft::{self, FIELDS, FieldSpec, Group};
use crate::domain::exists::{self, Known};
use crate::domain::path::YamlPath;
use crate::domain::rules::{Basis, Finding, Rule, Severity};
use crate::inventory::{Inventory, SourceState};

/// Text typed into a field that cannot be read as its value (a label line without `=`, a
/// namespace name the API refuses): said on the field while it is typed.
pub const UNREADABLE: Rule = Rule {
    id: "wizard.typing",
    severity: Severity::Error,
    basis: Basis::Input,
    section: "UI Field to YAML Mapping",
    summary: "what is typed into a field can be read as its value",
};

/// An edit's draft resumed after the pool changed: applying replaces the pool as it is now
/// with the draft, putting back what changed since (the chooser listed it).
pub const MOVED: Rule = Rule {
    id: "wizard.pool-moved-on",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: "pooldeck new",
    summary: "an edit's draft resumed after the pool changed since it started",
};

/// A new pool in a namespace with no Project, where Projects can be read: pools belong to a
/// Project's namespace.
pub const NO_PROJECT: Rule = Rule {
    id: "wizard.no-project",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: "Complete ComputePool Example",
    summary: "a new pool's namespace has no Project",
};

/// What a check reads beside the draft.
struct Seen<'a> {
    inventory: &'a Inventory,
    offline: Option<&'a str>,
    namespaces: &'a Namespaces,
}

impl Seen<'_> {
    /// What the hub is known to have of a kind in a namespace.
    fn known<'n>(
        &self,
        names: &'n [(Kind, Vec<Offered>)],
        kind: Kind,
        namespace: &str,
    ) -> Known<'n> {
        if let Some(why) = self.offline {
            return Known::Unreadable(format!("no cluster ({why})"));
        }
        if let Namespaces::Only(list) = self.namespaces
            && !list.iter().any(|n| n == namespace)
        {
            return Known::Unreadable(format!("{namespace} is not watched"));
        }
        let state = self.inventory.state_in(kind, namespace);
        let plural = kind.api().plural;
        match state {
            Some(SourceState::Live) => Known::Names(
                names
                    .iter()
                    .find(|(k, _)| *k == kind)
                    .map(|(_, offered)| offered.iter().map(|(n, _)| n.as_str()).collect())
                    .unwrap_or_default(),
            ),
            Some(SourceState::Forbidden { .. }) => {
                Known::Unreadable(format!("you may not list {plural} there"))
            }
            Some(SourceState::NotInstalled) => {
                Known::Unreadable(format!("the hub serves no {plural}"))
            }
            _ => Known::Unreadable(format!("{plural} are still loading")),
        }
    }
}

/// A new pool's namespace without a Project (once the Projects are listed there).
fn no_project(namespace: &str, inventory: &Inventory) -> Option<Finding> {
    (inventory.listed_in(Kind::Project, namespace)
        && inventory.project_and_tenant(namespace).is_none())
    .then(|| {
        Finding::new(
            &NO_PROJECT,
            crate::domain::path::YamlPath::keys("metadata.namespace"),
            format!(
                "{namespace} has no Project: a pool belongs in its Project's namespace (Space \
                 on Namespace offers them)"
            ),
        )
    })
}

/// An edit's draft against a pool that moved on since it started: another pool of the name
/// now (its uid differs), or a newer resourceVersion. What Review then says.
fn moved_since(w: &Wizard) -> Option<String> {
    let (Purpose::Edit { old }, Some(base)) = (&w.purpose, &w.base_version) else {
        return None;
    };
    let meta = old.meta();
    let live_version = meta
        .and_then(|m| m.resource_version.as_deref())
        .unwrap_or("");
    let live_uid = meta.and_then(|m| m.uid.as_deref()).unwrap_or("");
    let draft_uid = w
        .draft
        .pool
        .pointer("/metadata/uid")
        .and_then(serde_json::Value::as_str)
        .unwrap_or("");
    if !draft_uid.is_empty() && !live_uid.is_empty() && draft_uid != live_uid {
        Some(format!(
            "this draft was written for another pool of this name (uid {draft_uid}; the pool \
             now has {live_uid}): applying replaces the new pool with it"
        ))
    } else if !live_version.is_empty() && base != live_version {
        Some(format!(
            "the pool changed since this draft was started (resourceVersion {base} -> \
             {live_version}): applying puts back what changed since; e, then \"Start from the \
             live pool\", starts again from it"
        ))
    } else {
        None
    }
}

/// Every check on the wizard's draft, made once per change (never while drawing).
fn check(w: &mut Wizard, seen: &Seen) {
    let inventory = seen.inventory;
    let old = w.old_pool();
    w.findings = match &w.purpose {
        // Checked as a create among the pools that stay: its own name and VIP are free.
        Purpose::Recreate { old } => {
            let without = crate::domain::rules::Without {
                pools: inventory,
                namespace: old.namespace().unwrap_or(""),
                name: old.name(),
            };
            w.draft.findings(None, &without)
        }
        _ => w.draft.findings(old, inventory),
    };
    match &w.purpose {
        Purpose::Create => {
            w.findings.extend(quota_findings(&w.draft, None, inventory));
            w.findings.extend(host_findings(&w.draft, inventory));
            w.findings
                .extend(no_project(w.draft.namespace(), inventory));
        }
        // The pool's own GPUs are counted in the Project's usage (and come back when a
        // recreate deletes it): what counts is the increase. Its hosts are not "available",
        // so the host picture is for new pools only.
        Purpose::Edit { old } | Purpose::Recreate { old } => {
            w.findings
                .extend(quota_findings(&w.draft, Some(old), inventory))
        }
    }
    let names = names_in(&w.draft, inventory);
    let namespace = w.draft.namespace().to_owned();
    let live = match &w.purpose {
        Purpose::Edit { old } | Purpose::Recreate { old } => Some(&**old),
        Purpose::Create => None,
    };
    w.findings.extend(exists::check(&w.draft, live, |kind| {
        seen.known(&names, kind, &namespace)
    }));
    w.names = names;
    w.free = variants_in(&w.draft, inventory);
    w.groups = groups_in(&w.draft, inventory);
    if let Some(said) = moved_since(w) {
        w.findings.push(Finding::new(
            &MOVED,
            crate::domain::path::YamlPath::keys("metadata.resourceVersion"),
            said,
        ));
    }
    if let Some((path, problem)) = &w.unreadable {
        w.findings
            .push(Finding::new(&UNREADABLE, path.clone(), problem.clone()));
    }
    w.owners = w.findings.iter().map(|f| owner(&f.path)).collect();
    w.yaml = w.draft.to_yaml();
    w.kept = w
        .draft
        .kept_as_is()
        .iter()
        .map(ToString::to_string)
        .collect();
    w.picture = if seen.offline.is_some() {
        Vec::new()
    } else {
        picture(&w.draft, inventory)
    };
    w.namespaces = offered_namespaces(inventory, seen.namespaces, &namespace);
    w.checked = (inventory.fleet_generation(), inventory.context_generation());
}

/// The namespaces a new pool may go to: the Projects' (what a pool belongs to) first, then
/// those watched, then the draft's own.
fn offered_namespaces(
    inventory: &Inventory,
    namespaces: &Namespaces,
    current: &str,
) -> Vec<Offered> {
    let mut projects: Vec<String> = inventory
        .objects(Kind::Project)
        .map(|o| o.namespace().to_owned())
        .collect();
    projects.sort();
    let watched = match namespaces {
        Namespaces::Only(list) => list.clone(),
        Namespaces::All => Vec::new(),
    };
    let mut out: Vec<Offered> = Vec::new();
    for (namespace, project) in projects
        .into_iter()
        .map(|n| (n, true))
        .chain(watched.into_iter().map(|n| (n, false)))
        .chain(std::iter::once((current.to_owned(), false)))
    {
        if !namespace.is_empty() && !out.iter().any(|(n, _)| *n == namespace) {
            out.push((namespace, Some(project)));
        }
    }
    out
}

/// After a change of the draft: every check again, the dry run forgotten, the draft saved,
/// and its namespace watched if it is not yet.
pub(super) fn changed_in(w: &mut Wizard, ctx: &mut Ctx) {
    w.draft.keep_policy_in_step();
    let seen = Seen {
        inventory: &ctx.hub.inventory,
        offline: ctx.offline,
        namespaces: ctx.namespaces,
    };
    check(w, &seen);
    w.dry_run = None;
    // A wizard opened and closed unchanged leaves no draft behind.
    if w.saved_as.is_none() && w.editing.is_none() && w.draft == w.origin {
        return;
    }
    let saved = w.saved();
    let file = saved.file_name();
    let replaces = w.saved_as.replace(file);
    ctx.effect(Effect::SaveDraft {
        saved: saved.clone(),
        replaces: replaces.clone(),
    });
    ctx.ask(Ask::Kept { saved, replaces });
    // Another watch starts the picture over: the checks run again as it arrives.
    ctx.ask(Ask::WatchAlso(w.draft.namespace().to_owned()));
}

/// When the hub's picture changed under an open wizard (a list arrived, a pool took a VIP,
/// a Project's usage moved): its checks again, nothing else.
pub fn recheck(
    overlays: &mut [Overlay],
    hub: &HubState,
    offline: Option<&str>,
    namespaces: &Namespaces,
) {
    let inventory = &hub.inventory;
    let now = (inventory.fleet_generation(), inventory.context_generation());
    let Some(w) = overlays.iter_mut().rev().find_map(|o| match o {
        Overlay::Wizard(w) => Some(w),
        _ => None,
    }) else {
        return;
    };
    if w.checked == now {
        return;
    }
    let seen = Seen {
        inventory,
        offline,
        namespaces,
    };
    check(w, &seen);
}

/// The field a finding's path belongs to: the most specific field whose path it lies under
/// (the Mode field only for what is about the variant itself). `None`: no field shows it
/// (Review lists it).
pub fn owner(path: &YamlPath) -> Option<(&'static FieldSpec, usize)> {
    let index_under = |list: YamlPath| {
        if !path.starts_with(&list) {
            return None;
        }
        match path.segments().get(list.segments().len()) {
            Some(crate::domain::path::Segment::Index(i)) => Some(*i),
            _ => None,
        }
    };
    let worker = index_under(draft::worker_pools_path());
    let gpu =
        index_under(draft::policy_gpu_path()).or_else(|| index_under(draft::policy_bounds_path()));
    FIELDS
        .iter()
        .filter_map(|spec| {
            let index = match spec.group {
                Group::Once => 0,
                Group::WorkerPool => worker?,
                Group::PolicyGpu => gpu?,
            };
            let at = spec.at(index);
            let variant_itself = spec.path != "spec.clusterVariant"
                || path.segments().len() <= at.segments().len() + 1;
            (path.starts_with(&at) && variant_itself).then_some((spec, index, at.segments().len()))
        })
        .max_by_key(|(_, _, depth)| *depth)
        .map(|(spec, index, _)| (spec, index))
        // About a place above the fields (the worker pools list, the whole profileBundleRef):
        // the first field under it owns it, so its step counts it.
        .or_else(|| {
            FIELDS
                .iter()
                .find(|spec| spec.at(0).starts_with(path))
                .map(|spec| (spec, 0))
        })
}
