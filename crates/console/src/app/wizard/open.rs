//! Opening the wizard: on a new pool (in the namespace asked for), on the live pool, on a
//! manifest, or on a kept draft with the field that was being typed open again. Part of
//! `update`.

use serde_json::Value;

use super::check::changed_in;
use super::editor::Editor;
use super::state::{Purpose, Wizard};
use crate::app::component::{Ask, Ctx};
use crate::app::{App, Overlay};
use crate::domain::Kind;
use crate::domain::draft::{Draft, Typing};

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

/// A new pool's wizard on a given draft (`pooldeck new --from FILE`, or a new one).
pub fn with_draft(app: &App, draft: Draft) -> Wizard {
    let mut wizard = Wizard::new(draft, Purpose::Create);
    wizard.started = crate::app::drafts::started(app);
    wizard
}

/// A new pool in the namespace in view.
pub fn fresh(app: &App) -> Wizard {
    with_draft(app, Draft::new(&namespace_in_view(app)))
}

/// An edit of the live pool as it is now.
pub fn live(pool: Value) -> Wizard {
    let mut object = pool.clone();
    // What the server owns is not the wizard's to write back.
    if let Some(map) = object.as_object_mut() {
        map.shift_remove("status");
    }
    crate::domain::json::drop_managed_fields(&mut object);
    Wizard::new(Draft::from_object(object, None), Purpose::edit(pool))
}

/// Asks the console to open `wizard` (with the field that was being typed, if any).
pub fn opening(wizard: Wizard, typing: Option<Typing>) -> Ask {
    Ask::OpenWizard(Box::new(wizard), typing)
}

/// A wizard as it opens: bound to the hub in focus (without a cluster the hub is not known:
/// a resumed draft keeps the one it was for); the field that was being typed opens again on
/// its step with its text (the checks run on it), then the draft is checked and saved.
pub fn opened(w: &mut Wizard, typing: Option<&Typing>, ctx: &mut Ctx) {
    if ctx.offline.is_none() {
        w.context = ctx.hub.connection.context.clone();
    }
    match typing {
        Some(typing) => reopen_in(w, ctx, typing),
        None => changed_in(w, ctx),
    }
}

/// The field that was being typed, open again on its step.
fn reopen_in(w: &mut Wizard, ctx: &mut Ctx, typing: &Typing) {
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
/// its draft, offered with what it changes). What it asks of the console.
pub fn open(app: &App, edit: bool) -> Ask {
    let say = |text: String| Ask::Say(Some(text));
    if !edit {
        return match crate::app::drafts::offer_new(app) {
            Some(chooser) => Ask::Open(Overlay::Drafts(Box::new(chooser))),
            None => opening(fresh(app), None),
        };
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
        return say("e edits the selected pool: select one in the pools list".into());
    };
    let Some(model) = object.pool() else {
        return say(format!(
            "{} cannot be read as a Compute Pool (its row says why): there is nothing to edit",
            crate::domain::inert::line(object.name())
        ));
    };
    if let Some(meta) = model.meta().filter(|m| m.is_deleting()) {
        return say(format!(
            "{} is being deleted (since {}): an edit would be lost with it; Enter opens \
             its detail, u unblocks a deletion that is stuck",
            crate::domain::inert::line(model.name()),
            crate::domain::inert::line(meta.deletion_timestamp.as_deref().unwrap_or("?"))
        ));
    }
    let pool = (*object.value()).clone();
    match crate::app::drafts::offer_edit(app, &pool) {
        Some(chooser) => Ask::Open(Overlay::Drafts(Box::new(chooser))),
        None => opening(live(pool), None),
    }
}
