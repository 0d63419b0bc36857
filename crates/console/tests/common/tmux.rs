//! A tmux session for tests that use the console as a person would: started with a command,
//! read with capture-pane, typed into with send-keys, killed when dropped (also when a test
//! fails). Every wait has its own deadline.

use std::process::Command;
use std::time::{Duration, Instant};

/// Runs tmux; what it printed (empty when it could not run).
pub fn tmux(args: &[&str]) -> String {
    Command::new("tmux")
        .args(args)
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default()
}

/// Whether tmux can run here (says why not, through `skip`, when it cannot).
pub fn available() -> bool {
    if Command::new("tmux").arg("-V").output().is_err() {
        super::skip("tmux is not installed");
        return false;
    }
    true
}

pub struct Session {
    pub name: String,
}

impl Drop for Session {
    fn drop(&mut self) {
        tmux(&["kill-session", "-t", &self.name]);
    }
}

impl Session {
    /// `command` in a new detached session of `width`×`height` with a 256-colour TERM.
    pub fn start(name: String, command: &str, width: u16, height: u16) -> Session {
        let (width, height) = (width.to_string(), height.to_string());
        // A tmux server that is just shutting down (its last session killed by another test)
        // refuses a new session for a moment: asked again, a few times.
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let started = Command::new("tmux")
                .args([
                    "new-session",
                    "-d",
                    "-s",
                    &name,
                    "-x",
                    &width,
                    "-y",
                    &height,
                    command,
                ])
                .env("TERM", "xterm-256color")
                .status()
                .expect("tmux runs");
            if started.success() {
                return Session { name };
            }
            assert!(Instant::now() < deadline, "tmux new-session {name}");
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    pub fn screen(&self) -> String {
        tmux(&["capture-pane", "-p", "-t", &self.name])
    }

    /// Keys by tmux's names (Enter, Tab, C-d, …), in order. A bare Escape followed at once by
    /// another key reads as Alt plus that key on a terminal, so after an Escape the next key
    /// waits out the terminal's escape delay, as a person's would.
    pub fn keys(&self, keys: &[&str]) {
        for key in keys {
            tmux(&["send-keys", "-t", &self.name, key]);
            if *key == "Escape" {
                std::thread::sleep(Duration::from_millis(60));
            }
        }
    }

    /// Text typed literally.
    pub fn type_text(&self, text: &str) {
        tmux(&["send-keys", "-t", &self.name, "-l", text]);
    }

    /// Waits until the screen passes `test` (60 s at most, for a loaded machine); returns it.
    pub fn wait(&self, what: &str, test: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let screen = self.screen();
            if test(&screen) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "waited for {what}; the screen shows:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(150));
        }
    }

    pub fn wait_for(&self, text: &str) -> String {
        self.wait(text, |s| s.contains(text))
    }

    /// The pooldeck process under the pane's shell.
    pub fn console_pid(&self) -> String {
        console_pid(&self.name)
    }
}

/// The pooldeck process under a session's pane shell (waits for it to start).
pub fn console_pid(session: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let shell = tmux(&["list-panes", "-t", session, "-F", "#{pane_pid}"]);
        let output = Command::new("pgrep")
            .args(["-P", shell.trim(), "pooldeck"])
            .output()
            .expect("pgrep runs");
        let pid = String::from_utf8_lossy(&output.stdout).trim().to_owned();
        if !pid.is_empty() {
            return pid;
        }
        assert!(Instant::now() < deadline, "no console under the pane");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// In the vip-conflict story, with the list on screen and lab-b selected: lab-b recreated on
/// `vip` through the wizard (e, Deployment, the VIP, R, the address typed, Review, the name
/// typed, Confirm), as a person types it. Returns once the confirmation is sent.
#[allow(dead_code)]
pub fn recreate_lab_b(console: &Session, vip: &str) {
    console.keys(&["e"]);
    console.wait_for("Edit Compute Pool labs/lab-b");
    console.keys(&["Tab", "Tab", "Tab", "Tab"]);
    console.wait_for("› Deployment");
    console.keys(&["j", "j", "j", "Enter"]);
    console.wait_for("R recreates");
    console.keys(&["R"]);
    console.wait_for("Recreate Compute Pool labs/lab-b");
    console.keys(&["Enter"]);
    for _ in 0.."10.80.0.10".len() {
        console.keys(&["BSpace"]);
    }
    console.type_text(vip);
    console.keys(&["Enter"]);
    console.wait_for(vip);
    console.keys(&["Tab", "Tab"]);
    console.wait_for("› Review");
    console.keys(&["Enter"]);
    console.wait_for("Dry run passed");
    console.type_text("lab-b");
    console.keys(&["Tab", "Enter"]);
}
