//! Quantities as the ComputePool reference writes them: memory sizes with units
//! (`16 GB`, `16384 MiB`, `128Gi`, `10GB`) and GPU variants (`NVIDIA A100-SXM4-80GB | 80 GB`).

use std::fmt;

/// A memory unit. Decimal units (`GB`) and binary units (`GiB`, `Gi`) are kept apart because
/// the reference mixes them (`16 GB` for a node, `32768 MiB` in Compute).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryUnit {
    Bytes,
    Decimal(u32),
    Binary(u32),
}

impl MemoryUnit {
    fn parse(text: &str) -> Option<MemoryUnit> {
        let lower = text.to_ascii_lowercase();
        let power = |prefix: char| "kmgtpe".find(prefix).map(|i| (i as u32).saturating_add(1));
        match lower.as_str() {
            "b" => Some(MemoryUnit::Bytes),
            // Single letters are only taken in the Kubernetes spelling (K, M, G, ...), since a
            // lowercase `m` means milli there.
            _ if text.len() == 1 => {
                let c = text.chars().next()?;
                if c.is_ascii_uppercase() || c == 'k' {
                    power(c.to_ascii_lowercase()).map(MemoryUnit::Decimal)
                } else {
                    None
                }
            }
            _ if lower.len() == 2 && lower.ends_with('b') => {
                power(lower.chars().next()?).map(MemoryUnit::Decimal)
            }
            _ if lower.len() == 2 && lower.ends_with('i') => {
                power(lower.chars().next()?).map(MemoryUnit::Binary)
            }
            _ if lower.len() == 3 && lower.ends_with("ib") => {
                power(lower.chars().next()?).map(MemoryUnit::Binary)
            }
            _ => None,
        }
    }

    fn factor(self, decimal_base: bool) -> f64 {
        match self {
            MemoryUnit::Bytes => 1.0,
            MemoryUnit::Decimal(p) if decimal_base => 1000f64.powi(p as i32),
            MemoryUnit::Decimal(p) | MemoryUnit::Binary(p) => 1024f64.powi(p as i32),
        }
    }
}

/// A memory size as written, e.g. `160 GB`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Memory {
    pub amount: f64,
    pub unit: MemoryUnit,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemoryError {
    Empty,
    MissingUnit,
    UnknownUnit(String),
    NotANumber,
    Negative,
}

impl fmt::Display for MemoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemoryError::Empty => f.write_str("is empty"),
            MemoryError::MissingUnit => f.write_str("has no unit"),
            MemoryError::UnknownUnit(unit) => write!(
                f,
                "has the unknown unit \"{unit}\" (use MB, GB, TB, MiB, GiB, TiB, Mi, Gi or Ti)"
            ),
            MemoryError::NotANumber => f.write_str("does not start with a number"),
            MemoryError::Negative => f.write_str("is negative"),
        }
    }
}

impl Memory {
    /// Parses `16 GB`, `16384 MiB`, `128Gi`, `10GB`, `1.5 TB`.
    pub fn parse(text: &str) -> Result<Memory, MemoryError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(MemoryError::Empty);
        }
        let split = text
            .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))
            .unwrap_or(text.len());
        let (number, unit) = text.split_at(split);
        let amount: f64 = number.parse().map_err(|_| MemoryError::NotANumber)?;
        if !amount.is_finite() {
            return Err(MemoryError::NotANumber);
        }
        if amount < 0.0 {
            return Err(MemoryError::Negative);
        }
        let unit = unit.trim();
        if unit.is_empty() {
            return Err(MemoryError::MissingUnit);
        }
        let unit = MemoryUnit::parse(unit).ok_or_else(|| MemoryError::UnknownUnit(unit.into()))?;
        Ok(Memory { amount, unit })
    }

    /// Bytes, reading decimal units as powers of 1000.
    pub fn bytes(&self) -> f64 {
        self.amount * self.unit.factor(true)
    }

    /// Bytes, reading decimal units as powers of 1024 (as GPU vendors and many tools do).
    pub fn bytes_binary_reading(&self) -> f64 {
        self.amount * self.unit.factor(false)
    }

    pub fn scaled(&self, factor: f64) -> Memory {
        Memory {
            amount: self.amount * factor,
            unit: self.unit,
        }
    }

    /// Whether two sizes agree within 1%, under either reading of decimal units. The reference
    /// writes GPU memory as `80 GB` per GPU while tools report GiB; both readings are accepted.
    pub fn agrees_with(&self, other: &Memory) -> bool {
        let close = |a: f64, b: f64| (a - b).abs() <= 0.01 * a.abs().max(b.abs());
        close(self.bytes(), other.bytes())
            || close(self.bytes_binary_reading(), other.bytes_binary_reading())
    }
}

impl fmt::Display for Memory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let prefix = |p: u32| ["", "K", "M", "G", "T", "P", "E"][p.min(6) as usize];
        let amount = if self.amount.fract() == 0.0 {
            format!("{}", self.amount as i64)
        } else {
            format!("{:.2}", self.amount)
                .trim_end_matches('0')
                .trim_end_matches('.')
                .to_owned()
        };
        match self.unit {
            MemoryUnit::Bytes => write!(f, "{amount} B"),
            MemoryUnit::Decimal(p) => write!(f, "{amount} {}B", prefix(p)),
            MemoryUnit::Binary(p) => write!(f, "{amount} {}iB", prefix(p)),
        }
    }
}

/// A GPU variant as Compute reports it: `<model> | <per-GPU memory>`.
#[derive(Clone, Debug, PartialEq)]
pub struct GpuVariant {
    pub model: String,
    /// Memory of one GPU, when the variant names it and it parses.
    pub memory_per_gpu: Option<Memory>,
}

impl GpuVariant {
    pub fn parse(text: &str) -> GpuVariant {
        match text.split_once('|') {
            Some((model, memory)) => GpuVariant {
                model: model.trim().to_owned(),
                memory_per_gpu: Memory::parse(memory).ok(),
            },
            None => GpuVariant {
                model: text.trim().to_owned(),
                memory_per_gpu: None,
            },
        }
    }

    /// A short name for narrow columns: `A100-SXM4-80GB` from `NVIDIA A100-SXM4-80GB | 80 GB`.
    pub fn short_name(&self) -> &str {
        self.model
            .strip_prefix("NVIDIA ")
            .or_else(|| self.model.strip_prefix("AMD "))
            .unwrap_or(&self.model)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_references_memory_strings() {
        let gb16 = Memory::parse("16 GB").unwrap();
        assert_eq!(gb16.bytes(), 16e9);
        let mib = Memory::parse("16384 MiB").unwrap();
        assert_eq!(mib.bytes(), 16384.0 * 1024.0 * 1024.0);
        let gi = Memory::parse("128Gi").unwrap();
        assert_eq!(gi.bytes(), 128.0 * 1024f64.powi(3));
        assert_eq!(Memory::parse("160 GB").unwrap().to_string(), "160 GB");
        assert_eq!(Memory::parse("10GB").unwrap().bytes(), 10e9);
        assert_eq!(Memory::parse("1.5 TB").unwrap().bytes(), 1.5e12);
    }

    #[test]
    fn refuses_sizes_without_units() {
        assert_eq!(Memory::parse("16"), Err(MemoryError::MissingUnit));
        assert_eq!(Memory::parse(""), Err(MemoryError::Empty));
        assert_eq!(Memory::parse("GB"), Err(MemoryError::NotANumber));
        assert_eq!(
            Memory::parse("16 m"),
            Err(MemoryError::UnknownUnit("m".into()))
        );
        assert_eq!(
            Memory::parse("16 gigs"),
            Err(MemoryError::UnknownUnit("gigs".into()))
        );
        assert_eq!(Memory::parse("-1 GB"), Err(MemoryError::Negative));
    }

    #[test]
    fn compares_across_decimal_and_binary_readings() {
        let per_gpu = Memory::parse("80 GB").unwrap();
        assert!(
            per_gpu
                .scaled(2.0)
                .agrees_with(&Memory::parse("160 GB").unwrap())
        );
        assert!(
            per_gpu
                .scaled(2.0)
                .agrees_with(&Memory::parse("160Gi").unwrap())
        );
        assert!(
            per_gpu
                .scaled(2.0)
                .agrees_with(&Memory::parse("149Gi").unwrap())
        );
        assert!(
            !per_gpu
                .scaled(2.0)
                .agrees_with(&Memory::parse("80 GB").unwrap())
        );
        assert!(
            !per_gpu
                .scaled(2.0)
                .agrees_with(&Memory::parse("150 GB").unwrap())
        );
    }

    #[test]
    fn splits_gpu_variants() {
        let variant = GpuVariant::parse("NVIDIA A100-SXM4-80GB | 80 GB");
        assert_eq!(variant.model, "NVIDIA A100-SXM4-80GB");
        assert_eq!(variant.memory_per_gpu.unwrap().bytes(), 80e9);
        assert_eq!(variant.short_name(), "A100-SXM4-80GB");
        let h100 = GpuVariant::parse("NVIDIA H100 PCIe | 80 GB");
        assert_eq!(h100.short_name(), "H100 PCIe");
        assert_eq!(GpuVariant::parse("L40S").memory_per_gpu, None);
    }
}
