//! What another owner holds: a VIP other pools (or devices) use, and GPU caps a request passes.

use serde_json::Value;

use super::*;

pub(super) fn vip(pool: &Pool, picture: &Picture, out: &mut Vec<Diagnosis>) {
    let vip = text(
        pool.value,
        "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/edge/vip",
    )
    .unwrap_or("");
    if vip.is_empty() {
        return;
    }
    let mentions = |message: &str| {
        message.contains(vip) && message.to_lowercase().contains("use")
            || message.to_lowercase().contains("vip")
    };
    let failed_message = conditions(pool.value)
        .into_iter()
        .filter(|c| c["status"] == "False")
        .filter_map(|c| c["message"].as_str())
        .chain(
            picture
                .events
                .iter()
                .filter(|e| e["type"] == "Warning")
                .filter_map(|e| e["message"].as_str()),
        )
        .find(|m| mentions(m));
    if picture.same_vip.is_empty() && failed_message.is_none() {
        return;
    }
    let mut evidence = vec![(
        "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.edge.vip".to_owned(),
        vip.to_owned(),
    )];
    if !picture.same_vip.is_empty() {
        evidence.push((
            "other pools with this VIP".into(),
            picture.same_vip.join(", "),
        ));
    }
    if let Some(message) = failed_message {
        evidence.push(("failure".into(), message.to_owned()));
    }
    out.push(Diagnosis {
        id: "vip.in-use",
        fix: None,
        severity: Severity::Error,
        symptom: VIP,
        summary: if picture.same_vip.is_empty() {
            format!("VIP {vip} is in use elsewhere on the network")
        } else {
            format!("VIP {vip} is also used by {}", picture.same_vip.join(", "))
        },
        evidence,
        cause: "The VIP is assigned to another cluster or device. The VIP cannot be changed after creation: delete the pool and create it again with a free VIP.".into(),
        next: vec![
            format!(
                "kubectl get computepools --namespace {} --output yaml | grep --after-context=1 \"vip:\"",
                pool.namespace
            ),
            "sudo arping -c 3 <new-vip-address>   (no reply: the VIP is free)".into(),
            format!(
                "in pooldeck: e on {} then R recreates it with a new VIP (safe delete, wait for NotFound, create)",
                pool.name
            ),
        ],
    });
}

pub(super) fn gpu_quota(pool: &Pool, picture: &Picture, out: &mut Vec<Diagnosis>) {
    let quota_message = conditions(pool.value)
        .into_iter()
        .filter(|c| c["status"] == "False")
        .filter_map(|c| c["message"].as_str())
        .chain(picture.events.iter().filter_map(|e| e["message"].as_str()))
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
        for worker in pool
            .value
            .at("/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/nodePoolRequirements/workerPools")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(v) = text(worker, "/gpu/variant")
                && !variants.iter().any(|known| known == v)
            {
                variants.push(v.to_owned());
            }
        }
        for variant in variants {
            let caps = crate::domain::quota::caps(project, picture.tenant, &variant);
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
    let project = text(pool.value, "/metadata/namespace").unwrap_or("");
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
            format!("kubectl get project {project} --namespace {project} --output jsonpath='{{.spec.gpuResources}}'"),
            format!("kubectl get tenant {tenant} --output jsonpath=\"{{.spec.gpuResources.projectLimits['{project}']}}\""),
            "reduce the pool's GPUs, raise the Project's limits within the Tenant's caps, or ask the Tenant admin to raise them".into(),
        ],
    });
}
