//! The terminal: raw mode and the alternate screen for as long as the console lives, put back
//! however it ends (quit, error, panic, SIGTERM, SIGHUP).

use std::io::{Stdout, stdout};

use crossterm::event::{DisableBracketedPaste, EnableBracketedPaste};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

/// Puts the terminal back as it was; whether it could be (a terminal that is gone cannot).
/// Used on every way out, including a panic.
pub fn restore() -> bool {
    let raw = disable_raw_mode().is_ok();
    let screen = execute!(
        stdout(),
        DisableBracketedPaste,
        LeaveAlternateScreen,
        crossterm::cursor::Show
    )
    .is_ok();
    raw && screen
}

/// The console's output. On a terminal of 16 colours it rewrites the 256-colour codes that
/// crossterm writes even for the basic colours (`ESC[38;5;9m`) as the basic ones
/// (`ESC[91m`), which such terminals understand.
pub struct Output {
    out: Stdout,
    basic: bool,
    pending: Vec<u8>,
}

impl Output {
    fn new(basic: bool) -> Output {
        Output {
            out: stdout(),
            basic,
            pending: Vec::new(),
        }
    }
}

/// Every 256-colour code with N below 16 inside an SGR sequence as its basic code, in
/// whatever form crossterm writes it (`ESC[38;5;9m`, the combined `ESC[38;5;9;49m`,
/// `ESC[1;48;5;4;38;5;15m`); the rest of the sequence and of the stream unchanged.
pub fn basic_colours(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == 0x1b && bytes.get(i + 1) == Some(&b'[') {
            // A control sequence: parameters up to its final byte (0x40..=0x7e).
            let start = i + 2;
            let end = bytes[start..]
                .iter()
                .position(|b| (0x40..=0x7e).contains(b))
                .map(|p| start + p);
            if let Some(end) = end
                && bytes[end] == b'm'
                && let Ok(params) = std::str::from_utf8(&bytes[start..end])
                && params.bytes().all(|b| b.is_ascii_digit() || b == b';')
            {
                out.extend_from_slice(b"\x1b[");
                out.extend_from_slice(basic_params(params).as_bytes());
                out.push(b'm');
                i = end + 1;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    out
}

/// An SGR sequence's parameters with each `38;5;N` / `48;5;N` (N below 16) as one basic code.
fn basic_params(params: &str) -> String {
    let parts: Vec<&str> = params.split(';').collect();
    let mut out: Vec<String> = Vec::with_capacity(parts.len());
    let mut k = 0;
    while k < parts.len() {
        let base = match parts[k] {
            "38" => Some(30u16),
            "48" => Some(40u16),
            _ => None,
        };
        if let Some(base) = base
            && parts.get(k + 1) == Some(&"5")
            && let Some(n) = parts.get(k + 2).and_then(|n| n.parse::<u16>().ok())
        {
            if n < 16 {
                out.push((if n < 8 { base + n } else { base + 60 + n - 8 }).to_string());
            } else {
                out.extend([parts[k], "5", parts[k + 2]].map(str::to_owned));
            }
            k += 3;
            continue;
        }
        // A true colour (`38;2;r;g;b`) passes whole; its numbers are not colour codes.
        if base.is_some() && parts.get(k + 1) == Some(&"2") {
            let last = (k + 5).min(parts.len());
            out.extend(parts[k..last].iter().map(|p| (*p).to_owned()));
            k = last;
            continue;
        }
        out.push(parts[k].to_owned());
        k += 1;
    }
    out.join(";")
}

impl std::io::Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.basic {
            self.pending.extend_from_slice(buf);
            Ok(buf.len())
        } else {
            self.out.write(buf)
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.basic && !self.pending.is_empty() {
            let frame = basic_colours(&std::mem::take(&mut self.pending));
            self.out.write_all(&frame)?;
        }
        self.out.flush()
    }
}

/// Raw mode and the alternate screen for as long as it lives.
pub struct Screen {
    pub terminal: Terminal<CrosstermBackend<Output>>,
}

impl Screen {
    /// `basic`: the terminal shows only the 16 basic colours.
    pub fn enter(basic: bool) -> std::io::Result<Screen> {
        enable_raw_mode()?;
        if let Err(e) = execute!(
            stdout(),
            EnterAlternateScreen,
            EnableBracketedPaste,
            crossterm::cursor::Hide
        ) {
            restore();
            return Err(e);
        }
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
        match Terminal::new(CrosstermBackend::new(Output::new(basic))) {
            Ok(terminal) => Ok(Screen { terminal }),
            Err(e) => {
                restore();
                Err(e)
            }
        }
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        restore();
    }
}

impl Screen {
    /// Puts the terminal back at the end. When it hung up, or cannot be put back (it is gone:
    /// a dropped SSH session), standard output and error are pointed at /dev/null, so nothing
    /// that writes there later (ratatui's own drop writes a failure to show the cursor with
    /// `eprintln!`, which panics on a closed terminal) can fail the shutdown.
    pub fn close(self, hung_up: bool) {
        let restored = restore();
        #[cfg(unix)]
        if (hung_up || !restored)
            && let Ok(null) = std::fs::OpenOptions::new().write(true).open("/dev/null")
        {
            let _ = rustix::stdio::dup2_stdout(&null);
            let _ = rustix::stdio::dup2_stderr(&null);
        }
        drop(self);
    }
}

impl Screen {
    /// Suspends the console as Ctrl-Z does in a shell: the terminal is put back, the process
    /// stops, and when the shell continues it (`fg`) the screen is taken again and redrawn
    /// whole.
    pub fn suspend(&mut self) -> std::io::Result<()> {
        restore();
        #[cfg(unix)]
        rustix::process::kill_process(rustix::process::getpid(), rustix::process::Signal::STOP)?;
        // Here the process has been continued.
        self.resume()
    }

    /// Gives the terminal to another program (the user's editor) until [`Screen::resume`].
    pub fn pause(&mut self) {
        restore();
    }

    /// Takes the terminal again and redraws the screen whole. Nothing is asked of the
    /// terminal (ratatui's `clear` asks where the cursor is and waits for the answer, which a
    /// key typed meanwhile or a terminal gone never gives): the screen is cleared at its size.
    pub fn resume(&mut self) -> std::io::Result<()> {
        enable_raw_mode()?;
        execute!(
            stdout(),
            EnterAlternateScreen,
            EnableBracketedPaste,
            crossterm::cursor::Hide
        )?;
        let size = self.terminal.size()?;
        self.terminal.resize(size.into())
    }
}

/// What a signal asks of the console.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asked {
    /// End, with this signal's number (the exit status is 128 + it).
    End(i32),
    /// Stop for now (SIGTSTP from outside).
    Suspend,
    /// The terminal's size changed (SIGWINCH): draw again at the new size.
    Resized,
}

/// SIGINT, SIGTERM and SIGHUP end the console cleanly; SIGTSTP suspends it; SIGWINCH redraws.
pub struct Signals {
    #[cfg(unix)]
    watched: Vec<(tokio::signal::unix::Signal, Asked)>,
}

impl Signals {
    pub fn new() -> Signals {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let wanted = [
                (SignalKind::interrupt(), Asked::End(2)),
                (SignalKind::hangup(), Asked::End(1)),
                (SignalKind::terminate(), Asked::End(15)),
                (SignalKind::from_raw(20), Asked::Suspend),
                (SignalKind::window_change(), Asked::Resized),
            ];
            Signals {
                watched: wanted
                    .into_iter()
                    .filter_map(|(kind, asked)| Some((signal(kind).ok()?, asked)))
                    .collect(),
            }
        }
        #[cfg(not(unix))]
        {
            Signals {}
        }
    }

    /// The next signal that arrives.
    pub async fn next(&mut self) -> Asked {
        #[cfg(unix)]
        {
            if self.watched.is_empty() {
                return std::future::pending().await;
            }
            let waits = self.watched.iter_mut().map(|(signal, asked)| {
                let asked = *asked;
                Box::pin(async move {
                    signal.recv().await;
                    asked
                })
            });
            let (asked, _, _) = futures::future::select_all(waits).await;
            asked
        }
        #[cfg(not(unix))]
        std::future::pending().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_colours_become_basic_codes_and_the_rest_stays() {
        assert_eq!(basic_colours(b"\x1b[38;5;9mE"), b"\x1b[91mE");
        assert_eq!(basic_colours(b"\x1b[38;5;2mok"), b"\x1b[32mok");
        assert_eq!(basic_colours(b"\x1b[48;5;0m"), b"\x1b[40m");
        assert_eq!(basic_colours(b"\x1b[38;5;15m"), b"\x1b[97m");
        assert_eq!(basic_colours(b"\x1b[38;5;200m"), b"\x1b[38;5;200m");
        assert_eq!(basic_colours(b"\x1b[38;5;m"), b"\x1b[38;5;m");
        // The combined forms crossterm writes: foreground and background in one sequence.
        assert_eq!(basic_colours(b"\x1b[38;5;9;49mE"), b"\x1b[91;49mE");
        assert_eq!(basic_colours(b"\x1b[1;48;5;4;38;5;15mX"), b"\x1b[1;44;97mX");
        assert_eq!(
            basic_colours(b"\x1b[38;2;1;2;3;48;5;1m"),
            b"\x1b[38;2;1;2;3;41m"
        );
        // Other sequences and text pass through.
        assert_eq!(basic_colours(b"\x1b[2J\x1b[1;1Hok"), b"\x1b[2J\x1b[1;1Hok");
        assert_eq!(
            basic_colours("plain │ text".as_bytes()),
            "plain │ text".as_bytes()
        );
    }
}
