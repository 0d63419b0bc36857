//! References that must name an object the hub has: the pool's Profile Bundle, Settings and
//! ScalingPolicy, in its namespace; and a ScalingPolicy written with the pool under a name
//! already taken there (the create would be refused as AlreadyExists). What the hub has is
//! told per kind: the names, or why they cannot be read (offline, not permitted, still
//! loading), which makes a missing reference a warning instead of an error.

use serde_json::Value;

use super::Kind;
use super::draft::Draft;
use super::model::ComputePool;
use super::path::YamlPath;
use super::rules::{Basis, Finding, Rule, Severity};

pub const MISSING: Rule = Rule {
    id: "reference.exists",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: "ProfileBundle Reference",
    summary: "profileBundleRef, settingsRef and scalingPolicyRef name an object the pool's namespace has",
};
pub const UNCHECKED: Rule = Rule {
    id: "reference.unchecked",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: "ProfileBundle Reference",
    summary: "a reference pooldeck cannot check: the kind cannot be read here (offline, not permitted, loading)",
};
pub const STILL_MISSING: Rule = Rule {
    id: "reference.still-missing",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: "ProfileBundle Reference",
    summary: "an edit keeps a reference the live pool already makes to an object its namespace lacks",
};
pub const POLICY_TAKEN: Rule = Rule {
    id: "policy.name-taken",
    severity: Severity::Error,
    basis: Basis::Refused,
    section: "Autoscaling Configuration",
    summary: "a ScalingPolicy written with the pool takes a name no ScalingPolicy in its namespace has",
};

/// The rules, for `--list-rules`.
pub const RULES: &[&Rule] = &[&MISSING, &UNCHECKED, &STILL_MISSING, &POLICY_TAKEN];

/// What pooldeck knows of one kind in the draft's namespace.
pub enum Known<'a> {
    /// The names the hub has there.
    Names(Vec<&'a str>),
    /// The names cannot be read; why.
    Unreadable(String),
}

/// The references a pool makes: (the kind, where the name is).
fn references() -> [(Kind, YamlPath); 3] {
    [
        (
            Kind::ProfileBundle,
            YamlPath::keys("spec.profileBundleRef.name"),
        ),
        (
            Kind::Settings,
            YamlPath::keys(
                "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.settingsRef.name",
            ),
        ),
        (
            Kind::ScalingPolicy,
            YamlPath::keys("spec.clusterVariant.dedicated.scalingPolicyRef.name"),
        ),
    ]
}

/// The name a live pool's reference of a kind holds.
fn reference_of(pool: &ComputePool, kind: Kind) -> Option<&str> {
    match kind {
        Kind::ProfileBundle => pool.spec()?.profile_bundle_ref.get()?.name.as_deref(),
        Kind::Settings => pool
            .deployment_config()?
            .settings_ref
            .get()?
            .name
            .as_deref(),
        Kind::ScalingPolicy => pool.dedicated()?.scaling_policy_ref.get()?.name.as_deref(),
        _ => None,
    }
}

/// The findings on the draft's references, from what is known of each kind. `old` is the
/// live pool an edit started from: a reference it already makes is not the edit's doing.
pub fn check<'a>(
    draft: &Draft,
    old: Option<&ComputePool>,
    known: impl Fn(Kind) -> Known<'a>,
) -> Vec<Finding> {
    let namespace = draft.namespace();
    let written = draft
        .policy
        .as_ref()
        .and_then(|p| p.pointer("/metadata/name"))
        .and_then(Value::as_str);
    let mut out = Vec::new();
    for (kind, path) in references() {
        let Some(name) = draft
            .get(&path)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|n| !n.is_empty())
        else {
            continue;
        };
        // A bundle may be named at a revision: `name@v2`.
        let object = name.split('@').next().unwrap_or(name);
        let what = kind.api().kind;
        match known(kind) {
            Known::Names(names) if kind == Kind::ScalingPolicy && written == Some(name) => {
                if names.contains(&object) {
                    out.push(Finding::new(
                        &POLICY_TAKEN,
                        path,
                        format!(
                            "a ScalingPolicy named {name} already exists in {namespace}: the create \
                             would be refused; name the new one differently, or turn \"Write a \
                             new policy\" off and pick {name}"
                        ),
                    ));
                }
            }
            // The policy written with the pool is created with it.
            _ if kind == Kind::ScalingPolicy && written == Some(name) => {}
            Known::Names(names) if !names.contains(&object) => {
                let before = old.and_then(|o| reference_of(o, kind)).map(str::trim);
                let (rule, tail) = if before == Some(name) {
                    (&STILL_MISSING, "; the live pool names it already")
                } else {
                    (&MISSING, ": the pool would wait for it")
                };
                out.push(Finding::new(
                    rule,
                    path,
                    format!(
                        "no {what} named {object} in {namespace}{}{tail}",
                        if names.is_empty() {
                            String::new()
                        } else {
                            format!(" (there: {})", shortened(&names))
                        }
                    ),
                ));
            }
            Known::Names(_) => {}
            Known::Unreadable(why) => out.push(Finding::new(
                &UNCHECKED,
                path,
                format!("whether {namespace} has a {what} named {object} is not known: {why}"),
            )),
        }
    }
    out
}

/// Up to five names, and how many more.
fn shortened(names: &[&str]) -> String {
    let mut said = names.iter().take(5).copied().collect::<Vec<_>>().join(", ");
    if names.len() > 5 {
        said.push_str(&format!(" and {} more", names.len().saturating_sub(5)));
    }
    said
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn draft() -> Draft {
        let mut draft = Draft::new("ml-research");
        draft.set(
            &YamlPath::keys("spec.profileBundleRef.name"),
            Some(json!("edge-bundle@v2")),
        );
        draft.set(
            &YamlPath::keys("spec.clusterVariant.dedicated.scalingPolicyRef.name"),
            Some(json!("gpu-scalng")),
        );
        draft
    }

    #[test]
    fn a_reference_to_nothing_is_an_error_when_the_kind_is_read_and_a_warning_when_not() {
        let found = check(&draft(), None, |kind| match kind {
            Kind::ProfileBundle => Known::Names(vec!["edge-bundle"]),
            Kind::ScalingPolicy => Known::Names(vec!["gpu-scaling"]),
            _ => Known::Unreadable("not permitted to list settings".into()),
        });
        // The bundle at a revision exists; the misspelt policy does not.
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].rule.id, "reference.exists");
        assert!(
            found[0].message.contains("gpu-scalng"),
            "{}",
            found[0].message
        );
        assert!(found[0].message.contains("there: gpu-scaling"));

        let offline = check(&draft(), None, |_| Known::Unreadable("no cluster".into()));
        assert_eq!(offline.len(), 2);
        assert!(offline.iter().all(|f| f.rule.severity == Severity::Warning));

        // An edit that keeps the live pool's own dangling reference: a warning, not a block.
        let (live, _) = draft().model().expect("a pool");
        let kept = check(&draft(), Some(&live), |_| Known::Names(vec!["edge-bundle"]));
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].rule.id, "reference.still-missing");
    }

    #[test]
    fn a_policy_written_here_exists_unless_its_name_is_taken() {
        let mut draft = draft();
        draft.start_policy();
        let free = check(&draft, None, |_| Known::Names(vec!["edge-bundle", "other"]));
        assert!(free.is_empty(), "{free:#?}");
        let taken = check(&draft, None, |_| {
            Known::Names(vec!["edge-bundle", "gpu-scalng"])
        });
        assert_eq!(taken.len(), 1);
        assert_eq!(taken[0].rule.id, "policy.name-taken");
        assert_eq!(
            taken[0].path.to_string(),
            "spec.clusterVariant.dedicated.scalingPolicyRef.name",
            "said on the field that names it"
        );
    }
}
