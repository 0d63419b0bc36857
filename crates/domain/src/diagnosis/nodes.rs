//! Node-side problems the hub shows: hosts Provisioning for long (the air-gapped symptom) and
//! the NVIDIA runtime error in events; the next steps are the guide's commands for the host.

use super::*;
use crate::model::status::MachinePool;
use chrono::{DateTime, Utc};

pub(super) fn hosts_on_nodes(pool: &Pool, picture: &Picture, out: &mut Vec<Diagnosis>) {
    // Events with the guide's NVIDIA runtime error name the host in their message or object;
    // the kubelet repeats it every 15 seconds or so: one finding, said with how often.
    let runtime: Vec<&str> = picture
        .events
        .iter()
        .filter_map(|e| e["message"].as_str())
        .filter(|m| m.contains("no runtime for \"nvidia\" is configured"))
        .collect();
    if let Some(message) = runtime.last().copied() {
        let repeated = picture
            .events
            .iter()
            .filter(|e| e["message"].as_str().is_some_and(|m| runtime.contains(&m)))
            .map(|e| e["count"].as_u64().unwrap_or(1).max(1))
            .fold(0u64, u64::saturating_add);
        let message = if repeated > 1 {
            format!("{message} ({repeated} times)")
        } else {
            message.to_owned()
        };
        let message = message.as_str();
        out.push(Diagnosis {
                id: "node.nvidia-runtime",
                fix: None,
                severity: Severity::Error,
                symptom: NVIDIA,
                summary: format!("GPU Operator pods cannot start: {message}"),
                evidence: vec![("event".into(), message.to_owned())],
                cause: "The nvidia RuntimeClass exists but containerd registers no nvidia handler: a containerd configuration schema mismatch (version 2 main file, version 3 drop-in) or a duplicate containerd service holding the runtime lock.".into(),
                next: vec![
                    "on the host: sudo crictl --runtime-endpoint=unix:///run/spectro/containerd/containerd.sock info | jq '.config.containerd.runtimes | keys'".into(),
                    "on the host: systemctl is-active containerd spectro-containerd".into(),
                    "on the host: containerd --version (version = 3 only on containerd 2.x)".into(),
                    "on the host: back up /etc/containerd/config.toml, declare version = 3 with every runtime, then sudo containerd config dump | grep nvidia".into(),
                    "on the host: mask a duplicate containerd service; sudo systemctl restart spectro-containerd".into(),
                ],
            });
    }
    // Hosts Provisioning for long (the air-gapped symptom when image pulls fail).
    for (_, cluster) in clusters(pool.model) {
        let stuck = stuck_hosts(cluster, picture.now);
        let pulls = picture
            .events
            .iter()
            .filter_map(|e| e["message"].as_str())
            .find(|m| {
                let m = m.to_lowercase();
                m.contains("pull")
                    || m.contains("registry")
                    || m.contains("x509")
                    || m.contains("unauthorized")
            });
        for (host, since) in stuck {
            let mut evidence = vec![(
                format!("host {host} status"),
                format!("Provisioning for {}", age(picture.now, since)),
            )];
            if let Some(message) = pulls {
                evidence.push(("event".into(), message.to_owned()));
            }
            out.push(Diagnosis {
                id: "node.stuck-provisioning",
                fix: None,
                severity: Severity::Warning,
                symptom: AIR_GAPPED,
                summary: format!("host {host} has been Provisioning for {}", age(picture.now, since)),
                evidence,
                cause: "In an air-gapped site: packs reaching an unreachable endpoint, registry credentials missing from user-data, images missing from the internal Zot registry, or network policy blocking it.".into(),
                next: vec![
                    format!("on {host}: crictl images (compare with the internal Zot registry)"),
                    format!("on {host}: cat /etc/containerd/config.toml | grep --after-context=5 registry"),
                    format!("on {host}: curl --insecure https://<vertex-ip>:30003/v2/ (200 or 401: reachable)"),
                    format!("on {host}: journalctl --unit stylus-agent --follow"),
                ],
            });
        }
    }
}

/// The hosts of a cluster's machine pools with `status: Provisioning` whose
/// `statusUpdatedAt` is older than the threshold at `now`, with that time.
pub(super) fn stuck_hosts(
    cluster: &ClusterStatus,
    now: DateTime<Utc>,
) -> impl Iterator<Item = (String, DateTime<Utc>)> + '_ {
    cluster
        .machine_pools()
        .flat_map(MachinePool::hosts)
        .filter_map(move |(uid, host)| {
            let since = provisioning_since(host)?;
            (now.signed_duration_since(since).num_minutes() >= STUCK_HOST_MINUTES)
                .then(|| (uid.to_owned(), since))
        })
}

/// Since when a host has been Provisioning, if it is (and says since when).
fn provisioning_since(host: &Host) -> Option<DateTime<Utc>> {
    if host.status.as_deref() != Some("Provisioning") {
        return None;
    }
    text_time(&host.status_updated_at)
}
