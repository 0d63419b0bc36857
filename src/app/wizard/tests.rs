//! The wizard as message scripts: an inline error appears and goes as a field is fixed, a
//! pool with a GPU worker pool is written from empty and applied behind the confirmation,
//! every change is saved as a draft, and an edit keeps the VIP locked.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::super::tests::fleet_app;
use super::*;
use crate::app::{Msg, update};
use crate::domain::Outcome;

fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        update(app, key(KeyCode::Char(c)));
    }
}

fn wizard(app: &App) -> &Wizard {
    match app.overlays.last() {
        Some(Overlay::Wizard(wizard)) => wizard,
        other => panic!("no wizard on top: {other:?}"),
    }
}

/// Moves the cursor to the field of this label: of this worker pool (or policy GPU entry)
/// where one repeats with that label, else the step's own.
fn to_field(app: &mut App, label: &str, worker: usize) {
    let lines = wizard(app).lines();
    let matching = |repeats: bool| {
        lines.iter().position(|l| {
            l.spec.label == label && l.worker == worker && l.spec.repeats() == repeats
        })
    };
    let at = matching(true)
        .or_else(|| matching(false))
        .unwrap_or_else(|| panic!("no field {label}"));
    while wizard(app).cursor > at {
        update(app, key(KeyCode::Up));
    }
    while wizard(app).cursor < at {
        update(app, key(KeyCode::Down));
    }
}

fn set_field(app: &mut App, label: &str, worker: usize, text: &str) {
    to_field(app, label, worker);
    update(app, key(KeyCode::Enter));
    // Ctrl-A Ctrl-K… would do; the person's way: to the end, then erase it all.
    let multi_line = wizard(app).editing.as_ref().is_some_and(|e| e.multi_line());
    update(
        app,
        Msg::Key(KeyEvent::new(KeyCode::End, KeyModifiers::CONTROL)),
    );
    while wizard(app).editing.as_ref().is_some_and(|e| !e.is_empty()) {
        update(app, key(KeyCode::Backspace));
    }
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            update(app, key(KeyCode::Enter));
        }
        typed(app, line);
    }
    if multi_line {
        update(
            app,
            Msg::Key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)),
        );
    } else {
        update(app, key(KeyCode::Enter));
    }
}

fn to_step(app: &mut App, step: Step) {
    while wizard(app).step > step {
        update(app, key(KeyCode::BackTab));
    }
    while wizard(app).step < step {
        update(app, key(KeyCode::Tab));
    }
}

fn errors_on(app: &App, label: &str, worker: usize) -> usize {
    let w = wizard(app);
    w.lines()
        .iter()
        .filter(|l| l.spec.label == label && l.worker == worker)
        .map(|l| {
            w.findings_at(l)
                .iter()
                .filter(|f| f.rule.severity == Severity::Error)
                .count()
        })
        .sum()
}

#[test]
fn a_gpu_pool_is_written_from_empty_and_applied() {
    let mut app = fleet_app();
    app.effects.clear();
    update(&mut app, key(KeyCode::Char('n')));
    assert_eq!(wizard(&app).step, Step::General);
    assert!(
        errors_on(&app, "Compute pool name", 0) > 0,
        "an empty name is an error"
    );
    set_field(&mut app, "Compute pool name", 0, "Bad_Name");
    assert!(
        errors_on(&app, "Compute pool name", 0) > 0,
        "{:#?}",
        wizard(&app).findings
    );
    set_field(&mut app, "Compute pool name", 0, "gpu-pool-two");
    assert_eq!(
        errors_on(&app, "Compute pool name", 0),
        0,
        "fixed: the error goes"
    );
    assert!(
        app.effects.iter().any(
            |e| matches!(e, Effect::SaveDraft(d) if d.pool["metadata"]["name"] == "gpu-pool-two")
        ),
        "every change is saved as a draft"
    );
    to_step(&mut app, Step::ProfileBundle);
    set_field(&mut app, "Profile Bundle", 0, "edge-profilebundle");
    to_step(&mut app, Step::NodeConfig);
    set_field(&mut app, "CPU count", 0, "4");
    set_field(&mut app, "Memory", 0, "16 GB");
    for (worker, name) in [(0, "a100-train"), (1, "a100-serve")] {
        update(&mut app, key(KeyCode::Char('a')));
        set_field(&mut app, "Worker pool name", worker, name);
        set_field(&mut app, "CPU count", worker, "32");
        set_field(&mut app, "Memory", worker, "256 GB");
        set_field(
            &mut app,
            "GPU variant",
            worker,
            "NVIDIA A100-SXM4-80GB | 80 GB",
        );
        set_field(&mut app, "GPU count", worker, "4");
        set_field(&mut app, "GPU memory", worker, "320 GB");
    }
    assert_eq!(wizard(&app).draft.worker_pools(), 2);
    to_step(&mut app, Step::Deployment);
    set_field(&mut app, "Settings", 0, "palette-settings");
    set_field(&mut app, "VIP", 0, "10.40.0.10");
    to_step(&mut app, Step::Review);
    let w = wizard(&app);
    assert_eq!(w.errors(), 0, "{:#?}", w.findings);
    update(&mut app, key(KeyCode::Enter));
    let dialog = match app.overlays.last() {
        Some(Overlay::Confirm(confirm)) => confirm.clone(),
        other => panic!("apply asks first: {other:?}"),
    };
    assert!(dialog.plan.kubectl().starts_with("kubectl create -f -"));
    // The cluster allows it and accepts the dry run; Confirm sends the create.
    for _ in 0..2 {
        for effect in std::mem::take(&mut app.effects) {
            if let Effect::Perform(operation) = effect {
                let outcome = match &operation {
                    Operation::AccessReview { .. } => Outcome::Allowed(true),
                    _ => Outcome::Done {
                        message: "accepted".into(),
                    },
                };
                update(&mut app, Msg::Performed { operation, outcome });
            }
        }
    }
    update(&mut app, key(KeyCode::Tab));
    update(&mut app, key(KeyCode::Enter));
    let create = app
        .effects
        .iter()
        .find_map(|e| match e {
            Effect::Perform(op @ Operation::Create { run: Run::Real, .. }) => Some(op.clone()),
            _ => None,
        })
        .expect("the create is sent");
    update(
        &mut app,
        Msg::Performed {
            operation: create,
            outcome: Outcome::Done {
                message: "created".into(),
            },
        },
    );
    assert!(app.overlays.is_empty(), "the wizard closes once applied");
    assert!(
        app.effects
            .iter()
            .any(|e| matches!(e, Effect::DiscardDraft(_)))
    );
}

#[test]
fn an_edit_keeps_the_vip_locked_and_says_why() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char('e')));
    assert!(matches!(wizard(&app).purpose, Purpose::Edit { .. }));
    to_step(&mut app, Step::Deployment);
    let before = wizard(&app).draft.clone();
    to_field(&mut app, "VIP", 0);
    update(&mut app, key(KeyCode::Enter));
    assert!(
        wizard(&app).editing.is_none(),
        "a locked field is not typed into"
    );
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("immutable")),
        "{:?}",
        app.message
    );
    assert_eq!(wizard(&app).draft, before);
    // Status and managed fields are the server's: not in the draft.
    assert!(wizard(&app).draft.pool.get("status").is_none());
    to_step(&mut app, Step::Review);
    update(&mut app, key(KeyCode::Char('d')));
    assert!(
        app.effects.iter().any(|e| matches!(
            e,
            Effect::Perform(Operation::Update {
                run: Run::DryRun,
                ..
            })
        )),
        "{:?}",
        app.effects
    );
}

#[test]
fn a_taken_vip_and_a_quota_overrun_are_said_on_their_fields() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char('n')));
    let namespace = wizard(&app).draft.pool["metadata"]["namespace"].clone();
    assert_eq!(namespace, "ml-research", "the selected pool's namespace");
    to_step(&mut app, Step::Deployment);
    let taken = app
        .inventory
        .objects(Kind::Pool)
        .find_map(|p| {
            p.value()
                .pointer("/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/edge/vip")
                .and_then(Value::as_str)
                .filter(|v| !v.is_empty())
                .map(str::to_owned)
        })
        .expect("a fleet pool with a VIP");
    set_field(&mut app, "VIP", 0, &taken);
    let vip_line = wizard(&app)
        .lines()
        .into_iter()
        .find(|l| l.spec.label == "VIP")
        .expect("the VIP field");
    let said: Vec<String> = wizard(&app)
        .findings_at(&vip_line)
        .iter()
        .map(|f| f.message.clone())
        .collect();
    assert!(
        said.iter().any(|m| m.contains("already used by")),
        "{said:?}"
    );

    to_step(&mut app, Step::NodeConfig);
    update(&mut app, key(KeyCode::Char('a')));
    set_field(&mut app, "GPU variant", 0, "NVIDIA A100-SXM4-80GB | 80 GB");
    set_field(&mut app, "GPU count", 0, "4");
    let count_line = wizard(&app)
        .lines()
        .into_iter()
        .find(|l| l.spec.label == "GPU count" && l.worker == 0)
        .expect("the GPU count field");
    let said: Vec<String> = wizard(&app)
        .findings_at(&count_line)
        .iter()
        .map(|f| f.message.clone())
        .collect();
    // ml-research: its own limit leaves 0 of 16; the Tenant's caps leave 4: the lowest is named.
    assert!(
        said.iter()
            .any(|m| m.contains("the lowest cap is Project ml-research's limit: 0 of 16 left")),
        "{said:?}"
    );
}

#[test]
fn named_fields_offer_what_the_namespace_has() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char('n')));
    to_step(&mut app, Step::ProfileBundle);
    to_field(&mut app, "Profile Bundle", 0);
    update(&mut app, key(KeyCode::Char(' ')));
    assert_eq!(
        wizard(&app).draft.pool["spec"]["profileBundleRef"]["name"],
        "edge-profilebundle"
    );
    let line = wizard(&app).lines()[wizard(&app).cursor];
    let offered = wizard(&app).choices(&line).expect("choices").to_vec();
    assert_eq!(offered, vec![("edge-profilebundle".to_owned(), Some(true))]);
    to_step(&mut app, Step::Autoscaling);
    to_field(&mut app, "Scaling policy", 0);
    update(&mut app, key(KeyCode::Char(' ')));
    let reference =
        &wizard(&app).draft.pool["spec"]["clusterVariant"]["dedicated"]["scalingPolicyRef"];
    assert_eq!(reference["name"], "gpu-scaling");
    assert_eq!(reference["namespace"], "ml-research");
    // Settings: the namespace's one is offered.
    to_step(&mut app, Step::Deployment);
    to_field(&mut app, "Settings", 0);
    update(&mut app, key(KeyCode::Char(' ')));
    assert_eq!(
        wizard(&app).draft.get(&YamlPath::keys(
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.settingsRef.name"
        )),
        Some(&Value::from("palette-settings"))
    );
}

#[test]
fn a_kind_the_namespace_lacks_is_said_and_nothing_changes() {
    let mut app = fleet_app();
    // A namespace with no Settings: vision-lab.
    while app
        .shown
        .row(app.selected)
        .is_some_and(|r| r.id.namespace != "vision-lab")
    {
        update(&mut app, key(KeyCode::Down));
    }
    update(&mut app, key(KeyCode::Char('n')));
    assert_eq!(
        wizard(&app).draft.pool["metadata"]["namespace"],
        "vision-lab"
    );
    to_step(&mut app, Step::Deployment);
    to_field(&mut app, "Settings", 0);
    let before = wizard(&app).draft.clone();
    update(&mut app, key(KeyCode::Char(' ')));
    assert_eq!(wizard(&app).draft, before);
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("no settings in this namespace")),
        "{:?}",
        app.message
    );
}

#[test]
fn too_few_hosts_come_from_the_namespaces_compute() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char('n')));
    to_step(&mut app, Step::NodeConfig);
    update(&mut app, key(KeyCode::Char('a')));
    set_field(&mut app, "GPU variant", 0, "NVIDIA A100-SXM4-80GB | 80 GB");
    let said = |app: &App, label: &str| -> Vec<String> {
        let w = wizard(app);
        w.lines()
            .into_iter()
            .filter(|l| l.spec.label == label && l.worker == 0)
            .flat_map(|l| {
                w.findings_at(&l)
                    .iter()
                    .map(|f| f.message.clone())
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    set_field(&mut app, "Min worker nodes", 0, "2");
    assert!(
        !said(&app, "Min worker nodes")
            .iter()
            .any(|m| m.contains("Compute lists")),
        "two free A100 workers serve two: {:?}",
        said(&app, "Min worker nodes")
    );
    set_field(&mut app, "Min worker nodes", 0, "3");
    assert!(
        said(&app, "Min worker nodes").iter().any(|m| m
            .contains("Compute lists 2 matching workers, worker pool worker-pool-1 asks for 3")),
        "{:?}",
        said(&app, "Min worker nodes")
    );
    assert!(
        wizard(&app)
            .findings
            .iter()
            .all(|f| f.rule.severity != Severity::Error || f.rule.id != "hosts.too-few"),
        "a warning, not an error"
    );
}

/// Performs every operation asked: access reviews allowed, everything else accepted. The
/// operations other than reviews are returned.
fn answer_all(app: &mut App) -> Vec<Operation> {
    let mut seen = Vec::new();
    for _ in 0..3 {
        for effect in std::mem::take(&mut app.effects) {
            if let Effect::Perform(operation) = effect {
                let outcome = match &operation {
                    Operation::AccessReview { .. } => Outcome::Allowed(true),
                    _ => Outcome::Done {
                        message: "accepted".into(),
                    },
                };
                if !matches!(operation, Operation::AccessReview { .. }) {
                    seen.push(operation.clone());
                }
                update(app, Msg::Performed { operation, outcome });
            }
        }
    }
    seen
}

#[test]
fn lists_and_mappings_are_typed_over_several_lines() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char('n')));
    set_field(&mut app, "Labels", 0, "team=ml\nenvironment=production");
    set_field(&mut app, "Description", 0, "Two A100 pools");
    set_field(&mut app, "Annotations", 0, "owner=ml-platform-team");
    let pool = &wizard(&app).draft.pool;
    assert_eq!(pool["metadata"]["labels"]["team"], "ml");
    assert_eq!(pool["metadata"]["labels"]["environment"], "production");
    assert_eq!(pool["metadata"]["annotations"]["owner"], "ml-platform-team");
    assert_eq!(
        pool["metadata"]["annotations"]["spectrocloud.com/description"], "Two A100 pools",
        "the description is another field's and stays"
    );
    // A line with no = is refused with its number; the editor stays open with the text.
    to_field(&mut app, "Labels", 0);
    update(&mut app, key(KeyCode::Enter));
    update(&mut app, key(KeyCode::Enter));
    typed(&mut app, "broken");
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)),
    );
    assert!(wizard(&app).editing.is_some());
    assert!(
        app.message.as_deref().is_some_and(|m| m.contains("line 3")),
        "{:?}",
        app.message
    );
    update(&mut app, key(KeyCode::Esc));
    assert_eq!(wizard(&app).draft.pool["metadata"]["labels"]["team"], "ml");

    to_step(&mut app, Step::NodeConfig);
    set_field(
        &mut app,
        "Worker groups",
        0,
        "palette.ai=true\ngpu-enabled=true",
    );
    update(&mut app, key(KeyCode::Char('a')));
    set_field(
        &mut app,
        "Taints",
        0,
        "workload-type=gpu-intensive:NoSchedule",
    );
    set_field(&mut app, "Labels", 0, "workload-type=gpu-training");
    let worker = &wizard(&app).draft.pool["spec"]["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]
        ["nodePoolRequirements"]["workerPools"][0];
    assert_eq!(worker["taints"][0]["effect"], "NoSchedule");
    assert_eq!(worker["labels"]["workload-type"], "gpu-training");
    // The Compute of ml-research tags no host gpu-enabled: said on the group's key.
    let said: Vec<String> = wizard(&app)
        .findings
        .iter()
        .map(|f| format!("{} {}", f.path, f.message))
        .collect();
    assert!(
        said.iter()
            .any(|m| m.contains("workerResourceGroups.gpu-enabled")
                && m.contains("no worker in Compute is tagged palette.ai.rg/gpu-enabled")),
        "{said:?}"
    );

    to_step(&mut app, Step::Deployment);
    set_field(
        &mut app,
        "SSH keys",
        0,
        "ssh-ed25519 AAAAC3Nza one@example.com\nssh-rsa AAAAB3Nza two@example.com",
    );
    let keys = wizard(&app)
        .draft
        .get(&YamlPath::keys(
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.sshKeys",
        ))
        .cloned();
    assert_eq!(
        keys,
        Some(serde_json::json!([
            "ssh-ed25519 AAAAC3Nza one@example.com",
            "ssh-rsa AAAAB3Nza two@example.com"
        ]))
    );
}

#[test]
fn a_paste_goes_into_the_field_and_never_acts_as_keys() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char('n')));
    to_step(&mut app, Step::Deployment);
    let before = wizard(&app).draft.clone();
    // No field open: a pasted "dx" must neither dry-run nor remove anything.
    update(&mut app, Msg::Paste("dx\n".into()));
    assert_eq!(wizard(&app).draft, before);
    assert!(app.message.as_deref().is_some_and(|m| m.contains("paste")));
    to_field(&mut app, "SSH keys", 0);
    update(&mut app, key(KeyCode::Enter));
    update(
        &mut app,
        Msg::Paste("ssh-ed25519 AAAA one\r\nssh-ed25519 BBBB two\n".into()),
    );
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)),
    );
    let keys = wizard(&app)
        .draft
        .get(&YamlPath::keys(
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.sshKeys",
        ))
        .and_then(Value::as_array)
        .map(Vec::len);
    assert_eq!(keys, Some(2));
}

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
    let line = wizard(&app)
        .lines()
        .into_iter()
        .find(|l| l.spec.label == "Scale-down at %" && l.worker == 0)
        .expect("the field");
    let said: Vec<String> = wizard(&app)
        .findings_at(&line)
        .iter()
        .map(|f| f.message.clone())
        .collect();
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
    app.effects.clear();
    update(&mut app, key(KeyCode::Char('d')));
    let sent = answer_all(&mut app);
    assert_eq!(sent.len(), 2, "{sent:?}");
    let answer = wizard(&app).dry_run.clone().unwrap_or_default();
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
    let row = app.shown.row(app.selected).expect("a row").id.clone();
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
    app.effects.clear();
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
    // The name is typed, then Confirm.
    update(&mut app, key(KeyCode::Tab));
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
        !app.effects
            .iter()
            .any(|e| matches!(e, Effect::DiscardDraft(_))),
        "the draft stays until the pool is created"
    );
    let waiting = app.recreating.clone().expect("waiting");
    assert_eq!(waiting.stage, recreate::RecreateStage::Waiting);
    // Still listed (Deleting): nothing is created.
    let now = app.now;
    update(&mut app, Msg::Tick(now));
    assert!(!app.effects.iter().any(|e| matches!(e, Effect::Perform(_))));
    // The watch reports it gone: the create goes, with the new VIP and nothing the server owns.
    let old = app
        .inventory
        .get(Kind::Pool, &row.namespace, &row.name)
        .expect("listed")
        .value();
    update(
        &mut app,
        Msg::Source(crate::inventory::SourceEvent::Deleted {
            kind: Kind::Pool,
            object: (*old).clone(),
        }),
    );
    let create = app
        .effects
        .iter()
        .find_map(|e| match e {
            Effect::Perform(op @ Operation::Create { .. }) => Some(op.clone()),
            _ => None,
        })
        .expect("the create is sent once the pool is gone");
    let Operation::Create { object, run } = &create else {
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
    app.effects.clear();
    update(
        &mut app,
        Msg::Performed {
            operation: create,
            outcome: Outcome::Done {
                message: "created".into(),
            },
        },
    );
    assert!(app.recreating.is_none());
    assert!(
        app.effects
            .iter()
            .any(|e| matches!(e, Effect::DiscardDraft(_)))
    );
}
