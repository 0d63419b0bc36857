//! An edge pool's network settings: the overlay's CIDR and type, and NTP servers.

use std::net::{IpAddr, Ipv4Addr};

use crate::model::pool::Edge;
use crate::path::YamlPath;

use super::edge::EDGE;
use super::names::fqdn;
use super::paths::{self, at};
use super::{Basis, Finding, Rule, Severity};

pub const OVERLAY_CIDR: Rule = Rule {
    id: "overlay.cidr",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: EDGE,
    summary: "networkOverlayConfig.cidr is an IPv4 range in CIDR notation, required when enabled",
};

pub const OVERLAY_TYPE: Rule = Rule {
    id: "overlay.type-ignored",
    severity: Severity::Info,
    basis: Basis::Note,
    section: EDGE,
    summary: "overlayNetworkType is accepted but not read: VXLAN is the only overlay type",
};

pub const NTP: Rule = Rule {
    id: "edge.ntp-server",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: EDGE,
    summary: "each NTP server is a hostname or an IP address",
};

pub(super) fn check_overlay(edge: &Edge, out: &mut Vec<Finding>) {
    let Some(overlay) = edge.network_overlay_config.get() else {
        return;
    };
    let path = at(paths::OVERLAY);
    if let Some(kind) = overlay.overlay_network_type.as_deref() {
        out.push(Finding::new(
            &OVERLAY_TYPE,
            path.key("overlayNetworkType"),
            format!(
                "overlayNetworkType \"{kind}\" is accepted but not read when deploying; VXLAN is \
                 the only supported overlay"
            ),
        ));
    }
    let enabled = overlay.enabled.get() == Some(&true);
    match overlay.cidr.as_deref() {
        Some(cidr) => {
            if let Some(why) = cidr_problem(cidr) {
                out.push(Finding::new(
                    &OVERLAY_CIDR,
                    path.key("cidr"),
                    format!("cidr \"{cidr}\" {why}"),
                ));
            }
        }
        None if enabled && !overlay.cidr.is_invalid() => out.push(Finding::new(
            &OVERLAY_CIDR,
            path.key("cidr"),
            "the overlay is enabled but has no cidr; the API endpoint is derived from it",
        )),
        None => {}
    }
}

/// Why a text is not an IPv4 CIDR range, if it is not.
pub fn cidr_problem(cidr: &str) -> Option<String> {
    let Some((address, prefix)) = cidr.split_once('/') else {
        return Some("is not in CIDR notation (address/prefix, e.g. 192.168.1.0/24)".into());
    };
    let Ok(address) = address.parse::<Ipv4Addr>() else {
        return Some(format!(
            "does not start with an IPv4 address (\"{address}\")"
        ));
    };
    let Ok(prefix) = prefix.parse::<u8>() else {
        return Some(format!(
            "has a prefix length \"{prefix}\" that is not a number"
        ));
    };
    if prefix > 32 {
        return Some(format!(
            "has a prefix length of {prefix}; IPv4 allows at most 32"
        ));
    }
    let network = ipnet::Ipv4Net::new(address, prefix).ok()?;
    if network.network() != address {
        return Some(format!(
            "has host bits set; the range it names is {}",
            network.trunc()
        ));
    }
    None
}

pub(super) fn check_ntp(edge: &Edge, path: &YamlPath, out: &mut Vec<Finding>) {
    for (i, server) in edge.ntp_servers.get().into_iter().flatten().enumerate() {
        let Some(server) = server.as_deref() else {
            continue;
        };
        let ok = server.parse::<IpAddr>().is_ok()
            || fqdn(server).is_none()
            || (!server.contains('.') && super::names::dns_subdomain(server).is_none());
        if !ok {
            out.push(Finding::new(
                &NTP,
                path.key("ntpServers").index(i),
                format!(
                    "NTP server \"{server}\" is not a hostname or an IP address: the hosts \
                     cannot keep time with it"
                ),
            ));
        }
    }
}
