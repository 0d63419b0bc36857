//! `pooldeck bundle`: every scenario's hub carried in one file and served back as it was
//! (kubectl and the doctor read the same pools and findings), secrets planted where they hide
//! (an annotation, a condition message, a log line, a Secret) never in it, and a user who may
//! not read the controller's log gets a partial bundle that says why.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::Path;

use serde_json::{Value, json};

mod common;
use common::{Served, kubectl, pooldeck_on, serve_args};

/// Every file of a bundle by name, as text.
fn files_of(bundle: &Path) -> BTreeMap<String, String> {
    let file = std::fs::File::open(bundle).expect("the bundle");
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let mut out = BTreeMap::new();
    for entry in archive.entries().expect("a tar.gz") {
        let mut entry = entry.expect("an entry");
        let name = entry.path().expect("a name").to_string_lossy().into_owned();
        assert_eq!(entry.header().mode().expect("a mode"), 0o600, "{name}");
        let mut text = String::new();
        entry.read_to_string(&mut text).expect("text");
        out.insert(name, text);
    }
    out
}

/// The findings of `doctor -o json` that do not depend on the hub's address: per pool, each
/// finding's id and severity (and, with `whole`, its summary and evidence).
fn findings(json: &str, whole: bool) -> Vec<Value> {
    let report: Value = serde_json::from_str(json).expect("doctor's JSON");
    let pools = report["pools"].as_array().cloned().unwrap_or_default();
    pools
        .iter()
        .map(|pool| {
            let each: Vec<Value> = pool["findings"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|f| {
                    if whole {
                        json!([f["id"], f["severity"], f["summary"], f["evidence"]])
                    } else {
                        json!([f["id"], f["severity"]])
                    }
                })
                .collect();
            json!([pool["namespace"], pool["name"], each])
        })
        .collect()
}

/// The pools kubectl lists, by namespace and name.
fn pools_listed(served: &Served) -> BTreeSet<(String, String)> {
    let (code, out, err) = kubectl(served, &["get", "cp", "-A", "-o", "json"]);
    assert_eq!(code, Some(0), "{err}");
    let list: Value = serde_json::from_str(&out).expect("a list");
    list["items"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            let text = |f: &str| p["metadata"][f].as_str().unwrap_or("").to_owned();
            (text("namespace"), text("name"))
        })
        .collect()
}

/// A log's lines without their times (a live demo dates them anew each time it is read).
fn untimed(log: &str) -> BTreeSet<String> {
    log.lines()
        .map(|l| l.split_once('\t').map_or(l, |(_, rest)| rest).to_owned())
        .collect()
}

#[test]
fn every_scenario_is_carried_and_served_back_as_it_was() {
    for (scenario, _) in pooldeck::demo::scenario::BUILTIN {
        let state = tempfile::tempdir().expect("state");
        let live = serve_args(&["--scenario", scenario, "--speed", "0.001"]);
        let (_, before, _) = pooldeck_on(&live, state.path(), &["doctor", "-A", "-o", "json"]);
        let bundle = state.path().join("b.tgz");
        let bundle_arg = bundle.to_string_lossy().into_owned();
        let (code, _, err) = pooldeck_on(&live, state.path(), &["bundle", "-A", "-o", &bundle_arg]);
        assert_eq!(code, Some(0), "{scenario}: {err}");
        let files = files_of(&bundle);
        let manifest: Value = serde_json::from_str(&files["manifest.json"]).expect("manifest");
        assert_eq!(manifest["complete"], true, "{scenario}: {manifest}");

        let served = serve_args(&["--bundle", &bundle_arg]);
        assert_eq!(pools_listed(&live), pools_listed(&served), "{scenario}");
        // The controller's lines, as kubectl shows them, are the live controller's.
        let pod = ["-n", "mural-system", "hue-controllers-6c9f8d7b5-x2k4p"];
        let (_, live_log, _) = kubectl(&live, &[&["logs"][..], &pod[..]].concat());
        let (code, served_log, err) = kubectl(&served, &[&["logs"][..], &pod[..]].concat());
        assert_eq!(code, Some(0), "{scenario}: {err}");
        assert!(!served_log.trim().is_empty(), "{scenario}: no log served");
        assert!(
            untimed(&served_log).is_subset(&untimed(&live_log)),
            "{scenario}: {served_log}\nlive:\n{live_log}"
        );
        // The doctor finds on the served bundle what it found on the live hub, and reads it
        // at the time it was taken: the bundle's own findings, word for word.
        let (_, after, err) = pooldeck_on(&served, state.path(), &["doctor", "-A", "-o", "json"]);
        assert_eq!(
            findings(&before, false),
            findings(&after, false),
            "{scenario}: {err}"
        );
        let carried = &files["hubs/pooldeck-demo/doctor.json"];
        assert_eq!(
            findings(carried, true),
            findings(&after, true),
            "{scenario}"
        );
        let (_, offline, _) = pooldeck_on(
            &served,
            state.path(),
            &["doctor", "--bundle", &bundle_arg, "-o", "json"],
        );
        assert_eq!(
            findings(carried, true),
            findings(&offline, true),
            "{scenario}"
        );
        // Nothing on it changes, whoever asks.
        let (code, _, err) = kubectl(&served, &["delete", "cp", "-A", "--all"]);
        assert_ne!(code, Some(0), "{scenario}: a served bundle took a delete");
        assert!(err.contains("served read-only"), "{scenario}: {err}");
        let (_, can, _) = kubectl(&served, &["auth", "can-i", "patch", "computepools"]);
        assert!(
            can.starts_with("no - this is a support bundle"),
            "{scenario}: {can}"
        );
        assert_eq!(pools_listed(&live), pools_listed(&served), "{scenario}");
    }
}

/// A story with secrets where they hide: a bearer token in an annotation, a password in a
/// condition message, a private key in another annotation, a token in a controller log line.
fn planted() -> String {
    let fleet = pooldeck::demo::scenario::Scenario::builtin("fleet").expect("fleet");
    let mut objects = fleet.objects.clone();
    let pool = objects
        .iter_mut()
        .find(|o| o["kind"] == "ComputePool" && o["metadata"]["name"] == "video-analytics")
        .expect("the pool");
    pool["metadata"]["annotations"] = json!({
        "example.com/how-to-reach": "curl -H 'Authorization: Bearer s3cr3tB3arer0123456789' https://registry",
        "example.com/signing": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqPLANTEDKEY\n-----END PRIVATE KEY-----",
    });
    let conditions = pool["status"]["conditions"]
        .as_array_mut()
        .expect("conditions");
    conditions[1]["message"] = json!(
        "Failed to deploy Palette cluster: registry login failed with password=hunter2planted"
    );
    json!({
        "name": "planted",
        "controller": {"logs": [
            {"at": "now-5m", "level": "ERROR", "pool": "vision-lab/video-analytics",
             "message": "pull failed: token=tok_PLANTED_9f8e7d from the registry"},
            {"at": "now-4m", "level": "DEBUG", "pool": "vision-lab/video-analytics",
             "message": "loaded key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCPLANTEDLOGKEY\nQ2hlY2tQTEFOVEVEMg==\n-----END RSA PRIVATE KEY-----"}
        ]},
        "timeline": {"vision-lab/video-analytics": [
            {"at": "2026-12-01T00:00:00Z", "clock": "hub", "source": "condition",
             "subject": "ClusterDeployed",
             "text": "ClusterDeployed False: registry said Bearer tlPLANTEDtoken42"}
        ]},
        "objects": objects,
    })
    .to_string()
}

#[test]
fn secrets_never_leave_in_a_bundle_and_each_place_is_listed() {
    let state = tempfile::tempdir().expect("state");
    let story = state.path().join("planted.json");
    std::fs::write(&story, planted()).expect("the story");
    // The server keeps the story's timelines for its hub; the bundle carries them.
    let live = common::serve_with_state(
        &["--replay", &story.to_string_lossy(), "--speed", "0.001"],
        state.path(),
    );
    // The demo serves Secrets, so a bundle that collected them would be caught.
    let (code, out, err) = kubectl(
        &live,
        &["get", "secrets", "-n", "mural-system", "-o", "json"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("hue-controllers-credentials"), "{out}");
    let bundle = state.path().join("b.tgz");
    let (code, _, err) = pooldeck_on(
        &live,
        state.path(),
        &[
            "bundle",
            "-A",
            "-o",
            &bundle.to_string_lossy(),
            "--redact",
            "no available edge hosts",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let mode = std::os::unix::fs::PermissionsExt::mode(
        &std::fs::metadata(&bundle).expect("written").permissions(),
    );
    assert_eq!(mode & 0o777, 0o600);
    let files = files_of(&bundle);
    let secret_b64 = base64_of(pooldeck::demo::logs::SECRET_VALUE);
    for (name, text) in &files {
        for secret in [
            "s3cr3tB3arer0123456789",
            "MIIEvQIBADANBgkqPLANTEDKEY",
            "hunter2planted",
            "tok_PLANTED_9f8e7d",
            "MIIEpAIBAAKCPLANTEDLOGKEY",
            "Q2hlY2tQTEFOVEVEMg==",
            "tlPLANTEDtoken42",
            pooldeck::demo::logs::SECRET_VALUE,
            &secret_b64,
            "\"kind\":\"Secret\"",
        ] {
            assert!(!text.contains(secret), "{secret} is in {name}");
        }
    }
    // What is around a secret still reads: a finding that reads the message still reads it.
    let pools = &files["hubs/pooldeck-demo/computepools.json"];
    assert!(
        pools.contains("registry login failed with password=REDACTED"),
        "{pools}"
    );
    let manifest: Value = serde_json::from_str(&files["manifest.json"]).expect("manifest");
    let places: Vec<String> = manifest["redactions"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| {
            format!(
                "{} | {}",
                r["place"].as_str().unwrap_or(""),
                r["what"].as_str().unwrap_or("")
            )
        })
        .collect();
    let listed = |part: &str| places.iter().any(|p| p.contains(part));
    assert!(
        listed(
            "computepools.json vision-lab/video-analytics .metadata.annotations[\"example.com/how-to-reach\"] | bearer"
        ),
        "{places:#?}"
    );
    assert!(
        listed(".metadata.annotations[\"example.com/signing\"] | private key"),
        "{places:#?}"
    );
    assert!(
        listed("video-analytics .status.conditions[1].message | password"),
        "{places:#?}"
    );
    assert!(listed("x2k4p.log | token"), "{places:#?}");
    assert!(listed("x2k4p.log | rsa private key"), "{places:#?}");
    assert!(
        listed("timelines.json [\"vision-lab/video-analytics\"][0].text | bearer"),
        "{places:#?}"
    );
    assert!(files.contains_key("hubs/pooldeck-demo/timelines.json"));
    assert!(listed("--redact pattern 1"), "{places:#?}");
    assert_eq!(
        manifest["redactionCount"].as_u64(),
        Some(places.len() as u64)
    );
    let listing = manifest.to_string();
    assert!(!listing.contains("hunter2planted") && !listing.contains("tok_PLANTED"));
}

fn base64_of(text: &str) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let bytes = text.as_bytes();
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[test]
fn a_reader_without_pod_logs_gets_a_partial_bundle_that_says_why() {
    let state = tempfile::tempdir().expect("state");
    let live = serve_args(&["--scenario", "fleet", "--speed", "0.001"]);
    let bundle = state.path().join("b.tgz");
    let (code, _, err) = pooldeck_on(
        &live,
        state.path(),
        &[
            "bundle",
            "--context",
            pooldeck::demo::READER_CONTEXT,
            "-n",
            "ml-research",
            "-o",
            &bundle.to_string_lossy(),
        ],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("partial"), "{err}");
    let files = files_of(&bundle);
    let manifest: Value = serde_json::from_str(&files["manifest.json"]).expect("manifest");
    assert_eq!(manifest["complete"], false);
    let sources = manifest["hubs"][0]["sources"].as_array().expect("sources");
    let log = sources
        .iter()
        .find(|s| {
            s["source"]
                .as_str()
                .is_some_and(|s| s.starts_with("log of pod"))
        })
        .expect("the log is a source");
    let why = log["error"].as_str().expect("why the log is missing");
    assert!(
        why.contains("not permitted") && why.contains("pods/log"),
        "{why}"
    );
    let pools = sources
        .iter()
        .find(|s| s["source"] == "computepools in ml-research")
        .expect("the pools");
    assert!(
        pools["count"].as_u64().unwrap_or(0) > 0 && pools.get("error").is_none(),
        "{pools}"
    );
    assert!(
        !files.keys().any(|f| f.contains("/logs/")),
        "{:?}",
        files.keys()
    );
}

#[test]
fn a_bundle_is_refused_before_the_hub_is_asked() {
    let state = tempfile::tempdir().expect("state");
    let live = serve_args(&["--scenario", "fleet", "--speed", "0.001"]);
    let out = state.path().join("b.tgz").to_string_lossy().into_owned();
    let (code, _, err) = pooldeck_on(
        &live,
        state.path(),
        &["bundle", "-A", "-o", &out, "--redact", "("],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--redact \"(\" is not a pattern"), "{err}");
    let (code, _, err) = pooldeck_on(&live, state.path(), &["bundle", "-A", "-o", "/dev/null"]);
    assert_eq!(code, Some(2), "{err}");
    let (code, _, err) = pooldeck_on(
        &live,
        state.path(),
        &["bundle", "-A", "-o", &out, "--no-redact", "--redact", "x"],
    );
    assert_eq!(code, Some(2), "{err}");
    // A bundle whose files are not what its manifest says is damaged, never half read.
    let (code, _, err) = pooldeck_on(&live, state.path(), &["bundle", "-A", "-o", &out]);
    assert_eq!(code, Some(0), "{err}");
    let mut files = files_of(Path::new(&out));
    files.insert(
        "hubs/pooldeck-demo/computepools.json".to_owned(),
        r#"{"apiVersion":"v1","kind":"List","items":[1,2]}"#.to_owned(),
    );
    let damaged = state.path().join("damaged.tgz");
    pack(&damaged, &files);
    let (code, _, err) = pooldeck_on(
        &live,
        state.path(),
        &["doctor", "--bundle", &damaged.to_string_lossy()],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("computepools.json holds 2 items where its manifest says"),
        "{err}"
    );
    files.remove("hubs/pooldeck-demo/computepools.json");
    pack(&damaged, &files);
    let (code, _, err) = pooldeck_on(
        &live,
        state.path(),
        &["doctor", "--bundle", &damaged.to_string_lossy()],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("listed in the manifest but missing"), "{err}");
    // A file that is not a bundle is said so, in the user's terms.
    let junk = state.path().join("junk.tgz");
    std::fs::write(&junk, "not a bundle").expect("junk");
    let (code, _, err) = pooldeck_on(
        &live,
        state.path(),
        &["doctor", "--bundle", &junk.to_string_lossy()],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("cannot read the bundle") && err.contains("not a pooldeck bundle"),
        "{err}"
    );
}

/// An archive of these files, as a bundle is packed.
fn pack(path: &Path, files: &BTreeMap<String, String>) {
    let out = std::fs::File::create(path).expect("the archive");
    let gz = flate2::write::GzEncoder::new(out, flate2::Compression::fast());
    let mut tar = tar::Builder::new(gz);
    for (name, text) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(text.len() as u64);
        header.set_mode(0o600);
        header.set_cksum();
        tar.append_data(&mut header, name, text.as_bytes())
            .expect("an entry");
    }
    tar.into_inner().expect("packed").finish().expect("written");
}

#[test]
fn the_console_opens_on_a_bundle_read_only_and_says_whose_and_when() {
    if !common::tmux::available() {
        return;
    }
    let state = tempfile::tempdir().expect("state");
    let live = serve_args(&["--scenario", "fleet", "--speed", "0.001"]);
    let bundle = state.path().join("b.tgz");
    let (code, _, err) = pooldeck_on(
        &live,
        state.path(),
        &["bundle", "-A", "-o", &bundle.to_string_lossy()],
    );
    assert_eq!(code, Some(0), "{err}");
    // Taken two days ago, as far as the console can tell: its clock starts then.
    let mut files = files_of(&bundle);
    let mut manifest: Value = serde_json::from_str(&files["manifest.json"]).expect("manifest");
    let taken = manifest["takenAt"].as_str().expect("taken at");
    let taken =
        chrono::DateTime::parse_from_rfc3339(taken).expect("a time") - chrono::TimeDelta::days(2);
    let taken = taken
        .to_utc()
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    manifest["takenAt"] = json!(taken);
    files.insert("manifest.json".to_owned(), manifest.to_string());
    pack(&bundle, &files);
    let command = format!(
        "env XDG_STATE_HOME={dir} XDG_CONFIG_HOME={dir} {binary} --bundle {bundle} -A; sleep 60",
        dir = state.path().display(),
        binary = assert_cmd::cargo::cargo_bin("pooldeck").display(),
        bundle = bundle.display(),
    );
    let name = format!("pooldeck-bundle-{}", std::process::id());
    let console = common::tmux::Session::start(name, &command, 160, 40);
    let screen = console.wait_for("video-analytics");
    assert!(
        screen.contains(&format!("READ-ONLY (bundle of pooldeck-demo taken {taken}")),
        "{screen}"
    );
    // Ages as they were then: llm-finetune, 17 days old on the live hub, was 15 days old.
    let row = screen
        .lines()
        .find(|l| l.contains("llm-finetune"))
        .unwrap_or_default();
    assert!(row.contains("15d") && !row.contains("17d"), "{row}");
    // A fix offered on it is refused before anything is sent.
    console.keys(&["p"]);
    console.wait("the refusal", |s| s.contains("nothing will be sent"));
}
