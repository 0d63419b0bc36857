//! A pool's Overview tab: status, mode, endpoint, node pools, GPUs used and capacity, MIG,
//! and the reference's rules checked against the watched fleet.

use ratatui::text::{Line, Span};

use super::cells;
use super::detail::{bar, label, short};
use crate::app::rows::{Cell, Status};
use crate::app::shown::DetailData;
use crate::domain::model::ComputePool;
use crate::domain::model::vocabulary::PoolPhase;
use crate::domain::rules::Severity;
use crate::theme::{Meaning, Theme};

pub(super) fn overview<'a>(
    derived: Option<&DetailData>,
    pool: &'a ComputePool,
    theme: &Theme,
) -> Vec<Line<'a>> {
    let mut lines = Vec::new();
    state_lines(pool, theme, &mut lines);
    shape_lines(pool, theme, &mut lines);
    gpu_lines(derived, pool, theme, &mut lines);
    rule_lines(derived, theme, &mut lines);
    lines
}

/// Its status, health, pause and deletion policy; its description; its mode, bundle and
/// endpoint.
fn state_lines<'a>(pool: &'a ComputePool, theme: &Theme, lines: &mut Vec<Line<'a>>) {
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
}

/// Its control plane and worker pools.
fn shape_lines<'a>(pool: &'a ComputePool, theme: &Theme, lines: &mut Vec<Line<'a>>) {
    if let Some(cp) = pool.control_plane() {
        lines.push(Line::from(vec![
            label(theme, "Control plane "),
            Span::raw(format!(
                "{}, {}, {} CPUs{}{}",
                crate::domain::words::counted(
                    cp.node_count.get().map_or("?".into(), |n| n.to_string()),
                    "node"
                ),
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
                    .map_or(String::new(), |n| format!(
                        "  min {}",
                        crate::domain::words::counted(n, "node")
                    ))
            )),
        ]));
    }
}

/// The GPUs used of capacity per model, and each GPU's MIG layout and its nodes' state.
fn gpu_lines<'a>(
    derived: Option<&DetailData>,
    pool: &'a ComputePool,
    theme: &Theme,
    lines: &mut Vec<Line<'a>>,
) {
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
}

/// Whether the spec passes the configuration reference's rules, and the first five it breaks.
fn rule_lines(derived: Option<&DetailData>, theme: &Theme, lines: &mut Vec<Line<'_>>) {
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
            format!(
                "The spec breaks rules: {}, {}",
                crate::domain::words::counted(errors, "error"),
                crate::domain::words::counted(warnings, "warning")
            ),
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
}
