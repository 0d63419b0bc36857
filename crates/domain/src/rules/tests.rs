//! Every rule of the catalogue, shown firing on a small edit of a clean pool and staying
//! silent on the clean pool and on the edge cases the reference allows.

use serde_json::{Value, json};

use super::*;
use crate::model::read;

const ML: &str = include_str!("../../../../demo/manifests/ml-cluster.yaml");
const SINGLE: &str = include_str!("../../../../demo/manifests/single-node.yaml");
const HA: &str = include_str!("../../../../demo/manifests/ha-control-plane-only.yaml");
const OVERLAY: &str = include_str!("../../../../demo/manifests/overlay-no-vip.yaml");
const SHARED: &str = include_str!("../../../../demo/manifests/shared-system-pool.yaml");
const GPU: &str = include_str!("../../../../demo/manifests/gpu-taints.yaml");

const PCDC: &str = "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig";
const CP: &str = "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/nodePoolRequirements/controlPlanePool";
const WP: &str = "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/nodePoolRequirements/workerPools";
const EDGE: &str = "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/edge";
const LONGHORN: &str = "/metadata/annotations/longhornDefaultReplicaCount";

fn json_of(yaml: &str) -> Value {
    let documents = crate::manifest::parse(yaml).expect("demo manifest parses");
    documents[0].root.to_json()
}

/// Writes `new` at a JSON pointer, creating mappings on the way.
fn put(value: &mut Value, pointer: &str, new: Value) {
    let mut node = value;
    let parts: Vec<String> = pointer
        .split('/')
        .skip(1)
        .map(|p| p.replace("~1", "/").replace("~0", "~"))
        .collect();
    for (i, part) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        node = match node {
            Value::Array(items) => {
                let index: usize = part.parse().expect("index");
                if last {
                    items[index] = new;
                    return;
                }
                &mut items[index]
            }
            other => {
                if !other.is_object() {
                    *other = json!({});
                }
                let map = other.as_object_mut().expect("mapping");
                if last {
                    map.insert(part.clone(), new);
                    return;
                }
                map.entry(part.clone()).or_insert_with(|| json!({}))
            }
        };
    }
}

fn remove(value: &mut Value, pointer: &str) {
    let (parent, key) = pointer.rsplit_once('/').expect("pointer");
    let key = key.replace("~1", "/").replace("~0", "~");
    match value.pointer_mut(parent) {
        Some(Value::Object(map)) => {
            map.shift_remove(&key);
        }
        Some(Value::Array(items)) => {
            items.remove(key.parse::<usize>().expect("index"));
        }
        _ => panic!("no parent at {parent}"),
    }
}

fn pool(value: &Value) -> (ComputePool, Vec<Issue>) {
    read(value).expect("a mapping")
}

fn run(value: &Value, old: Option<&Value>, existing: &[Value]) -> Vec<Finding> {
    checked(value, old, existing, |pool, issues, context| {
        validate(pool, issues, context)
    })
}

/// `check` given the pool `value` reads as, its issues, and a context with `old` and the
/// fleet of `existing`.
fn checked<T>(
    value: &Value,
    old: Option<&Value>,
    existing: &[Value],
    check: impl FnOnce(&ComputePool, &[Issue], &Context) -> T,
) -> T {
    let (pool, issues) = pool(value);
    let old = old.map(|v| self::pool(v).0);
    let fleet = Fleet::new(existing.iter().map(|v| self::pool(v).0).collect());
    let context = Context {
        old: old.as_ref(),
        fleet: &fleet,
        self_index: None,
    };
    check(&pool, &issues, &context)
}

fn ids(findings: &[Finding]) -> Vec<&'static str> {
    findings.iter().map(|f| f.rule.id).collect()
}

/// One rule shown firing: the base manifest, the edit, optional context, and where it points.
struct Case {
    rule: &'static str,
    base: &'static str,
    edit: fn(&mut Value),
    old: Option<fn(&mut Value)>,
    existing: Option<fn(&mut Value)>,
    path: &'static str,
}

const fn case(rule: &'static str, edit: fn(&mut Value), path: &'static str) -> Case {
    Case {
        rule,
        base: ML,
        edit,
        old: None,
        existing: None,
        path,
    }
}

const CPP: &str = "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.controlPlanePool";

fn cases() -> Vec<Case> {
    vec![
        case(
            "schema.type",
            |v| put(v, &format!("{CP}/nodeCount"), json!("three")),
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.controlPlanePool.nodeCount",
        ),
        case(
            "schema.unknown-field",
            |v| put(v, &format!("{EDGE}/sshKeys"), json!(["ssh-ed25519 AAAA x"])),
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.edge.sshKeys",
        ),
        case(
            "document.api-version",
            |v| put(v, "/apiVersion", json!("spectrocloud.com/v1")),
            "apiVersion",
        ),
        case(
            "document.status-ignored",
            |v| put(v, "/status", json!({"status": "Running"})),
            "status",
        ),
        case(
            "metadata.name.required",
            |v| remove(v, "/metadata/name"),
            "metadata.name",
        ),
        case(
            "metadata.name.format",
            |v| put(v, "/metadata/name", json!("Bad_Pool")),
            "metadata.name",
        ),
        case(
            "metadata.name.ui",
            |v| put(v, "/metadata/name", json!("ml.cluster")),
            "metadata.name",
        ),
        Case {
            existing: Some(|_| {}),
            ..case("metadata.name.unique", |_| {}, "metadata.name")
        },
        case(
            "metadata.namespace.missing",
            |v| remove(v, "/metadata/namespace"),
            "metadata",
        ),
        case(
            "metadata.namespace.format",
            |v| put(v, "/metadata/namespace", json!("../../api/v1")),
            "metadata.namespace",
        ),
        case(
            "metadata.annotations.size",
            |v| {
                put(
                    v,
                    "/metadata/annotations",
                    json!({"spectrocloud.com/description": "x".repeat(300 * 1024)}),
                )
            },
            "metadata.annotations",
        ),
        case(
            "metadata.labels.syntax",
            |v| put(v, "/metadata/labels/team", json!("ml platform")),
            "metadata.labels.team",
        ),
        case(
            "metadata.annotations.syntax",
            |v| put(v, "/metadata/annotations/bad key!", json!("x")),
            "metadata.annotations['bad key!']",
        ),
        case(
            "pause.not-true",
            |v| {
                put(
                    v,
                    "/metadata/labels/controller.spectrocloud.com~1pause",
                    json!("True"),
                )
            },
            "metadata.labels['controller.spectrocloud.com/pause']",
        ),
        case(
            "pause.active",
            |v| {
                put(
                    v,
                    "/metadata/labels/controller.spectrocloud.com~1pause",
                    json!("true"),
                )
            },
            "metadata.labels['controller.spectrocloud.com/pause']",
        ),
        case(
            "description.legacy",
            |v| {
                remove(v, "/metadata/annotations/spectrocloud.com~1description");
                put(
                    v,
                    "/metadata/annotations/palette-ai~1description",
                    json!("old"),
                );
            },
            "metadata.annotations['palette-ai/description']",
        ),
        case(
            "description.conflict",
            |v| {
                put(
                    v,
                    "/metadata/annotations/palette-ai~1description",
                    json!("old"),
                )
            },
            "metadata.annotations['palette-ai/description']",
        ),
        case(
            "description.plain-key",
            |v| {
                remove(v, "/metadata/annotations/spectrocloud.com~1description");
                put(v, "/metadata/annotations/description", json!("x"));
            },
            "metadata.annotations.description",
        ),
        case(
            "profile-bundle.required",
            |v| remove(v, "/spec/profileBundleRef"),
            "spec.profileBundleRef",
        ),
        case(
            "profile-bundle.name",
            |v| put(v, "/spec/profileBundleRef/name", json!("edge@3")),
            "spec.profileBundleRef.name",
        ),
        case(
            "profile-bundle.namespace",
            |v| put(v, "/spec/profileBundleRef/namespace", json!("other")),
            "spec.profileBundleRef.namespace",
        ),
        case(
            "profile-bundle.cloud-type",
            |v| put(v, "/spec/profileBundleRef/cloudType", json!("aws")),
            "spec.profileBundleRef.cloudType",
        ),
        case(
            "cloud-type.mismatch",
            |v| put(v, &format!("{PCDC}/cloudType"), json!("maas")),
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.cloudType",
        ),
        case(
            "reference.name",
            |v| put(v, &format!("{PCDC}/settingsRef"), json!({"namespace": "x"})),
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.settingsRef.name",
        ),
        case(
            "deletion-policy.value",
            |v| put(v, "/spec/deletionPolicy", json!("Delete")),
            "spec.deletionPolicy",
        ),
        case(
            "deletion-policy.deprecated",
            |v| put(v, &format!("{PCDC}/deletionPolicy"), json!("delete")),
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.deletionPolicy",
        ),
        case(
            "deletion-policy.conflict",
            |v| put(v, &format!("{PCDC}/deletionPolicy"), json!("orphan")),
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.deletionPolicy",
        ),
        case(
            "deletion-policy.orphan",
            |v| put(v, "/spec/deletionPolicy", json!("orphan")),
            "spec.deletionPolicy",
        ),
        case(
            "shared-with.ignored",
            |v| put(v, "/spec/sharedWith", json!({"tenant-a": ["*"]})),
            "spec.sharedWith",
        ),
        Case {
            base: SHARED,
            ..case(
                "shared-with.nobody",
                |v| put(v, "/spec/sharedWith", json!({})),
                "spec.sharedWith",
            )
        },
        Case {
            base: SHARED,
            ..case(
                "shared-with.no-projects",
                |v| put(v, "/spec/sharedWith", json!({"tenant-x": null})),
                "spec.sharedWith.tenant-x",
            )
        },
        Case {
            base: SHARED,
            ..case(
                "shared-with.selector",
                |v| put(v, "/spec/sharedWith", json!({"tenant a": ["*"]})),
                "spec.sharedWith['tenant a']",
            )
        },
        case(
            "variant.required",
            |v| put(v, "/spec/clusterVariant", json!({})),
            "spec.clusterVariant",
        ),
        case(
            "variant.exclusive",
            |v| put(v, "/spec/clusterVariant/shared", json!({})),
            "spec.clusterVariant",
        ),
        case(
            "dedicated.structure",
            |v| remove(v, &format!("{PCDC}/nodePoolRequirements")),
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig",
        ),
        case(
            "control-plane.node-count",
            |v| put(v, &format!("{CP}/nodeCount"), json!(2)),
            CPP_NODE_COUNT,
        ),
        case(
            "single-node.settings",
            |v| put(v, &format!("{CP}/singleNodeCluster"), json!(true)),
            CPP_NODE_COUNT,
        ),
        Case {
            base: SINGLE,
            old: Some(|_| {}),
            ..case(
                "single-node.day2",
                |v| put(v, &format!("{WP}/0/cpu/cpuCount"), json!(8)),
                "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.workerPools",
            )
        },
        case(
            "worker-pools.empty",
            |v| put(v, WP, json!([])),
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.workerPools",
        ),
        case(
            "architecture.value",
            |v| put(v, &format!("{CP}/architecture"), json!("amd64")),
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.controlPlanePool.architecture",
        ),
        case(
            "cpu.count",
            |v| put(v, &format!("{WP}/0/cpu/cpuCount"), json!(0)),
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.workerPools[0].cpu.cpuCount",
        ),
        case(
            "control-plane.cpu.missing",
            |v| remove(v, &format!("{CP}/cpu")),
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.controlPlanePool.cpu",
        ),
        case(
            "memory.units",
            |v| put(v, &format!("{CP}/memory/memory"), json!("16")),
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.controlPlanePool.memory.memory",
        ),
        case(
            "resource-groups.prefix",
            |v| {
                put(
                    v,
                    "/spec/clusterVariant/workerResourceGroups/palette.ai.rg~1network-pool",
                    json!("1"),
                )
            },
            "spec.clusterVariant.workerResourceGroups['palette.ai.rg/network-pool']",
        ),
        case(
            "resource-groups.syntax",
            |v| {
                put(
                    v,
                    "/spec/clusterVariant/workerResourceGroups/rack",
                    json!("row 4"),
                )
            },
            "spec.clusterVariant.workerResourceGroups.rack",
        ),
        Case {
            base: SINGLE,
            ..case(
                "resource-groups.single-node",
                |v| {
                    put(
                        v,
                        "/spec/clusterVariant/workerResourceGroups",
                        json!({"gpu": "true"}),
                    )
                },
                "spec.clusterVariant.workerResourceGroups",
            )
        },
        case(
            "worker-pool.name.required",
            |v| remove(v, &format!("{WP}/0/name")),
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.workerPools[0].name",
        ),
        case(
            "worker-pool.name.unique",
            |v| put(v, &format!("{WP}/1/name"), json!("cpu-pool")),
            WP1_NAME,
        ),
        case(
            "worker-pool.name.format",
            |v| put(v, &format!("{WP}/1/name"), json!("gpu#pool")),
            WP1_NAME,
        ),
        Case {
            old: Some(|v| put(v, &format!("{WP}/1/name"), json!("gpu#pool"))),
            ..case(
                "worker-pool.name.existing",
                |v| put(v, &format!("{WP}/1/name"), json!("gpu#pool")),
                WP1_NAME,
            )
        },
        case(
            "worker-pool.count",
            |v| put(v, &format!("{WP}/0/minWorkerNodes"), json!(0)),
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.workerPools[0].minWorkerNodes",
        ),
        case(
            "gpu.variant.required",
            |v| remove(v, &format!("{WP}/1/gpu/variant")),
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.workerPools[1].gpu.variant",
        ),
        case(
            "gpu.variant.format",
            |v| put(v, &format!("{WP}/1/gpu/variant"), json!("A100")),
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.workerPools[1].gpu.variant",
        ),
        case(
            "gpu.count.missing",
            |v| remove(v, &format!("{WP}/1/gpu/gpuCount")),
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.workerPools[1].gpu.gpuCount",
        ),
        case(
            "gpu.memory.consistent",
            |v| put(v, &format!("{WP}/1/gpu/gpuMemory"), json!("100 GB")),
            WP1_GPU_MEMORY,
        ),
        case(
            "gpu.memory.units",
            |v| put(v, &format!("{WP}/1/gpu/gpuMemory"), json!("lots")),
            WP1_GPU_MEMORY,
        ),
        case(
            "gpu.family.deprecated",
            |v| put(v, &format!("{WP}/1/gpu/family"), json!("nvidia")),
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.workerPools[1].gpu.family",
        ),
        case(
            "taint.effect",
            |v| {
                put(
                    v,
                    &format!("{WP}/1/taints"),
                    json!([{"key": "a", "effect": "Evict"}]),
                )
            },
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.workerPools[1].taints[0].effect",
        ),
        case(
            "taint.key",
            |v| {
                put(
                    v,
                    &format!("{WP}/1/taints"),
                    json!([{"effect": "NoSchedule"}]),
                )
            },
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.workerPools[1].taints[0].key",
        ),
        case("vip.required", |v| remove(v, &format!("{EDGE}/vip")), VIP),
        case(
            "vip.format",
            |v| put(v, &format!("{EDGE}/vip"), json!("10.10.162.300")),
            VIP,
        ),
        case(
            "vip.reserved",
            |v| put(v, &format!("{EDGE}/vip"), json!("127.0.0.1")),
            VIP,
        ),
        case(
            "vip.ignored",
            |v| {
                put(
                    v,
                    &format!("{EDGE}/networkOverlayConfig/enabled"),
                    json!(true),
                )
            },
            VIP,
        ),
        Case {
            old: Some(|v| put(v, &format!("{EDGE}/vip"), json!("10.10.162.131"))),
            ..case("vip.immutable", |_| {}, VIP)
        },
        Case {
            existing: Some(|v| put(v, "/metadata/name", json!("other-pool"))),
            ..case("vip.unique", |_| {}, VIP)
        },
        Case {
            old: Some(|v| put(v, LONGHORN, json!("3"))),
            ..case(
                "longhorn.immutable",
                |v| put(v, LONGHORN, json!("1")),
                "metadata.annotations.longhornDefaultReplicaCount",
            )
        },
        Case {
            base: SINGLE,
            ..case(
                "longhorn.replica-count",
                |v| put(v, LONGHORN, json!("3")),
                "metadata.annotations.longhornDefaultReplicaCount",
            )
        },
        case(
            "overlay.cidr",
            |v| {
                put(
                    v,
                    &format!("{EDGE}/networkOverlayConfig/cidr"),
                    json!("192.168.1.0"),
                )
            },
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.edge.networkOverlayConfig.cidr",
        ),
        case(
            "overlay.type-ignored",
            |v| {
                put(
                    v,
                    &format!("{EDGE}/networkOverlayConfig/overlayNetworkType"),
                    json!("vxlan"),
                )
            },
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.edge.networkOverlayConfig.overlayNetworkType",
        ),
        case(
            "edge.ntp-server",
            |v| {
                put(
                    v,
                    &format!("{EDGE}/ntpServers"),
                    json!(["time.google.com", "not a host!"]),
                )
            },
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.edge.ntpServers[1]",
        ),
        case(
            "edge.two-node",
            |v| put(v, &format!("{EDGE}/isTwoNode"), json!(true)),
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.edge.isTwoNode",
        ),
        case(
            "ssh-key.format",
            |v| put(v, &format!("{PCDC}/sshKeys"), json!(["hello"])),
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.sshKeys[0]",
        ),
        case(
            "ssh-key.private",
            |v| {
                put(
                    v,
                    &format!("{PCDC}/sshKeys"),
                    json!(["-----BEGIN OPENSSH PRIVATE KEY-----\nabc"]),
                )
            },
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.sshKeys[0]",
        ),
    ]
}

const CPP_NODE_COUNT: &str = "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.controlPlanePool.nodeCount";
const WP1_NAME: &str = "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.workerPools[1].name";
const WP1_GPU_MEMORY: &str = "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.workerPools[1].gpu.gpuMemory";
const VIP: &str = "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.edge.vip";

#[test]
fn the_examples_are_clean() {
    for (name, text) in [
        ("ml", ML),
        ("single", SINGLE),
        ("overlay", OVERLAY),
        ("gpu", GPU),
    ] {
        let findings = run(&json_of(text), None, &[]);
        assert!(findings.is_empty(), "{name}: {findings:#?}");
    }
    // The HA example keeps its cluster on deletion, and says so.
    assert_eq!(
        ids(&run(&json_of(HA), None, &[])),
        ["deletion-policy.orphan"]
    );
    // The shared pool notes that tenant-b sees it without Projects; nothing else.
    assert_eq!(
        ids(&run(&json_of(SHARED), None, &[])),
        ["shared-with.no-projects"]
    );
    let _ = CPP;
}

#[test]
fn every_rule_fires_on_its_edit_and_points_at_its_path() {
    for case in cases() {
        let base = json_of(case.base);
        let mut value = base.clone();
        (case.edit)(&mut value);
        let old = case.old.map(|edit| {
            let mut old = base.clone();
            edit(&mut old);
            old
        });
        let existing: Vec<Value> = case
            .existing
            .map(|edit| {
                let mut other = base.clone();
                edit(&mut other);
                vec![other]
            })
            .unwrap_or_default();
        let findings = run(&value, old.as_ref(), &existing);
        let hit = findings.iter().find(|f| f.rule.id == case.rule);
        let Some(hit) = hit else {
            panic!("{} did not fire; found {:?}", case.rule, ids(&findings));
        };
        assert_eq!(
            hit.path.to_string(),
            case.path,
            "{}: {}",
            case.rule,
            hit.message
        );
        assert!(!hit.message.is_empty());
        // Without the edit (and with the same context) the rule is silent.
        let clean = run(&base, old.as_ref().map(|_| &base), &[]);
        assert!(
            !clean
                .iter()
                .any(|f| f.rule.id == case.rule && f.path == hit.path),
            "{} fired on the clean base: {clean:#?}",
            case.rule
        );
    }
}

#[test]
fn every_rule_in_the_catalogue_has_a_case() {
    let covered: Vec<&str> = cases().iter().map(|c| c.rule).collect();
    for rule in catalogue() {
        assert!(covered.contains(&rule.id), "no test case fires {}", rule.id);
    }
    let mut unique = catalogue().iter().map(|r| r.id).collect::<Vec<_>>();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), catalogue().len(), "rule ids are unique");
}

/// Errors and warnings after an edit (notes left out).
fn fired(yaml_base: &str, edit: impl Fn(&mut Value)) -> Vec<&'static str> {
    let mut value = json_of(yaml_base);
    edit(&mut value);
    run(&value, None, &[])
        .iter()
        .filter(|f| f.severity() > Severity::Info)
        .map(|f| f.rule.id)
        .collect()
}

/// Two-node mode (edge.isTwoNode, "exactly two nodes"): a control plane of one beside a
/// worker is that mode, not a single-node cluster missing its settings; without the flag it is.
#[test]
fn a_two_node_pool_is_not_a_broken_single_node_one() {
    let two = |flag: bool| {
        fired(ML, |v| {
            put(v, &format!("{CP}/nodeCount"), json!(1));
            put(v, &format!("{EDGE}/isTwoNode"), json!(flag));
        })
    };
    assert!(
        !two(true).contains(&"single-node.settings"),
        "{:?}",
        two(true)
    );
    assert!(
        two(false).contains(&"single-node.settings"),
        "{:?}",
        two(false)
    );
}

#[test]
fn control_plane_topologies_the_reference_allows() {
    assert!(fired(ML, |v| put(v, &format!("{CP}/nodeCount"), json!(5))).is_empty());
    // HA control-plane-only: empty workers with 3 or 5 worker-eligible nodes.
    assert!(fired(HA, |v| put(v, &format!("{CP}/nodeCount"), json!(5))).is_empty());
    assert!(fired(HA, |v| remove(v, WP)).is_empty());
    // ...but not with a dedicated control plane, nor with one node.
    assert!(
        fired(HA, |v| put(
            v,
            &format!("{CP}/workerNodeEligible"),
            json!(false)
        ))
        .contains(&"worker-pools.empty")
    );
    let one = fired(HA, |v| put(v, &format!("{CP}/nodeCount"), json!(1)));
    assert!(one.contains(&"single-node.settings"), "{one:?}");
    // Each part of the single-node triple is required.
    assert!(
        fired(SINGLE, |v| put(
            v,
            &format!("{CP}/workerNodeEligible"),
            json!(false)
        ))
        .contains(&"single-node.settings")
    );
    assert!(fired(SINGLE, |v| put(v, WP, json!([]))).contains(&"single-node.settings"));
    assert!(
        fired(SINGLE, |v| remove(v, &format!("{CP}/singleNodeCluster")))
            .contains(&"single-node.settings")
    );
    assert!(
        fired(ML, |v| remove(v, &format!("{CP}/nodeCount"))).contains(&"control-plane.node-count")
    );
}

#[test]
fn vip_rules_follow_the_overlay() {
    // No VIP needed with the overlay on; an FQDN is a valid VIP; a range is not.
    assert!(fired(OVERLAY, |_| {}).is_empty());
    assert!(
        !fired(OVERLAY, |v| put(
            v,
            &format!("{EDGE}/networkOverlayConfig/enabled"),
            json!(false)
        ))
        .is_empty()
    );
    assert!(
        fired(ML, |v| put(
            v,
            &format!("{EDGE}/vip"),
            json!("cp.example.com")
        ))
        .is_empty()
    );
    assert!(
        fired(ML, |v| put(v, &format!("{EDGE}/vip"), json!("10.0.0.0/24"))).contains(&"vip.format")
    );
    assert!(
        fired(ML, |v| put(v, &format!("{EDGE}/vip"), json!("fd00::1"))).contains(&"vip.format")
    );
    assert!(
        fired(ML, |v| put(v, &format!("{EDGE}/vip"), json!("localhost"))).contains(&"vip.format")
    );
    // The overlay needs a CIDR, written canonically.
    assert!(
        fired(OVERLAY, |v| remove(
            v,
            &format!("{EDGE}/networkOverlayConfig/cidr")
        ))
        .contains(&"overlay.cidr")
    );
    assert!(
        fired(OVERLAY, |v| put(
            v,
            &format!("{EDGE}/networkOverlayConfig/cidr"),
            json!("100.64.1.0/16")
        ))
        .contains(&"overlay.cidr")
    );
    assert!(
        fired(OVERLAY, |v| put(
            v,
            &format!("{EDGE}/networkOverlayConfig/cidr"),
            json!("100.64.0.0/33")
        ))
        .contains(&"overlay.cidr")
    );
}

/// Of pools that exist and share a VIP, the one that runs (else the one created first) holds
/// it: checked as listed (the pools list's marker, `validate` of a fleet), the newcomer is
/// blamed and the holder is not; two manifests never created both are.
#[test]
fn the_vip_holder_is_never_blamed_the_newcomer_is() {
    let held = |v: &Value| pool(v).0;
    let base = json_of(ML);
    let mut holder = base.clone();
    put(&mut holder, "/metadata/name", json!("lab-a"));
    put(
        &mut holder,
        "/metadata/creationTimestamp",
        json!("2026-05-01T00:00:00Z"),
    );
    put(&mut holder, "/status", json!({"status": "Running"}));
    let mut newcomer = base.clone();
    put(&mut newcomer, "/metadata/name", json!("lab-b"));
    put(
        &mut newcomer,
        "/metadata/creationTimestamp",
        json!("2026-06-14T00:00:00Z"),
    );
    put(&mut newcomer, "/status", json!({"status": "Provisioning"}));
    let fleet = [holder.clone(), newcomer.clone()];
    let listed = |i: usize| {
        let pools: Vec<ComputePool> = fleet.iter().map(|v| pool(v).0).collect();
        let fleet = Fleet::new(pools.clone());
        let context = Context {
            old: None,
            fleet: &fleet,
            self_index: Some(i),
        };
        ids(&validate(&pools[i], &[], &context))
            .into_iter()
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert!(
        !listed(0).contains(&"vip.unique".to_owned()),
        "the holder: {:?}",
        listed(0)
    );
    assert!(
        listed(1).contains(&"vip.unique".to_owned()),
        "the newcomer: {:?}",
        listed(1)
    );
    // Neither runs: the one created first holds it.
    let mut older = holder.clone();
    put(&mut older, "/status", json!({"status": "Provisioning"}));
    assert!(edge::holds_before(&held(&older), &held(&newcomer)));
    assert!(!edge::holds_before(&held(&newcomer), &held(&older)));
    // The newcomer runs, the holder does not (it failed): the one that runs holds it.
    let mut running = newcomer.clone();
    put(&mut running, "/status", json!({"status": "Running"}));
    assert!(edge::holds_before(&held(&running), &held(&older)));
    // Two manifests never created: neither holds it, both are blamed.
    let plain: Vec<Value> = ["m-1", "m-2"]
        .iter()
        .map(|n| {
            let mut p = base.clone();
            put(&mut p, "/metadata/name", json!(n));
            p
        })
        .collect();
    assert!(!edge::holds_before(&held(&plain[0]), &held(&plain[1])));
    assert!(!edge::holds_before(&held(&plain[1]), &held(&plain[0])));
    // The holder's update that only adds a label passes; the newcomer's create is refused.
    let mut labelled = holder.clone();
    put(&mut labelled, "/metadata/labels/team", json!("a"));
    assert!(!ids(&run(&labelled, Some(&holder), &fleet)).contains(&"vip.unique"));
    let mut fresh = base.clone();
    put(&mut fresh, "/metadata/name", json!("lab-c"));
    assert!(ids(&run(&fresh, None, &fleet)).contains(&"vip.unique"));
    // Spaces around an address are not part of it: a new pool on "VIP " takes the VIP.
    let mut spaced = fresh.clone();
    let vip = held(&holder)
        .effective_vip()
        .map(str::to_owned)
        .unwrap_or_default();
    put(
        &mut spaced,
        &format!("{EDGE}/vip"),
        json!(format!("{vip} ")),
    );
    assert!(ids(&run(&spaced, None, &fleet)).contains(&"vip.unique"));
    // A create cannot claim to hold the VIP: its own status and age are not believed.
    let mut forged = holder.clone();
    put(&mut forged, "/metadata/name", json!("lab-c"));
    put(
        &mut forged,
        "/metadata/creationTimestamp",
        json!("2020-01-01T00:00:00Z"),
    );
    assert!(ids(&run(&forged, None, &fleet)).contains(&"vip.unique"));
    // Two pools created at the same moment, neither running: neither holds it.
    let mut twin = newcomer.clone();
    put(
        &mut twin,
        "/metadata/creationTimestamp",
        json!("2026-05-01T00:00:00Z"),
    );
    let mut older = holder.clone();
    put(&mut older, "/status", json!({"status": "Provisioning"}));
    assert!(!edge::holds_before(&held(&older), &held(&twin)));
    assert!(!edge::holds_before(&held(&twin), &held(&older)));
}

/// The guide: the replica count is immutable (3 to 1 refused, with the recreate and the lost
/// claims said; set or removed after creation refused too; unchanged, whatever it is, passes)
/// and, at create, fits the nodes: 1 for one, 2 for two, 3 for three or more.
#[test]
fn the_longhorn_replica_count_is_immutable_and_fits_the_nodes() {
    let with = |base: &str, count: Option<&str>| {
        let mut v = json_of(base);
        if let Some(count) = count {
            put(&mut v, LONGHORN, json!(count));
        }
        v
    };
    let found = run(&with(ML, Some("1")), Some(&with(ML, Some("3"))), &[]);
    let immutable = found
        .iter()
        .find(|f| f.rule.id == "longhorn.immutable")
        .expect("3 -> 1 refused");
    for words in [
        "was \"3\" and would become \"1\"",
        "recreate the Compute Pool",
        "back up",
    ] {
        assert!(immutable.message.contains(words), "{}", immutable.message);
    }
    assert!(
        ids(&run(&with(ML, Some("3")), Some(&with(ML, None)), &[])).contains(&"longhorn.immutable")
    );
    assert!(
        ids(&run(&with(ML, None), Some(&with(ML, Some("3"))), &[])).contains(&"longhorn.immutable")
    );
    // The text is what the StorageClass takes: "03" is a change of "3".
    assert!(
        ids(&run(&with(ML, Some("03")), Some(&with(ML, Some("3"))), &[]))
            .contains(&"longhorn.immutable")
    );
    // The same count as a number and as text is no change; an update that keeps it passes
    // even where it does not fit (that was so at creation: the doctor says it).
    assert!(
        !ids(&run(&with(ML, Some("3")), Some(&with(ML, Some("3"))), &[]))
            .iter()
            .any(|id| id.starts_with("longhorn"))
    );
    assert!(
        !ids(&run(
            &with(SINGLE, Some("3")),
            Some(&with(SINGLE, Some("3"))),
            &[]
        ))
        .iter()
        .any(|id| id.starts_with("longhorn"))
    );
    // At create: a single node takes 1; three or more nodes take up to 3.
    assert!(ids(&run(&with(SINGLE, Some("2")), None, &[])).contains(&"longhorn.replica-count"));
    assert!(!ids(&run(&with(SINGLE, Some("1")), None, &[])).contains(&"longhorn.replica-count"));
    assert!(!ids(&run(&with(ML, Some("3")), None, &[])).contains(&"longhorn.replica-count"));
    assert!(ids(&run(&with(ML, Some("0")), None, &[])).contains(&"longhorn.replica-count"));
}

#[test]
fn cross_pool_and_update_rules_leave_the_same_object_alone() {
    let base = json_of(ML);
    // Updating a pool: its old self in the fleet is not a VIP conflict, same VIP is no change.
    let findings = run(&base, Some(&base), std::slice::from_ref(&base));
    assert!(findings.is_empty(), "{findings:#?}");
    // The same VIP in another namespace is a conflict (VIPs are unique across all pools) for
    // a new pool; an update that keeps its VIP takes nothing (the holder is never blamed).
    let mut elsewhere = base.clone();
    put(&mut elsewhere, "/metadata/namespace", json!("team-b"));
    assert!(ids(&run(&base, None, std::slice::from_ref(&elsewhere))).contains(&"vip.unique"));
    assert!(
        !ids(&run(&base, Some(&base), std::slice::from_ref(&elsewhere))).contains(&"vip.unique")
    );
    // An update that moves onto a taken VIP is refused twice: immutable, and taken.
    let mut moved_from = base.clone();
    put(
        &mut moved_from,
        &format!("{EDGE}/vip"),
        json!("10.10.162.250"),
    );
    let found = ids(&run(&base, Some(&moved_from), &[elsewhere]));
    assert!(
        found.contains(&"vip.unique") && found.contains(&"vip.immutable"),
        "{found:?}"
    );
    // Another pool whose VIP is ignored (overlay on) does not conflict.
    let mut overlay = base.clone();
    put(&mut overlay, "/metadata/name", json!("other"));
    put(
        &mut overlay,
        &format!("{EDGE}/networkOverlayConfig/enabled"),
        json!(true),
    );
    assert!(run(&base, None, &[overlay]).is_empty());
    // A VIP comparison ignores case for FQDNs.
    let mut a = base.clone();
    put(&mut a, &format!("{EDGE}/vip"), json!("CP.Example.com"));
    let mut b = base.clone();
    put(&mut b, "/metadata/name", json!("b"));
    put(&mut b, &format!("{EDGE}/vip"), json!("cp.example.com"));
    assert!(ids(&run(&a, None, &[b])).contains(&"vip.unique"));
}

#[test]
fn existing_worker_pool_names_stay_valid_but_new_ones_do_not() {
    let mut old = json_of(ML);
    put(&mut old, &format!("{WP}/1/name"), json!("1st-gpu"));
    let mut new = old.clone();
    let findings = ids(&run(&new, Some(&old), &[]));
    assert_eq!(findings, ["worker-pool.name.existing"]);
    // Adding another pool with a bad name on update is refused.
    let mut added = new["spec"]["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]["nodePoolRequirements"]["workerPools"][0].clone();
    added["name"] = json!("2nd$pool");
    new.pointer_mut(WP)
        .and_then(Value::as_array_mut)
        .expect("list")
        .push(added);
    let findings = ids(&run(&new, Some(&old), &[]));
    assert!(
        findings.contains(&"worker-pool.name.format"),
        "{findings:?}"
    );
    // A 63-character name is too long, 62 is fine.
    assert!(
        fired(ML, |v| put(
            v,
            &format!("{WP}/1/name"),
            json!("a".repeat(62))
        ))
        .is_empty()
    );
    assert!(
        fired(ML, |v| put(
            v,
            &format!("{WP}/1/name"),
            json!("a".repeat(63))
        ))
        .contains(&"worker-pool.name.format")
    );
    for c in "/&#+%?,$".chars() {
        let name = format!("gpu{c}pool");
        assert!(
            fired(ML, |v| put(v, &format!("{WP}/1/name"), json!(name)))
                .contains(&"worker-pool.name.format"),
            "{name}"
        );
    }
}

#[test]
fn gpu_memory_accepts_either_reading_of_gigabytes() {
    for ok in ["160 GB", "160GB", "149Gi", "160Gi", "163840 MiB"] {
        assert!(
            fired(ML, |v| put(v, &format!("{WP}/1/gpu/gpuMemory"), json!(ok))).is_empty(),
            "{ok}"
        );
    }
    // A total that disagrees may be deliberate: a warning that says why it looks wrong.
    for bad in ["80 GB", "320 GB"] {
        let mut value = json_of(ML);
        put(&mut value, &format!("{WP}/1/gpu/gpuMemory"), json!(bad));
        let found = run(&value, None, &[]);
        let hit = found
            .iter()
            .find(|f| f.rule.id == "gpu.memory.consistent")
            .unwrap_or_else(|| panic!("{bad}: {found:#?}"));
        assert_eq!(hit.rule.severity, Severity::Warning, "{bad}");
        assert!(hit.message.contains("looks like"), "{}", hit.message);
    }
    // A figure without units cannot be read at all: an error.
    let mut value = json_of(ML);
    put(&mut value, &format!("{WP}/1/gpu/gpuMemory"), json!("160"));
    let found = run(&value, None, &[]);
    assert!(
        found
            .iter()
            .any(|f| f.rule.id == "gpu.memory.units" && f.rule.severity == Severity::Error),
        "{found:#?}"
    );
}

#[test]
fn every_severity_follows_its_stated_basis() {
    let all = catalogue()
        .into_iter()
        .chain(crate::rules::scaling_policy::RULES.iter().copied())
        .chain(crate::quota::RULES.iter().copied())
        .chain(crate::hosts::RULES.iter().copied())
        .chain(crate::exists::RULES.iter().copied());
    for rule in all {
        assert_eq!(
            rule.severity,
            rule.basis.severity(),
            "{}: its severity and the reason given for it disagree",
            rule.id
        );
    }
}

#[test]
fn pause_label_only_pauses_for_exactly_true() {
    let pause = "/metadata/labels/controller.spectrocloud.com~1pause";
    let mut paused = json_of(ML);
    put(&mut paused, pause, json!("true"));
    assert_eq!(ids(&run(&paused, None, &[])), ["pause.active"]);
    for value in [json!("TRUE"), json!("yes"), json!("1"), json!("false")] {
        assert!(
            fired(ML, |v| put(v, pause, value.clone())).contains(&"pause.not-true"),
            "{value}"
        );
    }
    // An unquoted boolean is a type error and does not pause.
    let found = fired(ML, |v| put(v, pause, json!(true)));
    assert!(
        found.contains(&"schema.type") && found.contains(&"pause.not-true"),
        "{found:?}"
    );
}

#[test]
fn misplaced_fields_get_a_hint() {
    let mut value = json_of(ML);
    put(&mut value, &format!("{EDGE}/sshKeys"), json!(["x"]));
    put(&mut value, &format!("{CP}/cpu/cpuCout"), json!(4));
    let findings = run(&value, None, &[]);
    let messages: Vec<&str> = findings.iter().map(|f| f.message.as_str()).collect();
    assert!(
        messages.iter().any(|m| m.contains("sibling of edge")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("Did you mean `cpuCount`")),
        "{messages:?}"
    );
}

#[test]
fn private_keys_are_refused_loudly() {
    let found = run(
        &{
            let mut v = json_of(ML);
            put(
                &mut v,
                &format!("{PCDC}/sshKeys"),
                json!(["-----BEGIN OPENSSH PRIVATE KEY-----\nabc"]),
            );
            v
        },
        None,
        &[],
    );
    assert!(
        found
            .iter()
            .any(|f| f.rule.id == "ssh-key.private" && f.message.contains("PRIVATE"))
    );
}

#[test]
fn deletion_policy_defaults_to_delete_and_reads_the_deprecated_field() {
    let (pool, _) = pool(&json_of(SINGLE));
    assert_eq!(pool.deletion_policy(), "delete");
    let mut nested = json_of(SINGLE);
    put(
        &mut nested,
        &format!("{PCDC}/deletionPolicy"),
        json!("orphan"),
    );
    let (pool, _) = self::pool(&nested);
    assert_eq!(pool.deletion_policy(), "orphan");
    let found = ids(&run(&nested, None, &[]));
    assert!(
        found.contains(&"deletion-policy.deprecated") && found.contains(&"deletion-policy.orphan")
    );
}

/// `validate`'s findings, as a multiset: rule, path and message.
fn bag(findings: &[Finding]) -> Vec<(&'static str, String, String)> {
    let mut bag: Vec<_> = findings
        .iter()
        .map(|f| (f.rule.id, f.path.to_string(), f.message.clone()))
        .collect();
    bag.sort();
    bag
}

#[test]
fn a_pools_findings_are_its_own_and_those_across_pools() {
    // Every case's manifest, with and without its edit, against fleets that share its name,
    // its VIP (one other, and more than the finding names), or neither; new and as an update.
    let rule_ids = |findings: &[Finding]| ids(findings).into_iter().collect::<Vec<_>>();
    let mut runs = 0;
    let mut across_found = 0;
    for case in cases() {
        let base = json_of(case.base);
        let mut value = base.clone();
        (case.edit)(&mut value);
        let mut renamed = value.clone();
        put(&mut renamed, "/metadata/name", json!("other-pool"));
        let many: Vec<Value> = (0..7)
            .map(|i| {
                let mut other = value.clone();
                put(&mut other, "/metadata/name", json!(format!("other-{i}")));
                other
            })
            .collect();
        let fleets: [Vec<Value>; 4] = [vec![], vec![value.clone()], vec![renamed], many];
        for existing in fleets {
            for old in [None, Some(&base)] {
                checked(&value, old, &existing, |pool, issues, context| {
                    let alone = Context {
                        fleet: &Fleet::default(),
                        ..*context
                    };
                    let whole = validate(pool, issues, context);
                    let own = validate(pool, issues, &alone);
                    let across = across(pool, context);
                    assert!(
                        across
                            .iter()
                            .all(|f| ["metadata.name.unique", "vip.unique"].contains(&f.rule.id)),
                        "{}: {:?}",
                        case.rule,
                        rule_ids(&across)
                    );
                    let mut parts = own.clone();
                    parts.extend(across.iter().cloned());
                    assert_eq!(bag(&whole), bag(&parts), "{}", case.rule);
                    runs += 1;
                    across_found += across.len();
                });
            }
        }
    }
    assert!(runs > 100 && across_found > 50, "{runs} {across_found}");
}
