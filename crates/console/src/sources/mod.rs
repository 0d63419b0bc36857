//! Sources: kube-rs watchers on a cluster (real or the demo), turned into what pooldeck
//! keeps. Today: the connection (kubeconfig, context) and the recorder that writes a timeline
//! the demo cluster replays. Must not import the console (`app`, `ui`) or the demo server.

pub mod connection;
pub mod errors;
pub mod list;
pub mod recorder;
pub mod watch;
