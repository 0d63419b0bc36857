//! pooldeck among an operator's other tools: shell completions (`pooldeck completion bash`)
//! and manual pages (`pooldeck man DIR`), both made from the command line's own definition,
//! so they never drift from it.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, CommandFactory};
use clap_complete::Shell;

use super::Cli;

#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  source <(pooldeck completion bash)\n  \
    pooldeck completion zsh > \"${fpath[1]}/_pooldeck\"\n  \
    pooldeck completion fish > ~/.config/fish/completions/pooldeck.fish")]
pub struct CompletionArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    #[arg(value_enum)]
    pub shell: Shell,
}

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  pooldeck man ~/.local/share/man/man1 && man pooldeck-get\n  \
    pooldeck man | man -l -"
)]
pub struct ManArgs {
    /// Where to write pooldeck.1 and a page per command (pooldeck-get.1, ...).
    pub dir: Option<PathBuf>,
}

/// The shell's script: it hands the words typed back to this binary (`COMPLETE=SHELL`),
/// which completes them from the command line's definition, the kubeconfig and the hub.
pub fn completion(args: &CompletionArgs) -> ExitCode {
    use clap_complete::env::{Bash, Elvish, EnvCompleter, Fish, Powershell, Zsh};
    let shell: &dyn EnvCompleter = match args.shell {
        Shell::Bash => &Bash,
        Shell::Zsh => &Zsh,
        Shell::Fish => &Fish,
        Shell::Elvish => &Elvish,
        Shell::PowerShell => &Powershell,
        _ => {
            crate::say::complain!("pooldeck: no completion for {}", args.shell);
            return ExitCode::from(2);
        }
    };
    // Called back by its own path, so it completes wherever the binary is.
    let completer = std::env::current_exe()
        .ok()
        .and_then(|p| p.to_str().map(str::to_owned))
        .unwrap_or_else(|| "pooldeck".to_owned());
    let mut out = Vec::new();
    if let Err(e) =
        shell.write_registration("COMPLETE", "pooldeck", "pooldeck", &completer, &mut out)
    {
        crate::say::complain!("pooldeck: cannot write the script: {e}");
        return ExitCode::from(1);
    }
    super::get::print_out(&String::from_utf8_lossy(&out));
    ExitCode::SUCCESS
}

/// One page as roff, titled `title`.
fn page(command: clap::Command, title: &str) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    clap_mangen::Man::new(command)
        .title(title.to_owned())
        .render(&mut out)?;
    Ok(out)
}

/// Why a manual page could not be written.
#[derive(Debug, thiserror::Error)]
enum PageError {
    /// clap could not render the page.
    #[error("{0}")]
    Rendered(std::io::Error),
    #[error(transparent)]
    Written(crate::files::WriteError),
    /// The page was written but could not be opened to reading by all.
    #[error("cannot make {} readable: {why}", path.display())]
    NotOpenedToAll {
        path: std::path::PathBuf,
        why: std::io::Error,
    },
}

fn readable_by_all(path: &std::path::Path) -> Result<(), PageError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o644)).map_err(|why| {
            PageError::NotOpenedToAll {
                path: path.to_owned(),
                why,
            }
        })?;
    }
    let _ = path;
    Ok(())
}

pub fn man(args: &ManArgs) -> ExitCode {
    let mut command = Cli::command();
    command.build();
    let Some(dir) = &args.dir else {
        return match page(command, "pooldeck") {
            Ok(text) => {
                super::get::print_out(&String::from_utf8_lossy(&text));
                ExitCode::SUCCESS
            }
            Err(e) => {
                crate::say::complain!("pooldeck: cannot make the manual page: {e}");
                ExitCode::from(1)
            }
        };
    };
    if !dir.is_dir() {
        let why = if dir.exists() {
            "is not a directory: name a directory for the pages"
        } else {
            "does not exist; make it first (mkdir -p)"
        };
        crate::say::complain!("pooldeck: {} {why}", dir.display());
        return ExitCode::from(2);
    }
    let mut pages = vec![("pooldeck".to_owned(), command.clone())];
    for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
        let name = format!("pooldeck-{}", sub.get_name());
        pages.push((name, sub.clone()));
    }
    let mut written = Vec::new();
    for (name, command) in pages {
        let path = dir.join(format!("{name}.1"));
        let result = page(command, &name)
            .map_err(PageError::Rendered)
            .and_then(|text| crate::files::write_output(&path, &text).map_err(PageError::Written))
            // A manual page is no secret: readable by all, as man(1) expects of a shared
            // directory (the file was written private, then opened to reading).
            .and_then(|()| readable_by_all(&path));
        if let Err(e) = result {
            crate::say::complain!("pooldeck: {e}");
            return ExitCode::from(1);
        }
        written.push(path.display().to_string());
    }
    crate::say::say!("wrote {}", written.join(", "));
    ExitCode::SUCCESS
}
