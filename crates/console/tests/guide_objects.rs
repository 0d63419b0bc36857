//! The objects the troubleshooting guide reads beside the pools (ScalingPolicies, AIWorkloads,
//! ProfileBundles, Computes, Tenants): `pooldeck get` under kubectl's names and with its
//! output shapes, `describe` with what the guide reads first, and the console's views with
//! their pages and links, used in tmux as a person would.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails

mod common;

use common::Served;
use common::tmux::Session;

fn pooldeck(served: &Served, args: &[&str]) -> (Option<i32>, String, String) {
    let state = tempfile::tempdir().expect("dir");
    common::pooldeck_on(served, state.path(), args)
}

fn ok(served: &Served, args: &[&str]) -> String {
    let (code, out, err) = pooldeck(served, args);
    assert_eq!(code, Some(0), "{args:?}: {err}");
    out
}

#[test]
fn get_takes_kubectls_names_and_prints_its_shapes() {
    let served = common::serve("fleet");
    let kubectl = common::have("kubectl", &["version", "--client"]);
    for (plural, singular) in [
        ("scalingpolicies", "scalingpolicy"),
        ("aiworkloads", "aiworkload"),
        ("profilebundles", "profilebundle"),
        ("computes", "compute"),
        ("tenants", "tenant"),
        ("projects", "project"),
    ] {
        let names = ok(&served, &["get", plural, "-A", "-o", "name"]);
        assert!(!names.is_empty(), "{plural}: the fleet has some");
        assert_eq!(ok(&served, &["get", singular, "-A", "-o", "name"]), names);
        let first = names.lines().next().unwrap_or_default();
        assert!(
            first.starts_with(&format!("{singular}.spectrocloud.com/")),
            "{first}"
        );
        // The same objects, the same shapes, as kubectl prints them.
        if kubectl {
            for args in [
                vec!["get", plural, "-A", "-o", "name"],
                vec![
                    "get",
                    plural,
                    "-A",
                    "-o",
                    "jsonpath={.items[*].metadata.name}",
                ],
                vec!["get", plural, "-A", "-l", "nothing=here", "-o", "name"],
            ] {
                let theirs = common::kubectl(&served, &args);
                assert_eq!(theirs.0, Some(0), "kubectl {args:?}: {}", theirs.2);
                assert_eq!(ok(&served, &args), theirs.1, "{args:?}");
            }
        }
        let list: serde_json::Value =
            serde_json::from_str(&ok(&served, &["get", plural, "-A", "-o", "json"])).expect("json");
        assert_eq!(
            list["items"].as_array().map(Vec::len),
            Some(names.lines().count())
        );
    }
    // The short names the console takes, and what each table reads.
    let policies = ok(&served, &["get", "sp", "-n", "ml-research"]);
    let header = policies.lines().next().unwrap_or_default();
    for column in [
        "PROMETHEUS",
        "CPU UP/DOWN",
        "GPU UP/DOWN",
        "COOLDOWN",
        "POOLS",
    ] {
        assert!(header.contains(column), "{header}");
    }
    assert!(
        policies.contains("80%/20% 5m/10m") && policies.contains("llm-train"),
        "{policies}"
    );
    let workloads = ok(&served, &["get", "aiw", "-n", "ml-research"]);
    assert!(
        workloads.contains("retired-cluster") && workloads.contains("Running"),
        "{workloads}"
    );
    let computes = ok(&served, &["get", "computes", "-n", "ml-research"]);
    assert!(
        computes.contains("A100-SXM4-80GB ×4 32 CPU 2/8 free"),
        "{computes}"
    );
    // A name that is not there is NotFound, exit 1; one object by name is itself.
    let (code, _, err) = pooldeck(&served, &["get", "sp", "nothing", "-n", "ml-research"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("NotFound"), "{err}");
    let one = ok(&served, &["get", "tenant", "acme", "-o", "yaml"]);
    assert!(
        one.starts_with("apiVersion: spectrocloud.com/v1alpha1\nkind: Tenant"),
        "{one}"
    );
    // A cluster-wide kind has no namespace to be empty in.
    let (code, _, err) = pooldeck(&served, &["get", "tenants", "-l", "nothing=here"]);
    assert_eq!(code, Some(0));
    assert_eq!(err.trim(), "No resources found", "{err}");
}

#[test]
fn describe_reads_what_the_guide_reads_first() {
    let served = common::serve("stuck-provisioning");
    let bundle = ok(
        &served,
        &["describe", "profilebundle", "gpu-stack", "-n", "factory"],
    );
    assert!(
        bundle.contains("Ready:")
            && bundle.contains("False PackResolutionFailed: pack nvidia-gpu-operator"),
        "{bundle}"
    );
    assert!(
        bundle.contains("Used By:           new-gpu-pool"),
        "{bundle}"
    );
    let compute = ok(
        &served,
        &["describe", "compute", "factory", "-n", "factory"],
    );
    assert!(
        compute.contains("Workers:           none available"),
        "{compute}"
    );
    assert!(
        compute.contains("Control Plane:     AMD64 8 CPU 3/3 free"),
        "{compute}"
    );
    let (code, _, err) = pooldeck(
        &served,
        &["describe", "scalingpolicy", "none", "-n", "factory"],
    );
    assert_eq!(code, Some(1));
    assert!(
        err.contains("scalingpolicies.spectrocloud.com \"none\" not found"),
        "{err}"
    );
}

fn console(name: &str, scenario: &str, width: u16, height: u16) -> (Session, tempfile::TempDir) {
    let dirs = tempfile::tempdir().expect("temp dir");
    let command = format!(
        "env XDG_STATE_HOME={dir}/state XDG_CONFIG_HOME={dir}/config {binary} --demo {scenario}; \
         sleep 60",
        dir = dirs.path().display(),
        binary = assert_cmd::cargo::cargo_bin("pooldeck").display(),
    );
    let session = format!("pooldeck-objects-{name}-{}", std::process::id());
    (Session::start(session, &command, width, height), dirs)
}

#[test]
fn the_console_lists_them_opens_their_pages_and_links_them_to_pools() {
    if !common::tmux::available() {
        return;
    }
    let (console, _dirs) = console("views", "fleet", 120, 40);
    console.wait_for("Compute Pools (12)");
    console.keys(&[":"]);
    console.type_text("sp");
    console.keys(&["Enter"]);
    console.wait("the policies", |s| {
        s.contains("ScalingPolicies (3)") && s.contains("PROMETHEUS")
    });
    // Enter: the policy's page, Prometheus and the pools using it first.
    console.keys(&["Enter"]);
    console.wait("its page", |s| {
        s.contains("Describe ScalingPolicy ml-research/gpu-scaling")
            && s.contains("PROMETHEUS_AVAILABLE: True")
            && s.contains("Used By:")
    });
    console.keys(&["Escape"]);
    // An AIWorkload's page leads to its pool.
    console.keys(&[":"]);
    console.type_text("aiw");
    console.keys(&["Enter"]);
    console.wait_for("AIWorkloads (9)");
    console.keys(&["Enter"]);
    console.wait_for("Describe AIWorkload ml-research/legacy-trainer");
    console.keys(&["Enter"]);
    console.wait("the pool's detail", |s| {
        s.contains("ml-research/retired-cluster › Overview")
    });
    // From the pool: `o` lists the AIWorkloads on it; on Scaling, `o` describes its policy.
    console.keys(&["o"]);
    console.wait("its AIWorkloads", |s| {
        s.contains("AIWorkloads (1)") && s.contains("legacy-trainer")
    });
    console.keys(&[":"]);
    console.type_text("pools");
    console.keys(&["Enter", "Enter", "4", "o"]);
    console.wait_for("Describe ScalingPolicy ml-research/gpu-scaling");
}

#[test]
fn an_empty_list_says_what_would_fill_it() {
    if !common::tmux::available() {
        return;
    }
    let (console, _dirs) = console("empty", "fleet -n default", 160, 30);
    console.wait_for(
        "No Compute Pools in namespace default. Compute Pools are in: ml-research, retail-edge, \
         vision-lab. 0 watches every namespace; :ns NAME another one.",
    );
    console.keys(&["0"]);
    console.wait_for("Compute Pools (12)");
    console.keys(&["/"]);
    console.type_text("no-such-pool");
    console.keys(&["Enter"]);
    console.wait_for("No Compute Pools match the filter \"no-such-pool\". Esc clears it.");
}
