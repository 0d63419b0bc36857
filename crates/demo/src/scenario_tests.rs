//! Every built-in scenario loads, its steps apply, its references hold, its times resolve.

use super::*;
use crate::actions::apply;
use chrono::Utc;
use serde_json::json;

#[test]
fn every_builtin_scenario_loads_and_its_steps_apply() {
    for (name, _) in BUILTIN {
        let scenario = Scenario::builtin(name).expect(name);
        assert!(
            !scenario.description.is_empty(),
            "{name} says what it shows"
        );
        let store = Store::new(
            super::super::registry::Registry::builtin().expect("registry"),
            10_000,
        );
        scenario
            .load_initial(&store)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        for step in &scenario.steps {
            apply(&store, &step.action)
                .unwrap_or_else(|e| panic!("{name} at {:?}: {}", step.at, e.message));
        }
    }
    let large = Scenario::builtin("large-25").expect("large");
    assert_eq!(large.objects.len(), 50);
}

/// A pool in a scenario names only objects the scenario has (a Profile Bundle, Settings
/// and ScalingPolicy in its namespace), so the wizard's checks and the doctor see a
/// story that holds together.
#[test]
fn every_reference_in_a_scenario_names_an_object_it_has() {
    use pooldeck_domain::Kind;
    use pooldeck_domain::exists::{Known, check};
    for (name, _) in BUILTIN {
        let scenario = Scenario::builtin(name).expect(name);
        let has = |kind: &str, namespace: &str| -> Vec<String> {
            scenario
                .objects
                .iter()
                .filter(|o| o["kind"] == kind && o["metadata"]["namespace"] == namespace)
                .filter_map(|o| o["metadata"]["name"].as_str().map(str::to_owned))
                .collect()
        };
        for pool in scenario
            .objects
            .iter()
            .filter(|o| o["kind"] == "ComputePool")
        {
            let draft = pooldeck_domain::draft::Draft::from_object(pool.clone(), None);
            let names: Vec<(Kind, Vec<String>)> =
                [Kind::ProfileBundle, Kind::Settings, Kind::ScalingPolicy]
                    .into_iter()
                    .map(|kind| (kind, has(kind.api().kind, draft.namespace())))
                    .collect();
            let found = check(&draft, None, |kind| {
                Known::Names(
                    names
                        .iter()
                        .find(|(k, _)| *k == kind)
                        .map(|(_, n)| n.iter().map(String::as_str).collect())
                        .unwrap_or_default(),
                )
            });
            assert!(
                found.is_empty(),
                "{name}: {}/{}: {found:#?}",
                draft.namespace(),
                pool["metadata"]["name"]
            );
        }
    }
}

#[test]
fn relative_times_resolve() {
    let resolved = resolve_times(&json!({"a": "now-3d", "b": ["now"], "c": "nowhere"}));
    let a =
        chrono::DateTime::parse_from_rfc3339(resolved["a"].as_str().expect("a")).expect("a time");
    let age = Utc::now() - a.with_timezone(&Utc);
    assert!((age.num_hours() - 72).abs() <= 1, "{age}");
    assert!(chrono::DateTime::parse_from_rfc3339(resolved["b"][0].as_str().expect("b")).is_ok());
    assert_eq!(resolved["c"], "nowhere");
}

/// Every scenario's pools pass `pooldeck validate` (checked as listed, against the scenario's
/// other pools, as the pools list checks them), errors and warnings, except where the story
/// is that rule: the VIP the newcomer took, the pause label written wrong, the replica count
/// the nodes cannot hold.
#[test]
fn every_scenarios_pools_validate_except_where_the_story_is_that_rule() {
    use pooldeck_domain::model::{ComputePool, read_owned};
    use pooldeck_domain::rules::{self, Context, Fleet, Severity};
    const STORIES: &[(&str, &str, &str)] = &[
        ("vip-conflict", "labs/lab-b", "vip.unique"),
        ("fleet", "retail-edge/edge-store-207", "pause.not-true"),
        (
            "longhorn-replicas",
            "retail-east/store-114",
            "longhorn.replica-count",
        ),
        (
            "longhorn-replicas",
            "retail-east/store-207",
            "longhorn.replica-count",
        ),
    ];
    let now = chrono::Utc::now();
    let mut scenarios: Vec<String> = BUILTIN.iter().map(|(n, _)| (*n).to_owned()).collect();
    scenarios.push("large-25".into());
    let mut stories_seen = Vec::new();
    for name in &scenarios {
        let scenario = Scenario::builtin(name).expect(name);
        let read: Vec<(ComputePool, Vec<pooldeck_domain::field::Issue>)> = scenario
            .objects
            .iter()
            .filter(|o| o["kind"] == "ComputePool")
            .map(|o| read_owned::<ComputePool>(resolve_times_at(o, now)).expect("a pool"))
            .collect();
        let fleet = Fleet::new(read.iter().map(|(p, _)| p.clone()).collect());
        for (i, (pool, issues)) in read.iter().enumerate() {
            let context = Context {
                old: None,
                fleet: &fleet,
                self_index: Some(i),
            };
            for finding in rules::validate(pool, issues, &context) {
                if finding.rule.severity < Severity::Warning {
                    continue;
                }
                let at = pool.key();
                let story = STORIES
                    .iter()
                    .find(|(n, p, rule)| n == name && *p == at && *rule == finding.rule.id);
                if let Some(story) = story {
                    stories_seen.push(*story);
                    continue;
                }
                panic!("{name}: {at}: {} {}", finding.rule.id, finding.message);
            }
        }
    }
    assert_eq!(
        stories_seen.len(),
        STORIES.len(),
        "each story's rule fires: {stories_seen:?}"
    );
}

/// A host an event or a controller log line names belongs to the pool it is about: no
/// scenario blames a healthy host of another pool.
#[test]
fn scenario_events_name_the_hosts_of_their_own_pool() {
    for (name, _) in BUILTIN {
        let scenario = Scenario::builtin(name).expect(name);
        // Every host of every pool, with its pool.
        let mut hosts: Vec<(String, String)> = Vec::new();
        for pool in scenario
            .objects
            .iter()
            .filter(|o| o["kind"] == "ComputePool")
        {
            let key = format!(
                "{}/{}",
                pool["metadata"]["namespace"].as_str().unwrap_or(""),
                pool["metadata"]["name"].as_str().unwrap_or("")
            );
            for cluster in pool["status"]["paletteClusterStatuses"]
                .as_array()
                .into_iter()
                .flatten()
            {
                for machines in cluster["allocatedMachinePools"]
                    .as_array()
                    .into_iter()
                    .flatten()
                {
                    for host in machines["hosts"]
                        .as_object()
                        .into_iter()
                        .flat_map(|h| h.keys())
                    {
                        hosts.push((host.clone(), key.clone()));
                    }
                }
            }
        }
        let mut said: Vec<(String, String)> = Vec::new();
        for object in scenario.objects.iter().filter(|o| o["kind"] == "Event") {
            let about = &object["involvedObject"];
            if about["kind"] == "ComputePool" {
                said.push((
                    format!(
                        "{}/{}",
                        about["namespace"].as_str().unwrap_or(""),
                        about["name"].as_str().unwrap_or("")
                    ),
                    object["message"].as_str().unwrap_or("").to_owned(),
                ));
            }
        }
        for step in &scenario.steps {
            if let Action::Event {
                namespace,
                kind,
                name,
                message,
                ..
            } = &step.action
                && kind == "ComputePool"
            {
                said.push((format!("{namespace}/{name}"), message.clone()));
            }
        }
        for line in &scenario.controller_logs {
            if let (Some(pool), Some(message)) = (line["pool"].as_str(), line["message"].as_str()) {
                said.push((pool.to_owned(), message.to_owned()));
            }
        }
        for (pool, message) in &said {
            let words: Vec<&str> = message
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .collect();
            for (host, owner) in &hosts {
                if words.contains(&host.as_str()) {
                    assert_eq!(
                        owner, pool,
                        "{name}: \"{message}\" about {pool} names {host} of {owner}"
                    );
                }
            }
        }
    }
}

/// The scenarios whose story has an operator write a pool in the wizard (the tour's wizard
/// chapter plays fleet): each host of their pools is a machine of a Compute in its pool's
/// namespace, so the wizard offers what the hub has.
#[test]
fn the_wizards_scenarios_hold_the_computes_their_hosts_imply() {
    for name in [
        "fleet",
        "stuck-provisioning",
        "vip-conflict",
        "longhorn-replicas",
    ] {
        let scenario = Scenario::builtin(name).expect(name);
        let machines = |namespace: &serde_json::Value| -> Vec<String> {
            let roles = ["controlPlaneCompute", "workerCompute"];
            scenario
                .objects
                .iter()
                .filter(|o| o["kind"] == "Compute" && o["metadata"]["namespace"] == *namespace)
                .flat_map(|o| roles.map(|role| o["status"][role].clone()))
                .filter_map(|entries| entries.as_array().cloned())
                .flatten()
                .filter_map(|entry| entry["machines"].as_object().cloned())
                .flat_map(|m| m.keys().cloned().collect::<Vec<_>>())
                .collect()
        };
        for pool in scenario
            .objects
            .iter()
            .filter(|o| o["kind"] == "ComputePool")
        {
            let known = machines(&pool["metadata"]["namespace"]);
            let clusters = pool["status"]["paletteClusterStatuses"].as_array();
            for machine_pool in clusters
                .into_iter()
                .flatten()
                .filter_map(|c| c["allocatedMachinePools"].as_array())
                .flatten()
            {
                for host in machine_pool["hosts"].as_object().into_iter().flatten() {
                    assert!(
                        known.contains(host.0),
                        "{name}: host {} of {} is no Compute's machine",
                        host.0,
                        pool["metadata"]["name"]
                    );
                }
            }
        }
    }
}
