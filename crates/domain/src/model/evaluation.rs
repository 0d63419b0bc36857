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
