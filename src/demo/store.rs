//! The demo cluster's object store, with the API server's semantics: one cluster-wide
//! resourceVersion, creation and update rules (conflicts on stale versions, the status
//! subresource, generation), deletion with preconditions, finalizers and owner garbage
//! collection, dry runs, and a bounded history that watches replay from (410 Gone past it).
//!
//! All state sits behind one mutex held only for short, non-blocking sections; changes are
//! published on a broadcast channel while the lock is held, so a watch that subscribes under
//! the lock sees no gap between its replay and the live stream.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use chrono::{SecondsFormat, Utc};
use serde_json::{Value, json};
use tokio::sync::broadcast;

use super::registry::{Registry, Resource};

/// An error the API answers with a `Status` object.
#[derive(Clone, Debug, PartialEq)]
pub struct ApiError {
    pub code: u16,
    pub reason: &'static str,
    pub message: String,
    pub details: Option<Value>,
}

impl ApiError {
    pub fn new(code: u16, reason: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            code,
            reason,
            message: message.into(),
            details: None,
        }
    }

    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(400, "BadRequest", message)
    }

    fn with_details(mut self, resource: &Resource, name: &str) -> ApiError {
        self.details =
            Some(json!({"name": name, "group": resource.group, "kind": resource.plural}));
        self
    }

    pub fn not_found(resource: &Resource, name: &str) -> ApiError {
        ApiError::new(
            404,
            "NotFound",
            format!("{} \"{name}\" not found", resource.qualified()),
        )
        .with_details(resource, name)
    }

    pub fn conflict(resource: &Resource, name: &str, why: &str) -> ApiError {
        ApiError::new(
            409,
            "Conflict",
            format!(
                "Operation cannot be fulfilled on {} \"{name}\": {why}",
                resource.qualified()
            ),
        )
        .with_details(resource, name)
    }

    pub fn gone(message: impl Into<String>) -> ApiError {
        ApiError::new(410, "Expired", message)
    }

    pub fn status(&self) -> Value {
        let mut status = json!({
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": self.message,
            "reason": self.reason,
            "code": self.code,
        });
        if let Some(details) = &self.details {
            status["details"] = details.clone();
        }
        status
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeKind {
    Added,
    Modified,
    Deleted,
}

impl ChangeKind {
    pub fn word(self) -> &'static str {
        match self {
            ChangeKind::Added => "ADDED",
            ChangeKind::Modified => "MODIFIED",
            ChangeKind::Deleted => "DELETED",
        }
    }
}

/// One change to one object, in resourceVersion order.
#[derive(Clone, Debug)]
pub struct Change {
    pub rv: u64,
    /// `Resource::qualified()` of the object's resource.
    pub resource: String,
    pub kind: ChangeKind,
    pub object: Arc<Value>,
    /// The object before a modification, so filtered watches can tell entering from leaving.
    pub previous: Option<Arc<Value>>,
}

impl Change {
    pub fn namespace(&self) -> &str {
        self.object
            .pointer("/metadata/namespace")
            .and_then(Value::as_str)
            .unwrap_or("")
    }
}

type Key = (String, String);

struct Inner {
    rv: u64,
    objects: HashMap<String, BTreeMap<Key, Arc<Value>>>,
    history: VecDeque<Arc<Change>>,
    history_limit: usize,
    /// Watches asking to start before this version get 410 Gone.
    compacted_through: u64,
}

/// The store. Cheap to share: wrap it in an `Arc`.
pub struct Store {
    pub registry: Registry,
    inner: Mutex<Inner>,
    changes: broadcast::Sender<Arc<Change>>,
    /// Bumped to end every open watch (history compaction that simulates a restart, shutdown).
    epoch: tokio::sync::watch::Sender<u64>,
}

/// What a list returns.
pub struct Listing {
    pub items: Vec<Arc<Value>>,
    pub resource_version: u64,
    pub continue_token: Option<String>,
    pub remaining: usize,
}

/// Where a delete or update is allowed only if the object still is what the caller saw.
#[derive(Clone, Debug, Default)]
pub struct Preconditions {
    pub uid: Option<String>,
    pub resource_version: Option<String>,
}

pub fn now_rfc3339() -> String {
    Utc::now().to_rfc3339_opts(SecondsFormat::Secs, true)
}

fn new_uid() -> String {
    let hex = |n: usize| -> String {
        (0..n)
            .map(|_| char::from_digit(fastrand::u32(0..16), 16).unwrap_or('0'))
            .collect()
    };
    format!("{}-{}-4{}-a{}-{}", hex(8), hex(4), hex(3), hex(3), hex(12))
}

fn meta_str<'v>(object: &'v Value, field: &str) -> Option<&'v str> {
    object.get("metadata")?.get(field)?.as_str()
}

fn finalizers(object: &Value) -> usize {
    object
        .pointer("/metadata/finalizers")
        .and_then(Value::as_array)
        .map_or(0, Vec::len)
}

impl Store {
    pub fn new(registry: Registry, history_limit: usize) -> Store {
        let (changes, _) = broadcast::channel(65_536);
        let (epoch, _) = tokio::sync::watch::channel(0);
        Store {
            registry,
            inner: Mutex::new(Inner {
                rv: 1,
                objects: HashMap::new(),
                history: VecDeque::new(),
                history_limit: history_limit.max(1),
                compacted_through: 0,
            }),
            changes,
            epoch,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding the lock cannot leave a half-applied change (every change is
        // assembled before it is inserted), so a poisoned lock is safe to keep using.
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn resource_version(&self) -> u64 {
        self.lock().rv
    }

    pub fn subscribe_epoch(&self) -> tokio::sync::watch::Receiver<u64> {
        self.epoch.subscribe()
    }

    /// Drops the whole history: watches that resume from an older version get 410 Gone.
    /// With `disconnect`, open watches also end, as when an API server restarts.
    pub fn compact(&self, disconnect: bool) {
        {
            let mut inner = self.lock();
            inner.history.clear();
            inner.compacted_through = inner.rv;
        }
        if disconnect {
            self.end_watches();
        }
    }

    /// Ends every open watch; clients reconnect from their last resourceVersion.
    pub fn end_watches(&self) {
        self.epoch.send_modify(|e| *e += 1);
    }

    fn record(
        &self,
        inner: &mut Inner,
        resource: &Resource,
        kind: ChangeKind,
        object: Arc<Value>,
        previous: Option<Arc<Value>>,
    ) {
        let change = Arc::new(Change {
            rv: inner.rv,
            resource: resource.qualified(),
            kind,
            object,
            previous,
        });
        inner.history.push_back(change.clone());
        while inner.history.len() > inner.history_limit {
            if let Some(dropped) = inner.history.pop_front() {
                inner.compacted_through = dropped.rv;
            }
        }
        let _ = self.changes.send(change);
    }

    fn bucket<'i>(inner: &'i mut Inner, resource: &Resource) -> &'i mut BTreeMap<Key, Arc<Value>> {
        inner.objects.entry(resource.qualified()).or_default()
    }

    pub fn get(
        &self,
        resource: &Resource,
        namespace: &str,
        name: &str,
    ) -> Result<Arc<Value>, ApiError> {
        let inner = self.lock();
        inner
            .objects
            .get(&resource.qualified())
            .and_then(|b| b.get(&(namespace.to_owned(), name.to_owned())))
            .cloned()
            .ok_or_else(|| ApiError::not_found(resource, name))
    }

    /// Lists objects of a resource, in namespace and name order, optionally in one namespace,
    /// filtered, and paged with `limit` and an opaque `continue` token.
    pub fn list(
        &self,
        resource: &Resource,
        namespace: Option<&str>,
        filter: &dyn Fn(&Value) -> bool,
        limit: Option<usize>,
        continue_token: Option<&str>,
    ) -> Result<Listing, ApiError> {
        let inner = self.lock();
        let (list_rv, after) = match continue_token.filter(|t| !t.is_empty()) {
            Some(token) => {
                let mut parts = token.splitn(3, '\u{1f}');
                let rv = parts.next().and_then(|r| r.parse::<u64>().ok());
                match (rv, parts.next(), parts.next()) {
                    (Some(rv), Some(ns), Some(name)) => {
                        (rv, Some((ns.to_owned(), name.to_owned())))
                    }
                    _ => return Err(ApiError::bad_request("invalid continue token")),
                }
            }
            None => (inner.rv, None),
        };
        let empty = BTreeMap::new();
        let bucket = inner.objects.get(&resource.qualified()).unwrap_or(&empty);
        let range = match &after {
            Some(key) => bucket.range((
                std::ops::Bound::Excluded(key.clone()),
                std::ops::Bound::Unbounded,
            )),
            None => bucket.range::<Key, _>(..),
        };
        let mut items = Vec::new();
        let mut remaining = 0;
        let mut last_key = None;
        for (key, object) in range {
            if namespace.is_some_and(|ns| ns != key.0) || !filter(object) {
                continue;
            }
            if limit.is_some_and(|l| items.len() >= l) {
                remaining += 1;
                continue;
            }
            last_key = Some(key.clone());
            items.push(object.clone());
        }
        let continue_token = if remaining > 0 {
            last_key.map(|(ns, name)| format!("{list_rv}\u{1f}{ns}\u{1f}{name}"))
        } else {
            None
        };
        Ok(Listing {
            items,
            resource_version: list_rv,
            continue_token,
            remaining,
        })
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
        let mut name = meta_str(&object, "name").unwrap_or("").to_owned();
        if name.is_empty() {
            match meta_str(&object, "generateName") {
                Some(prefix) if !prefix.is_empty() => {
                    let suffix: String = (0..5)
                        .map(|_| fastrand::alphanumeric().to_ascii_lowercase())
                        .collect();
                    name = format!("{prefix}{suffix}");
                }
                _ => {
                    return Err(ApiError::new(
                        422,
                        "Invalid",
                        format!(
                            "{} \"\" is invalid: metadata.name: Required value: name or generateName is required",
                            resource.kind
                        ),
                    ));
                }
            }
        }
        if let Some(why) = crate::domain::rules::names::dns_subdomain(&name) {
            return Err(ApiError::new(
                422,
                "Invalid",
                format!(
                    "{} \"{name}\" is invalid: metadata.name: {why}",
                    resource.kind
                ),
            ));
        }
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
        let key = (
            if resource.namespaced {
                namespace.to_owned()
            } else {
                String::new()
            },
            name.clone(),
        );
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
        object["metadata"]["generation"] = json!(1);
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
        let key = (
            if resource.namespaced {
                namespace.to_owned()
            } else {
                String::new()
            },
            name.to_owned(),
        );
        let current = Self::bucket(inner, resource)
            .get(&key)
            .cloned()
            .ok_or_else(|| ApiError::not_found(resource, name))?;
        if !object.is_object() {
            return Err(ApiError::bad_request("the body is not an object"));
        }
        if let Some(body_name) = meta_str(&object, "name")
            && body_name != name
        {
            return Err(ApiError::bad_request(format!(
                "the name of the object ({body_name}) does not match the name on the URL ({name})"
            )));
        }
        if check_version
            && let Some(version) = meta_str(&object, "resourceVersion").filter(|v| !v.is_empty())
            && Some(version) != meta_str(&current, "resourceVersion")
        {
            return Err(ApiError::conflict(
                resource,
                name,
                "the object has been modified; please apply your changes to the latest version and try again",
            ));
        }
        let mut next = if status_only {
            let mut next = (*current).clone();
            next["status"] = object.get("status").cloned().unwrap_or(Value::Null);
            next
        } else {
            if resource.has_status && resource.plural != "namespaces" {
                match current.get("status") {
                    Some(status) => object["status"] = status.clone(),
                    None => {
                        if let Some(map) = object.as_object_mut() {
                            map.shift_remove("status");
                        }
                    }
                }
            }
            // Fields the server owns.
            for field in [
                "uid",
                "creationTimestamp",
                "deletionTimestamp",
                "generation",
            ] {
                match current["metadata"].get(field) {
                    Some(value) => object["metadata"][field] = value.clone(),
                    None => {
                        if let Some(m) = object["metadata"].as_object_mut() {
                            m.shift_remove(field);
                        }
                    }
                }
            }
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
        let key = (
            if resource.namespaced {
                namespace.to_owned()
            } else {
                String::new()
            },
            name.to_owned(),
        );
        let current = Self::bucket(&mut inner, resource)
            .get(&key)
            .cloned()
            .ok_or_else(|| ApiError::not_found(resource, name))?;
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
        let key = (
            if resource.namespaced {
                namespace.to_owned()
            } else {
                String::new()
            },
            name.to_owned(),
        );
        let current = Self::bucket(&mut inner, resource)
            .get(&key)
            .cloned()
            .ok_or_else(|| ApiError::not_found(resource, name))?;
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
    fn collect_garbage(&self, inner: &mut Inner, owner: &Value) {
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

    /// Starts a watch: the changes to replay (everything current when `since` is `None`),
    /// and the live stream after them. 410 Gone when `since` is older than the history.
    pub fn watch(&self, resource: &Resource, since: Option<u64>) -> Result<WatchStart, ApiError> {
        let inner = self.lock();
        let qualified = resource.qualified();
        let replay: Vec<Arc<Change>> = match since {
            None | Some(0) => inner
                .objects
                .get(&qualified)
                .map(|bucket| {
                    bucket
                        .values()
                        .map(|object| {
                            Arc::new(Change {
                                rv: inner.rv,
                                resource: qualified.clone(),
                                kind: ChangeKind::Added,
                                object: object.clone(),
                                previous: None,
                            })
                        })
                        .collect()
                })
                .unwrap_or_default(),
            Some(rv) if rv < inner.compacted_through => {
                return Err(ApiError::gone(format!(
                    "too old resource version: {rv} ({})",
                    inner.compacted_through
                )));
            }
            Some(rv) => inner
                .history
                .iter()
                .filter(|c| c.rv > rv && c.resource == qualified)
                .cloned()
                .collect(),
        };
        let start = match since {
            Some(rv) if rv > 0 => rv.max(inner.compacted_through),
            _ => inner.rv,
        };
        Ok(WatchStart {
            replay,
            live: self.changes.subscribe(),
            start,
        })
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

    /// Every object of a resource, for the controllers of the scenario player.
    pub fn objects(&self, resource: &Resource) -> Vec<Arc<Value>> {
        self.lock()
            .objects
            .get(&resource.qualified())
            .map(|b| b.values().cloned().collect())
            .unwrap_or_default()
    }

    /// Every object of every resource.
    pub fn snapshot(&self) -> Vec<Arc<Value>> {
        let inner = self.lock();
        let mut all = Vec::new();
        for resource in &self.registry.resources {
            if let Some(bucket) = inner.objects.get(&resource.qualified()) {
                all.extend(bucket.values().cloned());
            }
        }
        all
    }
}

/// The beginning of a watch: what to replay, the live stream after it, and the version the
/// watch starts at.
pub struct WatchStart {
    pub replay: Vec<Arc<Change>>,
    pub live: broadcast::Receiver<Arc<Change>>,
    pub start: u64,
}

/// A patch body, by content type.
#[derive(Clone, Debug)]
pub enum Patch {
    /// JSON merge patch (RFC 7386); also used for apply and strategic merge on our kinds.
    Merge(Value),
    /// JSON patch (RFC 6902) operations.
    Json(Value),
}
