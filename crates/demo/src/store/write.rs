//! The store's writes, with the API server's rules (checked in `checks.rs`): creation (names,
//! namespaces, `generateName`), replacement and status updates (stale versions conflict, generation
//! follows the spec), patches, and controller writes that create or replace. Deletion is in
//! `delete.rs`.

use std::sync::Arc;

use serde_json::{Value, json};

use super::checks::{check_update, created_name, keep_server_fields};
use super::{
    ApiError, ChangeKind, Inner, Key, Patch, Store, finalizers, meta_str, new_uid, now_rfc3339,
};
use crate::registry::Resource;

/// Where an object is stored: cluster-scoped objects have no namespace.
fn key_for(resource: &Resource, namespace: &str, name: &str) -> Key {
    let namespace = if resource.namespaced {
        namespace.to_owned()
    } else {
        String::new()
    };
    (namespace, name.to_owned())
}

impl Store {
    /// The stored object and its key, or 404.
    pub(super) fn current(
        inner: &mut Inner,
        resource: &Resource,
        namespace: &str,
        name: &str,
    ) -> Result<(Key, Arc<Value>), ApiError> {
        let key = key_for(resource, namespace, name);
        let current = Self::bucket(inner, resource)
            .get(&key)
            .cloned()
            .ok_or_else(|| ApiError::not_found(resource, name))?;
        Ok((key, current))
    }

    /// Creates an object. The caller has set the namespace; `generateName` is honoured.
    pub fn create(
        &self,
        resource: &Resource,
        namespace: &str,
        object: Value,
        dry_run: bool,
    ) -> Result<Value, ApiError> {
        self.create_with(resource, namespace, object, dry_run, false)
    }

    /// [`Store::create`]; `keep_status` keeps a status written with the object (controllers
    /// do that; API clients' status is dropped when the resource has a status subresource).
    fn create_with(
        &self,
        resource: &Resource,
        namespace: &str,
        mut object: Value,
        dry_run: bool,
        keep_status: bool,
    ) -> Result<Value, ApiError> {
        if !object.is_object() {
            return Err(ApiError::bad_request("the body is not an object"));
        }
        object["apiVersion"] = json!(resource.api_version());
        object["kind"] = json!(resource.kind);
        if !object.get("metadata").is_some_and(Value::is_object) {
            object["metadata"] = json!({});
        }
        let name = created_name(resource, &object)?;
        let mut inner = self.lock();
        if resource.namespaced && resource.plural != "namespaces" {
            let namespaces = inner.objects.get("namespaces");
            if !namespaces.is_some_and(|b| b.contains_key(&(String::new(), namespace.to_owned()))) {
                return Err(ApiError::new(
                    404,
                    "NotFound",
                    format!("namespaces \"{namespace}\" not found"),
                ));
            }
        }
        let key = key_for(resource, namespace, &name);
        if Self::bucket(&mut inner, resource).contains_key(&key) {
            return Err(ApiError::new(
                409,
                "AlreadyExists",
                format!("{} \"{name}\" already exists", resource.qualified()),
            )
            .with_details(resource, &name));
        }
        let metadata = &mut object["metadata"];
        metadata["name"] = json!(name);
        if resource.namespaced {
            metadata["namespace"] = json!(namespace);
        } else if let Some(m) = metadata.as_object_mut() {
            m.shift_remove("namespace");
        }
        // Controllers may load an object that is already being deleted; clients may not.
        if !keep_status && let Some(m) = metadata.as_object_mut() {
            m.shift_remove("deletionTimestamp");
        }
        metadata["uid"] = json!(new_uid());
        if meta_str(&object, "creationTimestamp").is_none() {
            object["metadata"]["creationTimestamp"] = json!(now_rfc3339());
        }
        // A controller's load (a served bundle) keeps the generation it had; a client's starts at 1.
        let given = object["metadata"]["generation"]
            .as_i64()
            .filter(|g| keep_status && *g > 0);
        object["metadata"]["generation"] = json!(given.unwrap_or(1));
        if resource.has_status
            && !keep_status
            && let Some(map) = object.as_object_mut()
        {
            map.shift_remove("status");
        }
        if resource.plural == "namespaces" {
            object["status"] = json!({"phase": "Active"});
        }
        if dry_run {
            return Ok(object);
        }
        inner.rv += 1;
        object["metadata"]["resourceVersion"] = json!(inner.rv.to_string());
        let object = Arc::new(object);
        Self::bucket(&mut inner, resource).insert(key, object.clone());
        self.record(
            &mut inner,
            resource,
            ChangeKind::Added,
            object.clone(),
            None,
        );
        Ok((*object).clone())
    }

    /// Replaces an object (PUT), or its status with `status_only`. A resourceVersion in the
    /// body must match the stored one (409 otherwise).
    pub fn update(
        &self,
        resource: &Resource,
        namespace: &str,
        name: &str,
        object: Value,
        status_only: bool,
        dry_run: bool,
    ) -> Result<Value, ApiError> {
        let mut inner = self.lock();
        self.update_locked(
            &mut inner,
            resource,
            namespace,
            name,
            object,
            status_only,
            dry_run,
            true,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn update_locked(
        &self,
        inner: &mut Inner,
        resource: &Resource,
        namespace: &str,
        name: &str,
        mut object: Value,
        status_only: bool,
        dry_run: bool,
        check_version: bool,
    ) -> Result<Value, ApiError> {
        let (key, current) = Self::current(inner, resource, namespace, name)?;
        check_update(resource, name, &object, &current, check_version)?;
        let mut next = if status_only {
            let mut next = (*current).clone();
            next["status"] = object.get("status").cloned().unwrap_or(Value::Null);
            next
        } else {
            keep_server_fields(resource, &mut object, &current);
            object
        };
        next["apiVersion"] = json!(resource.api_version());
        next["kind"] = json!(resource.kind);
        next["metadata"]["name"] = json!(name);
        if resource.namespaced {
            next["metadata"]["namespace"] = json!(namespace);
        }
        if next.get("spec") != current.get("spec") {
            let generation = current["metadata"]["generation"].as_i64().unwrap_or(1);
            next["metadata"]["generation"] = json!(generation + 1);
        }
        let unchanged = {
            let mut a = next.clone();
            a["metadata"]["resourceVersion"] = current["metadata"]["resourceVersion"].clone();
            a == *current
        };
        if dry_run || unchanged {
            return Ok(if unchanged { (*current).clone() } else { next });
        }
        inner.rv += 1;
        next["metadata"]["resourceVersion"] = json!(inner.rv.to_string());
        let deleting = meta_str(&next, "deletionTimestamp").is_some() && finalizers(&next) == 0;
        let next = Arc::new(next);
        if deleting {
            Self::bucket(inner, resource).remove(&key);
            self.record(
                inner,
                resource,
                ChangeKind::Deleted,
                next.clone(),
                Some(current),
            );
            self.collect_garbage(inner, &next);
        } else {
            Self::bucket(inner, resource).insert(key, next.clone());
            self.record(
                inner,
                resource,
                ChangeKind::Modified,
                next.clone(),
                Some(current),
            );
        }
        Ok((*next).clone())
    }

    /// Applies a patch (merge, JSON patch, or apply treated as merge) and stores the result.
    pub fn patch(
        &self,
        resource: &Resource,
        namespace: &str,
        name: &str,
        patch: &Patch,
        status_only: bool,
        dry_run: bool,
    ) -> Result<Value, ApiError> {
        let mut inner = self.lock();
        let (_, current) = Self::current(&mut inner, resource, namespace, name)?;
        // A uid in a merge patch names the incarnation meant: another one is refused (the
        // uid is immutable), as a recreated object would be by its resourceVersion.
        if let Patch::Merge(body) = patch
            && let Some(uid) = body.pointer("/metadata/uid").and_then(Value::as_str)
            && Some(uid) != meta_str(&current, "uid")
        {
            return Err(ApiError::conflict(
                resource,
                name,
                &format!(
                    "Precondition failed: UID in precondition: {uid}, UID in object meta: {}",
                    meta_str(&current, "uid").unwrap_or("")
                ),
            ));
        }
        let mut next = (*current).clone();
        match patch {
            Patch::Merge(body) => json_patch::merge(&mut next, body),
            Patch::Json(operations) => {
                let operations: json_patch::Patch = serde_json::from_value(operations.clone())
                    .map_err(|e| ApiError::bad_request(format!("invalid JSON patch: {e}")))?;
                json_patch::patch(&mut next, &operations).map_err(|e| {
                    ApiError::new(
                        422,
                        "Invalid",
                        format!("the JSON patch could not be applied: {e}"),
                    )
                })?;
            }
        }
        let check_version = matches!(patch, Patch::Merge(body) if body.pointer("/metadata/resourceVersion").is_some())
            || matches!(patch, Patch::Json(_));
        let version_in_patch =
            meta_str(&next, "resourceVersion") != meta_str(&current, "resourceVersion");
        self.update_locked(
            &mut inner,
            resource,
            namespace,
            name,
            next,
            status_only,
            dry_run,
            check_version && version_in_patch,
        )
    }

    /// Writes an object as a controller would: created if absent, replaced (keeping its
    /// identity) if present, status included. Namespaces are created on demand.
    pub fn put(&self, object: Value) -> Result<Value, ApiError> {
        let kind = object
            .get("kind")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        let resource = self.registry.by_kind(&kind).cloned().ok_or_else(|| {
            ApiError::bad_request(format!("the demo cluster does not serve kind {kind:?}"))
        })?;
        let namespace = meta_str(&object, "namespace").unwrap_or("").to_owned();
        let name = meta_str(&object, "name").unwrap_or("").to_owned();
        if resource.namespaced {
            self.ensure_namespace(&namespace)?;
        }
        match self.get(&resource, &namespace, &name) {
            Ok(current) => {
                let mut next = object;
                next["metadata"]["resourceVersion"] =
                    current["metadata"]["resourceVersion"].clone();
                let mut inner = self.lock();
                let result = self.update_locked(
                    &mut inner,
                    &resource,
                    &namespace,
                    &name,
                    next.clone(),
                    false,
                    false,
                    false,
                )?;
                if resource.has_status && next.get("status") != result.get("status") {
                    return self.update_locked(
                        &mut inner, &resource, &namespace, &name, next, true, false, false,
                    );
                }
                Ok(result)
            }
            Err(_) => self.create_with(&resource, &namespace, object, false, true),
        }
    }

    pub fn ensure_namespace(&self, namespace: &str) -> Result<(), ApiError> {
        if namespace.is_empty() {
            return Err(ApiError::bad_request(
                "a namespaced object needs metadata.namespace",
            ));
        }
        let Some(namespaces) = self.registry.by_kind("Namespace").cloned() else {
            return Ok(());
        };
        if self.get(&namespaces, "", namespace).is_err() {
            self.create(
                &namespaces,
                "",
                json!({"metadata": {"name": namespace}}),
                false,
            )?;
        }
        Ok(())
    }
}
