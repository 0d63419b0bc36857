//! kube-rs errors read into the typed [`ClusterError`], so callers tell the cases apart by
//! type (a certificate from another authority is not "cannot reach the server") and the
//! sentence a person reads is made from the type.

use crate::domain::error::{Cause, ClusterError, Configuration};
use crate::inventory::{Kind, Scope, SourceState};

/// The whole chain of an error's sources, in one line.
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(inner) = source {
        let more = inner.to_string();
        if !text.contains(&more) {
            text = format!("{text}: {more}");
        }
        source = inner.source();
    }
    text
}

/// Whether a transport error is about the server's certificate rather than the network.
fn about_the_certificate(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    [
        "certificate",
        "unknownissuer",
        "badsignature",
        "invalid peer",
        "notvalidforname",
    ]
    .iter()
    .any(|word| lower.contains(word))
}

/// Reads a kube-rs error as what it is.
pub fn classify(error: &kube::Error) -> ClusterError {
    match error {
        kube::Error::Api(status) => {
            let message = status.message.clone();
            match status.code {
                401 => ClusterError::Unauthorized { message },
                403 => ClusterError::Forbidden { message },
                404 => ClusterError::NotFound {
                    what: named_in(status).unwrap_or(message),
                },
                409 if status.reason == "AlreadyExists" => ClusterError::AlreadyExists {
                    what: named_in(status).unwrap_or(message),
                },
                409 => ClusterError::Conflict { message },
                410 => ClusterError::Gone,
                422 => ClusterError::Invalid {
                    causes: status
                        .details
                        .as_ref()
                        .map(|d| {
                            d.causes
                                .iter()
                                .map(|c| Cause {
                                    field: c.field.clone(),
                                    message: c.message.clone(),
                                })
                                .collect()
                        })
                        .unwrap_or_default(),
                    message,
                },
                code => ClusterError::Other {
                    message: format!("the server answered {code}: {message}"),
                },
            }
        }
        kube::Error::HyperError(e) => transport(&chain(e)),
        kube::Error::Service(e) => transport(&chain(e.as_ref())),
        kube::Error::Auth(e) => ClusterError::Unauthorized { message: chain(e) },
        kube::Error::SerdeError(e) => ClusterError::Other {
            message: format!(
                "the server's answer could not be read as the Kubernetes API's ({e}); a proxy \
                 may have answered instead of the API server: check the kubeconfig's server address"
            ),
        },
        other => ClusterError::Other {
            message: chain(other),
        },
    }
}

/// "ComputePool retail-edge/store-042" from a Status's details, when it names the object.
fn named_in(status: &kube::core::Status) -> Option<String> {
    let details = status.details.as_ref()?;
    if details.name.is_empty() {
        return None;
    }
    let kind = if details.kind.is_empty() {
        "object"
    } else {
        details.kind.as_str()
    };
    Some(format!("{kind} {}", details.name))
}

/// Reads the error of a request that changes something: a connection that dropped once the
/// request was on its way is not "cannot reach the server", since the server may have acted.
pub fn classify_sent(error: &kube::Error) -> ClusterError {
    match classify(error) {
        ClusterError::Unreachable { detail, .. } if !before_sending(&detail) => {
            ClusterError::Unanswered { detail }
        }
        other => other,
    }
}

/// Whether a transport error happened while connecting (nothing was sent).
fn before_sending(detail: &str) -> bool {
    let lower = detail.to_ascii_lowercase();
    [
        "(connect)",
        "tcp connect",
        "connection refused",
        "dns error",
        "no route to host",
    ]
    .iter()
    .any(|word| lower.contains(word))
}

fn transport(detail: &str) -> ClusterError {
    if detail.contains("invalid HTTP version") {
        // A plain-HTTP client talking to a TLS server reads the TLS handshake as garbage.
        return ClusterError::Configuration(Configuration::PlainHttp);
    }
    if about_the_certificate(detail) {
        ClusterError::CertificateNotTrusted {
            server: String::new(),
            detail: detail.to_owned(),
        }
    } else {
        ClusterError::Unreachable {
            server: String::new(),
            detail: detail.to_owned(),
        }
    }
}

/// What a refused list says: the resource is not there or may not be read.
pub fn refused(kind: Kind, scope: &Scope, error: &kube::Error) -> Option<SourceState> {
    match error {
        kube::Error::Api(status) if status.code == 403 => Some(SourceState::Forbidden {
            message: format!(
                "cannot list or watch {} {}: {}",
                kind.resource_name(),
                scope
                    .as_deref()
                    .map_or("at cluster scope".to_owned(), |ns| format!(
                        "in namespace {ns}"
                    )),
                status.message
            ),
        }),
        kube::Error::Api(status) if status.code == 404 => Some(SourceState::NotInstalled),
        _ => None,
    }
}

/// The HTTP status an API error carries.
pub fn code(error: &kube::Error) -> Option<u16> {
    match error {
        kube::Error::Api(status) => Some(status.code),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dropped_answer_is_not_a_server_out_of_reach() {
        let refused = kube::Error::Service(
            "client error (Connect): tcp connect error: Connection refused (os error 111)".into(),
        );
        assert!(matches!(
            classify_sent(&refused),
            ClusterError::Unreachable { .. }
        ));
        let dropped = kube::Error::Service(
            "client error (SendRequest): connection closed before message completed".into(),
        );
        let error = classify_sent(&dropped);
        assert!(
            matches!(error, ClusterError::Unanswered { .. }),
            "{error:?}"
        );
        assert!(error.to_string().contains("may have acted"));
    }

    #[test]
    fn transport_errors_name_the_certificate_or_the_network() {
        assert!(matches!(
            transport("client error (Connect): invalid peer certificate: UnknownIssuer"),
            ClusterError::CertificateNotTrusted { .. }
        ));
        assert!(matches!(
            transport(
                "client error (Connect): tcp connect error: Connection refused (os error 111)"
            ),
            ClusterError::Unreachable { .. }
        ));
    }
}
