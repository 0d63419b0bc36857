//! Label selectors (`-l`) on every verb, against the demo cluster and next to kubectl: the
//! same names for the same selector, the same words for one that cannot be read, the pools a
//! verb matched listed before it acts, and a delete by selector confirmed by their number.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

use std::path::Path;

mod common;

use common::Served;

fn have_kubectl() -> bool {
    common::have("kubectl", &["version", "--client"])
}

fn pooldeck(served: &Served, state: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    common::pooldeck_on(served, state, args)
}

fn kubectl(served: &Served, args: &[&str]) -> (Option<i32>, String, String) {
    common::kubectl(served, args)
}

/// The names in the NAME column of a table pooldeck printed across namespaces.
fn names_in_table(table: &str) -> Vec<String> {
    let mut names: Vec<String> = table
        .lines()
        .skip(1)
        .filter_map(|line| line.split_whitespace().nth(1))
        .map(str::to_owned)
        .collect();
    names.sort();
    names
}

#[test]
fn get_and_kubectl_select_the_same_pools_and_refuse_the_same_selectors() {
    if !have_kubectl() {
        return;
    }
    let served = common::serve("fleet");
    let state = tempfile::tempdir().expect("dir");
    for selector in [
        "team=retail-edge",
        "team==ml-research",
        "team!=ml-research",
        "team in (retail-edge,vision-lab)",
        "team notin (retail-edge)",
        "controller.spectrocloud.com/pause",
        "!controller.spectrocloud.com/pause",
        "team=retail-edge,!controller.spectrocloud.com/pause",
        "team=nobody",
    ] {
        let (code, out, err) =
            pooldeck(&served, state.path(), &["get", "cp", "-A", "-l", selector]);
        assert_eq!(code, Some(0), "{selector}: {err}");
        let (kcode, kout, kerr) =
            kubectl(&served, &["get", "cp", "-A", "-l", selector, "-o", "name"]);
        assert_eq!(kcode, Some(0), "kubectl {selector}: {kerr}");
        let mut expected: Vec<String> = kout
            .lines()
            .filter_map(|l| l.strip_prefix("computepool.spectrocloud.com/"))
            .map(str::to_owned)
            .collect();
        expected.sort();
        assert_eq!(names_in_table(&out), expected, "-l {selector}");
        if expected.is_empty() {
            assert!(err.contains("No resources found"), "{selector}: {err}");
        }
    }
    // One that cannot be read: refused by both, with the same words, before any list.
    for selector in ["a==b==c", "team in retail", "-lteam=x", "team=retail,"] {
        let (code, _, err) = pooldeck(&served, state.path(), &["get", "cp", "-A", "-l", selector]);
        let (kcode, _, kerr) = kubectl(&served, &["get", "cp", "-A", "-l", selector]);
        assert_eq!(
            (code, kcode),
            (Some(1), Some(1)),
            "{selector}: {err} / {kerr}"
        );
        let words = err
            .split("unable to parse requirement: ")
            .nth(1)
            .unwrap_or_else(|| panic!("{selector}: {err}"))
            .trim();
        assert!(
            kerr.contains(words),
            "{selector}: ours {err}, kubectl's {kerr}"
        );
    }
}

#[test]
fn the_verbs_list_what_they_matched_and_a_delete_by_selector_is_confirmed_by_its_count() {
    let served = common::serve("fleet");
    let state = tempfile::tempdir().expect("dir");
    let dir = state.path();
    // The doctor only on the pools selected.
    let (code, out, err) = pooldeck(
        &served,
        dir,
        &["doctor", "-A", "-l", "team=vision-lab", "-o", "json"],
    );
    assert!(matches!(code, Some(0 | 1)), "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).expect("json");
    let namespaces: Vec<&str> = report["pools"]
        .as_array()
        .expect("pools")
        .iter()
        .filter_map(|p| p["namespace"].as_str())
        .collect();
    assert!(!namespaces.is_empty());
    assert!(
        namespaces.iter().all(|ns| *ns == "vision-lab"),
        "{namespaces:?}"
    );
    let (code, _, err) = pooldeck(&served, dir, &["doctor", "-A", "-l", "a==b==c"]);
    assert_eq!(code, Some(2), "a usage error, not a finding: {err}");

    // Pause lists the pools it matched, then plans them; the dry run changes nothing.
    let before = common::counts(&served).0;
    let (code, out, err) = pooldeck(
        &served,
        dir,
        &[
            "pause",
            "-n",
            "retail-edge",
            "-l",
            "team=retail-edge",
            "--dry-run",
        ],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("4 Compute Pools in retail-edge match -l team=retail-edge: edge-store-114, edge-store-207, edge-store-311, recsys"),
        "{out}"
    );
    assert!(out.contains("Pause 3 Compute Pools"), "{out}");
    // Names and a selector together are refused, as is an empty match.
    let (code, _, err) = pooldeck(
        &served,
        dir,
        &["resume", "recsys", "-l", "team=x", "-n", "retail-edge"],
    );
    assert_eq!(code, Some(2), "{err}");
    let (code, _, err) = pooldeck(
        &served,
        dir,
        &["delete", "-n", "retail-edge", "-l", "team=nobody", "--yes"],
    );
    assert_eq!(code, Some(1));
    assert!(
        err.contains("no Compute Pool in retail-edge matches -l team=nobody: nothing was sent"),
        "{err}"
    );
    // Without a terminal and without --yes, a delete by selector asks nobody: refused.
    let (code, _, err) = pooldeck(
        &served,
        dir,
        &["delete", "-n", "vision-lab", "-l", "team=vision-lab"],
    );
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(
        common::counts(&served).0,
        before + 3,
        "only the pause's three dry runs were sent"
    );

    // With --yes: every matched pool is deleted, each after its dry run.
    let (code, out, err) = pooldeck(
        &served,
        dir,
        &[
            "delete",
            "-n",
            "vision-lab",
            "-l",
            "team=vision-lab",
            "--yes",
        ],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("3 Compute Pools in vision-lab match -l team=vision-lab"),
        "{out}"
    );
    common::eventually("the vision-lab pools go", || {
        let (_, out, _) = kubectl(&served, &["get", "cp", "-n", "vision-lab", "-o", "name"]);
        out.trim().is_empty()
    });
}

/// Connection flags given before the command (as `kubectl pooldeck --context X ...` passes
/// them) reach it, never ignored: the command acts on the hub named, or is refused. A blank
/// selector never selects every pool for a verb that acts; a name and -l together are refused.
#[test]
fn flags_before_the_command_reach_it_and_a_blank_selector_acts_on_nothing() {
    let served = common::serve("fleet");
    let state = tempfile::tempdir().expect("dir");
    let dir = state.path();
    // An unknown context before the command: refused as it is after it.
    let (code, _, err) = pooldeck(&served, dir, &["--context", "nosuch", "get", "pools", "-A"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("no context \"nosuch\""), "{err}");
    let (code, _, err) = pooldeck(
        &served,
        dir,
        &[
            "--context",
            "nosuch",
            "pause",
            "recsys",
            "-n",
            "retail-edge",
            "--dry-run",
        ],
    );
    assert_ne!(code, Some(0), "{err}");
    assert!(err.contains("no context \"nosuch\""), "{err}");
    // The viewer's context before the command: its pause is the viewer's, refused.
    let before = common::counts(&served).0;
    let (code, _, err) = pooldeck(
        &served,
        dir,
        &[
            "--context",
            "pooldeck-demo-viewer",
            "pause",
            "recsys",
            "-n",
            "retail-edge",
            "--dry-run",
        ],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("not permitted"), "{err}");
    assert_eq!(common::counts(&served).0, before, "nothing was sent");
    // -n before the command.
    let (code, out, err) = pooldeck(
        &served,
        dir,
        &["-n", "vision-lab", "get", "pools", "-o", "name"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.lines().count(), 3, "{out}");
    // Given twice, differently: refused.
    let (code, _, err) = pooldeck(
        &served,
        dir,
        &["--context", "a", "get", "pools", "--context", "b"],
    );
    assert_eq!(code, Some(2), "{err}");
    // A blank selector (an unset variable) acts on nothing.
    for verb in ["pause", "resume", "delete"] {
        for blank in ["", " "] {
            let (code, out, err) = pooldeck(
                &served,
                dir,
                &[verb, "-n", "retail-edge", "-l", blank, "--dry-run"],
            );
            assert_eq!(code, Some(2), "{verb} -l {blank:?}: {out}{err}");
            assert!(err.contains("empty selector"), "{err}");
        }
    }
    assert_eq!(common::counts(&served).0, before, "nothing was sent");
    // A name and a selector together: refused, as kubectl refuses them.
    let (code, _, _) = pooldeck(
        &served,
        dir,
        &["get", "cp", "recsys", "-n", "retail-edge", "-l", "team=x"],
    );
    assert_eq!(code, Some(2));
}
