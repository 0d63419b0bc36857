//! `pooldeck unblock POOL`: the console's unblock of a deletion that does not complete, for a
//! runbook. Step 1 deletes the AIWorkloads that still reference the deleting pool; step 2,
//! once every one has been seen gone for a while (pooldeck watches meanwhile, as the console
//! does), removes the finalizer. Each step as delete goes: its plan and kubectl equivalent,
//! the dry run first, the pool's name typed (or `--yes`), the audit log.

use std::io::{BufRead, IsTerminal};
use std::process::ExitCode;

use chrono::Utc;

use super::args::{DeleteArgs, Global};
use super::delete::workloads_of;
use super::read::{Target, prepare};
use super::send::carry_out;
use crate::app::ports::Namespaces;
use crate::cluster::Session;
use crate::domain::Kind;
use crate::domain::fixes::{self, Plan, Standing};
use crate::domain::model::ComputePool;

pub fn unblock(args: &DeleteArgs, global: &Global) -> ExitCode {
    let refused = |why: &str| {
        crate::say::complain!("pooldeck: {why}");
        ExitCode::from(2)
    };
    if args.at.context.len() > 1 || args.at.all_contexts {
        return refused("unblock acts on one hub at a time: give --context once");
    }
    if args.at.selector.is_some() || args.name.is_none() {
        return refused("unblock takes one pool by name (no -l)");
    }
    if global.read_only {
        return refused(&crate::domain::ClusterError::ReadOnly.to_string());
    }
    if !args.yes && !args.at.dry_run && !std::io::stdin().is_terminal() {
        return refused(
            "unblock asks for the pool's name on a terminal, and there is none; run it on a \
             terminal, or pass --yes (after --dry-run shows what it does)",
        );
    }
    crate::cli::block_on(crate::cli::acting(async {
        let names: Vec<String> = args.name.iter().cloned().collect();
        let target = Target {
            names: &names,
            at: &args.at,
            context: args.at.context.first().cloned(),
            selector: None,
            one_of_several: false,
        };
        let (session, pools) = match prepare(&target, global).await {
            Ok(ready) => ready,
            Err(code) => return code,
        };
        let Some(pool) = pools.first() else {
            return ExitCode::from(1);
        };
        if !pool.meta().is_some_and(|m| m.is_deleting()) {
            crate::say::complain!(
                "pooldeck: {} is not being deleted: unblocking is for a deletion that does \
                 not complete (pooldeck delete starts one)",
                crate::domain::inert::line(pool.name())
            );
            return ExitCode::from(1);
        }
        let confirmed = |plan: &Plan| confirmed(plan, args.yes);
        let step1 = fixes::delete_workloads(pool, &workloads_of(&session, pool).await);
        if !step1.operations.is_empty() {
            let code = carry_out(&session, &step1, args.at.dry_run, &confirmed).await;
            if code == ExitCode::SUCCESS && !args.at.dry_run {
                crate::say::say!(
                    "step 1 done. The finalizer is offered {} minutes after the last \
                     AIWorkload went: run this again for step 2",
                    fixes::STUCK_AFTER_MINUTES
                );
            }
            return code;
        }
        match when_clear(&session, pool, args).await {
            Ok(plan) => carry_out(&session, &plan, args.at.dry_run, &confirmed).await,
            Err(code) => code,
        }
    }))
}

/// The pool's name typed (or `--yes`).
fn confirmed(plan: &Plan, yes: bool) -> bool {
    let Some(name) = plan.type_to_confirm.as_deref().filter(|_| !yes) else {
        return true;
    };
    crate::say::prompt(&format!(
        "Type the pool's name ({name}) to {}, anything else cancels: ",
        plan.title.to_lowercase()
    ));
    let mut typed = String::new();
    let _ = std::io::stdin().lock().read_line(&mut typed);
    typed.trim() == name
}

/// Step 2's plan once the pool's AIWorkloads have stayed gone long enough, watched as the
/// console watches them; said and stopped when something else holds it (an AIWorkload back,
/// the pool gone, a reference that is no AIWorkload of its own).
async fn when_clear(
    session: &Session,
    pool: &ComputePool,
    args: &DeleteArgs,
) -> Result<Plan, ExitCode> {
    let namespace = pool.namespace().unwrap_or("").to_owned();
    let connection = crate::sources::connection::Connection {
        client: session.client.clone(),
        default_namespace: namespace.clone(),
        context: session.hub.context.clone(),
    };
    let namespaces = Namespaces::Only(vec![namespace.clone()]);
    let kinds = [Kind::Pool, Kind::AIWorkload];
    let settled = crate::cli::settle::settle(
        &connection,
        &kinds,
        &[],
        &namespaces,
        std::time::Duration::from_secs(30),
    )
    .await?;
    let crate::cli::settle::Settled {
        mut inventory,
        tasks,
        mut receiver,
    } = settled;
    let mut said = String::new();
    let outcome = loop {
        let Some(pool) = inventory
            .get(Kind::Pool, &namespace, pool.name())
            .and_then(|o| o.pool().cloned())
        else {
            crate::say::say!("the pool is gone: nothing is left to unblock");
            break Err(ExitCode::SUCCESS);
        };
        let workloads = inventory.workloads_of(&pool);
        if workloads.present() > 0 {
            crate::say::complain!(
                "pooldeck: an AIWorkload references the pool again: run this again for step 1"
            );
            break Err(ExitCode::from(1));
        }
        let plan = fixes::remove_finalizer(&pool, &workloads, Utc::now());
        let evidence = workloads
            .standing(|s| matches!(s, Standing::Evidence(_)))
            .count()
            > 0;
        match &plan.blocked {
            None => break Ok(plan),
            // Only time (or the first read) stands between it and step 2: wait, saying why
            // when it changes (once a minute at most).
            Some(why) if !evidence && plan.operations.len() == 1 => {
                if *why != said {
                    crate::say::say!("waiting (Ctrl-C leaves everything as it is): {why}");
                    said.clone_from(why);
                }
            }
            Some(_) => break Ok(plan),
        }
        if args.at.dry_run && !said.is_empty() {
            crate::say::say!("--dry-run: nothing waited for and nothing was sent");
            break Err(ExitCode::SUCCESS);
        }
        tokio::select! {
            event = receiver.recv() => match event {
                Some((_, event)) => inventory.apply(event, Utc::now()),
                None => break Err(ExitCode::from(1)),
            },
            () = tokio::time::sleep(std::time::Duration::from_secs(5)) => {}
        }
    };
    let _ = crate::cli::settle::finish(tasks, 0);
    outcome
}
