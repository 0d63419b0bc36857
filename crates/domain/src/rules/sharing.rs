//! System-level sharing: which tenants and projects a pool in the system namespace is shared with.

use crate::field::Field;
use crate::model::ComputePool;
use crate::model::pool::SYSTEM_NAMESPACE;
use crate::path::YamlPath;

use super::{Basis, Finding, Rule, Severity};

const SHARING: &str = "System-Level Sharing";

pub const SHARED_WITH_IGNORED: Rule = Rule {
    id: "shared-with.ignored",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: SHARING,
    summary: "sharedWith is read only for pools in pai-system",
};

pub const SHARED_WITH_NOBODY: Rule = Rule {
    id: "shared-with.nobody",
    severity: Severity::Info,
    basis: Basis::Note,
    section: SHARING,
    summary: "an empty sharedWith map shares the pool with no Tenant",
};

pub const SHARED_WITH_NO_PROJECTS: Rule = Rule {
    id: "shared-with.no-projects",
    severity: Severity::Info,
    basis: Basis::Note,
    section: SHARING,
    summary: "a Tenant with a null or empty list sees the pool, but none of its Projects may use it",
};

pub const SHARED_WITH_SELECTOR: Rule = Rule {
    id: "shared-with.selector",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: SHARING,
    summary: "sharedWith selectors are names with optional * globs and a leading ! to deny",
};

pub(super) fn check_shared_with(pool: &ComputePool, out: &mut Vec<Finding>) {
    let Some(spec) = pool.spec() else { return };
    let Some(shared) = spec.shared_with.get() else {
        return;
    };
    let path = YamlPath::keys("spec.sharedWith");
    if pool.namespace().is_some_and(|ns| ns != SYSTEM_NAMESPACE) {
        out.push(Finding::new(
            &SHARED_WITH_IGNORED,
            path,
            format!(
                "sharedWith is ignored outside {SYSTEM_NAMESPACE}; this pool is in \"{}\"",
                pool.namespace().unwrap_or_default()
            ),
        ));
        return;
    }
    if shared.is_empty() {
        out.push(Finding::new(
            &SHARED_WITH_NOBODY,
            path,
            "sharedWith is an empty map: no Tenant can view or clone this pool (remove the field \
             to share with all)",
        ));
        return;
    }
    for (tenant, projects) in shared {
        let tenant_path = path.key(tenant);
        if let Some(why) = selector_problem(tenant) {
            out.push(Finding::new(
                &SHARED_WITH_SELECTOR,
                tenant_path.clone(),
                format!("Tenant selector \"{tenant}\" {why}"),
            ));
        }
        match projects {
            Field::Missing | Field::Null => out.push(no_projects(tenant, tenant_path)),
            Field::Valid(list) if list.is_empty() => out.push(no_projects(tenant, tenant_path)),
            Field::Valid(list) => {
                for (i, project) in list.iter().enumerate() {
                    if let Some(why) = project.as_deref().and_then(selector_problem) {
                        out.push(Finding::new(
                            &SHARED_WITH_SELECTOR,
                            tenant_path.index(i),
                            format!("Project selector {why}"),
                        ));
                    }
                }
            }
            Field::Invalid(_) => {}
        }
    }
}

fn no_projects(tenant: &str, path: YamlPath) -> Finding {
    Finding::new(
        &SHARED_WITH_NO_PROJECTS,
        path,
        format!("Tenant selector \"{tenant}\" sees the pool, but none of its Projects may use it"),
    )
}

fn selector_problem(selector: &str) -> Option<String> {
    let body = selector.strip_prefix('!').unwrap_or(selector);
    if body.is_empty() {
        return Some("is empty".into());
    }
    body.chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_' | '*')))
        .map(|c| format!("contains '{c}' (names, * globs and a leading ! only)"))
}
