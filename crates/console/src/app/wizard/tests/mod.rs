//! The wizard as message scripts: an inline error appears and goes as a field is fixed, a
//! pool with a GPU worker pool is written from empty and applied behind the confirmation,
//! every change is saved as a draft, and an edit keeps the VIP locked.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::super::tests::fleet_app;
use super::*;
use crate::app::Overlay;
use crate::app::script::{forget_returned, returned, take_returned, update};
use crate::app::{App, Effect, Msg};
use crate::domain::Outcome;
use crate::domain::draft::Step;
use crate::domain::path::YamlPath;
use crate::domain::rules::Severity;
use crate::domain::{Kind, Operation, Run};
use serde_json::Value;

fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        update(app, key(KeyCode::Char(c)));
    }
}

/// A pool as the console holds it.
fn live_pool(app: &App, namespace: &str, name: &str) -> Value {
    (*app
        .fleet
        .inventory
        .get(Kind::Pool, namespace, name)
        .unwrap_or_else(|| panic!("{namespace}/{name} in the picture"))
        .value())
    .clone()
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

/// The messages of the findings shown on a field (of this worker pool or policy GPU entry).
fn said_on(app: &App, label: &str, worker: usize) -> Vec<String> {
    let w = wizard(app);
    w.lines()
        .into_iter()
        .filter(|l| l.spec.label == label && l.worker == worker)
        .flat_map(|l| {
            w.findings_at(&l)
                .iter()
                .map(|f| f.message.clone())
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn a_gpu_pool_is_written_from_empty_and_applied() {
    let mut app = fleet_app();
    forget_returned();
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
        returned().iter().any(
            |e| matches!(e, Effect::SaveDraft { saved, .. } if saved.name() == "gpu-pool-two")
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
        // ml-research has no A100 or H100 left; the Tenant's L40S cap leaves 10.
        set_field(&mut app, "GPU variant", worker, "NVIDIA L40S | 48 GB");
        set_field(&mut app, "GPU count", worker, "2");
        set_field(&mut app, "GPU memory", worker, "96 GB");
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
    answer_all(&mut app);
    update(&mut app, key(KeyCode::Tab));
    update(&mut app, key(KeyCode::Enter));
    let create = returned()
        .iter()
        .find_map(|e| match e {
            Effect::Perform(request)
                if matches!(request.operation, Operation::Create { run: Run::Real, .. }) =>
            {
                Some(request.clone())
            }
            _ => None,
        })
        .expect("the create is sent");
    update(
        &mut app,
        Msg::Performed {
            request: create,
            outcome: Outcome::Done {
                message: "created".into(),
            },
        },
    );
    assert!(app.overlays.is_empty(), "the wizard closes once applied");
    assert!(
        returned()
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
        returned().iter().any(|e| matches!(
            e,
            Effect::Perform(request) if matches!(request.operation, Operation::Update {
                run: Run::DryRun,
                ..
            })
        )),
        "{:?}",
        returned()
    );
}

/// The Longhorn replica count is locked in an edit, saying why and the way out (recreate);
/// choosing one control-plane node makes the pool single-node with its companions.
#[test]
fn an_edit_keeps_the_replica_count_locked_and_one_node_is_single_node() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char('e')));
    to_step(&mut app, Step::NodeConfig);
    let before = wizard(&app).draft.clone();
    to_field(&mut app, "Longhorn replicas", 0);
    update(&mut app, key(KeyCode::Char(' ')));
    assert_eq!(wizard(&app).draft, before, "a locked field does not cycle");
    update(&mut app, key(KeyCode::Enter));
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("immutable") && m.contains("PersistentVolumeClaim")),
        "{:?}",
        app.message
    );
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, key(KeyCode::Esc));

    update(&mut app, key(KeyCode::Char('n')));
    to_step(&mut app, Step::NodeConfig);
    to_field(&mut app, "Single-node cluster", 0);
    update(&mut app, key(KeyCode::Char(' ')));
    let draft = &wizard(&app).draft;
    let control = |k: &str| {
        draft
            .get(&YamlPath::keys(crate::domain::rules::paths::CONTROL_PLANE).key(k))
            .cloned()
    };
    assert_eq!(control("singleNodeCluster"), Some(serde_json::json!(true)));
    assert_eq!(control("nodeCount"), Some(serde_json::json!(1)));
    assert_eq!(control("workerNodeEligible"), Some(serde_json::json!(true)));
    assert_eq!(draft.worker_pools(), 1);
}

#[test]
fn a_taken_vip_and_a_quota_overrun_are_said_on_their_fields() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char('n')));
    let namespace = wizard(&app).draft.pool["metadata"]["namespace"].clone();
    assert_eq!(namespace, "ml-research", "the selected pool's namespace");
    to_step(&mut app, Step::Deployment);
    let taken = app
        .fleet
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
    let said = said_on(&app, "VIP", 0);
    assert!(
        said.iter().any(|m| m.contains("already used by")),
        "{said:?}"
    );

    to_step(&mut app, Step::NodeConfig);
    update(&mut app, key(KeyCode::Char('a')));
    set_field(&mut app, "GPU variant", 0, "NVIDIA A100-SXM4-80GB | 80 GB");
    set_field(&mut app, "GPU count", 0, "4");
    let said = said_on(&app, "GPU count", 0);
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
        .row(app.list.selected)
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
    let said = |app: &App, label: &str| said_on(app, label, 0);
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
        for effect in take_returned() {
            if let Effect::Perform(request) = effect {
                let outcome = match &request.operation {
                    Operation::AccessReview { .. } => Outcome::Allowed(true),
                    _ => Outcome::Done {
                        message: "accepted".into(),
                    },
                };
                if !matches!(request.operation, Operation::AccessReview { .. }) {
                    seen.push(request.operation.clone());
                }
                update(app, Msg::Performed { request, outcome });
            }
        }
    }
    seen
}

mod drafts;
mod editing;
mod guards;
mod namespace;
mod policy;
