//! Opening the wizard: on a new pool (in the namespace asked for), on the live pool, on a
//! manifest, or on a kept draft with the field that was being typed open again. Part of
//! `update`.

use serde_json::Value;

use super::check::{changed, changed_in};
use super::component::with_wizard;
use super::editor::Editor;
use super::state::{Purpose, Wizard};
use crate::app::component::{After, Ctx};
use crate::app::{App, Overlay};
use crate::domain::Kind;
use crate::domain::draft::Draft;

/// A new pool's namespace: the one the console was asked to show (`-n`; the selected row's
/// when it is one of them), else the selected row's, else the context's.
fn namespace_in_view(app: &App) -> String {
    let selected = app
        .shown
        .row(app.list.selected)
        .map(|r| r.id.namespace.to_string())
        .filter(|ns| !ns.is_empty());
    match &app.namespaces {
        crate::app::ports::Namespaces::Only(list) => selected
            .filter(|ns| list.contains(ns))
            .or_else(|| list.first().cloned()),
        crate::app::ports::Namespaces::All => selected,
    }
    .unwrap_or_else(|| app.fleet.home_namespace.clone())
}

/// `pooldeck new`: the wizard on a given draft (from `--from FILE`, or a new one).
pub fn open_with(app: &mut App, draft: Draft) {
    let mut wizard = Wizard::new(draft, Purpose::Create);
    wizard.started = crate::app::drafts::started(app);
    show(app, wizard);
    changed(app);
}

/// Puts a wizard on the modal stack, bound to the hub in use.
pub fn show(app: &mut App, mut wizard: Wizard) {
    // Without a cluster the hub is not known: a resumed draft keeps the one it was for.
    if app.offline.is_none() {
        wizard.context = app.fleet.connection.context.clone();
    }
    app.overlays.push(Overlay::Wizard(Box::new(wizard)));
}

/// A new pool in the namespace in view.
pub fn open_fresh(app: &mut App) {
    open_with(app, Draft::new(&namespace_in_view(app)));
}

/// An edit of the live pool as it is now.
pub fn open_live(app: &mut App, pool: Value) {
    let mut object = pool.clone();
    // What the server owns is not the wizard's to write back.
    if let Some(map) = object.as_object_mut() {
        map.shift_remove("status");
    }
    crate::domain::json::drop_managed_fields(&mut object);
    let wizard = Wizard::new(Draft::from_object(object, None), Purpose::edit(pool));
    show(app, wizard);
    changed(app);
}

/// A resumed wizard: the field that was being typed opens again on its step with its text
/// (and the checks run on it), then the draft is checked and saved.
pub fn reopen_typing(app: &mut App, typing: Option<&crate::domain::draft::Typing>) {
    if let Some(typing) = typing
        && matches!(app.overlays.last(), Some(Overlay::Wizard(_)))
    {
        with_wizard(app, |w, ctx| {
            reopen_in(w, ctx, typing);
            (After::Stay, ())
        });
        return;
    }
    changed(app);
}

/// [`reopen_typing`] on the wizard, taken off the stack.
fn reopen_in(w: &mut Wizard, ctx: &mut Ctx, typing: &crate::domain::draft::Typing) {
    {
        let found = crate::domain::draft::Step::ALL.iter().find_map(|step| {
            let mut probe = Wizard::new(w.draft.clone(), w.purpose.clone());
            probe.step = *step;
            probe
                .lines()
                .iter()
                .position(|l| l.path().to_string() == typing.path)
                .map(|at| (*step, at, probe.lines()[at]))
        });
        if let Some((step, at, line)) = found {
            w.step = step;
            w.cursor = at;
            w.before = Some(
                typing
                    .before
                    .clone()
                    .or_else(|| w.draft.get(&line.path()).cloned()),
            );
            w.editing = Some(Editor::new(&typing.text, line.spec.entry.multi_line()));
            w.retyped(ctx);
            return;
        }
    }
    changed_in(w, ctx);
}

/// `n`: a new pool (or the drafts to resume, when there are); `e`: the selected pool (or
/// its draft, offered with what it changes).
pub fn open(app: &mut App, edit: bool) {
    if !edit {
        if !crate::app::drafts::offer_new(app) {
            open_fresh(app);
        }
        return;
    }
    let Some(object) = app
        .shown
        .row(app.list.selected)
        .filter(|_| app.list.view.pools)
        .and_then(|row| {
            app.fleet
                .inventory
                .get(Kind::Pool, &row.id.namespace, &row.id.name)
        })
    else {
        app.message = Some("e edits the selected pool: select one in the pools list".into());
        return;
    };
    let Some(model) = object.pool() else {
        app.message = Some(format!(
            "{} cannot be read as a Compute Pool (its row says why): there is nothing to edit",
            crate::domain::inert::line(object.name())
        ));
        return;
    };
    if let Some(meta) = model.meta().filter(|m| m.is_deleting()) {
        app.message = Some(format!(
            "{} is being deleted (since {}): an edit would be lost with it; Enter opens \
             its detail, u unblocks a deletion that is stuck",
            crate::domain::inert::line(model.name()),
            crate::domain::inert::line(meta.deletion_timestamp.as_deref().unwrap_or("?"))
        ));
        return;
    }
    let pool = (*object.value()).clone();
    if !crate::app::drafts::offer_edit(app, &pool) {
        open_live(app, pool);
    }
}
