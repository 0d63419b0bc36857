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
    /// object changing ([`changes_at`]). An object that could not be read as a pool has no
    /// findings (its row says why it could not be read).
    pub fn diagnose_until(
        &self,
        pool: &Object,
        now: DateTime<Utc>,
    ) -> (Vec<Diagnosis>, Option<DateTime<Utc>>) {
        let Some(model) = pool.pool() else {
            return (Vec::new(), None);
        };
        let namespace = pool.namespace();
        let named = |kind: Kind, name: Option<&str>| {
            name.and_then(|n| self.get(kind, namespace, n.split('@').next().unwrap_or(n)))
                .map(|o| o.value())
        };
        let evaluation = self
            .get(Kind::Evaluation, namespace, pool.name())
            .and_then(|o| o.evaluation());
        let policy = named(Kind::ScalingPolicy, model.scaling_policy_name());
        let bundle = named(
            Kind::ProfileBundle,
            model
                .spec()
                .and_then(|s| s.profile_bundle_ref.get())
                .and_then(|r| r.name.as_deref()),
        );
        let settings = named(
            Kind::Settings,
            model
                .deployment_config()
                .and_then(|d| d.settings_ref.get())
                .and_then(|r| r.name.as_deref()),
        );
        let computes = self.values_in(Kind::Compute, namespace);
        let compute_refs: Vec<&Value> = computes.iter().map(|c| &**c).collect();
        let (project, tenant) = match self.project_and_tenant(namespace) {
            Some((project, tenant)) => (Some(project), tenant),
            None => (None, None),
        };
        let vip = model.vip().unwrap_or("");
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
                    created: other.created(),
                    running: other.runs(),
                })
                .collect()
        };
        let event_refs: Vec<&crate::domain::model::Event> = self
            .events_for("ComputePool", namespace, pool.name())
            .into_iter()
            .filter_map(|e| e.event())
            .collect();
        // Read only for a pool being deleted: the rest never look.
        let workloads = if model.meta().is_some_and(|m| m.is_deleting()) {
            self.workloads_of(model)
        } else {
            crate::domain::fixes::Workloads::default()
        };
        let picture = Picture {
            pool: model,
            evaluation,
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
            workloads: &workloads,
            now,
        };
        (diagnose(&picture), changes_at(&picture))
    }
}
