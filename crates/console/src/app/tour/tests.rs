use crate::app::{App, Effect, View};
use crate::domain::Kind;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::*;
use crate::app::script::{forget_returned, take_returned, update};
use crate::app::tests::scenario_app;
use crate::app::{Msg, Overlay};

fn key(app: &mut App, code: KeyCode) {
    update(app, Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

fn press(app: &mut App, c: char) {
    key(app, KeyCode::Char(c));
}

fn command(app: &mut App, text: &str) {
    press(app, ':');
    for c in text.chars() {
        press(app, c);
    }
    key(app, KeyCode::Enter);
}

/// The console on a chapter's scenario with the tour on that chapter (1-based), its story
/// loaded.
fn touring(chapter: usize) -> App {
    let mut app = scenario_app(CHAPTERS[chapter - 1].scenario);
    app.demo = true;
    app.tour = Some(Tour::new(chapter, &Progress::default()));
    let now = app.now;
    update(&mut app, Msg::Tick(now));
    app
}

/// Moves the cursor to the row of the pool `namespace/name` on the list shown.
fn select(app: &mut App, at: &str) {
    let (namespace, name) = at.split_once('/').expect("namespace/name");
    press(app, 'g');
    for _ in 0..app.shown.len() {
        let here = app.shown.row(app.list.selected).expect("a row");
        if here.id.namespace.as_str() == namespace && here.id.name.as_str() == name {
            return;
        }
        press(app, 'j');
    }
    panic!("no row for {at}");
}

/// The pool deleted on the hub, as its watch brings the news.
fn gone(app: &mut App, namespace: &str, name: &str) {
    deleted(app, Kind::Pool, namespace, name);
}

/// An AIWorkload deleted on the hub, as its watch brings the news.
fn workload_gone(app: &mut App, namespace: &str, name: &str) {
    deleted(app, Kind::AIWorkload, namespace, name);
}

fn deleted(app: &mut App, kind: Kind, namespace: &str, name: &str) {
    let object = app
        .fleet
        .inventory
        .get(kind, namespace, name)
        .map(|o| o.value().as_ref().clone())
        .unwrap_or_else(|| panic!("{kind:?} {namespace}/{name} is held"));
    update(
        app,
        Msg::Sources(vec![(
            0,
            crate::inventory::SourceEvent::Deleted { kind, object },
        )]),
    );
}

fn step(app: &App) -> (usize, usize) {
    let tour = app.tour.as_ref().expect("touring");
    (tour.chapter, tour.step)
}

/// Every chapter plays a built-in scenario, and every pool its steps name is in it: a step
/// the scenario cannot satisfy would hold the tour for ever. The pools read on Diagnose have
/// a finding of the doctor there to read.
#[test]
fn each_chapter_plays_a_builtin_scenario_with_the_pools_its_steps_name() {
    assert_eq!(CHAPTERS.len(), 8);
    for (n, chapter) in CHAPTERS.iter().enumerate() {
        let app = scenario_app(chapter.scenario);
        assert!(!chapter.steps.is_empty(), "chapter {}", n + 1);
        for step in chapter.steps {
            let named = match step.done {
                Done::Opened(at, _)
                | Done::VipMovedFrom(at, _)
                | Done::Gone(at)
                | Done::WorkloadsGone(at)
                | Done::FinalizerAsked(at)
                | Done::EventSeen(at, _) => Some(at),
                Done::Viewing(view, _) => {
                    assert!(View::named(view).is_some(), "{view}");
                    None
                }
                Done::Copied(_) => None,
            };
            if let Some(at) = named {
                assert!(
                    app.fleet
                        .inventory
                        .get(Kind::Pool, at.namespace, at.name)
                        .is_some(),
                    "chapter {} ({}) names {at:?}, which its scenario lacks",
                    n + 1,
                    chapter.scenario
                );
            }
            if let Done::Opened(at, Some(Tab::Diagnose)) = step.done {
                let id = crate::domain::ObjectRef::new(Kind::Pool, at.namespace, at.name);
                assert!(
                    !app.fleet.doctor.findings(&id).is_empty(),
                    "chapter {}: the doctor finds nothing on {at:?}",
                    n + 1
                );
            }
            if let Done::VipMovedFrom(at, old) = step.done {
                let vip = app
                    .fleet
                    .inventory
                    .get(Kind::Pool, at.namespace, at.name)
                    .and_then(|o| o.pool())
                    .and_then(|p| p.vip().map(str::to_owned));
                assert_eq!(vip.as_deref(), Some(old), "the step starts undone");
            }
        }
    }
}

/// The first chapter played by keys: keys that do not do the step leave it waiting; each step
/// done moves the caption on; `?` shows the answer; `]` waits for the chapter to be done,
/// which is kept, and then loads the next chapter's scenario.
#[test]
fn the_tour_moves_on_only_when_the_step_is_done() {
    let mut app = touring(1);
    assert_eq!(step(&app), (0, 0));
    // Wrong turns: another pool opened, a view, a tab on it.
    select(&mut app, "factory/edge-expansion");
    key(&mut app, KeyCode::Enter);
    press(&mut app, '2');
    assert_eq!(step(&app), (0, 0), "another pool's detail is not the step");
    key(&mut app, KeyCode::Esc);
    press(&mut app, ']');
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("finish this chapter first")),
        "{:?}",
        app.message
    );
    assert_eq!(step(&app), (0, 0));
    // `?` shows the answer, and again hides it.
    press(&mut app, '?');
    assert!(app.tour.as_ref().is_some_and(|t| t.answer));
    assert!(app.overlays.is_empty(), "the tour's ? opens no help");
    press(&mut app, '?');
    assert!(app.tour.as_ref().is_some_and(|t| !t.answer));
    press(&mut app, '?');
    // The step: new-gpu-pool opened.
    select(&mut app, "factory/new-gpu-pool");
    key(&mut app, KeyCode::Enter);
    assert_eq!(step(&app), (0, 1));
    assert!(
        app.tour.as_ref().is_some_and(|t| !t.answer),
        "a new step starts without its answer"
    );
    // The Hosts tab is not the Conditions tab.
    press(&mut app, '3');
    assert_eq!(step(&app), (0, 1));
    press(&mut app, '2');
    assert_eq!(step(&app), (0, 2));
    press(&mut app, '7');
    assert_eq!(step(&app), (0, 3));
    key(&mut app, KeyCode::Esc);
    select(&mut app, "factory/edge-expansion");
    forget_returned();
    key(&mut app, KeyCode::Enter);
    press(&mut app, '7');
    let tour = app.tour.clone().expect("touring");
    assert!(tour.chapter_done());
    let kept: Vec<Progress> = take_returned()
        .into_iter()
        .filter_map(|e| match e {
            Effect::SaveTour(progress) => Some(progress),
            _ => None,
        })
        .collect();
    assert_eq!(
        kept,
        vec![Progress {
            chapter: 1,
            done: [1].into_iter().collect()
        }],
        "the chapter done is kept"
    );
    assert_eq!(
        kept[0].start(),
        2,
        "a tour started again opens the next one"
    );
    // `]`: the next chapter's scenario loads; nothing is checked until it is there.
    press(&mut app, ']');
    let asked = take_returned();
    assert!(
        asked.contains(&Effect::PlayScenario("vip-conflict".to_owned())),
        "{asked:?}"
    );
    assert_eq!(step(&app), (1, 0));
    assert!(app.tour.as_ref().is_some_and(|t| t.loading));
    assert!(app.detail.is_none());
    // An answer for another story (a chapter left while it loaded) is dropped.
    update(
        &mut app,
        Msg::Played {
            scenario: "stuck-provisioning".to_owned(),
            result: Ok(("stuck-provisioning".to_owned(), "old".to_owned())),
        },
    );
    assert!(app.tour.as_ref().is_some_and(|t| t.loading));
    forget_returned();
    update(
        &mut app,
        Msg::Played {
            scenario: "vip-conflict".to_owned(),
            result: Ok(("vip-conflict".to_owned(), "the story".to_owned())),
        },
    );
    assert!(app.tour.as_ref().is_some_and(|t| !t.loading));
    // The watch starts again on every namespace: the old story's objects go with the old
    // watch, whatever was watched before.
    assert!(
        take_returned().contains(&Effect::Watch(crate::app::ports::Namespaces::All)),
        "the picture starts over"
    );
    assert_eq!(app.fleet.inventory.count(Kind::Pool), 0);
    assert_eq!(
        app.story.as_ref().map(|(name, _)| name.as_str()),
        Some("vip-conflict")
    );
}

/// A fix is a step done only once the demo says it is: the VIP moved (not the wizard opened,
/// not the dialog confirmed); a pool gone once its deletion completes.
#[test]
fn a_fix_is_done_when_the_hub_shows_it() {
    let mut app = touring(2);
    select(&mut app, "labs/lab-b");
    key(&mut app, KeyCode::Enter);
    press(&mut app, '7');
    assert_eq!(step(&app), (1, 1));
    key(&mut app, KeyCode::Esc);
    press(&mut app, 'e');
    assert!(matches!(app.overlay(), Some(Overlay::Wizard(_))));
    assert_eq!(step(&app), (1, 1));
    // lab-b recreated with another VIP, as the hub then shows it.
    let mut moved = app
        .fleet
        .inventory
        .get(Kind::Pool, "labs", "lab-b")
        .map(|o| o.value().as_ref().clone())
        .expect("lab-b");
    moved["spec"]["clusterVariant"]["dedicated"]["paletteClusterDeploymentConfig"]["edge"]["vip"] =
        "10.80.0.99".into();
    moved["metadata"]["resourceVersion"] = "999999".into();
    update(
        &mut app,
        Msg::Sources(vec![(
            0,
            crate::inventory::SourceEvent::Applied {
                kind: Kind::Pool,
                object: moved,
            },
        )]),
    );
    assert!(app.tour.as_ref().is_some_and(Tour::chapter_done));

    let mut app = touring(5);
    assert_eq!(step(&app), (4, 0));
    select(&mut app, "vision-lab/stuck-pool");
    key(&mut app, KeyCode::Enter);
    press(&mut app, '7');
    assert_eq!(step(&app), (4, 1));
    workload_gone(&mut app, "vision-lab", "stale-job");
    assert_eq!(step(&app), (4, 2), "the AIWorkload gone is step 1 done");
    press(&mut app, 'u');
    assert!(app.tour.as_ref().is_some_and(Tour::chapter_done));
}

/// A fix made before the steps that lead to it ends the chapter: the steps before it can
/// no longer be done (stuck-pool's finding is gone with stuck-pool).
#[test]
fn a_fix_made_first_is_the_chapter_done() {
    let mut app = touring(5);
    assert_eq!(step(&app), (4, 0));
    gone(&mut app, "vision-lab", "stuck-pool");
    assert!(app.tour.as_ref().is_some_and(Tour::chapter_done));
}

/// What is copied counts only when the copy succeeded.
#[test]
fn a_copy_counts_once_it_is_made() {
    let mut app = touring(6);
    select(&mut app, "retail-east/store-114");
    key(&mut app, KeyCode::Enter);
    press(&mut app, '7');
    assert_eq!(step(&app), (5, 1));
    forget_returned();
    press(&mut app, 'c');
    assert_eq!(step(&app), (5, 1), "asked, not yet copied");
    let what = take_returned()
        .into_iter()
        .find_map(|e| match e {
            Effect::Copy { what, .. } => Some(what),
            _ => None,
        })
        .expect("c copies");
    update(
        &mut app,
        Msg::Copied {
            what: what.clone(),
            result: Err(crate::app::said::CopyError::Terminal(
                "no terminal".to_owned(),
            )),
        },
    );
    assert_eq!(step(&app), (5, 1), "a copy that failed is not done");
    update(
        &mut app,
        Msg::Copied {
            what,
            result: Ok(crate::app::said::CopiedBy::Terminal),
        },
    );
    assert!(app.tour.as_ref().is_some_and(Tour::chapter_done));
}

/// `:chapter N` jumps to any chapter; `:chapter` lists them; a chapter that is not one is
/// refused with the list; `:reset` starts the chapter again (its steps too); `:help` opens
/// the help the tour's `?` no longer does; the footer offers the tour's `?`, not the help's.
#[test]
fn chapters_jump_reset_and_the_keys_say_so() {
    let mut app = touring(1);
    assert!(app.hints().contains("? answer"), "{}", app.hints());
    assert!(!app.hints().contains("? help"), "{}", app.hints());
    forget_returned();
    command(&mut app, "chapter 7");
    assert!(take_returned().contains(&Effect::PlayScenario("air-gapped-host".to_owned())));
    assert_eq!(step(&app), (6, 0));
    command(&mut app, "chapter 9");
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("no chapter \"9\"") && m.contains("8 nvidia-runtime")),
        "{:?}",
        app.message
    );
    assert_eq!(step(&app), (6, 0));
    command(&mut app, "chapter");
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.starts_with("chapters: 1 stuck-provisioning, 2 vip-conflict")),
        "{:?}",
        app.message
    );
    let mut app = touring(1);
    select(&mut app, "factory/new-gpu-pool");
    key(&mut app, KeyCode::Enter);
    assert_eq!(step(&app), (0, 1));
    forget_returned();
    command(&mut app, "reset");
    assert!(take_returned().contains(&Effect::PlayScenario("stuck-provisioning".to_owned())));
    assert_eq!(step(&app), (0, 0));
    command(&mut app, "help");
    assert!(matches!(app.overlay(), Some(Overlay::Help { .. })));
    // Without a tour, `:chapter` says how to start one.
    let mut app = scenario_app("fleet");
    command(&mut app, "chapter 2");
    assert!(
        app.message.as_deref().is_some_and(|m| m.contains("--tour")),
        "{:?}",
        app.message
    );
}

/// The progress file reads what it writes; anything else is refused, not guessed at; a tour
/// with every chapter done starts again at the first.
#[test]
fn progress_reads_what_it_writes_and_refuses_the_rest() {
    let progress = Progress {
        chapter: 3,
        done: [1, 2].into_iter().collect(),
    };
    assert_eq!(Progress::read(&progress.to_text()), Ok(progress.clone()));
    assert_eq!(progress.start(), 3);
    for bad in [
        "",
        "chapter 0\n",
        "chapter 9\n",
        "chapter two\n",
        "chapter 2\ndone 1 12\n",
        "chapter 2\nrm -rf /\n",
        "\u{1b}]52;c;aGk=\u{7}",
    ] {
        let refused = Progress::read(bad);
        assert!(refused.is_err(), "{bad:?} read as {refused:?}");
        if let Err(why) = refused {
            assert!(
                !why.to_string().contains('\u{1b}'),
                "the file's text is inert: {why:?}"
            );
        }
    }
    let all = Progress {
        chapter: 8,
        done: (1..=8).collect(),
    };
    assert_eq!(all.start(), 1);
    // The chapter open last, unless it is done: then the next one not done, round to the
    // first.
    let some = Progress {
        chapter: 7,
        done: [1, 7, 8].into_iter().collect(),
    };
    assert_eq!(some.start(), 2);
    let open = Progress {
        chapter: 1,
        done: [2].into_iter().collect(),
    };
    assert_eq!(open.start(), 1, ":chapter 1 then quit: chapter 1 again");
}

/// Chapters 3 to 8 played by the keys their captions name (the demo's answers to a fix
/// stand in as the watch would bring them): each step moves on only when done, and each
/// chapter ends done.
#[test]
fn chapters_three_to_eight_by_their_captions_keys() {
    // 3: big-train's finding, then the projects.
    let mut app = touring(3);
    select(&mut app, "team-b/big-train");
    key(&mut app, KeyCode::Enter);
    press(&mut app, '7');
    assert_eq!(step(&app), (2, 1));
    key(&mut app, KeyCode::Esc);
    command(&mut app, "projects");
    assert!(app.tour.as_ref().is_some_and(Tour::chapter_done));

    // 4: the evaluations, the pool's Scaling tab from there, its events.
    let mut app = touring(4);
    command(&mut app, "evaluations");
    assert_eq!(step(&app), (3, 1));
    key(&mut app, KeyCode::Enter);
    assert_eq!(
        app.detail.as_ref().map(|d| d.tab),
        Some(Tab::Scaling),
        "an evaluation opens on Scaling"
    );
    assert_eq!(step(&app), (3, 2));
    press(&mut app, '5');
    assert_eq!(
        step(&app),
        (3, 2),
        "the tab open, the decision not made yet"
    );
    update(
        &mut app,
        Msg::Sources(vec![(
            0,
            crate::inventory::SourceEvent::Applied {
                kind: Kind::Event,
                object: serde_json::json!({
                    "apiVersion": "v1",
                    "kind": "Event",
                    "metadata": {"name": "my-compute-pool.1", "namespace": "my-project-namespace"},
                    "involvedObject": {
                        "kind": "ComputePool",
                        "namespace": "my-project-namespace",
                        "name": "my-compute-pool"
                    },
                    "reason": "ScalingUp",
                    "type": "Normal",
                    "message": "Adding 1 node(s): GPU target 8 -> 12",
                    "lastTimestamp": "2026-11-30T12:00:00Z"
                }),
            },
        )]),
    );
    assert!(app.tour.as_ref().is_some_and(Tour::chapter_done));

    // 5: the finding, then u offers the unblock behind a confirmation; done when gone.
    let mut app = touring(5);
    select(&mut app, "vision-lab/stuck-pool");
    key(&mut app, KeyCode::Enter);
    press(&mut app, '7');
    assert_eq!(step(&app), (4, 1));
    press(&mut app, 'u');
    assert!(matches!(app.overlay(), Some(Overlay::Confirm(_))));
    assert_eq!(step(&app), (4, 1), "a dialog open is not the fix");
    key(&mut app, KeyCode::Esc);
    workload_gone(&mut app, "vision-lab", "stale-job");
    assert_eq!(step(&app), (4, 2));
    gone(&mut app, "vision-lab", "stuck-pool");
    assert!(app.tour.as_ref().is_some_and(Tour::chapter_done));

    // 7: the hosts, then Diagnose.
    let mut app = touring(7);
    select(&mut app, "plant-7/line-3-vision");
    key(&mut app, KeyCode::Enter);
    press(&mut app, '3');
    assert_eq!(step(&app), (6, 1));
    press(&mut app, '7');
    assert!(app.tour.as_ref().is_some_and(Tour::chapter_done));

    // 8: warnings only on the events, then the pool's finding.
    let mut app = touring(8);
    command(&mut app, "events");
    assert_eq!(step(&app), (7, 0), "all events are not the warnings");
    press(&mut app, 'w');
    assert_eq!(step(&app), (7, 1));
    command(&mut app, "pools");
    select(&mut app, "ml-edge/gpu-inference");
    key(&mut app, KeyCode::Enter);
    press(&mut app, '7');
    let tour = app.tour.clone().expect("touring");
    assert!(tour.chapter_done());
    // The last chapter: no next one; the ones not done are named.
    press(&mut app, ']');
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("last chapter") && m.contains("not done yet: 1, 2")),
        "{:?}",
        app.message
    );
}

/// A story that cannot load is said in the caption and the footer, and nothing is checked
/// against the picture left; `:chapter N` asks again.
#[test]
fn a_chapter_that_cannot_load_says_so_and_checks_nothing() {
    let mut app = touring(1);
    command(&mut app, "chapter 2");
    update(
        &mut app,
        Msg::Played {
            scenario: "vip-conflict".to_owned(),
            result: Err(crate::app::failed::StoryError::NoDemo),
        },
    );
    let tour = app.tour.clone().expect("touring");
    assert_eq!(
        tour.failed.as_deref(),
        Some("the console is not on the demo cluster")
    );
    assert!(tour.loading, "no check runs on the old story's objects");
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("cannot load") && m.contains(":chapter N")),
        "{:?}",
        app.message
    );
    forget_returned();
    command(&mut app, "chapter 2");
    assert!(take_returned().contains(&Effect::PlayScenario("vip-conflict".to_owned())));
    assert!(app.tour.as_ref().is_some_and(|t| t.failed.is_none()));
}

/// Read-only mode sends no fix: a step that waits for one can be read, not done, and `]`
/// goes on without it (said in the caption); a step that only reads still waits.
#[test]
fn read_only_lets_a_fix_step_be_passed_over_not_done() {
    let mut app = touring(2);
    app.fleet.read_only_why = Some("read-only for this test".into());
    app.fleet.read_only_why = Some("--readonly".to_owned());
    press(&mut app, ']');
    assert_eq!(
        step(&app),
        (1, 0),
        "a step that reads waits, read-only or not"
    );
    select(&mut app, "labs/lab-b");
    key(&mut app, KeyCode::Enter);
    press(&mut app, '7');
    assert_eq!(step(&app), (1, 1));
    assert!(
        app.tour
            .as_ref()
            .is_some_and(|t| t.stuck_read_only(app.read_only()))
    );
    assert!(app.hints().contains("] next chapter"), "{}", app.hints());
    forget_returned();
    press(&mut app, ']');
    assert!(take_returned().contains(&Effect::PlayScenario("gpu-quota".to_owned())));
    let tour = app.tour.clone().expect("touring");
    assert!(!tour.done.contains(&1), "passed over is not done");
}

/// While touring the help explains the tour's `?`, not the list's: a key is explained once,
/// as it is read.
#[test]
fn the_help_explains_each_key_as_it_is_read() {
    let app = touring(1);
    let help = crate::app::commands::help(&app.scopes_behind());
    let question: Vec<&String> = help
        .iter()
        .flat_map(|(_, lines)| lines.iter())
        .filter(|(keys, _)| keys == "?")
        .map(|(_, what)| what)
        .collect();
    assert_eq!(question.len(), 1, "{question:?}");
    assert!(question[0].contains("answer"), "{question:?}");
}
