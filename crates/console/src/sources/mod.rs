//! Sources: kube's watchers on a cluster (real or the demo), turned into what pooldeck keeps;
//! the connection (kubeconfig, context) and the recorder that writes a timeline the demo
//! cluster replays. Must not import the console (`app`, `ui`) or the demo server.

pub mod connection;
pub mod errors;
pub(crate) mod kept;
pub mod objects;
pub mod recorder;
mod sink;
mod source;
pub mod watch;
pub mod ways;
pub mod without;
