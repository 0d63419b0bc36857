//! The header: where the console is connected (context, server, scope, READ-ONLY, marks),
//! each source's state, and when the picture is stale, why and since when.

use chrono::{DateTime, Utc};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::App;
use crate::domain::inert;
use crate::inventory::SourceState;
use crate::theme::{Meaning, Theme};

/// The meaning of a source's state, for its colour in the header.
fn source_meaning(state: &SourceState) -> Meaning {
    match state {
        SourceState::Live => Meaning::Ok,
        SourceState::Syncing => Meaning::Info,
        SourceState::Reconnecting { .. } | SourceState::NotInstalled => Meaning::Warn,
        SourceState::Forbidden { .. } => Meaning::Error,
    }
}

/// A hub's state in a word or two, read without colour too: unreachable (never answered),
/// STALE (and for how long), refused, reconnecting, syncing (how far), else ✓ and its pools.
/// Only the pools, evaluations and events count: a source the console can do without
/// (tenants for a viewer, say) refused does not make a hub down.
fn hub_state(inventory: &crate::inventory::Inventory, now: DateTime<Utc>) -> (String, Meaning) {
    use crate::inventory::Kind;
    if let Some(stale) = inventory.stale(now)
        && !inventory.ever_answered()
    {
        let age =
            crate::domain::duration::format_age((now - stale.since).to_std().unwrap_or_default());
        return (format!("unreachable {age}"), Meaning::Error);
    }
    if let Some(stale) = inventory.stale(now) {
        let age =
            crate::domain::duration::format_age((now - stale.since).to_std().unwrap_or_default());
        return (format!("STALE {age}"), Meaning::Error);
    }
    let states: Vec<&SourceState> = inventory
        .health()
        .filter(|((kind, _), _)| matches!(kind, Kind::Pool | Kind::Evaluation | Kind::Event))
        .map(|(_, h)| &h.state)
        .collect();
    if states
        .iter()
        .any(|s| matches!(s, SourceState::Forbidden { .. }))
    {
        return ("refused".to_owned(), Meaning::Error);
    }
    if states
        .iter()
        .any(|s| matches!(s, SourceState::Reconnecting { .. }))
    {
        return ("reconnecting".to_owned(), Meaning::Warn);
    }
    if states.is_empty() || states.iter().any(|s| **s == SourceState::Syncing) {
        let so_far = inventory
            .listing_progress(Kind::Pool)
            .map(|received| format!(" {received}"))
            .unwrap_or_default();
        // The server has no watch-lists: its lists come in pages (slower on a large hub).
        let paged = if inventory.list_way() == Some(crate::inventory::ListWay::Paged) {
            ", in pages"
        } else {
            ""
        };
        return (format!("syncing{so_far}{paged}"), Meaning::Info);
    }
    let pools = inventory.count(Kind::Pool);
    (
        format!("✓ {}", crate::domain::words::counted(pools, "pool")),
        Meaning::Ok,
    )
}

/// The header of a console on several hubs: how many, the one acted on, the scope, then each
/// hub's state on the second line (one hub down says so beside its name only).
fn render_fleet(app: &App, theme: &Theme, frame: &mut Frame, area: Rect) {
    let muted = theme.style(Meaning::Muted);
    let accent = theme.style(Meaning::Accent).add_modifier(Modifier::BOLD);
    let fleet = &app.fleet;
    let shown = format!("{} hubs", fleet.count());
    let mut first = vec![
        Span::styled("pooldeck", accent),
        Span::styled(" │ ", muted),
        Span::raw(shown),
        Span::styled(" │ acting on ", muted),
        Span::styled(
            app.fleet.connection.context.clone(),
            Style::new().add_modifier(Modifier::BOLD),
        ),
        Span::styled(" │ ", muted),
        Span::raw(app.fleet.connection.scope.clone()),
    ];
    if !app.list.marked.is_empty() {
        first.push(Span::styled(" │ ", muted));
        first.push(Span::styled(
            format!("{} marked", app.list.marked.len()),
            theme.style(Meaning::Accent),
        ));
    }
    // Hubs that are down first (with how many), then those still syncing, then the live
    // ones: with many hubs the line is cut at the screen's edge, never a hub that is down.
    let rank = |meaning: &Meaning| match meaning {
        Meaning::Error => 0,
        Meaning::Warn => 1,
        Meaning::Info => 2,
        _ => 3,
    };
    let each: Vec<(usize, String, Meaning)> = (0..fleet.count())
        .filter_map(|hub| {
            let (state, meaning) = hub_state(app.inventory_of(hub)?, app.now);
            Some((hub, state, meaning))
        })
        .collect();
    // In rank order, each rank in the hubs' order (a pass per rank: a handful of hubs).
    let states = (0..4).flat_map(|r| each.iter().filter(move |(_, _, m)| rank(m) == r));
    let down = each.iter().filter(|(_, _, m)| rank(m) < 2).count();
    let mut second = Vec::new();
    if down > 0 {
        second.push(Span::styled(
            format!("{down} of {} down: ", fleet.count()),
            theme.style(Meaning::Warn).add_modifier(Modifier::BOLD),
        ));
    }
    for (hub, state, meaning) in states {
        let hub = *hub;
        let name_style = if hub == fleet.focus() {
            Style::new().add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
        } else {
            Style::new()
        };
        second.push(Span::styled(fleet.name(hub).to_owned(), name_style));
        second.push(Span::raw(" "));
        second.push(Span::styled(state.clone(), theme.style(*meaning)));
        let read_only = fleet.hub(hub).is_some_and(|h| h.read_only_why.is_some());
        if read_only {
            second.push(Span::styled(
                " READ-ONLY",
                theme.style(Meaning::Warn).add_modifier(Modifier::BOLD),
            ));
        }
        second.push(Span::raw("   "));
    }
    // Context names come from the kubeconfig, the rest from the servers: inert.
    let lines = super::detail::inert_lines(vec![Line::from(first), Line::from(second)], None);
    frame.render_widget(Paragraph::new(lines), area);
}

pub fn render(app: &App, theme: &Theme, frame: &mut Frame, area: Rect) {
    // Several hubs in view: each hub's state; one (`:hub NAME`), its sources as with one hub.
    if app.fleet.mixed() {
        return render_fleet(app, theme, frame, area);
    }
    let muted = theme.style(Meaning::Muted);
    let accent = theme.style(Meaning::Accent).add_modifier(Modifier::BOLD);
    let first = Line::from(vec![
        Span::styled("pooldeck", accent),
        Span::styled(" │ ", muted),
        Span::raw(inert::line(&app.fleet.connection.context).into_owned()),
        Span::styled(" │ ", muted),
        Span::raw(inert::line(&app.fleet.connection.server).into_owned()),
        Span::styled(" │ ", muted),
        Span::raw(inert::line(&app.fleet.connection.scope).into_owned()),
    ]);
    let mut first = first;
    if app.read_only() {
        first.spans.push(Span::styled(" │ ", muted));
        // Why, up to its first clause: the footer said it whole when the console opened.
        let why = app
            .fleet
            .read_only_why
            .as_deref()
            .map(|w| format!(" ({})", inert::line(w.split(';').next().unwrap_or(w))))
            .unwrap_or_default();
        first.spans.push(Span::styled(
            format!("READ-ONLY{why}"),
            theme.style(Meaning::Warn).add_modifier(Modifier::BOLD),
        ));
    }
    if !app.list.marked.is_empty() {
        first.spans.push(Span::styled(" │ ", muted));
        first.spans.push(Span::styled(
            format!("{} marked", app.list.marked.len()),
            theme.style(Meaning::Accent),
        ));
    }
    if app.fleet.several() {
        first.spans.push(Span::styled(" │ ", muted));
        first.spans.push(Span::styled(
            format!("1 of {} hubs (:hub * shows all)", app.fleet.count()),
            theme.style(Meaning::Accent),
        ));
    }
    let sources = source_spans(app, theme);
    // What is wrong, in words, at any row count: a stale picture first, then the reason of a
    // source that is reconnecting.
    let reconnecting = app
        .fleet
        .inventory
        .health()
        .find_map(|(_, h)| match &h.state {
            SourceState::Reconnecting { error, .. } => Some(error.to_string()),
            _ => None,
        });
    let second = match (app.fleet.inventory.stale(app.now), reconnecting) {
        (Some(stale), _) => Line::from(vec![
            Span::styled("STALE", theme.style(Meaning::Error)),
            Span::styled(
                format!(
                    " since {} ({} ago): {}",
                    stale.since.format("%H:%M:%S"),
                    crate::domain::duration::format_age(
                        (app.now - stale.since).to_std().unwrap_or_default()
                    ),
                    stale.reason
                ),
                theme.style(Meaning::Warn),
            ),
        ]),
        (None, Some(reason)) => {
            let mut line = sources;
            line.push(Span::styled(reason, theme.style(Meaning::Warn)));
            Line::from(line)
        }
        (None, None) => Line::from(sources),
    };
    // A server's error text is in the second line: inert.
    let lines = super::detail::inert_lines(vec![first, second], None);
    frame.render_widget(Paragraph::new(lines), area);
}

/// One compact entry per resource: ✓ when live (with the time since its last event),
/// otherwise the state in words, so it reads without colour too; then whether the hub's
/// lists come in pages.
fn source_spans(app: &App, theme: &Theme) -> Vec<Span<'static>> {
    let muted = theme.style(Meaning::Muted);
    let mut sources = Vec::new();
    let mut seen = Vec::new();
    for ((kind, _), health) in app.fleet.inventory.health() {
        if seen.contains(kind) || (kind.is_auxiliary() && health.state == SourceState::Live) {
            continue;
        }
        seen.push(*kind);
        let name = match kind {
            crate::inventory::Kind::Pool => "pools",
            crate::inventory::Kind::Evaluation => "cpe",
            crate::inventory::Kind::Event => "events",
            other => other.api().plural,
        };
        sources.push(Span::raw(format!("{name} ")));
        match &health.state {
            SourceState::Live => {
                sources.push(Span::styled("✓", theme.style(Meaning::Ok)));
                let since = health
                    .last_event
                    .map(|t| {
                        crate::domain::duration::format_age(
                            (app.now - t).to_std().unwrap_or_default(),
                        )
                    })
                    .unwrap_or_default();
                sources.push(Span::styled(format!(" {since}  "), muted));
            }
            SourceState::Reconnecting { retry_at, .. } => {
                let left = (*retry_at - app.now).num_seconds().max(0);
                sources.push(Span::styled("reconnecting", theme.style(Meaning::Warn)));
                sources.push(Span::styled(format!(" (retry {left}s)  "), muted));
            }
            state => {
                let word = state.word();
                sources.push(Span::styled(word, theme.style(source_meaning(state))));
                // A list arriving in pages: how far it has come, and for how long.
                if *state == SourceState::Syncing
                    && let Some(received) = app.fleet.inventory.listing_progress(*kind)
                {
                    let elapsed = crate::domain::duration::format_age(
                        (app.now - health.since).to_std().unwrap_or_default(),
                    );
                    sources.push(Span::styled(
                        format!(" {received} so far, {elapsed}"),
                        muted,
                    ));
                }
                sources.push(Span::raw("  "));
            }
        }
    }
    // A server without watch-lists: said once for the hub (its lists come in pages, which a
    // large hub may serve from a slower path than its watch cache).
    if app.fleet.inventory.list_way() == Some(crate::inventory::ListWay::Paged) {
        sources.push(Span::styled("lists in pages (no watch-lists)  ", muted));
    }
    sources
}
