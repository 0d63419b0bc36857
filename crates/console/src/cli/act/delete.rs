//! `pooldeck delete NAME` and `delete -l`: each pool's plan and impact with its dry run, then the name (or the count) typed, then the delete.

use std::io::{BufRead, IsTerminal};
use std::process::ExitCode;

use serde_json::Value;

use super::args::{DeleteArgs, Global};
use super::read::{Target, prepare, to_value};
use super::send::{carry_out, send_checked};
use crate::cluster::Session;
use crate::domain::Kind;
use crate::domain::fixes::{self, Plan};
use crate::domain::model::ComputePool;

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
    let selector = match crate::cli::selector_arg(args.at.selector.as_deref(), 2, true) {
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
    crate::cli::block_on(crate::cli::acting(async {
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
    }))
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
pub(super) async fn workloads_of(session: &Session, pool: &ComputePool) -> fixes::Workloads {
    let namespace = pool.namespace().unwrap_or("");
    let api = crate::cluster::api_for(
        &session.client,
        &crate::domain::ObjectRef::new(Kind::AIWorkload, namespace, ""),
    );
    let mut values: Vec<Value> = Vec::new();
    let params = kube::api::ListParams::default();
    let listed = crate::cluster::list_in_pages(&api, &params, |w| values.push(to_value(w))).await;
    if listed.is_err() {
        return fixes::Workloads::of(pool, None);
    }
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
