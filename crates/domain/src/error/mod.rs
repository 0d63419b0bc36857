//! What can go wrong talking to a hub, typed where a caller must tell the cases apart (offer
//! to review again after a conflict, disable an action that is forbidden, say that a server
//! is unreachable rather than blame the object). `Display` is the sentence shown to a person:
//! what happened, in the user's terms, and what to do next.

mod files;

use std::fmt;

pub use self::files::{
    AppendError, DirError, DirStep, ReadError, Unappendable, Unwritable, WriteError,
};

/// One field the API refused, from an Invalid (422) answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cause {
    pub field: String,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClusterError {
    /// RBAC refuses the request (403).
    Forbidden { message: String },
    /// The credentials were not accepted (401).
    Unauthorized { message: String },
    /// The object is not there (404).
    NotFound { what: String },
    /// The object changed or was recreated since it was looked at (409, or a failed test of
    /// a JSON patch): a precondition refused it.
    Conflict { message: String },
    /// An object of that name is already there (409 AlreadyExists on a create).
    AlreadyExists { what: String },
    /// The API refused the object's content (422), field by field.
    Invalid { message: String, causes: Vec<Cause> },
    /// The resourceVersion is too old (410): list again.
    Gone,
    /// The server could not be reached at all: nothing was sent.
    Unreachable { server: String, detail: String },
    /// The request went out but its answer never came back (the connection dropped): the
    /// server may have acted on it.
    Unanswered { detail: String },
    /// pooldeck held the request back, and why: bound to another hub than the console's
    /// now, a name that is not a Kubernetes name, an audit record that could not be written.
    NotSent { why: String },
    /// The server's certificate is not signed by an authority the kubeconfig trusts.
    CertificateNotTrusted { server: String, detail: String },
    /// The kubeconfig or context cannot be used as written, and how.
    Configuration(Configuration),
    /// Read-only mode held the request back: nothing was sent.
    ReadOnly,
    /// Anything else the server or client said, verbatim.
    Other { message: String },
}

/// ` NAME` when the server is known.
fn named(server: &str) -> String {
    if server.is_empty() {
        String::new()
    } else {
        format!(" {server}")
    }
}

impl fmt::Display for ClusterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClusterError::Forbidden { message } => {
                write!(
                    f,
                    "not allowed (403 Forbidden): {message}; ask your cluster admin for the permission"
                )
            }
            ClusterError::Unauthorized { message } => write!(
                f,
                "the server refused the credentials (401 Unauthorized: {message}); the token may have expired: log in again or pick another context"
            ),
            ClusterError::NotFound { what } => {
                let lower = what.to_lowercase();
                if lower.contains("not found") || lower.contains("could not find") {
                    write!(f, "{what} (404 Not Found)")
                } else {
                    write!(f, "{what} was not found")
                }
            }
            ClusterError::Conflict { message } => write!(
                f,
                "changed since you looked — review it again ({message}); nothing was changed"
            ),
            ClusterError::AlreadyExists { what } => write!(
                f,
                "{what} already exists; choose another name, or edit the one there"
            ),
            ClusterError::Unanswered { detail } => write!(
                f,
                "the request was sent but no answer came back ({detail}); the server may have \
                 acted on it: look at the object before trying again"
            ),
            ClusterError::NotSent { why } => write!(f, "nothing was sent: {why}"),
            ClusterError::Invalid { message, causes } => {
                write!(f, "the server refused it: {message}")?;
                for cause in causes {
                    write!(f, "; {}: {}", cause.field, cause.message)?;
                }
                Ok(())
            }
            ClusterError::Gone => {
                f.write_str("the server no longer has that version of the list; listing again")
            }
            ClusterError::Unreachable { server, detail } => write!(
                f,
                "cannot reach the server{} ({detail}); check the network or VPN, and the kubeconfig's server address",
                named(server)
            ),
            ClusterError::CertificateNotTrusted { server, detail } => write!(
                f,
                "the server{} presented a certificate the kubeconfig does not trust ({detail}); check certificate-authority-data for this cluster",
                named(server)
            ),
            ClusterError::Configuration(problem) => problem.fmt(f),
            ClusterError::ReadOnly => f.write_str(
                "pooldeck is in read-only mode (--readonly, or readonly: true for this context in the settings file): nothing was sent",
            ),
            ClusterError::Other { message } => f.write_str(message),
        }
    }
}

impl std::error::Error for ClusterError {}

/// Why the kubeconfig or a context cannot be used, typed so that the one who reads it can
/// offer the next step (the contexts there are, another file); its `Display` is the sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Configuration {
    /// A kubeconfig file cannot be read or parsed.
    Unreadable { path: String, detail: String },
    /// The kubeconfig the demo handed over cannot be read.
    DemoUnreadable { detail: String },
    /// A kubeconfig file KUBECONFIG lists cannot be merged with the ones before it.
    Unmergeable { path: String, detail: String },
    /// No kubeconfig where kubectl looks (`looked_in` says where that was).
    NoKubeconfig { looked_in: String },
    /// The kubeconfig names no current context, and none was asked for.
    NoCurrentContext,
    /// The context asked for is not in the kubeconfig.
    UnknownContext { context: String, known: Vec<String> },
    /// The context's cluster has a certificate authority that cannot be used: no server
    /// could be trusted.
    Authority {
        cluster: String,
        problem: AuthorityProblem,
    },
    /// The context cannot be turned into a configuration.
    Unusable { context: String, detail: String },
    /// No client can be made from the context's configuration.
    NoClient { context: String, detail: String },
    /// Inside a pod, the service account's configuration cannot be used (`client`: it was
    /// read, but no client could be made from it).
    InCluster { detail: String, client: bool },
    /// The server answered in TLS where the kubeconfig says plain HTTP.
    PlainHttp,
    /// There is no cluster at all (an offline wizard), and why.
    NoCluster { why: String },
}

/// What is wrong with a kubeconfig's certificate authority.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AuthorityProblem {
    /// `certificate-authority-data` is not base64.
    NotBase64,
    /// The `certificate-authority` file cannot be read.
    Unreadable { path: String, detail: String },
    /// What it holds is not a certificate.
    NotACertificate,
}

impl std::error::Error for Configuration {}

impl fmt::Display for Configuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Configuration::Unreadable { path, detail } => {
                write!(f, "cannot read the kubeconfig {path}: {detail}")
            }
            Configuration::DemoUnreadable { detail } => {
                write!(f, "cannot read the demo's kubeconfig: {detail}")
            }
            Configuration::Unmergeable { path, detail } => {
                write!(f, "cannot merge the kubeconfig {path}: {detail}")
            }
            Configuration::NoKubeconfig { looked_in } => write!(
                f,
                "no kubeconfig found ({looked_in}); pass --kubeconfig, set KUBECONFIG, or try `pooldeck --demo`"
            ),
            Configuration::NoCurrentContext => {
                f.write_str("the kubeconfig names no current context; pass --context")
            }
            Configuration::UnknownContext { context, known } => write!(
                f,
                "there is no context \"{context}\" in the kubeconfig (known: {})",
                known.join(", ")
            ),
            Configuration::Authority { cluster, problem } => match problem {
                AuthorityProblem::NotBase64 => write!(
                    f,
                    "the kubeconfig's certificate-authority-data for cluster \"{cluster}\" is \
                     not base64; fix it or ask for a new kubeconfig"
                ),
                AuthorityProblem::Unreadable { path, detail } => write!(
                    f,
                    "the kubeconfig's certificate-authority {path} for cluster \"{cluster}\" \
                     cannot be read: {detail}"
                ),
                AuthorityProblem::NotACertificate => write!(
                    f,
                    "the kubeconfig's certificate authority for cluster \"{cluster}\" is not a \
                     certificate, so no server could be trusted; fix it or ask for a new \
                     kubeconfig"
                ),
            },
            Configuration::Unusable { context, detail } => {
                write!(f, "cannot use context \"{context}\": {detail}")
            }
            Configuration::NoClient { context, detail } => {
                write!(f, "cannot build a client for \"{context}\": {detail}")
            }
            Configuration::InCluster {
                detail,
                client: false,
            } => write!(f, "cannot use the in-cluster configuration: {detail}"),
            Configuration::InCluster {
                detail,
                client: true,
            } => write!(f, "cannot build an in-cluster client: {detail}"),
            Configuration::PlainHttp => f.write_str(
                "the server did not answer in plain HTTP (it most likely speaks HTTPS); make the \
                 kubeconfig's server address start with https://",
            ),
            Configuration::NoCluster { why } => write!(f, "no cluster: {why}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_sentence_names_the_cause_and_a_next_step() {
        let conflict = ClusterError::Conflict {
            message: "the object has been modified".into(),
        };
        assert!(
            conflict
                .to_string()
                .contains("changed since you looked — review it again")
        );
        let missing = ClusterError::NotFound {
            what: "the server could not find the requested resource".into(),
        };
        assert_eq!(
            missing.to_string(),
            "the server could not find the requested resource (404 Not Found)"
        );
        let named = ClusterError::NotFound {
            what: "ComputePool a/b".into(),
        };
        assert_eq!(named.to_string(), "ComputePool a/b was not found");
        let dropped = ClusterError::Unanswered {
            detail: "connection closed before message completed".into(),
        };
        assert!(dropped.to_string().contains("may have acted"));
        let invalid = ClusterError::Invalid {
            message: "ComputePool \"a\" is invalid".into(),
            causes: vec![Cause {
                field: "spec.vip".into(),
                message: "is immutable".into(),
            }],
        };
        assert!(invalid.to_string().contains("spec.vip: is immutable"));
        let unreachable = ClusterError::Unreachable {
            server: "https://hub:6443".into(),
            detail: "connection refused".into(),
        };
        assert!(unreachable.to_string().contains("https://hub:6443"));
    }
}
