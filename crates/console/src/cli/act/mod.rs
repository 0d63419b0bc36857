//! `pooldeck pause|resume NAME...`, `pooldeck delete NAME` and `pooldeck unblock NAME`: the console's fixes for
//! scripts and runbooks. Each builds the same plan the console's dialog holds, prints it with
//! its kubectl equivalent and (for a delete) its impact, sends the dry run first, and only then
//! the real request; `--dry-run` stops after the dry run. A delete asks for the pool's name on
//! a terminal, and refuses without one unless `--yes`. Every request goes to the audit log.
//!
//! Exit status: 0 done; 1 the hub could not be reached, or refused, or the name typed did not
//! match; 2 a usage error (a bad name, no terminal for the confirmation, read-only mode).

mod args;
mod delete;
mod read;
mod send;
mod unblock;

use std::process::ExitCode;

pub use self::args::{ActArgs, DeleteArgs, Global, PoolsAt, UnblockArgs, Verb};
pub use self::delete::delete;
use self::read::prepare;
pub(super) use self::read::{Target, prepare_values};
pub(super) use self::send::carry_out;
use self::send::send_checked;
pub use self::unblock::unblock;
use crate::domain::fixes;
use crate::domain::model::ComputePool;
use crate::domain::selector::LabelSelector;

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
        return super::block_on(super::acting(across_hubs(
            verb,
            &names,
            args,
            selector.as_ref(),
            &hubs,
            global,
        )));
    }
    super::block_on(super::acting(async {
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
    }))
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
