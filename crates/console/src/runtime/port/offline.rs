//! The port of a console without a cluster (`pooldeck new` offline): nothing to watch, every request refused with the reason.

use crate::app::ports::{ClusterPort, Connected, Namespaces, Pending};
use crate::domain::error::Configuration;
use crate::domain::{ClusterError, Outcome, Request};

/// No cluster at all (`pooldeck new` without a reachable hub): every request is refused with
/// the reason, nothing is sent.
pub struct OfflinePort {
    pub why: String,
}

impl ClusterPort for OfflinePort {
    fn connect(&self, _context: String) -> Pending<Result<Connected, ClusterError>> {
        let why = self.why.clone();
        Box::pin(async move {
            Err(ClusterError::Configuration(Configuration::NoCluster {
                why,
            }))
        })
    }

    fn use_context(&self, _context: &str) {}

    fn connect_fleet(
        &self,
        _contexts: Vec<String>,
    ) -> Pending<Result<Vec<Connected>, ClusterError>> {
        let why = self.why.clone();
        Box::pin(async move {
            Err(ClusterError::Configuration(Configuration::NoCluster {
                why,
            }))
        })
    }

    fn use_fleet(&self, _contexts: &[String]) {}

    fn focus(&self, _hub: usize) {}

    fn watch(&self, _namespaces: Namespaces) {}

    fn perform(&self, _request: Request) -> Pending<Outcome> {
        let why = self.why.clone();
        Box::pin(async move {
            Outcome::Failed(ClusterError::Configuration(Configuration::NoCluster {
                why,
            }))
        })
    }

    fn epoch(&self) -> u64 {
        0
    }

    fn follow_logs(&self, sink: crate::app::ports::LogSink) {
        drop(sink(crate::app::logs::LogEvent::Failed(
            crate::app::logs::LogFailure::NoCluster,
        )));
    }

    fn stop_logs(&self) {}

    fn remember(
        &self,
        _hub: usize,
        _seen: Vec<(crate::inventory::Key, crate::domain::timeline::Entry)>,
    ) {
    }

    fn history(
        &self,
        _hub: usize,
        _pool: crate::domain::ObjectRef,
        _objects: Vec<String>,
    ) -> Pending<crate::timeline::Kept> {
        let said = vec![format!("no hub: {}", self.why)];
        Box::pin(async move {
            crate::timeline::Kept {
                entries: Vec::new(),
                said,
            }
        })
    }
}
