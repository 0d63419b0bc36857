//! The way past an immutable field (the VIP): `R` in an edit turns it into a recreate. The
//! manifest stays kept as a draft on every change; Review's apply opens the safe delete's
//! confirmation (impact, preconditions, dry run, the name typed); once the delete is accepted
//! pooldeck waits until the watch no longer lists the pool (the API's NotFound: finalizers and
//! teardown done), then creates it from the manifest. If anything fails on the way the draft
//! is still there, and `n` resumes it. Part of `update`.

use serde_json::Value;

use crate::domain::model::ComputePool;

use super::state::{Purpose, Wizard};
use crate::app::Overlay;
use crate::app::component::{Ask, Ctx};
use crate::app::requests::Awaiting;
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

/// After Confirm on a recreate (its delete sent as `request` to `hub`): what to create once
/// the pool is gone, read from the wizard under the dialog that confirmed.
pub fn confirmed(overlays: &[Overlay], hub: Hub, request: Option<RequestId>) -> Option<Recreating> {
    // Wherever the wizard lies on the stack.
    let Some(Overlay::Wizard(w)) = overlays
        .iter()
        .rev()
        .find(|o| matches!(o, Overlay::Wizard(_)))
    else {
        return None;
    };
    let Purpose::Recreate { old } = &w.purpose else {
        return None;
    };
    Some(Recreating {
        target: fixes::pool_ref(old),
        hub,
        request,
        object: fresh(&w.draft.pool),
        file: w.saved_as.clone(),
        stage: RecreateStage::Deleting,
    })
}

/// An outcome for the recreate under way (routed by its request's id): what it asks of the
/// console, or `None` when it was not the recreate's. After a delete accepted, the console
/// looks whether the pool is gone yet ([`when_gone`]).
pub fn performed(
    under_way: &mut Option<Recreating>,
    request: &Request,
    outcome: &Outcome,
) -> Option<Vec<Ask>> {
    let recreating = under_way
        .as_mut()
        .filter(|r| r.request == Some(request.id))?;
    recreating.request = None;
    let name = recreating.target.to_string();
    let say = |text: String| Ask::Say(Some(text));
    match (recreating.stage, &request.operation, outcome) {
        (RecreateStage::Deleting, Operation::Delete { .. }, Outcome::Done { .. }) => {
            recreating.stage = RecreateStage::Waiting;
            // The wizard's work is done; the draft stays until the pool is created.
            Some(vec![
                Ask::CloseWizardOnTop,
                say(format!(
                    "{name}: delete accepted; waiting until it is gone, then it is created again"
                )),
            ])
        }
        (RecreateStage::Creating, Operation::Create { .. }, Outcome::Done { .. }) => {
            let file = recreating.file.clone();
            *under_way = None;
            let mut asks: Vec<Ask> = file.into_iter().map(Ask::Forget).collect();
            asks.push(say(format!("{name}: recreated")));
            Some(asks)
        }
        (_, _, Outcome::Failed(error)) => {
            *under_way = None;
            Some(vec![say(format!(
                "{name}: {error}; the manifest is kept as a draft: n resumes it"
            ))])
        }
        _ => None,
    }
}

/// Once the watch no longer lists the pool, its create is sent, to the hub the delete was
/// confirmed on (moving to another hub or namespace stops the recreate before this).
pub fn when_gone(under_way: &mut Option<Recreating>, ctx: &mut Ctx) {
    let hub = ctx.hub.id();
    let Some(recreating) = under_way.as_mut() else {
        return;
    };
    if recreating.stage != RecreateStage::Waiting {
        return;
    }
    if recreating.hub != hub {
        ctx.say(format!(
            "the recreate of {} stopped: the console now shows another hub; nothing was \
             created (the manifest is kept as a draft: n resumes it)",
            recreating.target
        ));
        *under_way = None;
        return;
    }
    let target = &recreating.target;
    // Gone means: the source that lists the pool's own namespace is live and lacks it.
    let inventory = &ctx.hub.inventory;
    if !inventory.listed_in(Kind::Pool, &target.namespace)
        || inventory
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
    ctx.say(format!("{target}: gone; creating it again"));
    let id = ctx.send(
        create,
        Awaiting::Real {
            fix: Fix::Recreate,
            kept: None,
            batch: None,
        },
    );
    recreating.request = Some(id);
}
