//! The first hour without surprises, as a person meets it in tmux: the wizard's fields edit
//! as a shell's line does (Ctrl-U, Ctrl-W, Ctrl-Z undo), a letter outside a field says which
//! keys act, `pooldeck new` ends after its apply saying what it created, and a dialog taller
//! than 80×24 scrolls with its buttons in view. Each wait has its own deadline.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails

mod common;

use common::tmux::Session;

fn pane(name: &str, command: &str, width: u16, height: u16) -> Session {
    let session = format!("pooldeck-first-hour-{name}-{}", std::process::id());
    Session::start(session, command, width, height)
}

fn binary() -> String {
    assert_cmd::cargo::cargo_bin("pooldeck")
        .display()
        .to_string()
}

/// The console on the demo's `scenario` in tmux, its state in a directory of its own.
fn demo(name: &str, scenario: &str, width: u16, height: u16) -> (Session, tempfile::TempDir) {
    let state = tempfile::tempdir().expect("dir");
    let command = format!(
        "env XDG_STATE_HOME={} {} --demo {scenario}; sleep 60",
        state.path().display(),
        binary()
    );
    (pane(name, &command, width, height), state)
}

/// `pooldeck ARGS` on the served hub in tmux (120×40), its settings and state in `state`;
/// the shell then says its exit status (`EXIT=N`).
fn on_hub(name: &str, served: &common::Served, state: &std::path::Path, args: &str) -> Session {
    let command = format!(
        "env KUBECONFIG={} XDG_CONFIG_HOME={dir} XDG_STATE_HOME={dir} {} {args}; echo EXIT=$?; \
         sleep 60",
        served.kubeconfig.display(),
        binary(),
        dir = state.display(),
    );
    pane(name, &command, 120, 40)
}

#[test]
fn the_wizards_fields_edit_as_a_shell_line_and_letters_outside_say_which_keys_act() {
    if !common::tmux::available() {
        return;
    }
    let (pane, _state) = demo("fields", "fleet", 120, 40);
    pane.wait_for("Compute Pools (12)");
    pane.keys(&["n"]);
    pane.wait_for("New Compute Pool");
    // A letter outside a field runs nothing (p would pause a pool on the list): it says so.
    pane.keys(&["p"]);
    pane.wait_for("p does nothing here: Enter types into the field");
    assert!(!pane.screen().contains("Pause"), "no dialog opened");
    pane.keys(&["Enter"]);
    pane.type_text("alpha beta gamma");
    pane.wait_for("alpha beta gamma▏");
    pane.keys(&["C-w"]);
    pane.wait("a word gone", |s| {
        s.contains("alpha beta ▏") && !s.contains("gamma")
    });
    pane.keys(&["C-u"]);
    pane.wait("the line cleared", |s| !s.contains("alpha"));
    pane.keys(&["C-z"]);
    pane.wait_for("alpha beta ▏");
    // Still the wizard: Ctrl-Z in a field undid, it did not suspend.
    assert!(pane.screen().contains("New Compute Pool"));
}

#[test]
fn new_ends_after_its_apply_saying_what_it_created() {
    if !common::tmux::available() {
        return;
    }
    let served = common::serve("vip-conflict");
    let state = tempfile::tempdir().expect("dir");
    let file = state.path().join("lab-c.yaml");
    let lab_b = common::kubectl(&served, &["get", "cp", "lab-b", "-n", "labs", "-o", "json"]);
    let lab_b: serde_json::Value = serde_json::from_str(&lab_b.1).expect("lab-b");
    let mut spec = lab_b["spec"].clone();
    spec["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]["edge"]["vip"] =
        "10.80.0.12".into();
    let pool = serde_json::json!({
        "apiVersion": "spectrocloud.com/v1alpha1",
        "kind": "ComputePool",
        "metadata": {"name": "lab-c", "namespace": "labs"},
        "spec": spec,
    });
    std::fs::write(&file, serde_json::to_string(&pool).expect("json")).expect("written");
    let pane = on_hub(
        "apply",
        &served,
        state.path(),
        &format!("new --from {}", file.display()),
    );
    pane.wait_for("New Compute Pool in labs");
    pane.keys(&["Tab", "Tab", "Tab", "Tab", "Tab", "Tab"]);
    pane.wait("Review without errors", |s| {
        s.contains("› Review") && s.contains("0 errors")
    });
    pane.keys(&["Enter"]);
    pane.wait_for("Create Compute Pool lab-c");
    pane.wait_for("Dry run passed");
    pane.keys(&["Tab", "Enter"]);
    let end = pane.wait_for("EXIT=0");
    assert!(
        end.contains("computepool.spectrocloud.com/lab-c created (namespace labs"),
        "{end}"
    );
    let made = common::kubectl(&served, &["get", "cp", "lab-c", "-n", "labs", "-o", "name"]);
    assert_eq!(made.1.trim(), "computepool.spectrocloud.com/lab-c");
}

#[test]
fn a_dialog_taller_than_the_screen_scrolls_with_its_buttons_in_view() {
    if !common::tmux::available() {
        return;
    }
    let (pane, _state) = demo("dialog", "deletion-blocked", 80, 24);
    pane.wait_for("Compute Pools (3)");
    pane.keys(&["C-d"]);
    // The name is typed in the field; the text above says there is more, and the arrows
    // scroll it there (letters go into the name).
    let first = pane.wait_for("↓ more below");
    assert!(
        first.contains("[  Cancel  ]") && first.contains("Type blocked-pool"),
        "{first}"
    );
    pane.keys(&[
        "Down", "Down", "Down", "Down", "Down", "Down", "Down", "Down",
    ]);
    let end = pane.wait("the end of the text", |s| {
        s.contains("kubectl equivalent") && s.contains("↑ more above")
    });
    assert!(
        end.contains("[  Cancel  ]") && end.contains("Confirm"),
        "{end}"
    );
    pane.keys(&["PageUp"]);
    pane.wait_for("↓ more below");
}

#[test]
fn the_wizard_offers_the_hubs_gpu_variants_and_groups() {
    if !common::tmux::available() {
        return;
    }
    let (pane, _state) = demo("variants", "fleet", 150, 45);
    pane.wait_for("Compute Pools (12)");
    pane.keys(&["n"]);
    pane.wait_for("New Compute Pool in ml-research");
    pane.keys(&["Tab", "Tab", "Tab"]);
    pane.wait_for("› Node Config");
    // The groups the Computes give their machines, beside the groups fields.
    pane.keys(&["j", "j", "j", "j", "j", "j"]);
    pane.wait_for("the Computes give their machines: palette.ai=true");
    // A worker pool's GPU variant: the namespace's variants, each with its free machines.
    pane.keys(&["a", "j", "j", "j", "j", "j"]);
    pane.wait_for(
        "Space picks: NVIDIA A100-SXM4-80GB | 80 GB (2 free), NVIDIA H100 PCIe | 80 GB (0 free)",
    );
    pane.keys(&["Space"]);
    pane.wait("the variant picked", |s| {
        s.lines()
            .any(|l| l.contains("GPU variant") && l.contains("NVIDIA A100-SXM4-80GB | 80 GB"))
    });
}

#[test]
fn unblock_on_a_terminal_asks_for_the_name_and_a_wrong_one_sends_nothing() {
    if !common::tmux::available() {
        return;
    }
    let served = common::serve("deletion-blocked");
    let state = tempfile::tempdir().expect("dir");
    let audit = state.path().join("audit.log");
    let args = format!(
        "unblock stuck-pool -n vision-lab --audit-log {}",
        audit.display()
    );
    let pane = on_hub("unblock", &served, state.path(), &args);
    let asked = pane.wait_for("type stuck-pool to go on, anything else cancels:");
    assert!(
        asked.contains("Dry run passed") || asked.contains("dry run"),
        "{asked}"
    );
    pane.type_text("stuck");
    pane.keys(&["Enter"]);
    let end = pane.wait_for("EXIT=1");
    assert!(end.contains("cancelled: nothing was changed"), "{end}");
    let workload = "/apis/spectrocloud.com/v1alpha1/namespaces/vision-lab/aiworkloads/stale-job";
    assert!(
        common::raw(&served, workload).is_some(),
        "nothing was deleted"
    );
}

#[test]
fn at_80x24_the_wizards_focused_field_stays_in_view_below_wrapped_warnings() {
    if !common::tmux::available() {
        return;
    }
    let (pane, _state) = demo("narrow", "fleet", 80, 24);
    pane.wait_for("Compute Pools (12)");
    pane.keys(&["n"]);
    pane.wait_for("New Compute Pool in ml-research");
    pane.keys(&["Tab", "Tab", "Tab"]);
    pane.wait_for("› Node Config");
    // A worker pool's GPU variant picked twice (H100, none free): warnings wrap above it.
    pane.keys(&["a", "j", "j", "j", "j", "j", "Space", "Space"]);
    pane.wait("the field and its choices in view", |s| {
        s.lines()
            .any(|l| l.contains("GPU variant") && l.contains("NVIDIA H100 PCIe"))
            && s.contains("Space picks:")
    });
}
