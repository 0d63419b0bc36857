//! `pooldeck pause|resume NAME...` and `pooldeck delete NAME`: the console's fixes for
//! scripts and runbooks. Each builds the same plan the console's dialog holds, prints it with
//! its kubectl equivalent and (for a delete) its impact, sends the dry run first, and only then
//! the real request; `--dry-run` stops after the dry run. A delete asks for the pool's name on
//! a terminal, and refuses without one unless `--yes`. Every request goes to the audit log.
//!
//! Exit status: 0 done; 1 the hub could not be reached, or refused, or the name typed did not
//! match; 2 a usage error (a bad name, no terminal for the confirmation, read-only mode).

use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use kube::api::DynamicObject;
use serde_json::Value;

use crate::cluster::{Mode, Session};
use crate::domain::fixes::{self, Plan};
use crate::domain::model::ComputePool;
use crate::domain::selector::LabelSelector;
use crate::domain::{Kind, Operation, Outcome};

/// Where the named pools are: the connection and namespace flags every verb takes.
#[derive(Debug, Args)]
pub struct PoolsAt {
    /// The pools' namespace (default: the context's).
    #[arg(long, short, value_name = "NS")]
    pub namespace: Option<String>,
    /// The kubeconfig context (default: the current one). pause and resume take it repeated:
    /// each hub's pools are listed and checked on their own, and nothing is sent to any hub
    /// unless every hub's dry run passed.
    #[arg(long, value_name = "NAME", conflicts_with = "all_contexts")]
    pub context: Vec<String>,
    /// pause and resume: every context of the kubeconfig (as --context repeated).
    #[arg(long)]
    pub all_contexts: bool,
    /// The kubeconfig (default: KUBECONFIG, then ~/.kube/config, then in-cluster).
    #[arg(long, value_name = "PATH")]
    pub kubeconfig: Option<PathBuf>,
    /// Send only the server-side dry run: the server checks the request and changes nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// The pools whose labels match, in kubectl's syntax (`team=retail,tier in (gpu)`),
    /// instead of names: they are listed first.
    #[arg(long, short = 'l', value_name = "SELECTOR", allow_hyphen_values = true)]
    pub selector: Option<String>,
}

#[derive(Debug, Args)]
pub struct ActArgs {
    /// The Compute Pools, by name (or -l SELECTOR).
    #[arg(
        required_unless_present = "selector",
        conflicts_with = "selector",
        value_name = "NAME"
    )]
    pub names: Vec<String>,
    #[command(flatten)]
    pub at: PoolsAt,
}

#[derive(Debug, Args)]
pub struct DeleteArgs {
    /// The Compute Pool, by name (or -l SELECTOR: the pools it matches, the count typed to
    /// confirm).
    #[arg(
        required_unless_present = "selector",
        conflicts_with = "selector",
        value_name = "NAME"
    )]
    pub name: Option<String>,
    /// Do not ask for the name, or the count (for scripts without a terminal).
    #[arg(long)]
    pub yes: bool,
    #[command(flatten)]
    pub at: PoolsAt,
}

/// What every verb shares: the global flags.
#[derive(Debug, Clone, Default)]
pub struct Global {
    pub read_only: bool,
    pub audit_log: Option<PathBuf>,
}

/// Which verb.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verb {
    Pause,
    Resume,
}

/// The names given, each once: a name given again is said and acted on once.
fn once_each(names: &[String]) -> Vec<String> {
    let mut unique: Vec<String> = Vec::new();
    for name in names {
        if unique.contains(name) {
            continue;
        }
        let times = names.iter().filter(|n| *n == name).count();
        if times > 1 {
            crate::say::complain!(
                "pooldeck: {} was named {times} times; it is acted on once",
                crate::domain::inert::line(name)
            );
        }
        unique.push(name.clone());
    }
    unique
}

pub fn pause_or_resume(verb: Verb, args: &ActArgs, global: &Global) -> ExitCode {
    let names = once_each(&args.names);
    let selector = match super::selector_arg(args.at.selector.as_deref(), 2, true) {
        Ok(selector) => selector,
        Err(code) => return code,
    };
    // A context the kubeconfig lacks is a hub that cannot be reached: 1, as with one hub.
    let hubs = match super::hubs_named(
        &args.at.kubeconfig,
        &args.at.context,
        args.at.all_contexts,
        1,
    ) {
        Ok(hubs) => hubs,
        Err(code) => return code,
    };
    if super::several_hubs(&args.at.context, args.at.all_contexts) {
        return super::block_on(across_hubs(
            verb,
            &names,
            args,
            selector.as_ref(),
            &hubs,
            global,
        ));
    }
    super::block_on(async {
        let target = Target {
            names: &names,
            at: &args.at,
            context: hubs.first().cloned(),
            selector: selector.as_ref(),
            one_of_several: false,
        };
        let (session, pools) = match prepare(&target, global).await {
            Ok(ready) => ready,
            Err(code) => return code,
        };
        let pools: Vec<&ComputePool> = pools.iter().collect();
        let plan = fixes::pause_label(&pools, verb == Verb::Resume);
        // Already as asked: nothing to send, and nothing wrong (kubectl label says "not
        // labeled" and succeeds too).
        if plan.operations.is_empty() {
            crate::say::say!(
                "{}: nothing to do",
                plan.blocked
                    .as_deref()
                    .unwrap_or("every pool is already as asked")
            );
            return ExitCode::SUCCESS;
        }
        carry_out(&session, &plan, args.at.dry_run, &|_| true).await
    })
}

/// `pause|resume --context a --context b` (or `--all-contexts`): every hub is read first
/// (connected, its read-only setting and permissions' context checked, its pools listed);
/// a hub that cannot be, or is read-only, stops it before any request. Then each hub's plan
/// is printed with its hub and its kubectl `--context`, and its dry run sent; only when every
/// dry run passed is anything sent, hub by hub.
async fn across_hubs(
    verb: Verb,
    names: &[String],
    args: &ActArgs,
    selector: Option<&LabelSelector>,
    hubs: &[String],
    global: &Global,
) -> ExitCode {
    let mut read = Vec::new();
    for hub in hubs {
        let target = Target {
            names,
            at: &args.at,
            context: Some(hub.clone()),
            selector,
            one_of_several: true,
        };
        crate::say::say!("hub {}: reading", crate::domain::inert::line(hub));
        match prepare(&target, global).await {
            Ok(ready) => read.push((hub, ready)),
            Err(code) => {
                crate::say::complain!(
                    "pooldeck: hub {}: stopped there: nothing was sent to any hub",
                    crate::domain::inert::line(hub)
                );
                return code;
            }
        }
    }
    if read.iter().all(|(_, (_, pools))| pools.is_empty()) {
        crate::say::complain!("pooldeck: no hub has the pools asked for: nothing was sent");
        return ExitCode::from(1);
    }
    let mut planned = Vec::new();
    for (hub, (session, pools)) in read {
        if pools.is_empty() {
            continue;
        }
        crate::say::say!("hub {}: the plan", crate::domain::inert::line(hub));
        let pools: Vec<&ComputePool> = pools.iter().collect();
        let plan = fixes::pause_label(&pools, verb == Verb::Resume);
        if plan.operations.is_empty() {
            crate::say::say!(
                "  {}: nothing to do",
                plan.blocked
                    .as_deref()
                    .unwrap_or("every pool is already as asked")
            );
            continue;
        }
        // Printed with its hub's kubectl equivalent, and its dry run sent.
        if carry_out(&session, &plan, true, &|_| true).await != ExitCode::SUCCESS {
            crate::say::complain!(
                "pooldeck: hub {}: its checks did not pass: nothing was changed on any hub",
                crate::domain::inert::line(hub)
            );
            return ExitCode::from(1);
        }
        planned.push((session, plan));
    }
    if args.at.dry_run || planned.is_empty() {
        return ExitCode::SUCCESS;
    }
    let mut failed = Vec::new();
    for (session, plan) in &planned {
        let hub = crate::domain::inert::line(&session.hub.context).into_owned();
        crate::say::say!("hub {hub}: sending");
        if send_checked(session, plan).await != ExitCode::SUCCESS {
            failed.push(hub);
        }
    }
    if failed.is_empty() {
        return ExitCode::SUCCESS;
    }
    crate::say::complain!(
        "pooldeck: refused on {} (said above); the other hubs' pools were changed",
        failed.join(", ")
    );
    ExitCode::from(1)
}

pub fn delete(args: &DeleteArgs, global: &Global) -> ExitCode {
    if args.at.context.len() > 1 || args.at.all_contexts {
        crate::say::complain!("pooldeck: delete acts on one hub at a time: give --context once");
        return ExitCode::from(2);
    }
    if global.read_only {
        crate::say::complain!("pooldeck: {}", crate::domain::ClusterError::ReadOnly);
        return ExitCode::from(2);
    }
    // The selector is read first: one that cannot be read is said as that.
    let selector = match super::selector_arg(args.at.selector.as_deref(), 2, true) {
        Ok(selector) => selector,
        Err(code) => return code,
    };
    // Without a terminal nobody can type the name (or the count): refuse before touching
    // the hub.
    let terminal = std::io::stdin().is_terminal();
    if !args.yes && !args.at.dry_run && !terminal {
        crate::say::complain!(
            "pooldeck: delete asks for {} on a terminal, and there is none; run it on a \
             terminal, or pass --yes (after --dry-run shows what goes)",
            if selector.is_some() {
                "the number of pools matched"
            } else {
                "the pool's name"
            }
        );
        return ExitCode::from(2);
    }
    super::block_on(async {
        let names: Vec<String> = args.name.iter().cloned().collect();
        let target = Target {
            names: &names,
            at: &args.at,
            context: args.at.context.first().cloned(),
            selector: selector.as_ref(),
            one_of_several: false,
        };
        let (session, pools) = match prepare(&target, global).await {
            Ok(ready) => ready,
            Err(code) => return code,
        };
        if selector.is_some() {
            return delete_matched(&session, &pools, args).await;
        }
        let Some(pool) = pools.first() else {
            return ExitCode::from(1);
        };
        let plan = fixes::delete(pool, &workloads_of(&session, pool).await);
        let confirmed = |plan: &Plan| {
            if args.yes {
                return true;
            }
            let Some(name) = &plan.type_to_confirm else {
                return true;
            };
            crate::say::prompt(&format!(
                "Type the pool's name ({name}) to delete it, anything else cancels: "
            ));
            let mut typed = String::new();
            let _ = std::io::stdin().lock().read_line(&mut typed);
            typed.trim() == name
        };
        carry_out(&session, &plan, args.at.dry_run, &confirmed).await
    })
}

pub(super) struct Target<'a> {
    pub(super) names: &'a [String],
    /// The namespace, selector and kubeconfig flags; its `context` list is read once into
    /// `context` below by the caller, never inside `prepare`.
    pub(super) at: &'a PoolsAt,
    /// The one hub acted on (`None`: the current context).
    pub(super) context: Option<String>,
    pub(super) selector: Option<&'a LabelSelector>,
    /// One hub of several: pools it lacks (a name not there, a selector matching none) are
    /// nothing to do on this hub, not an error.
    pub(super) one_of_several: bool,
}

/// `delete -l`: each matched pool's plan with its dry run, then the number of pools typed (or
/// `--yes`), then each delete; the worst outcome is the exit code.
async fn delete_matched(session: &Session, pools: &[ComputePool], args: &DeleteArgs) -> ExitCode {
    let mut plans: Vec<Plan> = Vec::new();
    for pool in pools {
        plans.push(fixes::delete(pool, &workloads_of(session, pool).await));
    }
    for plan in &plans {
        let checked = carry_out(session, plan, true, &|_| true).await;
        if checked != ExitCode::SUCCESS {
            crate::say::complain!(
                "pooldeck: {}: its dry run did not pass, so none is deleted",
                plan.title
            );
            return checked;
        }
    }
    if args.at.dry_run {
        return ExitCode::SUCCESS;
    }
    if !args.yes {
        let count = pools.len().to_string();
        crate::say::prompt(&format!(
            "Type the number of pools ({count}) to delete them all, anything else cancels: "
        ));
        let mut typed = String::new();
        let _ = std::io::stdin().lock().read_line(&mut typed);
        if typed.trim() != count {
            crate::say::complain!("pooldeck: cancelled: nothing was changed");
            return ExitCode::from(1);
        }
    }
    let mut worst = ExitCode::SUCCESS;
    for plan in &plans {
        // Each plan was printed with its dry run above: sent now without printing it again.
        let done = send_checked(session, plan).await;
        if done != ExitCode::SUCCESS {
            worst = done;
        }
    }
    worst
}

/// Where a pool's AIWorkloads stand, from one list of its namespace's (read now); a list that
/// fails leaves them unverified, which the impact says.
async fn workloads_of(session: &Session, pool: &ComputePool) -> fixes::Workloads {
    let namespace = pool.namespace().unwrap_or("");
    let api = crate::cluster::api_for(
        &session.client,
        &crate::domain::ObjectRef::new(Kind::AIWorkload, namespace, ""),
    );
    let Ok(list) = api.list(&kube::api::ListParams::default()).await else {
        return fixes::Workloads::of(pool, None);
    };
    let values: Vec<Value> = list.items.into_iter().map(to_value).collect();
    let read = fixes::WorkloadsRead {
        since: chrono::Utc::now(),
        present: values
            .iter()
            .map(|w| {
                let uid = w.pointer("/metadata/uid").and_then(Value::as_str);
                let version = w
                    .pointer("/metadata/resourceVersion")
                    .and_then(Value::as_str);
                (w, crate::domain::Preconditions::of(uid, version))
            })
            .collect(),
        seen_going: Vec::new(),
    };
    fixes::Workloads::of(pool, Some(&read))
}

/// Connects, decides read-only mode and the audit log, and reads the named pools.
async fn prepare(
    target: &Target<'_>,
    global: &Global,
) -> Result<(Session, Vec<ComputePool>), ExitCode> {
    let (session, values) = prepare_values(target, global).await?;
    Ok((session, values.into_iter().map(to_pool).collect()))
}

/// Every name asked for is a Compute Pool's name, or none is sent (exit 2, as a usage error).
fn check_names(names: &[String]) -> Result<(), ExitCode> {
    for name in names {
        if let Some(problem) = crate::domain::rules::names::dns_subdomain(name) {
            crate::say::complain!(
                "pooldeck: the name \"{}\" is not a Compute Pool name: it {problem}",
                crate::domain::inert::line(name)
            );
            return Err(ExitCode::from(2));
        }
    }
    Ok(())
}

/// As [`prepare`], the pools as the hub sent them (for `edit`).
pub(super) async fn prepare_values(
    target: &Target<'_>,
    global: &Global,
) -> Result<(Session, Vec<Value>), ExitCode> {
    check_names(target.names)?;
    super::check_namespaces(&target.at.namespace, 2)?;
    let connection = super::connect_or_exit(&target.at.kubeconfig, &target.context, 1).await?;
    let (settings, warnings) = crate::settings::Settings::load();
    let source = crate::sources::connection::Target {
        kubeconfig: target.at.kubeconfig.clone(),
        context: target.context.clone(),
        inline: None,
    };
    let contexts = crate::sources::connection::context_names(&source);
    for warning in warnings.iter().chain(&settings.about_contexts(&contexts)) {
        crate::say::complain!("pooldeck: {warning}");
    }
    let why = if global.read_only {
        Some("--readonly".to_owned())
    } else {
        settings.why_read_only(&connection.context)
    };
    if let Some(why) = why {
        crate::say::complain!(
            "pooldeck: read-only mode ({}): nothing was sent",
            crate::domain::inert::line(&why)
        );
        return Err(ExitCode::from(2));
    }
    let hub = crate::sources::connection::hub_of(&source, &connection.context);
    let audit = super::audit_log(global.audit_log.clone(), &settings);
    let namespace = target
        .at
        .namespace
        .clone()
        .unwrap_or_else(|| connection.default_namespace.clone());
    if let Some(problem) = crate::domain::rules::names::namespace_problem(&namespace) {
        crate::say::complain!(
            "pooldeck: the context's namespace cannot be used: {}",
            crate::domain::inert::line(&problem)
        );
        return Err(ExitCode::from(2));
    }
    let api = crate::cluster::api_for(
        &connection.client,
        &crate::domain::ObjectRef::new(Kind::Pool, namespace.clone(), ""),
    );
    let mut pools = match (target.selector, target.at.selector.as_deref()) {
        (Some(selector), Some(text)) => {
            selected(&api, selector, text, &namespace, target.one_of_several).await?
        }
        _ => Vec::new(),
    };
    for name in target.names {
        match api.get_opt(name).await {
            Ok(Some(pool)) => pools.push(to_value(pool)),
            Ok(None) if target.one_of_several => {
                crate::say::say!(
                    "  ComputePool {namespace}/{} is not on this hub",
                    crate::domain::inert::line(name)
                );
            }
            Ok(None) => {
                crate::say::complain!("pooldeck: ComputePool {namespace}/{name} was not found");
                return Err(ExitCode::from(1));
            }
            Err(e) => {
                crate::say::complain!("pooldeck: {}", crate::sources::errors::classify(&e));
                return Err(ExitCode::from(1));
            }
        }
    }
    Ok((
        Session::new(connection.client, Mode::ReadWrite, hub, audit),
        pools,
    ))
}

/// The pools `-l` selects in `namespace`: selected on the server as kubectl does, and again
/// here with the same parser; said, by name. None is a failure unless this hub is one of
/// several.
async fn selected(
    api: &kube::Api<kube::api::DynamicObject>,
    selector: &LabelSelector,
    text: &str,
    namespace: &str,
    one_of_several: bool,
) -> Result<Vec<Value>, ExitCode> {
    // Selected on the server as kubectl does, and again here with the same parser.
    let listed = match api
        .list(&kube::api::ListParams::default().labels(text))
        .await
    {
        Ok(list) => list.items,
        Err(e) => {
            crate::say::complain!("pooldeck: {}", crate::sources::errors::classify(&e));
            return Err(ExitCode::from(1));
        }
    };
    let mut pools: Vec<Value> = Vec::new();
    pools.extend(listed.into_iter().map(to_value).filter(|value| {
        selector.matches(|key| {
            value
                .pointer("/metadata/labels")
                .and_then(|labels| labels.get(key))
                .and_then(Value::as_str)
        })
    }));
    pools.sort_by(|a, b| name_of(a).cmp(name_of(b)));
    let shown = crate::domain::inert::line(text);
    if pools.is_empty() && one_of_several {
        crate::say::say!("  no Compute Pool in {namespace} matches -l {shown} on this hub");
    } else if pools.is_empty() {
        crate::say::complain!(
            "pooldeck: no Compute Pool in {namespace} matches -l {shown}: nothing was sent"
        );
        return Err(ExitCode::from(1));
    }
    crate::say::say!(
        "{} in {namespace} {} -l {shown}: {}",
        crate::domain::words::counted(pools.len(), "Compute Pool"),
        crate::domain::words::agrees(pools.len(), "matches", "match"),
        pools
            .iter()
            .map(|p| crate::domain::inert::line(name_of(p)).into_owned())
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(pools)
}

/// An object as the hub sent it.
fn to_value(object: DynamicObject) -> Value {
    serde_json::to_value(object).unwrap_or(Value::Null)
}

fn name_of(value: &Value) -> &str {
    value
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// A pool as the hub sent it, read through the model (a field of the wrong shape is kept as
/// written and read as absent).
fn to_pool(value: Value) -> ComputePool {
    crate::domain::model::read_owned::<ComputePool>(value)
        .map(|(pool, _)| pool)
        .unwrap_or_default()
}

/// Prints the plan, sends its dry runs, asks, and sends the real requests.
pub(super) async fn carry_out(
    session: &Session,
    plan: &Plan,
    dry_run_only: bool,
    confirmed: &dyn Fn(&Plan) -> bool,
) -> ExitCode {
    print_plan(plan, &session.hub);
    if let Some(why) = &plan.blocked {
        crate::say::complain!("pooldeck: nothing to do: {why}");
        return ExitCode::from(1);
    }
    let bound = |operation: Operation| session.bind(operation);
    // Asked first, so a missing permission is said in words, not met as a 403.
    let mut missing = Vec::new();
    for permission in &plan.permissions {
        match session.run(&bound(permission.review())).await {
            Outcome::Allowed(false) => missing.push(permission.words()),
            // A permission that cannot be read is not taken as given: nothing is sent.
            Outcome::Failed(error) => {
                crate::say::complain!(
                    "pooldeck: the permission to {} in context {} could not be checked \
                     ({error}); nothing was sent",
                    permission.words(),
                    crate::domain::inert::line(&session.hub.context)
                );
                return ExitCode::from(1);
            }
            _ => {}
        }
    }
    if !missing.is_empty() {
        crate::say::complain!(
            "pooldeck: not permitted in context {}: needs {}; nothing was sent",
            crate::domain::inert::line(&session.hub.context),
            missing.join(", ")
        );
        return ExitCode::from(1);
    }
    let mut failed = false;
    for operation in plan.dry_runs() {
        let outcome = session.run(&bound(operation)).await;
        failed |= report(&outcome);
    }
    if failed {
        crate::say::complain!("pooldeck: the dry run was refused: nothing was changed");
        return ExitCode::from(1);
    }
    if dry_run_only {
        return ExitCode::SUCCESS;
    }
    if !confirmed(plan) {
        crate::say::complain!("pooldeck: cancelled: nothing was changed");
        return ExitCode::from(1);
    }
    send(session, &plan.operations).await
}

/// Sends the real requests, each said as the hub answers; a refused precondition says what
/// changed. 1 when any was refused.
async fn send(session: &Session, operations: &[Operation]) -> ExitCode {
    let mut failed = false;
    for operation in operations {
        let request = session.bind(operation.clone());
        let outcome = session.run(&request).await;
        if let Outcome::Failed(crate::domain::ClusterError::Conflict { .. }) = &outcome
            && let Some(changed) = what_changed(session, operation).await
        {
            crate::say::complain!("pooldeck: {changed}");
        }
        failed |= report(&outcome);
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Sends a plan whose dry run passed and was printed already (by [`carry_out`]): its dry run
/// is sent again first (the hub may have changed since), said only when refused.
async fn send_checked(session: &Session, plan: &Plan) -> ExitCode {
    for operation in plan.dry_runs() {
        let request = session.bind(operation);
        if let Outcome::Failed(error) = session.run(&request).await {
            // The error says itself what became of the request.
            crate::say::complain!("pooldeck: {}: {error}", plan.title);
            return ExitCode::from(1);
        }
    }
    send(session, &plan.operations).await
}

/// How the object a refused request named differs now from the version it was sent for.
async fn what_changed(session: &Session, operation: &Operation) -> Option<String> {
    let target = operation.target()?;
    let api = crate::cluster::api_for(&session.client, &target);
    let now = match api.get_opt(&target.name).await {
        Ok(Some(object)) => object,
        Ok(None) => return Some(format!("{target} is no longer there")),
        Err(_) => return None,
    };
    operation
        .preconditions()
        .changed(
            now.metadata.uid.as_deref(),
            now.metadata.resource_version.as_deref(),
        )
        .map(|changed| format!("{target}: {changed}"))
}

fn print_plan(plan: &Plan, hub: &crate::domain::Hub) {
    let say = crate::say::out;
    say(&plan.title);
    let plan = &plan.clone().bound_to(hub);
    for line in &plan.explanation {
        say(&format!("  {line}"));
    }
    for target in &plan.targets {
        say(&format!("  - {target}"));
    }
    if !plan.impact.is_empty() {
        say("Impact:");
        for line in &plan.impact {
            say(&format!("  {line}"));
        }
    }
    if let Some(why) = &plan.blocked {
        say(&format!(
            "kubectl equivalent: none, this cannot run ({why})"
        ));
    } else if !plan.operations.is_empty() && !crate::domain::shell::shown_faithfully(hub) {
        say(&format!(
            "kubectl equivalent: {}",
            crate::domain::shell::NOT_SHOWN_FAITHFULLY
        ));
    } else if !plan.operations.is_empty() {
        say("kubectl equivalent:");
        for line in plan.kubectl_on(hub).lines() {
            say(&format!("  {line}"));
        }
    }
}

/// Prints an outcome; whether it failed.
fn report(outcome: &Outcome) -> bool {
    match outcome {
        Outcome::Done { message } => {
            crate::say::say!("{message}");
            false
        }
        Outcome::Allowed(_) => false,
        Outcome::Failed(error) => {
            crate::say::complain!("pooldeck: {error}");
            true
        }
    }
}
