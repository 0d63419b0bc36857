//! Watch sources: kube's watcher per kind and namespace scope, its events turned into
//! source events. A list (a watch-list where the hub serves them, else pages) goes out in
//! pages as its objects arrive and ends with a `Listed`, so a relist after a 410 never empties
//! the screen. Errors become a visible state with the next retry time and never end the loop;
//! a forbidden or absent resource is said and retried slowly while the others carry on.

use kube::Client;
use tokio::task::JoinHandle;

pub use super::sink::{Marks, QUEUE, Sink, Tag, Tagged};
use super::source::Source;
use super::ways::Ways;
use crate::inventory::Kind;

pub use crate::app::ports::Namespaces;

/// Starts a watcher for every kind in every scope; events go to `sink`, tagged with `tag`,
/// until it closes. `ways` is the hub's: whether it serves watch-lists is learned once.
pub fn spawn(
    client: &Client,
    ways: &Ways,
    kinds: &[Kind],
    namespaces: &Namespaces,
    tag: Tag,
    marks: Marks,
    sink: &Sink,
) -> Vec<JoinHandle<()>> {
    let mut tasks = Vec::new();
    for kind in kinds {
        for scope in namespaces.scopes(*kind) {
            let source = Source::new(*kind, scope, tag, marks, sink.clone());
            tasks.push(tokio::spawn(source.run(client.clone(), ways.clone())));
        }
    }
    tasks
}
