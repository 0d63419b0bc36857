//! What another owner holds: a VIP other pools (or devices) use, and GPU caps a request passes.

use crate::shell::quote;

use super::*;

/// The IP addresses a message names (an address may end a sentence or sit in brackets).
pub(super) fn addresses_in(message: &str) -> Vec<std::net::IpAddr> {
    message
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '\'' | '"'))
        .filter_map(|word| {
            word.trim_end_matches(['.', ':'])
                .parse::<std::net::IpAddr>()
                .ok()
        })
        .collect()
}

/// Whether a failure message is about a VIP: it says VIP, or an address is "in use".
fn about_a_vip(message: &str) -> bool {
    let lower = message.to_lowercase();
    lower.contains("vip") || (lower.contains("in use") && !addresses_in(message).is_empty())
}

/// A VIP more than one pool asks for, told as the troubleshooting guide's fix would have it
/// done: the newcomer (the pool whose failure names the VIP; else the one created later) is
/// the one to recreate with a free VIP; the pool that runs on the address is never advised to
/// be recreated. A failure message naming an address the spec no longer has is stale.
pub(super) fn vip(pool: &Pool, picture: &Picture, out: &mut Vec<Diagnosis>) {
    let vip = pool.model.vip().unwrap_or("");
    if vip.is_empty() {
        return;
    }
    let (current, stale) = vip_messages(pool, picture, vip);
    let peers = picture.same_vip;
    if peers.is_empty() && current.is_none() {
        if let Some(stale) = stale {
            out.push(stale_message(pool, vip, stale));
        }
        return;
    }
    let running = pool.model.runs();
    let created = pool.model.created();
    let peer_names: Vec<&str> = peers.iter().map(|p| p.name.as_str()).collect();
    let mut evidence = vec![(VIP_FIELD.to_owned(), vip.to_owned())];
    if !peers.is_empty() {
        evidence.push(("other pools with this VIP".into(), peer_names.join(", ")));
    }
    if let Some(message) = current {
        evidence.push(("failure".into(), message.to_owned()));
    }
    let grep = format!(
        "kubectl get computepools --namespace {} --output yaml | grep --after-context=1 \"vip:\"",
        quote(pool.namespace)
    );
    // The pool that came later, when neither failure says which: created after every other.
    let later = created.is_some_and(|mine| {
        peers
            .iter()
            .all(|p| p.created.is_some_and(|theirs| mine > theirs))
    });
    let newcomer = !running && (current.is_some() || later || peers.iter().any(|p| p.running));
    let mut found = if newcomer {
        in_use(pool, vip, peers, current)
    } else {
        // This pool holds the address (it runs on it, or came first), or the hub cannot
        // tell: never a reason to recreate it.
        let earlier = created.is_some_and(|mine| {
            peers
                .iter()
                .all(|p| p.created.is_some_and(|theirs| mine < theirs))
        });
        shared(vip, &peer_names, running, earlier)
    };
    found.evidence = evidence;
    found.next.insert(0, grep);
    out.push(found);
}

/// Where a pool's VIP is written.
const VIP_FIELD: &str = "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.edge.vip";

/// The failure messages about a VIP: the first that names this pool's (or no address at
/// all), and the first that names another address (written before the VIP changed).
fn vip_messages<'a>(
    pool: &Pool<'a>,
    picture: &Picture<'a>,
    vip: &str,
) -> (Option<&'a str>, Option<&'a str>) {
    let ours: Option<std::net::IpAddr> = vip.parse().ok();
    let messages: Vec<&str> = failure_messages(pool.model)
        .chain(
            picture
                .events
                .iter()
                .filter(|e| e.is_warning())
                .filter_map(|e| e.message()),
        )
        .filter(|m| about_a_vip(m))
        .collect();
    // A message about this VIP names it, or no address at all; 10.80.0.44 is not 10.80.0.4
    // (addresses are compared as addresses; text only for a VIP that is not one).
    let names_ours = |m: &&str| {
        let named = addresses_in(m);
        match ours {
            Some(ours) => named.is_empty() || named.contains(&ours),
            None => named.is_empty() || m.contains(vip),
        }
    };
    let current = messages.iter().copied().find(names_ours);
    let stale = messages.iter().copied().find(|m| !names_ours(m));
    (current, stale)
}

/// A failure message naming another address than the VIP: written before it changed.
fn stale_message(pool: &Pool, vip: &str, stale: &str) -> Diagnosis {
    Diagnosis {
        id: "vip.stale-message",
        fix: None,
        severity: Severity::Info,
        symptom: VIP,
        summary: format!(
            "a failure message names another address than the VIP {vip}: it was \
             written before the VIP changed"
        ),
        evidence: vec![
            (VIP_FIELD.to_owned(), vip.to_owned()),
            ("failure".into(), stale.to_owned()),
        ],
        cause: "The controller has not reconciled the pool since its VIP changed; the message describes the spec as it was.".into(),
        next: vec![
            "wait for the next reconcile before acting on it".into(),
            pool.describe(),
        ],
    }
}

/// This pool is the newcomer on a VIP another holds: it is the one to recreate (the
/// evidence and the first step are the caller's).
fn in_use(pool: &Pool, vip: &str, peers: &[VipPeer], current: Option<&str>) -> Diagnosis {
    let owner = peers.iter().find(|p| p.running).map_or_else(
        || "another cluster or device".to_owned(),
        |p| p.name.clone(),
    );
    let peer_names: Vec<&str> = peers.iter().map(|p| p.name.as_str()).collect();
    Diagnosis {
        id: "vip.in-use",
        fix: None,
        severity: Severity::Error,
        symptom: VIP,
        summary: if peers.is_empty() {
            format!("VIP {vip} is in use elsewhere on the network")
        } else {
            format!("VIP {vip} is also used by {}", peer_names.join(", "))
        },
        evidence: Vec::new(),
        cause: match current {
            Some(message) => format!(
                "Its deployment failed on the address: \"{message}\". {vip} answers for {owner}; a VIP cannot be changed after creation, so this pool is deleted and created again with a free one."
            ),
            None => format!(
                "This pool came later than {owner}, which holds {vip}; a VIP cannot be changed after creation, so this pool is deleted and created again with a free one."
            ),
        }
        .into(),
        next: vec![
            "sudo arping -c 3 <new-vip-address>   (no reply: the VIP is free)".into(),
            format!(
                "in pooldeck: e on {} then R recreates it with a new VIP (safe delete, wait for NotFound, create)",
                pool.name
            ),
        ],
    }
}

/// Two pools on one VIP, this one holding it (running on it, or first) or neither known to:
/// never advice to recreate this one (the evidence and the step are the caller's).
fn shared(vip: &str, peer_names: &[&str], running: bool, earlier: bool) -> Diagnosis {
    let (summary, cause) = if running || earlier {
        (
            format!(
                "VIP {vip} is also set on {}, which must move to a free VIP{}",
                peer_names.join(", "),
                if running {
                    " (this pool runs on it)"
                } else {
                    ""
                }
            ),
            format!(
                "Two pools ask for {vip}; the one created later (or whose deployment fails on the address) is the one to recreate. This pool {}.",
                if running {
                    "is running on it and is left as it is"
                } else {
                    "came first"
                }
            ),
        )
    } else {
        (
            format!(
                "VIP {vip} is also set on {}; one of them must move to a free VIP",
                peer_names.join(", ")
            ),
            format!(
                "Two pools ask for {vip}, and neither a failure nor their creation times tell which holds it: check which answers on the address (arping from the pools' network) before recreating either."
            ),
        )
    };
    Diagnosis {
        id: "vip.shared",
        fix: None,
        severity: if running {
            Severity::Info
        } else {
            Severity::Warning
        },
        symptom: VIP,
        summary,
        evidence: Vec::new(),
        cause: cause.into(),
        next: Vec::new(),
    }
}

pub(super) fn gpu_quota(pool: &Pool, picture: &Picture, out: &mut Vec<Diagnosis>) {
    let quota_message = failure_messages(pool.model)
        .chain(picture.events.iter().filter_map(|e| e.message()))
        .find(|m| {
            let m = m.to_lowercase();
            m.contains("quota") || (m.contains("gpu") && m.contains("cap"))
        });
    let Some(message) = quota_message else {
        return;
    };
    let mut evidence = vec![("failure".to_owned(), message.to_owned())];
    let mut summary = "GPU quota exceeded".to_owned();
    if let Some(project) = picture.project {
        let mut variants: Vec<String> = Vec::new();
        for (_, worker) in pool.model.worker_pools() {
            if let Some(v) = worker.gpu.get().and_then(|g| g.variant.as_deref())
                && !variants.iter().any(|known| known == v)
            {
                variants.push(v.to_owned());
            }
        }
        for variant in variants {
            let caps = crate::quota::caps(project, picture.tenant, &variant);
            if let Some((cap, limit, left)) = caps.iter().min_by_key(|(_, _, left)| *left) {
                summary = format!(
                    "GPU quota for {variant}: the lowest cap is {cap}: {left} of {limit} left"
                );
            }
            for (cap, limit, left) in caps {
                evidence.push((
                    format!("{cap} ({variant})"),
                    format!("{left} of {limit} left"),
                ));
            }
        }
    }
    let project = pool.namespace;
    let tenant = picture
        .project
        .and_then(|p| text(p, "/spec/tenantRef/name"))
        .unwrap_or("<tenant-name>");
    out.push(Diagnosis {
        id: "gpu.quota",
        fix: None,
        severity: Severity::Error,
        symptom: GPU,
        summary,
        evidence,
        cause: "A new GPU request is blocked when it would exceed any cap that applies: the Project's limits, the Tenant's projectLimits for the Project (the lower of the two is the effective per-Project cap), and the Tenant's limits less its tenantReservations.".into(),
        next: vec![
            format!(
                "kubectl get project {} --namespace {} --output jsonpath='{{.spec.gpuResources}}'",
                quote(project),
                quote(project)
            ),
            // The Project's name sits inside the jsonpath: the whole argument is one word.
            format!(
                "kubectl get tenant {} --output {}",
                // The placeholder is for the operator to fill in; a name read from the
                // Project is one shell word.
                if tenant == "<tenant-name>" {
                    std::borrow::Cow::Borrowed(tenant)
                } else {
                    quote(tenant)
                },
                quote(&format!("jsonpath={{.spec.gpuResources.projectLimits['{project}']}}"))
            ),
            "reduce the pool's GPUs, raise the Project's limits within the Tenant's caps, or ask the Tenant admin to raise them".into(),
        ],
    });
}
