//! ComputePoolEvaluation: the Scaling Policy controller's decision record (spec) and the
//! Compute Pool controller's execution state (status), keyed by `<cluster>/<worker-pool>`.

use crate::field::{Field, Map, Num, Text, model};

use super::meta::ObjectMeta;

pub const KIND: &str = "ComputePoolEvaluation";

model! {
    open struct ComputePoolEvaluation {
        api_version: Text = "apiVersion",
        kind: Text = "kind",
        metadata: ObjectMeta = "metadata",
        spec: EvaluationSpec = "spec",
        status: EvaluationStatus = "status",
    }
}

model! {
    open struct EvaluationSpec {
        pool_evaluations: Map<Field<PoolEvaluation>> = "poolEvaluations",
        cpu_resource_bounds: CpuBounds = "cpuResourceBounds",
        gpu_resource_bounds: Vec<Field<GpuBounds>> = "gpuResourceBounds",
        cooldown_duration: Text = "cooldownDuration",
        abort_duration: Text = "abortDuration",
    }
}

model! {
    /// One worker pool's metrics and decision.
    open struct PoolEvaluation {
        cpu: ResourceEvaluation = "cpu",
        gpu: Map<Field<ResourceEvaluation>> = "gpu",
        node_wastes: Vec<Field<NodeWaste>> = "nodeWastes",
        evaluated_at: Text = "evaluatedAt",
    }
}

model! {
    /// Utilization (percent), current count and the count the controller wants.
    open struct ResourceEvaluation {
        count: i64 = "count",
        target: i64 = "target",
        utilization: Num = "utilization",
    }
}

model! {
    open struct NodeWaste {
        host: Text = "host",
        cpu_count: i64 = "cpuCount",
        gpu_count: Map<Field<i64>> = "gpuCount",
        waste_score: Num = "wasteScore",
    }
}

model! {
    open struct CpuBounds {
        min_cpu_count: i64 = "minCPUCount",
        max_cpu_count: i64 = "maxCPUCount",
    }
}

model! {
    open struct GpuBounds {
        variant: Text = "variant",
        min_gpu_count: i64 = "minGPUCount",
        max_gpu_count: i64 = "maxGPUCount",
    }
}

/// Per worker pool, per host UID, when metrics were last received.
pub type MetricsObserved = Map<Field<Map<Field<Text>>>>;

model! {
    open struct EvaluationStatus {
        metrics_last_observed_at: MetricsObserved = "metricsLastObservedAt",
        pool_scaling_states: Map<Field<ScalingState>> = "poolScalingStates",
    }
}

model! {
    open struct ScalingState {
        state: Text = "state",
        details: Text = "details",
        actions: Vec<Field<ScalingAction>> = "actions",
        scaling_started_at: Text = "scalingStartedAt",
        state_changed_at: Text = "stateChangedAt",
        last_successful_scaling_at: Text = "lastSuccessfulScalingAt",
    }
}

model! {
    open struct ScalingAction {
        type_: Text = "type",
        host_uid: Text = "hostUID",
    }
}

/// When a worker pool's scaling state ends by itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deadline {
    /// The cooldown after a scale ends then.
    CooldownEnds(chrono::DateTime<chrono::Utc>),
    /// A scale still in progress then is aborted.
    AbortAt(chrono::DateTime<chrono::Utc>),
}

impl Deadline {
    pub fn at(self) -> chrono::DateTime<chrono::Utc> {
        match self {
            Deadline::CooldownEnds(t) | Deadline::AbortAt(t) => t,
        }
    }
}

/// A worker pool's scaling state, read once: its kind and the word as written (none when the
/// state names none: its details and actions still count). When it ends by itself is
/// [`ComputePoolEvaluation::deadline_of`] (it parses times and durations: worked out when the
/// data changes, not when it is drawn).
#[derive(Clone, Debug)]
pub struct Scaling<'a> {
    pub kind: super::vocabulary::ScalingStateKind,
    pub word: Option<&'a str>,
    pub state: &'a ScalingState,
}

impl ComputePoolEvaluation {
    /// The scaling state of the worker pool `key` (`cluster/worker-pool`), if it has one.
    pub fn scaling_of(&self, key: &str) -> Option<Scaling<'_>> {
        use super::vocabulary::ScalingStateKind;
        let state = self
            .status
            .get()
            .and_then(|s| s.pool_scaling_states.get())
            .and_then(|m| m.get(key))
            .and_then(|s| s.get())?;
        let word = state.state.as_deref();
        let kind = ScalingStateKind::parse(word.unwrap_or("-"));
        Some(Scaling { kind, word, state })
    }

    /// When a worker pool's state ends by itself: the state's start plus the evaluation's
    /// cooldown or abort duration (`None` for other states, or when either cannot be read).
    pub fn deadline_of(&self, scaling: &Scaling) -> Option<Deadline> {
        use super::vocabulary::ScalingStateKind;
        let spec = self.spec.get();
        let state = scaling.state;
        let end = |start: Option<&str>, length: Option<&str>| {
            let start = crate::time::parse(start?)?;
            crate::time::after(start, crate::duration::parse(length?).ok()?)
        };
        match scaling.kind {
            ScalingStateKind::Cooldown => end(
                state.state_changed_at.as_deref(),
                spec.and_then(|s| s.cooldown_duration.as_deref()),
            )
            .map(Deadline::CooldownEnds),
            ScalingStateKind::Scaling => end(
                state.scaling_started_at.as_deref(),
                spec.and_then(|s| s.abort_duration.as_deref()),
            )
            .map(Deadline::AbortAt),
            _ => None,
        }
    }

    /// [`ComputePoolEvaluation::scaling_of`] with [`ComputePoolEvaluation::deadline_of`].
    pub fn scaling_until(&self, key: &str) -> Option<(Scaling<'_>, Option<Deadline>)> {
        let scaling = self.scaling_of(key)?;
        let deadline = self.deadline_of(&scaling);
        Some((scaling, deadline))
    }
}

/// Splits a pool evaluation key `<cluster-name>/<worker-pool-name>`.
pub fn split_pool_key(key: &str) -> (&str, &str) {
    key.split_once('/').unwrap_or(("", key))
}

impl ResourceEvaluation {
    /// The decision the numbers imply: target above count scales up, below scales down.
    pub fn decision(&self) -> Decision {
        match (self.count.get(), self.target.get()) {
            (Some(count), Some(target)) if target > count => {
                Decision::ScaleUp(target.saturating_sub(*count))
            }
            (Some(count), Some(target)) if target < count => {
                Decision::ScaleDown(count.saturating_sub(*target))
            }
            (Some(_), Some(_)) => Decision::Hold,
            _ => Decision::Unknown,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    ScaleUp(i64),
    ScaleDown(i64),
    Hold,
    Unknown,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::read;
    use crate::model::vocabulary::ScalingStateKind;

    fn evaluation(state: serde_json::Value) -> ComputePoolEvaluation {
        let value = serde_json::json!({
            "apiVersion": "spectrocloud.com/v1alpha1",
            "kind": "ComputePoolEvaluation",
            "metadata": {"name": "e", "namespace": "n"},
            "spec": {"cooldownDuration": "10m", "abortDuration": "30m"},
            "status": {"poolScalingStates": {"c/w": state}},
        });
        read(&value).expect("an evaluation").0
    }

    #[test]
    fn a_state_s_deadline_is_its_start_plus_the_evaluation_s_duration() {
        let e = evaluation(serde_json::json!({
            "state": "Cooldown", "stateChangedAt": "2026-11-30T12:00:00Z"
        }));
        let (s, deadline) = e.scaling_until("c/w").expect("a state");
        assert_eq!(s.kind, ScalingStateKind::Cooldown);
        assert_eq!(
            deadline.map(Deadline::at),
            crate::time::parse("2026-11-30T12:10:00Z")
        );
        let e = evaluation(serde_json::json!({
            "state": "Scaling", "scalingStartedAt": "2026-11-30T12:00:00Z"
        }));
        assert!(matches!(
            e.scaling_until("c/w").and_then(|(_, deadline)| deadline),
            Some(Deadline::AbortAt(_))
        ));
        assert!(e.scaling_of("c/other").is_none());
    }

    /// A state without its word still has its details and actions to show.
    #[test]
    fn a_state_without_a_word_is_still_read() {
        let e = evaluation(serde_json::json!({
            "details": "waiting for hosts", "actions": [{"type": "Add", "hostUID": "h1"}]
        }));
        let s = e.scaling_of("c/w").expect("the state is there");
        assert_eq!(s.word, None);
        assert_eq!(e.deadline_of(&s), None);
        assert_eq!(s.state.details.as_deref(), Some("waiting for hosts"));
    }
}
