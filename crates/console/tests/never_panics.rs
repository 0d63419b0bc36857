//! Property tests: whatever the input, reading and checking it never panics, and the exit
//! status says what the report holds: 2 exactly when an input could not be read (and a finding
//! says why), 1 exactly when a readable input has an error, 0 otherwise. Inputs are random bytes, YAML-like token soup, random
//! edits of the demo manifests, and random values planted in a valid pool.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

use proptest::prelude::*;
use serde_json::Value;

use pooldeck::cli::inputs::Input;
use pooldeck::cli::validate::check;

const EXAMPLES: &[&str] = &[
    include_str!("../../../demo/manifests/ml-cluster.yaml"),
    include_str!("../../../demo/manifests/single-node.yaml"),
    include_str!("../../../demo/manifests/ha-control-plane-only.yaml"),
    include_str!("../../../demo/manifests/overlay-no-vip.yaml"),
    include_str!("../../../demo/manifests/shared-system-pool.yaml"),
    include_str!("../../../demo/manifests/gpu-taints.yaml"),
];

fn run(bytes: Vec<u8>) -> u8 {
    let inputs = [Input {
        name: "fuzz.yaml".into(),
        identity: None,
        bytes,
    }];
    let report = check(&inputs, &[], &[]);
    let status = report.exit_status();
    let errors = report
        .entries
        .iter()
        .filter(|e| e.severity == pooldeck::domain::rules::Severity::Error)
        .count();
    match status {
        2 => assert!(
            report.unreadable && errors > 0,
            "an unreadable input is explained by an error finding: {:?}",
            report.entries
        ),
        1 => assert!(!report.unreadable && errors > 0),
        0 => assert!(!report.unreadable && errors == 0),
        other => panic!("exit status {other} is not one validate documents"),
    }
    for entry in &report.entries {
        assert!(
            !entry.message.trim().is_empty(),
            "a finding says something: {entry:?}"
        );
    }
    // Every finding that claims a position points inside the input.
    for entry in &report.entries {
        assert!(entry.line == 0 || entry.column > 0, "{entry:?}");
    }
    status
}

const TOKENS: &[&str] = &[
    "-",
    ":",
    " ",
    "\n",
    "  ",
    "    ",
    "[",
    "]",
    "{",
    "}",
    "'",
    "\"",
    "&a ",
    "*a",
    "<<: ",
    "!!str ",
    "!!int ",
    "---\n",
    "...\n",
    "# c\n",
    "kind",
    "ComputePool",
    "spec",
    "metadata",
    "name",
    "clusterVariant",
    "dedicated",
    "workerPools",
    "vip",
    "true",
    "yes",
    "1",
    "-1",
    "1e400",
    "?",
    "|",
    ">",
    "\t",
    "~",
    "null",
    ",",
    "\\",
    "é",
    "\u{feff}",
    "0x1F",
    ".inf",
];

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        ".{0,20}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map("[a-zA-Z]{1,12}", inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Places where a planted value lands, covering every level of the spec.
const POINTERS: &[&str] = &[
    "/metadata",
    "/metadata/name",
    "/metadata/labels",
    "/metadata/annotations",
    "/spec",
    "/spec/deletionPolicy",
    "/spec/profileBundleRef",
    "/spec/sharedWith",
    "/spec/clusterVariant",
    "/spec/clusterVariant/workerResourceGroups",
    "/spec/clusterVariant/dedicated",
    "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig",
    "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/sshKeys",
    "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/edge",
    "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/edge/vip",
    "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/edge/networkOverlayConfig",
    "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/nodePoolRequirements",
    "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/nodePoolRequirements/controlPlanePool",
    "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/nodePoolRequirements/controlPlanePool/nodeCount",
    "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/nodePoolRequirements/workerPools",
    "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/nodePoolRequirements/workerPools/1",
    "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/nodePoolRequirements/workerPools/1/gpu",
    "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/nodePoolRequirements/workerPools/1/taints",
    "/status",
];

/// One of the examples with `value` written at `pointer`.
fn planted_example(example: usize, pointer: &str, value: Value) -> Value {
    let documents = pooldeck::manifest::parse(EXAMPLES[example]).expect("examples parse");
    plant(documents[0].root.to_json(), pointer, value)
}

fn plant(mut document: Value, pointer: &str, value: Value) -> Value {
    let (parent, key) = pointer.rsplit_once('/').unwrap_or(("", pointer));
    match document.pointer_mut(parent) {
        Some(Value::Object(map)) => {
            map.insert(key.to_owned(), value);
        }
        Some(Value::Array(items)) => {
            if let Some(slot) = key.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                *slot = value;
            }
        }
        _ => {}
    }
    document
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        run(bytes);
    }

    #[test]
    fn yaml_like_token_soup_never_panics(tokens in prop::collection::vec(prop::sample::select(TOKENS), 0..200)) {
        run(tokens.concat().into_bytes());
    }

    #[test]
    fn edited_manifests_never_panic(
        example in 0..EXAMPLES.len(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0..3u8, prop::sample::select(TOKENS)), 1..8),
    ) {
        let mut text: Vec<char> = EXAMPLES[example].chars().collect();
        for (at, op, token) in edits {
            let i = at.index(text.len().max(1)).min(text.len());
            match op {
                0 => { text.splice(i..i, token.chars()); }
                1 => { if i < text.len() { text.remove(i); } }
                _ => { if i < text.len() { text.splice(i..=i, token.chars()); } }
            }
        }
        run(text.into_iter().collect::<String>().into_bytes());
    }

    #[test]
    fn planted_values_never_panic_and_stay_located(
        example in 0..EXAMPLES.len(),
        pointer in prop::sample::select(POINTERS),
        value in json_value(),
    ) {
        let planted = planted_example(example, pointer, value);
        let yaml = serde_saphyr::to_string(&planted).expect("serializes");
        let status = run(yaml.into_bytes());
        prop_assert!(status <= 1, "a well-formed document is never unreadable");
    }

    #[test]
    fn reading_and_writing_back_loses_nothing(
        example in 0..EXAMPLES.len(),
        pointer in prop::sample::select(POINTERS),
        value in json_value(),
    ) {
        let planted = planted_example(example, pointer, value);
        let (pool, _issues): (pooldeck::domain::model::ComputePool, _) =
            pooldeck::domain::model::read(&planted).expect("a mapping");
        let written = serde_json::to_value(&pool).expect("serializes");
        prop_assert_eq!(written, planted);
    }
}
