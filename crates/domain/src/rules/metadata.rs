//! Rules on metadata: the pool's name, namespace, labels and annotations, the pause label and
//! the description annotation.

use crate::field::Field;
use crate::model::ComputePool;
use crate::model::meta::StringMap;
use crate::model::pool::{DESCRIPTION_ANNOTATION, LEGACY_DESCRIPTION_ANNOTATION, PAUSE_LABEL};
use crate::path::YamlPath;

use super::names::{dns_subdomain, label_value, qualified_key, ui_pool_name};
use super::{Basis, Context, Finding, Rule, Severity};

const MAPPING: &str = "UI Field to YAML Mapping";

pub const NAME_REQUIRED: Rule = Rule {
    id: "metadata.name.required",
    severity: Severity::Error,
    basis: Basis::Refused,
    section: MAPPING,
    summary: "metadata.name is required",
};
pub const NAME_FORMAT: Rule = Rule {
    id: "metadata.name.format",
    severity: Severity::Error,
    basis: Basis::Refused,
    section: MAPPING,
    summary: "metadata.name must be a DNS-1123 subdomain (the API refuses other names)",
};
pub const NAME_UI: Rule = Rule {
    id: "metadata.name.ui",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: MAPPING,
    summary: "the product UI takes 3-33 lowercase letters, digits and hyphens, starting with a letter",
};
pub const NAME_UNIQUE: Rule = Rule {
    id: "metadata.name.unique",
    severity: Severity::Error,
    basis: Basis::Refused,
    section: MAPPING,
    summary: "a new pool's name must be unique in its namespace",
};
pub const NAMESPACE_MISSING: Rule = Rule {
    id: "metadata.namespace.missing",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: "Complete ComputePool Example",
    summary: "without metadata.namespace the pool lands in whatever namespace kubectl uses",
};
pub const NAMESPACE_FORMAT: Rule = Rule {
    id: "metadata.namespace.format",
    severity: Severity::Error,
    basis: Basis::Refused,
    section: "Complete ComputePool Example",
    summary: "metadata.namespace is a DNS-1123 label (the API refuses other names)",
};
pub const ANNOTATIONS_SIZE: Rule = Rule {
    id: "metadata.annotations.size",
    severity: Severity::Error,
    basis: Basis::Refused,
    section: "UI Field to YAML Mapping",
    summary: "a pool's annotations (the description among them) total at most 256 KiB",
};
/// What the API server allows annotations in total, keys and values (256 KiB).
pub const ANNOTATIONS_MOST: usize = 256 * 1024;
pub const LABEL_SYNTAX: Rule = Rule {
    id: "metadata.labels.syntax",
    severity: Severity::Error,
    basis: Basis::Refused,
    section: "Operational Labels",
    summary: "label keys and values must follow Kubernetes label syntax",
};
pub const ANNOTATION_SYNTAX: Rule = Rule {
    id: "metadata.annotations.syntax",
    severity: Severity::Error,
    basis: Basis::Refused,
    section: MAPPING,
    summary: "annotation keys must follow Kubernetes key syntax",
};
pub const PAUSE_NOT_TRUE: Rule = Rule {
    id: "pause.not-true",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: "Pause Label",
    summary: "the pause label pauses only when its value is exactly \"true\"",
};
pub const PAUSED: Rule = Rule {
    id: "pause.active",
    severity: Severity::Info,
    basis: Basis::Note,
    section: "Pause Label",
    summary: "the pool is paused: the controller skips reconciliation (deletion still proceeds)",
};
pub const DESCRIPTION_LEGACY: Rule = Rule {
    id: "description.legacy",
    severity: Severity::Info,
    basis: Basis::Note,
    section: MAPPING,
    summary: "palette-ai/description is the legacy description key, read only as a fallback",
};
pub const DESCRIPTION_CONFLICT: Rule = Rule {
    id: "description.conflict",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: MAPPING,
    summary: "both description annotations are set and differ; the canonical one wins",
};
pub const DESCRIPTION_PLAIN: Rule = Rule {
    id: "description.plain-key",
    severity: Severity::Info,
    basis: Basis::Note,
    section: MAPPING,
    summary: "an annotation named `description` is not the pool description the UI shows",
};

pub const RULES: &[&Rule] = &[
    &NAME_REQUIRED,
    &NAME_FORMAT,
    &NAME_UI,
    &NAME_UNIQUE,
    &NAMESPACE_MISSING,
    &NAMESPACE_FORMAT,
    &LABEL_SYNTAX,
    &ANNOTATION_SYNTAX,
    &ANNOTATIONS_SIZE,
    &PAUSE_NOT_TRUE,
    &PAUSED,
    &DESCRIPTION_LEGACY,
    &DESCRIPTION_CONFLICT,
    &DESCRIPTION_PLAIN,
];

pub fn check(pool: &ComputePool, context: &Context, out: &mut Vec<Finding>) {
    let Some(meta) = pool.meta() else {
        out.push(Finding::new(
            &NAME_REQUIRED,
            YamlPath::keys("metadata"),
            "metadata with a name is required",
        ));
        return;
    };
    // Built only for a finding: the console checks every pool of a fleet.
    let name_path = || YamlPath::keys("metadata.name");
    match meta.name.as_deref() {
        None | Some("") if meta.generate_name.is_present() => {}
        None | Some("") => out.push(Finding::new(
            &NAME_REQUIRED,
            name_path(),
            "metadata.name is required",
        )),
        Some(name) => {
            if let Some(why) = dns_subdomain(name) {
                out.push(Finding::new(
                    &NAME_FORMAT,
                    name_path(),
                    format!("name \"{name}\" {why}; the API refuses it"),
                ));
            } else if let Some(why) = ui_pool_name(name) {
                out.push(Finding::new(
                    &NAME_UI,
                    name_path(),
                    format!(
                        "name \"{name}\" {why}; the API accepts it, but the PaletteAI UI could not create or clone it"
                    ),
                ));
            }
            out.extend(name_unique(pool, context));
        }
    }
    match meta.namespace() {
        None | Some("") => out.push(Finding::new(
            &NAMESPACE_MISSING,
            YamlPath::keys("metadata"),
            "metadata.namespace is not set: the pool would land in kubectl's current namespace, \
             which must be the Project's namespace",
        )),
        Some(namespace) => {
            if let Some(problem) = super::names::namespace_problem(namespace) {
                out.push(Finding::new(
                    &NAMESPACE_FORMAT,
                    YamlPath::keys("metadata.namespace"),
                    problem,
                ));
            }
        }
    }
    let annotated: usize = meta
        .annotations
        .get()
        .into_iter()
        .flatten()
        .map(|(k, v)| k.len().saturating_add(v.get().map_or(0, |v| v.len())))
        .sum();
    if annotated > ANNOTATIONS_MOST {
        out.push(Finding::new(
            &ANNOTATIONS_SIZE,
            YamlPath::keys("metadata.annotations"),
            format!(
                "the annotations total {} KiB; the API refuses more than 256 KiB (a description \
                 is one of them: keep it short)",
                annotated.div_ceil(1024)
            ),
        ));
    }
    check_labels(&meta.labels, &YamlPath::keys("metadata.labels"), out);
    check_annotations(
        &meta.annotations,
        &YamlPath::keys("metadata.annotations"),
        out,
    );
    check_pause(pool, out);
    check_description(pool, out);
}

/// A rule across pools: a new pool's name (present, not empty) is taken by another pool in
/// its namespace.
pub(super) fn name_unique(pool: &ComputePool, context: &Context) -> Option<Finding> {
    let named = pool.meta()?.name.as_deref().is_some_and(|n| !n.is_empty());
    if !named || context.is_update() {
        return None;
    }
    let other = context.same_name(pool).next()?;
    Some(Finding::new(
        &NAME_UNIQUE,
        YamlPath::keys("metadata.name"),
        format!(
            "a ComputePool {} already exists; applying this would change it. Pick another \
             name, or validate as an update with --old",
            other.key()
        ),
    ))
}

/// Label syntax for any label map (metadata, control plane and worker pool labels).
pub fn check_labels(labels: &Field<StringMap>, path: &YamlPath, out: &mut Vec<Finding>) {
    for (key, value) in labels.get().into_iter().flatten() {
        if let Some(why) = qualified_key(key) {
            out.push(Finding::new(
                &LABEL_SYNTAX,
                path.key(key),
                format!("label key \"{key}\" {why}"),
            ));
        }
        if let Some(why) = value.as_deref().and_then(label_value) {
            out.push(Finding::new(
                &LABEL_SYNTAX,
                path.key(key),
                format!("label \"{key}\": {why}"),
            ));
        }
    }
}

pub fn check_annotations(annotations: &Field<StringMap>, path: &YamlPath, out: &mut Vec<Finding>) {
    for key in annotations.get().into_iter().flatten().map(|(k, _)| k) {
        if let Some(why) = qualified_key(key) {
            out.push(Finding::new(
                &ANNOTATION_SYNTAX,
                path.key(key),
                format!("annotation key \"{key}\" {why}"),
            ));
        }
    }
}

fn check_pause(pool: &ComputePool, out: &mut Vec<Finding>) {
    let Some(labels) = pool.meta().and_then(|m| m.labels.get()) else {
        return;
    };
    let Some(value) = labels.get(PAUSE_LABEL) else {
        return;
    };
    let path = YamlPath::keys("metadata.labels").key(PAUSE_LABEL);
    match value {
        Field::Valid(v) if v == "true" => out.push(Finding::new(
            &PAUSED,
            path,
            "reconciliation is paused: the controller will not act on this pool until the label \
             is removed; deletion still proceeds",
        )),
        Field::Valid(v) => out.push(Finding::new(
            &PAUSE_NOT_TRUE,
            path,
            format!(
                "the pause label is \"{v}\", which does NOT pause the pool: only exactly \"true\" \
                 pauses reconciliation"
            ),
        )),
        // A non-string value is already a type error; say what it means for pausing too.
        Field::Invalid(invalid) => out.push(Finding::new(
            &PAUSE_NOT_TRUE,
            path,
            format!(
                "the pause label is the unquoted {} {} (YAML reads unquoted true, yes and on \
                 as booleans); label values are strings: write 'true' in quotes to pause",
                if invalid.raw.is_boolean() {
                    "boolean"
                } else {
                    "value"
                },
                invalid.raw
            ),
        )),
        Field::Missing | Field::Null => {}
    }
}

fn check_description(pool: &ComputePool, out: &mut Vec<Finding>) {
    let Some(meta) = pool.meta() else { return };
    let path = YamlPath::keys("metadata.annotations");
    let canonical = meta.annotation(DESCRIPTION_ANNOTATION);
    let legacy = meta.annotation(LEGACY_DESCRIPTION_ANNOTATION);
    match (canonical, legacy) {
        (None, Some(_)) => out.push(Finding::new(
            &DESCRIPTION_LEGACY,
            path.key(LEGACY_DESCRIPTION_ANNOTATION),
            format!(
                "{LEGACY_DESCRIPTION_ANNOTATION} is the legacy key, read only as a fallback; \
                 write the description under {DESCRIPTION_ANNOTATION}"
            ),
        )),
        (Some(c), Some(l)) if c != l => out.push(Finding::new(
            &DESCRIPTION_CONFLICT,
            path.key(LEGACY_DESCRIPTION_ANNOTATION),
            format!(
                "both description keys are set and differ; {DESCRIPTION_ANNOTATION} wins and \
                 \"{l}\" is never shown. Remove the legacy key"
            ),
        )),
        _ => {}
    }
    if canonical.is_none() && legacy.is_none() && meta.annotation("description").is_some() {
        out.push(Finding::new(
            &DESCRIPTION_PLAIN,
            path.key("description"),
            format!(
                "the annotation `description` is kept, but the UI shows the pool description from \
                 {DESCRIPTION_ANNOTATION}"
            ),
        ));
    }
}
