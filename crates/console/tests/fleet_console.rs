//! The console across hubs (the fleet view), used as a person would, in tmux: three demo hubs
//! in one kubeconfig, `pooldeck --all-contexts`. One list across the hubs with a HUB column;
//! each hub's state beside its name in the header, so one hub stopped mid-run reads STALE
//! there alone while the others keep updating; `:hub NAME` narrows to one; a pause confirmed
//! on a hub-b row names hub-b in its dialog and reaches hub-b only (each hub's write counter);
//! marks stay on one hub.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

mod common;

use common::hubs::Hubs;
use common::tmux::{self, Session};

/// The console on the three hubs, every namespace, at 160×48.
fn console(hubs: &Hubs, name: &str) -> Session {
    let command = format!(
        "XDG_CONFIG_HOME={} XDG_STATE_HOME={} {} --kubeconfig {} --all-contexts -A",
        hubs.config.display(),
        hubs.dir.path().join("state").display(),
        assert_cmd::cargo::cargo_bin("pooldeck").display(),
        hubs.kubeconfig.display()
    );
    Session::start(format!("{name}-{}", std::process::id()), &command, 160, 48)
}

/// The header's second line: each hub and its state.
fn hub_line(screen: &str) -> &str {
    screen.lines().nth(1).unwrap_or_default()
}

/// The screen's rows of one hub's pool.
fn rows_of<'s>(screen: &'s str, hub: &str, name: &str) -> Vec<&'s str> {
    screen
        .lines()
        .filter(|l| l.starts_with(&format!("{hub} ")) && l.contains(&format!(" {name} ")))
        .collect()
}

#[test]
fn every_hubs_pools_in_one_list_and_a_hub_stopped_goes_stale_alone() {
    if !tmux::available() {
        return;
    }
    let mut hubs = Hubs::start("fleet");
    let console = console(&hubs, "fleet-stale");
    let screen = console.wait("the three hubs' pools", |s| {
        s.contains("Compute Pools (36)")
            && ["hub-a", "hub-b", "hub-c"]
                .iter()
                .all(|h| hub_line(s).contains(&format!("{h} ✓ 12 pools")))
    });
    let header = screen
        .lines()
        .find(|l| l.contains("NAMESPACE") && l.contains("NAME"))
        .expect("the column headers");
    assert!(header.starts_with("HUB "), "{header}");
    for hub in ["hub-a", "hub-b", "hub-c"] {
        assert_eq!(rows_of(&screen, hub, "llm-train").len(), 1, "{screen}");
    }

    // hub-b's server stops: its hub reads STALE; the others stay live and keep updating.
    hubs.stop(1);
    let screen = console.wait("hub-b stale, the others live", |s| {
        let line = hub_line(s);
        line.contains("hub-b STALE")
            && line.contains("hub-a ✓ 12 pools")
            && line.contains("hub-c ✓ 12 pools")
    });
    // Its rows stay listed (the last picture), beside the live hubs'.
    assert_eq!(rows_of(&screen, "hub-b", "llm-train").len(), 1, "{screen}");
    hubs.set_status(2, "vision-lab", "detector", "Failed");
    let screen = console.wait("hub-c's change while hub-b is down", |s| {
        rows_of(s, "hub-c", "detector")
            .first()
            .is_some_and(|row| row.contains(" Failed "))
    });
    assert!(
        rows_of(&screen, "hub-a", "detector")[0].contains(" Running "),
        "only hub-c's pool changed:\n{screen}"
    );
    assert!(hub_line(&screen).contains("hub-b STALE"), "{screen}");

    // `:hub hub-c` narrows the list to hub-c (no HUB column then); `:hub *` shows all again.
    console.keys(&[":"]);
    console.type_text("hub hub-c");
    console.keys(&["Enter"]);
    let screen = console.wait("hub-c alone", |s| s.contains("Compute Pools (12)"));
    assert!(
        !screen.lines().any(|l| l.starts_with("HUB ")),
        "one hub: no HUB column\n{screen}"
    );
    assert!(screen.contains("1 of 3 hubs"), "{screen}");
    assert!(
        screen.lines().next().is_some_and(|l| l.contains("hub-c")),
        "{screen}"
    );
    console.keys(&[":"]);
    console.type_text("hub *");
    console.keys(&["Enter"]);
    console.wait("every hub again", |s| s.contains("Compute Pools (36)"));
}

#[test]
fn a_pause_confirmed_on_a_hub_b_row_reaches_hub_b_only() {
    if !tmux::available() {
        return;
    }
    let hubs = Hubs::start("fleet");
    let console = console(&hubs, "fleet-pause");
    console.wait("the three hubs' pools", |s| {
        s.contains("Compute Pools (36)")
            && ["hub-a", "hub-b", "hub-c"]
                .iter()
                .all(|h| hub_line(s).contains(&format!("{h} ✓ 12 pools")))
    });
    // The three llm-train pools, one per hub, in the hubs' order.
    console.keys(&["/"]);
    console.type_text("llm-train");
    console.keys(&["Enter"]);
    console.wait("one llm-train per hub", |s| s.contains("Compute Pools (3)"));
    console.keys(&["j"]);
    console.wait("acting on hub-b", |s| s.contains("acting on hub-b"));

    // Marks stay on one hub: hub-b's marked, hub-c's refused with the reason.
    console.keys(&["Space"]);
    console.wait("hub-b's pool marked", |s| s.contains("1 marked"));
    console.keys(&["Space"]);
    let screen = console.wait("the mark on hub-c refused", |s| {
        s.contains("this row is on hub hub-c")
    });
    assert!(screen.contains("1 marked"), "{screen}");
    // Unmarked again: the pause is for the row under the cursor.
    console.keys(&["k", "Space"]);
    console.wait("no marks", |s| !s.contains("1 marked"));
    console.keys(&["k"]);
    console.wait("acting on hub-b", |s| s.contains("acting on hub-b"));

    let before = hubs.writes();
    console.keys(&["p"]);
    let screen = console.wait("the dialog on hub-b, its dry run passed", |s| {
        s.contains("Dry run passed")
    });
    assert!(screen.contains("On hub hub-b ("), "{screen}");
    assert!(screen.contains("--context hub-b label"), "{screen}");
    console.keys(&["Tab", "Enter"]);
    console.wait("the pause done", |s| s.contains("pause=true set"));
    let after = hubs.writes();
    assert_eq!(after[0], before[0], "hub-a: {before:?} -> {after:?}");
    assert!(after[1] > before[1], "hub-b: {before:?} -> {after:?}");
    assert_eq!(after[2], before[2], "hub-c: {before:?} -> {after:?}");
    assert!(hubs.paused(1, "ml-research", "llm-train"));
    assert!(!hubs.paused(0, "ml-research", "llm-train"));
    assert!(!hubs.paused(2, "ml-research", "llm-train"));
    // The list shows it on hub-b's row only.
    let screen = console.wait("hub-b's row paused", |s| {
        rows_of(s, "hub-b", "llm-train")
            .first()
            .is_some_and(|r| r.contains(" yes "))
    });
    for hub in ["hub-a", "hub-c"] {
        assert!(
            !rows_of(&screen, hub, "llm-train")[0].contains(" yes "),
            "{screen}"
        );
    }
}
