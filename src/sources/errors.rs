//! kube-rs errors read into the typed [`ClusterError`], so callers tell the cases apart by
//! type (a certificate from another authority is not "cannot reach the server") and the
//! sentence a person reads is made from the type.

use crate::domain::error::{Cause, ClusterError};

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
                404 => ClusterError::NotFound { what: message },
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
        other => ClusterError::Other {
            message: chain(other),
        },
    }
}

fn transport(detail: &str) -> ClusterError {
    if detail.contains("invalid HTTP version") {
        // A plain-HTTP client talking to a TLS server reads the TLS handshake as garbage.
        return ClusterError::Configuration {
            message: "the server did not answer in plain HTTP (it most likely speaks HTTPS); \
                      make the kubeconfig's server address start with https://"
                .to_owned(),
        };
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

#[cfg(test)]
mod tests {
    use super::*;

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
