//! Node-side problems the hub shows: hosts Provisioning for long (the air-gapped symptom) and
//! the NVIDIA runtime error in events; the next steps are the guide's commands for the host.

use super::*;
use crate::model::status::MachinePool;
use chrono::{DateTime, Utc};

pub(super) fn hosts_on_nodes(pool: &Pool, picture: &Picture, out: &mut Vec<Diagnosis>) {
    nvidia_runtime(pool, picture, out);
    stuck_provisioning(pool, picture, out);
}

/// The guide's NVIDIA runtime error in events: one finding, with the host's steps.
fn nvidia_runtime(pool: &Pool, picture: &Picture, out: &mut Vec<Diagnosis>) {
    // Events with the guide's NVIDIA runtime error name the host in their message or object;
    // the kubelet repeats it every 15 seconds or so: one finding, said with how often.
    let runtime: Vec<&str> = picture
        .events
        .iter()
        .filter_map(|e| e.message())
        .filter(|m| m.contains("no runtime for \"nvidia\" is configured"))
        .collect();
    if let Some(message) = runtime.last().copied() {
        // The host the kubelet reported from (its event's source), else the one the
        // controller's relay names ("host edge-g1, pod ...").
        let host = picture
            .events
            .iter()
            .filter(|e| e.message().is_some_and(|m| runtime.contains(&m)))
            .find_map(|e| {
                e.source("host").map(str::to_owned).or_else(|| {
                    let m = e.message()?;
                    let rest = m.strip_prefix("host ")?;
                    Some(rest.split([',', ':', ' ']).next()?.to_owned())
                })
            })
            // Named only when it is one of the pool's own hosts (text from an event is not
            // trusted to name a place to run commands).
            .filter(|host| {
                clusters(pool.model).any(|(_, cluster)| {
                    cluster
                        .machine_pools()
                        .flat_map(MachinePool::hosts)
                        .any(|(uid, _)| uid == host.as_str())
                })
            })
            .unwrap_or_else(|| "the GPU host".to_owned());
        let on = |step: &str| format!("on {host}: {step}");
        let repeated = picture
            .events
            .iter()
            .filter(|e| e.message().is_some_and(|m| runtime.contains(&m)))
            .map(|e| {
                e.count()
                    .and_then(|c| u64::try_from(c).ok())
                    .unwrap_or(1)
                    .max(1)
            })
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
                    on("sudo crictl --runtime-endpoint=unix:///run/spectro/containerd/containerd.sock info | jq '.config.containerd.runtimes | keys' — good: nvidia is listed; bad: only [\"runc\"] (the handler is not registered: go on)"),
                    on("systemctl is-active containerd spectro-containerd, and journalctl --unit containerd --since \"-5m\" | grep \"starting containerd\" — good: only spectro-containerd is active (the cause is the schema mismatch); bad: both active, or containerd starting again and again (a duplicate service holds the lock: mask it below)"),
                    on("containerd --version — 2.x takes version = 3; on 1.x keep version = 2 and add the NVIDIA runtimes under io.containerd.grpc.v1.cri instead"),
                    on("sudo cp -a /etc/containerd/config.toml /etc/containerd/config.toml.bak"),
                    on("on containerd 2.x only: in /etc/containerd/config.toml declare version = 3 and define runc, nvidia, nvidia-cdi and nvidia-legacy in the main file (the guide's CRI runtime block), keeping the CNI, registry mirror, snapshotter and proxy settings the host relies on and changing nothing else"),
                    on("sudo containerd config dump | grep nvidia — good: the nvidia runtimes print; bad: an error or nothing (fix the file before restarting)"),
                    on("if a duplicate service is active: sudo systemctl stop containerd; sudo systemctl mask containerd"),
                    on("sudo systemctl reset-failed spectro-containerd; sudo systemctl restart spectro-containerd — bad: it fails to start (restore the .bak and restart)"),
                    on("sudo crictl --runtime-endpoint=unix:///run/spectro/containerd/containerd.sock info | jq '.config.containerd.runtimes | keys' — good: [\"nvidia\", \"nvidia-cdi\", \"nvidia-legacy\", \"runc\"], and the GPU Operator pods go Running"),
                ],
            });
    }
}

/// Hosts Provisioning for long (the air-gapped symptom when image pulls fail).
fn stuck_provisioning(pool: &Pool, picture: &Picture, out: &mut Vec<Diagnosis>) {
    for (_, cluster) in clusters(pool.model) {
        let stuck = stuck_hosts(cluster, picture.now);
        let pulls = picture.events.iter().filter_map(|e| e.message()).find(|m| {
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
                    format!("on {host}: crictl images — compare with the internal Zot registry: an image the host lacks must be pushed to Zot"),
                    format!("on {host}: cat /etc/containerd/config.toml | grep --after-context=5 registry — good: the internal Zot address and port (default 30003); bad: an external host"),
                    format!("on {host}: curl --insecure https://<vertex-ip>:30003/v2/ — good: 200 OK or 401 Unauthorized (reachable); bad: connection refused or a timeout (network or firewall)"),
                    format!("on {host}: journalctl --unit stylus-agent --follow — look for image pull errors, TLS certificate problems or authentication failures"),
                    "check that every pack .zst was imported into Zot before the cluster deployed (Deploy Profile Bundles in Air-Gapped Environments)".to_owned(),
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
