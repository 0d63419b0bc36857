//! The wizard: a ComputePool draft written step by step in the product's order, every change
//! re-checked by the rules `pooldeck validate` runs (against the watched fleet, so a VIP
//! another pool uses is named while it is typed), each finding shown on its field. `n` starts
//! a new pool in the selected pool's namespace; `e` edits the selected pool, its name and VIP
//! locked (the reference makes the VIP immutable). Every change is saved as a draft (an
//! effect the runtime carries out), so a dropped session loses nothing. The Review step
//! sends a dry run and applies behind the same confirmation as the fixes. Part of `update`.

use serde_json::{Value, json};

use super::{App, Effect, Overlay, View};
use crate::domain::draft::{self, Draft, Entry, FIELDS, FieldSpec, Step};
use crate::domain::fixes::{Fix, Permission, Plan};
use crate::domain::path::YamlPath;
use crate::domain::rules::{Finding, Severity};
use crate::domain::{Kind, Operation, Run};

/// A name the cluster offers for a field, and (for a ProfileBundle) whether it is Ready.
pub type Offered = (String, Option<bool>);

/// What the wizard is for.
#[derive(Clone, Debug, PartialEq)]
pub enum Purpose {
    Create,
    /// An update of this object as it was when the wizard opened.
    Edit {
        old: Value,
    },
}

/// One line of a step: a field, with its worker pool where it repeats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    pub spec: &'static FieldSpec,
    pub worker: usize,
}

impl Line {
    pub fn path(&self) -> YamlPath {
        self.spec.at(self.worker)
    }
}

/// The wizard on the modal stack.
#[derive(Clone, Debug, PartialEq)]
pub struct Wizard {
    pub draft: Draft,
    pub purpose: Purpose,
    pub step: Step,
    pub cursor: usize,
    /// The text being typed into the field under the cursor.
    pub editing: Option<String>,
    pub findings: Vec<Finding>,
    /// The field each finding belongs to (same order as `findings`), placed once per change.
    pub owners: Vec<Option<(&'static FieldSpec, usize)>>,
    /// The manifest as Review shows it, written once per change (never while drawing).
    pub yaml: String,
    /// The dry run's answer, verbatim, once asked.
    pub dry_run: Option<String>,
    /// What the cluster has in the pool's namespace for the fields that name an object:
    /// names, and for ProfileBundles whether each is Ready.
    pub names: Vec<(Kind, Vec<Offered>)>,
}

impl Wizard {
    /// A wizard at its first step.
    pub fn new(draft: Draft, purpose: Purpose) -> Wizard {
        Wizard {
            draft,
            purpose,
            step: Step::General,
            cursor: 0,
            editing: None,
            findings: Vec::new(),
            owners: Vec::new(),
            yaml: String::new(),
            dry_run: None,
            names: Vec::new(),
        }
    }

    /// The lines of the current step.
    pub fn lines(&self) -> Vec<Line> {
        let mut lines: Vec<Line> = FIELDS
            .iter()
            .filter(|f| f.step == self.step && !f.per_worker_pool)
            .map(|spec| Line { spec, worker: 0 })
            .collect();
        if self.step == Step::NodeConfig {
            for worker in 0..self.draft.worker_pools() {
                lines.extend(
                    FIELDS
                        .iter()
                        .filter(|f| f.per_worker_pool)
                        .map(|spec| Line { spec, worker }),
                );
            }
        }
        lines
    }

    /// A field's value as the wizard shows it.
    pub fn shown(&self, line: &Line) -> String {
        if line.spec.path == "spec.clusterVariant" {
            return if self
                .draft
                .pool
                .pointer("/spec/clusterVariant/shared")
                .is_some()
            {
                "shared".into()
            } else {
                "dedicated".into()
            };
        }
        match self.draft.get(&line.path()) {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(Value::Array(items)) => format!("{} item(s)", items.len()),
            Some(other) => other.to_string(),
        }
    }

    /// Why a field cannot change here, with the way out.
    pub fn locked(&self, line: &Line) -> Option<&'static str> {
        if !matches!(self.purpose, Purpose::Edit { .. }) {
            return None;
        }
        match line.spec.label {
            "VIP" => Some(
                "the VIP is immutable after creation: to change it, save the manifest, delete the pool safely and create it again",
            ),
            "Compute pool name" => Some("a pool's name cannot change: create a new pool instead"),
            _ => None,
        }
    }

    /// The findings on a line's field: those whose nearest field is this one.
    pub fn findings_at(&self, line: &Line) -> Vec<&Finding> {
        self.findings
            .iter()
            .zip(&self.owners)
            .filter(|(_, owner)| **owner == Some((line.spec, line.worker)))
            .map(|(finding, _)| finding)
            .collect()
    }

    /// Errors (or warnings) of a step, for the step list; Review counts them all.
    pub fn count(&self, step: Step, severity: Severity) -> usize {
        self.findings
            .iter()
            .zip(&self.owners)
            .filter(|(f, _)| f.rule.severity == severity)
            .filter(|(_, owner)| {
                step == Step::Review || owner.map(|(spec, _)| spec.step) == Some(step)
            })
            .count()
    }

    pub fn errors(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| f.rule.severity == Severity::Error)
            .count()
    }

    fn old_pool(&self) -> Option<crate::domain::model::ComputePool> {
        match &self.purpose {
            Purpose::Edit { old } => crate::domain::model::read_owned(old.clone())
                .ok()
                .map(|(pool, _)| pool),
            Purpose::Create => None,
        }
    }

    /// The request Review applies: a create, or a replace of the version looked at.
    pub fn operation(&self, run: Run) -> Operation {
        match &self.purpose {
            Purpose::Create => Operation::Create {
                object: self.draft.pool.clone(),
                run,
            },
            Purpose::Edit { old } => Operation::Update {
                target: crate::domain::fixes::pool_ref(old),
                object: self.draft.pool.clone(),
                resource_version: old
                    .pointer("/metadata/resourceVersion")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned(),
                run,
            },
        }
    }
}

/// The field a finding's path belongs to: the most specific field whose path it lies under
/// (the Mode field only for what is about the variant itself). `None`: no field shows it
/// (Review lists it).
pub fn owner(path: &YamlPath) -> Option<(&'static FieldSpec, usize)> {
    let workers = draft::worker_pools_path();
    let worker = if path.starts_with(&workers) {
        match path.segments().get(workers.segments().len()) {
            Some(crate::domain::path::Segment::Index(i)) => Some(*i),
            _ => None,
        }
    } else {
        None
    };
    FIELDS
        .iter()
        .filter_map(|spec| {
            let index = if spec.per_worker_pool { worker? } else { 0 };
            let at = spec.at(index);
            let variant_itself = spec.path != "spec.clusterVariant"
                || path.segments().len() <= at.segments().len() + 1;
            (path.starts_with(&at) && variant_itself).then_some((spec, index, at.segments().len()))
        })
        .max_by_key(|(_, _, depth)| *depth)
        .map(|(spec, index, _)| (spec, index))
}

fn namespace_in_view(app: &App) -> String {
    app.shown
        .row(app.selected)
        .map(|r| r.id.namespace.clone())
        .filter(|ns| !ns.is_empty())
        .or_else(|| match &app.namespaces {
            super::ports::Namespaces::Only(list) => list.first().cloned(),
            super::ports::Namespaces::All => None,
        })
        .unwrap_or_else(|| "default".into())
}

/// The GPUs a new pool asks for, per variant, against its Project's caps as the watched
/// Projects and Tenants say them.
fn quota_findings(draft: &Draft, inventory: &crate::inventory::Inventory) -> Vec<Finding> {
    let namespace = draft
        .pool
        .pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .unwrap_or("");
    let Some(project) = inventory
        .objects(Kind::Project)
        .find(|p| p.namespace() == namespace)
        .map(|p| p.value())
    else {
        return Vec::new();
    };
    let tenant = project
        .pointer("/spec/tenantRef/name")
        .and_then(Value::as_str)
        .and_then(|name| inventory.get(Kind::Tenant, "", name))
        .map(|t| t.value());
    let mut asked: Vec<(String, i64, YamlPath)> = Vec::new();
    for index in 0..draft.worker_pools() {
        let gpu = draft::worker_pools_path().index(index).key("gpu");
        let variant = draft.get(&gpu.key("variant")).and_then(Value::as_str);
        let count = draft.get(&gpu.key("gpuCount")).and_then(Value::as_i64);
        if let (Some(variant), Some(count)) = (variant, count) {
            match asked.iter_mut().find(|(v, _, _)| v == variant) {
                Some(entry) => entry.1 += count,
                None => asked.push((variant.to_owned(), count, gpu.key("gpuCount"))),
            }
        }
    }
    crate::domain::quota::check(&asked, &project, tenant.as_deref())
}

/// The ProfileBundles (with their Ready state), Settings and ScalingPolicies the watched
/// cluster has in the draft's namespace.
fn names_in(draft: &Draft, inventory: &crate::inventory::Inventory) -> Vec<(Kind, Vec<Offered>)> {
    let namespace = draft
        .pool
        .pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .unwrap_or("");
    [Kind::ProfileBundle, Kind::Settings, Kind::ScalingPolicy]
        .into_iter()
        .map(|kind| {
            let mut names: Vec<Offered> = inventory
                .objects(kind)
                .filter(|o| o.namespace() == namespace)
                .map(|o| {
                    let ready = (kind == Kind::ProfileBundle).then(|| {
                        o.value()
                            .pointer("/status/conditions")
                            .and_then(Value::as_array)
                            .is_some_and(|c| {
                                c.iter()
                                    .any(|c| c["type"] == "Ready" && c["status"] == "True")
                            })
                    });
                    (o.name().to_owned(), ready)
                })
                .collect();
            names.sort();
            (kind, names)
        })
        .collect()
}

impl Wizard {
    /// The names the cluster offers for a field that names an object.
    pub fn choices(&self, line: &Line) -> Option<&[Offered]> {
        let Entry::Named(kind) = line.spec.entry else {
            return None;
        };
        self.names
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, names)| names.as_slice())
    }
}

/// Re-runs the rules on the draft and saves it.
fn changed(app: &mut App) {
    let Some(Overlay::Wizard(wizard)) = app.overlays.last_mut() else {
        return;
    };
    let old = wizard.old_pool();
    wizard.findings = wizard.draft.findings(old.as_ref(), &app.inventory);
    if wizard.purpose == Purpose::Create {
        wizard
            .findings
            .extend(quota_findings(&wizard.draft, &app.inventory));
    }
    wizard.owners = wizard.findings.iter().map(|f| owner(&f.path)).collect();
    wizard.yaml = wizard.draft.to_yaml();
    wizard.names = names_in(&wizard.draft, &app.inventory);
    wizard.dry_run = None;
    app.effects.push(Effect::SaveDraft(wizard.draft.clone()));
}

/// `pooldeck new`: the wizard on a given draft (from `--from FILE`, or a new one).
pub fn open_with(app: &mut App, draft: Draft) {
    let wizard = Wizard::new(draft, Purpose::Create);
    app.overlays.push(Overlay::Wizard(Box::new(wizard)));
    changed(app);
}

/// `w` on Review: the manifest written to the file `pooldeck new -o FILE` named.
pub fn write(app: &mut App) {
    let Some(w) = wizard(app) else {
        return;
    };
    let text = w.yaml.clone();
    match app.output.clone() {
        Some(path) => app.effects.push(Effect::WriteManifest { path, text }),
        None => {
            app.message = Some(
                "no file to write to (pooldeck new -o FILE names one); c copies the manifest"
                    .into(),
            )
        }
    }
}

/// `n`: a new pool; `e`: the selected pool.
pub fn open(app: &mut App, edit: bool) {
    let wizard = if edit {
        let Some(pool) = app
            .shown
            .row(app.selected)
            .filter(|_| app.view == View::Pools)
            .and_then(|row| {
                app.inventory
                    .get(Kind::Pool, &row.id.namespace, &row.id.name)
            })
            .map(|o| (*o.value()).clone())
        else {
            app.message = Some("e edits the selected pool: select one in the pools list".into());
            return;
        };
        let mut object = pool.clone();
        // What the server owns is not the wizard's to write back.
        if let Some(map) = object.as_object_mut() {
            map.shift_remove("status");
        }
        if let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut) {
            meta.shift_remove("managedFields");
        }
        Wizard::new(
            Draft::from_object(object, None),
            Purpose::Edit { old: pool },
        )
    } else if let Some(draft) = app.resumable.take() {
        // The draft an earlier wizard left: resumed whole; n again starts afresh.
        app.message = Some(format!(
            "resumed the draft of {}/{}; Esc closes it (kept), n then starts a new pool",
            draft
                .pool
                .pointer("/metadata/namespace")
                .and_then(Value::as_str)
                .unwrap_or(""),
            draft
                .pool
                .pointer("/metadata/name")
                .and_then(Value::as_str)
                .filter(|n| !n.is_empty())
                .unwrap_or("(unnamed)")
        ));
        Wizard::new(draft, Purpose::Create)
    } else {
        Wizard::new(Draft::new(&namespace_in_view(app)), Purpose::Create)
    };
    app.overlays.push(Overlay::Wizard(Box::new(wizard)));
    changed(app);
}

fn wizard(app: &mut App) -> Option<&mut Wizard> {
    match app.overlays.last_mut() {
        Some(Overlay::Wizard(wizard)) => Some(wizard),
        _ => None,
    }
}

/// ↑↓: the field under the cursor.
pub fn move_cursor(app: &mut App, down: bool) {
    if let Some(w) = wizard(app) {
        // On Review the cursor scrolls the findings and the manifest.
        let last = if w.step == Step::Review {
            usize::from(u16::MAX)
        } else {
            w.lines().len().saturating_sub(1)
        };
        w.cursor = if down {
            (w.cursor + 1).min(last)
        } else {
            w.cursor.saturating_sub(1)
        };
    }
}

/// Tab / Shift-Tab: the next or previous step.
pub fn step(app: &mut App, forward: bool) {
    if let Some(w) = wizard(app) {
        let at = Step::ALL.iter().position(|s| *s == w.step).unwrap_or(0);
        let next = if forward {
            (at + 1).min(Step::ALL.len() - 1)
        } else {
            at.saturating_sub(1)
        };
        w.step = Step::ALL[next];
        w.cursor = 0;
    }
}

/// Enter: start typing into the field, or keep what was typed; Space on a choice or toggle
/// moves it on.
pub fn activate(app: &mut App) {
    let Some(w) = wizard(app) else {
        return;
    };
    if w.step == Step::Review {
        return;
    }
    let Some(line) = w.lines().get(w.cursor).copied() else {
        return;
    };
    if let Some(why) = w.locked(&line) {
        app.message = Some(why.to_owned());
        return;
    }
    match (w.editing.take(), line.spec.entry) {
        (Some(text), entry) => {
            let value = typed_value(&text, entry);
            w.draft.set(&line.path(), value);
            changed(app);
        }
        (None, Entry::Choice(_) | Entry::Toggle) => cycle(app),
        (None, _) => {
            let current = w.shown(&line);
            w.editing = Some(current);
        }
    }
}

/// What typed text becomes in the object: a count as a number when it is one (otherwise the
/// text, so the rules say what is wrong), empty as no value.
fn typed_value(text: &str, entry: Entry) -> Option<Value> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    Some(match entry {
        Entry::Count => text
            .parse::<u64>()
            .map(|n| json!(n))
            .unwrap_or_else(|_| json!(text)),
        Entry::Lines => json!(text.split('\n').map(str::trim).collect::<Vec<_>>()),
        _ => json!(text),
    })
}

/// Space: the next choice, or the toggle flipped.
pub fn cycle(app: &mut App) {
    let Some(w) = wizard(app) else {
        return;
    };
    let Some(line) = w.lines().get(w.cursor).copied() else {
        return;
    };
    if w.locked(&line).is_some() {
        return;
    }
    let path = line.path();
    match line.spec.entry {
        Entry::Toggle => {
            let on = w.draft.get(&path).and_then(Value::as_bool).unwrap_or(false);
            w.draft.set(&path, Some(json!(!on)));
        }
        Entry::Named(kind) => {
            let names: Vec<String> = w
                .choices(&line)
                .unwrap_or(&[])
                .iter()
                .map(|(name, _)| name.clone())
                .collect();
            if names.is_empty() {
                app.message = Some(format!(
                    "no {} in this namespace that pooldeck can see: Enter types a name",
                    kind.api().plural
                ));
                return;
            }
            let current = w.shown(&line);
            let at = names.iter().position(|n| *n == current);
            let next = names[at.map_or(0, |i| (i + 1) % names.len())].clone();
            w.draft.set(&path, Some(json!(next)));
            if kind == Kind::ScalingPolicy {
                let namespace = w.draft.pool.pointer("/metadata/namespace").cloned();
                w.draft.set(
                    &YamlPath::keys("spec.clusterVariant.dedicated.scalingPolicyRef.namespace"),
                    namespace,
                );
            }
        }
        Entry::Choice(choices) => {
            let current = w.shown(&line);
            let at = choices.iter().position(|c| *c == current);
            let next = choices[at.map_or(0, |i| (i + 1) % choices.len())];
            if line.spec.path == "spec.clusterVariant" {
                // Shared pools are described by the reference only as far as sharedWith;
                // switching keeps the dedicated configuration aside, not lost.
                let variant = w
                    .draft
                    .get(&YamlPath::keys("spec.clusterVariant"))
                    .cloned()
                    .unwrap_or(json!({}));
                let (from, to) = if next == "shared" {
                    ("dedicated", "shared")
                } else {
                    ("shared", "dedicated")
                };
                let mut variant = variant;
                if let Some(map) = variant.as_object_mut() {
                    let moved = map.shift_remove(from).unwrap_or(json!({}));
                    map.insert(to.to_owned(), moved);
                }
                w.draft
                    .set(&YamlPath::keys("spec.clusterVariant"), Some(variant));
            } else {
                let value = match line.spec.label {
                    "Control plane nodes" => json!(next.parse::<u64>().unwrap_or(1)),
                    _ => json!(next),
                };
                w.draft.set(&path, Some(value));
            }
        }
        _ => return,
    }
    changed(app);
}

/// A key typed into the field being edited.
pub fn typed(app: &mut App, c: char) {
    if let Some(w) = wizard(app)
        && let Some(text) = w.editing.as_mut()
    {
        text.push(c);
    }
}

pub fn erase(app: &mut App) {
    if let Some(w) = wizard(app)
        && let Some(text) = w.editing.as_mut()
    {
        text.pop();
    }
}

/// Esc: leave the field (what was typed is dropped), or close the wizard (the draft stays
/// saved, and `n` offers it again).
pub fn escape(app: &mut App) {
    if let Some(w) = wizard(app)
        && w.editing.take().is_some()
    {
        return;
    }
    if let Some(Overlay::Wizard(_)) = app.overlays.pop() {
        app.message = Some("the wizard is closed; its draft is kept".into());
        // `pooldeck new` is the wizard alone: closing it ends the program.
        if app.wizard_only {
            app.quit = true;
        }
    }
}

/// `a`: a worker pool more (Node Config).
pub fn add_worker_pool(app: &mut App) {
    let Some(w) = wizard(app) else {
        return;
    };
    if w.step != Step::NodeConfig {
        return;
    }
    let n = w.draft.worker_pools();
    w.draft.add_worker_pool(&format!("worker-pool-{}", n + 1));
    changed(app);
}

/// `x`: removes the worker pool under the cursor.
pub fn remove_worker_pool(app: &mut App) {
    let Some(w) = wizard(app) else {
        return;
    };
    let Some(line) = w.lines().get(w.cursor).copied() else {
        return;
    };
    if !line.spec.per_worker_pool {
        return;
    }
    w.draft
        .set(&draft::worker_pools_path().index(line.worker), None);
    w.cursor = w.cursor.min(w.lines().len().saturating_sub(1));
    changed(app);
}

/// `d` on Review: the server's dry run of the request.
pub fn dry_run(app: &mut App) {
    if let Some(why) = &app.offline {
        app.message = Some(format!("no cluster ({why}): the dry run needs one"));
        return;
    }
    if app.read_only {
        app.message = Some("read-only mode: nothing is sent, not even a dry run".into());
        return;
    }
    let Some(w) = wizard(app) else {
        return;
    };
    w.dry_run = Some("dry run sent…".into());
    let operation = w.operation(Run::DryRun);
    app.effects.push(Effect::Perform(operation));
}

/// An answer for the wizard: its dry run.
pub fn performed(app: &mut App, operation: &Operation, answer: String) -> bool {
    if let Some(w) = wizard(app)
        && *operation == w.operation(Run::DryRun)
    {
        w.dry_run = Some(answer);
        return true;
    }
    false
}

/// Enter on Review: the confirmation, holding the create or update (refused while an error
/// stands).
pub fn apply(app: &mut App) {
    if let Some(why) = &app.offline {
        app.message = Some(format!(
            "no cluster ({why}): apply needs one; w writes the manifest, c copies it"
        ));
        return;
    }
    let Some(w) = wizard(app) else {
        return;
    };
    if w.errors() > 0 {
        app.message = Some(format!(
            "{} error(s) stand: fix them first (the steps list where they are)",
            w.errors()
        ));
        return;
    }
    let operation = w.operation(Run::Real);
    let target = operation.target();
    let namespace = target
        .as_ref()
        .map(|t| t.namespace.clone())
        .unwrap_or_default();
    let name = target.as_ref().map(|t| t.name.clone()).unwrap_or_default();
    let (verb, title) = match w.purpose {
        Purpose::Create => ("create", format!("Create Compute Pool {name}")),
        Purpose::Edit { .. } => ("update", format!("Update Compute Pool {name}")),
    };
    let plan = Plan {
        fix: Fix::Apply,
        title,
        explanation: vec![
            "Sends the pool as written on the Review step.".to_owned(),
            "An update names the resourceVersion looked at: a pool changed since is not overwritten."
                .to_owned(),
        ],
        targets: vec![format!("{namespace}/{name}")],
        impact: Vec::new(),
        operations: vec![operation],
        type_to_confirm: None,
        acknowledge: None,
        permissions: vec![Permission {
            verb,
            kind: Kind::Pool,
            namespace,
        }],
        blocked: None,
    };
    super::confirm::open_plan(app, plan);
}

#[cfg(test)]
#[path = "wizard_tests.rs"]
mod tests;
