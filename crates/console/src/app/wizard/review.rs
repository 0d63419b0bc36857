//! The wizard's Review: writing the manifest out, the server's dry run, and applying it
//! behind the same confirmation as the fixes.

use super::state::{DryRun, Purpose, Wizard};
use crate::app::Effect;
use crate::app::component::Ctx;
use crate::app::requests::Awaiting;
use crate::domain::fixes::{Fix, Permission, Plan};
use crate::domain::{Kind, Operation, Request, Run};

impl Wizard {
    /// `w` on Review: the manifest written to the file `pooldeck new -o FILE` named.
    pub fn write(&self, ctx: &mut Ctx) {
        let text = self.yaml.clone();
        match ctx.output {
            Some(path) => ctx.effect(Effect::WriteManifest {
                path: path.to_owned(),
                text,
            }),
            None => ctx
                .say("no file to write to (pooldeck new -o FILE names one); c copies the manifest"),
        }
    }

    /// `d` on Review: the server's dry run of the request.
    pub fn send_dry_run(&mut self, ctx: &mut Ctx) {
        if let Some(why) = ctx.offline {
            ctx.say(format!("no cluster ({why}): the dry run needs one"));
            return;
        }
        if ctx.read_only() {
            ctx.say("read-only mode: nothing is sent, not even a dry run");
            return;
        }
        let operations = self.operations(Run::DryRun);
        let mut waiting = Vec::new();
        for operation in operations {
            waiting.push(ctx.send(operation, Awaiting::WizardDryRun));
        }
        self.dry_run = Some(DryRun {
            waiting,
            answers: Vec::new(),
        });
    }

    /// An answer to the wizard's dry run (with a policy, one answer per object, each named); an
    /// answer for a dry run of an earlier draft (the draft changed since) is dropped.
    pub fn dry_run_answered(&mut self, request: &Request, answer: String) -> bool {
        let w = self;
        let Some(dry_run) = w.dry_run.as_mut() else {
            return false;
        };
        let Some(at) = dry_run.waiting.iter().position(|id| *id == request.id) else {
            return false;
        };
        dry_run.waiting.remove(at);
        let several = w.draft.policy.is_some();
        let answer = if several {
            let kind = match &request.operation {
                Operation::Create { object, .. } => object["kind"].as_str().unwrap_or("object"),
                _ => "ComputePool",
            };
            format!("{kind}: {answer}")
        } else {
            answer
        };
        if let Some(dry_run) = w.dry_run.as_mut() {
            dry_run.answers.push(answer);
        }
        true
    }

    /// Enter on Review: the confirmation, holding the create or update (refused while an error
    /// stands).
    pub fn apply(&mut self, ctx: &mut Ctx) {
        if let Some(why) = ctx.offline {
            ctx.say(format!(
                "no cluster ({why}): apply needs one; w writes the manifest, c copies it"
            ));
            return;
        }
        let w = self;
        if w.errors() > 0 {
            ctx.say(format!(
                "{} {}: fix them first (the steps list where they are)",
                crate::domain::words::counted(w.errors(), "error"),
                crate::domain::words::agrees(w.errors(), "stands", "stand")
            ));
            return;
        }
        if let Purpose::Recreate { old } = &w.purpose {
            let plan =
                super::recreate::plan(old, &w.draft.pool, &ctx.hub.inventory.workloads_of(old));
            crate::app::confirm::open_plan(ctx, plan);
            return;
        }
        let operations = w.operations(Run::Real);
        let operation = w.operation(Run::Real);
        let target = operation.target();
        let namespace = target
            .as_ref()
            .map(|t| t.namespace.to_string())
            .unwrap_or_default();
        let name = target.as_ref().map(|t| t.name.clone()).unwrap_or_default();
        let (verb, title) = match w.purpose {
            Purpose::Create => ("create", format!("Create Compute Pool {name}")),
            Purpose::Edit { .. } | Purpose::Recreate { .. } => {
                ("update", format!("Update Compute Pool {name}"))
            }
        };
        let mut explanation = vec![
        "Sends the pool as written on the Review step.".to_owned(),
        "An update names the resourceVersion looked at: a pool changed since is not overwritten."
            .to_owned(),
    ];
        let mut targets = vec![format!("{namespace}/{name}")];
        let mut permissions = vec![Permission {
            verb,
            kind: Kind::Pool,
            namespace: namespace.clone(),
        }];
        if let Some(policy) = &w.draft.policy {
            let policy_name = policy["metadata"]["name"].as_str().unwrap_or("");
            explanation.push(format!(
                "Also creates the ScalingPolicy {policy_name} written on the Autoscaling step."
            ));
            targets.insert(0, format!("ScalingPolicy {namespace}/{policy_name}"));
            permissions.push(Permission {
                verb: "create",
                kind: Kind::ScalingPolicy,
                namespace,
            });
        }
        let plan = Plan {
            fix: Fix::Apply,
            title,
            explanation,
            targets,
            impact: Vec::new(),
            operations,
            type_to_confirm: None,
            acknowledge: None,
            permissions,
            blocked: None,
        };
        crate::app::confirm::open_plan(ctx, plan);
    }
}
