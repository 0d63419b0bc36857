//! The terminal: raw mode and the alternate screen for as long as the console lives, put back
//! however it ends (quit, error, panic, SIGTERM, SIGHUP).

use std::io::{Stdout, stdout};

use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

/// Puts the terminal back as it was. Used on every way out, including a panic.
pub fn restore() {
    let _ = disable_raw_mode();
    let _ = execute!(stdout(), LeaveAlternateScreen, crossterm::cursor::Show);
}

/// Raw mode and the alternate screen for as long as it lives.
pub struct Screen {
    pub terminal: Terminal<CrosstermBackend<Stdout>>,
}

impl Screen {
    pub fn enter() -> std::io::Result<Screen> {
        enable_raw_mode()?;
        if let Err(e) = execute!(stdout(), EnterAlternateScreen, crossterm::cursor::Hide) {
            restore();
            return Err(e);
        }
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
        match Terminal::new(CrosstermBackend::new(stdout())) {
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
    /// Suspends the console as Ctrl-Z does in a shell: the terminal is put back, the process
    /// stops, and when the shell continues it (`fg`) the screen is taken again and redrawn
    /// whole.
    pub fn suspend(&mut self) -> std::io::Result<()> {
        restore();
        #[cfg(unix)]
        rustix::process::kill_process(rustix::process::getpid(), rustix::process::Signal::STOP)?;
        // Here the process has been continued.
        enable_raw_mode()?;
        execute!(stdout(), EnterAlternateScreen, crossterm::cursor::Hide)?;
        self.terminal.clear()
    }
}

/// What a signal asks of the console.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asked {
    /// End, with this signal's number (the exit status is 128 + it).
    End(i32),
    /// Stop for now (SIGTSTP from outside).
    Suspend,
}

/// SIGINT, SIGTERM and SIGHUP end the console cleanly; SIGTSTP suspends it.
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
