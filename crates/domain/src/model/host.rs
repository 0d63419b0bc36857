//! An edge host as a pool's status lists it: its hardware, shared by every host read with
//! the same, and its own status.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::field::{Extra, Field, FromJson, Issue, Lenient, Mismatch, Num, SmallMap, Text, model};
use crate::path::At;

model! {
    /// What an edge host is: its hardware. (Its `extra` stays empty: a host's fields that
    /// pooldeck does not know are the host's own, [`Host::extra`].)
    open struct HostHardware {
        architecture: Text = "architecture",
        cpu_count: i64 = "cpuCount",
        memory_gb: Num = "memoryGB",
        /// One entry on almost every host: held in place.
        gpu_count_by_variant: SmallMap<Field<i64>> = "gpuCountByVariant",
        gpu_memory_gb_by_variant: SmallMap<Field<Num>> = "gpuMemoryGBByVariant",
    }
}

impl Eq for HostHardware {}

/// Consistent with `==`: equal hardware hashes its architecture, counts and variants alike.
/// Only hardware whose every field reads as written is shared ([`shareable`]), so hashing the
/// values read is enough to tell apart what the table holds.
impl Hash for HostHardware {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.architecture.get().hash(state);
        self.cpu_count.get().hash(state);
        self.memory_gb.get().map(|n| &n.0).hash(state);
        for (variant, count) in self.gpu_count_by_variant.get().into_iter().flatten() {
            (variant, count.get()).hash(state);
        }
        for (variant, memory) in self.gpu_memory_gb_by_variant.get().into_iter().flatten() {
            (variant, memory.get().map(|n| &n.0)).hash(state);
        }
    }
}

/// Whether hardware can be shared: only when every field reads as a value (one of the wrong
/// shape keeps its raw value, which must be written back as it was) and no number is a
/// negative zero (equal to zero, but written differently).
pub(super) fn shareable(hardware: &HostHardware) -> bool {
    fn number(n: &Num) -> bool {
        n.0.as_f64()
            .is_none_or(|f| !(f == 0.0 && f.is_sign_negative()))
    }
    fn field<T>(field: &Field<T>, ok: impl Fn(&T) -> bool) -> bool {
        !field.is_invalid() && field.get().is_none_or(ok)
    }
    fn variants<T>(map: &Field<SmallMap<Field<T>>>, ok: impl Fn(&T) -> bool) -> bool {
        field(map, |m| m.into_iter().all(|(_, v)| field(v, &ok)))
    }
    hardware.extra.is_empty()
        && field(&hardware.architecture, |_| true)
        && field(&hardware.cpu_count, |_| true)
        && field(&hardware.memory_gb, number)
        && variants(&hardware.gpu_count_by_variant, |_| true)
        && variants(&hardware.gpu_memory_gb_by_variant, number)
}

/// An edge host allocated to a machine pool, keyed by its UID in `hosts`: what it is (its
/// hardware, shared by every host read with the same) and how it is (its status). Reads as
/// one object: `host.architecture` is its hardware's, and it is written back as it was read.
/// Declared by hand, not with `model!`: its reading, writing and checking must stay those
/// the macro would make for the seven fields in this order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Host {
    pub hardware: Arc<HostHardware>,
    pub status: Field<Text>,
    pub status_updated_at: Field<Text>,
    /// Fields this version of pooldeck does not know, kept so nothing is lost: the host's
    /// own, never shared (a newer controller may write one that differs on every host).
    pub extra: Extra,
}

impl Host {
    /// The field names the reference documents for a host.
    pub const FIELDS: &'static [&'static str] = &[
        "architecture",
        "cpuCount",
        "memoryGB",
        "gpuCountByVariant",
        "gpuMemoryGBByVariant",
        "status",
        "statusUpdatedAt",
    ];
}

impl std::ops::Deref for Host {
    type Target = HostHardware;

    fn deref(&self) -> &HostHardware {
        &self.hardware
    }
}

impl FromJson for Host {
    fn read<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Result<Self, Mismatch>, D::Error> {
        crate::field::read_model(deserializer)
    }
}

impl crate::field::Entries for Host {
    fn read_entry<'de, A: serde::de::MapAccess<'de>>(
        &mut self,
        key: crate::field::Key<'de>,
        map: &mut A,
    ) -> Result<(), A::Error> {
        use crate::field::FieldSeed;
        match key.as_str() {
            "status" => self.status = map.next_value_seed(FieldSeed::new())?,
            "statusUpdatedAt" => self.status_updated_at = map.next_value_seed(FieldSeed::new())?,
            // Not shared yet: the host's own until it is finished.
            name if HostHardware::FIELDS.contains(&name) => {
                Arc::make_mut(&mut self.hardware).read_entry(key, map)?
            }
            _ => {
                let value = map.next_value::<Value>()?;
                self.extra.insert(key.into_string(), value);
            }
        }
        Ok(())
    }
}

impl<'de> Deserialize<'de> for Host {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        crate::field::deserialize_model(deserializer)
    }
}

/// Written as it was read: the fields in the reference's order, then those pooldeck does not
/// know.
impl Serialize for Host {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        fn entry<M: SerializeMap, T: Serialize>(
            map: &mut M,
            name: &str,
            field: &Field<T>,
        ) -> Result<(), M::Error> {
            if field.is_absent() {
                return Ok(());
            }
            map.serialize_entry(name, field)
        }
        let hardware = &*self.hardware;
        let mut map = serializer.serialize_map(None)?;
        entry(&mut map, "architecture", &hardware.architecture)?;
        entry(&mut map, "cpuCount", &hardware.cpu_count)?;
        entry(&mut map, "memoryGB", &hardware.memory_gb)?;
        entry(
            &mut map,
            "gpuCountByVariant",
            &hardware.gpu_count_by_variant,
        )?;
        entry(
            &mut map,
            "gpuMemoryGBByVariant",
            &hardware.gpu_memory_gb_by_variant,
        )?;
        entry(&mut map, "status", &self.status)?;
        entry(&mut map, "statusUpdatedAt", &self.status_updated_at)?;
        for (name, value) in self.extra.iter() {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

impl Lenient for Host {
    fn collect_issues(&self, at: &At<'_>, out: &mut Vec<Issue>) {
        self.hardware.collect_issues(at, out);
        self.status.collect_issues(&at.key("status"), out);
        self.status_updated_at
            .collect_issues(&at.key("statusUpdatedAt"), out);
    }
}

impl Host {
    pub fn gpu_count(&self) -> i64 {
        self.gpu_count_by_variant
            .get()
            .into_iter()
            .flatten()
            .filter_map(|(_, n)| n.get())
            .sum()
    }
}
