//! The doctor's picture of one pool, gathered from the inventory: its evaluation, the objects
//! it names (ScalingPolicy, ProfileBundle, Settings), its namespace's Compute and Project, the
//! Tenant, the pools sharing its VIP and its events; then the diagnosis (pure, in `domain`).

use std::sync::Arc;

use crate::domain::json::At;
use chrono::{DateTime, Utc};
use serde_json::Value;

use super::{Inventory, Kind, Object, SourceState};
use crate::domain::diagnosis::{Diagnosis, Picture, VipPeer, changes_at, diagnose};
use crate::domain::rules::Pools;

impl Inventory {
    /// Whether objects of a kind are read (so one not found is really missing).
    fn reads(&self, kind: Kind) -> bool {
        self.health_of(kind).any(|h| h.state == SourceState::Live)
    }

    /// The objects of a kind in one namespace, as values.
    pub fn values_in(&self, kind: Kind, namespace: &str) -> Vec<Arc<Value>> {
        self.objects(kind)
            .filter(|o| o.namespace() == namespace)
            .map(|o| o.value())
            .collect()
    }

    /// The Project of a namespace and the Tenant it belongs to, as watched.
    pub fn project_and_tenant(&self, namespace: &str) -> Option<(Arc<Value>, Option<Arc<Value>>)> {
        let project = self
            .objects(Kind::Project)
            .find(|p| p.namespace() == namespace)
            .map(|p| p.value())?;
        let tenant = project
            .at("/spec/tenantRef/name")
            .and_then(Value::as_str)
            .and_then(|name| self.get(Kind::Tenant, "", name))
            .map(|t| t.value());
        Some((project, tenant))
    }

    /// Every finding of the doctor for one pool.
    pub fn diagnose(&self, pool: &Object, now: DateTime<Utc>) -> Vec<Diagnosis> {
        self.diagnose_until(pool, now).0
    }

    /// [`Inventory::diagnose`], with the instant its findings may read differently with no
    /// object changing ([`changes_at`]).
    pub fn diagnose_until(
        &self,
        pool: &Object,
        now: DateTime<Utc>,
    ) -> (Vec<Diagnosis>, Option<DateTime<Utc>>) {
        self.diagnose_value(pool, diagnosis_view(pool), now)
    }

    /// The findings for `pool` read from `value` (the diagnosis view, or in tests the whole
    /// object, which must give the same findings).
    fn diagnose_value(
        &self,
        pool: &Object,
        value: Arc<Value>,
        now: DateTime<Utc>,
    ) -> (Vec<Diagnosis>, Option<DateTime<Utc>>) {
        let namespace = pool.namespace();
        let text = |pointer: &str| value.at(pointer).and_then(Value::as_str);
        let named = |kind: Kind, name: Option<&str>| {
            name.and_then(|n| self.get(kind, namespace, n.split('@').next().unwrap_or(n)))
                .map(|o| o.value())
        };
        let evaluation = self
            .get(Kind::Evaluation, namespace, pool.name())
            .map(|o| o.value());
        let policy = named(
            Kind::ScalingPolicy,
            text("/spec/clusterVariant/dedicated/scalingPolicyRef/name")
                .or_else(|| text("/spec/clusterVariant/shared/scalingPolicyRef/name")),
        );
        let bundle = named(Kind::ProfileBundle, text("/spec/profileBundleRef/name"));
        let settings = named(
            Kind::Settings,
            text("/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/settingsRef/name"),
        );
        let computes = self.values_in(Kind::Compute, namespace);
        let compute_refs: Vec<&Value> = computes.iter().map(|c| &**c).collect();
        let (project, tenant) = match self.project_and_tenant(namespace) {
            Some((project, tenant)) => (Some(project), tenant),
            None => (None, None),
        };
        let vip = text("/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/edge/vip")
            .unwrap_or("");
        let same_vip: Vec<VipPeer> = if vip.is_empty() {
            Vec::new()
        } else {
            self.with_vip(vip)
                .map(|(_, other)| other)
                .filter(|other| {
                    !(other.name() == pool.name() && other.namespace() == Some(namespace))
                })
                .map(|other| VipPeer {
                    name: format!("{}/{}", other.namespace().unwrap_or(""), other.name()),
                    created: other
                        .metadata
                        .get()
                        .and_then(|m| m.creation_timestamp.as_deref())
                        .and_then(crate::inventory::parse_time),
                    running: other.status.get().and_then(|s| s.status.as_deref())
                        == Some("Running"),
                })
                .collect()
        };
        let events: Vec<_> = self
            .events_for("ComputePool", namespace, pool.name())
            .into_iter()
            .map(|e| e.value())
            .collect();
        let event_refs: Vec<&Value> = events.iter().map(|e| &**e).collect();
        let picture = Picture {
            pool: &value,
            evaluation: evaluation.as_deref(),
            policy: policy.as_deref(),
            policies_known: self.reads(Kind::ScalingPolicy),
            profile_bundle: bundle.as_deref(),
            profile_bundles_known: self.reads(Kind::ProfileBundle),
            settings: settings.as_deref(),
            settings_known: self.reads(Kind::Settings),
            computes: &compute_refs,
            project: project.as_deref(),
            tenant: tenant.as_deref(),
            same_vip: &same_vip,
            events: &event_refs,
            now,
        };
        (diagnose(&picture), changes_at(&picture))
    }
}

fn json<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// The pool as the diagnosis reads it, written out as JSON: its metadata, spec and the status
/// it looks at. Of the Palette clusters only what a finding reads: each cluster's name, status,
/// health and conditions, each machine pool's name, and the hosts that are Provisioning,
/// Unhealthy or Failed (a large pool's hosts are most of it, nearly all Healthy).
fn diagnosis_view(object: &Object) -> Arc<Value> {
    let Some(pool) = object.pool() else {
        return object.value();
    };
    let mut map = serde_json::Map::new();
    map.insert("metadata".into(), json(&pool.metadata));
    map.insert("spec".into(), json(&pool.spec));
    if let Some(status) = pool.status.get() {
        let mut out = serde_json::Map::new();
        out.insert("status".into(), json(&status.status));
        out.insert("conditions".into(), json(&status.conditions));
        out.insert("aiWorkloadRefs".into(), json(&status.ai_workload_refs));
        let clusters: Vec<Value> = status
            .clusters()
            .map(|cluster| {
                let machine_pools: Vec<Value> = cluster
                    .machine_pools()
                    .map(|machine_pool| {
                        let hosts: serde_json::Map<String, Value> = machine_pool
                            .hosts()
                            .filter(|(_, host)| {
                                matches!(
                                    host.status.as_deref(),
                                    Some("Provisioning" | "Unhealthy" | "Failed")
                                )
                            })
                            .map(|(uid, host)| {
                                (
                                    uid.to_owned(),
                                    serde_json::json!({
                                        "architecture": json(&host.architecture),
                                        "status": json(&host.status),
                                        "statusUpdatedAt": json(&host.status_updated_at),
                                    }),
                                )
                            })
                            .collect();
                        serde_json::json!({ "name": json(&machine_pool.name), "hosts": hosts })
                    })
                    .collect();
                serde_json::json!({
                    "name": json(&cluster.name),
                    "status": json(&cluster.status),
                    "health": json(&cluster.health),
                    "conditions": json(&cluster.conditions),
                    "allocatedMachinePools": machine_pools,
                })
            })
            .collect();
        out.insert("paletteClusterStatuses".into(), Value::Array(clusters));
        out.retain(|_, v| !v.is_null());
        map.insert("status".into(), Value::Object(out));
    } else {
        // Not a status the model can read: as it came, for the doctor to say so.
        map.insert("status".into(), json(&pool.status));
    }
    Arc::new(Value::Object(map))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::tests::{fixed_now, scenario_app};

    /// The view keeps everything a finding reads: every pool of every built-in scenario is
    /// diagnosed the same from it as from the whole object, and again later on (when hosts
    /// and deletions have turned stuck).
    #[test]
    fn the_diagnosis_view_finds_what_the_whole_object_does() {
        for scenario in ["fleet", "scale-up", "deletion-blocked"] {
            let app = scenario_app(scenario);
            let inventory = &app.inventory;
            let mut pools = 0;
            for pool in inventory.objects(Kind::Pool) {
                for later in [0, 45, 3 * 24 * 60] {
                    let now = fixed_now() + chrono::TimeDelta::minutes(later);
                    let view = inventory.diagnose_value(pool, diagnosis_view(pool), now);
                    let whole = inventory.diagnose_value(pool, pool.value(), now);
                    assert_eq!(view, whole, "{scenario}: {}", pool.name());
                }
                pools += 1;
            }
            assert!(pools > 0, "{scenario} has pools");
        }
    }
}
