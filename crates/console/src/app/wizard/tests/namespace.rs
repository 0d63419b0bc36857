//! The namespace is part of the draft: shown, chosen among the Projects' namespaces or typed,
//! and every cluster-aware choice and check follows it, a namespace the console does not
//! watch being watched as well.

use super::*;
use crate::app::ports::Namespaces;
use crate::app::script::{forget_returned, returned, update};
use crate::inventory::SourceEvent;

fn settings_ref(app: &App) -> Vec<String> {
    said_on(app, "Settings", 0)
}

#[test]
fn choosing_the_namespace_changes_the_choices_and_the_checks() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char('n')));
    assert_eq!(wizard(&app).draft.namespace(), "ml-research");
    to_field(&mut app, "Namespace", 0);
    let line = wizard(&app).lines()[wizard(&app).cursor];
    let offered: Vec<String> = wizard(&app)
        .choices(&line)
        .expect("namespaces offered")
        .iter()
        .map(|(n, _)| n.clone())
        .collect();
    assert_eq!(
        offered,
        ["ml-research", "retail-edge", "vision-lab"],
        "the Projects'"
    );

    // Settings named in ml-research, where it exists: nothing to say.
    to_step(&mut app, Step::Deployment);
    set_field(&mut app, "Settings", 0, "palette-settings");
    assert!(settings_ref(&app).is_empty(), "{:?}", settings_ref(&app));

    // Space moves the pool to retail-edge: its references follow, and retail-edge has no
    // Settings, so the same name is now an error that says what is there.
    to_step(&mut app, Step::General);
    to_field(&mut app, "Namespace", 0);
    update(&mut app, key(KeyCode::Char(' ')));
    let w = wizard(&app);
    assert_eq!(w.draft.namespace(), "retail-edge");
    assert_eq!(
        w.draft.pool["spec"]["profileBundleRef"]["namespace"],
        "retail-edge"
    );
    to_step(&mut app, Step::Deployment);
    let said = settings_ref(&app);
    assert!(
        said.iter()
            .any(|m| m.contains("no Settings named palette-settings in retail-edge")),
        "{said:?}"
    );
    to_field(&mut app, "Settings", 0);
    let line = wizard(&app).lines()[wizard(&app).cursor];
    assert_eq!(wizard(&app).choices(&line).map(<[_]>::len), Some(0));

    // Typed back: the error goes.
    to_step(&mut app, Step::General);
    set_field(&mut app, "Namespace", 0, "ml-research");
    assert_eq!(wizard(&app).draft.namespace(), "ml-research");
    to_step(&mut app, Step::Deployment);
    assert!(settings_ref(&app).is_empty(), "{:?}", settings_ref(&app));
    to_step(&mut app, Step::General);

    // A name the API refuses is not taken: the field stays open and says why.
    set_field(&mut app, "Namespace", 0, "Bad_NS");
    assert_eq!(wizard(&app).draft.namespace(), "ml-research");
    assert!(wizard(&app).editing.is_some());
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("is not a namespace name")),
        "{:?}",
        app.message
    );
}

#[test]
fn a_namespace_the_console_does_not_watch_is_watched_for_the_checks() {
    let mut app = fleet_app();
    app.namespaces = Namespaces::Only(vec!["vision-lab".into()]);
    update(&mut app, key(KeyCode::Char('n')));
    forget_returned();
    set_field(&mut app, "Namespace", 0, "ml-research");
    assert_eq!(
        app.namespaces,
        Namespaces::Only(vec!["vision-lab".into(), "ml-research".into()])
    );
    assert!(
        returned()
            .iter()
            .any(|e| matches!(e, Effect::Watch(n) if *n == app.namespaces)),
        "{:?}",
        returned()
    );
    assert!(app.fleet.connection.scope.contains("ml-research"));
    // Until the watch answers, a reference cannot be checked: a warning, not an error.
    to_step(&mut app, Step::Deployment);
    set_field(&mut app, "Settings", 0, "palette-settings");
    let w = wizard(&app);
    assert!(
        !w.findings
            .iter()
            .any(|f| f.rule.severity == Severity::Error
                && f.path.to_string().contains("settingsRef")),
        "{:#?}",
        w.findings
    );
    assert!(
        settings_ref(&app)
            .iter()
            .any(|m| m.contains("still loading")),
        "{:?}",
        settings_ref(&app)
    );
    // The namespace's Settings arrive: the wizard checks again on its own.
    let settings = serde_json::json!({"apiVersion": "spectrocloud.com/v1alpha1", "kind": "Settings",
        "metadata": {"name": "palette-settings", "namespace": "ml-research"}});
    update(
        &mut app,
        Msg::Sources(vec![(
            0,
            SourceEvent::listed(Kind::Settings, Some("ml-research".into()), vec![settings]),
        )]),
    );
    assert!(settings_ref(&app).is_empty(), "{:?}", settings_ref(&app));
    assert!(app.overlays.len() == 1, "the wizard stays open");

    // Another namespace typed: it replaces the first one added, it does not pile up.
    to_step(&mut app, Step::General);
    set_field(&mut app, "Namespace", 0, "retail-edge");
    assert_eq!(
        app.namespaces,
        Namespaces::Only(vec!["vision-lab".into(), "retail-edge".into()])
    );
    // The wizard closed: the console's own namespaces again.
    forget_returned();
    update(&mut app, key(KeyCode::Esc));
    assert!(app.overlays.is_empty());
    let own = Namespaces::Only(vec!["vision-lab".into()]);
    assert_eq!(app.namespaces, own);
    assert!(
        returned()
            .iter()
            .any(|e| matches!(e, Effect::Watch(n) if *n == own)),
        "{:?}",
        returned()
    );
    assert!(
        app.message.as_deref().is_some_and(
            |m| m.contains("its draft is kept") && m.contains("watching vision-lab again")
        ),
        "{:?}",
        app.message
    );
}

#[test]
fn the_wizard_alone_watches_its_own_namespace_when_refused_every_namespace() {
    let mut app = fleet_app();
    app.wizard_only = true;
    assert_eq!(app.namespaces, Namespaces::All);
    app.start_wizard(crate::app::ask::Start::Draft(Box::new(
        crate::domain::draft::Draft::new("vision-lab"),
    )));
    forget_returned();
    let refused = SourceEvent::State {
        kind: Kind::Pool,
        scope: None,
        state: crate::inventory::SourceState::Forbidden {
            message: "cannot list computepools at the cluster scope".into(),
        },
    };
    update(&mut app, Msg::Sources(vec![(0, refused.clone())]));
    let narrowed = Namespaces::Only(vec!["vision-lab".into()]);
    assert_eq!(app.namespaces, narrowed);
    assert!(
        returned()
            .iter()
            .any(|e| matches!(e, Effect::Watch(n) if *n == narrowed))
    );
    assert!(
        app.fleet.inventory.health().next().is_none(),
        "the refusal belongs to the old watch: not applied"
    );
    // Once: a refusal in the narrowed watch is the picture's, not a reason to move again.
    forget_returned();
    update(&mut app, Msg::Sources(vec![(0, refused)]));
    assert!(!returned().iter().any(|e| matches!(e, Effect::Watch(_))));
}
