//! Deletion with the API server's rules: uid and resourceVersion preconditions, finalizers
//! (a deletionTimestamp, then removal once the last one goes), and garbage collection of the
//! objects the deleted one owned.

use std::sync::Arc;

use serde_json::{Value, json};

use super::{
    ApiError, ChangeKind, Inner, Key, Preconditions, Store, finalizers, meta_str, now_rfc3339,
};
use crate::registry::Resource;

impl Store {
    /// Deletes an object: at once when it has no finalizers, otherwise by setting its
    /// deletionTimestamp and waiting for the finalizers to be removed.
    pub fn delete(
        &self,
        resource: &Resource,
        namespace: &str,
        name: &str,
        preconditions: &Preconditions,
        dry_run: bool,
    ) -> Result<Value, ApiError> {
        let mut inner = self.lock();
        let (key, current) = Self::current(&mut inner, resource, namespace, name)?;
        if let Some(uid) = &preconditions.uid {
            let actual = meta_str(&current, "uid").unwrap_or("");
            if uid != actual {
                return Err(ApiError::conflict(
                    resource,
                    name,
                    &format!(
                        "Precondition failed: UID in precondition: {uid}, UID in object meta: {actual}"
                    ),
                ));
            }
        }
        if let Some(version) = &preconditions.resource_version {
            let actual = meta_str(&current, "resourceVersion").unwrap_or("");
            if version != actual {
                return Err(ApiError::conflict(
                    resource,
                    name,
                    &format!(
                        "Precondition failed: ResourceVersion in precondition: {version}, ResourceVersion in object meta: {actual}"
                    ),
                ));
            }
        }
        if finalizers(&current) > 0 {
            if meta_str(&current, "deletionTimestamp").is_some() {
                return Ok((*current).clone());
            }
            let mut next = (*current).clone();
            next["metadata"]["deletionTimestamp"] = json!(now_rfc3339());
            next["metadata"]["deletionGracePeriodSeconds"] = json!(0);
            if dry_run {
                return Ok(next);
            }
            inner.rv += 1;
            next["metadata"]["resourceVersion"] = json!(inner.rv.to_string());
            let next = Arc::new(next);
            Self::bucket(&mut inner, resource).insert(key, next.clone());
            self.record(
                &mut inner,
                resource,
                ChangeKind::Modified,
                next.clone(),
                Some(current),
            );
            return Ok((*next).clone());
        }
        if dry_run {
            return Ok((*current).clone());
        }
        self.remove_locked(&mut inner, resource, key, current.clone());
        Ok((*current).clone())
    }

    /// Removes every object of the resources `keep` does not keep, at once (no finalizer
    /// waits), each a Deleted change for open watches: the story starting again.
    pub fn purge(&self, keep: impl Fn(&Resource) -> bool) {
        let mut inner = self.lock();
        for resource in self.registry.resources.iter().filter(|r| !keep(r)) {
            let present: Vec<(Key, Arc<Value>)> = inner
                .objects
                .get(&resource.qualified())
                .map(|bucket| bucket.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
                .unwrap_or_default();
            for (key, current) in present {
                self.remove_locked(&mut inner, resource, key, current);
            }
        }
    }

    fn remove_locked(&self, inner: &mut Inner, resource: &Resource, key: Key, current: Arc<Value>) {
        inner.rv += 1;
        let mut gone = (*current).clone();
        gone["metadata"]["resourceVersion"] = json!(inner.rv.to_string());
        Self::bucket(inner, resource).remove(&key);
        let gone = Arc::new(gone);
        self.record(
            inner,
            resource,
            ChangeKind::Deleted,
            gone.clone(),
            Some(current),
        );
        self.collect_garbage(inner, &gone);
    }

    /// Deletes the objects an object owned (ownerReferences by uid), as the garbage collector
    /// does in background propagation.
    pub(super) fn collect_garbage(&self, inner: &mut Inner, owner: &Value) {
        let Some(uid) = meta_str(owner, "uid").map(str::to_owned) else {
            return;
        };
        let mut dependents = Vec::new();
        for resource in &self.registry.resources {
            if let Some(bucket) = inner.objects.get(&resource.qualified()) {
                for (key, object) in bucket {
                    let owned = object
                        .pointer("/metadata/ownerReferences")
                        .and_then(Value::as_array)
                        .is_some_and(|refs| {
                            refs.iter()
                                .any(|r| r.get("uid").and_then(Value::as_str) == Some(uid.as_str()))
                        });
                    if owned {
                        dependents.push((resource.clone(), key.clone(), object.clone()));
                    }
                }
            }
        }
        for (resource, key, object) in dependents {
            if finalizers(&object) > 0 {
                let mut next = (*object).clone();
                if meta_str(&next, "deletionTimestamp").is_none() {
                    inner.rv += 1;
                    next["metadata"]["deletionTimestamp"] = json!(now_rfc3339());
                    next["metadata"]["resourceVersion"] = json!(inner.rv.to_string());
                    let next = Arc::new(next);
                    Self::bucket(inner, &resource).insert(key, next.clone());
                    self.record(inner, &resource, ChangeKind::Modified, next, Some(object));
                }
            } else {
                self.remove_locked(inner, &resource, key, object);
            }
        }
    }
}
