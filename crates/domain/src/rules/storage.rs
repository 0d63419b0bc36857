//! Rules on storage: the Longhorn replica count (`longhornDefaultReplicaCount`), which the
//! troubleshooting guide says is set at creation and immutable after, and must not exceed
//! the pool's nodes.

use crate::model::ComputePool;
use crate::model::longhorn::{REPLICAS_KEY, Replicas, replicas_for};
use crate::path::YamlPath;

use super::{Basis, Context, Finding, Rule, Severity};

const LONGHORN: &str = "Changing Longhorn Replica Count";

pub const REPLICAS_IMMUTABLE: Rule = Rule {
    id: "longhorn.immutable",
    severity: Severity::Error,
    basis: Basis::Refused,
    section: LONGHORN,
    summary: "longhornDefaultReplicaCount is set at creation and cannot be changed",
};
pub const REPLICAS_NODES: Rule = Rule {
    id: "longhorn.replica-count",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: LONGHORN,
    summary: "the Longhorn replica count must not exceed the pool's nodes (1, 2, or 3 for three or more)",
};

pub const RULES: &[&Rule] = &[&REPLICAS_IMMUTABLE, &REPLICAS_NODES];

/// Where a finding about the count points: where it is written, or the annotations pooldeck
/// writes it in.
fn path_of(replicas: Option<&Replicas>) -> YamlPath {
    replicas.and_then(|r| r.path.clone()).unwrap_or_else(|| {
        YamlPath::keys("metadata")
            .key("annotations")
            .key(REPLICAS_KEY)
    })
}

fn shown(replicas: Option<&Replicas>) -> String {
    replicas.map_or_else(|| "unset".to_owned(), |r| format!("\"{}\"", r.shown()))
}

pub(super) fn check(pool: &ComputePool, context: &Context, out: &mut Vec<Finding>) {
    let now = pool.longhorn_replicas();
    if let Some(old) = context.old {
        let then = old.longhorn_replicas();
        // As written: the StorageClass takes the text, so "03" is not "3" (a number and
        // its text, 3 and "3", are the same).
        let same = match (&then, &now) {
            (Some(a), Some(b)) => a.shown() == b.shown(),
            (None, None) => true,
            _ => false,
        };
        if !same {
            out.push(Finding::new(
                &REPLICAS_IMMUTABLE,
                path_of(now.as_ref().or(then.as_ref())),
                format!(
                    "{REPLICAS_KEY} was {} and would become {}; it is immutable: it renders into \
                     the longhorn StorageClass's numberOfReplicas, which Kubernetes never \
                     changes. To use a different replica count, recreate the Compute Pool with \
                     the new value; all PersistentVolumeClaims on the cluster are lost, so back \
                     up any persistent data first",
                    shown(then.as_ref()),
                    shown(now.as_ref())
                ),
            ));
            return;
        }
        // Unchanged on an update: whatever it is, it was so at creation.
        return;
    }
    let Some(replicas) = now else {
        return;
    };
    let Some(count) = replicas.count() else {
        return;
    };
    let (nodes, single) = pool.node_total();
    let fits = replicas_for(nodes);
    if count > nodes || count < 1 {
        out.push(Finding::new(
            &REPLICAS_NODES,
            path_of(Some(&replicas)),
            format!(
                "{REPLICAS_KEY} is {count}, but the pool has {}{}: {}. Use {fits} (the guide: 1 \
                 for a single node, 2 for two nodes, 3 for three or more); it cannot be changed \
                 after creation",
                crate::words::counted(usize::try_from(nodes).unwrap_or(0), "node"),
                if single { " (a single-node pool)" } else { "" },
                if count < 1 {
                    "Longhorn keeps at least one replica of every volume"
                } else {
                    "Longhorn cannot place the replicas apart, so PersistentVolumeClaims stay Pending"
                }
            ),
        ));
    }
}
