//! `E`: the pool under the cursor (or open) as YAML in the user's editor, as `pooldeck edit`
//! does it (`domain::edit`): the runtime gives the terminal to the editor on a private file
//! and brings back what was saved; an edit with errors goes back to the editor with its
//! findings on top; one that passes opens the usual confirmation (its changes, the dry run,
//! a replace naming the resourceVersion read). The edit is bound to the hub it started on;
//! read-only mode refuses before the editor opens. Part of `update`: no I/O.

use serde_json::Value;

use super::Effect;
use super::ask::Ctx;
use crate::domain::edit::{self, Checked};
use crate::domain::{Hub, Kind, ObjectRef};
use crate::inventory::Inventory;

/// An edit under way: the pool as it was read, the hub it was read on, the file it is kept
/// in, and the text last sent back with findings (saved again as it was: given up).
#[derive(Clone, Debug, PartialEq)]
pub struct Editing {
    pub target: ObjectRef,
    pub hub: Hub,
    pub live: Value,
    pub file: String,
    pub refused: Option<String>,
    /// How many times the editor came back with errors.
    pub rounds: usize,
    /// Where the runtime keeps the file, once it said (for the messages).
    pub path: Option<std::path::PathBuf>,
}

/// `E` on a pool: its YAML to the editor; the edit under way, unless it is refused.
pub fn start(ctx: &mut Ctx, namespace: &str, name: &str) -> Option<Editing> {
    if ctx.read_only() {
        ctx.say("read-only mode: an edit could not be sent, so none is opened (y shows the YAML)");
        return None;
    }
    if let Some(why) = ctx.offline {
        ctx.say(format!("no cluster ({why}): an edit needs one"));
        return None;
    }
    let Some(object) = ctx.hub.inventory.get(Kind::Pool, namespace, name) else {
        ctx.say(format!("{namespace}/{name} is no longer on the hub"));
        return None;
    };
    let live = (*object.value()).clone();
    let target = ObjectRef::new(Kind::Pool, namespace.to_owned(), name.to_owned());
    let hub = ctx.hub.id();
    if !live.is_object() {
        ctx.say(format!(
            "{namespace}/{name} cannot be read as an object: nothing to edit"
        ));
        return None;
    }
    let yaml = serde_saphyr::to_string(&live).unwrap_or_default();
    let text = edit::opening(&target, &hub.context, &live, &yaml);
    let file = edit::file_name(&hub, &target);
    // An edit of this pool kept by a session that dropped is reopened as it was left, if it
    // was made on the pool as it is now.
    ctx.effect(Effect::Edit {
        file: file.clone(),
        text,
        resume: Some(live.clone()),
    });
    Some(Editing {
        target,
        hub,
        live,
        file,
        refused: None,
        rounds: 0,
        path: None,
    })
}

/// What the editor saved (or why there is nothing), for the edit under way: checked, and
/// sent back to the editor (the edit goes on: returned), given up, or put behind a
/// confirmation (returned too: its answer removes the file).
pub fn saved(
    mut editing: Editing,
    ctx: &mut Ctx,
    path: std::path::PathBuf,
    result: Result<String, super::failed::EditorError>,
) -> Option<Editing> {
    editing.path = Some(path.clone());
    let kept = format!("the edit is kept at {}", path.display());
    let text = match result {
        Ok(text) => text,
        Err(why) => {
            ctx.say(why.to_string());
            return None;
        }
    };
    // The console moved to another hub meanwhile: the edit is not sent there.
    if editing.hub != ctx.hub.id() {
        ctx.say(format!(
            "the edit was of {} on context {}, and the console is on {} now: nothing sent; {kept}",
            editing.target, editing.hub.context, ctx.hub.connection.context
        ));
        return None;
    }
    let (fleet, own) = fleet_of(&ctx.hub.inventory, &editing.target);
    match edit::check(&text, &editing.live, fleet, own) {
        Checked::Emptied => {
            ctx.effect(Effect::ForgetEdit(path));
            ctx.say("edit given up (the file was emptied): nothing was sent");
            None
        }
        Checked::Unchanged => {
            ctx.effect(Effect::ForgetEdit(path));
            ctx.say(
                "edit cancelled: nothing was changed (status and the fields the server owns are \
                 not sent), nothing was sent",
            );
            None
        }
        Checked::Invalid(problems) => refused(editing, ctx, &text, &problems, &kept),
        Checked::Valid {
            object,
            changes,
            warnings,
        } => {
            let plan = edit::plan(&editing.live, object, &changes, &warnings);
            super::confirm::open_plan(ctx, plan);
            Some(editing)
        }
    }
}

/// An edit with errors: back to the editor with its findings on top, unless it came back
/// unchanged or too many times.
fn refused(
    mut editing: Editing,
    ctx: &mut Ctx,
    text: &str,
    problems: &[crate::domain::edit::Problem],
    kept: &str,
) -> Option<Editing> {
    if editing.refused.as_deref() == Some(text) {
        ctx.say(format!(
            "the edit was saved again unchanged, with errors: nothing was sent; {kept} (E \
             reopens it)"
        ));
        return None;
    }
    editing.rounds = editing.rounds.saturating_add(1);
    if editing.rounds >= edit::MOST_ROUNDS {
        ctx.say(format!(
            "the editor was opened {} times and the edit still has errors: nothing was sent; \
             {kept}",
            editing.rounds
        ));
        return None;
    }
    let again = edit::with_findings(text, problems);
    editing.refused = Some(again.clone());
    ctx.effect(Effect::Edit {
        file: editing.file.clone(),
        text: again,
        resume: None,
    });
    Some(editing)
}

/// The fleet the rules across pools compare an edit with (every pool watched), and the
/// edited pool's own entry there.
fn fleet_of<'i>(inventory: &'i Inventory, target: &ObjectRef) -> (&'i Inventory, Option<usize>) {
    let own = inventory
        .get(Kind::Pool, &target.namespace, &target.name)
        .map(Inventory::identity);
    (inventory, own)
}

/// An edit's replace was answered: done, the file it was kept in goes (the effect
/// returned); refused, it stays, and the footer says where.
pub fn answered(
    kept: std::path::PathBuf,
    done: bool,
    message: &mut Option<String>,
) -> Option<Effect> {
    if done {
        return Some(Effect::ForgetEdit(kept));
    }
    let said = message.take().unwrap_or_default();
    *message = Some(format!("{said}; the edit is kept at {}", kept.display()));
    None
}
