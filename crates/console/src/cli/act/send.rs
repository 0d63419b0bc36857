//! A plan carried out: printed with its kubectl equivalent, permissions asked, dry run sent, confirmed, the real requests sent and reported.

use std::process::ExitCode;

use crate::cluster::Session;
use crate::domain::fixes::Plan;
use crate::domain::{Operation, Outcome};

/// Whether the hub lets this user send the plan's requests, asked of it (a missing permission
/// is said in words, not met as a 403; one that cannot be read counts as missing).
pub(in crate::cli) async fn permitted(session: &Session, plan: &Plan) -> Result<(), ExitCode> {
    let mut missing = Vec::new();
    for permission in &plan.permissions {
        match session.run(&session.bind(permission.review())).await {
            Outcome::Allowed(false) => missing.push(permission.words()),
            Outcome::Failed(error) => {
                crate::say::complain!(
                    "pooldeck: the permission to {} in context {} could not be checked \
                     ({error}); nothing was sent",
                    permission.words(),
                    crate::domain::inert::line(&session.hub.context)
                );
                return Err(ExitCode::from(1));
            }
            _ => {}
        }
    }
    if missing.is_empty() {
        return Ok(());
    }
    crate::say::complain!(
        "pooldeck: not permitted in context {}: needs {}; nothing was sent",
        crate::domain::inert::line(&session.hub.context),
        missing.join(", ")
    );
    Err(ExitCode::from(1))
}

/// Prints the plan, sends its dry runs, asks, and sends the real requests.
pub(in crate::cli) async fn carry_out(
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
    if let Err(code) = permitted(session, plan).await {
        return code;
    }
    let bound = |operation: Operation| session.bind(operation);
    let (mut failed, mut unsent) = (false, false);
    for operation in plan.dry_runs() {
        let outcome = session.run(&bound(operation)).await;
        unsent |= matches!(
            outcome,
            Outcome::Failed(crate::domain::ClusterError::NotSent { .. })
        );
        failed |= report(&outcome);
    }
    if failed {
        let what = if unsent { "not sent" } else { "refused" };
        crate::say::complain!("pooldeck: the dry run was {what}: nothing was changed");
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
pub(super) async fn send_checked(session: &Session, plan: &Plan) -> ExitCode {
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
