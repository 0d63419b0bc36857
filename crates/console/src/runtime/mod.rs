//! The only place with tasks, channels and the terminal. It builds the async runtime (for
//! the console and for the one-shot commands), connects (or starts the demo cluster), starts
//! the watch sources through the cluster port, puts the terminal in raw mode on the
//! alternate screen, feeds keys, source events, the clock and the answers of effects into
//! `app::update`, runs the effects `update` leaves on tasks ([`port::execute`]), and draws
//! with `ui::render` once the queued messages are drained. Must not import `cli`.

mod clipboard;
mod connect;
mod drafts;
mod editing;
pub mod editor;
mod input;
pub use drafts::kept_drafts;
pub(crate) mod logs;
mod open;
pub mod port;
mod terminal;
mod tour;
mod turns;

use std::process::ExitCode;

use crate::app::ports::Namespaces;
use crate::demo::scenario::Scenario;
use crate::sources::connection::Target;
use crate::theme::Theme;

/// How to open the console.
#[derive(Clone, Debug)]
pub struct ConsoleOptions {
    pub target: Target,
    /// `None`: the context's namespace (or every namespace for the demo).
    pub namespaces: Option<Namespaces>,
    /// Open on the embedded demo cluster playing this scenario.
    pub demo: Option<String>,
    pub speed: f64,
    pub theme: Theme,
    /// Said in the console's footer once it opens (a broken settings file, say).
    pub warnings: Vec<String>,
    /// The terminal shows only the 16 basic colours.
    pub basic_colours: bool,
    /// Read-only mode, the settings file, the audit log.
    pub acting: port::Acting,
    /// `pooldeck new`: the console opens on the wizard and ends with it.
    pub wizard: Option<WizardStart>,
    /// `--tour`: the guided tour on the demo, from this chapter (1-based; `None`: where the
    /// kept progress says).
    pub tour: Option<Option<usize>>,
    /// Several hubs watched at once (the fleet view), by context: the first is the target's.
    /// Empty: one hub.
    pub hubs: Vec<String>,
    /// `--bundle`: a support bundle's hub, served read-only by the demo (instead of `demo`).
    pub bundle: Option<Scenario>,
}

/// How `pooldeck new` opens the wizard.
#[derive(Clone, Debug)]
pub struct WizardStart {
    /// The draft to start from (`--from FILE`); none: a new pool.
    pub draft: Option<crate::domain::draft::Draft>,
    /// The namespace asked for (`-n`); none: the file's, else the context's.
    pub namespace: Option<String>,
    /// Where Review's `w` writes the manifest (`-o FILE`).
    pub output: Option<std::path::PathBuf>,
    /// `--resume`: the kept draft the wizard opens on (an edit's once its pool is read).
    pub resume: Option<crate::app::drafts::Kept>,
}

/// The async runtime, or the exit status when it cannot start.
pub fn build() -> Result<tokio::runtime::Runtime, ExitCode> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| {
            crate::say::complain!("pooldeck: cannot start the runtime: {e}");
            ExitCode::from(1)
        })
}

/// Why the console cannot draw here, if it cannot: it needs a terminal on both standard
/// input and output, and one that can move the cursor.
pub fn terminal_problem() -> Option<String> {
    use std::io::IsTerminal;
    let hint = "for output to a file or a pipe use `pooldeck get pools -A` (or -o json); over \
                ssh, ask for a terminal with `ssh -t`";
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Some(format!(
            "the console needs a terminal, and standard input or output is not one; {hint}"
        ));
    }
    if std::env::var("TERM").is_ok_and(|t| t == "dumb") {
        return Some(format!(
            "the console cannot draw on TERM=dumb (it cannot move the cursor); set TERM to your \
             terminal's type (xterm-256color, say), or {hint}"
        ));
    }
    None
}

pub fn run(mut options: ConsoleOptions) -> ExitCode {
    // What was asked for is checked first: a scenario name misspelt is the error to report,
    // whatever the terminal.
    // The tour chooses the scenario: its chapter's.
    let tour = options.tour.map(|asked| {
        let (progress, warning) = tour::load();
        let chapter = asked.unwrap_or_else(|| progress.start());
        (chapter, progress, warning)
    });
    let demo = match &tour {
        Some((chapter, ..)) => crate::app::tour::CHAPTERS
            .get(chapter.saturating_sub(1))
            .map(|c| c.scenario.to_owned()),
        None => options.demo.clone(),
    };
    let scenario = match demo.as_deref().map(Scenario::builtin).transpose() {
        Ok(None) => options.bundle.take(),
        Ok(scenario) => scenario,
        Err(e) => {
            crate::say::complain!("pooldeck: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(problem) = terminal_problem() {
        crate::say::complain!("pooldeck: {problem}");
        return ExitCode::from(2);
    }
    let runtime = match build() {
        Ok(r) => r,
        Err(code) => return code,
    };
    let code = runtime.block_on(open::console(options, scenario, tour));
    // A task still waiting for an editor that did not end is not waited for.
    runtime.shutdown_timeout(editing::EDITOR_GRACE);
    code
}

/// Why the console could not go on with its terminal.
#[derive(Debug, thiserror::Error)]
enum TerminalError {
    #[error("cannot read the terminal: {0}")]
    Read(std::io::Error),
    #[error("cannot draw: {0}")]
    Draw(std::io::Error),
    #[error("cannot suspend: {0}")]
    Suspend(std::io::Error),
    #[error("cannot take the terminal back: {0}")]
    Resume(std::io::Error),
}

/// SIGHUP's number: the console ends with 128 + it when its terminal hangs up or is gone.
const HANGUP: i32 = 1;

/// Whether a write to the terminal failed because there is no terminal any more (its other
/// side closed: EIO; or it went away: ENXIO, EPIPE, EBADF).
fn terminal_gone(error: &std::io::Error) -> bool {
    error.kind() == std::io::ErrorKind::BrokenPipe
        || matches!(
            rustix::io::Errno::from_io_error(error),
            Some(
                rustix::io::Errno::IO
                    | rustix::io::Errno::NXIO
                    | rustix::io::Errno::PIPE
                    | rustix::io::Errno::BADF
            )
        )
}
