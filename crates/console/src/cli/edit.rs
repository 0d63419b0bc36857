//! `pooldeck edit pool NAME`: the pool as YAML in the user's editor, in kubectl edit's manner.
//! The live pool goes into a private file (pooldeck's edits directory, kept there if the
//! session drops: the next `edit` of the pool reopens it); what the editor saves is checked
//! with the same rules as `validate` and the wizard, against the whole fleet the context may
//! list; an edit with errors goes back into the file with its findings on top and the editor
//! opens again, until it passes or is given up (emptied, or saved again unchanged). Then its
//! changes, place by place, the dry run, a confirmation, and a replace that names the
//! resourceVersion the pool was read at. Read-only mode refuses before anything is opened.
//!
//! Exit status: 0 applied, or nothing to apply (unchanged, given up); 1 refused by the hub
//! or not confirmed; 2 a usage error (a bad name, read-only mode, no editor).

use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use serde_json::Value;

use super::act::{Global, PoolsAt, Target, carry_out, prepare_values};
use super::describe::Describable;
use crate::domain::edit::{self, Checked};
use crate::domain::fixes::Plan;
use crate::domain::json::text_at;
use crate::domain::model::{ComputePool, read_owned};
use crate::domain::rules::Fleet;
use crate::domain::{Kind, ObjectRef, inert};

#[derive(Debug, Args)]
#[command(
    after_help = "The editor is KUBE_EDITOR, then VISUAL, then EDITOR, then vi.\n\nExamples:\n  \
    pooldeck edit pool llm-train -n ml-research\n  \
    EDITOR=nano kubectl pooldeck edit cp edge-store-042 -n retail-edge"
)]
pub struct EditArgs {
    /// What to edit: a Compute Pool (pool, cp).
    #[arg(value_enum)]
    pub resource: Describable,
    /// The pool's name.
    pub name: String,
    /// The pool's namespace (default: the context's).
    #[arg(long, short, value_name = "NS")]
    pub namespace: Option<String>,
    /// The kubeconfig context (default: the current one).
    #[arg(long, value_name = "NAME")]
    pub context: Option<String>,
    /// The kubeconfig (default: KUBECONFIG, then ~/.kube/config, then in-cluster).
    #[arg(long, value_name = "PATH")]
    pub kubeconfig: Option<PathBuf>,
    /// Send only the server-side dry run of the edit.
    #[arg(long)]
    pub dry_run: bool,
    /// Ask nothing before sending: neither "Apply the edit?" nor, for an edit that takes
    /// something away, the pool's name (for scripts; --dry-run first shows what goes).
    #[arg(long)]
    pub yes: bool,
}

pub fn run(args: &EditArgs, global: &Global) -> ExitCode {
    super::block_on(edit(args, global))
}

async fn edit(args: &EditArgs, global: &Global) -> ExitCode {
    let at = PoolsAt {
        namespace: args.namespace.clone(),
        context: args.context.iter().cloned().collect(),
        all_contexts: false,
        kubeconfig: args.kubeconfig.clone(),
        dry_run: args.dry_run,
        selector: None,
    };
    let names = [args.name.clone()];
    let target = Target {
        names: &names,
        at: &at,
        context: args.context.clone(),
        selector: None,
        one_of_several: false,
    };
    // Read-only mode and a bad name are refused here, before any editor opens.
    let (session, values) = match prepare_values(&target, global).await {
        Ok(ready) => ready,
        Err(code) => return code,
    };
    let Some(live) = values.into_iter().next() else {
        return ExitCode::from(1);
    };
    let pool_ref = ObjectRef::new(
        Kind::Pool,
        text_at(&live, "/metadata/namespace"),
        text_at(&live, "/metadata/name"),
    );
    let (fleet, self_index, scope) = fleet_around(&session, &live, &pool_ref).await;
    if let Some(scope) = scope {
        crate::say::complain!("pooldeck: {scope}");
    }
    let path = match crate::drafts::edits_dir() {
        Ok(dir) => dir.join(edit::file_name(&session.hub, &pool_ref)),
        Err(e) => {
            crate::say::complain!("pooldeck: the edit cannot be kept anywhere: {e}");
            return ExitCode::from(2);
        }
    };
    // An edit of this pool kept by a session that dropped is reopened as it was left, if it
    // was made on the pool as it is now.
    let yaml = serde_saphyr::to_string(&live).unwrap_or_default();
    let fresh = edit::opening(&pool_ref, &session.hub.context, &live, &yaml);
    let (current, said) = crate::runtime::editor::opened(&path, fresh, &live);
    if let Some(said) = said {
        crate::say::complain!("pooldeck: {said}");
    }
    let plan = match edited(&path, current, &live, &fleet, self_index).await {
        Ok(plan) => plan,
        Err(code) => return code,
    };
    let terminal = std::io::stdin().is_terminal();
    let confirmed = |plan: &Plan| confirm_edit(args, terminal, plan);
    let code = super::acting(carry_out(&session, &plan, args.dry_run, &confirmed)).await;
    if code == ExitCode::SUCCESS && !args.dry_run {
        let _ = std::fs::remove_file(&path);
    } else {
        crate::say::complain!(
            "pooldeck: the edit is kept at {}: pooldeck edit pool {} -n {} reopens it",
            path.display(),
            inert::line(&pool_ref.name),
            inert::line(&pool_ref.namespace)
        );
    }
    code
}

/// Whether the edit is applied: its name typed when it takes something away, else `--yes`
/// or a `y` typed on the terminal (without one, only `--yes`).
fn confirm_edit(args: &EditArgs, terminal: bool, plan: &Plan) -> bool {
    if let Some(name) = &plan.type_to_confirm
        && !args.yes
    {
        crate::say::prompt(&format!(
            "The edit takes something away: type the pool's name ({name}) to apply it, \
             anything else cancels: "
        ));
        return read_line().trim() == name;
    }
    if args.yes {
        return true;
    }
    if !terminal {
        crate::say::complain!(
            "pooldeck: there is no terminal to confirm on; pass --yes (after --dry-run)"
        );
        return false;
    }
    crate::say::prompt("Apply the edit? [y/N] ");
    matches!(read_line().trim(), "y" | "Y" | "yes")
}

/// The editor opened on `current` until what it saves is a valid edit (its plan), or given
/// up: emptied, unchanged, saved again with the same errors, too many rounds, the editor
/// failed or the console asked to end (the exit status).
async fn edited(
    path: &std::path::Path,
    mut current: String,
    live: &Value,
    fleet: &Fleet,
    self_index: Option<usize>,
) -> Result<Plan, ExitCode> {
    let mut last_refused: Option<String> = None;
    let mut rounds = 0usize;
    loop {
        rounds = rounds.saturating_add(1);
        let saved = match crate::runtime::editor::edit(path, &current).await {
            Ok(saved) => saved,
            Err(crate::runtime::editor::Unsaved::Failed(why)) => {
                crate::say::complain!("pooldeck: {why}");
                return Err(ExitCode::from(2));
            }
            // Asked to end (the terminal went): the edit stays for the next `edit`.
            Err(crate::runtime::editor::Unsaved::Ended(signal)) => {
                crate::say::complain!(
                    "pooldeck: ended while the editor was open: nothing was sent; the edit is \
                     kept at {}",
                    path.display()
                );
                return Err(ExitCode::from(u8::try_from(128 + signal).unwrap_or(1)));
            }
        };
        match edit::check(&saved, live, fleet, self_index) {
            Checked::Emptied => {
                let _ = std::fs::remove_file(path);
                crate::say::say!("Edit given up (the file was emptied): nothing was sent.");
                return Err(ExitCode::SUCCESS);
            }
            Checked::Unchanged => {
                let _ = std::fs::remove_file(path);
                crate::say::say!(
                    "Edit cancelled: nothing was changed (status and the fields the server owns \
                     are not sent), nothing was sent."
                );
                return Err(ExitCode::SUCCESS);
            }
            Checked::Invalid(problems) => {
                // Saved again as refused: given up, and kept for later.
                if last_refused.as_deref() == Some(saved.as_str()) {
                    crate::say::complain!(
                        "pooldeck: the edit was saved again unchanged, with errors: nothing was \
                         sent; it is kept at {} (pooldeck edit reopens it, an emptied file \
                         gives it up)",
                        path.display()
                    );
                    return Err(ExitCode::from(1));
                }
                current = edit::with_findings(&saved, &problems);
                // Said with the lines the file written back shows.
                for line in current
                    .lines()
                    .filter_map(|l| l.strip_prefix("# pooldeck:   "))
                {
                    crate::say::complain!("pooldeck: {line}");
                }
                if rounds >= edit::MOST_ROUNDS {
                    let _ = crate::files::write_private(path, current.as_bytes());
                    crate::say::complain!(
                        "pooldeck: the editor was opened {rounds} times and the edit still has \
                         errors: nothing was sent; it is kept at {}",
                        path.display()
                    );
                    return Err(ExitCode::from(1));
                }
                last_refused = Some(current.clone());
            }
            Checked::Valid {
                object,
                changes,
                warnings,
            } => return Ok(edit::plan(live, object, &changes, &warnings)),
        }
    }
}

fn read_line() -> String {
    let mut typed = String::new();
    let _ = std::io::stdin().lock().read_line(&mut typed);
    typed
}

/// The hub's pools as the rules across pools read them (every namespace, else the pool's
/// own, said), where the edited pool stands among them, and what could not be listed.
async fn fleet_around(
    session: &crate::cluster::Session,
    live: &Value,
    pool_ref: &ObjectRef,
) -> (Fleet, Option<usize>, Option<String>) {
    let all = kube::Api::<kube::api::DynamicObject>::all_with(
        session.client.clone(),
        &crate::cluster::resource(Kind::Pool),
    );
    let uid = live.pointer("/metadata/uid");
    let (read, scope) = match pools_in_pages(&all, uid).await {
        Ok(read) => (read, None),
        Err(_) => {
            let here = crate::cluster::api_for(&session.client, pool_ref);
            match pools_in_pages(&here, uid).await {
                Ok(read) => (
                    read,
                    Some(format!(
                        "pools outside {} cannot be listed here: the rules across pools (a \
                         unique VIP) compare the edit with {} only",
                        pool_ref.namespace, pool_ref.namespace
                    )),
                ),
                Err(e) => (
                    (Vec::new(), None),
                    Some(format!(
                        "no pool can be listed ({}): the rules across pools are not checked",
                        crate::sources::errors::classify(&e)
                    )),
                ),
            }
        }
    };
    let (pools, self_index) = read;
    (Fleet::new(pools), self_index, scope)
}

/// Every pool `api` lists (in pages), each kept as the rules read it; and where the pool of
/// this uid stands.
async fn pools_in_pages(
    api: &kube::Api<kube::api::DynamicObject>,
    uid: Option<&Value>,
) -> Result<(Vec<ComputePool>, Option<usize>), kube::Error> {
    let mut pools = Vec::new();
    let mut self_index = None;
    let params = kube::api::ListParams::default();
    crate::cluster::list_in_pages(api, &params, |object| {
        let Ok(value) = serde_json::to_value(object) else {
            return;
        };
        if uid.is_some() && value.pointer("/metadata/uid") == uid {
            self_index = Some(pools.len());
        }
        let read = read_owned::<ComputePool>(value);
        pools.push(read.map_or_else(|_| ComputePool::default(), |(pool, _)| pool));
    })
    .await?;
    Ok((pools, self_index))
}
