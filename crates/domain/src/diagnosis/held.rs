//! Why a worker pool's target stays at its count while its utilization is past a threshold:
//! the resource bounds cap it, or the threshold has not been crossed for the full duration.

use serde_json::Value;

use super::*;

/// Why a resource at its target is held back despite its load, if it is.
pub(super) struct Held {
    pub(super) id: &'static str,
    pub(super) severity: Severity,
    pub(super) summary: String,
    pub(super) cause: Cow<'static, str>,
}

/// The policy's scale-up and scale-down thresholds for a resource (`CPU` or a GPU variant).
fn thresholds(policy: Option<&Value>, resource: &str) -> Option<(f64, f64)> {
    let block = policy_block(policy, resource)?;
    Some((
        block["scaleUpThreshold"].as_f64()?,
        block["scaleDownThreshold"].as_f64()?,
    ))
}

/// The bounds of a resource as the evaluation copied them (else as the policy says).
fn bounds(
    evaluation: &ComputePoolEvaluation,
    policy: Option<&Value>,
    resource: &str,
) -> (Option<i64>, Option<i64>) {
    let copied = || -> Option<(Option<i64>, Option<i64>)> {
        let spec = evaluation.spec.get()?;
        if resource == "CPU" {
            let b = spec.cpu_resource_bounds.get()?;
            Some((
                b.min_cpu_count.get().copied(),
                b.max_cpu_count.get().copied(),
            ))
        } else {
            let b = spec
                .gpu_resource_bounds
                .get()?
                .iter()
                .filter_map(Field::get)
                .find(|b| b.variant.as_deref() == Some(resource))?;
            Some((
                b.min_gpu_count.get().copied(),
                b.max_gpu_count.get().copied(),
            ))
        }
    };
    let in_policy = |spec: &Value| -> Option<(Option<i64>, Option<i64>)> {
        if resource == "CPU" {
            let b = spec.get("cpuResourceBounds")?;
            Some((b["minCPUCount"].as_i64(), b["maxCPUCount"].as_i64()))
        } else {
            let b = spec
                .get("gpuResourceBounds")?
                .as_array()?
                .iter()
                .find(|b| b["variant"] == resource)?;
            Some((b["minGPUCount"].as_i64(), b["maxGPUCount"].as_i64()))
        }
    };
    copied()
        .or_else(|| policy.and_then(|p| p.get("spec")).and_then(in_policy))
        .unwrap_or((None, None))
}

/// A resource whose utilization is past a threshold while its target stays at its count:
/// held by its bounds (a warning: the pool cannot grow or shrink further), or not yet past it
/// for the full duration (the guide's first reason; said as a note).
pub(super) fn held_back(
    resource: &str,
    utilization: Option<f64>,
    count: i64,
    policy: Option<&Value>,
    evaluation: &ComputePoolEvaluation,
) -> Option<Held> {
    let utilization = utilization?;
    let (up, down) = thresholds(policy, resource)?;
    let (min, max) = bounds(evaluation, policy, resource);
    let high = utilization > up;
    let low = utilization < down;
    if !high && !low {
        return None;
    }
    let (threshold, word, bound, at_bound) = if high {
        (
            up,
            "above the scale-up",
            max,
            max.is_some_and(|m| count >= m),
        )
    } else {
        (
            down,
            "below the scale-down",
            min,
            min.is_some_and(|m| count <= m),
        )
    };
    Some(if at_bound {
        Held {
            id: "scaling.bounded",
            severity: Severity::Warning,
            summary: format!(
                "at {utilization}% is {word} threshold {threshold}%, but the target stays at {count}: the bounds cap it ({} {})",
                if high { "max" } else { "min" },
                bound.unwrap_or(count)
            ),
            cause: "The resource bounds cap the target: raise maxCount (or lower minCount) in the Scaling Policy's bounds.".into(),
        }
    } else {
        Held {
            id: "scaling.not-yet",
            severity: Severity::Info,
            summary: format!(
                "at {utilization}% is {word} threshold {threshold}%, the target still {count}: not yet for the full duration"
            ),
            cause: "Scaling happens only when utilization strictly crosses the threshold for the full scale-up or scale-down duration.".into(),
        }
    })
}
