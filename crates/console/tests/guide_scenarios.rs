//! The troubleshooting guide's sections played on the demo: a scenario for each of
//! "Changing Longhorn Replica Count", "Node Stuck in Provisioning (Air-Gapped)" and "GPU Pods
//! Stuck with No NVIDIA Runtime Configured", each found by the doctor and none on a healthy
//! fleet; the hue controller's Deployment answering the guide's `kubectl get deployments`;
//! `demo serve --help` naming every built-in scenario; and a scenario's loop that leaves an
//! object the operator fixed as the operator left it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

mod common;

use std::process::{Command, Stdio};

use pooldeck::demo::scenario::{BUILTIN, Scenario};
use pooldeck::demo::{DemoCluster, Options};

/// The doctor's finding ids per pool, `namespace/name`, on a served scenario.
fn findings(scenario: &str) -> Vec<(String, Vec<String>)> {
    let served = common::serve(scenario);
    let state = tempfile::tempdir().expect("dir");
    let (_, out, err) = common::pooldeck_on(&served, state.path(), &["doctor", "-A", "-o", "json"]);
    let report: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    report["pools"]
        .as_array()
        .expect("pools")
        .iter()
        .map(|pool| {
            (
                format!(
                    "{}/{}",
                    pool["namespace"].as_str().unwrap_or(""),
                    pool["name"].as_str().unwrap_or("")
                ),
                pool["findings"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|f| f["id"].as_str().map(str::to_owned))
                    .collect(),
            )
        })
        .collect()
}

fn ids_of<'f>(all: &'f [(String, Vec<String>)], pool: &str) -> &'f [String] {
    all.iter()
        .find(|(name, _)| name == pool)
        .map_or(&[], |(_, ids)| ids.as_slice())
}

#[test]
fn each_guide_section_has_its_scenario_and_its_finding() {
    let longhorn = findings("longhorn-replicas");
    for pool in ["retail-east/store-114", "retail-east/store-207"] {
        assert!(
            ids_of(&longhorn, pool)
                .iter()
                .any(|id| id == "longhorn.replicas"),
            "{pool}: {longhorn:?}"
        );
    }
    assert!(
        !ids_of(&longhorn, "retail-east/dc-rack")
            .iter()
            .any(|id| id == "longhorn.replicas"),
        "five nodes hold three replicas: {longhorn:?}"
    );
    let air = findings("air-gapped-host");
    assert!(
        ids_of(&air, "plant-7/line-3-vision")
            .iter()
            .any(|id| id == "node.stuck-provisioning"),
        "{air:?}"
    );
    let nvidia = findings("nvidia-runtime");
    let runtime: Vec<&String> = ids_of(&nvidia, "ml-edge/gpu-inference")
        .iter()
        .filter(|id| *id == "node.nvidia-runtime")
        .collect();
    assert_eq!(
        runtime.len(),
        1,
        "one finding for the repeated event: {nvidia:?}"
    );
    // A healthy fleet has nothing of these sections.
    let fleet = findings("fleet");
    for (pool, ids) in &fleet {
        assert!(
            !ids.iter()
                .any(|id| id.starts_with("longhorn.") || id.starts_with("node.")),
            "{pool}: {ids:?}"
        );
    }
}

#[test]
fn the_guides_deployment_command_finds_the_hue_controller() {
    if !common::have("kubectl", &["version", "--client"]) {
        return;
    }
    let served = common::serve("fleet");
    let (code, out, err) = common::kubectl(&served, &["get", "deployments", "--all-namespaces"]);
    assert_eq!(code, Some(0), "{err}");
    let line = out
        .lines()
        .find(|l| l.to_lowercase().contains("hue"))
        .unwrap_or_else(|| panic!("no hue deployment: {out}"));
    assert!(
        line.starts_with("mural-system") && line.contains("hue-controllers"),
        "{line}"
    );
    let (code, out, err) = common::kubectl(
        &served,
        &["get", "replicasets,pods", "--namespace", "mural-system"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("replicaset.apps/hue-controllers-"), "{out}");
    assert!(out.contains("pod/hue-controllers-"), "{out}");
}

#[test]
fn demo_serve_help_names_every_built_in_scenario_with_its_story() {
    let output = Command::new(assert_cmd::cargo::cargo_bin("pooldeck"))
        .args(["demo", "serve", "--help"])
        .output()
        .expect("runs");
    let help = String::from_utf8_lossy(&output.stdout);
    for (name, _) in BUILTIN {
        let story = Scenario::builtin(name).expect("built in").description;
        let start: String = story
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ");
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("{name} is not listed:\n{help}"));
        assert!(line.contains(&start), "{name}'s story: {line}");
    }
    assert!(help.contains("large"), "{help}");
}

/// The operator recreates lab-b with a free VIP; the scenario's loop comes round twice and
/// leaves the new pool as it is (no Failed status written over it, no VIPConflict event about
/// it), so the doctor blames nothing on the new VIP.
#[test]
fn a_fix_the_operator_made_stays_through_the_scenarios_loop() {
    if !common::have("kubectl", &["version", "--client"]) {
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let cluster: DemoCluster = runtime
        .block_on(DemoCluster::start(Options {
            scenario: Some(Scenario::builtin("vip-conflict").expect("vip-conflict")),
            speed: 40.0,
            ..Options::default()
        }))
        .expect("starts");
    let dir = tempfile::tempdir().expect("dir");
    let kubeconfig = dir.path().join("kubeconfig");
    cluster.write_kubeconfig(&kubeconfig).expect("kubeconfig");
    let kubectl = |args: &[&str], input: Option<&str>| {
        let mut child = Command::new("kubectl")
            .args(args)
            .env("KUBECONFIG", &kubeconfig)
            .stdin(if input.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("kubectl runs");
        if let Some(text) = input {
            use std::io::Write;
            child
                .stdin
                .take()
                .expect("stdin")
                .write_all(text.as_bytes())
                .expect("writes");
        }
        common::outcome(child.wait_with_output().expect("waits"))
    };
    let pool = |name: &str| -> serde_json::Value {
        let (_, out, _) = kubectl(&["get", "cp", name, "-n", "labs", "-o", "json"], None);
        serde_json::from_str(&out).unwrap_or(serde_json::Value::Null)
    };
    // The story has played once: lab-b Failed on the VIP lab-a holds.
    common::eventually("the first pass", || cluster.timeline_played());
    common::eventually("lab-b Failed", || {
        pool("lab-b")["status"]["status"] == "Failed"
    });
    // The operator's fix: delete lab-b, create it again with a free VIP.
    let mut fresh = pool("lab-b");
    let (code, _, err) = kubectl(
        &["delete", "cp", "lab-b", "-n", "labs", "--wait=true"],
        None,
    );
    assert_eq!(code, Some(0), "{err}");
    common::eventually("lab-b gone", || pool("lab-b").is_null());
    let metadata = fresh["metadata"].as_object_mut().expect("metadata");
    for server_owned in [
        "uid",
        "resourceVersion",
        "creationTimestamp",
        "deletionTimestamp",
        "generation",
        "managedFields",
    ] {
        metadata.remove(server_owned);
    }
    fresh.as_object_mut().expect("pool").remove("status");
    fresh["spec"]["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]["edge"]["vip"] =
        serde_json::json!("10.80.0.99");
    let (code, _, err) = kubectl(&["create", "-f", "-"], Some(&fresh.to_string()));
    assert_eq!(code, Some(0), "{err}");
    let (played, steps) = cluster.steps_played();
    // Twice round the loop.
    common::eventually("the loop twice more", || {
        cluster.steps_played().0 >= played + 2 * steps
    });
    let after = pool("lab-b");
    assert_ne!(after["status"]["status"], "Failed", "{after}");
    assert_eq!(
        after["spec"]["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]["edge"]["vip"],
        "10.80.0.99"
    );
    let uid = after["metadata"]["uid"].as_str().unwrap_or("").to_owned();
    let (_, events, _) = kubectl(
        &[
            "get",
            "events",
            "-n",
            "labs",
            "--field-selector",
            &format!("involvedObject.uid={uid}"),
            "-o",
            "name",
        ],
        None,
    );
    assert!(
        events.trim().is_empty(),
        "no story event about the new pool: {events}"
    );
    // The story again (`:reset`, SIGUSR1): lab-b as at the start, its old VIP and its fate.
    runtime.block_on(cluster.reset()).expect("resets");
    let again = pool("lab-b");
    assert_eq!(
        again["spec"]["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]["edge"]["vip"],
        "10.80.0.10",
        "{again}"
    );
    assert_ne!(again["metadata"]["uid"], after["metadata"]["uid"]);
    common::eventually("lab-b Failed again", || {
        pool("lab-b")["status"]["status"] == "Failed"
    });
    drop(cluster);
}

/// Every kubectl command of the troubleshooting guide, as the guide writes it (its
/// placeholders in angle brackets), by section, with the scenario that plays the section and
/// what each placeholder names there. The guide's other commands run on the edge host
/// (crictl, journalctl, containerd, systemctl) or on the spoke cluster, not against the hub.
struct Section {
    title: &'static str,
    scenario: &'static str,
    names: &'static [(&'static str, &'static str)],
    commands: &'static [&'static str],
}

const GUIDE: &[Section] = &[
    Section {
        title: "Compute Pool Stuck in Provisioning",
        scenario: "stuck-provisioning",
        names: &[
            ("<computepool-name>", "edge-expansion"),
            ("<project-namespace>", "factory"),
            ("<profilebundle-name>", "gpu-stack"),
        ],
        commands: &[
            "kubectl describe computepool <computepool-name> --namespace <project-namespace> | grep --after-context=10 Conditions",
            "kubectl get compute --namespace <project-namespace> --output yaml | grep --after-context=20 controlPlaneCompute",
            "kubectl get computepool <computepool-name> --namespace <project-namespace> --output jsonpath='{.status.paletteClusterStatuses}' | jq",
            "kubectl get profilebundle <profilebundle-name> --namespace <project-namespace>",
            "kubectl describe profilebundle <profilebundle-name> --namespace <project-namespace>",
        ],
    },
    Section {
        title: "VIP Already in Use",
        scenario: "vip-conflict",
        names: &[
            ("<computepool-name>", "lab-b"),
            ("<project-namespace>", "labs"),
        ],
        commands: &[
            "kubectl get computepools --namespace <project-namespace> --output yaml | grep --after-context=1 \"vip:\"",
            "kubectl apply --filename computepool.yaml",
            "kubectl delete computepool <computepool-name> --namespace <project-namespace>",
            "kubectl get computepool <computepool-name> --namespace <project-namespace>",
            "kubectl apply --filename computepool.yaml",
        ],
    },
    Section {
        title: "Insufficient GPU Resources",
        scenario: "gpu-quota",
        names: &[
            ("<project-name>", "team-a"),
            ("<project-namespace>", "team-a"),
            ("<tenant-name>", "globex"),
        ],
        commands: &[
            "kubectl get project <project-name> --namespace <project-namespace> --output jsonpath='{.spec.gpuResources}'",
            "kubectl get project <project-name> --namespace <project-namespace> --output jsonpath='{.status.gpuUsage}'",
            "kubectl get tenant <tenant-name> --output jsonpath='{.spec.gpuResources.limits}'",
            "kubectl get tenant <tenant-name> --output jsonpath=\"{.spec.gpuResources.projectLimits['<project-name>']}\"",
            "kubectl get tenant <tenant-name> --output jsonpath='{.status.gpuUsage}'",
        ],
    },
    Section {
        title: "Debug Scaling Decisions with ComputePoolEvaluation",
        scenario: "scale-up",
        names: &[
            ("<my-project-namespace>", "my-project-namespace"),
            ("<my-compute-pool>", "my-compute-pool"),
        ],
        commands: &[
            "kubectl get computepoolevaluations --namespace <my-project-namespace>",
            "kubectl get cpe --namespace my-project-namespace",
            "kubectl describe computepoolevaluation <my-compute-pool> --namespace <my-project-namespace>",
            "kubectl get computepoolevaluation <my-compute-pool> --namespace <my-project-namespace> --output yaml",
            "kubectl describe computepool <my-compute-pool> --namespace <my-project-namespace>",
        ],
    },
    Section {
        title: "Compute Pool Cannot Be Deleted",
        scenario: "deletion-blocked",
        names: &[
            ("<computepool-name>", "stuck-pool"),
            ("<project-namespace>", "vision-lab"),
            ("<aiworkload-name>", "stale-job"),
        ],
        commands: &[
            "kubectl get computepool <computepool-name> --namespace <project-namespace> --output jsonpath='{.status.aiWorkloadRefs}'",
            "kubectl delete aiworkload <aiworkload-name> --namespace <project-namespace>",
            "kubectl get computepool <computepool-name> --namespace <project-namespace> --output jsonpath='{.metadata.finalizers}'",
            "kubectl patch computepool <computepool-name> --namespace <project-namespace> --type json --patch '[{\"op\": \"remove\", \"path\": \"/metadata/finalizers/0\"}]'",
            "kubectl get pods --namespace mural-system --selector controller.spectrocloud.com/name=hue-controllers",
            "kubectl logs --namespace mural-system --selector controller.spectrocloud.com/name=hue-controllers --tail=100 --follow",
            "kubectl get deployments --all-namespaces | grep --ignore-case hue",
        ],
    },
];

/// The commands the demo does not answer as written, and why (README's demo section lists
/// them too).
const NOT_APPLICABLE: &[(&str, &str)] = &[(
    "kubectl apply --filename computepool.yaml",
    "applies the operator's own manifest, which the guide does not give",
)];

/// The guide's kubectl commands, in order, continuation lines joined, each with the section
/// it is under (the guide's text is read where it lies beside the repository, if it does).
fn commands_in_guide(text: &str) -> Vec<(String, String)> {
    let titles: Vec<&str> = GUIDE.iter().map(|s| s.title).collect();
    let mut section = String::new();
    let mut out = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if titles.contains(&line.trim()) {
            section = line.trim().to_owned();
        }
        let trimmed = line.trim();
        if line.starts_with("    ") && trimmed.starts_with("kubectl ") {
            let mut command = trimmed.to_owned();
            while command.ends_with('\\') {
                command.pop();
                let next = lines.next().unwrap_or("").trim();
                command = format!("{} {next}", command.trim_end());
            }
            out.push((section.clone(), command));
        }
    }
    out
}

/// The list above is the guide's: every kubectl command it has, none it has not. Checked where
/// the guide's text lies beside the repository (where the product documentation is kept), not
/// in a bare clone.
#[test]
fn the_list_of_commands_is_the_guides() {
    let seeds = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/seeds");
    let Some(guide) = std::fs::read_dir(&seeds).ok().and_then(|entries| {
        entries
            .filter_map(Result::ok)
            .find(|e| e.file_name().to_string_lossy().starts_with("000_"))
            .and_then(|e| std::fs::read_to_string(e.path()).ok())
    }) else {
        // Not a tool CI installs: the guide lies beside the repository on the machines the
        // list is kept on, and this check runs there (CI runs the commands themselves).
        eprintln!("not checked: the troubleshooting guide is not beside the repository here");
        return;
    };
    let listed: Vec<(String, String)> = GUIDE
        .iter()
        .flat_map(|s| {
            s.commands
                .iter()
                .map(|c| (s.title.to_owned(), (*c).to_owned()))
        })
        .collect();
    // The scaling walkthrough names two more in its prose; the list has them in order.
    let found: Vec<(String, String)> = commands_in_guide(&guide);
    for command in &found {
        assert!(listed.contains(command), "not in the list: {command:?}");
    }
    for command in &listed {
        let in_prose = command.1.contains("describe computepoolevaluation")
            || command.1 == "kubectl get cpe --namespace my-project-namespace";
        assert!(
            found.contains(command) || (in_prose && guide.contains(&command.1)),
            "not in the guide: {command:?}"
        );
    }
}

/// Each command of the guide against the scenario of its section, placeholders filled: it
/// answers (exit 0, and a pipeline's filter finds what it looks for), or it is listed as not
/// applicable with why. A followed log is read without `--follow` (it would not end).
#[test]
fn every_kubectl_command_of_the_guide_is_answered_by_its_scenario() {
    if !common::have("kubectl", &["version", "--client"]) || !common::have("jq", &["--version"]) {
        return;
    }
    for section in GUIDE {
        let served = common::serve(section.scenario);
        for written in section.commands {
            if NOT_APPLICABLE.iter().any(|(c, _)| c == written) {
                continue;
            }
            let mut command = (*written).replace(" --follow", "");
            for (placeholder, name) in section.names {
                command = command.replace(placeholder, name);
            }
            assert!(!command.contains('<'), "a placeholder left: {command}");
            let output = std::process::Command::new("sh")
                .args(["-c", &command])
                .env("KUBECONFIG", &served.kubeconfig)
                .stdin(std::process::Stdio::null())
                .output()
                .expect("sh runs");
            let (code, out, err) = common::outcome(output);
            // The guide's check that a deleted pool is gone: NotFound is its answer (or the
            // pool is still finishing its teardown).
            let after_delete = command.starts_with("kubectl get computepool ")
                && section
                    .commands
                    .iter()
                    .any(|c| c.starts_with("kubectl delete computepool"));
            if after_delete && code != Some(0) {
                assert!(err.contains("NotFound"), "{command}: {err}");
                continue;
            }
            assert_eq!(code, Some(0), "{}: {command}\n{out}\n{err}", section.title);
            assert!(
                !out.trim().is_empty(),
                "{}: {command} printed nothing\n{err}",
                section.title
            );
        }
    }
}

/// The sections worked on the edge host give the guide's steps in order, each naming the
/// host it runs on and saying what a good and a bad answer look like.
#[test]
fn host_side_runbooks_name_the_host_and_the_answers() {
    for (scenario, pool, id, host) in [
        (
            "nvidia-runtime",
            "gpu-inference",
            "node.nvidia-runtime",
            "edge-g1",
        ),
        (
            "air-gapped-host",
            "line-3-vision",
            "node.stuck-provisioning",
            "plant7-gpu-2",
        ),
    ] {
        let served = common::serve(scenario);
        let state = tempfile::tempdir().expect("dir");
        let (_, out, err) =
            common::pooldeck_on(&served, state.path(), &["doctor", "-A", "-o", "json"]);
        let report: serde_json::Value =
            serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
        let finding = report["pools"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|p| p["name"] == pool)
            .flat_map(|p| p["findings"].as_array().cloned().unwrap_or_default())
            .find(|f| f["id"] == id)
            .unwrap_or_else(|| panic!("{scenario}: no {id}: {out}"));
        let steps: Vec<&str> = finding["next"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(serde_json::Value::as_str)
            .collect();
        let on_host = steps
            .iter()
            .filter(|s| s.starts_with(&format!("on {host}: ")))
            .count();
        assert!(on_host >= 3, "{scenario}: the host named: {steps:#?}");
        assert!(
            steps.iter().any(|s| s.contains("good:")) && steps.iter().any(|s| s.contains("bad:")),
            "{scenario}: good and bad answers: {steps:#?}"
        );
    }
    // The guide's order for the NVIDIA runtime: look, then the services, the version, the
    // backup, the validation, the restart, and look again.
    let served = common::serve("nvidia-runtime");
    let state = tempfile::tempdir().expect("dir");
    let (_, out, _) = common::pooldeck_on(&served, state.path(), &["doctor", "-A", "-o", "json"]);
    let at = |needle: &str| {
        out.find(needle)
            .unwrap_or_else(|| panic!("{needle}: {out}"))
    };
    assert!(
        at("systemctl is-active") < at("containerd --version")
            && at("containerd --version") < at("config.toml.bak")
            && at("config.toml.bak") < at("containerd config dump")
            && at("containerd config dump") < at("systemctl restart spectro-containerd"),
        "in the guide's order: {out}"
    );
}
