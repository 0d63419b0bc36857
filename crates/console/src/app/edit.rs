//! `E`: the pool under the cursor (or open) as YAML in the user's editor, as `pooldeck edit`
//! does it (`domain::edit`): the runtime gives the terminal to the editor on a private file
//! and brings back what was saved; an edit with errors goes back to the editor with its
//! findings on top; one that passes opens the usual confirmation (its changes, the dry run,
//! a replace naming the resourceVersion read). The edit is bound to the hub it started on;
//! read-only mode refuses before the editor opens. Part of `update`: no I/O.

use serde_json::Value;

use super::{App, Effect};
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

/// `E` on a pool: its YAML to the editor.
pub fn start(app: &mut App, namespace: &str, name: &str) {
    if app.read_only() {
        app.message = Some(
            "read-only mode: an edit could not be sent, so none is opened (y shows the YAML)"
                .into(),
        );
        return;
    }
    if let Some(why) = &app.offline {
        app.message = Some(format!("no cluster ({why}): an edit needs one"));
        return;
    }
    let Some(object) = app.fleet.inventory.get(Kind::Pool, namespace, name) else {
        app.message = Some(format!("{namespace}/{name} is no longer on the hub"));
        return;
    };
    let live = (*object.value()).clone();
    let target = ObjectRef::new(Kind::Pool, namespace.to_owned(), name.to_owned());
    let hub = app.hub();
    if !live.is_object() {
        app.message = Some(format!(
            "{namespace}/{name} cannot be read as an object: nothing to edit"
        ));
        return;
    }
    let yaml = serde_saphyr::to_string(&live).unwrap_or_default();
    let text = edit::opening(&target, &hub.context, &live, &yaml);
    let file = edit::file_name(&hub, &target);
    // An edit of this pool kept by a session that dropped is reopened as it was left, if it
    // was made on the pool as it is now.
    app.outbox.push(Effect::Edit {
        file: file.clone(),
        text,
        resume: Some(live.clone()),
    });
    app.editing = Some(Editing {
        target,
        hub,
        live,
        file,
        refused: None,
        rounds: 0,
        path: None,
    });
}

/// What the editor saved (or why there is nothing): checked, and sent back to the editor,
/// given up, or put behind a confirmation.
pub fn saved(
    app: &mut App,
    path: std::path::PathBuf,
    said: Option<String>,
    result: Result<String, super::failed::EditorError>,
) {
    let Some(editing) = app.editing.take() else {
        return;
    };
    checked(app, editing, path, result);
    // What became of a kept edit is said before what became of this one.
    if let Some(said) = said {
        app.message = Some(match app.message.take() {
            Some(now) => format!("{said}; {now}"),
            None => said,
        });
    }
}

fn checked(
    app: &mut App,
    mut editing: Editing,
    path: std::path::PathBuf,
    result: Result<String, super::failed::EditorError>,
) {
    editing.path = Some(path.clone());
    let kept = format!("the edit is kept at {}", path.display());
    let text = match result {
        Ok(text) => text,
        Err(why) => {
            app.message = Some(why.to_string());
            return;
        }
    };
    // The console moved to another hub meanwhile: the edit is not sent there.
    if editing.hub != app.hub() {
        app.message = Some(format!(
            "the edit was of {} on context {}, and the console is on {} now: nothing sent; {kept}",
            editing.target, editing.hub.context, app.fleet.connection.context
        ));
        return;
    }
    let (fleet, own) = fleet_of(&app.fleet.inventory, &editing.target);
    match edit::check(&text, &editing.live, fleet, own) {
        Checked::Emptied => {
            app.outbox.push(Effect::ForgetEdit(path));
            app.message = Some("edit given up (the file was emptied): nothing was sent".into());
        }
        Checked::Unchanged => {
            app.outbox.push(Effect::ForgetEdit(path));
            app.message = Some(
                "edit cancelled: nothing was changed (status and the fields the server owns are \
                 not sent), nothing was sent"
                    .into(),
            );
        }
        Checked::Invalid(problems) => {
            if editing.refused.as_deref() == Some(text.as_str()) {
                app.message = Some(format!(
                    "the edit was saved again unchanged, with errors: nothing was sent; {kept} \
                     (E reopens it)"
                ));
                return;
            }
            editing.rounds = editing.rounds.saturating_add(1);
            if editing.rounds >= edit::MOST_ROUNDS {
                app.message = Some(format!(
                    "the editor was opened {} times and the edit still has errors: nothing was \
                     sent; {kept}",
                    editing.rounds
                ));
                return;
            }
            let again = edit::with_findings(&text, &problems);
            editing.refused = Some(again.clone());
            app.outbox.push(Effect::Edit {
                file: editing.file.clone(),
                text: again,
                resume: None,
            });
            app.editing = Some(editing);
        }
        Checked::Valid {
            object,
            changes,
            warnings,
        } => {
            let plan = edit::plan(&editing.live, object, &changes, &warnings);
            app.editing = Some(editing);
            app.lend(|ctx| super::confirm::open_plan(ctx, plan));
        }
    }
}

/// The fleet the rules across pools compare an edit with (every pool watched), and the
/// edited pool's own entry there.
fn fleet_of<'i>(inventory: &'i Inventory, target: &ObjectRef) -> (&'i Inventory, Option<usize>) {
    let own = inventory
        .get(Kind::Pool, &target.namespace, &target.name)
        .map(Inventory::identity);
    (inventory, own)
}

/// An edit's replace was answered: done, the file it was kept in goes; refused, it stays,
/// and the footer says where.
pub fn answered(app: &mut App, kept: std::path::PathBuf, done: bool) {
    if done {
        app.outbox.push(Effect::ForgetEdit(kept));
    } else {
        let said = app.message.take().unwrap_or_default();
        app.message = Some(format!("{said}; the edit is kept at {}", kept.display()));
    }
}
