//! The ScalingPolicy the wizard writes with a pool: started from the reference's example
//! values with one entry per GPU variant the worker pools ask for, its GPU entries added and
//! removed with their bounds, and kept in step with the pool's reference.

use serde_json::{Value, json};

use super::{Draft, YamlPath, policy_bounds_path, policy_gpu_path, worker_pools_path};

impl Draft {
    /// A ScalingPolicy written with the pool, with the values of the reference's examples,
    /// one threshold and bounds entry per GPU variant the worker pools ask for; the pool's
    /// reference is pointed at it.
    pub fn start_policy(&mut self) {
        let namespace = self.pool["metadata"]["namespace"].clone();
        let reference = YamlPath::keys("spec.clusterVariant.dedicated.scalingPolicyRef");
        let name = match self.get(&reference.key("name")).and_then(Value::as_str) {
            Some(name) if !name.trim().is_empty() => name.to_owned(),
            _ => match self.pool["metadata"]["name"].as_str() {
                Some(pool) if !pool.trim().is_empty() => format!("{pool}-scaling"),
                _ => "scaling-policy".to_owned(),
            },
        };
        let mut variants: Vec<String> = Vec::new();
        for index in 0..self.worker_pools() {
            let at = worker_pools_path().index(index).join("gpu.variant");
            if let Some(variant) = self.get(&at).and_then(Value::as_str)
                && !variant.trim().is_empty()
                && !variants.iter().any(|v| v == variant)
            {
                variants.push(variant.to_owned());
            }
        }
        self.policy = Some(json!({
            "apiVersion": "spectrocloud.com/v1alpha1",
            "kind": "ScalingPolicy",
            "metadata": {"name": name, "namespace": namespace},
            "spec": {
                "cpu": {"scaleUpThreshold": 80, "scaleDownThreshold": 20,
                        "scaleUpDuration": "5m", "scaleDownDuration": "10m"},
                "gpu": variants.iter().map(|v| json!({"variant": v, "scaleUpThreshold": 80,
                        "scaleDownThreshold": 20, "scaleUpDuration": "5m", "scaleDownDuration": "10m"}))
                    .collect::<Vec<_>>(),
                "gpuResourceBounds": variants.iter().map(|v| json!({"variant": v,
                        "minGPUCount": 0, "maxGPUCount": 16})).collect::<Vec<_>>(),
                "cooldownDuration": "15m",
                "abortDuration": "30m"
            }
        }));
        self.set(&reference.key("name"), Some(json!(name)));
        self.set(&reference.key("namespace"), Some(namespace));
    }

    /// How many GPU entries the policy written with the pool has.
    pub fn policy_gpus(&self) -> usize {
        self.get(&policy_gpu_path())
            .and_then(Value::as_array)
            .map_or(0, Vec::len)
    }

    /// A GPU entry more in the policy (thresholds and bounds, side by side).
    pub fn add_policy_gpu(&mut self, variant: &str) -> usize {
        let index = self.policy_gpus();
        self.set(
            &policy_gpu_path().index(index),
            Some(
                json!({"variant": variant, "scaleUpThreshold": 80, "scaleDownThreshold": 20,
                        "scaleUpDuration": "5m", "scaleDownDuration": "10m"}),
            ),
        );
        self.set(
            &policy_bounds_path().index(index),
            Some(json!({"variant": variant, "minGPUCount": 0, "maxGPUCount": 16})),
        );
        index
    }

    /// Removes a GPU entry of the policy, its bounds with it.
    pub fn remove_policy_gpu(&mut self, index: usize) {
        self.set(&policy_gpu_path().index(index), None);
        self.set(&policy_bounds_path().index(index), None);
    }

    /// The policy written with the pool keeps the pool's reference: its name is the one the
    /// pool names, its namespace the pool's; a bounds entry carries its threshold's variant.
    pub fn keep_policy_in_step(&mut self) {
        if self.policy.is_none() {
            return;
        }
        let reference = YamlPath::keys("spec.clusterVariant.dedicated.scalingPolicyRef");
        if let Some(name) = self.get(&reference.key("name")).cloned() {
            self.set(&YamlPath::keys("policy.metadata.name"), Some(name));
        }
        let namespace = self.pool["metadata"]["namespace"].clone();
        self.set(
            &YamlPath::keys("policy.metadata.namespace"),
            Some(namespace),
        );
        for index in 0..self.policy_gpus() {
            let variant = self
                .get(&policy_gpu_path().index(index).key("variant"))
                .cloned();
            let bounds = policy_bounds_path().index(index);
            if variant.is_some() && self.get(&bounds).is_some() {
                self.set(&bounds.key("variant"), variant);
            }
        }
    }
}
