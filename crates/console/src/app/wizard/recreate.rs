//! The way past an immutable field (the VIP): `R` in an edit turns it into a recreate. The
//! manifest stays kept as a draft on every change; Review's apply opens the safe delete's
//! confirmation (impact, preconditions, dry run, the name typed); once the delete is accepted
//! pooldeck waits until the watch no longer lists the pool (the API's NotFound: finalizers and
//! teardown done), then creates it from the manifest. If anything fails on the way the draft
//! is still there, and `n` resumes it. Part of `update`.

use serde_json::Value;

use crate::domain::model::ComputePool;

use super::state::{Purpose, Wizard};
use crate::app::component::Ctx;
use crate::app::requests::Awaiting;
use crate::app::{App, Overlay};
use crate::domain::fixes::{self, Fix};
use crate::domain::{Hub, Kind, ObjectRef, Operation, Outcome, Request, RequestId, Run};

/// A recreate under way.
#[derive(Clone, Debug, PartialEq)]
pub struct Recreating {
    pub target: ObjectRef,
    /// The hub the delete was confirmed on: the create goes there or nowhere.
    pub hub: Hub,
    /// The request whose answer moves it on (the delete, then the create).
    pub request: Option<RequestId>,
    /// The pool to create, as the wizard wrote it (without what the server owns).
    pub object: Value,
    /// The file its draft is kept in, until the pool is created again.
    pub file: Option<String>,
    pub stage: RecreateStage,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecreateStage {
    /// The delete was sent.
    Deleting,
    /// The delete was accepted: waiting for the pool to be gone.
    Waiting,
    /// The create was sent.
    Creating,
}

/// The object to create again: what the server owns (identity, versions, status, finalizers
/// the controller adds itself) left out.
pub fn fresh(object: &Value) -> Value {
    let mut object = object.clone();
    if let Some(map) = object.as_object_mut() {
        map.shift_remove("status");
    }
    if let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut) {
        for key in [
            "uid",
            "resourceVersion",
            "creationTimestamp",
            "generation",
            "managedFields",
            "selfLink",
            "deletionTimestamp",
            "deletionGracePeriodSeconds",
            "finalizers",
            "ownerReferences",
        ] {
            meta.shift_remove(key);
        }
    }
    object
}

impl Wizard {
    /// `R` in an edit: the immutable fields open; Review's apply becomes delete, wait, create.
    pub fn recreate(&mut self, ctx: &mut Ctx) {
        let w = self;
        let Purpose::Edit { old } = &w.purpose else {
            ctx.say("R recreates a pool being edited (e on a pool)");
            return;
        };
        w.purpose = Purpose::Recreate { old: old.clone() };
        ctx.say(
            "recreate: the VIP and the Longhorn replica count can change now (a new count loses \
             every PersistentVolumeClaim: back up first); Review's apply deletes the pool \
             safely, waits until it is gone, then creates it (the manifest is kept as a draft \
             all along)",
        );
        super::check::changed_in(w, ctx);
    }
}

/// Review's apply while recreating: the safe delete's confirmation, said as a recreate (its
/// impact names `workloads` as they stand).
pub fn plan(old: &ComputePool, object: &Value, workloads: &fixes::Workloads) -> fixes::Plan {
    let mut plan = fixes::delete(old, workloads);
    let name = plan
        .targets
        .first()
        .cloned()
        .unwrap_or_else(|| "the pool".into());
    let vip = object
        .pointer("/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/edge/vip")
        .and_then(Value::as_str)
        .filter(|v| !v.is_empty())
        .map(|v| format!(" with VIP {v}"))
        .unwrap_or_default();
    plan.fix = Fix::Recreate;
    plan.title = format!("Recreate Compute Pool {name}{vip}");
    let mut explanation = vec![
        "1. The manifest is kept as a draft (pooldeck new, or n, resumes it if anything fails)."
            .to_owned(),
        "2. The pool is deleted safely: the request names its uid and resourceVersion.".to_owned(),
        "3. pooldeck waits until the hub no longer lists it (its teardown and finalizer done)."
            .to_owned(),
        "4. It is created again from the manifest. The dry run checks the delete; the create is checked by the rules now and by the API then."
            .to_owned(),
    ];
    explanation.append(&mut plan.explanation);
    plan.explanation = explanation;
    plan
}

/// After Confirm on a recreate (its delete sent as `request`): what to create once the pool
/// is gone.
pub fn confirmed(app: &mut App, request: Option<RequestId>) {
    // The wizard under the dialog that confirmed (wherever it lies on the stack).
    let Some(Overlay::Wizard(w)) = app
        .overlays
        .iter()
        .rev()
        .find(|o| matches!(o, Overlay::Wizard(_)))
    else {
        return;
    };
    let Purpose::Recreate { old } = &w.purpose else {
        return;
    };
    app.recreating = Some(Recreating {
        target: fixes::pool_ref(old),
        hub: app.hub(),
        request,
        object: fresh(&w.draft.pool),
        file: w.saved_as.clone(),
        stage: RecreateStage::Deleting,
    });
}

/// An outcome for the recreate under way (routed by its request's id); whether it was one.
pub fn performed(app: &mut App, request: &Request, outcome: &Outcome) -> bool {
    let Some(recreating) = app.recreating.as_mut() else {
        return false;
    };
    if recreating.request != Some(request.id) {
        return false;
    }
    recreating.request = None;
    let operation = &request.operation;
    let name = recreating.target.to_string();
    match (recreating.stage, operation, outcome) {
        (RecreateStage::Deleting, Operation::Delete { .. }, Outcome::Done { .. }) => {
            recreating.stage = RecreateStage::Waiting;
            // The wizard's work is done; the draft stays until the pool is created.
            if let Some(Overlay::Wizard(_)) = app.overlays.last() {
                app.overlays.pop();
            }
            app.message = Some(format!(
                "{name}: delete accepted; waiting until it is gone, then it is created again"
            ));
            when_gone(app);
        }
        (RecreateStage::Creating, Operation::Create { .. }, Outcome::Done { .. }) => {
            let file = recreating.file.clone();
            app.recreating = None;
            if let Some(file) = file {
                let effect = crate::app::drafts::forget(&mut app.drafts, &file);
                app.outbox.push(effect);
            }
            app.message = Some(format!("{name}: recreated"));
        }
        (_, _, Outcome::Failed(error)) => {
            app.recreating = None;
            app.message = Some(format!(
                "{name}: {error}; the manifest is kept as a draft: n resumes it"
            ));
        }
        _ => return false,
    }
    true
}

/// Once the watch no longer lists the pool, its create is sent, to the hub the delete was
/// confirmed on (moving to another hub or namespace stops the recreate before this).
pub fn when_gone(app: &mut App) {
    let hub = app.hub();
    let Some(recreating) = app.recreating.as_mut() else {
        return;
    };
    if recreating.stage != RecreateStage::Waiting {
        return;
    }
    if recreating.hub != hub {
        let target = recreating.target.clone();
        app.recreating = None;
        app.message = Some(format!(
            "the recreate of {target} stopped: the console now shows another hub; nothing was \
             created (the manifest is kept as a draft: n resumes it)"
        ));
        return;
    }
    let target = &recreating.target;
    // Gone means: the source that lists the pool's own namespace is live and lacks it.
    let live = app.fleet.inventory.listed_in(Kind::Pool, &target.namespace);
    if !live
        || app
            .fleet
            .inventory
            .get(Kind::Pool, &target.namespace, &target.name)
            .is_some()
    {
        return;
    }
    recreating.stage = RecreateStage::Creating;
    let create = Operation::Create {
        object: recreating.object.clone(),
        run: Run::Real,
    };
    let message = format!("{target}: gone; creating it again");
    let id = app.send(
        create,
        Awaiting::Real {
            fix: Fix::Recreate,
            kept: None,
            batch: None,
        },
    );
    if let Some(recreating) = app.recreating.as_mut() {
        recreating.request = Some(id);
    }
    app.message = Some(message);
}
