//! Rows kept per object: a change builds only the changed object's rows, and whatever the
//! changes, the view, the sort and the filter, the rows shown are those a build from scratch
//! shows.

use proptest::prelude::*;
use serde_json::{Value, json};

use crate::app::script::update;
use crate::app::tests::{applied, fixed_now, fleet_app};
use crate::app::{App, Msg, View};
use crate::domain::rules::{self, Severity};
use crate::inventory::{Kind, SourceEvent};
use crossterm::event::KeyCode;

fn objects(app: &App, kind: Kind) -> Vec<Value> {
    app.fleet
        .inventory
        .objects(kind)
        .map(|o| (*o.value()).clone())
        .collect()
}

/// What one hub's sources report.
fn send(app: &mut App, hub: usize, event: SourceEvent) {
    update(app, Msg::Sources(vec![(hub, event)]));
}

/// What the screen shows of the rows: each row's identity, cells and markers, in order.
fn shown(app: &App) -> Vec<String> {
    app.shown
        .window_rows()
        .map(|r| {
            format!(
                "{:?} {:?} {:?} {} {:?}",
                r.id, r.part, r.cells, r.broken, r.worst
            )
        })
        .collect()
}

#[test]
fn a_changed_pool_builds_only_its_own_row_and_keeps_the_selection() {
    let mut app = fleet_app();
    update(
        &mut app,
        Msg::Key(crossterm::event::KeyEvent::from(
            crossterm::event::KeyCode::Down,
        )),
    );
    let selected = app.list.selected_id.clone();
    let (builds, rows) = (app.shown.builds, app.shown.rows_built);
    let mut pool = (*app
        .fleet
        .inventory
        .get(Kind::Pool, "ml-research", "llm-train")
        .expect("llm-train")
        .value())
    .clone();
    pool["status"]["status"] = json!("Failed");
    pool["metadata"]["resourceVersion"] = json!("changed-1");
    applied(&mut app, Kind::Pool, pool);
    assert_eq!(app.shown.builds, builds, "nothing built from scratch");
    assert_eq!(app.shown.rows_built, rows + 1, "one pool, one row");
    assert_eq!(
        app.list.selected_id, selected,
        "the selection stays on its row"
    );
    let row = app
        .shown
        .window_rows()
        .find(|r| r.id.name == "llm-train")
        .expect("the row is shown");
    assert!(
        format!("{:?}", row.cells).contains("Failed"),
        "{:?}",
        row.cells
    );
    // An evaluation's change builds its pool's row again (utilization, scaling).
    let evaluation = objects(&app, Kind::Evaluation).remove(0);
    let rows = app.shown.rows_built;
    applied(&mut app, Kind::Evaluation, evaluation);
    assert_eq!(app.shown.rows_built, rows + 1);
    // An event touches no pool row.
    let rows = app.shown.rows_built;
    applied(
        &mut app,
        Kind::Event,
        json!({"metadata": {"namespace": "ml-research", "name": "e-1"}, "type": "Normal",
               "involvedObject": {"kind": "ComputePool", "name": "llm-train"}}),
    );
    assert_eq!(app.shown.rows_built, rows);
}

/// A console on all namespaces with the `large` fleet's 10,000 pools and their evaluations,
/// listed at `now`.
pub(crate) fn ten_thousand_pools(now: chrono::DateTime<chrono::Utc>) -> App {
    let mut app = App::new(
        crate::app::Connection {
            context: "test".into(),
            server: "https://127.0.0.1:6443".into(),
            user: "operator".into(),
            scope: "all namespaces".into(),
            kubeconfig: None,
        },
        now,
    );
    let (pools, evaluations) = crate::demo::large::large_fleet_at(10_000, now);
    update(
        &mut app,
        Msg::Sources(vec![(0, SourceEvent::listed(Kind::Pool, None, pools))]),
    );
    update(
        &mut app,
        Msg::Sources(vec![(
            0,
            SourceEvent::listed(Kind::Evaluation, None, evaluations),
        )]),
    );
    app
}

#[test]
fn an_idle_minute_builds_no_row_at_fleet_scale() {
    let now = fixed_now();
    let mut app = ten_thousand_pools(now);
    assert_eq!(app.shown.len(), 10_000);
    let (builds, rows) = (app.shown.builds, app.shown.rows_built);
    for second in 1..=60 {
        update(&mut app, Msg::Tick(now + chrono::Duration::seconds(second)));
    }
    assert_eq!(app.shown.builds, builds, "nothing built from scratch");
    assert_eq!(app.shown.rows_built, rows, "no row built in an idle minute");
    // One pool changing builds its row, and diagnoses it, alone.
    let mut pool = (*app
        .fleet
        .inventory
        .objects(Kind::Pool)
        .nth(5_000)
        .expect("a pool")
        .value())
    .clone();
    pool["metadata"]["labels"] = json!({"touched": "yes"});
    let diagnosed = app.fleet.doctor.diagnosed;
    applied(&mut app, Kind::Pool, pool);
    assert_eq!(app.shown.rows_built, rows + 1);
    assert_eq!(app.fleet.doctor.diagnosed, diagnosed + 1);
}

/// The pools view of 10,000 pools opens with a turn's rows (a pool's row is the costliest to
/// make), the rest in the next turns, ending in the order it had when made at once.
#[test]
fn ten_thousand_pools_open_a_turn_at_a_time() {
    let now = fixed_now();
    let mut app = ten_thousand_pools(now);
    assert_eq!(app.shown.len(), 10_000);
    let top = app.shown.row(0).map(|r| r.id.clone());
    let bottom = {
        let mut whole = ten_thousand_pools(now);
        update(&mut whole, key(KeyCode::Char('G')));
        whole.shown.row(9_999).map(|r| r.id.clone())
    };
    assert!(top.is_some() && bottom.is_some());
    for view in [":events", ":pools"] {
        for c in view.chars() {
            update(&mut app, key(KeyCode::Char(c)));
        }
        update(&mut app, key(KeyCode::Enter));
    }
    assert_eq!(app.list.view, View::POOLS);
    assert!(app.building(), "made over several turns");
    assert_eq!(
        app.shown.len(),
        super::build::POOL_ROWS_PER_TURN,
        "the first turn"
    );
    assert_eq!(app.shown.row(0).map(|r| r.id.clone()), top);
    let turns = finish_building(&mut app);
    assert_eq!(
        turns,
        (10_000 - super::build::POOL_ROWS_PER_TURN).div_ceil(super::build::POOL_ROWS_PER_TURN)
    );
    assert_eq!(app.shown.len(), 10_000);
    assert_eq!(app.shown.row(0).map(|r| r.id.clone()), top);
    update(&mut app, key(KeyCode::Char('G')));
    assert_eq!(app.shown.row(9_999).map(|r| r.id.clone()), bottom);
}

/// A filter's first key over 10,000 pools works out a turn's worth of rows' words and shows
/// the matches among them at once; the next turns work out the rest, and the list ends as a
/// filter over words all known: plain and inverted, with keys typed between turns.
#[test]
fn a_filters_words_are_worked_out_a_turn_at_a_time() {
    let now = fixed_now();
    let mut app = ten_thousand_pools(now);
    finish_building(&mut app);
    let every = every_row_whole(&app);
    let sorted_names = |mut names: Vec<String>| {
        names.sort();
        names
    };
    for filter in ["pool-00", "!pool-00"] {
        update(&mut app, key(KeyCode::Char('/')));
        // The first key that reads words (`!` alone leaves nothing out yet).
        let mut chars = filter.chars();
        for c in chars.by_ref() {
            update(&mut app, key(KeyCode::Char(c)));
            if c != '!' {
                break;
            }
        }
        assert!(
            app.building(),
            "{filter}: the rest of the words come in the next turns"
        );
        assert!(
            app.shown.len() <= super::order::FILL_PER_TURN,
            "{filter}: the first key shows matches among a turn's rows: {}",
            app.shown.len()
        );
        // A key between turns, the rest after.
        update(&mut app, Msg::Build);
        for c in chars {
            update(&mut app, key(KeyCode::Char(c)));
        }
        finish_building(&mut app);
        let (needle, invert) = match filter.strip_prefix('!') {
            Some(needle) => (needle, true),
            None => (filter, false),
        };
        let expected: Vec<String> = every
            .iter()
            .filter(|(row, _)| super::base::words_of(row).contains(needle) != invert)
            .map(|(row, _)| row.id.name.to_string())
            .collect();
        let shown: Vec<String> = app
            .shown
            .order
            .iter()
            .filter_map(|slot| {
                app.shown
                    .base
                    .owner(*slot)
                    .map(|(_, key)| key.1.to_string())
            })
            .collect();
        assert_eq!(app.shown.len(), expected.len(), "{filter}");
        assert_eq!(sorted_names(shown), sorted_names(expected), "{filter}");
        update(&mut app, key(KeyCode::Esc));
    }
}

/// The hosts of 10,000 pools: the list orders and lays out every host but holds whole only
/// the window around the selection, wherever it goes, whatever filters or sorts it; an idle
/// minute builds nothing.
#[test]
fn the_hosts_of_ten_thousand_pools_hold_only_the_window() {
    let now = fixed_now();
    let mut app = ten_thousand_pools(now);
    let hosts: usize = app
        .fleet
        .inventory
        .objects(Kind::Pool)
        .map(|pool| crate::inventory::Inventory::hosts_of(pool).len())
        .sum();
    assert!(hosts >= 50_000, "{hosts} hosts");
    let most = 2 * super::WINDOW_MARGIN + 1;
    let before = app.shown.rows_rebuilt;
    update(&mut app, key(KeyCode::Char(':')));
    for c in "hosts".chars() {
        update(&mut app, key(KeyCode::Char(c)));
    }
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(app.list.view, View::HOSTS);
    // The first turn's rows show at once (a pool's hosts are made together), the rest in
    // the next turns of the loop.
    assert!(app.building(), "made over several turns");
    let first = app.shown.len();
    assert!(
        (super::build::ROWS_PER_TURN..super::build::ROWS_PER_TURN + 16).contains(&first),
        "{first} rows in the first turn"
    );
    assert!(app.shown.held() <= most, "{} held", app.shown.held());
    let turns = finish_building(&mut app);
    assert!(
        (1..hosts.div_ceil(super::build::ROWS_PER_TURN)).contains(&turns),
        "{turns} turns"
    );
    assert_eq!(app.shown.len(), hosts);
    assert!(app.shown.held() <= most, "{} held", app.shown.held());
    let rebuilt = app.shown.rows_rebuilt - before;
    // The window's rows, and the other hosts of the last pool it reaches into.
    assert!(
        rebuilt <= most as u64 + 16,
        "{rebuilt} rows built again for the window"
    );
    // The last row, then the middle: the window follows.
    update(&mut app, key(KeyCode::Char('G')));
    assert_eq!(app.list.selected, hosts - 1);
    assert!(
        app.shown.row(hosts - 1).is_some(),
        "the selection's row is held"
    );
    assert!(app.shown.held() <= most);
    // A filter reads every row's words once; the next keystroke reads them kept.
    update(&mut app, key(KeyCode::Char('/')));
    update(&mut app, key(KeyCode::Char('a')));
    let after_first = app.shown.rows_rebuilt;
    update(&mut app, key(KeyCode::Char('i')));
    assert!(
        app.shown.rows_rebuilt - after_first <= most as u64,
        "a second keystroke builds the window's rows at most"
    );
    assert!(app.shown.held() <= most);
    update(&mut app, key(KeyCode::Esc));
    // A sort reads every row's value of its column once and holds no more than the window.
    update(&mut app, key(KeyCode::Char('s')));
    assert_ne!(app.list.sort_column, 0);
    assert!(app.shown.held() <= most, "{} held sorted", app.shown.held());
    // An idle minute builds nothing.
    let (built, rebuilt) = (app.shown.rows_built, app.shown.rows_rebuilt);
    for second in 1..=60 {
        update(&mut app, Msg::Tick(now + chrono::Duration::seconds(second)));
    }
    assert_eq!(
        (app.shown.rows_built, app.shown.rows_rebuilt),
        (built, rebuilt)
    );
    // A screen taller than the margin: the window reaches a screen on either side of the
    // selection, so every row drawn is held.
    let tall: u16 = 1500;
    update(
        &mut app,
        Msg::Resize {
            width: 200,
            height: tall,
        },
    );
    update(&mut app, key(KeyCode::Char('g')));
    let selected = app.list.selected;
    assert!(
        (selected..selected + usize::from(tall)).all(|i| app.shown.row(i).is_some()),
        "a screen's rows below the selection are held"
    );
}

fn key(code: KeyCode) -> Msg {
    Msg::Key(crossterm::event::KeyEvent::from(code))
}

/// Turns the loop until the view being made is made (as the console's loop does between
/// keys); how many turns it took.
fn finish_building(app: &mut App) -> usize {
    let mut turns = 0;
    while app.building() {
        assert!(turns < 100_000, "the view is never made");
        update(app, Msg::Build);
        turns += 1;
    }
    turns
}

/// One change to the fleet's objects.
#[derive(Clone, Debug)]
enum Change {
    Phase(usize, &'static str),
    Paused(usize, bool),
    DeletePool(usize),
    AddBack(usize),
    Evaluation(usize, i64),
    DeleteEvaluation(usize),
    Event(usize, i64, bool),
    /// A pool takes another's VIP (a conflict the rule markers show), or its own back.
    Vip(usize, usize),
    /// The pools listed again, those whose bit is set (the rest are gone), some in a page.
    Relist(u16, usize),
}

fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        (
            0..12usize,
            prop::sample::select(vec!["Running", "Failed", "Provisioning", "Deleting"])
        )
            .prop_map(|(i, p)| Change::Phase(i, p)),
        (0..12usize, any::<bool>()).prop_map(|(i, p)| Change::Paused(i, p)),
        (0..12usize).prop_map(Change::DeletePool),
        (0..12usize).prop_map(Change::AddBack),
        (0..8usize, -600i64..600).prop_map(|(i, s)| Change::Evaluation(i, s)),
        (0..8usize).prop_map(Change::DeleteEvaluation),
        (0..12usize, -600i64..600, any::<bool>()).prop_map(|(i, s, w)| Change::Event(i, s, w)),
        (any::<u16>(), 0..12usize).prop_map(|(m, p)| Change::Relist(m, p)),
        (0..12usize, 0..12usize).prop_map(|(i, j)| Change::Vip(i, j)),
    ]
}

fn play(app: &mut App, pools: &[Value], evaluations: &[Value], change: &Change, step: usize) {
    play_on(app, 0, pools, evaluations, change, step);
}

/// A change as one hub's sources report it.
fn play_on(
    app: &mut App,
    hub: usize,
    pools: &[Value],
    evaluations: &[Value],
    change: &Change,
    step: usize,
) {
    let apply = |app: &mut App, kind: Kind, object: Value| {
        send(app, hub, SourceEvent::Applied { kind, object });
    };
    let version = json!(format!("p-{step}"));
    match change {
        Change::Phase(i, phase) => {
            let mut pool = pools[*i].clone();
            pool["status"]["status"] = json!(phase);
            pool["metadata"]["resourceVersion"] = version;
            apply(app, Kind::Pool, pool);
        }
        Change::Paused(i, paused) => {
            let mut pool = pools[*i].clone();
            pool["metadata"]["labels"] =
                json!({crate::domain::model::pool::PAUSE_LABEL: paused.to_string()});
            pool["metadata"]["resourceVersion"] = version;
            apply(app, Kind::Pool, pool);
        }
        Change::Vip(i, j) => {
            let path = "/spec/clusterVariant/dedicated/paletteClusterDeploymentConfig/edge/vip";
            let mut pool = pools[*i].clone();
            if let (Some(vip), Some(slot)) =
                (pools[*j].pointer(path).cloned(), pool.pointer_mut(path))
            {
                *slot = vip;
            }
            pool["metadata"]["resourceVersion"] = version;
            apply(app, Kind::Pool, pool);
        }
        Change::Relist(mask, paged) => {
            let listed: Vec<Value> = pools
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, p)| p.clone())
                .collect();
            let (page, rest) = listed.split_at((*paged).min(listed.len()));
            let objects = |part: &[Value]| {
                part.iter()
                    .map(|p| crate::inventory::Object::new(Kind::Pool, p.clone()))
                    .collect()
            };
            send(
                app,
                hub,
                SourceEvent::Page {
                    kind: Kind::Pool,
                    scope: None,
                    objects: objects(page),
                },
            );
            send(
                app,
                hub,
                SourceEvent::Listed {
                    kind: Kind::Pool,
                    scope: None,
                    objects: objects(rest),
                },
            );
        }
        Change::DeletePool(i) => send(
            app,
            hub,
            SourceEvent::Deleted {
                kind: Kind::Pool,
                object: pools[*i].clone(),
            },
        ),
        Change::AddBack(i) => apply(app, Kind::Pool, pools[*i].clone()),
        Change::Evaluation(i, seconds) => {
            let mut evaluation = evaluations[*i % evaluations.len()].clone();
            let at = fixed_now() + chrono::Duration::seconds(*seconds);
            evaluation["metadata"]["creationTimestamp"] = json!(at.to_rfc3339());
            evaluation["metadata"]["resourceVersion"] = version;
            apply(app, Kind::Evaluation, evaluation);
        }
        Change::DeleteEvaluation(i) => send(
            app,
            hub,
            SourceEvent::Deleted {
                kind: Kind::Evaluation,
                object: evaluations[*i % evaluations.len()].clone(),
            },
        ),
        Change::Event(i, seconds, warning) => {
            let pool = &pools[*i];
            let at = fixed_now() + chrono::Duration::seconds(*seconds);
            apply(
                app,
                Kind::Event,
                json!({
                    "metadata": {"namespace": pool["metadata"]["namespace"],
                                 "name": format!("event-{}", step % 5),
                                 "resourceVersion": version},
                    "type": if *warning { "Warning" } else { "Normal" },
                    "reason": "Changed",
                    // Some are what the doctor reads in events, some are not.
                    "message": match step % 3 {
                        0 => "failed to create pod sandbox: no runtime for \"nvidia\" is configured".to_owned(),
                        1 => "the request exceeds the project's GPU quota".to_owned(),
                        _ => format!("step {step}"),
                    },
                    "lastTimestamp": at.to_rfc3339(),
                    "involvedObject": {"kind": "ComputePool", "name": pool["metadata"]["name"],
                                       "namespace": pool["metadata"]["namespace"]},
                }),
            );
        }
    }
}

/// The rows of the current view as a build of every row whole gives them (the store before
/// it held only a window): each hub's rows from the view's table, named in a HUB column when
/// several hubs are in view, marked from scratch, filtered by their words or labels and the
/// warnings toggle, sorted by the column's values and then naturally (events by time; hub,
/// namespace, name; the row's place in its object). Each row comes with its place in its
/// object's rows.
fn every_row_whole(app: &App) -> Vec<(crate::app::rows::Row, usize)> {
    use crate::app::view::Rows;
    let Rows::PerObject { table, .. } = app.list.view.rows else {
        panic!("a view made per object");
    };
    let mixed = app.fleet.mixed();
    let mut rows = Vec::new();
    let mut natural = Vec::new();
    for hub in 0..app.fleet.count() {
        let (Some(inventory), Some(doctor)) = (app.inventory_of(hub), app.doctor_of(hub)) else {
            continue;
        };
        let mut made = table(inventory, None, false).rows;
        if app.list.view.pools {
            super::marks::mark_rows(inventory, doctor, &mut made);
        }
        // Each row's natural place: its owner's rows are consecutive in the table.
        let mut previous: Option<(crate::inventory::Key, usize)> = None;
        for mut row in made {
            let owner = (row.id.namespace.clone(), row.id.name.clone());
            let index = match &previous {
                Some((key, n)) if *key == owner => n + 1,
                _ => 0,
            };
            previous = Some((owner.clone(), index));
            let time = match &row.object {
                crate::app::rows::Source::Object(o) if o.kind == Kind::Event => o.happened(),
                _ => None,
            };
            row.hub = hub;
            if mixed {
                row.cells
                    .insert(0, crate::app::rows::Cell::Text(app.fleet.name(hub).into()));
            }
            natural.push((time, hub, owner, index));
            rows.push(row);
        }
    }
    let columns = app.shown.columns().to_vec();
    let warning = app
        .list
        .view
        .warnings
        .and_then(|c| columns.iter().position(|x| *x == c));
    let filter =
        super::filter::Filter::parse(app.list.filter.trim()).expect("a filter that parses");
    let mut kept: Vec<(crate::app::rows::Row, _)> = rows
        .into_iter()
        .zip(natural)
        .filter(|(row, _)| {
            let warned = !app.list.warnings_only
                || warning.is_none_or(|c| {
                    matches!(
                        row.cells.get(c),
                        Some(crate::app::rows::Cell::Status(
                            crate::app::rows::Status::Event { warning: true, .. }
                        ))
                    )
                });
            warned
                && filter.keeps(Some(&super::base::words_of(row)), |key| {
                    row.object.label(key)
                })
        })
        .collect();
    let sorted = (app.list.sort_column > 0 && app.list.sort_column <= columns.len())
        .then(|| app.list.sort_column - 1);
    kept.sort_by(|(a, x), (b, y)| {
        sorted
            .map_or(std::cmp::Ordering::Equal, |c| {
                crate::app::rows::compare_by(a, b, c, app.list.sort_descending)
            })
            .then_with(|| x.cmp(y))
    });
    kept.into_iter()
        .map(|(row, (_, _, _, index))| (row, index))
        .collect()
}

/// The console's list against [`every_row_whole`]: the same rows in the same order (by their
/// hub, object and place in its rows outside the window), the window's rows whole and equal,
/// the same column widths (up to the store's limit of 255), no row held whole outside the
/// window, and the selection on a row of the window. A view made whole holds every row
/// (filtered out or not).
fn same_as_every_row_whole(app: &App) -> Result<(), TestCaseError> {
    let window = app.shown.window();
    prop_assert!(
        app.shown.is_empty() || window.contains(&app.list.selected),
        "the selection {} in the window {:?}",
        app.list.selected,
        window
    );
    if app.shown.base.whole {
        prop_assert_eq!(window, 0..app.shown.len());
        prop_assert!((0..app.shown.len()).all(|i| app.shown.row(i).is_some()));
        return Ok(());
    }
    let whole = every_row_whole(app);
    prop_assert_eq!(app.shown.len(), whole.len());
    for (i, (expected, index)) in whole.iter().enumerate() {
        let slot = app.shown.order[i];
        let owner = app
            .shown
            .base
            .owner(slot)
            .map(|(hub, key)| (hub, key.clone()));
        let place = owner
            .as_ref()
            .and_then(|o| app.shown.base.slots_of(o).iter().position(|s| *s == slot));
        prop_assert_eq!(
            (owner, place),
            (
                Some((
                    expected.hub,
                    (expected.id.namespace.clone(), expected.id.name.clone())
                )),
                Some(*index)
            ),
            "row {}",
            i
        );
        if window.contains(&i) {
            let row = app.shown.row(i);
            prop_assert!(row.is_some(), "row {} of the window is held", i);
            let row = row.expect("held");
            prop_assert_eq!(
                (
                    row.hub, &row.id, &row.part, &row.cells, row.broken, row.worst
                ),
                (
                    expected.hub,
                    &expected.id,
                    &expected.part,
                    &expected.cells,
                    expected.broken,
                    expected.worst
                ),
                "row {}",
                i
            );
        } else {
            prop_assert!(app.shown.row(i).is_none(), "row {} outside the window", i);
        }
    }
    prop_assert_eq!(app.shown.held(), window.len());
    let columns = app.shown.columns();
    let name = columns
        .iter()
        .position(|c| *c == crate::app::rows::column::NAME);
    let mut widths: Vec<u16> = columns
        .iter()
        .map(|c| c.header.chars().count() as u16)
        .collect();
    for (row, _) in &whole {
        for (i, cell) in row.cells.iter().enumerate() {
            let marked = (row.broken || row.worst.is_some()) && Some(i) == name;
            let width = (cell.width().min(255) as u16) + if marked { 2 } else { 0 };
            widths[i] = widths[i].max(width);
        }
    }
    prop_assert_eq!(&app.shown.widths, &widths);
    Ok(())
}

/// What a step may change besides the objects: the view, the sort and the filter.
#[derive(Clone, Debug)]
struct Settings {
    view: View,
    sort: usize,
    descending: bool,
    filter: &'static str,
}

fn settings() -> impl Strategy<Value = Settings> {
    (
        prop::sample::select(vec![
            View::POOLS,
            View::EVALUATIONS,
            View::HOSTS,
            View::EVENTS,
            View::PROBLEMS,
            View::PROJECTS,
        ]),
        0usize..10,
        any::<bool>(),
        prop::sample::select(vec![
            "",
            "ml",
            "!gpu",
            "run",
            "warn",
            "hub-b",
            "-l team",
            "-l !team",
            "-l controller.spectrocloud.com/pause=true",
        ]),
    )
        .prop_map(|(view, sort, descending, filter)| Settings {
            view,
            sort,
            descending,
            filter,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Whatever the changes on either of two hubs, the view, the sort and the filter (each
    /// changing mid-way), and where the selection is, the rows the console orders, holds and
    /// draws are those of every row built whole, with a window of a few rows (so most rows
    /// stand outside it); a change to the objects keeps a selection a key made on its row.
    #[test]
    fn the_window_shows_what_every_row_built_whole_shows(
        hubs in 1usize..=2,
        start in settings(),
        warnings in any::<bool>(),
        margin in 0usize..4,
        turn in prop::option::of(1usize..6),
        selections in prop::collection::vec(0usize..64, 24),
        steps in prop::collection::vec(
            (change(), 0usize..2, prop::option::weighted(0.2, settings()), any::<bool>()),
            1..24,
        ),
    ) {
        let mut app = if hubs == 2 {
            crate::app::fleet_tests::two_hubs()
        } else {
            fleet_app()
        };
        let pools = objects(&app, Kind::Pool);
        let evaluations = objects(&app, Kind::Evaluation);
        app.shown.margin = Some(margin);
        // A view made a few rows a turn: changes arrive while it is being made.
        app.shown.rows_per_turn = turn;
        let set = |app: &mut App, s: &Settings| {
            app.list.view = s.view;
            app.list.sort_column = s.sort;
            app.list.sort_descending = s.descending;
            app.list.filter = s.filter.to_owned();
            app.refresh();
        };
        app.list.warnings_only = warnings;
        set(&mut app, &start);
        finish_building(&mut app);
        same_as_every_row_whole(&app)?;
        for (step, (change, hub, settings, midway)) in steps.iter().enumerate() {
            if let Some(settings) = settings {
                set(&mut app, settings);
                // Midway: the change comes while the view is still being made.
                if !midway {
                    finish_building(&mut app);
                    same_as_every_row_whole(&app)?;
                }
            }
            // Until a key moves it, the selection stays on the first row (the lists arriving).
            let before = app.list.selected_id.clone().filter(|_| app.list.chosen);
            play_on(&mut app, hub % hubs, &pools, &evaluations, change, step);
            finish_building(&mut app);
            same_as_every_row_whole(&app)?;
            // The row a key selected, if the change left it in the list, is still selected.
            if let Some((hub, id, part)) = before.filter(|_| !app.shown.base.whole) {
                let still = every_row_whole(&app)
                    .iter()
                    .any(|(r, _)| r.hub == hub && r.id == id && r.part == part);
                if still {
                    let row = app.shown.row(app.list.selected);
                    prop_assert_eq!(
                        row.map(|r| (r.hub, &r.id, &r.part)),
                        Some((hub, &id, &part)),
                        "the selection follows its row after {:?}",
                        change
                    );
                }
            }
            // The selection moves, as keys move it.
            app.list.selected = selections[step] % app.shown.len().max(1);
            app.list.chosen = true;
            app.refresh();
            finish_building(&mut app);
            same_as_every_row_whole(&app)?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Whatever the changes, the rows shown (their order, cells and markers), the column
    /// widths and the selected row are those a build from scratch gives.
    #[test]
    fn rows_kept_per_object_are_the_rows_built_from_scratch(
        view in prop::sample::select(vec![View::POOLS, View::EVALUATIONS, View::HOSTS, View::EVENTS]),
        sort in 0usize..10,
        descending in any::<bool>(),
        filter in prop::sample::select(vec!["", "ml", "!gpu", "run", "warn"]),
        warnings in any::<bool>(),
        changes in prop::collection::vec(change(), 1..24),
    ) {
        let mut app = fleet_app();
        let pools = objects(&app, Kind::Pool);
        let evaluations = objects(&app, Kind::Evaluation);
        app.list.view = view;
        app.list.sort_column = sort;
        app.list.sort_descending = descending;
        app.list.filter = filter.to_owned();
        app.list.warnings_only = warnings;
        app.refresh();
        for (step, change) in changes.iter().enumerate() {
            play(&mut app, &pools, &evaluations, change, step);
            let kept = (shown(&app), app.shown.widths.clone(), app.list.selected_id.clone());
            // From scratch: no row or finding kept (a pool's own rules are kept with its
            // object, so its marker is checked against the whole rules below).
            app.shown.shape = None;
            app.refresh();
            let fresh = (shown(&app), app.shown.widths.clone(), app.list.selected_id.clone());
            prop_assert_eq!(kept, fresh, "after {:?}", change);
            // Each pool's rule marker is what every rule of the reference, run whole against
            // the fleet held, says of it.
            for row in app.shown.window_rows().filter(|_| app.list.view.pools) {
                let crate::app::rows::Source::Object(object) = &row.object else {
                    continue;
                };
                let Some(pool) = object.pool() else { continue };
                let context = app.fleet.inventory.context_of(object);
                let broken = rules::validate(pool, object.issues(), &context)
                    .iter()
                    .any(|f| f.severity() == Severity::Error);
                prop_assert_eq!(row.broken, broken, "{} after {:?}", &row.id.name, change);
            }
            // The findings kept per pool are those worked out from scratch.
            let mut doctor = crate::app::doctor::Doctor::default();
            doctor.update(&app.fleet.inventory, app.now);
            for pool in app.fleet.inventory.objects(Kind::Pool) {
                let id = crate::domain::ObjectRef::new(Kind::Pool, pool.namespace(), pool.name());
                prop_assert_eq!(app.fleet.doctor.findings(&id), doctor.findings(&id), "after {:?}", change);
            }
        }
    }
}

#[test]
fn starting_over_lets_go_of_the_old_pictures_objects_and_the_rows_made_from_them() {
    let mut app = fleet_app();
    update(&mut app, key(KeyCode::Char(':')));
    for c in "hosts".chars() {
        update(&mut app, key(KeyCode::Char(c)));
    }
    update(&mut app, key(KeyCode::Enter));
    while app.building() {
        update(&mut app, Msg::Build);
    }
    assert_eq!(app.list.view, View::HOSTS);
    assert!(!app.shown.is_empty(), "the hosts are shown");
    // The slots hold the pools their rows were made from.
    let pool = app
        .fleet
        .inventory
        .objects(Kind::Pool)
        .next()
        .map(std::sync::Arc::downgrade)
        .expect("a pool");
    app.start_over();
    assert!(
        pool.upgrade().is_none(),
        "an object of the old picture is still held after starting over"
    );
    assert_eq!(app.shown.len(), 0, "no row of the old picture is shown");
}
