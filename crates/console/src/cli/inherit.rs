//! The connection flags given before a command carried into it, or refused when they say
//! two things; and the flags that cannot go with the tour or the demo.

use super::{Cli, Command};

/// Why the hub flags given before a command cannot be carried into it.
#[derive(Debug, thiserror::Error)]
pub enum Clash {
    #[error(
        "several hubs are named before the command: give --context (repeated) or --all-contexts after it, to a command that reads several (get, doctor, record, pause, resume)"
    )]
    SeveralHubsBefore,
    #[error(
        "{flag} is given twice with different values ({before} before the command, {after} after it): give it once"
    )]
    Differs {
        flag: String,
        before: String,
        after: String,
    },
    #[error(
        "--context {context:?} is given before the command and --all-contexts after it: name the hubs in one place"
    )]
    ContextAndAll { context: String },
    #[error(
        "--context is given before the command ({before:?}) and after it ({after:?}): give the contexts in one place"
    )]
    Contexts { before: String, after: Vec<String> },
    #[error("-A does not apply to this command: name the namespace with -n")]
    AllNamespaces,
    #[error("this command takes one namespace: give -n once")]
    Namespaces,
    #[error("-n is given before and after the command: give it in one place")]
    NamespacesBoth,
    #[error("-A and -n cannot be used together")]
    AllAndNamespaces,
    #[error("--context, --kubeconfig, -n and -A do not apply to this command")]
    NoHub,
}

/// A flag given before the command and after it: the same value, or refused; given before
/// only, the command takes it.
fn one<T: Clone + PartialEq + std::fmt::Debug>(
    flag: &str,
    before: &Option<T>,
    after: &mut Option<T>,
) -> Result<(), Clash> {
    match (before, after.as_ref()) {
        (Some(b), Some(a)) if b != a => Err(Clash::Differs {
            flag: flag.to_owned(),
            before: format!("{b:?}"),
            after: format!("{a:?}"),
        }),
        (Some(b), None) => {
            *after = Some(b.clone());
            Ok(())
        }
        _ => Ok(()),
    }
}
// A command that may read several hubs: a context given before it is the one it reads;
// given before and after too, it must be that one alone (and never with --all-contexts,
// which would read more than was named).
fn several_contexts(
    before: &Option<String>,
    after: &mut Vec<String>,
    all: bool,
) -> Result<(), Clash> {
    match before {
        Some(b) if all => {
            return Err(Clash::ContextAndAll { context: b.clone() });
        }
        Some(b) if after.is_empty() => after.push(b.clone()),
        Some(b) if after.len() > 1 || after.first() != Some(b) => {
            return Err(Clash::Contexts {
                before: b.clone(),
                after: after.clone(),
            });
        }
        _ => {}
    }
    Ok(())
}

/// The connection flags given before a command (`pooldeck --context hub-b pause ...`, as
/// `kubectl pooldeck --context hub-b ...` passes them) carried into it: a command must never
/// act on another hub than the one named. A flag given both before and after the command
/// with different values is refused.
pub(super) fn inherit(cli: &mut Cli) -> Result<(), Clash> {
    // Several hubs are named after a command that reads several (or for the console).
    if cli.command.is_some() && (cli.context.len() > 1 || cli.all_contexts) {
        return Err(Clash::SeveralHubsBefore);
    }
    let context = cli.context.first().cloned();
    let kubeconfig = cli.kubeconfig.clone();
    let namespaces = cli.namespace.clone();
    let all = cli.all_namespaces;
    let single_namespace = |after: &mut Option<String>| -> Result<(), Clash> {
        if all {
            return Err(Clash::AllNamespaces);
        }
        match namespaces.as_slice() {
            [] => Ok(()),
            [one_ns] => one("-n", &Some(one_ns.clone()), after),
            _ => Err(Clash::Namespaces),
        }
    };
    let many_namespaces = |after: &mut Vec<String>, after_all: &mut bool| -> Result<(), Clash> {
        if !namespaces.is_empty() && !after.is_empty() && *after != namespaces {
            return Err(Clash::NamespacesBoth);
        }
        if after.is_empty() {
            after.clone_from(&namespaces);
        }
        *after_all |= all;
        if *after_all && !after.is_empty() {
            return Err(Clash::AllAndNamespaces);
        }
        Ok(())
    };
    match &mut cli.command {
        Some(Command::Get(a)) => {
            several_contexts(&context, &mut a.context, a.all_contexts)?;
            one("--kubeconfig", &kubeconfig, &mut a.kubeconfig)?;
            many_namespaces(&mut a.namespace, &mut a.all_namespaces)?;
        }
        Some(Command::Doctor(a)) => {
            several_contexts(&context, &mut a.context, a.all_contexts)?;
            one("--kubeconfig", &kubeconfig, &mut a.kubeconfig)?;
            many_namespaces(&mut a.namespace, &mut a.all_namespaces)?;
        }
        Some(Command::Record(a)) => {
            several_contexts(&context, &mut a.context, a.all_contexts)?;
            one("--kubeconfig", &kubeconfig, &mut a.kubeconfig)?;
            many_namespaces(&mut a.namespace, &mut a.all_namespaces)?;
        }
        Some(Command::Pause(a) | Command::Resume(a)) => {
            several_contexts(&context, &mut a.at.context, a.at.all_contexts)?;
            one("--kubeconfig", &kubeconfig, &mut a.at.kubeconfig)?;
            single_namespace(&mut a.at.namespace)?;
        }
        Some(Command::Delete(a)) => {
            several_contexts(&context, &mut a.at.context, a.at.all_contexts)?;
            one("--kubeconfig", &kubeconfig, &mut a.at.kubeconfig)?;
            single_namespace(&mut a.at.namespace)?;
        }
        Some(Command::Describe(a)) => {
            one("--context", &context, &mut a.context)?;
            one("--kubeconfig", &kubeconfig, &mut a.kubeconfig)?;
            single_namespace(&mut a.namespace)?;
        }
        Some(Command::Edit(a)) => {
            one("--context", &context, &mut a.context)?;
            one("--kubeconfig", &kubeconfig, &mut a.kubeconfig)?;
            single_namespace(&mut a.namespace)?;
        }
        // `new` reads the console's flags itself (below); the rest reach no hub.
        Some(Command::New(_)) | None => {}
        Some(_) if context.is_some() || kubeconfig.is_some() || !namespaces.is_empty() || all => {
            return Err(Clash::NoHub);
        }
        Some(_) => {}
    }
    Ok(())
}

/// Flags that cannot go together with the tour or the demo, said as why.
pub(super) fn flags_refused(cli: &Cli) -> Option<String> {
    if cli.tour && cli.command.is_some() {
        return Some(
            "--tour opens the console on the demo cluster; it takes no command".to_owned(),
        );
    }
    if let Some(asked) = cli.chapter
        && !(1..=crate::app::tour::CHAPTERS.len()).contains(&asked)
    {
        return Some(format!(
            "there is no chapter {asked}; the tour's chapters: {}",
            crate::app::tour::listing()
        ));
    }
    if cli.tour
        && let Some(scenario) = cli.demo.as_deref()
        && scenario != "fleet"
    {
        return Some(format!(
            "the tour plays its own scenarios, one per chapter; --chapter N chooses \
             one (drop --demo {scenario})"
        ));
    }
    if cli.tour && (!cli.context.is_empty() || cli.all_contexts || cli.kubeconfig.is_some()) {
        return Some(
            "the tour runs on its own demo cluster; --context and --kubeconfig name a \
             hub (drop them)"
                .to_owned(),
        );
    }
    if cli.tour && !cli.namespace.is_empty() {
        return Some(
            "the tour watches every namespace (each chapter's story has its own); \
             drop -n"
                .to_owned(),
        );
    }
    // The demo is its own hub: a context or kubeconfig named beside it would be ignored.
    if cli.demo.is_some()
        && (!cli.context.is_empty() || cli.all_contexts || cli.kubeconfig.is_some())
    {
        return Some(
            "--demo opens the console on the embedded demo cluster; --context, \
             --all-contexts and --kubeconfig name other hubs (drop them; for several demo \
             hubs, serve them with `pooldeck demo serve --hubs 3` and open the console with \
             --all-contexts on the kubeconfig it prints)"
                .to_owned(),
        );
    }
    if cli.demo.is_some()
        && let Some(command) = &cli.command
        && !matches!(command, Command::New(_))
    {
        return Some(
            "--demo opens the console (or `new`) on the demo cluster; for other \
             commands serve it with `pooldeck demo serve` and use the kubeconfig it prints"
                .to_owned(),
        );
    }
    None
}
