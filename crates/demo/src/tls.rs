//! TLS for the demo cluster. kubectl sends credentials only over TLS, so the server makes a
//! throwaway certificate authority and a server certificate for 127.0.0.1 and localhost at
//! start, serves HTTPS with them, and puts the authority in the kubeconfig it writes.

use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;

use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair, KeyUsagePurpose,
    SanType,
};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};

/// The authority (for kubeconfigs) and the server's TLS configuration.
pub struct Certificates {
    /// The certificate authority, PEM, as `certificate-authority-data` wants it (base64 of this).
    pub ca_pem: String,
    pub server: Arc<rustls::ServerConfig>,
}

/// Makes a fresh authority and a server certificate for 127.0.0.1 and localhost.
pub fn generate() -> Result<Certificates, super::error::Error> {
    let fail = |what: &'static str, e: &dyn std::fmt::Display| super::error::Error::Certificate {
        what,
        detail: e.to_string(),
    };
    let mut ca_params =
        CertificateParams::new(Vec::<String>::new()).map_err(|e| fail("authority", &e))?;
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(DnType::CommonName, "pooldeck demo cluster CA");
    ca_params.key_usages = vec![
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::CrlSign,
        KeyUsagePurpose::DigitalSignature,
    ];
    let ca_key = KeyPair::generate().map_err(|e| fail("authority key", &e))?;
    let ca = CertifiedIssuer::self_signed(ca_params, ca_key).map_err(|e| fail("authority", &e))?;

    let mut params = CertificateParams::new(vec!["localhost".to_owned()])
        .map_err(|e| fail("certificate", &e))?;
    params
        .subject_alt_names
        .push(SanType::IpAddress(IpAddr::V4(Ipv4Addr::LOCALHOST)));
    params
        .distinguished_name
        .push(DnType::CommonName, "pooldeck demo cluster");
    let key = KeyPair::generate().map_err(|e| fail("server key", &e))?;
    let certificate = params
        .signed_by(&key, &ca)
        .map_err(|e| fail("certificate", &e))?;

    let chain = vec![
        certificate.der().clone(),
        CertificateDer::from(ca.der().to_vec()),
    ];
    let private = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der()));
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut server = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| fail("TLS configuration", &e))?
        .with_no_client_auth()
        .with_single_cert(chain, private)
        .map_err(|e| fail("TLS configuration", &e))?;
    server.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Certificates {
        ca_pem: ca.pem(),
        server: Arc::new(server),
    })
}
