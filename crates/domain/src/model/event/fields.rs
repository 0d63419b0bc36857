//! The fields of an event pooldeck keeps apart, and the order the API writes them in.

/// An event's own texts, in the order [`Event::to_value`] writes them.
pub(super) const TEXTS: [&str; 8] = [
    "kind",
    "apiVersion",
    "reason",
    "message",
    "type",
    "action",
    "reportingComponent",
    "reportingInstance",
];
pub(super) const KIND: usize = 0;
pub(super) const API_VERSION: usize = 1;
pub(super) const REASON: usize = 2;
pub(super) const MESSAGE: usize = 3;
pub(super) const TYPE: usize = 4;
pub(super) const REPORTING_COMPONENT: usize = 6;

/// The fields of the object an event is about.
pub(super) const INVOLVED: [&str; 7] = [
    "kind",
    "namespace",
    "name",
    "uid",
    "apiVersion",
    "resourceVersion",
    "fieldPath",
];
/// The fields of an event's source.
pub(super) const SOURCE: [&str; 2] = ["component", "host"];

/// An event's fields in the order the API writes them.
pub(super) const ORDER: [&str; 17] = [
    "kind",
    "apiVersion",
    "metadata",
    "involvedObject",
    "reason",
    "message",
    "source",
    "firstTimestamp",
    "lastTimestamp",
    "count",
    "type",
    "eventTime",
    "series",
    "action",
    "related",
    "reportingComponent",
    "reportingInstance",
];

/// Metadata's fields in the order the API writes them.
pub(super) const METADATA: [&str; 15] = [
    "name",
    "generateName",
    "namespace",
    "selfLink",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "labels",
    "annotations",
    "ownerReferences",
    "finalizers",
    "managedFields",
];
