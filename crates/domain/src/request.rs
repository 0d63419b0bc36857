//! An operation bound to where it was previewed: the hub (kubeconfig context, server, user)
//! and a request id. The object's version travels in the operation's own preconditions. The
//! console routes every answer by its id, never by what happens to be on top of the screen;
//! the session that sends it refuses a request bound to another hub; the audit log pairs the
//! intent and the outcome of one request by its id.

use std::fmt;

use super::operation::Operation;

/// The hub a request was previewed on and may only go to.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hub {
    /// The kubeconfig context.
    pub context: String,
    /// The API server's address.
    pub server: String,
    /// The kubeconfig user's name.
    pub user: String,
    /// The kubeconfig file the context was read from, when pooldeck was told one
    /// (`--kubeconfig`, `KUBECONFIG`): a kubectl command handed on names it, so that pasted
    /// elsewhere it reaches this hub and not a same-named context of another file.
    pub kubeconfig: Option<String>,
}

impl fmt::Display for Hub {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.server.is_empty() {
            write!(f, "context {}", self.context)
        } else {
            write!(f, "context {} ({})", self.context, self.server)
        }
    }
}

/// A request's number, unique in the process that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct RequestId(pub u64);

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One operation, bound to its hub, under its id.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub id: RequestId,
    pub hub: Hub,
    pub operation: Operation,
}

/// Hands out request ids in order.
#[derive(Clone, Debug, Default)]
pub struct Ids {
    last: u64,
}

impl Ids {
    pub fn fresh(&mut self) -> RequestId {
        self.last = self.last.wrapping_add(1);
        RequestId(self.last)
    }
}
