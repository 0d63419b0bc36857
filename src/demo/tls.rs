//! TLS for the demo cluster. kubectl sends credentials only over TLS, so the server makes a
//! throwaway certificate authority and a server certificate for 127.0.0.1 and localhost at
//! start, serves HTTPS with them, and puts the authority in the kubeconfig it writes.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair, KeyUsagePurpose,
    SanType,
};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::server::TlsStream;

/// The authority (for kubeconfigs) and the server's TLS configuration.
pub struct Certificates {
    /// The certificate authority, PEM, as `certificate-authority-data` wants it (base64 of this).
    pub ca_pem: String,
    pub server: Arc<rustls::ServerConfig>,
}

/// Makes a fresh authority and a server certificate for 127.0.0.1 and localhost.
pub fn generate() -> Result<Certificates, String> {
    let fail =
        |what: &str, e: &dyn std::fmt::Display| format!("cannot create the demo {what}: {e}");
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

/// A listener that hands axum connections whose TLS handshake has completed. Handshakes run
/// on their own tasks, so a slow or broken client never holds up the others.
pub struct TlsListener {
    local: SocketAddr,
    ready: mpsc::Receiver<(TlsStream<TcpStream>, SocketAddr)>,
    /// The task that owns the socket; stopping it closes the port for a successor.
    acceptor: tokio::task::JoinHandle<()>,
}

impl Drop for TlsListener {
    fn drop(&mut self) {
        self.acceptor.abort();
    }
}

impl TlsListener {
    pub fn new(
        listener: TcpListener,
        config: Arc<rustls::ServerConfig>,
    ) -> std::io::Result<TlsListener> {
        let local = listener.local_addr()?;
        let (sender, ready) = mpsc::channel(64);
        let acceptor = TlsAcceptor::from(config);
        let acceptor = tokio::spawn(async move {
            loop {
                let (stream, peer) = match listener.accept().await {
                    Ok(accepted) => accepted,
                    Err(_) => {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                };
                if sender.is_closed() {
                    return;
                }
                let acceptor = acceptor.clone();
                let handshake_done = sender.clone();
                tokio::spawn(async move {
                    let _ = stream.set_nodelay(true);
                    if let Ok(Ok(tls)) =
                        tokio::time::timeout(Duration::from_secs(10), acceptor.accept(stream)).await
                    {
                        let _ = handshake_done.send((tls, peer)).await;
                    }
                });
            }
        });
        Ok(TlsListener {
            local,
            ready,
            acceptor,
        })
    }
}

impl axum::serve::Listener for TlsListener {
    type Io = TlsStream<TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        match self.ready.recv().await {
            Some(connection) => connection,
            // The acceptor task only ends when this listener is dropped.
            None => std::future::pending().await,
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        Ok(self.local)
    }
}
