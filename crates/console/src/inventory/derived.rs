//! What the inventory derives for its readers: hosts flattened from pools and utilization
//! series from evaluations.

use chrono::{DateTime, Utc};

use crate::domain::field::Text;

/// Samples kept per series: at the controllers' evaluation cycle this is hours of history.
pub(super) const HISTORY_LIMIT: usize = 360;

/// One edge host of one pool, flattened from `status.paletteClusterStatuses`.
#[derive(Clone, Debug, PartialEq)]
pub struct HostRow {
    pub namespace: String,
    pub pool: String,
    pub cluster: String,
    pub machine_pool: String,
    pub node_type: String,
    pub uid: String,
    pub status: String,
    pub status_updated_at: Option<DateTime<Utc>>,
    pub architecture: String,
    pub cpu_count: i64,
    pub memory_gb: f64,
    /// GPU count per variant.
    pub gpus: Vec<(String, i64)>,
}

/// One utilization series: a pool's worker pool (`cluster/worker-pool`) and a resource (`cpu`
/// or a GPU variant).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SeriesKey {
    pub namespace: Text,
    pub pool: Text,
    pub worker_pool: Text,
    pub resource: Text,
}

/// One series of a pool as the inventory keeps it: a pool's series are kept together (one
/// entry per pool, not per series, in the inventory's history map).
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub worker_pool: Text,
    pub resource: Text,
    /// Oldest first.
    pub samples: std::collections::VecDeque<Sample>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub at: DateTime<Utc>,
    /// Percent.
    pub utilization: f64,
}
