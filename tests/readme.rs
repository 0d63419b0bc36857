//! README speaks of the program as it is: its key table is the command registry's, and it no
//! longer says the console is still being built (nor does `--help`).

use assert_cmd::Command;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README")
}

#[test]
fn the_key_table_is_the_registrys() {
    let text = readme();
    let start = text
        .find("<!-- keys:start -->\n")
        .expect("README marks its key table");
    let end = text
        .find("<!-- keys:end -->")
        .expect("README closes its key table");
    let table = &text[start + "<!-- keys:start -->\n".len()..end];
    assert_eq!(
        table,
        pooldeck::app::commands::markdown(),
        "README's key table differs from the registry; paste the registry's table \
         (pooldeck::app::commands::markdown()) between the markers"
    );
}

#[test]
fn neither_readme_nor_help_says_the_console_is_being_built() {
    let text = readme();
    for stale in ["being built", "come next", "will appear here"] {
        assert!(!text.contains(stale), "README still says {stale:?}");
    }
    let output = Command::cargo_bin("pooldeck")
        .expect("binary")
        .arg("--help")
        .output()
        .expect("runs");
    let help = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success());
    assert!(help.contains("live console"), "{help}");
    for stale in ["being built", "come next"] {
        assert!(!help.contains(stale), "--help still says {stale:?}: {help}");
    }
}
