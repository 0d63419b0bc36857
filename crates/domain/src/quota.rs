//! GPU quota as the hub enforces it for a Project: its own limit per GPU variant, the Tenant's
//! `projectLimits` for it, and the Tenant's aggregate limit less its reservations, each less
//! what is in use. A draft that asks for more GPUs of a variant than the lowest of these caps
//! leaves gets an error naming that cap (the API accepts the object, but the product enforces
//! the quota when the pool is placed, so the pool cannot get those GPUs); one that leaves
//! less than a tenth of a cap gets a warning. An edit is checked for its increase over what
//! the pool has now.

use super::json::At;
use serde_json::Value;

use super::path::YamlPath;
use super::rules::{Basis, Finding, Rule, Severity};

pub const OVER_QUOTA: Rule = Rule {
    id: "quota.gpu",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: "Status Reference",
    summary: "the pool asks for more GPUs of a variant than the Project's lowest cap leaves",
};
pub const NEAR_QUOTA: Rule = Rule {
    id: "quota.gpu.near",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: "Status Reference",
    summary: "the pool's GPUs leave less than a tenth of the Project's lowest cap",
};

/// Both quota rules, for `--list-rules`.
pub const RULES: &[&Rule] = &[&OVER_QUOTA, &NEAR_QUOTA];

fn count(map: Option<&Value>, variant: &str) -> Option<i64> {
    map?.get(variant)?.as_i64()
}

/// Each cap on a variant for a Project, with what it leaves: (its name, limit, left).
pub fn caps(project: &Value, tenant: Option<&Value>, variant: &str) -> Vec<(String, i64, i64)> {
    let used = count(project.at("/status/gpuUsage"), variant).unwrap_or(0);
    let name = project
        .at("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    let mut out = Vec::new();
    if let Some(limit) = count(project.at("/spec/gpuResources/limits"), variant) {
        out.push((
            format!("Project {name}'s limit"),
            limit,
            limit.saturating_sub(used),
        ));
    }
    if let Some(tenant) = tenant {
        let tenant_name = tenant
            .at("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("");
        let project_limits = tenant
            .at("/spec/gpuResources/projectLimits")
            .and_then(|l| l.get(name));
        if let Some(limit) = count(project_limits, variant) {
            out.push((
                format!("Tenant {tenant_name}'s projectLimits for {name}"),
                limit,
                limit.saturating_sub(used),
            ));
        }
        if let Some(limit) = count(tenant.at("/spec/gpuResources/limits"), variant) {
            let reserved =
                count(tenant.at("/spec/gpuResources/tenantReservations"), variant).unwrap_or(0);
            let in_use = count(tenant.at("/status/gpuUsage"), variant).unwrap_or(0);
            out.push((
                format!("Tenant {tenant_name}'s limit less its reservations"),
                limit.saturating_sub(reserved),
                limit.saturating_sub(reserved).saturating_sub(in_use),
            ));
        }
    }
    out
}

/// Findings for the GPUs a pool's worker pools ask for (for an edit: the increase over what
/// it has), per variant, against the lowest cap: past it an error, within a tenth of it a
/// warning. `asked` lists (variant, GPUs, the path of the first worker pool asking for it);
/// `edit` says the counts are increases.
pub fn check(
    asked: &[(String, i64, YamlPath)],
    project: &Value,
    tenant: Option<&Value>,
    edit: bool,
) -> Vec<Finding> {
    let mut out = Vec::new();
    for (variant, gpus, path) in asked.iter().filter(|(_, gpus, _)| *gpus > 0) {
        let lowest = caps(project, tenant, variant)
            .into_iter()
            .min_by_key(|(_, _, left)| *left);
        let Some((cap, limit, left)) = lowest else {
            continue;
        };
        let what = crate::words::counted(gpus, &format!("{variant} GPU"));
        let asks = if edit {
            format!("asks for {what} more than the pool has now")
        } else {
            format!("asks for {what}")
        };
        if *gpus > left {
            out.push(Finding::new(
                &OVER_QUOTA,
                path.clone(),
                format!(
                    "{asks}; the lowest cap is {cap}: {left} of {limit} left, so the pool cannot get them"
                ),
            ));
        } else if left.saturating_sub(*gpus).saturating_mul(10) < limit {
            out.push(Finding::new(
                &NEAR_QUOTA,
                path.clone(),
                format!(
                    "{asks}; that leaves {} of {limit} under the lowest cap, {cap}",
                    left.saturating_sub(*gpus)
                ),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_lowest_cap_is_named() {
        let project = json!({"metadata": {"name": "ml"},
            "spec": {"gpuResources": {"limits": {"A100": 20}}},
            "status": {"gpuUsage": {"A100": 12}}});
        let tenant = json!({"metadata": {"name": "acme"},
            "spec": {"gpuResources": {"limits": {"A100": 32}, "projectLimits": {"ml": {"A100": 16}},
                                      "tenantReservations": {"A100": 4}}},
            "status": {"gpuUsage": {"A100": 24}}});
        let at = YamlPath::keys("spec.x");
        // Project: 8 left; projectLimits: 4 left; aggregate: 32-4-24 = 4 left (same).
        let found = check(
            &[("A100".into(), 6, at.clone())],
            &project,
            Some(&tenant),
            false,
        );
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].rule.severity, Severity::Error);
        assert!(
            found[0].message.contains("4 of 16 left") || found[0].message.contains("4 of 28 left"),
            "{}",
            found[0].message
        );
        // Exactly what is left: allowed, but close to the cap.
        let near = check(
            &[("A100".into(), 4, at.clone())],
            &project,
            Some(&tenant),
            false,
        );
        assert_eq!(near.len(), 1);
        assert_eq!(near[0].rule.id, "quota.gpu.near");
        assert!(
            near[0].message.contains("leaves 0 of"),
            "{}",
            near[0].message
        );
        // Far from every cap: nothing to say; a decrease on edit: nothing either.
        assert!(
            check(
                &[("A100".into(), 1, at.clone())],
                &project,
                Some(&tenant),
                false
            )
            .is_empty()
        );
        assert!(
            check(
                &[("A100".into(), -4, at.clone())],
                &project,
                Some(&tenant),
                true
            )
            .is_empty()
        );
        let more = check(&[("A100".into(), 5, at)], &project, Some(&tenant), true);
        assert!(
            more[0].message.contains("more than the pool has now"),
            "{}",
            more[0].message
        );
    }
}
