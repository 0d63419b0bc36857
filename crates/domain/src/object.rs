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

    /// ` -n NS` for a kubectl command line, quoted for the shell (empty for a cluster-scoped
    /// kind).
    pub fn namespace_flag(&self) -> String {
        if self.namespace.is_empty() || !self.kind.api().namespaced {
            String::new()
        } else {
            format!(" -n {}", super::shell::quote(&self.namespace))
        }
    }

    /// Why this cannot name an object the API serves (a name or namespace that is not a
    /// Kubernetes name, read from a status field, say), or `None`. Nothing is sent for such
    /// a reference: it would put another path segment in the request.
    pub fn problem(&self) -> Option<String> {
        use super::rules::names::{dns_label, dns_subdomain};
        if let Some(why) = dns_subdomain(&self.name) {
            return Some(format!(
                "\"{}\" is not a Kubernetes name: it {why}",
                super::inert::line(&self.name)
            ));
        }
        if self.kind.api().namespaced
            && let Some(why) = dns_label(&self.namespace)
        {
            return Some(format!(
                "\"{}\" is not a namespace name: it {why}",
                super::inert::line(&self.namespace)
            ));
        }
        None
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

impl Preconditions {
    /// The uid and resourceVersion of an object as it was looked at.
    pub fn of(uid: Option<&str>, resource_version: Option<&str>) -> Preconditions {
        Preconditions {
            uid: uid.map(str::to_owned),
            resource_version: resource_version.map(str::to_owned),
        }
    }

    /// How an object now differs from what these name, in words, or `None` when it is the
    /// same incarnation at the same version.
    pub fn changed(&self, uid: Option<&str>, resource_version: Option<&str>) -> Option<String> {
        if self.uid.is_some() && self.uid.as_deref() != uid {
            return Some("it was deleted and created again (another uid)".to_owned());
        }
        match (&self.resource_version, resource_version) {
            (Some(then), Some(now)) if then != now => Some(format!(
                "it changed (resourceVersion {then} then, {now} now)"
            )),
            _ => None,
        }
    }
}
