//! CONTRIBUTING speaks of the project as it is: every file and directory it names in
//! backticks exists (a path from the repository's root, from a crate's directory or its `src/`,
//! or a file name found under `crates/`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

use std::path::Path;

fn files_under(dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path.to_string_lossy().replace('\\', "/"));
        }
    }
}

#[test]
fn every_path_contributing_names_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let text = std::fs::read_to_string(root.join("CONTRIBUTING.md")).expect("CONTRIBUTING.md");
    let mut under_crates = Vec::new();
    files_under(&root.join("crates"), &mut under_crates);
    let crates: Vec<_> = std::fs::read_dir(root.join("crates"))
        .expect("crates/")
        .flatten()
        .map(|e| e.path())
        .collect();
    let mut missing = Vec::new();
    let mut checked = 0;
    for (i, piece) in text.split('`').enumerate() {
        // Odd pieces are inside backticks.
        if i % 2 == 0 || piece.contains(' ') || piece.starts_with("../") || piece.contains("NAME") {
            continue;
        }
        let looks_like_a_path = piece.contains('/')
            || [".rs", ".md", ".toml", ".yaml", ".sh"]
                .iter()
                .any(|ext| piece.ends_with(ext));
        if !looks_like_a_path || piece.starts_with('-') || piece.contains("::") {
            continue;
        }
        checked += 1;
        let found = root.join(piece).exists()
            || crates
                .iter()
                .any(|c| c.join(piece).exists() || c.join("src").join(piece).exists())
            || under_crates
                .iter()
                .any(|f| f.ends_with(&format!("/{}", piece.trim_end_matches('/'))));
        if !found {
            missing.push(piece.to_owned());
        }
    }
    assert!(
        checked > 20,
        "the scan reads CONTRIBUTING's paths: {checked}"
    );
    assert!(
        missing.is_empty(),
        "CONTRIBUTING names what does not exist: {missing:?}"
    );
}
