//! The layers, checked: `domain` imports nothing of ours and no tokio, ratatui, crossterm or
//! kube; `inventory` only `domain`; `cluster` never the console, runtime or demo; `app` never
//! `ui`, `sources` or `runtime`; `ui` never `sources`, `runtime` or `cli`; `runtime` never
//! `cli`. A change that breaks a layer fails here with the file and line.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails

use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Lines of the module's code (tests left out: they may drive it with anything) that name one
/// of `forbidden`.
fn violations(module: &str, forbidden: &[&str]) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src")
        .join(module);
    let mut all = Vec::new();
    files(&root, &mut all);
    if root.with_extension("rs").exists() {
        all.push(root.with_extension("rs"));
    }
    assert!(!all.is_empty(), "no source found for {module}");
    let mut found = Vec::new();
    for path in all {
        // Test modules (`tests.rs`, `*_tests.rs`) may drive the code with anything.
        if path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n == "tests.rs" || n.ends_with("_tests.rs"))
        {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        // Code after `#[cfg(test)]` at the top level is a test module.
        let code = match text.find("\n#[cfg(test)]\nmod tests") {
            Some(at) => &text[..at],
            None => &text[..],
        };
        for (number, line) in code.lines().enumerate() {
            let line = line.trim();
            if line.starts_with("//") {
                continue;
            }
            for name in forbidden {
                if line.contains(name) {
                    found.push(format!("{}:{}: {line}", path.display(), number + 1));
                }
            }
        }
    }
    found
}

#[test]
fn domain_imports_nothing_of_ours_and_no_runtime_terminal_or_client() {
    let found = violations(
        "domain",
        &[
            "crate::app",
            "crate::ui",
            "crate::inventory",
            "crate::sources",
            "crate::runtime",
            "crate::cli",
            "crate::demo",
            "crate::theme",
            "crate::manifest",
            "tokio",
            "ratatui",
            "crossterm",
            "kube::",
            "k8s_openapi",
        ],
    );
    assert!(
        found.is_empty(),
        "domain must stay pure:\n{}",
        found.join("\n")
    );
}

#[test]
fn inventory_imports_only_the_domain() {
    let found = violations(
        "inventory",
        &[
            "crate::app",
            "crate::ui",
            "crate::sources",
            "crate::runtime",
            "crate::cli",
            "crate::demo",
            "tokio",
            "ratatui",
            "crossterm",
            "kube::",
        ],
    );
    assert!(
        found.is_empty(),
        "inventory must not reach out:\n{}",
        found.join("\n")
    );
}

#[test]
fn app_never_imports_the_ui_the_sources_or_the_runtime() {
    let found = violations(
        "app",
        &[
            "crate::ui",
            "crate::sources",
            "crate::runtime",
            "crate::cli",
            "tokio",
            // Drawing is the ui's: `ratatui::` is refused. The wizard's editor state is a
            // ratatui-textarea TextArea (`ratatui_textarea`), which the app owns and the ui
            // only reads.
            "ratatui::",
            "kube::",
        ],
    );
    assert!(
        found.is_empty(),
        "app must not import these:\n{}",
        found.join("\n")
    );
}

#[test]
fn ui_only_reads_the_app_domain_and_theme() {
    let found = violations(
        "ui",
        &[
            "crate::sources",
            "crate::runtime",
            "crate::cli",
            "crate::demo",
            "tokio",
            "kube::",
        ],
    );
    assert!(
        found.is_empty(),
        "ui must not import these:\n{}",
        found.join("\n")
    );
}

#[test]
fn runtime_never_imports_the_command_line() {
    let found = violations("runtime", &["crate::cli"]);
    assert!(
        found.is_empty(),
        "runtime must not import cli:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_checker_sees_a_violation() {
    // The scan itself finds what it looks for: the runtime does use tokio.
    assert!(!violations("runtime", &["tokio"]).is_empty());
}

#[test]
fn cluster_operations_never_reach_the_console() {
    let found = violations(
        "cluster",
        &[
            "crate::app",
            "crate::ui",
            "crate::runtime",
            "crate::cli",
            "crate::demo",
            "ratatui",
            "crossterm",
        ],
    );
    assert!(
        found.is_empty(),
        "cluster must not import these:\n{}",
        found.join("\n")
    );
}
