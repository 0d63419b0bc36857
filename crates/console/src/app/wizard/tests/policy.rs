//! Beyond the pool itself: a ScalingPolicy written beside it (checked by the same rules, sent
//! with it), and a VIP change that recreates the pool once the old one is gone.

use super::*;
use crate::app::script::{forget_returned, returned, update};

#[test]
fn a_scaling_policy_is_written_with_the_pool_and_checked_by_the_same_rules() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char('n')));
    set_field(&mut app, "Compute pool name", 0, "a100-scaled");
    to_step(&mut app, Step::NodeConfig);
    update(&mut app, key(KeyCode::Char('a')));
    set_field(&mut app, "GPU variant", 0, "NVIDIA A100-SXM4-80GB | 80 GB");
    to_step(&mut app, Step::Autoscaling);
    assert!(
        !wizard(&app)
            .lines()
            .iter()
            .any(|l| l.spec.label == "Cooldown"),
        "a policy's fields show only while one is written"
    );
    to_field(&mut app, "Write a new policy", 0);
    update(&mut app, key(KeyCode::Char(' ')));
    let policy = wizard(&app).draft.policy.clone().expect("a policy");
    assert_eq!(policy["metadata"]["name"], "a100-scaled-scaling");
    assert_eq!(policy["metadata"]["namespace"], "ml-research");
    assert_eq!(
        policy["spec"]["gpu"][0]["variant"], "NVIDIA A100-SXM4-80GB | 80 GB",
        "one entry per GPU variant the worker pools ask for"
    );
    assert_eq!(
        wizard(&app).draft.pool["spec"]["clusterVariant"]["dedicated"]["scalingPolicyRef"]["name"],
        "a100-scaled-scaling"
    );
    // A scale-down threshold not below scale-up: the policy rule's error, on its field.
    set_field(&mut app, "Scale-down at %", 0, "90");
    let said = said_on(&app, "Scale-down at %", 0);
    assert!(
        said.iter()
            .any(|m| m.contains("is not below scaleUpThreshold")),
        "{said:?}"
    );
    assert!(wizard(&app).count(Step::Autoscaling, Severity::Error) > 0);
    set_field(&mut app, "Scale-down at %", 0, "20");
    set_field(&mut app, "Cooldown", 0, "ten minutes");
    assert!(
        wizard(&app)
            .findings
            .iter()
            .any(|f| f.path.to_string() == "policy.spec.cooldownDuration"),
        "{:#?}",
        wizard(&app).findings
    );
    set_field(&mut app, "Cooldown", 0, "10m");
    // The dry run sends both objects; the answer names each.
    to_step(&mut app, Step::Review);
    forget_returned();
    update(&mut app, key(KeyCode::Char('d')));
    let sent = answer_all(&mut app);
    assert_eq!(sent.len(), 2, "{sent:?}");
    let answer = wizard(&app)
        .dry_run
        .as_ref()
        .map(|d| d.text())
        .unwrap_or_default();
    assert!(
        answer.contains("ScalingPolicy: accepted") && answer.contains("ComputePool: accepted"),
        "{answer}"
    );
    assert!(wizard(&app).yaml.contains("kind: ScalingPolicy"));
    // Renaming the reference renames the policy written with it.
    to_step(&mut app, Step::Autoscaling);
    set_field(&mut app, "Scaling policy", 0, "a100-policy");
    assert_eq!(
        wizard(&app)
            .draft
            .policy
            .as_ref()
            .map(|p| p["metadata"]["name"].clone()),
        Some(Value::from("a100-policy"))
    );
}

#[test]
fn a_vip_change_recreates_the_pool_once_the_old_one_is_gone() {
    let mut app = fleet_app();
    answer_all(&mut app);
    let row = app.shown.row(app.list.selected).expect("a row").id.clone();
    update(&mut app, key(KeyCode::Char('e')));
    to_step(&mut app, Step::Deployment);
    to_field(&mut app, "VIP", 0);
    update(&mut app, key(KeyCode::Enter));
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("R recreates")),
        "the way out is named: {:?}",
        app.message
    );
    update(&mut app, key(KeyCode::Char('R')));
    assert!(matches!(wizard(&app).purpose, Purpose::Recreate { .. }));
    set_field(&mut app, "VIP", 0, "10.99.0.1");
    assert_eq!(
        wizard(&app).errors(),
        0,
        "its own name is free for the recreate: {:#?}",
        wizard(&app).findings
    );
    to_step(&mut app, Step::Review);
    forget_returned();
    update(&mut app, key(KeyCode::Enter));
    let dialog = match app.overlays.last() {
        Some(Overlay::Confirm(confirm)) => confirm.clone(),
        other => panic!("asks first: {other:?}"),
    };
    assert_eq!(dialog.plan.fix, crate::domain::fixes::Fix::Recreate);
    assert!(
        dialog.plan.title.contains("with VIP 10.99.0.1"),
        "{}",
        dialog.plan.title
    );
    let dry = answer_all(&mut app);
    assert!(
        matches!(
            &dry[..],
            [Operation::Delete {
                run: Run::DryRun,
                ..
            }]
        ),
        "the delete is dry-run; nothing is created yet: {dry:?}"
    );
    // The name is typed at once, then Confirm.
    typed(&mut app, &row.name);
    update(&mut app, key(KeyCode::Tab));
    update(&mut app, key(KeyCode::Enter));
    let real = answer_all(&mut app);
    assert!(
        matches!(&real[..], [Operation::Delete { run: Run::Real, .. }]),
        "{real:?}"
    );
    assert!(
        app.overlays.is_empty(),
        "the wizard closes; its draft stays"
    );
    assert!(
        !returned()
            .iter()
            .any(|e| matches!(e, Effect::DiscardDraft(_))),
        "the draft stays until the pool is created"
    );
    let waiting = app.recreating.clone().expect("waiting");
    assert_eq!(waiting.stage, recreate::RecreateStage::Waiting);
    // Still listed (Deleting): nothing is created.
    let now = app.now;
    update(&mut app, Msg::Tick(now));
    assert!(!returned().iter().any(|e| matches!(e, Effect::Perform(_))));
    // The watch reports it gone: the create goes, with the new VIP and nothing the server owns.
    let old = app
        .fleet
        .inventory
        .get(Kind::Pool, &row.namespace, &row.name)
        .expect("listed")
        .value();
    update(
        &mut app,
        Msg::Sources(vec![(
            0,
            crate::inventory::SourceEvent::Deleted {
                kind: Kind::Pool,
                object: (*old).clone(),
            },
        )]),
    );
    let create = returned()
        .iter()
        .find_map(|e| match e {
            Effect::Perform(request) if matches!(request.operation, Operation::Create { .. }) => {
                Some(request.clone())
            }
            _ => None,
        })
        .expect("the create is sent once the pool is gone");
    let Operation::Create { object, run } = &create.operation else {
        unreachable!()
    };
    assert_eq!(*run, Run::Real);
    assert_eq!(
        object
            .pointer("/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/edge/vip")
            .and_then(Value::as_str),
        Some("10.99.0.1")
    );
    assert!(object.pointer("/metadata/resourceVersion").is_none());
    assert!(object.pointer("/metadata/uid").is_none());
    forget_returned();
    update(
        &mut app,
        Msg::Performed {
            request: create,
            outcome: Outcome::Done {
                message: "created".into(),
            },
        },
    );
    assert!(app.recreating.is_none());
    assert!(
        returned()
            .iter()
            .any(|e| matches!(e, Effect::DiscardDraft(_)))
    );
}

#[test]
fn policy_references_name_what_exists_and_a_new_policy_takes_a_free_name() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char('n')));
    set_field(&mut app, "Compute pool name", 0, "fresh");
    to_step(&mut app, Step::Autoscaling);
    // A misspelt policy: an error on the field, saying what is there.
    set_field(&mut app, "Scaling policy", 0, "gpu-scalng");
    let said = said_on(&app, "Scaling policy", 0);
    assert!(
        said.iter()
            .any(|m| m
                .contains("no ScalingPolicy named gpu-scalng in ml-research (there: gpu-scaling)")),
        "{said:?}"
    );
    // Written here on, then off: the reference is put back as it was before.
    set_field(&mut app, "Scaling policy", 0, "");
    to_field(&mut app, "Write a new policy", 0);
    update(&mut app, key(KeyCode::Char(' ')));
    let reference = YamlPath::keys("spec.clusterVariant.dedicated.scalingPolicyRef");
    assert_eq!(
        wizard(&app).draft.get(&reference.key("name")),
        Some(&Value::from("fresh-scaling"))
    );
    assert!(said_on(&app, "Scaling policy", 0).is_empty());
    to_field(&mut app, "Write a new policy", 0);
    update(&mut app, key(KeyCode::Char(' ')));
    assert!(wizard(&app).draft.policy.is_none());
    assert_eq!(
        wizard(&app).draft.get(&reference),
        None,
        "the reference is as it was before: none (the field was emptied)"
    );
    assert!(
        wizard(&app)
            .findings
            .iter()
            .all(|f| !f.rule.id.starts_with("reference")),
        "{:#?}",
        wizard(&app).findings
    );

    // A new policy under a name the namespace has: an error before any dry run.
    set_field(&mut app, "Scaling policy", 0, "gpu-scaling");
    assert!(said_on(&app, "Scaling policy", 0).is_empty(), "it exists");
    to_field(&mut app, "Write a new policy", 0);
    update(&mut app, key(KeyCode::Char(' ')));
    let said = said_on(&app, "Scaling policy", 0);
    assert!(
        said.iter()
            .any(|m| m.contains("a ScalingPolicy named gpu-scaling already exists in ml-research")),
        "{said:?}"
    );
    // Off again: the existing policy stays named.
    to_field(&mut app, "Write a new policy", 0);
    update(&mut app, key(KeyCode::Char(' ')));
    assert_eq!(
        wizard(&app).draft.get(&reference.key("name")),
        Some(&Value::from("gpu-scaling"))
    );
}
