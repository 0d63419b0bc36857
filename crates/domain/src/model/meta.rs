//! Object metadata, read leniently. Only the fields pooldeck uses are named; the rest
//! (managedFields, ...) stay in `extra`.

use crate::field::{Field, Map, Text, model};

/// Labels and annotations: each value is read on its own, so one unquoted `true` does not
/// hide the others.
pub type StringMap = Map<Field<Text>>;

model! {
    /// `metadata` of any object.
    open struct ObjectMeta {
        name: Text = "name",
        generate_name: Text = "generateName",
        namespace: Text = "namespace",
        uid: Text = "uid",
        resource_version: Text = "resourceVersion",
        generation: i64 = "generation",
        creation_timestamp: Text = "creationTimestamp",
        deletion_timestamp: Text = "deletionTimestamp",
        labels: StringMap = "labels",
        annotations: StringMap = "annotations",
        finalizers: Vec<Field<Text>> = "finalizers",
        owner_references: Vec<Field<OwnerReference>> = "ownerReferences",
    }
}

model! {
    open struct OwnerReference {
        api_version: Text = "apiVersion",
        kind: Text = "kind",
        name: Text = "name",
        uid: Text = "uid",
        controller: bool = "controller",
        block_owner_deletion: bool = "blockOwnerDeletion",
    }
}

impl ObjectMeta {
    pub fn name(&self) -> &str {
        self.name.as_deref().unwrap_or("")
    }

    pub fn namespace(&self) -> Option<&str> {
        self.namespace.as_deref()
    }

    pub fn label(&self, key: &str) -> Option<&str> {
        self.labels.get()?.get(key)?.as_deref()
    }

    pub fn annotation(&self, key: &str) -> Option<&str> {
        self.annotations.get()?.get(key)?.as_deref()
    }

    pub fn finalizers(&self) -> impl Iterator<Item = &str> {
        self.finalizers
            .get()
            .into_iter()
            .flatten()
            .filter_map(|f| f.as_deref())
    }

    pub fn is_deleting(&self) -> bool {
        self.deletion_timestamp.is_present()
    }
}
