//! The console without a terminal: it says so in words and points to `pooldeck get`, draws
//! nothing into a file, starts nothing. (TERM=dumb needs a real terminal to reach its check:
//! tests/console_e2e.rs.)

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

use std::time::Duration;

use assert_cmd::Command;

fn console(env: &[(&str, &str)]) -> (Option<i32>, Vec<u8>, String) {
    let mut command = Command::cargo_bin("pooldeck").expect("binary");
    command.args(["--demo"]).timeout(Duration::from_secs(20));
    for (key, value) in env {
        command.env(key, value);
    }
    let output = command.output().expect("runs");
    (
        output.status.code(),
        output.stdout,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn without_a_terminal_the_console_explains_and_draws_nothing() {
    // As `pooldeck -A > out.txt` or `ssh host pooldeck` without -t run it.
    let (code, stdout, stderr) = console(&[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stdout.is_empty(),
        "nothing is drawn into the output: {stdout:?}"
    );
    assert!(stderr.contains("needs a terminal"), "{stderr}");
    assert!(stderr.contains("pooldeck get"), "{stderr}");
    assert!(!stderr.contains("os error"), "no raw OS error: {stderr}");
}
