//! The demo cluster's connection loop: accepts TCP, completes TLS, and serves HTTP/1.1 with
//! deadlines, so a client that connects and says nothing, sends half a request, or sits idle
//! between requests cannot hold a connection (and its memory) for ever. Open watches are
//! responses the server is writing, so no deadline cuts them; they end when the server stops.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinSet;
use tokio_rustls::TlsAcceptor;

/// How long the server waits for a client, at each point where it waits on one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadlines {
    /// From connecting to a finished TLS handshake.
    pub handshake: Duration,
    /// For a request's line and headers, counted from when the server is ready to read it:
    /// this also closes a connection left idle between requests.
    pub request_head: Duration,
    /// For a request's body, once its head has arrived (answered with 408).
    pub request_body: Duration,
}

impl Default for Deadlines {
    fn default() -> Self {
        Deadlines {
            handshake: Duration::from_secs(10),
            request_head: Duration::from_secs(30),
            request_body: Duration::from_secs(30),
        }
    }
}

/// Serves `router` on `listener` until `stop` resolves; then closes the port, asks every
/// connection to finish (open watches end because the caller closed the store), and returns
/// once they have. Dropping the returned future cuts every connection.
pub async fn serve(
    listener: TcpListener,
    tls: Arc<rustls::ServerConfig>,
    router: Router,
    deadlines: Deadlines,
    stop: impl Future<Output = ()>,
) {
    let acceptor = TlsAcceptor::from(tls);
    let (stopping, stopped) = watch::channel(false);
    let mut connections = JoinSet::new();
    tokio::pin!(stop);
    loop {
        tokio::select! {
            () = &mut stop => break,
            accepted = listener.accept() => {
                let Ok((stream, _peer)) = accepted else {
                    // Out of descriptors or similar: wait a little rather than spin.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                };
                let _ = stream.set_nodelay(true);
                let connection = Connection {
                    acceptor: acceptor.clone(),
                    router: router.clone(),
                    deadlines,
                    stopped: stopped.clone(),
                };
                connections.spawn(connection.run(stream));
            }
            // Reap finished connections so the set does not grow with every client.
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    drop(listener);
    let _ = stopping.send(true);
    while connections.join_next().await.is_some() {}
}

struct Connection {
    acceptor: TlsAcceptor,
    router: Router,
    deadlines: Deadlines,
    stopped: watch::Receiver<bool>,
}

impl Connection {
    async fn run(mut self, stream: tokio::net::TcpStream) {
        let handshake =
            tokio::time::timeout(self.deadlines.handshake, self.acceptor.accept(stream));
        let Ok(Ok(tls)) = handshake.await else {
            return;
        };
        let service = TowerToHyperService::new(self.router);
        let mut builder = http1::Builder::new();
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(self.deadlines.request_head);
        let connection = builder.serve_connection(TokioIo::new(tls), service);
        tokio::pin!(connection);
        tokio::select! {
            _ = connection.as_mut() => return,
            _ = self.stopped.wait_for(|stopped| *stopped) => {}
        }
        connection.as_mut().graceful_shutdown();
        let _ = connection.await;
    }
}
