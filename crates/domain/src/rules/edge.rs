//! Rules on the edge configuration: the VIP (required, format, immutable, unique, ignored with
//! the overlay), two-node mode and SSH keys; the overlay and NTP are in [`super::network`].

use std::net::{IpAddr, Ipv4Addr};

use crate::model::ComputePool;
use crate::path::YamlPath;

use super::names::fqdn;
use super::network::{NTP, OVERLAY_CIDR, OVERLAY_TYPE, check_ntp, check_overlay};
use super::paths::{self, at};
use super::references::CLOUD_TYPES;
use super::{Basis, Context, Finding, Rule, Severity};

const VIP: &str = "VIP Requirements";
pub(super) const EDGE: &str = "Optional Edge Settings";

pub const VIP_REQUIRED: Rule = Rule {
    id: "vip.required",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: VIP,
    summary: "edge.vip is required unless the network overlay is enabled",
};
pub const VIP_FORMAT: Rule = Rule {
    id: "vip.format",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: VIP,
    summary: "the VIP is an IPv4 address or a fully qualified domain name",
};
pub const VIP_RESERVED: Rule = Rule {
    id: "vip.reserved",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: VIP,
    summary: "the VIP cannot be a loopback, unspecified, multicast, broadcast or link-local address",
};
pub const VIP_IGNORED: Rule = Rule {
    id: "vip.ignored",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: VIP,
    summary: "with the network overlay enabled the VIP is not used",
};
pub const VIP_IMMUTABLE: Rule = Rule {
    id: "vip.immutable",
    severity: Severity::Error,
    basis: Basis::Refused,
    section: VIP,
    summary: "the VIP cannot change after creation; delete and recreate the pool instead",
};
/// How many of the other pools sharing a VIP a finding names.
const NAMED_OTHERS: usize = 5;

pub const VIP_UNIQUE: Rule = Rule {
    id: "vip.unique",
    severity: Severity::Error,
    basis: Basis::Breaks,
    section: VIP,
    summary: "a new pool, or a changed VIP, must not take a VIP another Compute Pool holds",
};
pub const TWO_NODE: Rule = Rule {
    id: "edge.two-node",
    severity: Severity::Info,
    basis: Basis::Note,
    section: EDGE,
    summary: "two-node mode works only with Palette Optimized K3s or Canonical Kubernetes",
};
pub const SSH_PRIVATE_KEY: Rule = Rule {
    id: "ssh-key.private",
    severity: Severity::Error,
    basis: Basis::Secret,
    section: EDGE,
    summary: "sshKeys holds public keys only: a private key would be stored in the hub for every reader",
};
pub const SSH_KEY: Rule = Rule {
    id: "ssh-key.format",
    severity: Severity::Warning,
    basis: Basis::Suspect,
    section: EDGE,
    summary: "an sshKeys entry is an SSH public key (ssh-rsa, ssh-ed25519, ecdsa-...)",
};

pub const RULES: &[&Rule] = &[
    &VIP_REQUIRED,
    &VIP_FORMAT,
    &VIP_RESERVED,
    &VIP_IGNORED,
    &VIP_IMMUTABLE,
    &VIP_UNIQUE,
    &OVERLAY_CIDR,
    &OVERLAY_TYPE,
    &NTP,
    &TWO_NODE,
    &SSH_PRIVATE_KEY,
    &SSH_KEY,
];

pub fn check(pool: &ComputePool, context: &Context, out: &mut Vec<Finding>) {
    let Some(config) = pool.deployment_config() else {
        return;
    };
    let edge_path = at(paths::EDGE);
    check_ssh_keys(pool, out);
    let is_maas = pool
        .spec()
        .and_then(|s| s.profile_bundle_ref.get())
        .and_then(|b| b.cloud_type.as_deref())
        .or(config.cloud_type.as_deref())
        == Some(CLOUD_TYPES[1]);
    let edge = config.edge.get();
    if let Some(edge) = edge {
        check_overlay(edge, out);
        check_ntp(edge, &edge_path, out);
        if edge.is_two_node.get() == Some(&true) {
            out.push(Finding::new(
                &TWO_NODE,
                edge_path.key("isTwoNode"),
                "two-node mode is supported only with Palette Optimized K3s or Palette Optimized \
                 Canonical Kubernetes; check the ProfileBundle's Kubernetes distribution",
            ));
        }
    }
    let overlay = pool.overlay_enabled();
    let vip = pool.vip();
    let vip_path = edge_path.key("vip");
    match vip {
        None if !overlay && !is_maas && !edge.is_some_and(|e| e.vip.is_invalid()) => {
            out.push(Finding::new(
                &VIP_REQUIRED,
                if edge.is_some() {
                    vip_path.clone()
                } else {
                    edge_path.clone()
                },
                "edge.vip is required when the network overlay is not enabled: reserve a free \
                 address in the control plane's L2 segment (or enable networkOverlayConfig)",
            ))
        }
        Some(v) if overlay => out.push(Finding::new(
            &VIP_IGNORED,
            vip_path.clone(),
            format!(
                "the network overlay is enabled, so the API endpoint comes from the overlay CIDR \
                 and the VIP \"{v}\" is not used; remove it to avoid confusion"
            ),
        )),
        Some(v) => check_vip_format(v, &vip_path, out),
        None => {}
    }
    if let Some(old) = context.old
        && old.vip() != vip
        && (old.effective_vip().is_some() || pool.effective_vip().is_some())
    {
        out.push(Finding::new(
            &VIP_IMMUTABLE,
            vip_path.clone(),
            format!(
                "the VIP was {} and would become {}; the VIP is immutable after creation. To \
                     use another VIP, delete the pool and create it again",
                quoted(old.vip()),
                quoted(vip)
            ),
        ));
    }
    out.extend(vip_unique(pool, context));
}

/// A rule across pools, about the pool that takes a VIP another already holds: at create
/// and at an update that changes the VIP. An update that keeps the VIP takes nothing, and a
/// pool that exists holds its VIP against every pool that came after it ([`holds_before`]):
/// the newcomer carries the error, never the holder. One finding per pool, naming a few of
/// the others (N pools sharing a VIP make N findings, not N squared; the count comes from
/// the index when nothing tells the pools apart).
pub(super) fn vip_unique(pool: &ComputePool, context: &Context) -> Option<Finding> {
    // A pool has an effective VIP only in its deployment config's edge.
    let v = pool.effective_vip()?;
    if context
        .old
        .and_then(ComputePool::effective_vip)
        .is_some_and(|old| old.eq_ignore_ascii_case(v))
    {
        return None;
    }
    // A pool listed among those that exist (not a create: what a request says of its own
    // status or age is not believed), read as it is: those it came before do not count.
    let exists = context.old.is_none()
        && context.self_index.is_some()
        && (pool.runs() || pool.created().is_some());
    let counts = |other: &ComputePool| !exists || !holds_before(pool, other);
    let mut others = context.with_vip(pool, v).filter(|o| counts(o));
    let named: Vec<String> = others
        .by_ref()
        .take(NAMED_OTHERS)
        .map(ComputePool::key)
        .collect();
    let first = named.first()?;
    let total = if exists {
        named.len().saturating_add(others.count())
    } else {
        context.others_with_vip(pool, v).max(named.len())
    };
    let message = if total == 1 {
        format!("VIP \"{v}\" is already used by ComputePool {first}")
    } else {
        let more = total.saturating_sub(named.len());
        format!(
            "VIP \"{v}\" is already used by {total} other ComputePools: {}{}",
            named.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        )
    };
    Some(Finding::new(
        &VIP_UNIQUE,
        at(paths::EDGE).key("vip"),
        message,
    ))
}

/// Whether `holder` holds a VIP it shares with `other`: it runs and the other does not, or
/// (both running or neither) it was created first; a pool never created (a manifest) holds
/// nothing against another. As the doctor tells the owner of an address from the newcomer.
pub fn holds_before(holder: &ComputePool, other: &ComputePool) -> bool {
    match (holder.runs(), other.runs()) {
        (true, false) => true,
        (false, true) => false,
        _ => match (holder.created(), other.created()) {
            (Some(mine), Some(theirs)) => mine < theirs,
            (Some(_), None) => true,
            _ => false,
        },
    }
}

fn quoted(value: Option<&str>) -> String {
    value.map_or_else(|| "unset".to_owned(), |v| format!("\"{v}\""))
}

fn check_vip_format(vip: &str, path: &YamlPath, out: &mut Vec<Finding>) {
    let vip = vip.trim();
    if let Ok(ip) = vip.parse::<IpAddr>() {
        match ip {
            IpAddr::V6(_) => out.push(Finding::new(
                &VIP_FORMAT,
                path.clone(),
                format!("\"{vip}\" is an IPv6 address; the VIP is an IPv4 address or an FQDN"),
            )),
            IpAddr::V4(v4) => {
                if let Some(why) = reserved(v4) {
                    out.push(Finding::new(
                        &VIP_RESERVED,
                        path.clone(),
                        format!("\"{vip}\" is {why}; no cluster can be reached there"),
                    ));
                }
            }
        }
        return;
    }
    if vip.contains('/') {
        out.push(Finding::new(
            &VIP_FORMAT,
            path.clone(),
            format!("\"{vip}\" is a range; the VIP is one IPv4 address or an FQDN"),
        ));
        return;
    }
    if let Some(why) = fqdn(vip) {
        out.push(Finding::new(
            &VIP_FORMAT,
            path.clone(),
            format!("\"{vip}\" is neither an IPv4 address nor an FQDN: it {why}"),
        ));
    }
}

fn reserved(ip: Ipv4Addr) -> Option<&'static str> {
    if ip.is_unspecified() {
        Some("the unspecified address")
    } else if ip.is_loopback() {
        Some("a loopback address")
    } else if ip.is_multicast() {
        Some("a multicast address")
    } else if ip.is_broadcast() {
        Some("the broadcast address")
    } else if ip.is_link_local() {
        Some("a link-local address")
    } else {
        None
    }
}

const KEY_TYPES: &[&str] = &[
    "ssh-rsa",
    "ssh-ed25519",
    "ssh-dss",
    "ecdsa-sha2-nistp256",
    "ecdsa-sha2-nistp384",
    "ecdsa-sha2-nistp521",
    "sk-ssh-ed25519@openssh.com",
    "sk-ecdsa-sha2-nistp256@openssh.com",
];

fn check_ssh_keys(pool: &ComputePool, out: &mut Vec<Finding>) {
    let Some(config) = pool.deployment_config() else {
        return;
    };
    let path = at(paths::DEPLOYMENT).key("sshKeys");
    for (i, key) in config.ssh_keys.get().into_iter().flatten().enumerate() {
        let Some(key) = key.as_deref() else { continue };
        let key = key.trim();
        if key.contains("PRIVATE KEY") {
            out.push(Finding::new(
                &SSH_PRIVATE_KEY,
                path.index(i),
                "this is a PRIVATE key: never put it in a manifest. Remove it, rotate it, and add \
                 the matching public key instead",
            ));
            continue;
        }
        let kind = key.split_whitespace().next().unwrap_or("");
        if !KEY_TYPES.contains(&kind) || key.split_whitespace().nth(1).is_none() {
            out.push(Finding::new(
                &SSH_KEY,
                path.index(i),
                "this does not look like an SSH public key ('<type> <base64> [comment]', e.g. \
                 ssh-ed25519 AAAA...): the hosts will not let anyone in with it",
            ));
        }
    }
}
