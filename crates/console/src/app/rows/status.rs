//! The words of a row's status cells, typed from the vocabulary so that colour and order come
//! from their meaning: pool phases, host and health statuses, event types, findings; and the
//! scaling states with when they end by themselves.

use crate::domain::field::Text;
use crate::domain::model::vocabulary::{HostStatus, PoolPhase, ScalingStateKind};

/// A status word from the vocabulary, typed so colour and order come from its meaning.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    Pool(PoolPhase),
    /// A host's status.
    Host(HostStatus),
    /// A cluster's health, with the word as the controller wrote it (`UnHealthy`).
    Health {
        status: HostStatus,
        word: Text,
    },
    /// An event's type: Warning or not.
    Event {
        warning: bool,
        word: Text,
    },
    /// The object could not be read at all.
    Unreadable,
    /// How bad a doctor's finding is.
    Finding(crate::domain::rules::Severity),
}

impl Status {
    /// Worst first: what needs an operator sorts to the top of an ascending sort.
    pub fn rank(&self) -> u8 {
        match self {
            Status::Unreadable => 0,
            Status::Finding(crate::domain::rules::Severity::Error) => 1,
            Status::Finding(crate::domain::rules::Severity::Warning) => 3,
            Status::Finding(crate::domain::rules::Severity::Info) => 7,
            Status::Health { status, .. } => Status::Host(status.clone()).rank(),
            Status::Pool(PoolPhase::Failed) | Status::Host(HostStatus::Failed) => 1,
            Status::Pool(PoolPhase::Deleting) | Status::Host(HostStatus::Deleting) => 2,
            Status::Pool(PoolPhase::Unhealthy) | Status::Host(HostStatus::Unhealthy) => 3,
            Status::Event { warning: true, .. } => 3,
            Status::Pool(PoolPhase::Unknown) | Status::Host(HostStatus::Unknown) => 4,
            Status::Pool(PoolPhase::Other(_)) | Status::Host(HostStatus::Other(_)) => 5,
            Status::Pool(PoolPhase::Provisioning | PoolPhase::Updating)
            | Status::Host(HostStatus::Provisioning | HostStatus::Initial) => 6,
            Status::Pool(PoolPhase::Running) | Status::Host(HostStatus::Healthy) => 7,
            Status::Event { warning: false, .. } => 7,
        }
    }

    /// The word on a narrow screen: shorter where the guide's word has a shorter form that
    /// still reads as it ("Maintenance" for a cluster in "Maintenance Mode"); any other word,
    /// the cluster's own included, as it is.
    pub fn compact_word(&self) -> &str {
        match self.word() {
            "Maintenance Mode" => "Maintenance",
            word => word,
        }
    }

    /// The word as the controllers write it.
    pub fn word(&self) -> &str {
        match self {
            Status::Pool(phase) => match phase {
                PoolPhase::Running => "Running",
                PoolPhase::Provisioning => "Provisioning",
                PoolPhase::Updating => "Updating",
                PoolPhase::Unhealthy => "Unhealthy",
                PoolPhase::Failed => "Failed",
                PoolPhase::Deleting => "Deleting",
                PoolPhase::Unknown => "Unknown",
                PoolPhase::Other(word) => word,
            },
            Status::Host(status) => match status {
                HostStatus::Initial => "Initial",
                HostStatus::Provisioning => "Provisioning",
                HostStatus::Healthy => "Healthy",
                HostStatus::Unhealthy => "Unhealthy",
                HostStatus::Failed => "Failed",
                HostStatus::Deleting => "Deleting",
                HostStatus::Unknown => "Unknown",
                HostStatus::Other(word) => word,
            },
            Status::Event { word, .. } | Status::Health { word, .. } => word,
            Status::Unreadable => "Unreadable",
            Status::Finding(severity) => match severity {
                crate::domain::rules::Severity::Error => "error",
                crate::domain::rules::Severity::Warning => "warning",
                crate::domain::rules::Severity::Info => "info",
            },
        }
    }
}

/// Scaling states, busiest first.
pub fn scaling_rank(state: &ScalingStateKind) -> u8 {
    match state {
        ScalingStateKind::Aborting => 0,
        ScalingStateKind::Scaling => 1,
        ScalingStateKind::Blocked => 2,
        ScalingStateKind::Cooldown => 3,
        ScalingStateKind::Other(_) => 4,
        ScalingStateKind::Idle => 5,
    }
}

pub fn scaling_word(state: &ScalingStateKind) -> &str {
    match state {
        ScalingStateKind::Idle => "Idle",
        ScalingStateKind::Scaling => "Scaling",
        ScalingStateKind::Cooldown => "Cooldown",
        ScalingStateKind::Aborting => "Aborting",
        ScalingStateKind::Blocked => "Blocked",
        ScalingStateKind::Other(word) => word,
    }
}

/// When a scaling state ends by itself: worked out in the domain when the row is made.
pub use crate::domain::model::evaluation::Deadline;
