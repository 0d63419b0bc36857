//! The resources the demo cluster serves: the spectrocloud.com kinds, read from the CRD
//! manifests in `demo/crds/` (the very files that install on a real cluster), plus core
//! `namespaces` and `events`, and the discovery documents that describe them.

use serde_json::{Value, json};

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
        include_str!("../../demo/crds/computepools.yaml"),
    ),
    (
        "computepoolevaluations.yaml",
        include_str!("../../demo/crds/computepoolevaluations.yaml"),
    ),
    (
        "projects.yaml",
        include_str!("../../demo/crds/projects.yaml"),
    ),
    ("tenants.yaml", include_str!("../../demo/crds/tenants.yaml")),
    (
        "scalingpolicies.yaml",
        include_str!("../../demo/crds/scalingpolicies.yaml"),
    ),
    (
        "profilebundles.yaml",
        include_str!("../../demo/crds/profilebundles.yaml"),
    ),
    (
        "computes.yaml",
        include_str!("../../demo/crds/computes.yaml"),
    ),
    (
        "aiworkloads.yaml",
        include_str!("../../demo/crds/aiworkloads.yaml"),
    ),
    (
        "settings.yaml",
        include_str!("../../demo/crds/settings.yaml"),
    ),
];

/// The compiled-in CRD manifests as JSON values.
pub fn crd_manifests() -> Result<Vec<Value>, String> {
    CRDS.iter()
        .map(|(file, text)| {
            let documents = crate::manifest::parse(text).map_err(|e| format!("{file}: {e}"))?;
            documents
                .first()
                .map(|d| d.root.to_json())
                .ok_or_else(|| format!("{file}: empty"))
        })
        .collect()
}

/// Reads a CRD manifest into the resource it defines (the first served version).
pub fn from_crd(crd: &Value) -> Result<Resource, String> {
    let spec = crd.get("spec").ok_or("the CRD has no spec")?;
    let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_owned();
    let names = spec.get("names").ok_or("the CRD has no spec.names")?;
    let version = spec
        .get("versions")
        .and_then(Value::as_array)
        .and_then(|v| {
            v.iter()
                .find(|v| v.get("served") == Some(&Value::Bool(true)))
        })
        .ok_or("the CRD serves no version")?;
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
    pub fn builtin() -> Result<Registry, String> {
        let mut resources = vec![
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
        ];
        for crd in crd_manifests()? {
            resources.push(from_crd(&crd)?);
        }
        // The CRDs themselves, read-only in spirit: `kubectl get crd` lists them.
        resources.push(Resource {
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
        });
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

    /// Every named group with its version, in first-seen order.
    pub fn groups(&self) -> Vec<(String, String)> {
        let mut groups: Vec<(String, String)> = Vec::new();
        for r in self.resources.iter().filter(|r| !r.group.is_empty()) {
            if !groups.iter().any(|(g, _)| *g == r.group) {
                groups.push((r.group.clone(), r.version.clone()));
            }
        }
        groups
    }

    /// `/api`: the core API versions.
    pub fn core_versions(&self) -> Value {
        json!({"kind": "APIVersions", "versions": ["v1"], "serverAddressByClientCIDRs": [
            {"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1"}
        ]})
    }

    fn group_entry(group: &str, version: &str) -> Value {
        let gv = format!("{group}/{version}");
        json!({
            "name": group,
            "versions": [{"groupVersion": gv, "version": version}],
            "preferredVersion": {"groupVersion": gv, "version": version},
        })
    }

    /// `/apis`: every group, including authorization.k8s.io for access reviews.
    pub fn group_list(&self) -> Value {
        let mut groups: Vec<Value> = self
            .groups()
            .iter()
            .map(|(g, v)| Self::group_entry(g, v))
            .collect();
        groups.push(Self::group_entry("authorization.k8s.io", "v1"));
        json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
    }

    pub fn group(&self, group: &str) -> Option<Value> {
        if group == "authorization.k8s.io" {
            let mut entry = Self::group_entry(group, "v1");
            entry["kind"] = json!("APIGroup");
            entry["apiVersion"] = json!("v1");
            return Some(entry);
        }
        let resource = self.resources.iter().find(|r| r.group == group)?;
        let mut entry = Self::group_entry(group, &resource.version);
        entry["kind"] = json!("APIGroup");
        entry["apiVersion"] = json!("v1");
        Some(entry)
    }

    /// `/openapi/v3`: where each group version's schema document is. kubectl validates what
    /// it applies against these.
    pub fn openapi_index(&self) -> Value {
        let mut paths = serde_json::Map::new();
        let mut add = |path: String| {
            let url = format!("/openapi/v3/{path}?hash=pooldeck");
            paths.insert(path, json!({"serverRelativeURL": url}));
        };
        add("api/v1".into());
        for (group, version) in self.groups() {
            add(format!("apis/{group}/{version}"));
        }
        json!({"paths": paths})
    }

    /// `/openapi/v3/<path>`: an OpenAPI document naming each kind of a group version with
    /// `x-kubernetes-group-version-kind`; the schemas keep every field (the CRDs' own
    /// schemas preserve unknown fields too), so validation finds the kind and accepts it.
    pub fn openapi_document(&self, group: &str, version: &str) -> Option<Value> {
        let mut schemas = serde_json::Map::new();
        let mut paths = serde_json::Map::new();
        for r in self
            .resources
            .iter()
            .filter(|r| r.group == group && r.version == version)
        {
            // kubectl looks for the kind's write operations and their fieldValidation
            // parameter before it validates.
            let base = if group.is_empty() {
                format!("/api/{version}")
            } else {
                format!("/apis/{group}/{version}")
            };
            let scope = if r.namespaced {
                "/namespaces/{namespace}"
            } else {
                ""
            };
            let gvk = json!({"group": group, "version": version, "kind": r.kind});
            let operation = |action: &str| {
                json!({
                    "x-kubernetes-action": action,
                    "x-kubernetes-group-version-kind": gvk,
                    "parameters": [
                        {"name": "dryRun", "in": "query", "schema": {"type": "string"}},
                        {"name": "fieldManager", "in": "query", "schema": {"type": "string"}},
                        {"name": "fieldValidation", "in": "query", "schema": {"type": "string"}}
                    ],
                    "responses": {"200": {"description": "OK"}}
                })
            };
            paths.insert(
                format!("{base}{scope}/{}", r.plural),
                json!({"post": operation("post")}),
            );
            paths.insert(
                format!("{base}{scope}/{}/{{name}}", r.plural),
                json!({"put": operation("put"), "patch": operation("patch")}),
            );
            let prefix = if group.is_empty() {
                "io.k8s.api.core.v1".to_owned()
            } else {
                let mut parts: Vec<&str> = group.split('.').collect();
                parts.reverse();
                format!("{}.{version}", parts.join("."))
            };
            let object = json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true});
            schemas.insert(
                format!("{prefix}.{}", r.kind),
                json!({
                    "type": "object",
                    "x-kubernetes-preserve-unknown-fields": true,
                    "x-kubernetes-group-version-kind": [{"group": group, "version": version, "kind": r.kind}],
                    "properties": {
                        "apiVersion": {"type": "string"},
                        "kind": {"type": "string"},
                        "metadata": object.clone(),
                        "spec": object.clone(),
                        "status": object,
                    }
                }),
            );
        }
        if schemas.is_empty() {
            return None;
        }
        Some(json!({
            "openapi": "3.0.0",
            "info": {"title": "pooldeck demo cluster", "version": version},
            "paths": paths,
            "components": {"schemas": schemas},
        }))
    }

    /// `/api/v1` or `/apis/<group>/<version>`: the resources with verbs, short names, scope.
    pub fn resource_list(&self, group: &str, version: &str) -> Option<Value> {
        let group_version = if group.is_empty() {
            version.to_owned()
        } else {
            format!("{group}/{version}")
        };
        if group == "authorization.k8s.io" && version == "v1" {
            return Some(json!({
                "kind": "APIResourceList", "apiVersion": "v1", "groupVersion": group_version,
                "resources": [{
                    "name": "selfsubjectaccessreviews", "singularName": "selfsubjectaccessreview",
                    "namespaced": false, "kind": "SelfSubjectAccessReview", "verbs": ["create"]
                }]
            }));
        }
        let mut resources = Vec::new();
        for r in self
            .resources
            .iter()
            .filter(|r| r.group == group && r.version == version)
        {
            resources.push(json!({
                "name": r.plural,
                "singularName": r.singular,
                "namespaced": r.namespaced,
                "kind": r.kind,
                "verbs": ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
                "shortNames": r.short_names,
                "categories": if r.group.is_empty() { json!([]) } else { json!(["all", "paletteai"]) },
            }));
            if r.has_status {
                resources.push(json!({
                    "name": format!("{}/status", r.plural),
                    "singularName": "",
                    "namespaced": r.namespaced,
                    "kind": r.kind,
                    "verbs": ["get", "patch", "update"],
                }));
            }
        }
        if resources.is_empty() {
            return None;
        }
        Some(json!({
            "kind": "APIResourceList",
            "apiVersion": "v1",
            "groupVersion": group_version,
            "resources": resources,
        }))
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
