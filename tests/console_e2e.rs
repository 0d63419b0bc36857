//! The console as a person uses it: the real binary in tmux on the embedded demo cluster,
//! driven with keys and read from the screen. Skips, saying why, where tmux is missing.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

fn tmux(args: &[&str]) -> Option<String> {
    let output = Command::new("tmux").args(args).output().ok()?;
    Some(String::from_utf8_lossy(&output.stdout).into_owned())
}

fn screen(session: &str) -> String {
    tmux(&["capture-pane", "-p", "-t", session]).unwrap_or_default()
}

fn wait_for(session: &str, what: &str, seconds: u64) -> String {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    loop {
        let text = screen(session);
        if text.contains(what) {
            return text;
        }
        assert!(
            Instant::now() < deadline,
            "waited for {what:?}; the screen shows:\n{text}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn scale_up_moves_from_scaling_to_cooldown_and_quit_restores_the_terminal() {
    if Command::new("tmux").arg("-V").output().is_err() {
        common::skip("tmux is not installed");
        return;
    }
    let binary = assert_cmd::cargo::cargo_bin("pooldeck");
    let session = format!("pooldeck-e2e-{}", std::process::id());
    let dir = tempfile::tempdir().expect("temp dir");
    let marker = dir.path().join("after");
    // After the console exits, the shell records the terminal's mode: raw mode left on would
    // show as -icanon.
    let command = format!(
        "{} --demo scale-up --speed 4; echo \"exit=$?\"; stty -a > {}; sleep 60",
        binary.display(),
        marker.display()
    );
    let started = Command::new("tmux")
        .args([
            "new-session",
            "-d",
            "-s",
            &session,
            "-x",
            "120",
            "-y",
            "32",
            &command,
        ])
        .env("TERM", "xterm-256color")
        .status()
        .expect("tmux runs");
    assert!(started.success());
    let result = std::panic::catch_unwind(|| {
        wait_for(&session, "my-compute-pool", 20);
        tmux(&["send-keys", "-t", &session, ":cpe", "Enter"]);
        wait_for(&session, "Evaluations (1)", 10);
        // At 4x the scenario scales about 5 s in and cools down about 11 s in.
        let scaling = wait_for(&session, "Scaling", 20);
        assert!(
            scaling.contains("scale up +4 GPUs") || scaling.contains("12→12"),
            "{scaling}"
        );
        wait_for(&session, "Cooldown", 20);
        tmux(&["send-keys", "-t", &session, "q"]);
        wait_for(&session, "exit=0", 15);
        let deadline = Instant::now() + Duration::from_secs(5);
        while !marker.exists() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(100));
        }
        let modes = std::fs::read_to_string(&marker).expect("stty ran after the console");
        assert!(
            modes.contains(" icanon") && modes.contains(" echo"),
            "the terminal is back in cooked mode: {modes}"
        );
    });
    tmux(&["kill-session", "-t", &session]);
    if let Err(panic) = result {
        std::panic::resume_unwind(panic);
    }
}
