//! README speaks of the program as it is: its key table is the command registry's, and it no
//! longer says the console is still being built (nor does `--help`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

use assert_cmd::Command;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .expect("README")
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
    for stale in [
        "being built",
        "come next",
        "will appear here",
        "looks today",
    ] {
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

/// The number of a pool's detail tabs, as README and `--help` say it, is the console's.
#[test]
fn readme_and_help_count_the_detail_tabs_the_console_has() {
    const WORDS: [&str; 11] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    let count = pooldeck::app::Tab::ALL.len();
    let said = format!("{} tabs", WORDS[count]);
    let output = Command::cargo_bin("pooldeck")
        .expect("binary")
        .arg("--help")
        .output()
        .expect("runs");
    let help = String::from_utf8_lossy(&output.stdout).replace('\n', " ");
    for (what, text) in [("README", readme().replace('\n', " ")), ("--help", help)] {
        assert!(text.contains(&said), "{what} does not say {said:?}");
        for (n, word) in WORDS.iter().enumerate() {
            let other = format!(" {word} tabs");
            assert!(
                n == count || !text.contains(&other),
                "{what} says{other}; the console has {count}"
            );
        }
    }
}
