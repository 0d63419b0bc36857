//! `pooldeck validate` as an operator and a CI pipeline run it: exit statuses, located output,
//! JSON, update mode (--old) and cross-pool rules (--existing), and broken input.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn pooldeck() -> Command {
    let mut command = Command::cargo_bin("pooldeck").expect("the pooldeck binary is built");
    command.env_remove("NO_COLOR");
    command
}

fn manifests() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../demo/manifests")
}

fn example(name: &str) -> String {
    std::fs::read_to_string(manifests().join(name)).expect("example exists")
}

/// Runs `validate --format json` and returns (exit status, findings).
fn json_findings(args: &[&str], stdin: Option<&str>) -> (i32, Vec<Value>) {
    let mut command = pooldeck();
    command
        .arg("validate")
        .args(["--format", "json"])
        .args(args);
    if let Some(input) = stdin {
        command.write_stdin(input);
    }
    let output = command.output().expect("runs");
    let stdout = String::from_utf8(output.stdout).expect("utf-8 output");
    let report: Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("JSON on stdout ({e}): {stdout}"));
    let findings = report["findings"]
        .as_array()
        .cloned()
        .expect("findings array");
    (output.status.code().expect("exit code"), findings)
}

fn rules(findings: &[Value]) -> Vec<String> {
    findings
        .iter()
        .map(|f| f["rule"].as_str().unwrap_or("").to_owned())
        .collect()
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write fixture");
    path
}

#[test]
fn the_demo_manifests_validate_without_errors() {
    let dir = manifests();
    let output = pooldeck().arg("validate").arg(&dir).output().expect("runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("6 ComputePools in 6 files: 0 errors, 0 warnings"),
        "{stdout}"
    );
    // Piped output carries no escape codes.
    assert!(!stdout.contains('\u{1b}'), "{stdout}");
}

#[test]
fn json_output_has_the_documented_fields() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bad = example("ml-cluster.yaml").replace("nodeCount: 3", "nodeCount: 2");
    let file = write(dir.path(), "bad.yaml", &bad);
    let (code, findings) = json_findings(&[file.to_str().expect("utf-8 path")], None);
    assert_eq!(code, 1);
    let finding = findings
        .iter()
        .find(|f| f["rule"] == "control-plane.node-count")
        .expect("node count finding");
    for key in [
        "file", "document", "line", "column", "path", "severity", "rule", "message",
    ] {
        assert!(finding.get(key).is_some(), "missing {key}: {finding}");
    }
    assert_eq!(finding["severity"], "error");
    assert_eq!(finding["document"], 1);
    let line = bad
        .lines()
        .position(|l| l.contains("nodeCount: 2"))
        .expect("line")
        + 1;
    assert_eq!(finding["line"], line);
    assert_eq!(finding["column"], 24);
    assert_eq!(
        finding["path"],
        "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.controlPlanePool.nodeCount"
    );
}

#[test]
fn human_output_is_located_with_an_excerpt() {
    let text = example("ml-cluster.yaml").replace("'10.10.162.130'", "'10.10.162.300'");
    let output = pooldeck()
        .args(["validate", "-"])
        .write_stdin(text.clone())
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    let line = text
        .lines()
        .position(|l| l.contains("10.10.162.300"))
        .expect("line")
        + 1;
    assert!(
        stdout.contains(&format!("<stdin>:{line}:16: error[vip.format] spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.edge.vip:")),
        "{stdout}"
    );
    assert!(stdout.contains("vip: '10.10.162.300'"), "excerpt: {stdout}");
    assert!(stdout.contains("^"), "caret: {stdout}");
}

#[test]
fn colour_follows_the_flag() {
    let text = example("ml-cluster.yaml").replace("nodeCount: 3", "nodeCount: 4");
    let coloured = pooldeck()
        .args(["validate", "--color", "always", "-"])
        .write_stdin(text.clone())
        .output()
        .expect("runs");
    assert!(String::from_utf8_lossy(&coloured.stdout).contains('\u{1b}'));
    let plain = pooldeck()
        .args(["validate", "--color", "never", "-"])
        .write_stdin(text)
        .output()
        .expect("runs");
    assert!(!String::from_utf8_lossy(&plain.stdout).contains('\u{1b}'));
}

#[test]
fn update_mode_checks_vip_immutability_through_the_command() {
    let dir = tempfile::tempdir().expect("temp dir");
    let live = write(dir.path(), "live.yaml", &example("ml-cluster.yaml"));
    let edited = write(
        dir.path(),
        "edited.yaml",
        &example("ml-cluster.yaml").replace("'10.10.162.130'", "'10.10.162.131'"),
    );
    let (code, findings) = json_findings(
        &[
            "--old",
            live.to_str().expect("path"),
            edited.to_str().expect("path"),
        ],
        None,
    );
    assert_eq!(code, 1);
    assert!(
        rules(&findings).contains(&"vip.immutable".to_owned()),
        "{findings:?}"
    );
    // Without --old the same file is a valid new pool.
    let (code, findings) = json_findings(&[edited.to_str().expect("path")], None);
    assert_eq!(code, 0, "{findings:?}");
}

/// Through the command: the holder of a VIP another pool also uses may be edited (a label
/// added, its VIP kept) with no vip.unique; a Longhorn replica count changed 3 -> 1 is refused
/// with the guide's words.
#[test]
fn update_mode_leaves_the_vip_holder_alone_and_refuses_a_new_replica_count() {
    let dir = tempfile::tempdir().expect("temp dir");
    // The pool's own annotations (the first, at the metadata's indentation).
    let live_text = example("ml-cluster.yaml").replacen(
        "\n  annotations:\n",
        "\n  annotations:\n    longhornDefaultReplicaCount: '3'\n",
        1,
    );
    let live = write(dir.path(), "live.yaml", &live_text);
    let other = write(
        dir.path(),
        "other.yaml",
        &example("ml-cluster.yaml").replace("name: ml-cluster", "name: newcomer"),
    );
    let labelled = write(
        dir.path(),
        "labelled.yaml",
        &live_text.replacen(
            "\n    team: ml-platform\n",
            "\n    team: ml-platform\n    owner: ops\n",
            1,
        ),
    );
    let (code, findings) = json_findings(
        &[
            "--old",
            live.to_str().expect("path"),
            "--existing",
            other.to_str().expect("path"),
            labelled.to_str().expect("path"),
        ],
        None,
    );
    assert_eq!(code, 0, "{findings:?}");
    assert!(
        !rules(&findings).contains(&"vip.unique".to_owned()),
        "{findings:?}"
    );
    let fewer = write(
        dir.path(),
        "fewer.yaml",
        &live_text.replace(
            "longhornDefaultReplicaCount: '3'",
            "longhornDefaultReplicaCount: '1'",
        ),
    );
    let (code, findings) = json_findings(
        &[
            "--old",
            live.to_str().expect("path"),
            fewer.to_str().expect("path"),
        ],
        None,
    );
    assert_eq!(code, 1, "{findings:?}");
    assert!(
        rules(&findings).contains(&"longhorn.immutable".to_owned()),
        "{findings:?}"
    );
}

#[test]
fn update_mode_keeps_existing_worker_pool_names() {
    let dir = tempfile::tempdir().expect("temp dir");
    let legacy = example("ml-cluster.yaml").replace("name: gpu-pool", "name: 1st-gpu-pool");
    let live = write(dir.path(), "live.yaml", &legacy);
    let edited = write(
        dir.path(),
        "edited.yaml",
        &legacy.replace("cpuCount: 16", "cpuCount: 32"),
    );
    let (code, findings) = json_findings(
        &[
            "--old",
            live.to_str().expect("path"),
            edited.to_str().expect("path"),
        ],
        None,
    );
    assert_eq!(code, 0, "{findings:?}");
    assert_eq!(rules(&findings), ["worker-pool.name.existing"]);
    // As a create, the same name is refused.
    let (code, findings) = json_findings(&[edited.to_str().expect("path")], None);
    assert_eq!(code, 1);
    assert!(rules(&findings).contains(&"worker-pool.name.format".to_owned()));
    // An --old that holds another pool is said, not silently ignored.
    let other = write(dir.path(), "other.yaml", &example("gpu-taints.yaml"));
    let (_, findings) = json_findings(
        &[
            "--old",
            other.to_str().expect("path"),
            edited.to_str().expect("path"),
        ],
        None,
    );
    assert!(
        rules(&findings).contains(&"update.no-match".to_owned()),
        "{findings:?}"
    );
}

#[test]
fn cross_pool_rules_read_existing_pools_through_the_command() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fleet = dir.path().join("fleet");
    std::fs::create_dir(&fleet).expect("mkdir");
    // A kubectl-style List holding a pool that already uses the VIP.
    let taken = example("gpu-taints.yaml").replace("'10.10.162.140'", "'10.10.162.130'");
    let indented: String = taken
        .lines()
        .filter(|l| !l.starts_with('#'))
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                format!("- {l}\n")
            } else {
                format!("  {l}\n")
            }
        })
        .collect();
    write(
        &fleet,
        "cp.yaml",
        &format!("apiVersion: v1\nkind: List\nitems:\n{indented}"),
    );
    let new = write(dir.path(), "new.yaml", &example("ml-cluster.yaml"));
    let (code, findings) = json_findings(
        &[
            "--existing",
            fleet.to_str().expect("path"),
            new.to_str().expect("path"),
        ],
        None,
    );
    assert_eq!(code, 1, "{findings:?}");
    let unique = findings
        .iter()
        .find(|f| f["rule"] == "vip.unique")
        .expect("vip.unique");
    assert!(
        unique["message"]
            .as_str()
            .unwrap_or("")
            .contains("ml-team/gpu-training"),
        "{unique}"
    );

    // The same directory as input and as --existing does not collide with itself.
    let (code, findings) = json_findings(
        &[
            "--existing",
            manifests().to_str().expect("path"),
            manifests().to_str().expect("path"),
        ],
        None,
    );
    assert_eq!(code, 0, "{findings:?}");

    // Two new pools with one VIP collide with each other.
    let twin = write(
        dir.path(),
        "twin.yaml",
        &example("ml-cluster.yaml").replace("name: ml-cluster", "name: ml-twin"),
    );
    let (code, findings) = json_findings(
        &[new.to_str().expect("path"), twin.to_str().expect("path")],
        None,
    );
    assert_eq!(code, 1);
    assert_eq!(
        rules(&findings)
            .iter()
            .filter(|r| *r == "vip.unique")
            .count(),
        2,
        "{findings:?}"
    );

    // A pool that already exists under the same name is an update, not a new pool.
    let (code, findings) = json_findings(
        &[
            "--existing",
            manifests().join("ml-cluster.yaml").to_str().expect("path"),
            "-",
        ],
        Some(&example("ml-cluster.yaml")),
    );
    assert_eq!(code, 1);
    assert!(
        rules(&findings).contains(&"metadata.name.unique".to_owned()),
        "{findings:?}"
    );
}

#[test]
fn other_kinds_are_skipped_with_a_note() {
    let text = format!(
        "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: my-project\n---\n{}",
        example("ml-cluster.yaml")
    );
    let (code, findings) = json_findings(&["-"], Some(&text));
    assert_eq!(code, 0, "{findings:?}");
    assert_eq!(rules(&findings), ["document.skipped"]);
    assert_eq!(findings[0]["severity"], "info");
    assert_eq!(findings[0]["document"], 1);
}

/// Broken input: a clear located message, a non-zero exit, never a panic.
#[test]
fn malformed_input_is_refused_clearly() {
    let dir = tempfile::tempdir().expect("temp dir");
    let junk: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let binary = dir.path().join("junk.bin");
    std::fs::write(&binary, &junk).expect("write");
    let deep = "[".repeat(100_000);
    let deep_block: String = (0..200)
        .map(|i| format!("{}k{i}:\n", "  ".repeat(i)))
        .collect();
    let huge = dir.path().join("huge.yaml");
    {
        // 50 MB of plausible YAML.
        let line = "key: value with some words in it to fill the line up\n";
        let text = line.repeat(50 * 1024 * 1024 / line.len() + 1);
        std::fs::write(&huge, text).expect("write");
    }
    let cases: Vec<(&str, Vec<String>, Option<String>, &str)> = vec![
        (
            "binary junk",
            vec![binary.display().to_string()],
            None,
            "not UTF-8",
        ),
        (
            "tabs",
            vec!["-".into()],
            Some("metadata:\n\tname: x\n".into()),
            "tabs",
        ),
        (
            "unclosed quote",
            vec!["-".into()],
            Some("kind: ComputePool\nmetadata:\n  name: 'x\n".into()),
            "quote",
        ),
        (
            "deep flow nesting",
            vec!["-".into()],
            Some(deep),
            "deeper than 64",
        ),
        (
            "deep block nesting",
            vec!["-".into()],
            Some(deep_block),
            "deeper than 64",
        ),
        (
            "50 MB file",
            vec![huge.display().to_string()],
            None,
            "at most 32 MiB",
        ),
        (
            "NUL bytes",
            vec!["-".into()],
            Some("kind: ComputePool\0\n".into()),
            "NUL",
        ),
        (
            "missing file",
            vec![dir.path().join("nope.yaml").display().to_string()],
            None,
            "no such file",
        ),
        (
            "a bare string",
            vec!["-".into()],
            Some("just some words\n".into()),
            "not a Kubernetes object",
        ),
        (
            "duplicate keys",
            vec!["-".into()],
            Some("kind: ComputePool\nkind: ComputePool\n".into()),
            "uplicate",
        ),
    ];
    for (what, args, stdin, expected) in cases {
        for format in ["human", "json"] {
            let mut command = pooldeck();
            command
                .arg("validate")
                .args(["--format", format])
                .args(&args);
            if let Some(input) = &stdin {
                command.write_stdin(input.clone());
            }
            let output = command.output().expect("runs");
            let stdout = String::from_utf8_lossy(&output.stdout);
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(
                output.status.code(),
                Some(2),
                "{what} ({format}): {stdout}{stderr}"
            );
            assert!(!stderr.contains("panicked"), "{what}: {stderr}");
            assert!(
                stdout.contains(expected),
                "{what} ({format}) should say {expected:?}: {stdout}"
            );
            if format == "json" {
                let report: Value =
                    serde_json::from_str(&stdout).expect("JSON even for broken input");
                let first = &report["findings"][0];
                assert_eq!(first["severity"], "error", "{what}");
            }
        }
    }
}

#[test]
fn syntax_errors_name_their_line_and_column() {
    let (code, findings) =
        json_findings(&["-"], Some("kind: ComputePool\nmetadata:\n  name: 'x\n"));
    assert_eq!(code, 2);
    assert_eq!(findings[0]["rule"], "input.yaml");
    assert!(
        findings[0]["line"].as_u64().unwrap_or(0) >= 3,
        "{findings:?}"
    );
    assert!(
        findings[0]["column"].as_u64().unwrap_or(0) >= 1,
        "{findings:?}"
    );
}

#[test]
fn lists_rules_with_ids_and_sections() {
    let output = pooldeck()
        .args(["validate", "--list-rules"])
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success());
    for id in [
        "vip.immutable",
        "single-node.settings",
        "worker-pool.name.format",
        "input.yaml",
        "quota.gpu",
        "hosts.too-few",
    ] {
        assert!(stdout.contains(id), "{id} missing from {stdout}");
    }
    // Each rule's severity is given with why it has it: the gpuMemory total that disagrees
    // is a warning the API accepts, a private SSH key an error for the secret.
    let line = |id: &str| {
        stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(id))
            .unwrap_or_else(|| panic!("{id} missing from {stdout}"))
            .to_owned()
    };
    let memory = line("gpu.memory.consistent");
    assert!(
        memory.contains("warning") && memory.contains("accepted; looks wrong"),
        "{memory}"
    );
    assert!(line("ssh-key.private").contains("it exposes a secret"));
    assert!(line("metadata.name.format").contains("the API refuses it"));
}

#[test]
fn a_gpu_memory_total_that_disagrees_is_a_warning_that_says_why() {
    let mut text = example("ml-cluster.yaml");
    assert!(text.contains("gpuMemory"), "the example sets gpuMemory");
    let start = text.find("gpuMemory:").expect("gpuMemory");
    let end = start + text[start..].find('\n').expect("end of line");
    text.replace_range(start..end, "gpuMemory: '100 GB'");
    let dir = tempfile::tempdir().expect("temp dir");
    let file = write(dir.path(), "pool.yaml", &text);
    let (status, findings) = json_findings(&[file.to_str().expect("path")], None);
    assert_eq!(status, 0, "a warning alone passes: {findings:?}");
    let hit = findings
        .iter()
        .find(|f| f["rule"] == "gpu.memory.consistent")
        .expect("the mismatch is said");
    assert_eq!(hit["severity"], "warning");
    assert!(
        hit["message"]
            .as_str()
            .is_some_and(|m| m.contains("looks like")),
        "{hit}"
    );
}

#[test]
fn usage_errors_exit_2() {
    let output = pooldeck().args(["validate"]).output().expect("runs");
    assert_eq!(output.status.code(), Some(2));
    let output = pooldeck()
        .args(["validate", "--format", "xml", "x"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn scaling_policies_are_checked_and_near_miss_kinds_named() {
    let dir = tempfile::tempdir().expect("temp dir");
    let clean = write(
        dir.path(),
        "policy.yaml",
        "apiVersion: spectrocloud.com/v1alpha1\nkind: ScalingPolicy\nmetadata: {name: p, namespace: ml}\n\
         spec:\n  cpu: {scaleUpThreshold: 80, scaleDownThreshold: 20, scaleUpDuration: 5m, scaleDownDuration: 10m}\n  \
         cooldownDuration: 15m\n  abortDuration: 30m\n",
    );
    let (status, findings) = json_findings(&[clean.to_str().expect("path")], None);
    assert_eq!(status, 0, "{findings:?}");
    assert!(
        findings.is_empty(),
        "the documented example is clean: {findings:?}"
    );

    let broken = write(
        dir.path(),
        "broken.yaml",
        "apiVersion: spectrocloud.com/v1alpha1\nkind: ScalingPolicy\nmetadata: {name: p}\n\
         spec:\n  cpu: {scaleUpThreshold: 101, scaleDownThreshold: 20}\n  gpu:\n  - {variant: a, scaleUpThreshold: 40, scaleDownThreshold: 60}\n  \
         cooldownDuration: soon\n  cpuResourceBounds: {minCPUCount: 9, maxCPUCount: 3}\n---\n\
         apiVersion: spectrocloud.com/v1alpha1\nkind: Scalingpolicy\nmetadata: {name: q}\n",
    );
    let (status, findings) = json_findings(&[broken.to_str().expect("path")], None);
    assert_eq!(status, 1, "{findings:?}");
    let found = rules(&findings);
    for rule in [
        "policy.threshold-range",
        "policy.threshold-order",
        "policy.duration",
        "policy.bounds",
        "document.kind-near-miss",
    ] {
        assert!(found.iter().any(|r| r == rule), "{rule} in {found:?}");
    }
    let near = findings
        .iter()
        .find(|f| f["rule"] == "document.kind-near-miss")
        .expect("near miss");
    assert!(
        near["message"]
            .as_str()
            .is_some_and(|m| m.contains("did you mean ScalingPolicy")),
        "{near}"
    );
    // Said where the mistake is: at `kind` of the second document (its line 2 is the file's line 12).
    assert_eq!(near["path"], "kind", "{near}");
    assert_eq!(near["line"], 12, "{near}");
    assert_eq!(near["column"], 7, "{near}");
    let order = findings
        .iter()
        .find(|f| f["rule"] == "policy.threshold-order")
        .expect("order");
    assert_eq!(order["path"], "spec.gpu[0].scaleDownThreshold");
    assert_eq!(order["line"], 7, "located on the line: {order}");
    // The human summary counts the policies.
    let output = pooldeck()
        .args(["validate", clean.to_str().expect("path")])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("0 ComputePools and 1 ScalingPolicy in 1 file"),
        "{text}"
    );
}

/// A key holding a line break cannot forge a finding of its own: every finding is one line
/// of the human output.
#[test]
fn a_line_break_in_a_key_forges_no_finding() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = example("ml-cluster.yaml").replacen(
        "\n    team: ml-platform\n",
        "\n    team: ml-platform\n    \"x\\nfake.yaml:1:1: error[vip.unique] injected\\r\\nb\": v\n",
        1,
    );
    let file = write(dir.path(), "forged.yaml", &text);
    let output = pooldeck()
        .args(["validate", "--color", "never"])
        .arg(&file)
        .output()
        .expect("runs");
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(out.contains("injected"), "the key is reported: {out}");
    assert!(
        !out.lines().any(|l| l.starts_with("fake.yaml")),
        "no line of its own: {out}"
    );
    assert!(!out.contains('\r'), "{out:?}");
}
