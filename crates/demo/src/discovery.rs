//! The documents that describe what the demo cluster serves, as kubectl and client libraries
//! read them: the API group and resource lists (`/api`, `/apis`, `/apis/GROUP/VERSION`) and
//! the OpenAPI v3 index and per-group schemas.

use serde_json::{Value, json};

use super::registry::Registry;

impl Registry {
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
