//! Several hubs read at once, headless: `demo serve --hubs 3` writes one kubeconfig with a
//! context per hub; `get` and `doctor` with `--context` repeated or `--all-contexts` read each
//! hub on its own, name the hub on every row (JSON: `{"hub", "object"}` items; the doctor's
//! pools carry `hub`), never compare one hub's pools with another's, and print the hubs they
//! could read when one cannot be.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

mod common;

use common::hubs::Hubs;

use serde_json::Value;

fn pooldeck(kubeconfig: &std::path::Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("pooldeck"))
        .arg("--kubeconfig")
        .arg(kubeconfig)
        .args(args)
        .output()
        .expect("pooldeck runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[test]
fn get_lists_every_hubs_pools_with_the_hub_named() {
    let served = common::serve_with("fleet", &["--hubs", "3"]);
    let (code, out, err) = pooldeck(
        &served.kubeconfig,
        &["get", "pools", "-A", "--all-contexts"],
    );
    assert_eq!(code, Some(0), "{err}");
    let mut lines = out.lines();
    let header = lines.next().expect("a header");
    assert!(header.starts_with("HUB "), "{header}");
    let rows: Vec<&str> = lines.collect();
    for hub in ["hub-a", "hub-b", "hub-c"] {
        let on_hub: Vec<&&str> = rows.iter().filter(|l| l.starts_with(hub)).collect();
        assert_eq!(on_hub.len(), 12, "{hub}:\n{out}");
        assert!(
            on_hub.iter().any(|l| l.contains(" llm-train ")),
            "{hub}:\n{out}"
        );
    }
    // JSON: each object wrapped with its hub, the object itself as the hub sent it.
    let (code, out, err) = pooldeck(
        &served.kubeconfig,
        &[
            "get",
            "pools",
            "-A",
            "--context",
            "hub-a",
            "--context",
            "hub-c",
            "-o",
            "json",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let list = json(&out);
    let items = list["items"].as_array().expect("items");
    assert_eq!(items.len(), 24);
    let hubs: std::collections::BTreeSet<&str> =
        items.iter().filter_map(|i| i["hub"].as_str()).collect();
    assert_eq!(hubs, ["hub-a", "hub-c"].into_iter().collect());
    for item in items {
        assert_eq!(item["object"]["kind"], "ComputePool");
        assert!(
            item["object"]["metadata"]["annotations"]
                .as_object()
                .is_none_or(|a| !a.keys().any(|k| k.contains("hub"))),
            "nothing is added to the object: {item}"
        );
    }
    // A context the kubeconfig lacks is refused before any hub is asked.
    let (code, _, err) = pooldeck(
        &served.kubeconfig,
        &["get", "pools", "--context", "hub-a", "--context", "hub-z"],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("no context \"hub-z\"") && err.contains("hub-a, hub-b, hub-c"),
        "{err}"
    );
}

/// Each hub is diagnosed on its own: three hubs playing one story share every VIP, and no
/// VIP is a conflict for that; a conflict inside a hub is found on each hub, once.
#[test]
fn the_doctor_never_compares_one_hubs_pools_with_anothers() {
    let vip_findings = |report: &Value| -> Vec<(String, String)> {
        report["pools"]
            .as_array()
            .expect("pools")
            .iter()
            .flat_map(|pool| {
                pool["findings"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|f| f["id"] == "vip.in-use")
                    .map(move |_| {
                        (
                            pool["hub"].as_str().unwrap_or("").to_owned(),
                            pool["name"].as_str().unwrap_or("").to_owned(),
                        )
                    })
            })
            .collect()
    };
    let fleet = common::serve_with("fleet", &["--hubs", "3"]);
    let (code, out, err) = pooldeck(
        &fleet.kubeconfig,
        &["doctor", "-A", "--all-contexts", "-o", "json"],
    );
    assert!(matches!(code, Some(0 | 1)), "{err}");
    let report = json(&out);
    let pools = report["pools"].as_array().expect("pools");
    assert_eq!(pools.len(), 36);
    assert!(pools.iter().all(|p| p["hub"].is_string()), "{out}");
    assert_eq!(
        vip_findings(&report),
        Vec::new(),
        "a VIP shared across hubs"
    );

    let conflict = common::serve_with("vip-conflict", &["--hubs", "3"]);
    let (_, out, err) = pooldeck(
        &conflict.kubeconfig,
        &["doctor", "-A", "--all-contexts", "-o", "json"],
    );
    let found = vip_findings(&json(&out));
    let expected: Vec<(String, String)> = ["hub-a", "hub-b", "hub-c"]
        .iter()
        .map(|hub| ((*hub).to_owned(), "lab-b".to_owned()))
        .collect();
    assert_eq!(found, expected, "{err}");
    // Text: each pool named with its hub.
    let (_, out, _) = pooldeck(&conflict.kubeconfig, &["doctor", "-A", "--all-contexts"]);
    assert!(out.contains("hub-b: labs/lab-b\n"), "{out}");
}

/// A hub that cannot be read is said; the others are printed; the exit status says so.
#[test]
fn a_hub_out_of_reach_leaves_the_others_printed() {
    let mut hubs = Hubs::start("vip-conflict");
    hubs.stop(1);
    let (code, out, err) = hubs.run(&["get", "pools", "-A", "--all-contexts", "--timeout", "10s"]);
    assert_eq!(code, Some(1), "{out}\n{err}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("hub-a ") && l.contains(" lab-b ")),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("hub-c ") && l.contains(" lab-b ")),
        "{out}"
    );
    assert!(!out.contains("hub-b"), "{out}");
    // The hub is named on its own messages and in the summary.
    assert!(err.contains("pooldeck: hub hub-b: "), "{err}");
    assert!(err.contains("not read") && err.contains("hub-b"), "{err}");
    // The whole list as JSON, streamed hub after hub: the List holds the others' objects.
    let (code, out, err) = hubs.run(&["get", "pools", "-A", "--all-contexts", "-o", "json"]);
    assert_eq!(code, Some(1), "{err}");
    let items = json(&out)["items"].as_array().cloned().expect("items");
    let on: std::collections::BTreeSet<&str> =
        items.iter().filter_map(|i| i["hub"].as_str()).collect();
    assert_eq!(on, ["hub-a", "hub-c"].into_iter().collect(), "{out}");
    assert!(err.contains("hub hub-b: "), "{err}");
    let (code, out, err) = hubs.run(&[
        "doctor",
        "-A",
        "--all-contexts",
        "-o",
        "json",
        "--timeout",
        "10s",
    ]);
    assert_eq!(code, Some(2), "{err}");
    let pools = json(&out)["pools"].as_array().cloned().expect("pools");
    assert_eq!(pools.len(), 4, "hub-a's and hub-c's: {out}");
}

/// A pause bound to one hub reaches that hub only; across hubs every hub's plan is checked by
/// its dry run first, and one hub that refuses (read-only for it in the settings) stops the
/// whole with nothing sent anywhere.
#[test]
fn a_pause_reaches_the_hubs_it_names_and_no_other() {
    let hubs = Hubs::start("fleet");
    let (code, out, err) = hubs.run(&[
        "pause",
        "llm-train",
        "-n",
        "ml-research",
        "--context",
        "hub-b",
    ]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    let after_one = hubs.writes();
    assert_eq!(after_one[0], 0, "hub-a: {after_one:?}");
    assert!(
        after_one[1] >= 2,
        "hub-b: the dry run and the patch: {after_one:?}"
    );
    assert_eq!(after_one[2], 0, "hub-c: {after_one:?}");
    assert!(hubs.paused(1, "ml-research", "llm-train"));
    assert!(!hubs.paused(0, "ml-research", "llm-train"));

    // Across two hubs: each plan printed with its hub and its kubectl --context.
    let (code, out, err) = hubs.run(&[
        "pause",
        "llm-train",
        "-n",
        "ml-research",
        "--context",
        "hub-a",
        "--context",
        "hub-c",
    ]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(
        out.contains("hub hub-a:") && out.contains("hub hub-c:"),
        "{out}"
    );
    assert!(
        out.contains("--context hub-a") && out.contains("--context hub-c"),
        "{out}"
    );
    let after_two = hubs.writes();
    assert_eq!(after_two[1], after_one[1], "hub-b untouched: {after_two:?}");
    assert!(hubs.paused(0, "ml-research", "llm-train"));
    assert!(hubs.paused(2, "ml-research", "llm-train"));

    // hub-c read-only by the settings: nothing is sent to hub-a either.
    std::fs::write(
        hubs.config.join("pooldeck/config.yaml"),
        "contexts:\n  hub-c:\n    readonly: true\n",
    )
    .expect("settings");
    let before = hubs.writes();
    let (code, out, err) =
        hubs.run(&["resume", "llm-train", "-n", "ml-research", "--all-contexts"]);
    assert_eq!(code, Some(2), "{out}\n{err}");
    assert!(
        err.contains("read-only") && err.contains("nothing was sent to any hub"),
        "{err}"
    );
    let after = hubs.writes();
    assert_eq!(after[0], before[0], "hub-a got nothing: {after:?}");
    assert!(
        hubs.paused(0, "ml-research", "llm-train"),
        "still paused on hub-a"
    );
    // delete acts on one hub at a time.
    let (code, _, err) = hubs.run(&[
        "delete",
        "llm-train",
        "-n",
        "ml-research",
        "--context",
        "hub-a",
        "--context",
        "hub-b",
        "--yes",
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("one hub at a time"), "{err}");
}

/// A pool of hub `index`, as its store holds it.
fn pool_of(hubs: &Hubs, index: usize, namespace: &str, name: &str) -> Value {
    let store = &hubs.cluster(index).store;
    let resource = store
        .registry
        .by_kind("ComputePool")
        .cloned()
        .expect("pools");
    store
        .get(&resource, namespace, name)
        .map(|pool| pool.as_ref().clone())
        .expect("the pool")
}

/// A new pool on hub `index`, made from `like` under another name and VIP, with the status
/// given.
fn put_pool(hubs: &Hubs, index: usize, like: &Value, name: &str, vip: &str, status: Value) {
    let mut pool = like.clone();
    pool["metadata"]["name"] = name.into();
    for field in ["uid", "resourceVersion", "creationTimestamp"] {
        pool["metadata"]
            .as_object_mut()
            .expect("metadata")
            .remove(field);
    }
    pool["spec"]["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]["edge"]["vip"] =
        vip.into();
    pool["status"] = status;
    hubs.cluster(index).store.put(pool).expect("put");
}

/// The hubs and pools the doctor finds a VIP in use for.
fn vip_in_use(report: &Value) -> Vec<String> {
    report["pools"]
        .as_array()
        .expect("pools")
        .iter()
        .filter(|pool| {
            pool["findings"]
                .as_array()
                .is_some_and(|f| f.iter().any(|f| f["id"] == "vip.in-use"))
        })
        .map(|pool| {
            format!(
                "{}:{}",
                pool["hub"].as_str().unwrap_or(""),
                pool["name"].as_str().unwrap_or("")
            )
        })
        .collect()
}

/// A pool waiting on hub-b whose VIP a running pool holds on hub-a only is no conflict: the
/// doctor reads each hub alone. The same two pools on one hub are one (the check can fail).
#[test]
fn a_vip_held_on_another_hub_is_no_conflict() {
    let hubs = Hubs::start("vip-conflict");
    let running = pool_of(&hubs, 0, "labs", "lab-a");
    let waiting = pool_of(&hubs, 1, "labs", "lab-b");
    let provisioning = serde_json::json!({"status": "Provisioning"});
    put_pool(
        &hubs,
        0,
        &running,
        "owner",
        "10.99.0.1",
        running["status"].clone(),
    );
    put_pool(
        &hubs,
        1,
        &waiting,
        "solo",
        "10.99.0.1",
        provisioning.clone(),
    );
    let report = |args: &[&str]| {
        let (code, out, err) = hubs.run(args);
        assert!(matches!(code, Some(0 | 1)), "{err}");
        json(&out)
    };
    let found = vip_in_use(&report(&["doctor", "-A", "--all-contexts", "-o", "json"]));
    assert!(!found.iter().any(|f| f.ends_with(":solo")), "{found:?}");
    // Each hub's own conflict (lab-b against lab-a) is still found, once per hub.
    for hub in ["hub-a", "hub-b", "hub-c"] {
        assert!(found.contains(&format!("{hub}:lab-b")), "{found:?}");
    }
    // The control: the holder on hub-b too makes solo a conflict there.
    put_pool(
        &hubs,
        1,
        &running,
        "owner",
        "10.99.0.1",
        running["status"].clone(),
    );
    let found = vip_in_use(&report(&["doctor", "-A", "--all-contexts", "-o", "json"]));
    assert!(found.contains(&"hub-b:solo".to_owned()), "{found:?}");
}

/// Across hubs nothing is changed anywhere unless every hub's checks pass: hub-c's user may
/// not patch (a viewer), so hub-a's pool stays as it was though hub-a allows it. A context
/// named before the command is never widened by --all-contexts after it.
#[test]
fn one_hub_that_may_not_change_anything_stops_every_hub() {
    let hubs = Hubs::start("fleet");
    // hub-c's context signs in as its viewer.
    let text = std::fs::read_to_string(&hubs.kubeconfig).expect("kubeconfig");
    let admin = &hubs.cluster(2).admin_token;
    let viewer = &hubs.cluster(2).viewer_token;
    assert!(text.contains(admin.as_str()));
    std::fs::write(&hubs.kubeconfig, text.replace(admin.as_str(), viewer)).expect("written");
    let (code, out, err) = hubs.run(&[
        "pause",
        "llm-train",
        "-n",
        "ml-research",
        "--context",
        "hub-a",
        "--context",
        "hub-c",
    ]);
    assert_eq!(code, Some(1), "{out}\n{err}");
    assert!(
        err.contains("not permitted in context hub-c")
            && err.contains("nothing was changed on any hub"),
        "{err}"
    );
    assert!(
        !hubs.paused(0, "ml-research", "llm-train"),
        "hub-a unchanged"
    );
    assert!(
        !hubs.paused(2, "ml-research", "llm-train"),
        "hub-c unchanged"
    );
    let (code, _, err) = hubs.run(&[
        "--context",
        "hub-a",
        "pause",
        "llm-train",
        "-n",
        "ml-research",
        "--all-contexts",
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("name the hubs in one place"), "{err}");
    assert_eq!(hubs.writes()[1], 0, "hub-b never asked");
}

/// What cannot name one hub each is refused before any hub is asked: a kubeconfig naming a
/// context twice, two contexts reaching one server as one user. A name some hubs lack is
/// said for those hubs. A sorted list is sorted in every output.
#[test]
fn hubs_are_named_once_and_what_they_lack_is_said() {
    let hubs = Hubs::start("fleet");
    let text = std::fs::read_to_string(&hubs.kubeconfig).expect("kubeconfig");
    // hub-b's context renamed hub-a: two contexts of one name.
    let twice = hubs.kubeconfig.with_file_name("twice.kubeconfig");
    std::fs::write(
        &twice,
        text.replace(
            "- name: \"hub-b\"\n  context:",
            "- name: \"hub-a\"\n  context:",
        ),
    )
    .expect("written");
    let (code, _, err) = pooldeck(&twice, &["get", "pools", "-A", "--all-contexts"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("names the context \"hub-a\" twice"), "{err}");
    // hub-c's context pointed at hub-a's cluster and user: one hub under two names.
    let same = hubs.kubeconfig.with_file_name("same.kubeconfig");
    std::fs::write(
        &same,
        text.replace(
            "    cluster: \"hub-c\"\n    user: \"hub-c\"",
            "    cluster: \"hub-a\"\n    user: \"hub-a\"",
        ),
    )
    .expect("written");
    let (code, _, err) = pooldeck(
        &same,
        &["pause", "llm-train", "-n", "ml-research", "--all-contexts"],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("the contexts hub-a and hub-c reach the same hub"),
        "{err}"
    );
    assert_eq!(hubs.writes(), vec![0, 0, 0], "nothing was sent");
    // hub-b's pools gone (llm-train with them): printed where it is, NotFound where not.
    let store = &hubs.cluster(1).store;
    let pools = store
        .registry
        .by_kind("ComputePool")
        .cloned()
        .expect("pools");
    store.purge(|r| r.kind != pools.kind);
    let (code, out, err) = hubs.run(&[
        "get",
        "pools",
        "llm-train",
        "-n",
        "ml-research",
        "--all-contexts",
    ]);
    assert_eq!(code, Some(1), "{out}\n{err}");
    assert!(out.contains("hub-a ") && out.contains("hub-c "), "{out}");
    assert!(err.contains("\"llm-train\" not found on hub-b"), "{err}");
    let (code, _, err) = hubs.run(&["doctor", "llm-train", "-n", "ml-research", "--all-contexts"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("not found on hub-b"), "{err}");
    // One hub's whole list as JSON, sorted as asked (not streamed in the server's order).
    let (code, out, err) = hubs.run(&[
        "get",
        "pools",
        "-A",
        "--context",
        "hub-a",
        "--sort-by",
        ".metadata.name",
        "-o",
        "json",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let names: Vec<String> = json(&out)["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|i| i["metadata"]["name"].as_str().map(str::to_owned))
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    assert_eq!(names.len(), 12);
}

/// `record --all-contexts` records every hub at once into one file, a document per hub
/// naming it; `demo serve --replay` serves each document as its own hub under its context.
#[test]
fn several_hubs_recorded_into_one_file_are_served_as_several() {
    let hubs = Hubs::start_stories(["vip-conflict", "gpu-quota", "fleet"]);
    let file = hubs.dir.path().join("hubs-recorded.yaml");
    let file_text = file.to_string_lossy().into_owned();
    let (code, _, err) = hubs.run(&[
        "record",
        "--all-contexts",
        "-A",
        "--duration",
        "2s",
        "--output",
        &file_text,
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("3 hubs"), "{err}");
    let text = std::fs::read_to_string(&file).expect("the recording");
    for hub in ["hub-a", "hub-b", "hub-c"] {
        assert!(
            text.contains(&format!("hub: {hub}")),
            "{hub} named in its document"
        );
    }
    let served = common::serve_args(&["--replay", &file_text]);
    let (code, out, err) = pooldeck(
        &served.kubeconfig,
        &["get", "pools", "-A", "--all-contexts"],
    );
    assert_eq!(code, Some(0), "{err}");
    let on = |hub: &str, pool: &str| {
        out.lines()
            .any(|l| l.starts_with(&format!("{hub} ")) && l.contains(&format!(" {pool} ")))
    };
    assert!(
        on("hub-a", "lab-b") && on("hub-b", "big-train") && on("hub-c", "llm-train"),
        "{out}"
    );
    assert!(
        !on("hub-b", "lab-b") && !on("hub-a", "big-train"),
        "each hub its own: {out}"
    );
}

/// `get --watch` across hubs prints each hub's changed rows with the hub: a pause on hub-b
/// shows on hub-b's row, never on another hub's pool of the same name.
#[test]
fn watch_across_hubs_names_the_hub_of_each_change() {
    use std::io::BufRead;
    let hubs = Hubs::start("fleet");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("pooldeck"))
        .arg("--kubeconfig")
        .arg(&hubs.kubeconfig)
        .args([
            "get",
            "pools",
            "-n",
            "ml-research",
            "--all-contexts",
            "--watch",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("get --watch runs");
    let stdout = child.stdout.take().expect("stdout");
    let (lines, read) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let mut seen: Vec<String> = Vec::new();
    let wait_for = |what: &str, test: &dyn Fn(&str) -> bool, seen: &mut Vec<String>| loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match read.recv_timeout(left) {
            Ok(line) => {
                let hit = test(&line);
                seen.push(line);
                if hit {
                    return;
                }
            }
            Err(_) => panic!("waited for {what}; printed:\n{}", seen.join("\n")),
        }
    };
    let row = |hub: &str, line: &str| {
        line.starts_with(&format!("{hub} ")) && line.contains(" llm-train ")
    };
    wait_for("hub-b's first picture", &|l| row("hub-b", l), &mut seen);
    let (code, _, err) = hubs.run(&[
        "pause",
        "llm-train",
        "-n",
        "ml-research",
        "--context",
        "hub-b",
    ]);
    assert_eq!(code, Some(0), "{err}");
    wait_for(
        "hub-b's llm-train paused",
        &|l| row("hub-b", l) && l.contains(" yes "),
        &mut seen,
    );
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        !seen.iter().any(|l| row("hub-a", l) && l.contains(" yes ")),
        "hub-a's pool of the same name is not paused:\n{}",
        seen.join("\n")
    );
}
