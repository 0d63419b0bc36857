//! A pool that is up but not well, in the configuration reference's status vocabulary
//! (`Unhealthy`: the cluster has health issues; `Unknown`: its health cannot be determined;
//! `Maintenance Mode`), with what explains it: a False condition, read with the guide's
//! meanings, and hosts of its machine pools that are Unhealthy or Failed.

use super::*;

pub(super) fn health(pool: &Pool, out: &mut Vec<Diagnosis>) {
    let phase = status(pool);
    // A pool being deleted is the deletion's business; Provisioning and Failed pools have
    // their conditions read as the provisioning symptom.
    if phase == "Deleting" {
        return;
    }
    let before = out.len();
    if !matches!(phase, "Provisioning" | "Failed") {
        for (i, c) in conditions(pool.model) {
            if !c.is_false() {
                continue;
            }
            out.push(condition_finding(
                "health.condition",
                HEALTH,
                pool.model,
                i,
                c,
                false,
                &format!("{phase}: "),
                vec![pool.describe(), pool.clusters_command()],
            ));
        }
    }
    sick_hosts(pool, out);
    let explained = out.len() > before;
    state(pool, phase, explained, out);
}

/// Hosts of the pool's machine pools that are Failed (an error) or Unhealthy (a warning).
fn sick_hosts(pool: &Pool, out: &mut Vec<Diagnosis>) {
    for (i, cluster) in clusters(pool.model) {
        let pools = cluster
            .allocated_machine_pools
            .get()
            .into_iter()
            .flatten()
            .enumerate()
            .filter_map(|(j, m)| m.get().map(|m| (j, m)));
        for (j, machine_pool) in pools {
            let pool_name = machine_pool.name.as_deref().unwrap_or("?");
            for (host, details) in machine_pool.hosts() {
                let state = details.status.as_deref().unwrap_or("");
                let severity = match state {
                    "Failed" => Severity::Error,
                    "Unhealthy" => Severity::Warning,
                    _ => continue,
                };
                let base = format!(
                    "status.paletteClusterStatuses[{i}].allocatedMachinePools[{j}].hosts{}",
                    crate::path::bracketed(host)
                );
                let mut evidence = vec![(format!("{base}.status"), state.to_owned())];
                if let Some(since) = details.status_updated_at.as_deref() {
                    evidence.push((format!("{base}.statusUpdatedAt"), since.to_owned()));
                }
                out.push(Diagnosis {
                    id: "health.host",
                    fix: None,
                    severity,
                    symptom: HEALTH,
                    summary: format!("host {host} in machine pool {pool_name} is {state}"),
                    evidence,
                    cause: condition_meaning("MachinePoolsReady").into(),
                    next: vec![pool.clusters_command()],
                });
            }
        }
    }
}

/// The pool's own word for its health (`Unknown`; `Unhealthy` with nothing found that
/// explains it) and a cluster in Maintenance Mode.
fn state(pool: &Pool, phase: &str, explained: bool, out: &mut Vec<Diagnosis>) {
    let health: Vec<(usize, &str)> = clusters(pool.model)
        .filter_map(|(i, c)| Some((i, c.health.as_deref()?)))
        .collect();
    let evidence = || {
        let mut evidence = vec![("status.status".to_owned(), phase.to_owned())];
        evidence.extend(health.iter().map(|(i, h)| {
            (
                format!("status.paletteClusterStatuses[{i}].health"),
                (*h).to_owned(),
            )
        }));
        evidence
    };
    match phase {
        "Unknown" => out.push(Diagnosis {
            id: "health.unknown",
            fix: None,
            severity: Severity::Warning,
            symptom: HEALTH,
            summary: "Unknown: the cluster's health cannot be determined".into(),
            evidence: evidence(),
            cause: "Spoke connectivity or the managed cluster's availability cannot be verified."
                .into(),
            next: vec![pool.describe(), pool.clusters_command()],
        }),
        "Unhealthy" if !explained => out.push(Diagnosis {
            id: "health.unhealthy",
            fix: None,
            severity: Severity::Warning,
            symptom: HEALTH,
            summary: "Unhealthy: the cluster has health issues; no condition or host says which"
                .into(),
            evidence: evidence(),
            cause: "The Palette cluster reports health issues.".into(),
            next: vec![pool.describe(), pool.clusters_command()],
        }),
        _ => {}
    }
    if health.iter().any(|(_, h)| *h == "Maintenance Mode") {
        out.push(Diagnosis {
            id: "health.maintenance",
            fix: None,
            severity: Severity::Info,
            symptom: HEALTH,
            summary: "the cluster is in maintenance mode".into(),
            evidence: evidence(),
            cause: "A Palette cluster in Maintenance Mode is being maintained on purpose.".into(),
            next: vec![pool.clusters_command()],
        });
    }
}
