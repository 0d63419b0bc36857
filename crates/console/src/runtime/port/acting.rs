//! How the console may act: read-only mode, the settings, the audit log; and the session a hub's requests go through.

use std::path::PathBuf;
use std::sync::Arc;

use crate::cluster::{Mode, Session};
use crate::settings::Settings;
use crate::sources::connection::Target;

/// How operations are carried out, whatever the context: read-only by flag or by the
/// settings file per context, and where the audit log goes.
#[derive(Clone, Debug)]
pub struct Acting {
    pub read_only: bool,
    pub settings: Settings,
    /// The audit log, or why it could not be placed (then nothing that changes anything is
    /// sent).
    pub audit: Result<PathBuf, crate::cluster::audit::AuditError>,
    /// Why every hub is read-only whatever else says: a support bundle served back.
    pub frozen: Option<String>,
}

impl Default for Acting {
    fn default() -> Acting {
        Acting {
            read_only: false,
            settings: Settings::default(),
            audit: Err(crate::cluster::audit::AuditError::NotGiven),
            frozen: None,
        }
    }
}

impl Acting {
    pub fn read_only(&self, context: &str) -> bool {
        self.why_read_only(context).is_some()
    }

    /// Why `context` is read-only (`--readonly`, or the settings file), if it is.
    pub fn why_read_only(&self, context: &str) -> Option<String> {
        if let Some(why) = &self.frozen {
            return Some(why.clone());
        }
        if self.read_only {
            return Some("--readonly".into());
        }
        self.settings.why_read_only(context)
    }

    /// A session for a connection to `context`.
    pub(super) fn session(
        &self,
        client: &kube::Client,
        target: &Target,
        context: &str,
    ) -> Arc<Session> {
        let mode = if self.read_only(context) {
            Mode::ReadOnly
        } else {
            Mode::ReadWrite
        };
        Arc::new(Session::new(
            client.clone(),
            mode,
            crate::sources::connection::hub_of(target, context),
            self.audit.clone(),
        ))
    }
}
