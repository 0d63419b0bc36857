//! The hubs connected and the namespaces chosen, before the console opens.

use std::process::ExitCode;

use super::{ConsoleOptions, WizardStart};
use crate::app::ports::Namespaces;
use crate::domain::draft::Draft;
use crate::sources::connection::Connection as Connected;
use crate::sources::connection::{Target, connect};

/// The hubs the console watches, connected, and what follows from them.
pub(super) struct Hubs {
    /// The first hub's connection (none: `pooldeck new` without a cluster, and why).
    pub(super) connection: Option<Connected>,
    pub(super) offline: Option<String>,
    /// The first hub's context's namespace.
    pub(super) home: String,
    pub(super) draft: Option<Draft>,
    pub(super) others: Vec<(Target, Connected)>,
    pub(super) namespaces: Namespaces,
}

/// Connects to the target and the other hubs, and chooses the namespaces watched.
pub(super) async fn connect_all(
    target: &Target,
    options: &ConsoleOptions,
    demo: bool,
) -> Result<Hubs, ExitCode> {
    // `pooldeck new` works without a cluster: choices then come only from the file and the
    // rules, and apply is unavailable.
    let (connection, offline) = match connect(target).await {
        Ok(c) => (Some(c), None),
        Err(e) if options.wizard.is_some() => (None, Some(e.to_string())),
        Err(e) => {
            crate::say::complain!("pooldeck: {e}");
            return Err(ExitCode::from(1));
        }
    };
    let home = connection
        .as_ref()
        .map_or_else(|| "default".to_owned(), |c| c.default_namespace.clone());
    let draft = options.wizard.as_ref().map(|start| draft_of(start, &home));
    let others = match connect_others(&options.hubs, target).await {
        Ok(others) => others,
        Err(code) => return Err(code),
    };
    let wide = Wide {
        demo,
        wizard: draft.is_some(),
        hubs: !others.is_empty(),
    };
    let namespaces = namespaces_of(options, connection.as_ref(), wide, draft.as_ref())?;
    Ok(Hubs {
        connection,
        offline,
        home,
        draft,
        others,
        namespaces,
    })
}

/// `pooldeck new`'s draft: in the namespace asked for, else the file's, else the context's;
/// the console watches it (with what -n or -A asked) so every check sees it.
pub(super) fn draft_of(start: &WizardStart, home: &str) -> Draft {
    let namespace = start
        .namespace
        .clone()
        .or_else(|| {
            start
                .draft
                .as_ref()
                .map(|d| d.namespace().to_owned())
                .filter(|n| !n.is_empty())
        })
        .unwrap_or_else(|| home.to_owned());
    match start.draft.clone() {
        Some(mut draft) => {
            if draft.namespace() != namespace {
                draft.move_to(&namespace);
            }
            draft
        }
        None => Draft::new(&namespace),
    }
}

/// The other hubs of a fleet, each connected now (a kubeconfig that cannot reach one is said
/// before the console opens); a hub that is down or slow is shown so, later. All at once: a
/// context's credential plugin that takes its time holds up no other.
pub(super) async fn connect_others(
    hubs: &[String],
    target: &Target,
) -> Result<Vec<(Target, Connected)>, ExitCode> {
    let targets: Vec<(&String, Target)> = hubs
        .iter()
        .skip(1)
        .map(|context| {
            let at = Target {
                kubeconfig: target.kubeconfig.clone(),
                context: Some(context.clone()),
                inline: None,
            };
            (context, at)
        })
        .collect();
    let connected = futures::future::join_all(targets.iter().map(|(_, at)| connect(at))).await;
    let mut others = Vec::new();
    for ((context, at), result) in targets.into_iter().zip(connected) {
        match result {
            Ok(connected) => others.push((at, connected)),
            Err(e) => {
                crate::say::complain!(
                    "pooldeck: hub {}: {e} (name the others with --context)",
                    crate::domain::inert::line(context)
                );
                return Err(ExitCode::from(1));
            }
        }
    }
    Ok(others)
}

/// What widens the watch to every namespace when none is asked for: the demo, the wizard
/// alone, several hubs.
#[derive(Clone, Copy)]
pub(super) struct Wide {
    demo: bool,
    wizard: bool,
    hubs: bool,
}

/// The namespaces watched: those asked for, else the context's (every namespace for the
/// demo, the wizard and several hubs), with the draft's; a context's namespace that cannot
/// be used is refused.
pub(super) fn namespaces_of(
    options: &ConsoleOptions,
    connection: Option<&Connected>,
    wide: Wide,
    draft: Option<&Draft>,
) -> Result<Namespaces, ExitCode> {
    let mut namespaces = options.namespaces.clone().unwrap_or_else(|| {
        match connection {
            // Across hubs whose contexts name different namespaces: every namespace. The
            // wizard alone watches every namespace it may (the namespace choice offers every
            // Project seen); refused that, its own (`App::narrow_for_wizard`).
            _ if wide.hubs || wide.demo || wide.wizard => Namespaces::All,
            Some(connection) => Namespaces::Only(vec![connection.default_namespace.clone()]),
            None => Namespaces::Only(vec!["default".into()]),
        }
    });
    if let (Namespaces::Only(list), Some(draft)) = (&mut namespaces, draft)
        && !list.iter().any(|n| n == draft.namespace())
    {
        list.push(draft.namespace().to_owned());
    }
    // The context's own namespace goes into every watch's path: checked as a named one is.
    if let Namespaces::Only(list) = &namespaces
        && let Some(problem) = list
            .iter()
            .find_map(|ns| crate::domain::rules::names::namespace_problem(ns))
    {
        crate::say::complain!(
            "pooldeck: the namespace cannot be used: {problem}; fix the kubeconfig's namespace or pass -n NS"
        );
        return Err(ExitCode::from(2));
    }
    Ok(namespaces)
}
