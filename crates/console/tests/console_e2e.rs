//! The console as a person uses it: the real binary in tmux on the embedded demo cluster,
//! driven with keys and read from the screen. Skips, saying why, where tmux is missing.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

fn tmux(args: &[&str]) -> Option<String> {
    let output = Command::new("tmux").args(args).output().ok()?;
    Some(String::from_utf8_lossy(&output.stdout).into_owned())
}

fn have_tmux() -> bool {
    if Command::new("tmux").arg("-V").output().is_err() {
        common::skip("tmux is not installed");
        return false;
    }
    true
}

/// A tmux session running a command, killed when dropped (also when a test fails).
struct Pane {
    name: String,
}

impl Pane {
    /// `tmux new-session -d -s NAME ARGS…` with a 256-colour TERM.
    fn start(args: &[&str]) -> Pane {
        let name = args.first().copied().unwrap_or_default().to_owned();
        let started = Command::new("tmux")
            .args(["new-session", "-d", "-s"])
            .args(args)
            .env("TERM", "xterm-256color")
            .status()
            .expect("tmux runs");
        assert!(started.success());
        Pane { name }
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        tmux(&["kill-session", "-t", &self.name]);
    }
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

/// Waits until the console has left the screen and the shell's prompt is on
/// the last line written.
fn wait_for_prompt(session: &str, seconds: u64) -> String {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    loop {
        let text = screen(session);
        let last = text.lines().rev().find(|line| !line.trim().is_empty());
        if !text.contains("Compute Pools") && last.is_some_and(|line| line.starts_with("bash")) {
            return text;
        }
        assert!(
            Instant::now() < deadline,
            "waited for the shell's prompt; the screen shows:\n{text}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn scale_up_moves_from_scaling_to_cooldown_and_quit_restores_the_terminal() {
    if !have_tmux() {
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
    let _pane = Pane::start(&[&session, "-x", "120", "-y", "32", &command]);
    let result = std::panic::catch_unwind(|| {
        wait_for(&session, "my-compute-pool", 20);
        tmux(&["send-keys", "-t", &session, ":cpe", "Enter"]);
        wait_for(&session, "Evaluations (1)", 10);
        // At 4x the scenario scales about 5 s in and cools down about 11 s in.
        let scaling = wait_for(&session, "Scaling", 20);
        assert!(
            scaling.contains("scale up +4 GPUs") || scaling.contains("12->12"),
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
    if let Err(panic) = result {
        std::panic::resume_unwind(panic);
    }
}

#[test]
fn the_console_on_the_demo_leaves_no_credentials_behind() {
    if !have_tmux() {
        return;
    }
    let binary = assert_cmd::cargo::cargo_bin("pooldeck");
    let session = format!("pooldeck-e2e-files-{}", std::process::id());
    let temp = tempfile::tempdir().expect("temp dir");
    let runtime_dir = tempfile::tempdir().expect("temp dir");
    let command = format!(
        "env TMPDIR={} XDG_RUNTIME_DIR={} {} --demo; echo \"exit=$?\"; sleep 60",
        temp.path().display(),
        runtime_dir.path().display(),
        binary.display()
    );
    let _pane = Pane::start(&[&session, "-x", "120", "-y", "32", &command]);
    let result = std::panic::catch_unwind(|| {
        wait_for(&session, "Compute Pools (12)", 20);
        tmux(&["send-keys", "-t", &session, "q"]);
        wait_for(&session, "exit=0", 15);
        let left: Vec<_> = files_under(temp.path())
            .into_iter()
            .chain(files_under(runtime_dir.path()))
            .collect();
        assert!(left.is_empty(), "files left behind: {left:?}");
    });
    if let Err(panic) = result {
        std::panic::resume_unwind(panic);
    }
}

fn files_under(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else {
            out.push(path);
        }
    }
    out
}

#[test]
fn term_dumb_is_explained_in_words() {
    if !have_tmux() {
        return;
    }
    let binary = assert_cmd::cargo::cargo_bin("pooldeck");
    let session = format!("pooldeck-e2e-dumb-{}", std::process::id());
    let command = format!(
        "env TERM=dumb {} --demo; echo \"exit=$?\"; sleep 60",
        binary.display()
    );
    let _pane = Pane::start(&[&session, "-x", "120", "-y", "32", &command]);
    let result = std::panic::catch_unwind(|| {
        let text = wait_for(&session, "exit=", 15);
        assert!(text.contains("exit=2"), "{text}");
        assert!(text.contains("TERM=dumb"), "{text}");
        assert!(text.contains("pooldeck get"), "{text}");
    });
    if let Err(panic) = result {
        std::panic::resume_unwind(panic);
    }
}

/// The pid of the console running in a tmux pane (the pane's shell's child).
fn console_pid(session: &str) -> String {
    common::tmux::console_pid(session)
}

#[test]
fn a_signal_from_outside_restores_the_terminal_and_exits_128_plus_its_number() {
    if !have_tmux() {
        return;
    }
    let binary = assert_cmd::cargo::cargo_bin("pooldeck");
    for (signal, status) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
        let session = format!("pooldeck-e2e-sig{signal}-{}", std::process::id());
        let dir = tempfile::tempdir().expect("temp dir");
        let marker = dir.path().join("after");
        let command = format!(
            "{} --demo; echo \"exit=$?\"; stty -a > {}; sleep 60",
            binary.display(),
            marker.display()
        );
        let _pane = Pane::start(&[&session, "-x", "120", "-y", "32", &command]);
        let result = std::panic::catch_unwind(|| {
            wait_for(&session, "Compute Pools (12)", 20);
            let pid = console_pid(&session);
            let sent = Command::new("kill")
                .args([&format!("-{signal}"), &pid])
                .status()
                .expect("kill runs");
            assert!(sent.success());
            let text = wait_for(&session, "exit=", 15);
            assert!(
                text.contains(&format!("exit={status}")),
                "SIG{signal}: {text}"
            );
            assert!(
                !text.contains("Compute Pools"),
                "the alternate screen is gone after SIG{signal}: {text}"
            );
            // The shell makes the file before stty has written into it: wait for its words.
            let deadline = Instant::now() + Duration::from_secs(5);
            while std::fs::read_to_string(&marker).map_or(true, |m| !m.contains("icanon"))
                && Instant::now() < deadline
            {
                std::thread::sleep(Duration::from_millis(100));
            }
            let modes = std::fs::read_to_string(&marker).expect("stty ran after the console");
            assert!(
                modes.contains(" icanon") && modes.contains(" echo"),
                "cooked mode after SIG{signal}: {modes}"
            );
        });
        if let Err(panic) = result {
            std::panic::resume_unwind(panic);
        }
    }
}

#[test]
fn ctrl_z_suspends_to_the_shell_and_fg_brings_the_console_back() {
    if !have_tmux() {
        return;
    }
    let binary = assert_cmd::cargo::cargo_bin("pooldeck");
    let session = format!("pooldeck-e2e-tstp-{}", std::process::id());
    let _pane = Pane::start(&[&session, "-x", "120", "-y", "32", "bash", "--norc", "-i"]);
    let result = std::panic::catch_unwind(|| {
        // The interactive shell's prompt (bash-VERSION$ or #).
        wait_for(&session, "bash", 10);
        tmux(&[
            "send-keys",
            "-t",
            &session,
            &format!("{} --demo", binary.display()),
            "Enter",
        ]);
        wait_for(&session, "Compute Pools (12)", 20);
        tmux(&["send-keys", "-t", &session, "C-z"]);
        let stopped = wait_for(&session, "Stopped", 10);
        assert!(
            !stopped.contains("Compute Pools (12)"),
            "the screen is the shell's: {stopped}"
        );
        tmux(&[
            "send-keys",
            "-t",
            &session,
            "stty -a | grep -c ' icanon'",
            "Enter",
        ]);
        wait_for(&session, "\n1", 10);
        tmux(&["send-keys", "-t", &session, "clear; fg", "Enter"]);
        wait_for(&session, "Compute Pools (12)", 15);
        tmux(&["send-keys", "-t", &session, "q"]);
        // The shell's prompt comes back only once the console has quit; keys
        // typed before then go to the console, not to the shell.
        wait_for_prompt(&session, 15);
        tmux(&["send-keys", "-t", &session, "echo \"exit=$?\"", "Enter"]);
        wait_for(&session, "exit=0", 15);
    });
    if let Err(panic) = result {
        std::panic::resume_unwind(panic);
    }
}

#[test]
fn a_stopped_server_shows_as_stale_and_live_again_when_it_continues() {
    if !have_tmux() {
        return;
    }
    let binary = assert_cmd::cargo::cargo_bin("pooldeck");
    let served = common::serve("fleet");
    let kubeconfig = served.kubeconfig.display().to_string();
    let session = format!("pooldeck-e2e-stale-{}", std::process::id());
    let command = format!(
        "env KUBECONFIG={kubeconfig} {} -A; sleep 60",
        binary.display()
    );
    let _pane = Pane::start(&[&session, "-x", "160", "-y", "40", &command]);
    let pid = served.pid().to_string();
    let result = std::panic::catch_unwind(|| {
        wait_for(&session, "Compute Pools (12)", 20);
        // The server stops answering but its connections stay open, as on a hung host.
        Command::new("kill")
            .args(["-STOP", &pid])
            .status()
            .expect("kill");
        let stale = wait_for(&session, "STALE", 40);
        assert!(
            stale.contains("Compute Pools (12)"),
            "the rows stay: {stale}"
        );
        Command::new("kill")
            .args(["-CONT", &pid])
            .status()
            .expect("kill");
        let deadline = Instant::now() + Duration::from_secs(40);
        loop {
            let text = screen(&session);
            if !text.contains("STALE") {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "still stale after SIGCONT:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    });
    let _ = Command::new("kill").args(["-CONT", &pid]).status();
    drop(served);
    if let Err(panic) = result {
        std::panic::resume_unwind(panic);
    }
}
