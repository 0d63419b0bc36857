//! One pool in detail, a tab at a time: Overview, Conditions, Hosts, Scaling, Events, YAML.

use chrono::{DateTime, Utc};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::cells;
use crate::app::rows::{Cell, Row, Status};
use crate::app::{App, Detail, DetailData, Tab};
use crate::domain::duration;
use crate::domain::model::ComputePool;
use crate::domain::model::vocabulary::{CONDITION_TYPES, HostStatus, PoolPhase};
use crate::domain::quantity::GpuVariant;
use crate::domain::rules::Severity;
use crate::inventory::{Inventory, Kind, Object};
use crate::theme::{Meaning, Theme};

pub(super) fn ago(t: DateTime<Utc>, now: DateTime<Utc>) -> String {
    duration::format_age((now - t).to_std().unwrap_or_default())
}

pub(super) fn time(text: Option<&str>) -> Option<DateTime<Utc>> {
    text.and_then(|s| DateTime::parse_from_rfc3339(s).ok())
        .map(|t| t.with_timezone(&Utc))
}

pub(super) fn short(variant: &str) -> String {
    GpuVariant::parse(variant).short_name().to_owned()
}

/// A ten-cell bar for a percentage.
pub fn bar(percent: f64) -> String {
    let filled = ((percent.clamp(0.0, 100.0) / 10.0).round()) as usize;
    format!("{}{}", "█".repeat(filled), "░".repeat(10 - filled))
}

/// A sparkline of the last samples.
pub fn sparkline(values: &[f64]) -> String {
    const LEVELS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    values
        .iter()
        .map(|v| LEVELS[((v.clamp(0.0, 100.0) / 100.0) * 7.0).round() as usize])
        .collect()
}

pub(super) fn label<'a>(theme: &Theme, text: &'a str) -> Span<'a> {
    Span::styled(text, theme.style(Meaning::Muted))
}

pub fn render(app: &App, detail: &Detail, theme: &Theme, frame: &mut Frame, area: Rect) {
    let crumb = format!(
        " {} › {}/{} › {} ",
        app.view.title(),
        detail.namespace,
        detail.name,
        detail.tab.title()
    );
    let block = Block::default()
        .borders(Borders::TOP)
        .title(Span::styled(crumb, theme.style(Meaning::Accent)));
    let [tabs, body] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(block.inner(area));
    frame.render_widget(block, area);
    let mut spans = Vec::new();
    for (i, tab) in Tab::ALL.iter().enumerate() {
        let text = format!(" {} {} ", i + 1, tab.title());
        let style = if *tab == detail.tab {
            theme
                .style(Meaning::Accent)
                .add_modifier(Modifier::REVERSED)
        } else {
            theme.style(Meaning::Muted)
        };
        spans.push(Span::styled(text, style));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), tabs);
    let Some(object) = app
        .inventory
        .get(Kind::Pool, &detail.namespace, &detail.name)
    else {
        frame.render_widget(
            Paragraph::new(
                "This pool is gone (deleted, or out of the watched namespaces). Esc goes back.",
            )
            .style(theme.style(Meaning::Warn)),
            body,
        );
        return;
    };
    let derived = app.shown.detail.as_ref();
    let lines = match (detail.tab, object.pool()) {
        (_, None) => vec![Line::from(Span::styled(
            format!(
                "This object cannot be read: {}",
                object.problem().unwrap_or_default()
            ),
            theme.style(Meaning::Error),
        ))],
        (Tab::Overview, Some(pool)) => overview(derived, pool, theme),
        (Tab::Conditions, Some(pool)) => conditions(pool, theme, app.now),
        (Tab::Hosts, Some(_)) => hosts(app, derived, theme),
        (Tab::Scaling, Some(pool)) => {
            super::scaling::tab(&app.inventory, object, pool, theme, app.now)
        }
        (Tab::Events, Some(_)) => events(&app.inventory, object, theme, app.now),
        (Tab::Yaml, Some(_)) => yaml_lines(derived, app.search.trim(), theme),
    };
    let wrap = !matches!(detail.tab, Tab::Yaml | Tab::Hosts);
    let mut paragraph = Paragraph::new(lines).scroll((detail.scroll, 0));
    if wrap {
        paragraph = paragraph.wrap(Wrap { trim: false });
    }
    frame.render_widget(paragraph, body);
}

/// The object as YAML, keys muted and values plain; lines holding the filter text (the `/`
/// search, which also jumps there) stand out.
fn yaml_lines<'a>(derived: Option<&DetailData>, search: &str, theme: &Theme) -> Vec<Line<'a>> {
    let needle = search.to_lowercase();
    derived
        .map(|d| d.yaml.as_slice())
        .unwrap_or_default()
        .iter()
        .map(|line| {
            let hit = !needle.is_empty() && line.to_lowercase().contains(&needle);
            let (key, rest) = match line.find(": ") {
                Some(i)
                    if !line.trim_start().starts_with('-')
                        || line.trim_start()[1..].contains(": ") =>
                {
                    line.split_at(i + 1)
                }
                _ => ("", line.as_str()),
            };
            let mut spans = Vec::new();
            if !key.is_empty() {
                spans.push(Span::styled(key.to_owned(), theme.style(Meaning::Accent)));
            }
            spans.push(Span::raw(rest.to_owned()));
            let mut line = Line::from(spans);
            if hit {
                line = line.style(theme.style(Meaning::Warn).add_modifier(Modifier::REVERSED));
            }
            line
        })
        .collect()
}

fn overview<'a>(
    derived: Option<&DetailData>,
    pool: &'a ComputePool,
    theme: &Theme,
) -> Vec<Line<'a>> {
    let mut lines = Vec::new();
    let phase = pool
        .status
        .get()
        .and_then(|s| s.status.as_deref())
        .map(|w| Status::Pool(PoolPhase::parse(w)));
    let status = phase.as_ref().map_or("-", Status::word).to_owned();
    let status_style = theme.style(phase.as_ref().map_or(Meaning::Text, cells::status));
    let health: Vec<String> = pool
        .status
        .get()
        .into_iter()
        .flat_map(|s| s.clusters())
        .filter_map(|c| c.health.as_deref().map(str::to_owned))
        .collect();
    lines.push(Line::from(vec![
        label(theme, "Status "),
        Span::styled(status, status_style),
        label(theme, "   Health "),
        Span::raw(if health.is_empty() {
            "-".to_owned()
        } else {
            health.join(", ")
        }),
        label(theme, "   Paused "),
        Span::styled(
            if pool.is_paused() { "yes" } else { "no" },
            theme.style(if pool.is_paused() {
                Meaning::Warn
            } else {
                Meaning::Text
            }),
        ),
        label(theme, "   Deletion "),
        Span::raw(pool.deletion_policy().to_owned()),
    ]));
    if let Some(description) = pool.description() {
        lines.push(Line::from(vec![
            label(theme, "Description "),
            Span::raw(description.to_owned()),
        ]));
    }
    let bundle = pool.spec().and_then(|s| s.profile_bundle_ref.get());
    let mode = if pool.dedicated().is_some() {
        "dedicated"
    } else {
        "shared"
    };
    lines.push(Line::from(vec![
        label(theme, "Mode "),
        Span::raw(mode),
        label(theme, "   Profile bundle "),
        Span::raw(
            bundle
                .and_then(|b| b.name.as_deref())
                .unwrap_or("-")
                .to_owned(),
        ),
        label(theme, "   Endpoint "),
        Span::raw(match (pool.overlay_enabled(), pool.vip()) {
            (true, _) => "network overlay".to_owned(),
            (false, Some(vip)) => format!("VIP {vip}"),
            (false, None) => "-".to_owned(),
        }),
    ]));
    if let Some(cp) = pool.control_plane() {
        lines.push(Line::from(vec![
            label(theme, "Control plane "),
            Span::raw(format!(
                "{} node(s), {}, {} CPUs{}{}",
                cp.node_count.get().map_or("?".into(), |n| n.to_string()),
                cp.architecture.as_deref().unwrap_or("AMD64"),
                cp.cpu
                    .get()
                    .and_then(|c| c.cpu_count.get())
                    .map_or("?".into(), |n| n.to_string()),
                cp.memory
                    .get()
                    .and_then(|m| m.memory.get())
                    .map_or(String::new(), |m| format!(", {m}")),
                if cp.worker_node_eligible.get() == Some(&true) {
                    ", runs workloads"
                } else {
                    ""
                }
            )),
        ]));
    }
    for (_, worker) in pool.worker_pools() {
        let gpu = worker.gpu.get().map_or(String::new(), |g| {
            format!(
                "  {}× {}",
                g.gpu_count.get().map_or("?".into(), |n| n.to_string()),
                g.variant.as_deref().map(short).unwrap_or_default()
            )
        });
        lines.push(Line::from(vec![
            label(theme, "Worker pool "),
            Span::raw(format!(
                "{}{}{}",
                worker.name().unwrap_or("(unnamed)"),
                gpu,
                worker
                    .min_worker_nodes
                    .get()
                    .map_or(String::new(), |n| format!("  min {n} nodes"))
            )),
        ]));
    }
    lines.push(Line::from(""));
    lines.push(Line::from(label(theme, "GPUs used / capacity")));
    let gpus = derived
        .and_then(|d| d.summary.as_ref())
        .and_then(|row| row.cells.get(4));
    if let Some(Cell::Gpus(all)) = gpus {
        for gpu in all {
            let part = format!("{} {}/{}", gpu.model, gpu.used, gpu.capacity);
            let percent = if gpu.capacity > 0 {
                gpu.used as f64 * 100.0 / gpu.capacity as f64
            } else {
                0.0
            };
            lines.push(Line::from(format!("  {part:<28} {}", bar(percent))));
        }
    }
    for gpu in pool
        .status
        .get()
        .and_then(|s| s.hardware_capacity.get())
        .into_iter()
        .flatten()
        .filter_map(|h| h.get())
        .flat_map(|h| h.gpu.get().into_iter().flatten().filter_map(|g| g.get()))
    {
        if let Some(mig) = gpu.mig.get() {
            let devices: Vec<String> = mig
                .layouts
                .get()
                .into_iter()
                .flatten()
                .filter_map(|l| l.get())
                .flat_map(|l| {
                    l.devices
                        .get()
                        .into_iter()
                        .flatten()
                        .filter_map(|d| d.get())
                        .map(|d| {
                            format!(
                                "{}× {} per GPU",
                                d.device_count_per_gpu.or_default(),
                                d.profile.as_deref().unwrap_or("?")
                            )
                        })
                })
                .collect();
            let state = mig.configuration_state.get().map_or(String::new(), |s| {
                format!(
                    "; nodes: {} ok, {} pending, {} rebooting, {} failed",
                    s.success.or_default(),
                    s.pending.or_default(),
                    s.rebooting.or_default(),
                    s.failed.or_default()
                )
            });
            lines.push(Line::from(format!(
                "  MIG {} ({}): {}{state}",
                mig.config.as_deref().unwrap_or("?"),
                mig.strategy.as_deref().unwrap_or("?"),
                devices.join(", ")
            )));
        }
    }
    let findings = derived.map(|d| d.findings.as_slice()).unwrap_or_default();
    let errors = findings
        .iter()
        .filter(|f| f.severity() == Severity::Error)
        .count();
    let warnings = findings
        .iter()
        .filter(|f| f.severity() == Severity::Warning)
        .count();
    lines.push(Line::from(""));
    if errors + warnings == 0 {
        lines.push(Line::from(Span::styled(
            "The spec passes every rule of the configuration reference.",
            theme.style(Meaning::Ok),
        )));
    } else {
        lines.push(Line::from(Span::styled(
            format!("The spec breaks rules: {errors} error(s), {warnings} warning(s)"),
            theme.style(if errors > 0 {
                Meaning::Error
            } else {
                Meaning::Warn
            }),
        )));
        for finding in findings
            .iter()
            .filter(|f| f.severity() > Severity::Info)
            .take(5)
        {
            lines.push(Line::from(format!(
                "  {}[{}] {}",
                finding.severity(),
                finding.rule.id,
                finding.message
            )));
        }
    }
    lines
}

fn conditions<'a>(pool: &'a ComputePool, theme: &Theme, now: DateTime<Utc>) -> Vec<Line<'a>> {
    let mut lines = Vec::new();
    let mut show = |scope: String, list: Vec<&crate::domain::model::status::Condition>| {
        lines.push(Line::from(Span::styled(
            scope,
            theme.style(Meaning::Accent),
        )));
        if list.is_empty() {
            lines.push(Line::from("  (none reported)"));
        }
        for c in list {
            let (mark, meaning) = if c.is_true() {
                ("✔", Meaning::Ok)
            } else if c.is_false() {
                ("✘", Meaning::Error)
            } else {
                ("?", Meaning::Warn)
            };
            let age = time(c.last_transition_time.as_deref())
                .map_or(String::new(), |t| format!(" ({} ago)", ago(t, now)));
            lines.push(Line::from(vec![
                Span::styled(format!("  {mark} {:<32}", c.kind()), theme.style(meaning)),
                Span::raw(format!("{}{age}", c.reason.as_deref().unwrap_or(""))),
            ]));
            if let Some(message) = c.message.as_deref().filter(|m| !m.is_empty()) {
                lines.push(Line::from(format!("      {message}")));
            }
            if !c.is_true()
                && let Some((_, _, why)) = CONDITION_TYPES.iter().find(|(kind, reason, _)| {
                    *kind == c.kind()
                        || (!reason.is_empty() && c.reason.as_deref() == Some(*reason))
                })
            {
                lines.push(Line::from(Span::styled(
                    format!("      → {why}"),
                    theme.style(Meaning::Info),
                )));
            }
        }
    };
    let status = pool.status.get();
    show(
        "Compute Pool".into(),
        status.map(|s| s.conditions().collect()).unwrap_or_default(),
    );
    for cluster in status.into_iter().flat_map(|s| s.clusters()) {
        let conditions: Vec<_> = cluster
            .conditions
            .get()
            .into_iter()
            .flatten()
            .filter_map(|c| c.get())
            .collect();
        show(
            format!("Palette cluster {}", cluster.name.as_deref().unwrap_or("?")),
            conditions,
        );
    }
    lines
}

/// A host Provisioning for longer than this is called out as stuck.
const STUCK_AFTER_MINUTES: i64 = 15;

fn hosts<'a>(app: &App, derived: Option<&DetailData>, theme: &Theme) -> Vec<Line<'a>> {
    let Some(table) = derived.map(|d| &d.hosts).filter(|t| !t.rows.is_empty()) else {
        return vec![Line::from("No hosts are allocated to this pool yet.")];
    };
    let column = |name: &str| table.headers.iter().position(|h| *h == name);
    let (status_column, since_column) = (column("STATUS"), column("SINCE"));
    // A host Provisioning since longer than the threshold is stuck.
    let status_of = |row: &Row| match status_column.and_then(|i| row.cells.get(i)) {
        Some(Cell::Status(status)) => Some(status.clone()),
        _ => None,
    };
    let stuck: Vec<bool> = table
        .rows
        .iter()
        .map(|row| {
            let provisioning = status_of(row) == Some(Status::Host(HostStatus::Provisioning));
            let since = match since_column.and_then(|i| row.cells.get(i)) {
                Some(Cell::Since(Some(t))) => Some(*t),
                _ => None,
            };
            provisioning
                && since.is_some_and(|t| (app.now - t).num_minutes() >= STUCK_AFTER_MINUTES)
        })
        .collect();
    let texts: Vec<Vec<String>> = table
        .rows
        .iter()
        .zip(&stuck)
        .map(|(row, stuck)| {
            let mut texts: Vec<String> = row
                .cells
                .iter()
                .skip(1)
                .map(|c| cells::text(c, app.now, cells::Form::Plain))
                .collect();
            if *stuck && let Some(last) = texts.last_mut() {
                last.push_str("  ← stuck in Provisioning");
            }
            texts
        })
        .collect();
    let text = cells::plain_table(&table.headers[1..], &texts, None);
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            let meaning = match i.checked_sub(1) {
                None => Meaning::Muted,
                Some(row) if stuck.get(row) == Some(&true) => Meaning::Error,
                Some(row) => table
                    .rows
                    .get(row)
                    .and_then(status_of)
                    .map_or(Meaning::Text, |s| cells::status(&s)),
            };
            Line::from(Span::styled(line.to_owned(), theme.style(meaning)))
        })
        .collect()
}

fn events<'a>(
    inventory: &Inventory,
    object: &Object,
    theme: &Theme,
    now: DateTime<Utc>,
) -> Vec<Line<'a>> {
    let mut list = inventory.events_for("ComputePool", object.namespace(), object.name());
    list.reverse();
    if list.is_empty() {
        return vec![Line::from("No events about this pool.")];
    }
    list.iter()
        .filter_map(|e| e.raw().cloned())
        .map(|e| {
            let text = |p: &str| {
                e.pointer(p)
                    .and_then(|v| v.as_str())
                    .unwrap_or("")
                    .to_owned()
            };
            let seen = crate::inventory::event_time(&e).map_or("-".into(), |t| ago(t, now));
            let kind = text("/type");
            let meaning = cells::status(&Status::Event {
                warning: kind == "Warning",
                word: kind.clone(),
            });
            Line::from(vec![
                Span::styled(
                    format!("{seen:>6}  {kind:<8} {:<24} ", text("/reason")),
                    theme.style(meaning),
                ),
                Span::raw(text("/message")),
            ])
        })
        .collect()
}
