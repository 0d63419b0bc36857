//! Rules on what a pool points at and how it ends: profileBundleRef, settingsRef,
//! scalingPolicyRef, deletionPolicy (and its deprecated nested twin); sharedWith is checked in
//! [`super::sharing`].

use crate::field::Field;
use crate::model::ComputePool;
use crate::model::pool::ObjectRef;
use crate::path::YamlPath;

use super::names::dns_subdomain;
use super::paths::{self, at};
use super::sharing::{
    SHARED_WITH_IGNORED, SHARED_WITH_NO_PROJECTS, SHARED_WITH_NOBODY, SHARED_WITH_SELECTOR,
    check_shared_with,
};
use super::{Basis, Finding, Rule, Severity};

const BUNDLE: &str = "ProfileBundle Reference";
const DELETION: &str = "Deletion Policy";
pub const BUNDLE_REQUIRED: Rule = Rule {
    id: "profile-bundle.required",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: BUNDLE,
    summary: "spec.profileBundleRef with name and namespace is required",
};
pub const BUNDLE_NAME: Rule = Rule {
    id: "profile-bundle.name",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: BUNDLE,
    summary: "profileBundleRef.name is a ProfileBundle name, optionally <name>@v<revision>",
};
pub const BUNDLE_NAMESPACE: Rule = Rule {
    id: "profile-bundle.namespace",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: BUNDLE,
    summary: "profileBundleRef.namespace must match the pool's (Project) namespace",
};
pub const CLOUD_TYPE: Rule = Rule {
    id: "profile-bundle.cloud-type",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: BUNDLE,
    summary: "profileBundleRef.cloudType is edge-native or maas",
};
pub const CLOUD_TYPE_MISMATCH: Rule = Rule {
    id: "cloud-type.mismatch",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: "Complete ComputePool Example",
    summary: "the deployment config's cloudType differs from the ProfileBundle's",
};
pub const REF_NAME: Rule = Rule {
    id: "reference.name",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: "Autoscaling Configuration",
    summary: "settingsRef and scalingPolicyRef need a valid name",
};
pub const DELETION_VALUE: Rule = Rule {
    id: "deletion-policy.value",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: DELETION,
    summary: "deletionPolicy is delete or orphan",
};
pub const DELETION_DEPRECATED: Rule = Rule {
    id: "deletion-policy.deprecated",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: DELETION,
    summary: "the nested paletteClusterDeploymentConfig.deletionPolicy is deprecated",
};
pub const DELETION_CONFLICT: Rule = Rule {
    id: "deletion-policy.conflict",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: DELETION,
    summary: "the top-level and deprecated nested deletionPolicy disagree",
};
pub const DELETION_ORPHAN: Rule = Rule {
    id: "deletion-policy.orphan",
    severity: Severity::Info,
    basis: Basis::Note,
    section: DELETION,
    summary: "orphan keeps the Palette cluster running, unmanaged, after the pool is deleted",
};
pub const RULES: &[&Rule] = &[
    &BUNDLE_REQUIRED,
    &BUNDLE_NAME,
    &BUNDLE_NAMESPACE,
    &CLOUD_TYPE,
    &CLOUD_TYPE_MISMATCH,
    &REF_NAME,
    &DELETION_VALUE,
    &DELETION_DEPRECATED,
    &DELETION_CONFLICT,
    &DELETION_ORPHAN,
    &SHARED_WITH_IGNORED,
    &SHARED_WITH_NOBODY,
    &SHARED_WITH_NO_PROJECTS,
    &SHARED_WITH_SELECTOR,
];

pub const CLOUD_TYPES: &[&str] = &["edge-native", "maas"];

pub fn check(pool: &ComputePool, out: &mut Vec<Finding>) {
    let Some(spec) = pool.spec() else { return };
    check_bundle(pool, out);
    check_deletion(pool, out);
    check_shared_with(pool, out);
    if let Some(settings) = pool.deployment_config().and_then(|c| c.settings_ref.get()) {
        check_ref_name(
            settings,
            at(paths::DEPLOYMENT).key("settingsRef"),
            "Settings",
            out,
        );
    }
    if let Some(variant) = spec.cluster_variant.get() {
        if let Some(r) = variant
            .dedicated
            .get()
            .and_then(|d| d.scaling_policy_ref.get())
        {
            check_ref_name(
                r,
                at(paths::DEDICATED).key("scalingPolicyRef"),
                "ScalingPolicy",
                out,
            );
        }
        if let Some(r) = variant
            .shared
            .get()
            .and_then(|s| s.scaling_policy_ref.get())
        {
            check_ref_name(
                r,
                at(paths::VARIANT).join("shared.scalingPolicyRef"),
                "ScalingPolicy",
                out,
            );
        }
    }
}

fn check_ref_name(r: &ObjectRef, path: YamlPath, kind: &str, out: &mut Vec<Finding>) {
    match r.name.as_deref() {
        None | Some("") => out.push(Finding::new(
            &REF_NAME,
            path.key("name"),
            format!("the {kind} reference has no name"),
        )),
        Some(name) => {
            if let Some(why) = dns_subdomain(name) {
                out.push(Finding::new(
                    &REF_NAME,
                    path.key("name"),
                    format!("{kind} name \"{name}\" {why}"),
                ));
            }
        }
    }
}

fn check_bundle(pool: &ComputePool, out: &mut Vec<Finding>) {
    let path = YamlPath::keys("spec.profileBundleRef");
    let Some(spec) = pool.spec() else { return };
    let bundle = match &spec.profile_bundle_ref {
        Field::Valid(bundle) => bundle,
        Field::Invalid(_) => return,
        Field::Missing | Field::Null => {
            out.push(Finding::new(
                &BUNDLE_REQUIRED,
                path,
                "spec.profileBundleRef is required: it names the ProfileBundle that defines the \
                 cluster's infrastructure stack",
            ));
            return;
        }
    };
    check_bundle_name(bundle.name.as_deref(), &path, out);
    match (bundle.namespace.as_deref(), pool.namespace()) {
        (None | Some(""), _) => out.push(Finding::new(
            &BUNDLE_REQUIRED,
            path.key("namespace"),
            "profileBundleRef.namespace is required (the Project namespace)",
        )),
        (Some(theirs), Some(ours)) if theirs != ours => out.push(Finding::new(
            &BUNDLE_NAMESPACE,
            path.key("namespace"),
            format!(
                "the ProfileBundle is referenced in namespace \"{theirs}\" but the pool is in \
                 \"{ours}\"; it must exist in the pool's own (Project) namespace"
            ),
        )),
        _ => {}
    }
    if let Some(cloud) = bundle.cloud_type.as_deref() {
        if !CLOUD_TYPES.contains(&cloud) {
            out.push(Finding::new(
                &CLOUD_TYPE,
                path.key("cloudType"),
                format!("cloudType \"{cloud}\" is not one of edge-native, maas"),
            ));
        }
        if let Some(deploy) = pool
            .deployment_config()
            .and_then(|c| c.cloud_type.as_deref())
            && deploy != cloud
        {
            out.push(Finding::new(
                &CLOUD_TYPE_MISMATCH,
                at(paths::DEPLOYMENT).key("cloudType"),
                format!(
                    "the deployment config says cloudType \"{deploy}\" but the ProfileBundle \
                         reference says \"{cloud}\"; they describe the same cluster"
                ),
            ));
        }
    }
}

/// The ProfileBundle's name: a DNS subdomain, with an optional `@v<revision>`.
fn check_bundle_name(name: Option<&str>, path: &YamlPath, out: &mut Vec<Finding>) {
    match name {
        None | Some("") => out.push(Finding::new(
            &BUNDLE_REQUIRED,
            path.key("name"),
            "profileBundleRef.name is required",
        )),
        Some(name) => {
            let (base, revision) = match name.split_once('@') {
                Some((base, revision)) => (base, Some(revision)),
                None => (name, None),
            };
            if let Some(why) = dns_subdomain(base) {
                out.push(Finding::new(
                    &BUNDLE_NAME,
                    path.key("name"),
                    format!("ProfileBundle name \"{base}\" {why}"),
                ));
            }
            if let Some(revision) = revision {
                let number = revision.strip_prefix('v').filter(|n| {
                    !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) && !n.starts_with('0')
                });
                if number.is_none() {
                    out.push(Finding::new(
                        &BUNDLE_NAME,
                        path.key("name"),
                        format!(
                            "revision \"@{revision}\" is not of the form @v<revision>, \
                             e.g. {base}@v3"
                        ),
                    ));
                }
            }
        }
    }
}

fn check_deletion(pool: &ComputePool, out: &mut Vec<Finding>) {
    let top = pool.spec().and_then(|s| s.deletion_policy.as_deref());
    let nested = pool
        .deployment_config()
        .and_then(|c| c.deletion_policy.as_deref());
    let top_path = YamlPath::keys("spec.deletionPolicy");
    let nested_path = at(paths::DEPLOYMENT).key("deletionPolicy");
    for (value, path) in [(top, &top_path), (nested, &nested_path)] {
        if let Some(value) = value.filter(|v| !matches!(*v, "delete" | "orphan")) {
            let hint = match value.to_ascii_lowercase().as_str() {
                "delete" | "orphan" => {
                    format!(" (values are lowercase: {})", value.to_ascii_lowercase())
                }
                _ => String::new(),
            };
            out.push(Finding::new(
                &DELETION_VALUE,
                path.clone(),
                format!("deletionPolicy \"{value}\" is not delete or orphan{hint}"),
            ));
        }
    }
    match (top, nested) {
        (Some(t), Some(n)) if t != n => out.push(Finding::new(
            &DELETION_CONFLICT,
            nested_path,
            format!(
                "spec.deletionPolicy is \"{t}\" but the deprecated nested field says \"{n}\"; \
                 what happens to the Palette cluster on deletion would be ambiguous. Remove the \
                 nested field"
            ),
        )),
        (_, Some(_)) => out.push(Finding::new(
            &DELETION_DEPRECATED,
            nested_path,
            "paletteClusterDeploymentConfig.deletionPolicy is deprecated; set spec.deletionPolicy \
             instead",
        )),
        _ => {}
    }
    if pool.deletion_policy() == "orphan" {
        out.push(Finding::new(
            &DELETION_ORPHAN,
            if top.is_some() {
                top_path
            } else {
                at(paths::DEPLOYMENT).key("deletionPolicy")
            },
            "orphan: deleting this pool leaves the Palette cluster running and its edge hosts \
             allocated, unmanaged by PaletteAI; AIWorkloads are still force-deleted. Clean up in \
             Palette by hand",
        ));
    }
}
