//! ScalingPolicy documents (`spectrocloud.com/v1alpha1`, a pool's `scalingPolicyRef`): the
//! CPU thresholds and durations, one entry per GPU variant with the same fields, resource
//! bounds, `cooldownDuration` and `abortDuration`. Scaling happens only when utilization
//! strictly crosses a threshold, so a threshold outside 0–100, a scale-down threshold not
//! below the scale-up one, a duration that does not parse, or bounds whose minimum passes
//! their maximum make a policy that certainly cannot work: errors. A GPU variant listed twice
//! is a warning (which entry wins is the controller's choice).
//!
//! The policy is read from its JSON value: ScalingPolicy has no model of its own yet, and an
//! unknown field is left alone.

use serde_json::Value;

use super::{Basis, Finding, Rule, Severity};
use crate::path::YamlPath;

const SECTION: &str = "Autoscaling Configuration";

pub const THRESHOLD_RANGE: Rule = Rule {
    id: "policy.threshold-range",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: SECTION,
    summary: "a utilization threshold is a percentage from 0 to 100",
};
pub const THRESHOLD_ORDER: Rule = Rule {
    id: "policy.threshold-order",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: SECTION,
    summary: "scaleDownThreshold must be below scaleUpThreshold",
};
pub const DURATION: Rule = Rule {
    id: "policy.duration",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: SECTION,
    summary: "scale-up, scale-down, cooldown and abort durations are Go durations such as 5m or 1h30m",
};
pub const BOUNDS: Rule = Rule {
    id: "policy.bounds",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: SECTION,
    summary: "resource bounds are counts of 0 or more with the minimum not above the maximum",
};
pub const VARIANT_TWICE: Rule = Rule {
    id: "policy.gpu-variant-twice",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: SECTION,
    summary: "a GPU variant has more than one threshold entry",
};

pub const RULES: &[&Rule] = &[
    &THRESHOLD_RANGE,
    &THRESHOLD_ORDER,
    &DURATION,
    &BOUNDS,
    &VARIANT_TWICE,
];

/// Thresholds and durations of one block (`spec.cpu` or one `spec.gpu[i]`).
fn thresholds(block: &Value, at: &YamlPath, out: &mut Vec<Finding>) {
    let mut read = |field: &str| -> Option<f64> {
        let value = block.get(field)?;
        let path = at.key(field);
        match value.as_f64() {
            Some(n) if (0.0..=100.0).contains(&n) => Some(n),
            Some(n) => {
                out.push(Finding::new(
                    &THRESHOLD_RANGE,
                    path,
                    format!("{field} is {n}; it is a percentage from 0 to 100"),
                ));
                None
            }
            None => {
                out.push(Finding::new(
                    &THRESHOLD_RANGE,
                    path,
                    format!("{field} is {value}; write a number from 0 to 100"),
                ));
                None
            }
        }
    };
    let up = read("scaleUpThreshold");
    let down = read("scaleDownThreshold");
    if let (Some(up), Some(down)) = (up, down)
        && down >= up
    {
        out.push(Finding::new(
            &THRESHOLD_ORDER,
            at.key("scaleDownThreshold"),
            format!(
                "scaleDownThreshold {down} is not below scaleUpThreshold {up}: utilization between them would call for both; lower it"
            ),
        ));
    }
    for field in ["scaleUpDuration", "scaleDownDuration"] {
        duration(block, field, &at.key(field), out);
    }
}

fn duration(block: &Value, field: &str, path: &YamlPath, out: &mut Vec<Finding>) {
    let Some(value) = block.get(field) else {
        return;
    };
    let problem = match value.as_str() {
        Some(text) => crate::duration::parse(text).err().map(|e| e.to_string()),
        None => Some(format!("{value} is not a duration")),
    };
    if let Some(problem) = problem {
        out.push(Finding::new(
            &DURATION,
            path.clone(),
            format!("{field}: {problem} (write it like 5m, 30m or 1h30m)"),
        ));
    }
}

/// `min` ≤ `max`, both counts of 0 or more.
fn bounds(block: &Value, min: &str, max: &str, at: &YamlPath, out: &mut Vec<Finding>) {
    let mut count = |field: &str| -> Option<u64> {
        let value = block.get(field)?;
        match value.as_u64() {
            Some(n) => Some(n),
            None => {
                out.push(Finding::new(
                    &BOUNDS,
                    at.key(field),
                    format!("{field} is {value}; write a count of 0 or more"),
                ));
                None
            }
        }
    };
    if let (Some(low), Some(high)) = (count(min), count(max))
        && low > high
    {
        out.push(Finding::new(
            &BOUNDS,
            at.key(min),
            format!("{min} {low} is above {max} {high}; no count satisfies both"),
        ));
    }
}

/// The findings for one ScalingPolicy object.
pub fn validate(policy: &Value) -> Vec<Finding> {
    let mut out = Vec::new();
    let Some(spec) = policy.get("spec") else {
        return out;
    };
    let spec_at = YamlPath::keys("spec");
    if let Some(cpu) = spec.get("cpu") {
        thresholds(cpu, &spec_at.key("cpu"), &mut out);
    }
    let mut seen: Vec<&str> = Vec::new();
    for (i, gpu) in spec
        .get("gpu")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let at = spec_at.key("gpu").index(i);
        thresholds(gpu, &at, &mut out);
        if let Some(variant) = gpu.get("variant").and_then(Value::as_str) {
            if seen.contains(&variant) {
                out.push(Finding::new(
                    &VARIANT_TWICE,
                    at.key("variant"),
                    format!("{variant} already has an entry above; keep one"),
                ));
            }
            seen.push(variant);
        }
    }
    for field in ["cooldownDuration", "abortDuration"] {
        duration(spec, field, &spec_at.key(field), &mut out);
    }
    if let Some(cpu) = spec.get("cpuResourceBounds") {
        bounds(
            cpu,
            "minCPUCount",
            "maxCPUCount",
            &spec_at.key("cpuResourceBounds"),
            &mut out,
        );
    }
    for (i, gpu) in spec
        .get("gpuResourceBounds")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        bounds(
            gpu,
            "minGPUCount",
            "maxGPUCount",
            &spec_at.key("gpuResourceBounds").index(i),
            &mut out,
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ids(policy: Value) -> Vec<&'static str> {
        validate(&policy).into_iter().map(|f| f.rule.id).collect()
    }

    #[test]
    fn the_documented_example_is_clean() {
        let policy = json!({"spec": {
            "cpu": {"scaleUpThreshold": 80, "scaleDownThreshold": 20, "scaleUpDuration": "5m", "scaleDownDuration": "10m"},
            "gpu": [{"variant": "NVIDIA H100 PCIe | 80 GB", "scaleUpThreshold": 80, "scaleDownThreshold": 20, "scaleUpDuration": "5m", "scaleDownDuration": "10m"}],
            "cpuResourceBounds": {"minCPUCount": 4, "maxCPUCount": 128},
            "gpuResourceBounds": [{"variant": "NVIDIA H100 PCIe | 80 GB", "minGPUCount": 1, "maxGPUCount": 16}],
            "cooldownDuration": "15m", "abortDuration": "30m"}});
        assert!(ids(policy).is_empty());
    }

    #[test]
    fn each_rule_fires_on_its_fault() {
        assert_eq!(
            ids(json!({"spec": {"cpu": {"scaleUpThreshold": 120, "scaleDownThreshold": 20}}})),
            ["policy.threshold-range"]
        );
        assert_eq!(
            ids(
                json!({"spec": {"gpu": [{"variant": "x", "scaleUpThreshold": 50, "scaleDownThreshold": 50}]}})
            ),
            ["policy.threshold-order"]
        );
        assert_eq!(
            ids(json!({"spec": {"cooldownDuration": "15 minutes"}})),
            ["policy.duration"]
        );
        assert_eq!(
            ids(json!({"spec": {"gpuResourceBounds": [{"minGPUCount": 8, "maxGPUCount": 4}]}})),
            ["policy.bounds"]
        );
        assert_eq!(
            ids(json!({"spec": {"gpu": [{"variant": "x"}, {"variant": "x"}]}})),
            ["policy.gpu-variant-twice"]
        );
        // Every rule of the policy has a fault above that fires it.
        let fired = [
            "policy.threshold-range",
            "policy.threshold-order",
            "policy.duration",
            "policy.bounds",
            "policy.gpu-variant-twice",
        ];
        assert!(RULES.iter().all(|r| fired.contains(&r.id)));
        let finding = &validate(
            &json!({"spec": {"cpu": {"scaleUpThreshold": 60, "scaleDownThreshold": 70}}}),
        )[0];
        assert_eq!(finding.path.to_string(), "spec.cpu.scaleDownThreshold");
    }
}
