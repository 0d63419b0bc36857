//! `pooldeck doctor [NAME] [-n NS | -A] [-o json]`: the troubleshooting guide run over the hub's
//! objects, headless, for runbooks and fleet checks. Exit status: 0 no finding above info, 1
//! an error-level finding, 2 the cluster could not be read.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use chrono::Utc;
use clap::{Args, ValueEnum};
use serde::Serialize;

use super::settle::{Settled, finish, settle_pools};
use crate::domain::Kind;
use crate::domain::diagnosis::Diagnosis;
use crate::domain::rules::Severity;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Findings as text, worst first, per pool.
    Text,
    /// `{"pools": [{"namespace", "name", "findings": [...]}]}`.
    Json,
}

#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Only this pool.
    #[arg(conflicts_with = "selector")]
    pub name: Option<String>,
    /// Only the pools whose labels match, in kubectl's syntax (`team=retail,tier in (gpu)`).
    #[arg(long, short = 'l', value_name = "SELECTOR", allow_hyphen_values = true)]
    pub selector: Option<String>,
    /// Namespace to read (repeatable); default: the context's namespace.
    #[arg(long, short, value_name = "NS", conflicts_with = "all_namespaces")]
    pub namespace: Vec<String>,
    /// Every namespace.
    #[arg(long, short = 'A')]
    pub all_namespaces: bool,
    /// Output format.
    #[arg(long, short, value_enum, default_value = "text")]
    pub output: Format,
    /// Text: show the info-level findings too (scaling under way, cooldown, a VIP this pool
    /// holds), not only warnings and errors. JSON always has every finding.
    #[arg(long)]
    pub all: bool,
    /// The kubeconfig context (default: the current one); repeated, each hub is diagnosed on
    /// its own (VIPs and quotas are per hub: a VIP two hubs use is no conflict) and each pool
    /// is named with its hub (JSON: a `hub` field on each pool).
    #[arg(long, value_name = "NAME", conflicts_with = "all_contexts")]
    pub context: Vec<String>,
    /// Every context of the kubeconfig, each a hub of its own (as --context repeated).
    #[arg(long)]
    pub all_contexts: bool,
    /// The kubeconfig (default: KUBECONFIG, then ~/.kube/config, then in-cluster).
    #[arg(long, value_name = "PATH")]
    pub kubeconfig: Option<PathBuf>,
    /// How long to wait for the complete picture.
    #[arg(long, default_value = "30s", allow_hyphen_values = true, value_parser = super::parse_duration)]
    pub timeout: Duration,
    /// Diagnose a support bundle (`pooldeck bundle`) offline, as it was when taken: the
    /// clock is its taken-at time. Every namespace it holds unless -n names some.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["context", "all_contexts", "kubeconfig"])]
    pub bundle: Option<PathBuf>,
}

#[derive(Serialize)]
pub(crate) struct PoolReport {
    /// The hub (kubeconfig context) the pool is on, when several are diagnosed.
    #[serde(skip_serializing_if = "Option::is_none")]
    hub: Option<String>,
    namespace: String,
    name: String,
    findings: Vec<Diagnosis>,
}

pub fn run(args: &DoctorArgs) -> ExitCode {
    super::block_on(doctor(args))
}

async fn doctor(args: &DoctorArgs) -> ExitCode {
    // Read before the hub is asked anything: a selector that cannot be read is a usage error
    // (2, as clap's), never taken for an error-level finding (1).
    let selector = match super::selector_arg(args.selector.as_deref(), 2, false) {
        Ok(selector) => selector,
        Err(code) => return code,
    };
    let hubs = match super::hubs_named(&args.kubeconfig, &args.context, args.all_contexts, 2) {
        Ok(hubs) => hubs,
        Err(code) => return code,
    };
    // Each hub on its own, all at once: findings never compare one hub's pools with
    // another's. Asked for several, every pool names its hub, however many there turn out
    // to be.
    let several = super::several_hubs(&args.context, args.all_contexts);
    if several && super::check_namespaces(&args.namespace, 2).is_err() {
        return ExitCode::from(2);
    }
    let contexts: Vec<Option<String>> = if hubs.is_empty() {
        vec![None]
    } else {
        hubs.iter().cloned().map(Some).collect()
    };
    let read = match &args.bundle {
        Some(path) => read_bundle(args, path, selector.as_ref()),
        None => read_hubs(args, &contexts, selector.as_ref(), several).await,
    };
    let Read {
        reports,
        unread,
        lacking,
    } = match read {
        Ok(read) => read,
        Err(code) => return code,
    };
    if let Some(name) = &args.name
        && reports.is_empty()
        && unread.is_empty()
    {
        crate::say::complain!(
            "Error from server (NotFound): computepools.spectrocloud.com \"{name}\" not found \
             on any hub read"
        );
        return ExitCode::from(2);
    }
    let worst = reports
        .iter()
        .flat_map(|r| r.findings.iter().map(|f| f.severity))
        .max();
    let text = match args.output {
        Format::Json => {
            crate::domain::inert::json(
                &serde_json::to_string_pretty(&serde_json::json!({ "pools": reports }))
                    .unwrap_or_default(),
            )
            .into_owned()
                + "\n"
        }
        Format::Text => text(&reports, args.all),
    };
    super::get::print_out(&text);
    if let Some(name) = &args.name
        && !lacking.is_empty()
    {
        crate::say::complain!(
            "Error from server (NotFound): computepools.spectrocloud.com \"{}\" not found on {}",
            crate::domain::inert::line(name),
            lacking.join(", ")
        );
        return ExitCode::from(2);
    }
    if !unread.is_empty() {
        crate::say::complain!(
            "pooldeck: not read (said above): {}; the findings printed are the other hubs'",
            super::hub_list(&unread)
        );
        return ExitCode::from(2);
    }
    ExitCode::from(if worst == Some(Severity::Error) { 1 } else { 0 })
}

/// The hubs read: their pools' reports, the hubs that could not be read, and those a named
/// pool is not on.
struct Read {
    reports: Vec<PoolReport>,
    unread: Vec<String>,
    lacking: Vec<String>,
}

/// Every hub diagnosed at once. One hub that cannot be read ends the command (its exit
/// status); of several, it is noted and the others go on.
async fn read_hubs(
    args: &DoctorArgs,
    contexts: &[Option<String>],
    selector: Option<&crate::domain::selector::LabelSelector>,
    several: bool,
) -> Result<Read, ExitCode> {
    let reads = futures::future::join_all(
        contexts
            .iter()
            .map(|context| diagnose_hub(args, context, selector, several)),
    )
    .await;
    let mut read = Read {
        reports: Vec::new(),
        unread: Vec::new(),
        lacking: Vec::new(),
    };
    for (context, found) in contexts.iter().zip(reads) {
        match found {
            Ok(found) => {
                if args.name.is_some() && found.is_empty() {
                    read.lacking.push(
                        crate::domain::inert::line(context.as_deref().unwrap_or("")).into_owned(),
                    );
                }
                read.reports.extend(found);
            }
            Err(code) if !several => return Err(code),
            Err(_) => read.unread.push(context.clone().unwrap_or_default()),
        }
    }
    Ok(read)
}

/// A bundle's hubs diagnosed as they were when it was taken (see `bundle::open::reports`).
fn read_bundle(
    args: &DoctorArgs,
    path: &std::path::Path,
    selector: Option<&crate::domain::selector::LabelSelector>,
) -> Result<Read, ExitCode> {
    let keep = |p: &crate::inventory::Object| {
        args.name.as_deref().is_none_or(|n| p.name() == n)
            && selector.is_none_or(|s| s.matches(|key| p.label(key)))
            && (args.namespace.is_empty() || args.namespace.iter().any(|n| n == p.namespace()))
    };
    let (reports, lacking) = super::bundle::open::reports(path, keep).map_err(|why| {
        crate::say::complain!("pooldeck: {why}");
        ExitCode::from(2)
    })?;
    let lacking = if args.name.is_some() {
        lacking
    } else {
        Vec::new()
    };
    Ok(Read {
        reports,
        unread: Vec::new(),
        lacking,
    })
}

/// One hub's pools diagnosed (`context`: `None` for the current one), each named with its
/// hub when several are read. The exit status when it cannot be read (said on stderr).
async fn diagnose_hub(
    args: &DoctorArgs,
    context: &Option<String>,
    selector: Option<&crate::domain::selector::LabelSelector>,
    several: bool,
) -> Result<Vec<PoolReport>, ExitCode> {
    let (connection, namespaces) = super::connect_to_read(
        &args.kubeconfig,
        context,
        &args.namespace,
        args.all_namespaces,
        2,
    )
    .await?;
    let Settled {
        inventory, tasks, ..
    } = settle_pools(
        &connection,
        &namespaces,
        args.timeout,
        several.then_some(connection.context.as_str()),
    )
    .await
    // settle says why; the doctor's "could not read the cluster" is 2.
    .map_err(|_| ExitCode::from(2))?;
    // A support bundle served back is read as it was when taken.
    let target = crate::sources::connection::Target {
        kubeconfig: args.kubeconfig.clone(),
        context: Some(connection.context.clone()),
        inline: None,
    };
    let server = crate::sources::connection::hub_of(&target, &connection.context).server;
    let now = super::reach::bundle_taken_at(&connection.client, &server)
        .await
        .unwrap_or_else(Utc::now);
    let keep = |p: &crate::inventory::Object| {
        args.name.as_deref().is_none_or(|n| p.name() == n)
            && selector.is_none_or(|s| s.matches(|key| p.label(key)))
    };
    if let Some(name) = &args.name
        && !inventory.objects(Kind::Pool).any(|p| keep(p))
        && !several
    {
        crate::say::complain!(
            "Error from server (NotFound): computepools.spectrocloud.com \"{name}\" not found"
        );
        return Err(finish(tasks, 2));
    }
    // Next steps name the kubeconfig file and context they were worked out on: pasted, they
    // reach this hub.
    let hub = crate::domain::Hub {
        context: connection.context.clone(),
        server: String::new(),
        user: String::new(),
        kubeconfig: crate::sources::connection::kubeconfig_named(args.kubeconfig.as_deref()),
    };
    let reports = reports(&inventory, keep, now, &hub, several);
    let _ = finish(tasks, 0);
    Ok(reports)
}

/// The findings on each pool of `inventory` that `keep` keeps, by namespace and name, at
/// `now`; each next step names `hub`, and each pool its hub when `several` are read.
pub(crate) fn reports(
    inventory: &crate::inventory::Inventory,
    keep: impl Fn(&crate::inventory::Object) -> bool,
    now: chrono::DateTime<Utc>,
    hub: &crate::domain::Hub,
    several: bool,
) -> Vec<PoolReport> {
    let mut pools: Vec<_> = inventory.objects(Kind::Pool).filter(|p| keep(p)).collect();
    pools.sort_by(|a, b| (a.namespace(), a.name()).cmp(&(b.namespace(), b.name())));
    pools
        .iter()
        .map(|p| PoolReport {
            hub: several.then(|| hub.context.clone()),
            namespace: p.namespace().to_owned(),
            name: p.name().to_owned(),
            findings: inventory
                .diagnose(p, now)
                .into_iter()
                .map(|mut finding| {
                    for step in &mut finding.next {
                        *step = crate::domain::shell::on_hub(step, hub);
                    }
                    finding
                })
                .collect(),
        })
        .collect()
}

use crate::domain::inert::line;

pub(crate) fn text(reports: &[PoolReport], all: bool) -> String {
    let mut out = String::new();
    let mut healthy = 0;
    let mut info_left_out = 0;
    for report in reports {
        let shown: Vec<&Diagnosis> = report
            .findings
            .iter()
            .filter(|f| all || f.severity > Severity::Info)
            .collect();
        info_left_out += report.findings.len() - shown.len();
        if shown.is_empty() {
            healthy += 1;
            continue;
        }
        // Names, messages and evidence are the cluster's text: each line inert, so a
        // condition message cannot set the terminal's title or write its clipboard.
        let hub = report
            .hub
            .as_deref()
            .map(|hub| format!("{}: ", line(hub)))
            .unwrap_or_default();
        out.push_str(&format!(
            "{hub}{}/{}\n",
            line(&report.namespace),
            line(&report.name)
        ));
        for finding in shown {
            out.push_str(&format!(
                "  {}: {} [{}]\n",
                finding.severity,
                line(&finding.summary),
                finding.id
            ));
            out.push_str(&format!("    symptom: {}\n", line(finding.symptom)));
            for (path, value) in &finding.evidence {
                out.push_str(&format!("    evidence: {} = {}\n", line(path), line(value)));
            }
            out.push_str(&format!("    cause: {}\n", line(&finding.cause)));
            for step in &finding.next {
                out.push_str(&format!("    next: {}\n", line(step)));
            }
        }
    }
    out.push_str(&format!(
        "{} checked, {} with nothing {}",
        crate::domain::words::counted(reports.len(), "pool"),
        healthy,
        if all {
            "to report\n".to_owned()
        } else {
            "above info level\n".to_owned()
        }
    ));
    if info_left_out > 0 {
        out.push_str(&format!(
            "{} more at info level (--all shows {})\n",
            info_left_out,
            if info_left_out == 1 { "it" } else { "them" }
        ));
    }
    out
}
