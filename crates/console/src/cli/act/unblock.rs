//! `pooldeck unblock POOL`: the console's unblock of a deletion that does not complete, for a
//! runbook. Step 1 deletes the AIWorkloads that still reference the deleting pool; step 2,
//! once every one has been seen gone for a while (pooldeck watches meanwhile, as the console
//! does), removes the finalizer. Each step as delete goes: its plan and kubectl equivalent,
//! permissions and the dry run first, then the text typed (or `--yes`), checked again, sent
//! and written to the audit log.

use std::io::{BufRead, IsTerminal};
use std::process::ExitCode;

use chrono::Utc;

use super::args::{Global, UnblockArgs};
use super::delete::workloads_of;
use super::read::{Target, prepare};
use super::send::{carry_out, permitted, send_checked};
use crate::app::ports::Namespaces;
use crate::cluster::Session;
use crate::domain::Kind;
use crate::domain::fixes::{self, Plan, Standing};
use crate::domain::model::ComputePool;

pub fn unblock(args: &UnblockArgs, global: &Global) -> ExitCode {
    let refused = |why: &str| {
        crate::say::complain!("pooldeck: {why}");
        ExitCode::from(2)
    };
    if args.at.context.len() > 1 || args.at.all_contexts {
        return refused("unblock acts on one hub at a time: give --context once");
    }
    if args.at.selector.is_some() {
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
        let names = [args.name.clone()];
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
        let step1 = fixes::delete_workloads(pool, &workloads_of(&session, pool).await);
        let step = !step1.operations.is_empty();
        let plan = if step {
            step1
        } else {
            match when_clear(&session, pool, args.at.dry_run).await {
                Ok(plan) => plan,
                Err(code) => return code,
            }
        };
        // Checked (permissions, dry run) and shown first; then typed, checked again, sent.
        let checked = carry_out(&session, &plan, true, &|_| true).await;
        if checked != ExitCode::SUCCESS || args.at.dry_run {
            return checked;
        }
        confirm_and_send(&session, pool, &plan, step, args.yes).await
    }))
}

/// The plan (checked and shown) typed for, checked again against the AIWorkloads as they
/// are now (one that came or changed stops it), and sent.
async fn confirm_and_send(
    session: &Session,
    pool: &ComputePool,
    plan: &Plan,
    step: bool,
    yes: bool,
) -> ExitCode {
    if !yes && !typed(plan, pool.name()) {
        crate::say::complain!("pooldeck: cancelled: nothing was changed");
        return ExitCode::from(1);
    }
    let again = fixes::delete_workloads(pool, &workloads_of(session, pool).await);
    let same = if step {
        again.operations == plan.operations
    } else {
        again.operations.is_empty()
    };
    if !same {
        crate::say::complain!(
            "pooldeck: the pool's AIWorkloads changed while you confirmed: nothing was \
             sent; run this again to see them as they are"
        );
        return ExitCode::from(1);
    }
    let sent = send_checked(session, plan).await;
    if sent == ExitCode::SUCCESS && step {
        crate::say::say!(
            "step 1 done. The finalizer is offered {} minutes after the last AIWorkload \
             went: run this again for step 2",
            fixes::STUCK_AFTER_MINUTES
        );
    }
    sent
}

/// What the plan asks to be typed (the finalizer's acknowledgement, a name), else the pool's
/// name; whether it was.
fn typed(plan: &Plan, pool: &str) -> bool {
    let text = plan
        .type_to_confirm
        .as_deref()
        .or(plan.acknowledge)
        .unwrap_or(pool);
    crate::say::prompt(&format!(
        "{}: type {text} to go on, anything else cancels: ",
        plan.title
    ));
    let mut answer = String::new();
    let _ = std::io::stdin().lock().read_line(&mut answer);
    answer.trim() == text
}

/// The hub's clock as the wait reads it: real time, or on a demo that plays its story faster
/// (its `/version` says how much, up to 100×, served on this machine), that many times
/// faster: the wait is in the hub's time, as the demo's controller's delays are.
struct Pace {
    start: chrono::DateTime<Utc>,
    speed: f64,
}

impl Pace {
    async fn of(client: &kube::Client, server: &str) -> Pace {
        let version = if crate::cli::reach::on_this_machine(server) {
            crate::cli::reach::demo_version(client).await
        } else {
            None
        };
        let speed = version
            .and_then(|v| v["pooldeckDemoSpeed"].as_f64())
            .filter(|s| s.is_finite() && *s > 1.0 && *s <= 100.0)
            .unwrap_or(1.0);
        if speed > 1.0 {
            crate::say::say!("the demo plays {speed}× faster: the wait is in its time");
        }
        Pace {
            start: Utc::now(),
            speed,
        }
    }

    fn now(&self) -> chrono::DateTime<Utc> {
        let real = (Utc::now() - self.start).to_std().unwrap_or_default();
        let hub = chrono::TimeDelta::from_std(real.mul_f64(self.speed)).unwrap_or_default();
        self.start.checked_add_signed(hub).unwrap_or(self.start)
    }

    fn real(&self, hub: std::time::Duration) -> std::time::Duration {
        hub.div_f64(self.speed)
            .max(std::time::Duration::from_millis(100))
    }
}

/// Step 2's plan once the pool's AIWorkloads have stayed gone long enough, watched as the
/// console watches them (`dry_run`: said what it waits for, not waited). Stops, saying why,
/// when something else holds it: an AIWorkload back, the pool gone or recreated, a reference
/// that is no AIWorkload of its own, the finalizer not held.
async fn when_clear(
    session: &Session,
    pool: &ComputePool,
    dry_run: bool,
) -> Result<Plan, ExitCode> {
    let namespace = pool.namespace().unwrap_or("").to_owned();
    let uid = pool
        .meta()
        .and_then(|m| m.uid.as_deref().map(str::to_owned));
    let pace = Pace::of(&session.client, &session.hub.server).await;
    let settled = watched(session, &namespace).await?;
    let crate::cli::settle::Settled {
        mut inventory,
        tasks,
        mut receiver,
    } = settled;
    // Not waited out for nothing: may this user remove the finalizer at all?
    if let Some(now) = inventory
        .get(Kind::Pool, &namespace, pool.name())
        .and_then(|o| o.pool())
    {
        let plan = fixes::remove_finalizer(now, &inventory.workloads_of(now), pace.now());
        if let Err(code) = permitted(session, &plan).await {
            let _ = crate::cli::settle::finish(tasks, 0);
            return Err(code);
        }
    }
    let mut said = String::new();
    let outcome = loop {
        let read = inventory.get(Kind::Pool, &namespace, pool.name());
        let Some(now) = read
            .and_then(|o| o.pool())
            .filter(|p| p.meta().and_then(|m| m.uid.as_deref()) == uid.as_deref())
        else {
            crate::say::complain!(
                "pooldeck: the pool is gone, or another has its name now: nothing was sent"
            );
            break Err(ExitCode::from(1));
        };
        let workloads = inventory.workloads_of(now);
        if workloads.present() > 0 {
            crate::say::complain!(
                "pooldeck: an AIWorkload references the pool again: run this again for step 1"
            );
            break Err(ExitCode::from(1));
        }
        let plan = fixes::remove_finalizer(now, &workloads, pace.now());
        // Only time, or the first live read, may stand between it and step 2.
        let evidence = workloads
            .standing(|s| matches!(s, Standing::Evidence(_)))
            .count()
            > 0;
        let deleting = now.meta().is_some_and(|m| m.is_deleting());
        match &plan.blocked {
            Some(_) if deleting && !evidence && !plan.operations.is_empty() => {
                let until = until(&workloads);
                if until != said {
                    crate::say::say!(
                        "waiting until {until}; then the finalizer is offered (Ctrl-C leaves \
                         everything as it is)"
                    );
                    said = until;
                }
                if dry_run {
                    crate::say::say!("--dry-run: nothing waited for and nothing was sent");
                    break Err(ExitCode::SUCCESS);
                }
            }
            _ => break Ok(plan),
        }
        tokio::select! {
            event = receiver.recv() => match event {
                Some((_, event)) => inventory.apply(event, pace.now()),
                None => break Err(ExitCode::from(1)),
            },
            () = tokio::time::sleep(pace.real(std::time::Duration::from_secs(5))) => {}
        }
    };
    let _ = crate::cli::settle::finish(tasks, 0);
    outcome
}

/// When step 2 is offered, in this run's terms: it knows the AIWorkloads gone since its own
/// first read of them.
fn until(workloads: &fixes::Workloads) -> String {
    workloads.clear_since().map_or_else(
        || "the first read of the AIWorkloads".to_owned(),
        |since| {
            let at = since + chrono::Duration::minutes(fixes::STUCK_AFTER_MINUTES);
            format!(
                "{} (every AIWorkload seen gone since {}, when this run read them)",
                at.format("%H:%M:%S UTC"),
                since.format("%H:%M:%S")
            )
        },
    )
}

/// The pool's namespace watched for its pools and AIWorkloads, as the console watches them.
async fn watched(
    session: &Session,
    namespace: &str,
) -> Result<crate::cli::settle::Settled, ExitCode> {
    let connection = crate::sources::connection::Connection {
        client: session.client.clone(),
        default_namespace: namespace.to_owned(),
        context: session.hub.context.clone(),
    };
    let namespaces = Namespaces::Only(vec![namespace.to_owned()]);
    let kinds = [Kind::Pool, Kind::AIWorkload];
    let timeout = std::time::Duration::from_secs(30);
    crate::cli::settle::settle(&connection, &kinds, &[], &namespaces, timeout).await
}
