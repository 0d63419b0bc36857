//! A pool's Scaling tab: per worker pool, utilization with history, the decision in words,
//! the state machine with time left, actions, node wastes, metrics freshness and bounds.

use chrono::{DateTime, Utc};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use super::detail::{ago, bar, label, short, sparkline};

use crate::app::shown::WorkerScaling;
use crate::domain::duration;
use crate::domain::model::ComputePool;
use crate::domain::model::evaluation::{ComputePoolEvaluation, Deadline, Decision, split_pool_key};
use crate::inventory::{Inventory, Object, SeriesKey};
use crate::theme::{Meaning, Theme};

/// Metrics older than this are shown as stale.
const STALE_AFTER_SECONDS: i64 = 300;

pub(super) fn tab<'a>(
    inventory: &Inventory,
    derived: Option<&crate::app::shown::DetailData>,
    object: &Object,
    pool: &'a ComputePool,
    theme: &Theme,
    now: DateTime<Utc>,
) -> Vec<Line<'a>> {
    let Some(evaluation) = inventory.evaluation_for(object) else {
        let why = pool
            .status
            .get()
            .and_then(|s| {
                s.conditions()
                    .find(|c| c.kind() == "ComputePoolEvaluationAvailable")
            })
            .and_then(|c| c.message.as_deref().map(str::to_owned));
        let text = match (pool.scaling_policy_ref(), why) {
            (None, _) => "This pool references no ScalingPolicy, so it is not autoscaled.".to_owned(),
            (Some(_), Some(why)) => format!("No ComputePoolEvaluation yet: {why}"),
            (Some(_), None) => "No ComputePoolEvaluation yet: the Scaling Policy controller writes one once metrics for the pool's hosts arrive.".to_owned(),
        };
        return vec![Line::from(Span::styled(text, theme.style(Meaning::Muted)))];
    };
    scaling_lines(inventory, derived, object, evaluation, theme, now)
}

fn scaling_lines<'a>(
    inventory: &Inventory,
    derived: Option<&crate::app::shown::DetailData>,
    object: &Object,
    evaluation: &ComputePoolEvaluation,
    theme: &Theme,
    now: DateTime<Utc>,
) -> Vec<Line<'a>> {
    let mut lines = Vec::new();
    let Some(spec) = evaluation.spec.get() else {
        return lines;
    };
    let status = evaluation.status.get();
    for (key, entry) in spec.pool_evaluations.get().into_iter().flatten() {
        let Some(entry) = entry.get() else { continue };
        let (cluster, worker) = split_pool_key(key);
        // Parsed and sorted when the data changed, not per frame.
        let prepared = derived.and_then(|d| d.scaling.get(key.as_str()));
        lines.push(Line::from(Span::styled(
            format!("{worker}  (cluster {cluster})"),
            theme.style(Meaning::Accent).add_modifier(Modifier::BOLD),
        )));
        let history = |resource: &str| -> String {
            let series = SeriesKey {
                namespace: object.namespace().into(),
                pool: object.name().into(),
                worker_pool: key.clone(),
                resource: resource.into(),
            };
            let values: Vec<f64> = inventory
                .history(&series)
                .map(|s| {
                    s.iter()
                        .rev()
                        .take(30)
                        .map(|x| x.utilization)
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
                .into_iter()
                .rev()
                .collect();
            sparkline(&values)
        };
        let per_host_gpus = per_host_gpus(entry);
        let mut resource_line = |name: String,
                                 resource: &str,
                                 e: &crate::domain::model::evaluation::ResourceEvaluation,
                                 unit: &str| {
            lines.push(resource_line(
                &name,
                e,
                unit,
                per_host_gpus,
                history(resource),
                theme,
            ));
        };
        if let Some(cpu) = entry.cpu.get() {
            resource_line("CPU".into(), "cpu", cpu, "CPUs");
        }
        for (variant, gpu) in entry.gpu.get().into_iter().flatten() {
            if let Some(gpu) = gpu.get() {
                resource_line(short(variant), variant, gpu, "GPUs");
            }
        }
        if let Some(scaling) = evaluation.scaling_of(key) {
            state_lines(&scaling, prepared, derived, theme, now, &mut lines);
        }
        waste_lines(prepared, theme, &mut lines);
        let metrics_written = status
            .and_then(|s| s.metrics_last_observed_at.get())
            .and_then(|m| m.get(key))
            .is_some_and(|m| m.get().is_some());
        if metrics_written {
            lines.push(metrics_line(prepared, theme, now));
        }
        lines.push(Line::from(""));
    }
    lines.push(bounds_line(spec, theme));
    lines
}

/// How many GPUs a host of the worker pool has (from its first node waste), to say a
/// scale-up in hosts too.
fn per_host_gpus(entry: &crate::domain::model::evaluation::PoolEvaluation) -> i64 {
    entry
        .node_wastes
        .get()
        .into_iter()
        .flatten()
        .filter_map(|w| w.get())
        .next()
        .map_or(0, |w| {
            w.gpu_count.get().map_or(0i64, |m| {
                m.values()
                    .filter_map(|v| v.get())
                    .fold(0i64, |sum, n| sum.saturating_add(*n))
            })
        })
}

/// One resource's line: its utilization as a bar, its count and target, the decision (a
/// GPU scale-up in hosts too) and its recent history.
fn resource_line<'a>(
    name: &str,
    e: &crate::domain::model::evaluation::ResourceEvaluation,
    unit: &str,
    per_host_gpus: i64,
    history: String,
    theme: &Theme,
) -> Line<'a> {
    let u = e.utilization.get().map_or(0.0, |u| u.value());
    let decision = match e.decision() {
        Decision::ScaleUp(n) if unit == "GPUs" && per_host_gpus > 0 => format!(
            "scale up: +{n} {unit} ({})",
            crate::domain::words::counted(
                n.saturating_add(per_host_gpus - 1) / per_host_gpus,
                "host"
            )
        ),
        Decision::ScaleUp(n) => format!("scale up: +{n} {unit}"),
        Decision::ScaleDown(n) => format!("scale down: -{n} {unit}"),
        Decision::Hold => "hold".into(),
        Decision::Unknown => "-".into(),
    };
    let meaning = if u > 85.0 { Meaning::Warn } else { Meaning::Ok };
    Line::from(vec![
        Span::raw(format!("  {name:<20} ")),
        Span::styled(bar(u), theme.style(meaning)),
        Span::raw(format!(
            " {:>3}%  {} {} {}  ",
            u.round(),
            e.count.or_default(),
            theme.arrows("→"),
            e.target.or_default()
        )),
        Span::styled(
            decision,
            theme.style(if matches!(e.decision(), Decision::Hold) {
                Meaning::Muted
            } else {
                Meaning::Info
            }),
        ),
        Span::styled(format!("  {history}"), theme.style(Meaning::Muted)),
    ])
}

/// A worker pool's scaling state, with the time left to its deadline and its actions (each
/// host with what the pool's data says of it).
fn state_lines(
    scaling: &crate::domain::model::evaluation::Scaling<'_>,
    prepared: Option<&WorkerScaling>,
    derived: Option<&crate::app::shown::DetailData>,
    theme: &Theme,
    now: DateTime<Utc>,
    lines: &mut Vec<Line<'_>>,
) {
    let state = scaling.state;
    // The deadline was worked out when the data changed; only the time left is made
    // here.
    let left = |at: DateTime<Utc>| {
        duration::format(at.signed_duration_since(now).to_std().unwrap_or_default())
    };
    let countdown = match prepared.and_then(|p| p.deadline) {
        Some(Deadline::CooldownEnds(at)) => format!("  {} of cooldown left", left(at)),
        Some(Deadline::AbortAt(at)) => format!("  aborts in {} if not done", left(at)),
        None => String::new(),
    };
    lines.push(Line::from(vec![
        label(theme, "  State "),
        Span::styled(
            scaling.word.unwrap_or("-").to_owned(),
            theme.style(super::cells::scaling(&scaling.kind)),
        ),
        Span::raw(countdown),
    ]));
    if let Some(details) = state.details.as_deref() {
        lines.push(Line::from(format!("    {details}")));
    }
    for action in state
        .actions
        .get()
        .into_iter()
        .flatten()
        .filter_map(|a| a.get())
    {
        let host = action.host_uid.as_deref().unwrap_or("?");
        // Looked up when the pool's data was derived, not per frame.
        let host_status = derived
            .and_then(|d| d.action_hosts.get(host))
            .map_or("not in the pool yet", String::as_str);
        lines.push(Line::from(format!(
            "    {} {host}: {host_status}",
            action.type_.as_deref().unwrap_or("?")
        )));
    }
}

/// Node wastes, highest first: the next removal on scale-down marked.
fn waste_lines(prepared: Option<&WorkerScaling>, theme: &Theme, lines: &mut Vec<Line<'_>>) {
    let wastes = prepared.map_or(&[][..], |p| &p.wastes[..]);
    if !wastes.is_empty() {
        lines.push(Line::from(label(
            theme,
            "  Node wastes (highest is removed first)",
        )));
        for (i, (host, score)) in wastes.iter().enumerate() {
            let mark = if i == 0 {
                theme.arrows("  ← next removal on scale-down")
            } else {
                "".into()
            };
            lines.push(Line::from(format!("    {host:<14} {score:>8}{mark}")));
        }
    }
}

/// When each host's metrics were last seen; one seen too long ago is STALE.
fn metrics_line<'a>(
    prepared: Option<&WorkerScaling>,
    theme: &Theme,
    now: DateTime<Utc>,
) -> Line<'a> {
    let mut spans = vec![label(theme, "  Metrics ")];
    for (host, at) in prepared.map_or(&[][..], |p| &p.observed[..]) {
        let at = *at;
        let stale = (now - at).num_seconds() > STALE_AFTER_SECONDS;
        let text = format!(
            "{host} {} ago{}  ",
            ago(at, now),
            if stale { " STALE" } else { "" }
        );
        spans.push(Span::styled(
            text,
            theme.style(if stale {
                Meaning::Error
            } else {
                Meaning::Muted
            }),
        ));
    }
    Line::from(spans)
}

/// The evaluation's bounds: CPUs and GPUs per variant, cooldown and abort.
fn bounds_line<'a>(
    spec: &crate::domain::model::evaluation::EvaluationSpec,
    theme: &Theme,
) -> Line<'a> {
    let cpu_bounds = spec.cpu_resource_bounds.get().map(|b| {
        format!(
            "CPU {}–{}",
            b.min_cpu_count.or_default(),
            b.max_cpu_count.or_default()
        )
    });
    let gpu_bounds: Vec<String> = spec
        .gpu_resource_bounds
        .get()
        .into_iter()
        .flatten()
        .filter_map(|b| b.get())
        .map(|b| {
            format!(
                "{} {}–{}",
                b.variant.as_deref().map(short).unwrap_or_default(),
                b.min_gpu_count.or_default(),
                b.max_gpu_count.or_default()
            )
        })
        .collect();
    let mut bounds: Vec<String> = cpu_bounds.into_iter().chain(gpu_bounds).collect();
    if let Some(c) = spec.cooldown_duration.as_deref() {
        bounds.push(format!("cooldown {c}"));
    }
    if let Some(a) = spec.abort_duration.as_deref() {
        bounds.push(format!("abort {a}"));
    }
    Line::from(vec![label(theme, "Bounds "), Span::raw(bounds.join(", "))])
}
