//! The command line as clap is given it: `--demo`, whose value is optional, never takes a
//! subcommand as its scenario.

use clap::CommandFactory;

use super::Cli;

/// The arguments with `--demo` given its default when the word after it is a subcommand:
/// `pooldeck --demo new` is the wizard on the demo, not a scenario called "new". (`--demo`
/// takes an optional value, so clap would take the subcommand as it.)
pub(super) fn unswallowed(
    args: impl IntoIterator<Item = std::ffi::OsString>,
) -> Vec<std::ffi::OsString> {
    let subcommands: Vec<String> = Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_owned())
        .collect();
    // The console's flags that take a value: their value is never a subcommand.
    const VALUED: &[&str] = &[
        "--theme",
        "--context",
        "--kubeconfig",
        "-n",
        "--namespace",
        "--speed",
        "--audit-log",
    ];
    let mut out: Vec<std::ffi::OsString> = Vec::new();
    let mut args = args.into_iter().peekable();
    while let Some(arg) = args.next() {
        if arg.to_str().is_some_and(|a| VALUED.contains(&a)) {
            out.push(arg);
            out.extend(args.next());
            continue;
        }
        if arg == "--demo"
            && args
                .peek()
                .and_then(|next| next.to_str())
                .is_some_and(|next| subcommands.iter().any(|s| s == next))
        {
            out.push("--demo=fleet".into());
            continue;
        }
        // After a subcommand, its own arguments are left as they are.
        let is_subcommand = arg
            .to_str()
            .is_some_and(|a| subcommands.iter().any(|s| s == a));
        out.push(arg);
        if is_subcommand {
            out.extend(args);
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::unswallowed;

    fn words(args: &[&str]) -> Vec<String> {
        unswallowed(args.iter().map(std::ffi::OsString::from))
            .into_iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn demo_never_takes_a_subcommand_as_its_scenario() {
        assert_eq!(
            words(&["pooldeck", "--demo", "new", "-n", "ml"]),
            ["pooldeck", "--demo=fleet", "new", "-n", "ml"]
        );
        // A scenario named is kept; a flag's value that reads as a subcommand is a value.
        assert_eq!(
            words(&["pooldeck", "--demo", "scale-up"]),
            ["pooldeck", "--demo", "scale-up"]
        );
        assert_eq!(
            words(&["pooldeck", "--context", "demo", "--demo", "new"]),
            ["pooldeck", "--context", "demo", "--demo=fleet", "new"]
        );
        // After the subcommand, its own arguments are left alone.
        assert_eq!(
            words(&["pooldeck", "new", "--demo", "get"]),
            ["pooldeck", "new", "--demo", "get"]
        );
    }
}
