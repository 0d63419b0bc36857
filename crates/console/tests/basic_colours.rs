//! A terminal of 16 colours (TERM=xterm, screen) receives only basic colour codes: checked
//! on the bytes the console writes to the pane, in every form crossterm emits (a colour alone
//! or combined with another in one sequence).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

use std::time::{Duration, Instant};

mod common;

use common::tmux::{Session, available, tmux};

/// The 256-colour codes below 16 left in SGR sequences (what a 16-colour terminal misreads).
fn extended_basic_codes(bytes: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    let mut found = Vec::new();
    for sequence in text.split('\u{1b}').filter_map(|s| s.strip_prefix('[')) {
        let Some(end) = sequence.find(|c: char| ('@'..='~').contains(&c)) else {
            continue;
        };
        if !sequence[end..].starts_with('m') {
            continue;
        }
        let params: Vec<&str> = sequence[..end].split(';').collect();
        for window in params.windows(3) {
            if matches!(window[0], "38" | "48")
                && window[1] == "5"
                && window[2].parse::<u16>().is_ok_and(|n| n < 16)
            {
                found.push(format!("ESC[{}m", &sequence[..end]));
            }
        }
    }
    found
}

#[test]
fn a_sixteen_colour_terminal_receives_only_basic_codes() {
    if !available() {
        return;
    }
    let binary = assert_cmd::cargo::cargo_bin("pooldeck");
    let dir = tempfile::tempdir().expect("dir");
    let log = dir.path().join("pane.bytes");
    for term in ["xterm", "screen"] {
        let name = format!("pooldeck-basic-{term}-{}", std::process::id());
        let command = format!(
            "env TERM={term} COLORTERM= NO_COLOR= XDG_STATE_HOME={state} {binary} --demo",
            state = dir.path().display(),
            binary = binary.display()
        );
        let session = Session::start(name.clone(), &command, 120, 40);
        let _ = std::fs::remove_file(&log);
        tmux(&[
            "pipe-pane",
            "-o",
            "-t",
            &name,
            &format!("cat >> {}", log.display()),
        ]);
        // The demo's twelve pools listed (the title shows before the list comes, with 0).
        session.wait("the pools list", |s| s.contains("Compute Pools (12)"));
        // Views, a pool's detail, the help: every colour the themes use gets drawn. Each
        // step waits for the screen it leads to: a key typed right after an Escape the
        // console has not read yet arrives as Alt and that key (a loaded machine lost the
        // help's Escape so, and the command line after it).
        session.keys(&["Down", "Enter"]);
        session.wait("the pool's detail", |s| s.contains("1 Overview"));
        session.keys(&["Tab", "Tab", "Tab"]);
        session.wait("the Scaling tab", |s| s.contains("› Scaling"));
        session.keys(&["Escape"]);
        session.wait("the pools list", |s| s.contains("Compute Pools ("));
        session.keys(&["?"]);
        session.wait("the help", |s| s.contains("Keys (Esc"));
        session.keys(&["Escape"]);
        session.wait("the help closed", |s| !s.contains("Keys (Esc"));
        session.keys(&[":"]);
        tmux(&["send-keys", "-t", &name, "-l", "events"]);
        session.keys(&["Enter"]);
        session.wait("the events list", |s| s.contains("Events ("));
        let deadline = Instant::now() + Duration::from_secs(30);
        let bytes = loop {
            let bytes = std::fs::read(&log).unwrap_or_default();
            // Colour was written (an SGR with a colour) and the events list was drawn.
            if String::from_utf8_lossy(&bytes).contains("Events (") || Instant::now() > deadline {
                break bytes;
            }
            std::thread::sleep(Duration::from_millis(100));
        };
        assert!(
            String::from_utf8_lossy(&bytes).contains("\u{1b}["),
            "{term}: the pane's bytes were captured"
        );
        let left = extended_basic_codes(&bytes);
        assert!(
            left.is_empty(),
            "{term}: {} extended codes for basic colours, such as {:?}",
            left.len(),
            &left[..left.len().min(5)]
        );
        session.keys(&["q"]);
    }
}
