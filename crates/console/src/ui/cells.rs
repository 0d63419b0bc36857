//! The meaning (colour) each value of a cell has; how a cell reads is `app::rows::text`,
//! re-exported here for the screens.

use crate::app::rows::Cell;
use crate::app::rows::Status;
pub use crate::app::rows::text::{
    Form, PLAIN_COLUMN_AT_MOST, PLAIN_LAST_COLUMN_AT_MOST, plain_table, plain_widths, share_bar,
    text,
};
use crate::domain::model::vocabulary::{HostStatus, PoolPhase, ScalingStateKind};
use crate::theme::Meaning;

/// The meaning of a status, for its colour.
pub fn status(status: &Status) -> Meaning {
    match status {
        Status::Unreadable => Meaning::Error,
        Status::Finding(severity) => match severity {
            crate::domain::rules::Severity::Error => Meaning::Error,
            crate::domain::rules::Severity::Warning => Meaning::Warn,
            crate::domain::rules::Severity::Info => Meaning::Info,
        },
        Status::Pool(phase) => match phase {
            PoolPhase::Running => Meaning::Ok,
            PoolPhase::Provisioning | PoolPhase::Updating => Meaning::Info,
            PoolPhase::Unhealthy | PoolPhase::Unknown => Meaning::Warn,
            PoolPhase::Failed | PoolPhase::Deleting => Meaning::Error,
            PoolPhase::Other(_) => Meaning::Text,
        },
        Status::Health { status: host, .. } | Status::Host(host) => match host {
            HostStatus::Healthy => Meaning::Ok,
            HostStatus::Provisioning | HostStatus::Initial => Meaning::Info,
            HostStatus::Unhealthy | HostStatus::Unknown => Meaning::Warn,
            HostStatus::Failed | HostStatus::Deleting => Meaning::Error,
            HostStatus::Other(_) => Meaning::Text,
        },
        Status::Event { warning: true, .. } => Meaning::Warn,
        Status::Event { word, .. } if word == "Normal" => Meaning::Ok,
        Status::Event { .. } => Meaning::Text,
    }
}

pub fn scaling(state: &ScalingStateKind) -> Meaning {
    match state {
        ScalingStateKind::Idle => Meaning::Ok,
        ScalingStateKind::Scaling | ScalingStateKind::Cooldown => Meaning::Info,
        ScalingStateKind::Blocked => Meaning::Warn,
        ScalingStateKind::Aborting => Meaning::Error,
        ScalingStateKind::Other(_) => Meaning::Text,
    }
}

fn severity(meaning: Meaning) -> u8 {
    match meaning {
        Meaning::Error => 4,
        Meaning::Warn => 3,
        Meaning::Info => 2,
        Meaning::Ok => 1,
        _ => 0,
    }
}

/// The colour a cell's value calls for.
pub fn meaning(cell: &Cell) -> Meaning {
    match cell {
        Cell::Status(s) => status(s),
        Cell::Statuses(all) => all
            .iter()
            .map(status)
            .max_by_key(|m| severity(*m))
            .unwrap_or(Meaning::Text),
        Cell::Scaling { state, .. } => scaling(state),
        Cell::Flag(true) => Meaning::Warn,
        _ => Meaning::Text,
    }
}
