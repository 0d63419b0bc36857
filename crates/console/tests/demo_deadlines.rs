//! The demo cluster does not let a client hold a connection by saying nothing: a silent TCP
//! connection, half a request head, an idle keep-alive connection and half a body are each
//! closed after the server's deadline, while an open watch (a response the server is writing)
//! lives on past all of them. Each test runs over real TLS with short deadlines and has its
//! own timeout, so a server that waits for ever fails the test rather than hanging it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use pooldeck::demo::serve::Deadlines;
use pooldeck::demo::{DemoCluster, Options};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::client::TlsStream;

const DEADLINE: Duration = Duration::from_secs(1);
/// Longer than any deadline plus scheduling slack; a test that waits this long has failed.
const GIVE_UP: Duration = Duration::from_secs(15);

async fn cluster() -> DemoCluster {
    DemoCluster::start(Options {
        deadlines: Deadlines {
            handshake: DEADLINE,
            request_head: DEADLINE,
            request_body: DEADLINE,
        },
        bookmark_interval: Duration::from_millis(300),
        ..Options::default()
    })
    .await
    .expect("the demo cluster starts")
}

async fn tls(cluster: &DemoCluster) -> TlsStream<TcpStream> {
    let ca = CertificateDer::from_pem_slice(cluster.ca_pem.as_bytes()).expect("the CA reads");
    let mut roots = rustls::RootCertStore::empty();
    roots.add(ca).expect("the CA is a certificate");
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_root_certificates(roots)
        .with_no_client_auth();
    let tcp = TcpStream::connect(cluster.address).await.expect("connects");
    let name = ServerName::try_from("127.0.0.1").expect("a server name");
    TlsConnector::from(Arc::new(config))
        .connect(name, tcp)
        .await
        .expect("the TLS handshake completes")
}

/// Reads until the server closes the connection; returns what it sent and how long it took.
async fn read_to_close(stream: &mut (impl AsyncReadExt + Unpin)) -> (String, Duration) {
    let started = Instant::now();
    let mut seen = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        match tokio::time::timeout(GIVE_UP, stream.read(&mut buffer)).await {
            Err(_) => panic!(
                "the server kept the connection open for {GIVE_UP:?}; it sent: {}",
                String::from_utf8_lossy(&seen)
            ),
            Ok(Ok(0) | Err(_)) => {
                return (String::from_utf8_lossy(&seen).into(), started.elapsed());
            }
            Ok(Ok(n)) => seen.extend_from_slice(&buffer[..n]),
        }
    }
}

#[tokio::test]
async fn a_connection_that_never_starts_tls_is_closed() {
    let cluster = cluster().await;
    let mut tcp = TcpStream::connect(cluster.address).await.expect("connects");
    let (_, waited) = read_to_close(&mut tcp).await;
    assert!(waited >= DEADLINE / 2, "closed too early: {waited:?}");
}

#[tokio::test]
async fn half_a_request_head_is_closed() {
    let cluster = cluster().await;
    let mut stream = tls(&cluster).await;
    stream
        .write_all(b"GET /version HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        .await
        .expect("writes");
    let (sent, waited) = read_to_close(&mut stream).await;
    assert!(
        !sent.contains("200 OK"),
        "a request never finished was answered: {sent}"
    );
    assert!(waited >= DEADLINE / 2, "closed too early: {waited:?}");
}

#[tokio::test]
async fn an_idle_connection_is_closed_after_its_answer() {
    let cluster = cluster().await;
    let mut stream = tls(&cluster).await;
    stream
        .write_all(b"GET /version HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await
        .expect("writes");
    let (sent, _) = read_to_close(&mut stream).await;
    assert!(
        sent.starts_with("HTTP/1.1 200"),
        "the request is answered: {sent}"
    );
    assert!(sent.contains("gitVersion"), "with the version: {sent}");
}

#[tokio::test]
async fn half_a_body_gets_a_408_status_and_the_connection_closes() {
    let cluster = cluster().await;
    let mut stream = tls(&cluster).await;
    let head = format!(
        "POST /api/v1/namespaces/default/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\
         Authorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n",
        cluster.admin_token
    );
    stream.write_all(head.as_bytes()).await.expect("writes");
    stream.write_all(b"{\"apiVersion\":").await.expect("writes");
    let (sent, waited) = read_to_close(&mut stream).await;
    assert!(sent.starts_with("HTTP/1.1 408"), "a 408 answer: {sent}");
    assert!(sent.contains("\"kind\":\"Status\""), "as a Status: {sent}");
    assert!(sent.contains("did not arrive within"), "saying why: {sent}");
    assert!(
        sent.to_ascii_lowercase().contains("connection: close"),
        "and closing: {sent}"
    );
    assert!(waited >= DEADLINE / 2, "closed too early: {waited:?}");
}

#[tokio::test]
async fn an_open_watch_outlives_every_deadline() {
    let cluster = cluster().await;
    let mut stream = tls(&cluster).await;
    let request = format!(
        "GET /api/v1/namespaces/default/events?watch=true&allowWatchBookmarks=true HTTP/1.1\r\n\
         Host: 127.0.0.1\r\nAuthorization: Bearer {}\r\n\r\n",
        cluster.admin_token
    );
    stream.write_all(request.as_bytes()).await.expect("writes");
    let started = Instant::now();
    let mut seen = Vec::new();
    let mut buffer = [0u8; 4096];
    // Bookmarks keep arriving for three deadlines and more: nothing cut the watch.
    while started.elapsed() < DEADLINE * 4 {
        match tokio::time::timeout(GIVE_UP, stream.read(&mut buffer)).await {
            Ok(Ok(n)) if n > 0 => seen.extend_from_slice(&buffer[..n]),
            other => panic!(
                "the watch ended after {:?} ({other:?}); it sent: {}",
                started.elapsed(),
                String::from_utf8_lossy(&seen)
            ),
        }
    }
    let sent = String::from_utf8_lossy(&seen);
    assert!(sent.starts_with("HTTP/1.1 200"), "the watch opened: {sent}");
    assert!(sent.contains("BOOKMARK"), "bookmarks flowed: {sent}");
}
