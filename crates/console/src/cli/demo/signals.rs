//! The signals `demo serve` listens for: SIGUSR1 starts the story again; SIGINT, SIGTERM and SIGHUP stop it.

/// SIGUSR1: start the scenario's story again.
pub(super) struct Resets {
    #[cfg(unix)]
    stream: Option<tokio::signal::unix::Signal>,
}

impl Resets {
    pub(super) fn listen() -> Resets {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Resets {
                stream: signal(SignalKind::user_defined1()).ok(),
            }
        }
        #[cfg(not(unix))]
        Resets {}
    }

    pub(super) fn listening(&self) -> bool {
        #[cfg(unix)]
        return self.stream.is_some();
        #[cfg(not(unix))]
        false
    }

    pub(super) async fn next(&mut self) {
        #[cfg(unix)]
        if let Some(stream) = &mut self.stream {
            if stream.recv().await.is_some() {
                return;
            }
            // The stream ended: no more resets (not a reset on every turn).
            self.stream = None;
        }
        std::future::pending::<()>().await
    }
}

/// SIGINT, SIGTERM and SIGHUP, listened for from before the kubeconfig is written: a stop
/// that comes right after the export line is printed still removes the file.
pub(crate) struct StopSignals {
    #[cfg(unix)]
    streams: Vec<tokio::signal::unix::Signal>,
}

impl StopSignals {
    pub(crate) fn listen() -> StopSignals {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let streams = [
                SignalKind::interrupt(),
                SignalKind::terminate(),
                SignalKind::hangup(),
            ]
            .into_iter()
            .filter_map(|kind| signal(kind).ok())
            .collect();
            StopSignals { streams }
        }
        #[cfg(not(unix))]
        StopSignals {}
    }

    pub(crate) async fn wait(&mut self) {
        #[cfg(unix)]
        {
            if self.streams.is_empty() {
                let _ = tokio::signal::ctrl_c().await;
                return;
            }
            let waits = self.streams.iter_mut().map(|s| Box::pin(s.recv()));
            let _ = futures::future::select_all(waits).await;
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}
