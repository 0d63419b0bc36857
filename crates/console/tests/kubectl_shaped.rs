//! `pooldeck get` printed as kubectl prints the same request, side by side on the demo: the
//! object for a name, `-o name`, `-o jsonpath=`, `--sort-by`, `--no-headers`, and an unknown
//! format refused with kubectl's words.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

mod common;

use common::Served;

fn have_kubectl() -> bool {
    common::have("kubectl", &["version", "--client"])
}

/// `pooldeck get ARGS` against the served demo.
fn pooldeck(served: &Served, args: &[&str]) -> (Option<i32>, String, String) {
    let state = tempfile::tempdir().expect("dir");
    let mut all = vec!["get"];
    all.extend_from_slice(args);
    common::pooldeck_on(served, state.path(), &all)
}

/// `kubectl get ARGS` against the served demo.
fn kubectl(served: &Served, args: &[&str]) -> (Option<i32>, String, String) {
    let mut all = vec!["get"];
    all.extend_from_slice(args);
    common::kubectl(served, &all)
}

#[test]
fn get_prints_what_kubectl_prints() {
    if !have_kubectl() {
        return;
    }
    let served = common::serve("fleet");
    // The same text for the same request (the fleet scenario moves utilization, which none of
    // these print).
    for args in [
        &["cp", "-A", "-o", "name"][..],
        &["cp", "-n", "ml-research", "-o", "name"],
        &["cp", "-A", "-l", "team=retail-edge", "-o", "name"],
        &[
            "cp",
            "-A",
            "--sort-by=.metadata.creationTimestamp",
            "-o",
            "name",
        ],
        &["cp", "-A", "--sort-by={.metadata.name}", "-o", "name"],
        &[
            "cp",
            "-A",
            "-o",
            "jsonpath={range .items[*]}{.metadata.namespace}/{.metadata.name}{\"\\t\"}{.status.status}{\"\\n\"}{end}",
        ],
        &[
            "cp",
            "llm-train",
            "-n",
            "ml-research",
            "-o",
            "jsonpath={.spec.clusterVariant.dedicated.scalingPolicyRef.name}",
        ],
        &[
            "cp",
            "-A",
            "-o",
            "jsonpath={.items[?(@.metadata.labels.team==\"vision-lab\")].metadata.name}",
        ],
    ] {
        let ours = pooldeck(&served, args);
        let theirs = kubectl(&served, args);
        assert_eq!(ours.0, Some(0), "{args:?}: {}", ours.2);
        assert_eq!(theirs.0, Some(0), "kubectl {args:?}: {}", theirs.2);
        assert_eq!(ours.1, theirs.1, "{args:?}");
    }
    // A name is the object, not a List of one.
    for format in ["json", "yaml"] {
        let (code, out, err) = pooldeck(
            &served,
            &["cp", "llm-train", "-n", "ml-research", "-o", format],
        );
        assert_eq!(code, Some(0), "{err}");
        assert!(
            out.contains("kind: ComputePool") || out.contains("\"kind\": \"ComputePool\""),
            "{out}"
        );
        assert!(!out.contains("List"), "{out}");
    }
    // Without headers: the rows alone.
    let (_, with, _) = pooldeck(&served, &["cp", "-n", "ml-research"]);
    let (_, without, _) = pooldeck(&served, &["cp", "-n", "ml-research", "--no-headers"]);
    assert!(with.starts_with("NAME"), "{with}");
    assert_eq!(
        without.lines().count(),
        with.lines().count() - 1,
        "{without}"
    );
    assert!(without.starts_with("llm-finetune"), "{without}");
    // A format neither knows: both name the output format they cannot print.
    let (code, _, err) = pooldeck(&served, &["cp", "-A", "-o", "xml"]);
    let (_, _, kerr) = kubectl(&served, &["cp", "-A", "-o", "xml"]);
    assert_ne!(code, Some(0));
    let words = "unable to match a printer suitable for the output format \"xml\"";
    assert!(
        err.contains(words) && kerr.contains(words),
        "{err} / {kerr}"
    );
    // An index past the end fails, as kubectl's does (a script gets a failure, not an empty
    // string); a missing field prints nothing, as kubectl's does.
    let past = ["cp", "-A", "-o", "jsonpath={.items[40].metadata.name}"];
    let (code, _, err) = pooldeck(&served, &past);
    let (kcode, _, kerr) = kubectl(&served, &past);
    assert_eq!((code, kcode), (Some(1), Some(1)), "{err} / {kerr}");
    let words = "array index out of bounds: index 40, length 12";
    assert!(err.contains(words) && kerr.contains(words), "{err}");
    let missing = ["cp", "-A", "-o", "jsonpath={.items[0].metadata.nothing}"];
    assert_eq!(pooldeck(&served, &missing).0, Some(0));
    // A --sort-by path no object has is refused (it would sort by nothing in silence).
    let (code, _, err) = pooldeck(&served, &["cp", "-A", "--sort-by=.nope"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("--sort-by"), "{err}");
    // A template that cannot be read is refused before anything is asked.
    let (code, _, err) = pooldeck(
        &served,
        &["cp", "-A", "-o", "jsonpath={range .items[*]}{.x}"],
    );
    assert_ne!(code, Some(0));
    assert!(err.contains("error parsing jsonpath"), "{err}");
}

/// `--field-selector`: the same objects as kubectl's for the fields the API server selects
/// on; a selector a real server answers 400 (malformed, or a field it does not select on) is
/// refused with exit 1, before anything is listed.
#[test]
fn field_selectors_select_as_the_server_does() {
    if !have_kubectl() {
        return;
    }
    let served = common::serve("fleet");
    for args in [
        &[
            "cp",
            "-A",
            "--field-selector",
            "metadata.name=llm-train",
            "-o",
            "name",
        ][..],
        &[
            "cp",
            "-A",
            "--field-selector",
            "metadata.namespace!=ml-research",
            "-o",
            "name",
        ],
        &[
            "cpe",
            "-A",
            "--field-selector",
            "metadata.name==rl-sim",
            "-o",
            "name",
        ],
        &[
            "events",
            "-A",
            "--field-selector",
            "type=Warning",
            "-o",
            "name",
        ],
        &[
            "events",
            "-A",
            "--field-selector",
            "involvedObject.kind=ComputePool,involvedObject.name=video-analytics",
            "-o",
            "name",
        ],
    ] {
        let ours = pooldeck(&served, args);
        let theirs = kubectl(&served, args);
        assert_eq!(ours.0, Some(0), "{args:?}: {}", ours.2);
        assert_eq!(theirs.0, Some(0), "kubectl {args:?}: {}", theirs.2);
        assert!(!ours.1.is_empty(), "{args:?} selects something");
        let sorted = |text: &str| {
            let mut lines: Vec<&str> = text.lines().collect();
            lines.sort_unstable();
            lines.join("\n")
        };
        assert_eq!(sorted(&ours.1), sorted(&theirs.1), "{args:?}");
    }
    for (selector, words) in [
        ("metadata.name==x==", "unescaped '='"),
        ("metadata.name", "cannot understand"),
        ("spec.vip=10.0.0.1", "field label not supported: spec.vip"),
    ] {
        let (code, out, err) = pooldeck(&served, &["cp", "-A", "--field-selector", selector]);
        assert_eq!(code, Some(1), "{selector}: {out}{err}");
        assert!(err.contains(words), "{selector}: {err}");
        assert!(out.is_empty(), "{out}");
        // The demo answers kubectl as a real server does: 400, with the same words.
        let (code, _, err) = kubectl(&served, &["cp", "-A", "--field-selector", selector]);
        assert_eq!(code, Some(1), "kubectl {selector}: {err}");
        assert!(
            err.contains("BadRequest") && err.contains(words),
            "kubectl {selector}: {err}"
        );
    }
    let (code, _, err) = pooldeck(
        &served,
        &["hosts", "-A", "--field-selector", "metadata.name=x"],
    );
    assert_eq!(code, Some(1));
    assert!(err.contains("not API objects"), "{err}");
}

/// `describe pool NAME`: the pool as a page, each failing condition with its meaning in the
/// guide's words, its hosts, its evaluation and what the doctor finds; a pool not there is
/// said as kubectl says it.
#[test]
fn describe_reads_as_a_page() {
    let served = common::serve("fleet");
    let state = tempfile::tempdir().expect("dir");
    let run = |args: &[&str]| {
        let mut all = vec!["describe"];
        all.extend_from_slice(args);
        common::pooldeck_on(&served, state.path(), &all)
    };
    let (code, page, err) = run(&["pool", "rl-sim", "-n", "ml-research"]);
    assert_eq!(code, Some(0), "{err}");
    for section in [
        "Name:",
        "Spec:",
        "Status:",
        "Conditions:",
        "Hosts:",
        "Evaluation:",
        "Findings:",
        "Events:",
    ] {
        assert!(page.contains(section), "{section}: {page}");
    }
    assert!(
        page.contains("MachinePoolsReady")
            && page.contains("means: One or more machine pool hosts"),
        "{page}"
    );
    assert!(
        page.contains("edge-0016") && page.contains("Unhealthy"),
        "{page}"
    );
    assert!(page.contains("[scaling.blocked]"), "{page}");
    let (code, _, err) = run(&["cp", "nope", "-n", "ml-research"]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("computepools.spectrocloud.com \"nope\" not found"),
        "{err}"
    );
}
