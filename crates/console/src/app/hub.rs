//! One hub as the console keeps it: where it is connected, its picture, its doctor, the
//! access reviews it answered and why it is read-only. Reads nothing of the console.

use std::collections::HashMap;

use super::doctor::Doctor;
use crate::domain::fixes::Permission;
use crate::inventory::Inventory;

/// Where the console is connected, for the header.
#[derive(Clone, Debug, Default)]
pub struct Connection {
    pub context: String,
    pub server: String,
    /// The kubeconfig user's name.
    pub user: String,
    pub scope: String,
    /// The kubeconfig file named (`--kubeconfig`, `KUBECONFIG`), for the kubectl commands
    /// the console hands on.
    pub kubeconfig: Option<String>,
}

/// What is known of one permission.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Access {
    Asking,
    Allowed,
    Denied,
    /// The review itself failed: the server will say at the dry run.
    Unknown,
}

/// Answers to access reviews, for the current context.
pub type AccessCache = HashMap<Permission, Access>;

/// Everything the console keeps of one hub.
#[derive(Clone, Debug, Default)]
pub struct HubState {
    pub connection: Connection,
    pub inventory: Inventory,
    /// Why nothing that changes anything is sent to this hub (`--readonly`, the settings file,
    /// a settings file that could not be read); `None`: read-write.
    pub read_only_why: Option<String>,
    /// What the access reviews answered, on this hub.
    pub access: AccessCache,
    /// The doctor's findings about this hub's pools.
    pub doctor: Doctor,
    /// The context's own namespace (a new pool's last default).
    pub home_namespace: String,
}

impl HubState {
    /// The hub a request sent here is bound to.
    pub fn id(&self) -> crate::domain::Hub {
        let c = &self.connection;
        crate::domain::Hub {
            context: c.context.clone(),
            server: c.server.clone(),
            user: c.user.clone(),
            kubeconfig: c.kubeconfig.clone(),
        }
    }

    /// Whether this is the hub a request is bound to (context, server, user, kubeconfig).
    pub fn is(&self, hub: &crate::domain::Hub) -> bool {
        let c = &self.connection;
        c.context == hub.context
            && c.server == hub.server
            && c.user == hub.user
            && c.kubeconfig == hub.kubeconfig
    }
}
