//! Rules on each worker pool: its name, GPU requirements, taints, counts, architecture, CPU,
//! memory and labels.

use std::collections::{HashMap, HashSet};

use crate::field::Scalar;
use crate::model::ComputePool;
use crate::model::pool::{GpuRequirement, Taint};
use crate::path::YamlPath;
use crate::quantity::{GpuVariant, Memory};

use super::hardware::{check_architecture, check_cpu, check_memory, memory_problem};
use super::metadata::{check_annotations, check_labels};
use super::names::qualified_key;
use super::paths::worker_pool;
use super::{Basis, Context, Finding, Rule, Severity};

const NAMES: &str = "Worker Pool Names";
const FIELDS: &str = "Worker Pool Fields";
const TAINTS: &str = "Worker Pool Taints";

pub const NAME_REQUIRED: Rule = Rule {
    id: "worker-pool.name.required",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: NAMES,
    summary: "every worker pool has a name",
};
pub const NAME_UNIQUE: Rule = Rule {
    id: "worker-pool.name.unique",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: NAMES,
    summary: "worker pool names are unique within the ComputePool",
};
pub const NAME_FORMAT: Rule = Rule {
    id: "worker-pool.name.format",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: NAMES,
    summary: "a new worker pool name starts with a letter, has none of /&#+%?,$ and at most 62 characters",
};
pub const NAME_GRANDFATHERED: Rule = Rule {
    id: "worker-pool.name.existing",
    severity: Severity::Info,
    basis: Basis::Note,
    section: NAMES,
    summary: "an existing worker pool name that breaks today's naming rules stays valid on update",
};
pub const COUNT: Rule = Rule {
    id: "worker-pool.count",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: FIELDS,
    summary: "minWorkerNodes and gpu.gpuCount are positive integers",
};
pub const GPU_VARIANT: Rule = Rule {
    id: "gpu.variant.required",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: FIELDS,
    summary: "a gpu block names its variant",
};
pub const GPU_VARIANT_FORMAT: Rule = Rule {
    id: "gpu.variant.format",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: FIELDS,
    summary: "a GPU variant is written as Compute reports it: '<model> | <memory per GPU>'",
};
pub const GPU_COUNT_MISSING: Rule = Rule {
    id: "gpu.count.missing",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: FIELDS,
    summary: "a gpu block should say how many GPUs (gpuCount) the pool needs",
};
pub const GPU_MEMORY_UNITS: Rule = Rule {
    id: "gpu.memory.units",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: FIELDS,
    summary: "gpuMemory is a string with units, e.g. '160 GB'",
};
/// A total that differs from gpuCount x the variant's memory may be a deliberate figure the
/// API accepts: said as a warning with the figures that make it look wrong.
pub const GPU_MEMORY: Rule = Rule {
    id: "gpu.memory.consistent",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: FIELDS,
    summary: "gpuMemory is the total: gpuCount x the variant's memory per GPU",
};
pub const GPU_FAMILY: Rule = Rule {
    id: "gpu.family.deprecated",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: FIELDS,
    summary: "gpu.family is deprecated and not read by controllers; variant is",
};
pub const TAINT_EFFECT: Rule = Rule {
    id: "taint.effect",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: TAINTS,
    summary: "a taint's effect is NoSchedule, PreferNoSchedule or NoExecute",
};
pub const TAINT_KEY: Rule = Rule {
    id: "taint.key",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: TAINTS,
    summary: "a taint has a valid key",
};

pub const RULES: &[&Rule] = &[
    &NAME_REQUIRED,
    &NAME_UNIQUE,
    &NAME_FORMAT,
    &NAME_GRANDFATHERED,
    &COUNT,
    &GPU_VARIANT,
    &GPU_VARIANT_FORMAT,
    &GPU_COUNT_MISSING,
    &GPU_MEMORY_UNITS,
    &GPU_MEMORY,
    &GPU_FAMILY,
    &TAINT_EFFECT,
    &TAINT_KEY,
];

pub const FORBIDDEN_NAME_CHARACTERS: &str = "/&#+%?,$";
pub const MAX_NAME_LENGTH: usize = 62;
pub const TAINT_EFFECTS: &[&str] = &["NoSchedule", "PreferNoSchedule", "NoExecute"];

/// Why a new worker pool name breaks the naming rules, if it does.
pub fn name_problem(name: &str) -> Option<String> {
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return Some("must start with a letter".into());
    }
    let bad: Vec<char> = name
        .chars()
        .filter(|c| FORBIDDEN_NAME_CHARACTERS.contains(*c))
        .collect();
    if !bad.is_empty() {
        let list: String = bad
            .iter()
            .map(|c| format!("'{c}'"))
            .collect::<Vec<_>>()
            .join(", ");
        return Some(format!(
            "contains {list} (none of {FORBIDDEN_NAME_CHARACTERS} may appear)"
        ));
    }
    let len = name.chars().count();
    if len > MAX_NAME_LENGTH {
        return Some(format!(
            "is {len} characters long (at most {MAX_NAME_LENGTH})"
        ));
    }
    None
}

pub fn check(pool: &ComputePool, context: &Context, out: &mut Vec<Finding>) {
    let old_names: HashSet<&str> = context
        .old
        .map(|old| old.worker_pools().filter_map(|(_, w)| w.name()).collect())
        .unwrap_or_default();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (index, worker) in pool.worker_pools() {
        let path = worker_pool(index);
        match worker.name() {
            None | Some("") if !worker.name.is_invalid() => out.push(Finding::new(
                &NAME_REQUIRED,
                path.key("name"),
                "this worker pool has no name; each must have a unique name",
            )),
            None | Some("") => {}
            Some(name) => {
                if let Some(first) = seen.insert(name, index) {
                    out.push(Finding::new(
                        &NAME_UNIQUE,
                        path.key("name"),
                        format!(
                            "worker pool name \"{name}\" is already used by workerPools[{first}]"
                        ),
                    ));
                }
                if let Some(why) = name_problem(name) {
                    if old_names.contains(name) {
                        out.push(Finding::new(
                            &NAME_GRANDFATHERED,
                            path.key("name"),
                            format!(
                                "\"{name}\" {why}, but it already exists on this pool and stays \
                                 valid; a new or renamed pool could not use it"
                            ),
                        ));
                    } else {
                        out.push(Finding::new(
                            &NAME_FORMAT,
                            path.key("name"),
                            format!("worker pool name \"{name}\" {why}"),
                        ));
                    }
                }
            }
        }
        check_architecture(&worker.architecture, &path.key("architecture"), out);
        check_cpu(&worker.cpu, &path.key("cpu"), out);
        check_memory(&worker.memory, &path.key("memory"), out);
        if let Some(n) = worker.min_worker_nodes.get().filter(|n| **n <= 0) {
            out.push(Finding::new(
                &COUNT,
                path.key("minWorkerNodes"),
                format!("minWorkerNodes is {n}; it must be a positive number of nodes"),
            ));
        }
        if let Some(gpu) = worker.gpu.get() {
            check_gpu(gpu, &path.key("gpu"), out);
        }
        for (i, taint) in worker.taints.get().into_iter().flatten().enumerate() {
            if let Some(taint) = taint.get() {
                check_taint(taint, &path.key("taints").index(i), out);
            }
        }
        check_labels(&worker.labels, &path.key("labels"), out);
        check_annotations(&worker.annotations, &path.key("annotations"), out);
    }
}

fn check_gpu(gpu: &GpuRequirement, path: &YamlPath, out: &mut Vec<Finding>) {
    if gpu.family.is_present() {
        out.push(Finding::new(
            &GPU_FAMILY,
            path.key("family"),
            "gpu.family is deprecated and not read by controllers; the variant decides which \
             GPUs are selected",
        ));
    }
    let variant = match gpu.variant.as_deref() {
        Some(v) if !v.trim().is_empty() => Some(GpuVariant::parse(v)),
        _ if gpu.variant.is_invalid() => None,
        _ => {
            out.push(Finding::new(
                &GPU_VARIANT,
                path.key("variant"),
                if gpu.family.is_present() {
                    "a gpu block needs a variant (family alone is not read), e.g. 'NVIDIA A100-SXM4-80GB | 80 GB'"
                } else {
                    "a gpu block needs a variant, e.g. 'NVIDIA A100-SXM4-80GB | 80 GB'"
                },
            ));
            None
        }
    };
    if let Some(v) = &variant
        && v.memory_per_gpu.is_none()
    {
        out.push(Finding::new(
            &GPU_VARIANT_FORMAT,
            path.key("variant"),
            format!(
                "variant \"{}\" does not end in '| <memory per GPU>' as Compute reports GPU \
                     variants (e.g. 'NVIDIA A100-SXM4-80GB | 80 GB'); it may match no host",
                gpu.variant.as_deref().unwrap_or_default()
            ),
        ));
    }
    match gpu.gpu_count.get() {
        Some(n) if *n <= 0 => out.push(Finding::new(
            &COUNT,
            path.key("gpuCount"),
            format!("gpuCount is {n}; it must be a positive number of GPUs"),
        )),
        None if gpu.gpu_count.is_missing() => out.push(Finding::new(
            &GPU_COUNT_MISSING,
            path.key("gpuCount"),
            "gpuCount is not set: write the total number of GPUs across the pool's hosts",
        )),
        _ => {}
    }
    check_gpu_memory(gpu, variant.as_ref(), path, out);
}

/// gpuMemory: in units, and the total the count and the variant's memory per GPU make.
fn check_gpu_memory(
    gpu: &GpuRequirement,
    variant: Option<&GpuVariant>,
    path: &YamlPath,
    out: &mut Vec<Finding>,
) {
    let Some(memory) = gpu.gpu_memory.get() else {
        return;
    };
    if let Some(why) = memory_problem(memory) {
        out.push(Finding::new(
            &GPU_MEMORY_UNITS,
            path.key("gpuMemory"),
            format!("gpuMemory {why}"),
        ));
        return;
    }
    let (Some(count), Some(per_gpu), Scalar::String(text)) = (
        gpu.gpu_count.get().filter(|n| **n > 0),
        variant.and_then(|v| v.memory_per_gpu),
        memory,
    ) else {
        return;
    };
    let Ok(total) = Memory::parse(text) else {
        return;
    };
    let expected = per_gpu.scaled(*count as f64);
    if !total.agrees_with(&expected) {
        out.push(Finding::new(
            &GPU_MEMORY,
            path.key("gpuMemory"),
            format!(
                "gpuMemory is {total}, but gpuCount {count} x {per_gpu} per GPU is {expected}: \
                 gpuMemory is the total across the pool's hosts, so this looks like the memory \
                 of fewer or more GPUs (keep it if the figure is deliberate)"
            ),
        ));
    }
}

fn check_taint(taint: &Taint, path: &YamlPath, out: &mut Vec<Finding>) {
    match taint.key.as_deref() {
        None | Some("") if !taint.key.is_invalid() => out.push(Finding::new(
            &TAINT_KEY,
            path.key("key"),
            "a taint needs a key",
        )),
        Some(key) if !key.is_empty() => {
            if let Some(why) = qualified_key(key) {
                out.push(Finding::new(
                    &TAINT_KEY,
                    path.key("key"),
                    format!("taint key \"{key}\" {why}"),
                ));
            }
        }
        _ => {}
    }
    match taint.effect.as_deref() {
        Some(effect) if TAINT_EFFECTS.contains(&effect) => {}
        Some(effect) => {
            let hint = TAINT_EFFECTS
                .iter()
                .find(|e| e.eq_ignore_ascii_case(effect))
                .map(|e| format!(" (write it as {e})"))
                .unwrap_or_default();
            out.push(Finding::new(
                &TAINT_EFFECT,
                path.key("effect"),
                format!(
                    "effect \"{effect}\" is not NoSchedule, PreferNoSchedule or NoExecute{hint}"
                ),
            ));
        }
        None if !taint.effect.is_invalid() => out.push(Finding::new(
            &TAINT_EFFECT,
            path.key("effect"),
            "a taint needs an effect: NoSchedule, PreferNoSchedule or NoExecute",
        )),
        None => {}
    }
}
