//! The namespaces watched for the wizard: its draft's as well as the console's own (one at a
//! time, back to the console's own once it closes), and, for the wizard alone, its own when
//! the hub refuses every namespace. Part of `update`.

use crate::app::Overlay;
use crate::app::ports::Namespaces;
use crate::app::{App, Effect};
use crate::domain::Kind;
use crate::inventory::SourceState;

/// Watches `namespace` as well when the console watches a list of namespaces without it:
/// the wizard's choices and checks then see what is there. One namespace at a time: the
/// console's own list plus the draft's, back to its own once the wizard closes
/// ([`restore`]).
pub fn watch_also(app: &mut App, namespace: &str) {
    let own = app
        .before_wizard
        .clone()
        .unwrap_or_else(|| app.namespaces.clone());
    let Namespaces::Only(list) = &own else {
        return;
    };
    let wanted = if app.offline.is_some()
        || list.iter().any(|n| n == namespace)
        || crate::domain::rules::names::namespace_problem(namespace).is_some()
    {
        own.clone()
    } else {
        let mut list = list.clone();
        list.push(namespace.to_owned());
        Namespaces::Only(list)
    };
    if wanted == app.namespaces {
        return;
    }
    app.before_wizard = (wanted != own).then_some(own);
    rewatch(
        app,
        wanted,
        format!("watching {namespace} too, for the wizard's choices and checks"),
    );
}

/// Once no wizard is open (nor a recreate waiting), the console watches its own namespaces
/// again if a wizard widened them.
pub fn restore(app: &mut App) {
    if app.before_wizard.is_none()
        || app.recreating.is_some()
        || app.overlays.iter().any(|o| matches!(o, Overlay::Wizard(_)))
    {
        return;
    }
    if let Some(own) = app.before_wizard.take() {
        let said = format!("watching {} again", own.words());
        let message = match app.message.take() {
            Some(before) => format!("{before}; {said}"),
            None => said,
        };
        rewatch(app, own, message);
    }
}

/// Watches other namespaces for the wizard, without leaving it: the picture starts over,
/// and the checks run again as it arrives.
fn rewatch(app: &mut App, namespaces: Namespaces, message: String) {
    app.fleet.connection.scope = namespaces.words();
    app.namespaces = namespaces.clone();
    // Every hub's: the watch starts over on each.
    app.start_over();
    for overlay in &mut app.overlays {
        if let Overlay::Wizard(w) = overlay {
            w.checked = (u64::MAX, u64::MAX);
        }
    }
    app.outbox.push(Effect::Watch(namespaces));
    app.message = Some(message);
}

/// `pooldeck new` watches every namespace; when the hub refuses pools across namespaces, the
/// draft's own namespace is watched instead (once), and the footer says so. Whether it did:
/// the refusal then belongs to the old watch and is not applied.
pub fn narrow(app: &mut App, event: &crate::inventory::SourceEvent) -> bool {
    let crate::inventory::SourceEvent::State {
        kind: Kind::Pool,
        scope: None,
        state: SourceState::Forbidden { .. },
    } = event
    else {
        return false;
    };
    if !app.wizard_only || app.namespaces != Namespaces::All {
        return false;
    }
    // The wizard's draft, or the one `--resume` waits to open.
    let namespace = app
        .overlays
        .iter()
        .rev()
        .find_map(|o| match o {
            Overlay::Wizard(w) => Some(w.draft.namespace().to_owned()),
            _ => None,
        })
        .or_else(|| {
            app.resuming
                .as_ref()
                .map(|k| k.saved.namespace().to_owned())
        });
    let Some(namespace) =
        namespace.filter(|n| crate::domain::rules::names::namespace_problem(n).is_none())
    else {
        return false;
    };
    rewatch(
        app,
        Namespaces::Only(vec![namespace.clone()]),
        format!("you may not list pools across namespaces: watching {namespace}, the draft's"),
    );
    true
}
