//! Typing as a person does: lists and mappings over several lines (labels, annotations,
//! resource groups, taints, SSH keys), a line with no shape refused with its number, and a
//! paste that goes into the open field and never acts as keys.

use super::*;
use crate::app::script::update;

#[test]
fn lists_and_mappings_are_typed_over_several_lines() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char('n')));
    set_field(&mut app, "Labels", 0, "team=ml\nenvironment=production");
    set_field(&mut app, "Description", 0, "Two A100 pools");
    set_field(&mut app, "Annotations", 0, "owner=ml-platform-team");
    let pool = &wizard(&app).draft.pool;
    assert_eq!(pool["metadata"]["labels"]["team"], "ml");
    assert_eq!(pool["metadata"]["labels"]["environment"], "production");
    assert_eq!(pool["metadata"]["annotations"]["owner"], "ml-platform-team");
    assert_eq!(
        pool["metadata"]["annotations"]["spectrocloud.com/description"], "Two A100 pools",
        "the description is another field's and stays"
    );
    // A line with no = is refused with its number; the editor stays open with the text.
    to_field(&mut app, "Labels", 0);
    update(&mut app, key(KeyCode::Enter));
    update(&mut app, key(KeyCode::Enter));
    typed(&mut app, "broken");
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)),
    );
    assert!(wizard(&app).editing.is_some());
    assert!(
        app.message.as_deref().is_some_and(|m| m.contains("line 3")),
        "{:?}",
        app.message
    );
    update(&mut app, key(KeyCode::Esc));
    assert_eq!(wizard(&app).draft.pool["metadata"]["labels"]["team"], "ml");

    to_step(&mut app, Step::NodeConfig);
    set_field(
        &mut app,
        "Worker groups",
        0,
        "palette.ai=true\ngpu-enabled=true",
    );
    update(&mut app, key(KeyCode::Char('a')));
    set_field(
        &mut app,
        "Taints",
        0,
        "workload-type=gpu-intensive:NoSchedule",
    );
    set_field(&mut app, "Labels", 0, "workload-type=gpu-training");
    let worker = &wizard(&app).draft.pool["spec"]["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]
        ["nodePoolRequirements"]["workerPools"][0];
    assert_eq!(worker["taints"][0]["effect"], "NoSchedule");
    assert_eq!(worker["labels"]["workload-type"], "gpu-training");
    // The Compute of ml-research tags no host gpu-enabled: said on the group's key.
    let said: Vec<String> = wizard(&app)
        .findings
        .iter()
        .map(|f| format!("{} {}", f.path, f.message))
        .collect();
    assert!(
        said.iter()
            .any(|m| m.contains("workerResourceGroups.gpu-enabled")
                && m.contains("no worker in Compute is tagged palette.ai.rg/gpu-enabled")),
        "{said:?}"
    );

    to_step(&mut app, Step::Deployment);
    set_field(
        &mut app,
        "SSH keys",
        0,
        "ssh-ed25519 AAAAC3Nza one@example.com\nssh-rsa AAAAB3Nza two@example.com",
    );
    let keys = wizard(&app)
        .draft
        .get(&YamlPath::keys(
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.sshKeys",
        ))
        .cloned();
    assert_eq!(
        keys,
        Some(serde_json::json!([
            "ssh-ed25519 AAAAC3Nza one@example.com",
            "ssh-rsa AAAAB3Nza two@example.com"
        ]))
    );
}

#[test]
fn a_paste_goes_into_the_field_and_never_acts_as_keys() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char('n')));
    to_step(&mut app, Step::Deployment);
    let before = wizard(&app).draft.clone();
    // No field open: a pasted "dx" must neither dry-run nor remove anything.
    update(&mut app, Msg::Paste("dx\n".into()));
    assert_eq!(wizard(&app).draft, before);
    assert!(app.message.as_deref().is_some_and(|m| m.contains("paste")));
    to_field(&mut app, "SSH keys", 0);
    update(&mut app, key(KeyCode::Enter));
    update(
        &mut app,
        Msg::Paste("ssh-ed25519 AAAA one\r\nssh-ed25519 BBBB two\n".into()),
    );
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)),
    );
    let keys = wizard(&app)
        .draft
        .get(&YamlPath::keys(
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.sshKeys",
        ))
        .and_then(Value::as_array)
        .map(Vec::len);
    assert_eq!(keys, Some(2));
}

#[test]
fn errors_come_and_go_while_typing_and_esc_puts_the_value_back() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char('n')));
    set_field(&mut app, "Compute pool name", 0, "good");
    assert_eq!(errors_on(&app, "Compute pool name", 0), 0);
    to_field(&mut app, "Compute pool name", 0);
    update(&mut app, key(KeyCode::Enter));
    // An underscore: the error is there before Enter...
    typed(&mut app, "_x");
    assert!(wizard(&app).editing.is_some(), "still typing");
    assert!(
        errors_on(&app, "Compute pool name", 0) > 0,
        "{:#?}",
        wizard(&app).findings
    );
    // ...and gone as it is erased, still before Enter.
    update(&mut app, key(KeyCode::Backspace));
    update(&mut app, key(KeyCode::Backspace));
    assert_eq!(errors_on(&app, "Compute pool name", 0), 0);
    typed(&mut app, "-two");
    assert_eq!(wizard(&app).draft.pool["metadata"]["name"], "good-two");
    // Esc drops what was typed: the name as it was before.
    update(&mut app, key(KeyCode::Esc));
    assert!(wizard(&app).editing.is_none());
    assert_eq!(wizard(&app).draft.pool["metadata"]["name"], "good");

    // Text that cannot be read as labels yet: said on the field while typed.
    to_field(&mut app, "Labels", 0);
    update(&mut app, key(KeyCode::Enter));
    typed(&mut app, "team");
    let said = said_on(&app, "Labels", 0);
    assert!(said.iter().any(|m| m.contains("has no =")), "{said:?}");
    typed(&mut app, "=ml");
    assert!(said_on(&app, "Labels", 0).is_empty());
    assert_eq!(wizard(&app).draft.pool["metadata"]["labels"]["team"], "ml");
}
