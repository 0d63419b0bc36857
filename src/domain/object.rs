//! Naming an object on the hub: [`ObjectRef`] says which object (kind, namespace, name) and,
//! where an operation must not touch a successor of the same name, which incarnation (uid and
//! resourceVersion). Rows, confirmations, operations and the audit log all name objects so.

use std::fmt;

use super::field::Text;
use super::kind::Kind;

/// One object by kind, namespace (empty for cluster-scoped kinds) and name.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectRef {
    pub kind: Kind,
    pub namespace: Text,
    pub name: Text,
}

impl ObjectRef {
    pub fn new(kind: Kind, namespace: impl Into<Text>, name: impl Into<Text>) -> ObjectRef {
        ObjectRef {
            kind,
            namespace: namespace.into(),
            name: name.into(),
        }
    }

    /// `-n NS ` for a kubectl command line (empty for a cluster-scoped kind).
    pub fn namespace_flag(&self) -> String {
        if self.namespace.is_empty() || !self.kind.api().namespaced {
            String::new()
        } else {
            format!(" -n {}", self.namespace)
        }
    }
}

impl fmt::Display for ObjectRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.namespace.is_empty() {
            write!(f, "{} {}", self.kind.api().kind, self.name)
        } else {
            write!(
                f,
                "{} {}/{}",
                self.kind.api().kind,
                self.namespace,
                self.name
            )
        }
    }
}

/// The incarnation an operation is meant for: the API refuses it (409) when the object was
/// recreated (another uid) or changed (another resourceVersion) since it was looked at.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Preconditions {
    pub uid: Option<String>,
    pub resource_version: Option<String>,
}
