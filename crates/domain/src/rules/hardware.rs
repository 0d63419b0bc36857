//! A host's hardware as a pool asks for it: architecture, CPU count and memory with units.

use crate::field::{Field, Scalar, Text};
use crate::model::pool::{CpuRequirement, MemoryRequirement};
use crate::path::YamlPath;
use crate::quantity::Memory;

use super::topology::CONTROL_PLANE;
use super::{Basis, Finding, Rule, Severity};

pub const ARCHITECTURE: Rule = Rule {
    id: "architecture.value",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: CONTROL_PLANE,
    summary: "architecture is AMD64 or ARM64",
};

pub const CPU_COUNT: Rule = Rule {
    id: "cpu.count",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: CONTROL_PLANE,
    summary: "cpu.cpuCount is a positive integer",
};

pub const CPU_MISSING: Rule = Rule {
    id: "control-plane.cpu.missing",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: CONTROL_PLANE,
    summary: "the control plane should set cpu.cpuCount",
};

pub const MEMORY_UNITS: Rule = Rule {
    id: "memory.units",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: CONTROL_PLANE,
    summary: "memory.memory is a string with units, e.g. '16 GB' or '16384 MiB'",
};

pub const ARCHITECTURES: &[&str] = &["AMD64", "ARM64"];

pub fn check_architecture(field: &Field<Text>, path: &YamlPath, out: &mut Vec<Finding>) {
    if let Some(arch) = field.as_deref()
        && !ARCHITECTURES.contains(&arch)
    {
        let upper = arch.to_ascii_uppercase();
        let hint = if ARCHITECTURES.contains(&upper.as_str()) {
            format!(" (write it as {upper})")
        } else if matches!(upper.as_str(), "X86_64" | "X86-64") {
            " (x86-64 is AMD64)".to_owned()
        } else if upper == "AARCH64" {
            " (aarch64 is ARM64)".to_owned()
        } else {
            String::new()
        };
        out.push(Finding::new(
            &ARCHITECTURE,
            path.clone(),
            format!("architecture \"{arch}\" is not AMD64 or ARM64{hint}"),
        ));
    }
}

pub fn check_cpu(cpu: &Field<CpuRequirement>, path: &YamlPath, out: &mut Vec<Finding>) {
    if let Some(count) = cpu.get().and_then(|c| c.cpu_count.get())
        && *count <= 0
    {
        out.push(Finding::new(
            &CPU_COUNT,
            path.key("cpuCount"),
            format!("cpuCount is {count}; it must be a positive number of cores"),
        ));
    }
}

pub fn check_memory(memory: &Field<MemoryRequirement>, path: &YamlPath, out: &mut Vec<Finding>) {
    let Some(value) = memory.get().and_then(|m| m.memory.get()) else {
        return;
    };
    if let Some(why) = memory_problem(value) {
        out.push(Finding::new(
            &MEMORY_UNITS,
            path.key("memory"),
            format!("memory {why}"),
        ));
    }
}

/// Why a memory value is not a size with units, if it is not.
pub fn memory_problem(value: &Scalar) -> Option<String> {
    match value {
        Scalar::String(text) => Memory::parse(text).err().map(|e| {
            format!("\"{text}\" {e}; write a size with units, e.g. '16 GB' or '16384 MiB'")
        }),
        Scalar::Integer(n) => Some(format!(
            "{n} has no unit; write it as a string with units, e.g. '{n} GB' or '{n} MiB'"
        )),
        Scalar::Number(n) => Some(format!(
            "{n} has no unit; write it as a string such as '16 GB'"
        )),
        Scalar::Bool(b) => Some(format!("{b} is not a size; write a string such as '16 GB'")),
    }
}
