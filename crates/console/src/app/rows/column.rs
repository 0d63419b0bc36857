//! The columns of the lists, typed: each is a constant with its header and how early it gives
//! way on a narrow screen, so code that needs a particular column (the name the selection
//! marks, the event type `w` filters on, the namespace `get` leaves out) names the constant,
//! never a header string. A view's columns are a list of these; a new view may declare its
//! own beside its rows.

/// One column of a list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    /// What the header says (the console and `pooldeck get`).
    pub header: &'static str,
    /// What the header says when the console draws the column's compact form (on a narrow
    /// screen): the same words, shorter.
    pub compact: &'static str,
    /// How early the column gives way, whole, on a narrow screen: higher goes first (0: never).
    /// Across namespaces a pool is named by namespace and name together, so NAMESPACE then
    /// stays ([`Column::gives_way`]).
    pub gives_way: u8,
}

impl Column {
    pub const fn new(header: &'static str, gives_way: u8) -> Column {
        Column {
            header,
            compact: header,
            gives_way,
        }
    }

    /// The column with a shorter header for its compact form.
    pub const fn compact_as(self, compact: &'static str) -> Column {
        Column { compact, ..self }
    }

    /// Whether the column names the row (a name, its pool, its namespace): a long one is cut
    /// on a narrow screen rather than another column given up for it.
    pub fn names_the_row(self) -> bool {
        [NAME, HOST, POOL, NAMESPACE, HUB].contains(&self)
    }

    /// How early the column gives way when the list spans namespaces or not.
    pub fn gives_way(self, across_namespaces: bool) -> u8 {
        if across_namespaces && self == NAMESPACE {
            1
        } else {
            self.gives_way
        }
    }
}

// What names the row: never dropped.
pub const NAME: Column = Column::new("NAME", 0);
pub const HOST: Column = Column::new("HOST", 0);
// The state an operator reads first.
pub const STATUS: Column = Column::new("STATUS", 1);
pub const STATE: Column = Column::new("STATE", 1);
// The pools list keeps NAME, STATUS, HEALTH, GPUS and PAUSED longest (a jump host's 80×24
// still shows which pools are paused or unhealthy); its SCALING, GPU UTIL, HOSTS, CPU and AGE
// give way first.
pub const HEALTH: Column = Column::new("HEALTH", 2);
pub const PAUSED: Column = Column::new("PAUSED", 2);
pub const GPUS_USED: Column = Column::new("GPUS (USED/CAPACITY)", 2).compact_as("GPUS");
pub const SCALING: Column = Column::new("SCALING", 3);
pub const MESSAGE: Column = Column::new("MESSAGE", 1);
pub const SEVERITY: Column = Column::new("SEVERITY", 1);
pub const FINDING: Column = Column::new("FINDING", 1);
// GPU utilization is what a GPU pool is watched for.
pub const GPU_UTIL: Column = Column::new("GPU UTIL", 4);
pub const GPU: Column = Column::new("GPU", 2);
pub const DECISION: Column = Column::new("DECISION", 2);
pub const GPU_LIMITS: Column = Column::new("GPU LIMITS", 2);
pub const GPU_USAGE: Column = Column::new("GPU USAGE", 2);
/// The event's type (Normal, Warning): `w` keeps only warnings by it.
pub const EVENT_TYPE: Column = Column::new("TYPE", 2);
pub const LAST_SEEN: Column = Column::new("LAST SEEN", 2);
pub const POOL: Column = Column::new("POOL", 2);
pub const REASON: Column = Column::new("REASON", 3);
pub const WORKER_POOL: Column = Column::new("WORKER POOL", 3);
pub const TENANT_CAP: Column = Column::new("TENANT CAP", 3);
pub const OBJECT: Column = Column::new("OBJECT", 4);
pub const HOSTS: Column = Column::new("HOSTS", 5);
pub const GPUS: Column = Column::new("GPUS", 5);
pub const CPU: Column = Column::new("CPU", 6);
pub const MACHINE_POOL: Column = Column::new("MACHINE POOL", 6);
pub const SYMPTOM: Column = Column::new("SYMPTOM", 6);
pub const SINCE: Column = Column::new("SINCE", 7);
/// The hub (kubeconfig context) a row was read from, first when several are read: it names
/// the row as its name does, so it never gives way.
pub const HUB: Column = Column::new("HUB", 0);
/// The object's namespace: first in every list; `get -n` leaves it out.
pub const NAMESPACE: Column = Column::new("NAMESPACE", 8);
pub const MEMORY: Column = Column::new("MEMORY", 8);
pub const AGE: Column = Column::new("AGE", 9);
// Only in `get -o wide`.
pub const VIP: Column = Column::new("VIP", 9);
pub const PROFILE_BUNDLE: Column = Column::new("PROFILE BUNDLE", 9);
pub const DELETION: Column = Column::new("DELETION", 9);
pub const PROBLEM: Column = Column::new("PROBLEM", 9);
pub const EVALUATED: Column = Column::new("EVALUATED", 9);
pub const DETAILS: Column = Column::new("DETAILS", 9);
pub const SOURCE: Column = Column::new("SOURCE", 9);
pub const COUNT: Column = Column::new("COUNT", 9);
pub const CLUSTER: Column = Column::new("CLUSTER", 9);
pub const NODE_TYPE: Column = Column::new("NODE TYPE", 9);
pub const ARCH: Column = Column::new("ARCH", 9);
