//! Fixes in the console: a key builds a [`Plan`] (pause or resume, delete, unblock a stuck
//! deletion) from the pools on screen and opens a confirmation holding it. Before anything is
//! sent the dialog knows whether the user may do it (access reviews, asked once per
//! namespace, verb and kind, and kept until the context changes); then it sends the plan's dry
//! runs and shows their answers; only a confirmation (Cancel has the focus; a delete needs the
//! pool's name typed, removing a finalizer an acknowledgement) sends the real requests. In
//! read-only mode nothing is sent, not even a dry run. The rows change when the watch reports
//! the change, never here. A dialog is bound to the hub it was opened on: its access reviews
//! and dry runs are answered by that hub, routed back by request id, and moving to another
//! hub or namespace closes it (`App::leave`). Part of `update`: no I/O.

use super::component::{Ask, Ctx};
pub use super::hub::{Access, AccessCache};
use super::requests::Awaiting;
use super::{App, Overlay};
use crate::domain::fixes::{self, Fix, Permission, Plan};
use crate::domain::{Hub, Kind, ObjectRef, RequestId};

/// Which part of the dialog has the focus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    Cancel,
    /// The text to type (the pool's name, or the acknowledgement).
    Field,
    Confirm,
}

/// Where the dialog stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Stage {
    /// It cannot run: read-only mode, a missing permission, or the plan's own reason.
    Blocked(String),
    /// Waiting for the access reviews.
    Checking,
    /// The dry runs are out; this many answers are still to come.
    DryRun { left: usize, answers: Vec<String> },
    /// The server refused a dry run: the error as it came, and what changed in the object
    /// since the dialog looked at it (a refused precondition), as the watch shows it.
    DryRunFailed {
        error: crate::domain::ClusterError,
        changed: Option<String>,
    },
    /// The server accepted every dry run.
    Ready(Vec<String>),
}

/// A confirmation on the modal stack.
#[derive(Clone, Debug, PartialEq)]
pub struct Confirm {
    /// This dialog's id: its dry runs' answers name it.
    pub id: RequestId,
    /// The hub it was opened on: its reviews and dry runs were answered there, and only
    /// there may its requests go.
    pub hub: Hub,
    pub plan: Plan,
    pub focus: Focus,
    pub typed: String,
    pub stage: Stage,
    pub scroll: u16,
    /// The furthest the text scrolls, as the dialog was last drawn (the drawing knows how
    /// its lines wrap on this screen); `u16::MAX` before the first frame.
    pub last_scroll: std::cell::Cell<u16>,
    /// The pool an unblock's plan was worked out for: worked out again at Confirm, and not
    /// sent if the hub has changed what it would do (an AIWorkload came or changed).
    pub about: Option<crate::domain::ObjectRef>,
}

impl Confirm {
    /// The text that must be typed, if any.
    pub fn needs_typing(&self) -> Option<&str> {
        self.plan
            .type_to_confirm
            .as_deref()
            .or(self.plan.acknowledge)
    }

    /// Whether the Confirm button works now.
    pub fn ready(&self) -> bool {
        matches!(self.stage, Stage::Ready(_)) && self.needs_typing().is_none_or(|t| self.typed == t)
    }

    /// The focus after `forward` (Tab) or back (Shift-Tab); the field only when there is one.
    pub fn step(&mut self, forward: bool) {
        let mut order = vec![Focus::Cancel];
        if self.needs_typing().is_some() {
            order.push(Focus::Field);
        }
        order.push(Focus::Confirm);
        let at = order.iter().position(|f| *f == self.focus).unwrap_or(0);
        let n = order.len();
        self.focus = order[if forward {
            (at + 1) % n
        } else {
            (at + n - 1) % n
        }];
    }
}

/// The pool a fix acts on: the open pool in its detail, else the row under the cursor in the
/// pools list.
fn pool_in_view(app: &App) -> Option<ObjectRef> {
    if let Some(detail) = &app.detail {
        return Some(ObjectRef::new(
            Kind::Pool,
            detail.namespace.clone(),
            detail.name.clone(),
        ));
    }
    if !app.list.view.pools {
        return None;
    }
    app.shown.row(app.list.selected).map(|row| row.id.clone())
}

/// The pools a fix key is pressed on: the marked ones (pause and resume, in the pools list,
/// when there are marks), else the pool in view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Chosen {
    pub pools: Vec<ObjectRef>,
    /// They are the marks.
    pub marked: bool,
}

impl Chosen {
    /// What `fix` takes: `marks` (the pools list's) for a pause or a resume, else `in_view`.
    pub fn of(
        fix: Fix,
        in_view: Option<ObjectRef>,
        marks: &std::collections::BTreeSet<ObjectRef>,
    ) -> Chosen {
        if matches!(fix, Fix::Pause | Fix::Resume) && !marks.is_empty() {
            return Chosen {
                pools: marks.iter().cloned().collect(),
                marked: true,
            };
        }
        Chosen {
            pools: in_view.into_iter().collect(),
            marked: false,
        }
    }
}

/// The permissions the fixes need for the pool under the cursor, for the footer and for
/// asking before the key is pressed.
pub fn permissions_in_view(app: &App) -> Vec<Permission> {
    let Some(pool) = pool_in_view(app) else {
        return Vec::new();
    };
    ["patch", "delete"]
        .into_iter()
        .map(|verb| Permission {
            verb,
            kind: Kind::Pool,
            namespace: pool.namespace.to_string(),
        })
        .collect()
}

/// Asks for the permissions not known yet (never in read-only mode: nothing can be done).
pub fn ask(ctx: &mut Ctx, permissions: &[Permission]) {
    if ctx.read_only() {
        return;
    }
    for permission in permissions {
        if !ctx.hub.access.contains_key(permission) {
            ctx.ask(Ask::Review(permission.clone()));
        }
    }
}

/// Whether a fix key can do anything for the pool under the cursor (a denied permission
/// leaves it out of the footer; the key then says what is missing).
pub fn denied(app: &App, verb: &str) -> Option<Permission> {
    permissions_in_view(app)
        .into_iter()
        .find(|p| p.verb == verb && app.fleet.access.get(p) == Some(&Access::Denied))
}

/// `p`, Ctrl-D and `u`: builds the plan for the chosen pools and opens its confirmation.
pub fn open(ctx: &mut Ctx, fix: Fix, chosen: &Chosen) {
    if let Some(context) = ctx.connecting {
        ctx.say(format!(
            "switching to context {context}: try again once it is connected"
        ));
        return;
    }
    let targets = &chosen.pools;
    let mut gone = Vec::new();
    // An object the hub holds that cannot be read as a pool is not acted on: said, not
    // dropped in silence.
    let mut unreadable = Vec::new();
    let pools: Vec<_> = targets
        .iter()
        .filter_map(|t| {
            let found = ctx.hub.inventory.get(Kind::Pool, &t.namespace, &t.name);
            match found.map(|o| o.pool()) {
                None => gone.push(format!("{}/{}", t.namespace, t.name)),
                Some(None) => unreadable.push(format!("{}/{}", t.namespace, t.name)),
                Some(Some(_)) => {}
            }
            found.and_then(|o| o.pool())
        })
        .collect();
    let Some(&first) = pools.first() else {
        ctx.say(if unreadable.is_empty() {
            "no Compute Pool selected: fixes work on the pools list or a pool's detail".into()
        } else {
            format!(
                "{} cannot be read as a Compute Pool (its row says why): nothing to act on",
                unreadable.join(", ")
            )
        });
        return;
    };
    let mut plan = match fix {
        Fix::Pause | Fix::Resume => fixes::pause_or_resume(&pools),
        Fix::Delete => fixes::delete(first, &ctx.hub.inventory.workloads_of(first)),
        Fix::DeleteWorkloads | Fix::RemoveFinalizer => {
            super::unblock::plan(ctx.hub, first, ctx.now)
        }
        Fix::Apply | Fix::Recreate | Fix::Edit => return,
    };
    let about =
        matches!(fix, Fix::DeleteWorkloads | Fix::RemoveFinalizer).then(|| fixes::pool_ref(first));
    // Marks act only on what the dialog lists: a marked pool the list does not show now (a
    // filter hides it) is named as such, and one no longer there is said.
    if chosen.marked {
        // The marks are on the hub in focus: a same-named pool of another hub shown does
        // not show a marked one.
        let hidden: Vec<String> = ctx
            .shown
            .not_shown(ctx.focus, targets)
            .into_iter()
            .map(|t| format!("{}/{}", t.namespace, t.name))
            .filter(|t| !gone.contains(t))
            .collect();
        if !hidden.is_empty() {
            plan.explanation.push(format!(
                "Marked but not shown now (the filter hides {}): {}",
                if hidden.len() == 1 { "it" } else { "them" },
                hidden.join(", ")
            ));
        }
    }
    if !gone.is_empty() {
        plan.explanation.push(format!(
            "Marked but no longer on the hub, left out: {}",
            gone.join(", ")
        ));
    }
    if !unreadable.is_empty() {
        plan.explanation.push(format!(
            "Marked but not readable as a Compute Pool, left out: {}",
            unreadable.join(", ")
        ));
    }
    open_plan_about(ctx, plan, about);
}

/// Opens a confirmation holding `plan` (the fixes, and the wizard's apply).
pub fn open_plan(ctx: &mut Ctx, plan: Plan) {
    open_plan_about(ctx, plan, None);
}

/// [`open_plan`], for a plan worked out from what the console watches of `about`.
fn open_plan_about(ctx: &mut Ctx, plan: Plan, about: Option<crate::domain::ObjectRef>) {
    // With a name to type, the letters go into its field at once (no action key can take
    // them); without one, Cancel has the focus. Either way Enter sends nothing until the
    // name matches and the Confirm button is chosen.
    let focus = if plan.type_to_confirm.is_some() || plan.acknowledge.is_some() {
        Focus::Field
    } else {
        Focus::Cancel
    };
    let hub = ctx.hub.id();
    let id = ctx.fresh_id();
    let mut confirm = Confirm {
        id,
        plan: plan.bound_to(&hub),
        hub,
        focus,
        typed: String::new(),
        stage: Stage::Checking,
        scroll: 0,
        last_scroll: std::cell::Cell::new(u16::MAX),
        about,
    };
    advance(ctx, &mut confirm);
    // A dialog that cannot run has nothing to type for: Cancel, and c copies the kubectl
    // equivalent as the dialog says.
    if matches!(confirm.stage, Stage::Blocked(_)) {
        confirm.focus = Focus::Cancel;
    }
    ctx.ask(Ask::Open(Overlay::Confirm(Box::new(confirm))));
}

/// Moves a dialog on as far as what is known allows: permissions, then dry runs.
pub(super) fn advance(ctx: &mut Ctx, confirm: &mut Confirm) {
    if ctx.read_only() {
        // A plan that cannot run anyway has no kubectl equivalent to copy.
        confirm.stage = Stage::Blocked(match &confirm.plan.blocked {
            Some(why) => {
                format!("read-only mode: nothing will be sent; nor could this run ({why})")
            }
            None => "read-only mode: nothing will be sent (c copies the kubectl equivalent)".into(),
        });
        return;
    }
    if let Some(why) = &confirm.plan.blocked {
        confirm.stage = Stage::Blocked(why.clone());
        return;
    }
    if confirm.stage != Stage::Checking {
        return;
    }
    ask(ctx, &confirm.plan.permissions);
    let missing: Vec<String> = confirm
        .plan
        .permissions
        .iter()
        .filter(|p| ctx.hub.access.get(*p) == Some(&Access::Denied))
        .map(Permission::words)
        .collect();
    if !missing.is_empty() {
        confirm.stage = Stage::Blocked(format!(
            "not permitted in context {}: needs {}",
            ctx.hub.connection.context,
            missing.join(", ")
        ));
        return;
    }
    if confirm
        .plan
        .permissions
        .iter()
        // Asked before, or just now: `ask` asked for every permission not known.
        .any(|p| matches!(ctx.hub.access.get(p), None | Some(&Access::Asking)))
    {
        return;
    }
    let dry_runs = confirm.plan.dry_runs();
    confirm.stage = Stage::DryRun {
        left: dry_runs.len(),
        answers: Vec::new(),
    };
    for operation in dry_runs {
        ctx.send(operation, Awaiting::DryRun { dialog: confirm.id });
    }
}

#[cfg(test)]
#[path = "confirm_tests.rs"]
pub(crate) mod tests;
