//! The resources the demo cluster serves: the spectrocloud.com kinds, read from the CRD
//! manifests in `demo/crds/` (the very files that install on a real cluster), plus core
//! `namespaces` and `events`. The discovery documents that describe them are in
//! `discovery.rs`.

use serde_json::Value;

/// A compiled-in CRD that does not read, and why.
#[derive(Debug, thiserror::Error)]
#[error("{file}: {why}")]
pub struct CrdError {
    pub file: &'static str,
    pub why: CrdProblem,
}

/// What is wrong with a compiled-in CRD.
#[derive(Debug, thiserror::Error)]
pub enum CrdProblem {
    #[error("{0}")]
    Text(pooldeck_domain::manifest::ParseError),
    #[error("empty")]
    Empty,
    #[error("the CRD has no {0}")]
    Missing(&'static str),
    #[error("the CRD serves no version")]
    NoServedVersion,
}

/// A printer column of a resource, as a CRD's `additionalPrinterColumns` declares it.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    pub name: String,
    pub kind: String,
    pub json_path: String,
    pub priority: i64,
    pub description: String,
}

/// One kind of object the server stores.
#[derive(Clone, Debug, PartialEq)]
pub struct Resource {
    /// `""` for the core group.
    pub group: String,
    pub version: String,
    pub kind: String,
    pub list_kind: String,
    pub plural: String,
    pub singular: String,
    pub short_names: Vec<String>,
    pub namespaced: bool,
    pub has_status: bool,
    pub columns: Vec<Column>,
}

impl Resource {
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// `computepools.spectrocloud.com`, or `namespaces` for the core group, as error
    /// messages name resources.
    pub fn qualified(&self) -> String {
        if self.group.is_empty() {
            self.plural.clone()
        } else {
            format!("{}.{}", self.plural, self.group)
        }
    }
}

/// The CRD manifests, compiled in so the server needs no files at run time.
pub const CRDS: &[(&str, &str)] = &[
    (
        "computepools.yaml",
        include_str!("../../../demo/crds/computepools.yaml"),
    ),
    (
        "computepoolevaluations.yaml",
        include_str!("../../../demo/crds/computepoolevaluations.yaml"),
    ),
    (
        "projects.yaml",
        include_str!("../../../demo/crds/projects.yaml"),
    ),
    (
        "tenants.yaml",
        include_str!("../../../demo/crds/tenants.yaml"),
    ),
    (
        "scalingpolicies.yaml",
        include_str!("../../../demo/crds/scalingpolicies.yaml"),
    ),
    (
        "profilebundles.yaml",
        include_str!("../../../demo/crds/profilebundles.yaml"),
    ),
    (
        "computes.yaml",
        include_str!("../../../demo/crds/computes.yaml"),
    ),
    (
        "aiworkloads.yaml",
        include_str!("../../../demo/crds/aiworkloads.yaml"),
    ),
    (
        "settings.yaml",
        include_str!("../../../demo/crds/settings.yaml"),
    ),
];

/// The compiled-in CRD manifests as JSON values.
pub fn crd_manifests() -> Result<Vec<Value>, CrdError> {
    CRDS.iter()
        .map(|(file, text)| {
            let crd = |why| CrdError { file, why };
            let documents =
                pooldeck_domain::manifest::parse(text).map_err(|e| crd(CrdProblem::Text(e)))?;
            documents
                .first()
                .map(|d| d.root.to_json())
                .ok_or_else(|| crd(CrdProblem::Empty))
        })
        .collect()
}

/// Reads a CRD manifest into the resource it defines (the first served version).
pub fn from_crd(crd: &Value) -> Result<Resource, CrdProblem> {
    let spec = crd.get("spec").ok_or(CrdProblem::Missing("spec"))?;
    let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_owned();
    let names = spec.get("names").ok_or(CrdProblem::Missing("spec.names"))?;
    let version = spec
        .get("versions")
        .and_then(Value::as_array)
        .and_then(|v| {
            v.iter()
                .find(|v| v.get("served") == Some(&Value::Bool(true)))
        })
        .ok_or(CrdProblem::NoServedVersion)?;
    let columns = version
        .get("additionalPrinterColumns")
        .and_then(Value::as_array)
        .map(|columns| {
            columns
                .iter()
                .map(|c| Column {
                    name: text(c.get("name")),
                    kind: text(c.get("type")),
                    json_path: text(c.get("jsonPath")),
                    priority: c.get("priority").and_then(Value::as_i64).unwrap_or(0),
                    description: text(c.get("description")),
                })
                .collect()
        })
        .unwrap_or_default();
    let kind = text(names.get("kind"));
    Ok(Resource {
        group: text(spec.get("group")),
        version: text(version.get("name")),
        list_kind: names
            .get("listKind")
            .and_then(Value::as_str)
            .map_or_else(|| format!("{kind}List"), str::to_owned),
        kind,
        plural: text(names.get("plural")),
        singular: text(names.get("singular")),
        short_names: names
            .get("shortNames")
            .and_then(Value::as_array)
            .map(|s| {
                s.iter()
                    .filter_map(|n| n.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default(),
        namespaced: text(spec.get("scope")) == "Namespaced",
        has_status: version.pointer("/subresources/status").is_some(),
        columns,
    })
}

fn core(kind: &str, plural: &str, namespaced: bool, columns: Vec<Column>) -> Resource {
    Resource {
        group: String::new(),
        version: "v1".into(),
        kind: kind.into(),
        list_kind: format!("{kind}List"),
        plural: plural.into(),
        singular: kind.to_lowercase(),
        short_names: match plural {
            "namespaces" => vec!["ns".into()],
            "events" => vec!["ev".into()],
            _ => Vec::new(),
        },
        namespaced,
        has_status: plural == "namespaces",
        columns,
    }
}

fn column(name: &str, kind: &str, path: &str) -> Column {
    Column {
        name: name.into(),
        kind: kind.into(),
        json_path: path.into(),
        priority: 0,
        description: String::new(),
    }
}

/// Every resource the server knows.
#[derive(Clone, Debug)]
pub struct Registry {
    pub resources: Vec<Resource>,
}

impl Registry {
    /// The built-in registry: the compiled-in CRDs plus core namespaces and events.
    pub fn builtin() -> Result<Registry, CrdError> {
        let mut resources = core_kinds();
        resources.extend(apps_kinds());
        for (crd, (file, _)) in crd_manifests()?.iter().zip(CRDS) {
            resources.push(from_crd(crd).map_err(|why| CrdError { file, why })?);
        }
        resources.push(crd_kind());
        Ok(Registry { resources })
    }

    pub fn find(&self, group: &str, version: &str, plural: &str) -> Option<&Resource> {
        self.resources
            .iter()
            .find(|r| r.group == group && r.version == version && r.plural == plural)
    }

    pub fn by_kind(&self, kind: &str) -> Option<&Resource> {
        self.resources.iter().find(|r| r.kind == kind)
    }
}

/// The core kinds the console and kubectl read: Namespaces, Pods, Secrets and Events.
fn core_kinds() -> Vec<Resource> {
    vec![
        core(
            "Namespace",
            "namespaces",
            false,
            vec![
                column("Status", "string", ".status.phase"),
                column("Age", "date", ".metadata.creationTimestamp"),
            ],
        ),
        core(
            "Pod",
            "pods",
            true,
            vec![
                column("Status", "string", ".status.phase"),
                column("Age", "date", ".metadata.creationTimestamp"),
            ],
        ),
        // Served so that a support bundle can be shown to collect none.
        core(
            "Secret",
            "secrets",
            true,
            vec![
                column("Type", "string", ".type"),
                column("Age", "date", ".metadata.creationTimestamp"),
            ],
        ),
        core(
            "Event",
            "events",
            true,
            vec![
                column("Last Seen", "date", ".lastTimestamp"),
                column("Type", "string", ".type"),
                column("Reason", "string", ".reason"),
                column("Object", "string", ".involvedObject.kind"),
                column("Message", "string", ".message"),
            ],
        ),
    ]
}

/// The hue controller's Deployment and ReplicaSet, so the guide's `kubectl get deployments
/// --all-namespaces | grep hue` finds it.
fn apps_kinds() -> Vec<Resource> {
    let mut out = Vec::new();
    for (kind, plural, short, columns) in [
        (
            "Deployment",
            "deployments",
            "deploy",
            vec![
                column("Ready", "integer", ".status.readyReplicas"),
                column("Up-to-date", "integer", ".status.updatedReplicas"),
                column("Available", "integer", ".status.availableReplicas"),
                column("Age", "date", ".metadata.creationTimestamp"),
            ],
        ),
        (
            "ReplicaSet",
            "replicasets",
            "rs",
            vec![
                column("Desired", "integer", ".spec.replicas"),
                column("Current", "integer", ".status.replicas"),
                column("Ready", "integer", ".status.readyReplicas"),
                column("Age", "date", ".metadata.creationTimestamp"),
            ],
        ),
    ] {
        out.push(Resource {
            group: "apps".into(),
            version: "v1".into(),
            kind: kind.into(),
            list_kind: format!("{kind}List"),
            plural: plural.into(),
            singular: kind.to_lowercase(),
            short_names: vec![short.into()],
            namespaced: true,
            has_status: true,
            columns,
        });
    }
    out
}

/// The CRDs themselves, read-only in spirit: `kubectl get crd` lists them.
fn crd_kind() -> Resource {
    Resource {
        group: "apiextensions.k8s.io".into(),
        version: "v1".into(),
        kind: "CustomResourceDefinition".into(),
        list_kind: "CustomResourceDefinitionList".into(),
        plural: "customresourcedefinitions".into(),
        singular: "customresourcedefinition".into(),
        short_names: vec!["crd".into(), "crds".into()],
        namespaced: false,
        has_status: true,
        columns: vec![column("Created At", "date", ".metadata.creationTimestamp")],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_crds_define_the_documented_kinds() {
        let registry = Registry::builtin().expect("the compiled-in CRDs read");
        let pools = registry
            .find("spectrocloud.com", "v1alpha1", "computepools")
            .expect("pools");
        assert_eq!(pools.kind, "ComputePool");
        assert_eq!(pools.short_names, ["cp"]);
        assert!(pools.namespaced && pools.has_status);
        let evaluations = registry
            .by_kind("ComputePoolEvaluation")
            .expect("evaluations");
        assert_eq!(evaluations.short_names, ["cpe"]);
        assert!(!registry.by_kind("Tenant").expect("tenants").namespaced);
        for kind in [
            "Project",
            "ScalingPolicy",
            "ProfileBundle",
            "Compute",
            "AIWorkload",
            "Settings",
        ] {
            assert!(registry.by_kind(kind).is_some(), "{kind}");
        }
    }
}
