//! How a command reaches its hubs: the runtime, the connection, the hubs and namespaces named, the selector, the audit log; each failure said and turned into an exit status.

use std::process::ExitCode;

/// Runs a one-shot command's body to its exit code on the async runtime (built by the runtime
/// module, the one place with tasks), or exits, saying why, when it cannot start.
pub(crate) fn block_on(body: impl std::future::Future<Output = ExitCode>) -> ExitCode {
    match crate::runtime::build() {
        Ok(runtime) => runtime.block_on(body),
        Err(code) => code,
    }
}

/// Runs the part of a command that may send requests that change something: a Ctrl-C, a
/// hangup (the SSH session gone) or a termination meanwhile gives every request on its way
/// its outcome in the audit log ("interrupted: outcome unknown"), then ends the process with
/// the signal's status (128 + its number, as the console's). A prompt waiting for an answer
/// just ends.
pub(crate) async fn acting(body: impl std::future::Future<Output = ExitCode>) -> ExitCode {
    let listener = tokio::spawn(async {
        let Some(signal) = ending_signal().await else {
            return;
        };
        match crate::cluster::audit::interrupted() {
            0 => crate::say::complain!("\npooldeck: interrupted"),
            n => crate::say::complain!(
                "\npooldeck: interrupted with {n} request(s) on their way: they may have \
                 been carried out (the audit log says \"outcome unknown\"); look at the \
                 objects before trying again"
            ),
        }
        std::process::exit(128 + signal);
    });
    let code = body.await;
    listener.abort();
    code
}

/// The first of SIGINT, SIGHUP and SIGTERM to arrive (its number); `None` when none can be
/// watched.
async fn ending_signal() -> Option<i32> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut watched = Vec::new();
    for kind in [
        SignalKind::interrupt(),
        SignalKind::hangup(),
        SignalKind::terminate(),
    ] {
        if let Ok(stream) = signal(kind) {
            watched.push((stream, kind.as_raw_value()));
        }
    }
    if watched.is_empty() {
        return None;
    }
    let arrivals = watched.iter_mut().map(|(stream, number)| {
        let number = *number;
        Box::pin(async move { stream.recv().await.map(|()| number) })
    });
    futures::future::select_all(arrivals).await.0
}

/// Connects to the hub a one-shot command names, or reports why not and
/// yields the exit code the command uses for "could not reach the hub".
pub(crate) async fn connect_or_exit(
    kubeconfig: &Option<std::path::PathBuf>,
    context: &Option<String>,
    failure: u8,
) -> Result<crate::sources::connection::Connection, ExitCode> {
    let target = crate::sources::connection::Target {
        kubeconfig: kubeconfig.clone(),
        context: context.clone(),
        inline: None,
    };
    crate::sources::connection::connect(&target)
        .await
        .map_err(|e| {
            crate::say::complain!("pooldeck: {e}");
            ExitCode::from(failure)
        })
}

/// The hubs a command reads: the contexts named (`--context` repeated, each once), every
/// context of the kubeconfig (`--all-contexts`), else one, the current (empty: the caller
/// connects to the current context as before). A context the kubeconfig lacks is refused
/// here, before any hub is asked, with the names it has; `failure` is the exit status then.
pub(crate) fn hubs_named(
    kubeconfig: &Option<std::path::PathBuf>,
    named: &[String],
    all: bool,
    failure: u8,
) -> Result<Vec<String>, ExitCode> {
    if named.len() <= 1 && !all {
        return Ok(named.to_vec());
    }
    let target = crate::sources::connection::Target {
        kubeconfig: kubeconfig.clone(),
        context: None,
        inline: None,
    };
    let refuse = |why: String| {
        crate::say::complain!("pooldeck: {why}");
        ExitCode::from(failure)
    };
    let known = crate::sources::connection::contexts_of(&target)
        .map_err(|why| refuse(format!("the hubs cannot be listed: {why}")))?;
    let hubs: Vec<String> = if all {
        if known.is_empty() {
            return Err(refuse("the kubeconfig names no context to read".to_owned()));
        }
        known.clone()
    } else {
        let mut hubs: Vec<String> = Vec::new();
        for name in named {
            if !known.contains(name) {
                return Err(refuse(format!(
                    "there is no context \"{}\" in the kubeconfig (it has: {})",
                    crate::domain::inert::line(name),
                    hub_list(&known)
                )));
            }
            // The same hub named twice is read once.
            if !hubs.contains(name) {
                hubs.push(name.clone());
            }
        }
        hubs
    };
    // Two contexts that reach one server as one user are one hub: read twice it would list
    // its pools twice, and a pause sent twice would meet itself.
    let mut seen: Vec<(String, String, &String)> = Vec::new();
    for hub in &hubs {
        let at = crate::sources::connection::Target {
            kubeconfig: kubeconfig.clone(),
            context: Some(hub.clone()),
            inline: None,
        };
        let reach = (
            crate::sources::connection::server_of(&at).unwrap_or_default(),
            crate::sources::connection::user_of(&at).unwrap_or_default(),
        );
        if let Some((_, _, first)) = seen.iter().find(|(s, u, _)| (s, u) == (&reach.0, &reach.1)) {
            return Err(refuse(format!(
                "the contexts {} and {} reach the same hub ({} as {}): name one of them",
                crate::domain::inert::line(first),
                crate::domain::inert::line(hub),
                crate::domain::inert::line(&reach.0),
                crate::domain::inert::line(&reach.1)
            )));
        }
        seen.push((reach.0, reach.1, hub));
    }
    Ok(hubs)
}

/// Hub (context) names as a message lists them: each the kubeconfig's text made inert on
/// one line, joined by commas.
pub(crate) fn hub_list(hubs: &[String]) -> String {
    hubs.iter()
        .map(|h| crate::domain::inert::line(h).into_owned())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether the flags ask for several hubs (`--context` more than once, `--all-contexts`): the
/// output then names the hub on every row, however many hubs that turns out to be.
pub(crate) fn several_hubs(named: &[String], all: bool) -> bool {
    all || named.len() > 1
}

/// Refuses a namespace the API server would refuse before it becomes part of a URL: said on
/// stderr, and the command's exit status for bad input given back.
pub(crate) fn check_namespaces<'n>(
    names: impl IntoIterator<Item = &'n String>,
    failure: u8,
) -> Result<(), ExitCode> {
    match names
        .into_iter()
        .find_map(|ns| crate::domain::rules::names::namespace_problem(ns))
    {
        Some(problem) => {
            crate::say::complain!("pooldeck: {problem}");
            Err(ExitCode::from(failure))
        }
        None => Ok(()),
    }
}

/// The namespaces a one-shot command reads: every one with `-A`, those named with `-n`, else
/// the context's.
pub(super) fn namespaces_to_read(
    connection: &crate::sources::connection::Connection,
    named: &[String],
    all: bool,
) -> crate::app::ports::Namespaces {
    use crate::app::ports::Namespaces;
    if all {
        Namespaces::All
    } else if named.is_empty() {
        Namespaces::Only(vec![connection.default_namespace.clone()])
    } else {
        Namespaces::Only(named.to_vec())
    }
}

/// What a one-shot command that reads namespaces starts with: the namespaces checked before
/// any becomes part of a URL, the hub connected, and the namespaces to read worked out. A
/// failure is said on stderr and ends the command with `failure`.
pub(crate) async fn connect_to_read(
    kubeconfig: &Option<std::path::PathBuf>,
    context: &Option<String>,
    named: &[String],
    all: bool,
    failure: u8,
) -> Result<
    (
        crate::sources::connection::Connection,
        crate::app::ports::Namespaces,
    ),
    ExitCode,
> {
    check_namespaces(named, failure)?;
    let connection = connect_or_exit(kubeconfig, context, failure).await?;
    let namespaces = namespaces_to_read(&connection, named, all);
    // The context's own namespace goes into the paths as well: checked like a named one.
    if let crate::app::ports::Namespaces::Only(list) = &namespaces
        && named.is_empty()
        && let Some(problem) = list
            .iter()
            .find_map(|ns| crate::domain::rules::names::namespace_problem(ns))
    {
        crate::say::complain!(
            "pooldeck: the context's namespace cannot be used: {problem}; fix it in the kubeconfig or pass -n NS"
        );
        return Err(ExitCode::from(failure));
    }
    Ok((connection, namespaces))
}

/// A duration on the command line. clap quotes the value already, so the message says only
/// why it is not one and what one looks like.
/// A `-l` selector read before anything is asked of the hub: `None` without one; a selector
/// that cannot be read is said with the API server's words and ends the command with `code`.
/// `acts`: the command changes what it selects, and a blank selector (which selects
/// everything: an unset shell variable) is refused, as kubectl refuses it for delete and label.
pub(crate) fn selector_arg(
    text: Option<&str>,
    code: u8,
    acts: bool,
) -> Result<Option<crate::domain::selector::LabelSelector>, ExitCode> {
    let Some(text) = text else {
        return Ok(None);
    };
    if acts && text.trim().is_empty() {
        crate::say::complain!(
            "pooldeck: an empty selector would select every pool in the namespace: give one, \
             as in -l team=retail-edge (nothing was sent)"
        );
        return Err(ExitCode::from(code));
    }
    crate::domain::selector::LabelSelector::parse(text)
        .map(Some)
        .map_err(|e| {
            crate::say::complain!(
                "pooldeck: the selector \"{}\" is not valid: {e}",
                crate::domain::inert::line(text)
            );
            ExitCode::from(code)
        })
}

/// A command on one object by name: the name checked as the API server would (exit 2 when
/// it is none), then the hub reached for the namespace named (else the context's).
pub(crate) async fn reach_named(
    name: &str,
    namespace: &Option<String>,
    (kubeconfig, context): (&Option<std::path::PathBuf>, &Option<String>),
) -> Result<
    (
        crate::sources::connection::Connection,
        crate::app::ports::Namespaces,
    ),
    ExitCode,
> {
    if let Some(problem) = crate::domain::rules::names::dns_subdomain(name) {
        crate::say::complain!(
            "pooldeck: the name \"{}\" is not an object's name: it {problem}",
            crate::domain::inert::line(name)
        );
        return Err(ExitCode::from(2));
    }
    let named: Vec<String> = namespace.iter().cloned().collect();
    connect_to_read(kubeconfig, context, &named, false, 1).await
}

/// The audit log: `--audit-log`, else the settings file's, else the default; or why none.
pub(super) fn audit_log(
    flag: Option<std::path::PathBuf>,
    settings: &crate::settings::Settings,
) -> Result<std::path::PathBuf, crate::cluster::audit::AuditError> {
    use crate::cluster::audit::AuditError;
    use crate::settings::AuditLog;
    let from_settings = settings.audit_log.as_ref().map(|log| match log {
        AuditLog::At(path) => Ok(path.clone()),
        AuditLog::NotAbsolute(path) => Err(AuditError::NotAbsolute(path.clone())),
    });
    crate::cluster::audit::place(flag, from_settings)
}

/// Whether `server` is on this machine (a demo pooldeck serves is, and only then are its
/// `/version`'s pooldeck fields believed).
pub(crate) fn on_this_machine(server: &str) -> bool {
    ["https://127.0.0.1:", "https://localhost:", "https://[::1]:"]
        .iter()
        .any(|h| server.starts_with(h))
}

/// The `/version` of a demo cluster pooldeck serves; `None` from any other server.
pub(crate) async fn demo_version(client: &kube::Client) -> Option<serde_json::Value> {
    let request = kube::core::Request::new("")
        .get("version", &kube::api::GetParams::default())
        .ok()?;
    let text = client.request_text(request).await.ok()?;
    let version: serde_json::Value = serde_json::from_str(&text).ok()?;
    version["gitVersion"]
        .as_str()
        .is_some_and(|v| v.ends_with("-pooldeck-demo"))
        .then_some(version)
}

/// When the support bundle the demo at `server` serves (`demo serve --bundle`) was taken;
/// `None` for any other hub. The clock a diagnosis of it reads: ages as they were then.
pub(crate) async fn bundle_taken_at(
    client: &kube::Client,
    server: &str,
) -> Option<chrono::DateTime<chrono::Utc>> {
    if !on_this_machine(server) {
        return None;
    }
    let version = demo_version(client).await?;
    let taken = version["pooldeckBundleTakenAt"].as_str()?;
    chrono::DateTime::parse_from_rfc3339(taken)
        .ok()
        .map(|t| t.with_timezone(&chrono::Utc))
}
