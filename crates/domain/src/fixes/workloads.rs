//! Which AIWorkloads a deleting pool's fixes may touch. The guide deletes `aiworkload <name>
//! --namespace <project-namespace>`: a target is an AIWorkload in the pool's own namespace
//! that names this pool as its own (`spec.computePoolRef`). `status.aiWorkloadRefs` is only
//! what whoever may write the status wrote: each reference is checked against the
//! AIWorkloads as they are now, and one in another namespace is evidence, never a target.

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::kind::Kind;
use crate::model::ComputePool;
use crate::object::{ObjectRef, Preconditions};

/// The pool's namespace's AIWorkloads as pooldeck reads them now.
#[derive(Clone, Debug, Default)]
pub struct WorkloadsRead<'a> {
    /// Read without a gap since then: a live watch's start, or a one-off list's moment.
    pub since: DateTime<Utc>,
    /// Every AIWorkload of the namespace, with what a delete of it names.
    pub present: Vec<(&'a Value, Preconditions)>,
    /// The ones pooldeck saw go, by name, with when.
    pub seen_going: Vec<(&'a str, DateTime<Utc>)>,
}

/// Where one AIWorkload stands for the pool's fixes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Standing {
    /// In the pool's namespace and names this pool: deleted by the unblock's step 1.
    Target(Preconditions),
    /// In the pool's namespace but names no pool: listed only by the pool's status, deleted
    /// only when the operator types its name.
    ListedOnly(Preconditions),
    /// Named by the status but not this pool's (another namespace, another pool, not a
    /// Kubernetes name): shown, never acted on.
    Evidence(String),
    /// Listed in the status, no longer exists: verified gone since then.
    Gone(DateTime<Utc>),
    /// Not verified either way: the namespace is not read live.
    Unverified,
}

/// One AIWorkload and where it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Workload {
    pub reference: ObjectRef,
    pub standing: Standing,
    /// Listed by the pool's status (otherwise found naming the pool).
    pub listed: bool,
}

/// A deleting pool's AIWorkloads: those its status lists, then those that name it unlisted.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Workloads {
    pub all: Vec<Workload>,
    /// Since when the pool's namespace has been read (`None`: it is not).
    read_since: Option<DateTime<Utc>>,
}

/// The pool an AIWorkload names as its own (`spec.computePoolRef`; a reference without a
/// namespace, or with an empty one, is in the AIWorkload's own), if it names one.
pub fn claimed(workload: &Value) -> Option<(&str, &str)> {
    let named = workload.pointer("/spec/computePoolRef")?;
    let name = named.get("name").and_then(Value::as_str)?;
    let namespace = named
        .get("namespace")
        .and_then(Value::as_str)
        .filter(|ns| !ns.is_empty())
        .or_else(|| text(workload, "/metadata/namespace"))
        .unwrap_or("");
    Some((namespace, name))
}

/// The AIWorkloads read that are in the pool's namespace (what else a caller passes is not
/// this pool's to judge).
fn present<'r, 'a: 'r>(
    read: Option<&'r WorkloadsRead<'a>>,
    own: &'r ObjectRef,
) -> impl Iterator<Item = &'r (&'a Value, Preconditions)> {
    read.into_iter()
        .flat_map(|r| &r.present)
        .filter(move |(w, _)| {
            text(w, "/metadata/namespace").is_none_or(|ns| ns == own.namespace.as_str())
        })
}

fn name_of(workload: &Value) -> &str {
    text(workload, "/metadata/name").unwrap_or("")
}

impl Workloads {
    /// Where each of `pool`'s AIWorkloads stands, from what is read of its namespace
    /// (`None`: not read, so nothing there is verified).
    pub fn of(pool: &ComputePool, read: Option<&WorkloadsRead>) -> Workloads {
        let own = pool_ref(pool);
        let names_this = |w: &Value| {
            claimed(w)
                .is_some_and(|(ns, name)| ns == own.namespace.as_str() && name == own.name.as_str())
        };
        let mut all: Vec<Workload> = workload_refs(pool)
            .into_iter()
            .map(|reference| {
                let standing = judged(&own, &reference, read);
                Workload {
                    reference,
                    standing,
                    listed: true,
                }
            })
            .collect();
        for (workload, preconditions) in present(read, &own) {
            let name = name_of(workload);
            let listed = all
                .iter()
                .any(|w| w.reference.namespace == own.namespace && w.reference.name == name);
            if !listed && names_this(workload) {
                all.push(Workload {
                    reference: ObjectRef::new(Kind::AIWorkload, own.namespace.clone(), name),
                    standing: Standing::Target(preconditions.clone()),
                    listed: false,
                });
            }
        }
        Workloads {
            all,
            read_since: read.map(|r| r.since),
        }
    }

    /// Those standing as asked.
    pub fn standing(&self, test: impl Fn(&Standing) -> bool) -> impl Iterator<Item = &Workload> {
        self.all.iter().filter(move |w| test(&w.standing))
    }

    /// How many are still there (targets, and those listed only by the status).
    pub fn present(&self) -> usize {
        self.standing(|s| matches!(s, Standing::Target(_) | Standing::ListedOnly(_)))
            .count()
    }

    /// Since when none has been left, verified: the latest moment one was seen to go (or
    /// first verified gone), or, when the status lists none, since the namespace has been
    /// read. `None` while any is there, unverified, or not this pool's to judge.
    pub fn clear_since(&self) -> Option<DateTime<Utc>> {
        let mut since = if self.all.is_empty() {
            self.read_since?
        } else {
            DateTime::<Utc>::MIN_UTC
        };
        for workload in &self.all {
            match workload.standing {
                Standing::Gone(at) => since = since.max(at),
                _ => return None,
            }
        }
        Some(since)
    }
}

/// Where one reference the status lists stands.
fn judged(own: &ObjectRef, reference: &ObjectRef, read: Option<&WorkloadsRead>) -> Standing {
    if let Some(why) = reference.problem() {
        return Standing::Evidence(format!("it cannot be an AIWorkload: {why}"));
    }
    if reference.namespace != own.namespace {
        return Standing::Evidence(format!(
            "it is in namespace {}, not the pool's ({}): another namespace's AIWorkload is \
             never this pool's to delete",
            reference.namespace, own.namespace
        ));
    }
    let Some(read) = read else {
        return Standing::Unverified;
    };
    let found = present(Some(read), own).find(|(w, _)| name_of(w) == reference.name.as_str());
    match found {
        Some((workload, preconditions)) => match claimed(workload) {
            Some((ns, name)) if ns == own.namespace.as_str() && name == own.name.as_str() => {
                Standing::Target(preconditions.clone())
            }
            Some((ns, name)) => Standing::Evidence(format!(
                "it names ComputePool {ns}/{name} as its own, not this pool (the status is stale \
                 or wrong)"
            )),
            None => Standing::ListedOnly(preconditions.clone()),
        },
        // Seen going before a gap in the reading: verified again only since it resumed.
        None => Standing::Gone(
            read.seen_going
                .iter()
                .find(|(name, _)| *name == reference.name.as_str())
                .map_or(read.since, |(_, at)| read.since.max(*at)),
        ),
    }
}

impl Workload {
    /// Where it stands, in words (without its name).
    pub fn words(&self) -> String {
        match &self.standing {
            Standing::Target(_) if self.listed => "references this pool".to_owned(),
            Standing::Target(_) => {
                "names this pool as its own (the pool's status does not list it)".to_owned()
            }
            Standing::ListedOnly(_) => "listed only by the pool's status (it names no pool): \
                                        deleted only when you type its name"
                .to_owned(),
            Standing::Evidence(why) => format!("not acted on: {why}"),
            Standing::Gone(_) => "listed in status, no longer exists (the controller updates \
                                  status on its next pass)"
                .to_owned(),
            Standing::Unverified => {
                "not verified (its namespace is not read live): not acted on".to_owned()
            }
        }
    }

    /// The line that says where it stands, for a dialog, an impact or the doctor.
    pub fn said(&self) -> String {
        format!(
            "AIWorkload {}/{}: {}",
            self.reference.namespace,
            self.reference.name,
            self.words()
        )
    }
}

/// The text at `pointer` in an object, if it is text.
pub(super) fn text<'v>(object: &'v Value, pointer: &str) -> Option<&'v str> {
    object.pointer(pointer).and_then(Value::as_str)
}

/// The object reference of a pool.
pub fn pool_ref(pool: &ComputePool) -> ObjectRef {
    ObjectRef::new(Kind::Pool, pool.namespace().unwrap_or(""), pool.name())
}

/// The AIWorkloads a pool's status says reference it (a reference without a namespace is in
/// the pool's own).
pub fn workload_refs(pool: &ComputePool) -> Vec<ObjectRef> {
    let own = pool.namespace().unwrap_or("");
    pool.status
        .get()
        .into_iter()
        .flat_map(|s| s.ai_workloads())
        .filter_map(|r| {
            let name = r.name.as_deref()?;
            let namespace = r.namespace.as_deref().unwrap_or(own);
            Some(ObjectRef::new(Kind::AIWorkload, namespace, name))
        })
        .collect()
}
