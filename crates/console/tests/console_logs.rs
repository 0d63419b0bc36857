//! The controller's log beside a pool, as a person uses it: the real binary in tmux on
//! `--demo deletion-blocked`, `l` on the pool whose deletion is stuck, its lines (the scenario's
//! scripted ones) and followed lines arriving, every line with `a`, a search with `/` (Esc
//! drops it), and Esc back to the list. Each wait has its own deadline.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

mod common;

use common::tmux::Session;

#[test]
fn l_follows_the_controllers_lines_about_the_pool() {
    if !common::tmux::available() {
        return;
    }
    let state = tempfile::tempdir().expect("temp dir");
    let command = format!(
        "env XDG_STATE_HOME={} {} --demo deletion-blocked; sleep 60",
        state.path().display(),
        assert_cmd::cargo::cargo_bin("pooldeck").display()
    );
    let pane = Session::start(
        format!("pooldeck-logs-{}", std::process::id()),
        &command,
        150,
        40,
    );
    pane.wait_for("Compute Pools (3)");
    pane.keys(&["/"]);
    pane.type_text("stuck-pool");
    pane.keys(&["Enter"]);
    pane.wait_for("Compute Pools (1)");
    pane.keys(&["l"]);
    pane.wait_for("Controller log · vision-lab/stuck-pool · lines about the pool");
    let first = pane.wait_for("stale-job");
    assert!(
        !first.contains("free-pool"),
        "only the lines about the pool: {first}"
    );
    // Followed: a new reconcile line about the pool arrives (one every few seconds, in turn).
    let count = |screen: &str| screen.matches("Reconciling ComputePool").count();
    let before = count(&first);
    pane.wait("a followed line", |s| count(s) > before);
    pane.keys(&["a"]);
    pane.wait_for("every line");
    pane.wait_for("free-pool");
    pane.keys(&["/"]);
    pane.type_text("Finalizer");
    pane.keys(&["Enter"]);
    pane.wait_for("scrolled back");
    // The first Esc drops the search kept with Enter and the view stays: `/` then opens a new
    // search in it, which Esc drops too. The next Esc closes the view.
    pane.keys(&["Escape"]);
    pane.keys(&["/"]);
    pane.wait_for("search /");
    pane.keys(&["Escape"]);
    pane.wait("the search prompt gone", |s| {
        s.contains("Controller log") && !s.contains("search /")
    });
    pane.keys(&["Escape"]);
    pane.wait("the list again", |s| {
        s.contains("Compute Pools (1)") && !s.contains("Controller log")
    });
}
