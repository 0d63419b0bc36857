//! pooldeck among the operator's tools: its bash completion loads and completes, its manual
//! pages are written, and kubectl runs it as the plugin `kubectl pooldeck`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

use std::process::{Command, Stdio};

mod common;

fn have(tool: &str, version: &[&str]) -> bool {
    let found = Command::new(tool)
        .args(version)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        common::skip(&format!("{tool} is not installed"));
    }
    found
}

/// What bash's completion offers for the words typed, through pooldeck's script: the
/// function it registers for `pooldeck`, called as bash calls it (the word being completed
/// last; `""` for a new one).
fn completes(script: &std::path::Path, words: &[&str]) -> Vec<String> {
    completes_with(script, words, None)
}

/// [`completes`] with `KUBECONFIG` set for the hub's names.
fn completes_with(
    script: &std::path::Path,
    words: &[&str],
    kubeconfig: Option<&std::path::Path>,
) -> Vec<String> {
    let line = words
        .iter()
        .map(|w| {
            if w.is_empty() {
                "''".to_owned()
            } else {
                (*w).to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    let program = format!(
        "source {script}\nCOMP_WORDS=({line})\nCOMP_CWORD={}\nCOMP_LINE='{line}'\nCOMP_POINT=${{#COMP_LINE}}\n\
         complete_with=$(complete -p pooldeck | sed -E 's/.* -F ([^ ]+) .*/\\1/')\n\
         $complete_with pooldeck \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"\n\
         printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        words.len() - 1,
        script = script.display()
    );
    let mut bash = Command::new("bash");
    bash.args(["--norc", "--noprofile", "-c", &program]);
    if let Some(kubeconfig) = kubeconfig {
        bash.env("KUBECONFIG", kubeconfig);
    }
    let output = bash.output().expect("bash runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_bash_completion_loads_and_completes_commands_and_flags() {
    if !have("bash", &["--version"]) {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let script = dir.path().join("pooldeck.bash");
    let output = assert_cmd::Command::cargo_bin("pooldeck")
        .expect("the binary")
        .args(["completion", "bash"])
        .output()
        .expect("runs");
    assert!(output.status.success());
    std::fs::write(&script, &output.stdout).expect("written");
    assert_eq!(completes(&script, &["pooldeck", "g"]), ["get"]);
    let flags = completes(&script, &["pooldeck", "get", "--sel"]);
    assert_eq!(flags, ["--selector"], "{flags:?}");
    let resources = completes(&script, &["pooldeck", "get", "ev"]);
    assert!(resources.contains(&"events".to_owned()), "{resources:?}");
    // From the kubeconfig and the hub: contexts, namespaces, the pools of a namespace, the
    // objects of the kind named; within the deadline, from a hub that answers.
    let served = common::serve("fleet");
    // (A word not begun is also offered the flags, as clap offers them: left out here.)
    let hub = |words: &[&str]| -> Vec<String> {
        completes_with(&script, words, Some(&served.kubeconfig))
            .into_iter()
            .filter(|w| !w.starts_with('-'))
            .collect()
    };
    let contexts = hub(&["pooldeck", "get", "pools", "--context", ""]);
    assert!(
        contexts.contains(&"pooldeck-demo-viewer".to_owned()),
        "{contexts:?}"
    );
    let namespaces = hub(&["pooldeck", "get", "pools", "-n", ""]);
    for namespace in ["ml-research", "retail-edge", "vision-lab"] {
        assert!(namespaces.contains(&namespace.to_owned()), "{namespaces:?}");
    }
    assert_eq!(
        hub(&["pooldeck", "get", "pools", "-n", "vis"]),
        ["vision-lab"]
    );
    let pools = hub(&["pooldeck", "pause", "-n", "ml-research", ""]);
    assert!(
        pools.contains(&"llm-train".to_owned()) && pools.len() == 5,
        "the namespace's pools: {pools:?}"
    );
    // Flags before the verb are passed over (their values are no verb).
    let before = hub(&[
        "pooldeck",
        "--context",
        "pooldeck-demo",
        "pause",
        "-n",
        "vision-lab",
        "",
    ]);
    assert!(before.contains(&"detector".to_owned()), "{before:?}");
    let policies = hub(&["pooldeck", "get", "sp", "-n", "vision-lab", ""]);
    assert_eq!(policies, ["gpu-scaling"], "{policies:?}");
    // A hub that cannot be reached offers nothing, quickly, and says nothing.
    let nowhere = tempfile::tempdir().expect("dir");
    let gone = nowhere.path().join("kubeconfig");
    std::fs::write(
        &gone,
        "apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: 'https://127.0.0.1:9'}}]\n\
         contexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\nusers: [{name: u, user: {token: t}}]\n",
    )
    .expect("written");
    let started = std::time::Instant::now();
    let offered = completes_with(&script, &["pooldeck", "pause", ""], Some(&gone));
    assert!(offered.iter().all(|w| w.starts_with('-')), "{offered:?}");
    eprintln!(
        "an unreachable hub answered nothing in {:?}",
        started.elapsed()
    );
    // Every shell clap knows gets a script.
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let output = assert_cmd::Command::cargo_bin("pooldeck")
            .expect("the binary")
            .args(["completion", shell])
            .output()
            .expect("runs");
        assert!(
            output.status.success() && !output.stdout.is_empty(),
            "{shell}"
        );
    }
}

#[test]
fn man_writes_a_page_per_command() {
    let dir = tempfile::tempdir().expect("dir");
    let output = assert_cmd::Command::cargo_bin("pooldeck")
        .expect("the binary")
        .arg("man")
        .arg(dir.path())
        .output()
        .expect("runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for name in [
        "pooldeck",
        "pooldeck-get",
        "pooldeck-doctor",
        "pooldeck-delete",
        "pooldeck-new",
    ] {
        let page = std::fs::read_to_string(dir.path().join(format!("{name}.1")))
            .unwrap_or_else(|e| panic!("{name}.1: {e}"));
        assert!(page.contains(&format!(".TH {name} 1")), "{name}: {page}");
        // No secret: readable by all, as a shared manual directory needs.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join(format!("{name}.1")))
                .expect("the page")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o644, "{name}");
        }
    }
    let get = std::fs::read_to_string(dir.path().join("pooldeck-get.1")).expect("get's page");
    assert!(get.contains("selector"), "the page has the flags: {get}");
    assert!(!dir.path().join("pooldeck-help.1").exists());
    // A directory that is not there is said, not made.
    let missing = assert_cmd::Command::cargo_bin("pooldeck")
        .expect("the binary")
        .args(["man"])
        .arg(dir.path().join("nowhere"))
        .output()
        .expect("runs");
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn kubectl_runs_it_as_a_plugin() {
    if !have("kubectl", &["version", "--client"]) {
        return;
    }
    let plugin = assert_cmd::cargo::cargo_bin("kubectl-pooldeck");
    let bin = plugin.parent().expect("its directory");
    let served = common::serve("fleet");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = Command::new("kubectl")
        .args([
            "pooldeck",
            "get",
            "pools",
            "-A",
            "-l",
            "team=vision-lab",
            "-o",
            "name",
        ])
        .env("PATH", &path)
        .env("KUBECONFIG", &served.kubeconfig)
        .output()
        .expect("kubectl runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let names = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        names.lines().collect::<Vec<_>>(),
        [
            "computepool.spectrocloud.com/detector",
            "computepool.spectrocloud.com/ocr-batch",
            "computepool.spectrocloud.com/video-analytics"
        ]
    );
    // kubectl's own flags, given after the plugin's name, reach it.
    let output = Command::new("kubectl")
        .args([
            "pooldeck",
            "get",
            "pools",
            "-n",
            "vision-lab",
            "--context",
            "pooldeck-demo",
            "-o",
            "name",
        ])
        .env("PATH", &path)
        .env("KUBECONFIG", &served.kubeconfig)
        .output()
        .expect("kubectl runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&output.stdout).lines().count(), 3);
}
