//! What a list says when it has no rows: why, in words, so it reads without colour too.

use crate::app::App;
use crate::inventory::SourceState;
use crate::theme::Meaning;

/// Why the list is empty, in words: refused, not installed, reconnecting, loading, all clear
/// or nothing there.
pub(super) fn why_empty(app: &App) -> (String, Meaning) {
    let kind = app.list.view.source;
    // Say why the list is empty: refused, not installed, reconnecting, loading, or empty.
    let states: Vec<&SourceState> = app
        .fleet
        .inventory
        .health_of(kind)
        .map(|h| &h.state)
        .collect();
    match states.iter().find(|s| !matches!(s, SourceState::Live)) {
        Some(SourceState::Forbidden { message }) => (
            format!(
                "{message}. Ask for get, list and watch, or try :ns with a namespace you may read."
            ),
            Meaning::Error,
        ),
        Some(SourceState::NotInstalled) => (
            format!("{} is not installed on this cluster.", kind.resource_name()),
            Meaning::Warn,
        ),
        Some(SourceState::Reconnecting { error, .. }) => {
            (format!("Reconnecting: {error}"), Meaning::Warn)
        }
        Some(SourceState::Syncing) => (
            "Waiting for the first list from the cluster…".to_owned(),
            Meaning::Muted,
        ),
        _ if states.is_empty() => (
            "Waiting for the first list from the cluster…".to_owned(),
            Meaning::Muted,
        ),
        _ if let Some(all_clear) = app.list.view.all_clear => (all_clear.to_owned(), Meaning::Ok),
        _ => (nothing_here(app), Meaning::Muted),
    }
}

/// A live list with no rows: what would show some (the filter cleared, every namespace).
fn nothing_here(app: &App) -> String {
    use crate::app::ports::Namespaces;
    let kind = app.list.view.source;
    let noun = app.list.view.title;
    if !app.list.filter.is_empty() {
        return format!(
            "No {noun} match the filter \"{}\". Esc clears it.",
            app.list.filter
        );
    }
    match &app.namespaces {
        Namespaces::Only(names) if kind.api().namespaced => {
            let elsewhere = app.fleet.inventory.pools_elsewhere();
            let where_pools = if elsewhere.is_empty() || kind != crate::inventory::Kind::Pool {
                String::new()
            } else {
                format!(" Compute Pools are in: {}.", elsewhere.join(", "))
            };
            format!(
                "No {noun} in namespace {}.{where_pools} 0 watches every namespace; :ns NAME \
                 another one.",
                names.join(", ")
            )
        }
        _ => format!("No {noun} on this hub."),
    }
}
