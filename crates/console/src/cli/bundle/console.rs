//! `pooldeck --bundle FILE`: the console on a support bundle, its hub served read-only by
//! the demo as it was taken; the header says READ-ONLY (bundle of HUB taken AT).

use std::process::ExitCode;

use super::super::Cli;

/// The console on a support bundle: its hub (the one --context names, else the first)
/// served read-only as it was taken.
pub fn open(cli: &Cli) -> ExitCode {
    let Some(path) = &cli.bundle else {
        return ExitCode::from(2);
    };
    let opened = match super::open::open(path) {
        Ok(opened) => opened,
        Err(why) => {
            crate::say::complain!("pooldeck: {why}");
            return ExitCode::from(2);
        }
    };
    let names: Vec<&str> = opened.hubs.iter().map(|h| h.name.as_str()).collect();
    let hub = match cli.context.first() {
        Some(asked) => opened.hubs.iter().find(|h| &h.name == asked),
        None => opened.hubs.first(),
    };
    let Some(hub) = hub else {
        crate::say::complain!(
            "pooldeck: the bundle holds no hub {}; it holds: {}",
            cli.context
                .first()
                .map_or("at all".into(), |c| inert_line(c)),
            inert_line(&names.join(", "))
        );
        return ExitCode::from(2);
    };
    let taken = opened.manifest.taken_at;
    let why = format!(
        "bundle of {} taken {}",
        hub.name,
        taken.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
    );
    let target = crate::sources::connection::Target::default();
    super::super::console(
        &cli_without_hubs(cli),
        target,
        None,
        Vec::new(),
        Some((hub.scenario(taken), why)),
    )
}

fn inert_line(text: &str) -> String {
    crate::domain::inert::line(text).into_owned()
}

/// The command line with its hub flags spent (the bundle's hub is chosen by them).
fn cli_without_hubs(cli: &Cli) -> Cli {
    Cli {
        command: None,
        demo: None,
        tour: false,
        chapter: None,
        speed: cli.speed,
        theme: cli.theme.clone(),
        context: Vec::new(),
        all_contexts: false,
        kubeconfig: None,
        namespace: cli.namespace.clone(),
        all_namespaces: cli.all_namespaces,
        readonly: true,
        audit_log: cli.audit_log.clone(),
        bundle: cli.bundle.clone(),
    }
}
