//! Resource groups: the machine labels a pool's hosts are selected by, written as the configuration reference says.

use crate::field::Field;
use crate::model::ComputePool;
use crate::model::meta::StringMap;
use crate::model::pool::RESOURCE_GROUP_PREFIX;

use super::names::{label_value, qualified_key};
use super::paths::{self, at};
use super::{Basis, Finding, Rule, Severity};

const GROUPS: &str = "Resource Groups";

pub const GROUP_PREFIX: Rule = Rule {
    id: "resource-groups.prefix",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: GROUPS,
    summary: "resource-group keys are written without the palette.ai.rg/ machine-label prefix",
};

pub const GROUP_SYNTAX: Rule = Rule {
    id: "resource-groups.syntax",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: GROUPS,
    summary: "resource-group keys and values must be valid machine label keys and values",
};

pub const GROUP_SINGLE_NODE: Rule = Rule {
    id: "resource-groups.single-node",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: GROUPS,
    summary: "single-node pools select hosts with controlPlaneResourceGroups; workerResourceGroups is not used",
};

pub(super) fn check_resource_groups(
    pool: &ComputePool,
    groups: &Field<StringMap>,
    name: &str,
    out: &mut Vec<Finding>,
) {
    let Some(groups) = groups.get() else { return };
    let path = at(paths::VARIANT).key(name);
    if name == "workerResourceGroups" && !groups.is_empty() && pool.is_single_node() {
        out.push(Finding::new(
            &GROUP_SINGLE_NODE,
            path.clone(),
            "single-node pools select their host with controlPlaneResourceGroups; these worker \
             resource groups are not used",
        ));
    }
    for (key, value) in groups {
        if let Some(bare) = key.strip_prefix(RESOURCE_GROUP_PREFIX) {
            out.push(Finding::new(
                &GROUP_PREFIX,
                path.key(key),
                format!(
                    "write the key as \"{bare}\": machines tagged {RESOURCE_GROUP_PREFIX}{bare} match \
                     a pool key of \"{bare}\", so this key would match no machine and the pool \
                     would stay Provisioning"
                ),
            ));
            continue;
        }
        if let Some(why) = qualified_key(key) {
            out.push(Finding::new(
                &GROUP_SYNTAX,
                path.key(key),
                format!("resource group key \"{key}\" {why}"),
            ));
        }
        if let Some(why) = value.as_deref().and_then(label_value) {
            out.push(Finding::new(
                &GROUP_SYNTAX,
                path.key(key),
                format!("resource group \"{key}\": {why}"),
            ));
        }
    }
}
