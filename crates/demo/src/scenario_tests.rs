//! Every built-in scenario loads, its steps apply, its references hold, its times resolve.

use super::*;

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
