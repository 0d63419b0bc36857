//! What the console does before its loop: the demo started, the hubs connected, the
//! namespaces chosen, the App made (with the wizard or the tour it opens on) and the
//! terminal taken; and what it does after, each thing stopped.

use std::process::ExitCode;
use std::sync::Arc;

use chrono::Utc;

use super::connect::{Hubs, connect_all};
use super::port::{self, KubePort};
use super::terminal::Screen;
use super::turns::{End, event_loop};
use super::{ConsoleOptions, HANGUP, WizardStart, drafts::kept_drafts, tour};
use crate::app::ask::Start;
use crate::app::hub::HubState;
use crate::app::ports::{ClusterPort, Namespaces};
use crate::app::tour::{Progress, Tour};
use crate::app::{App, Connection};
use crate::demo::scenario::Scenario;
use crate::demo::{DemoCluster, Options};
use crate::domain::draft::{Aim, Draft};
use crate::sources::connection::Connection as Connected;
use crate::sources::connection::{Target, context_names, kubeconfig_of, server_of, user_of};

/// The tour the console opens on: its chapter, the kept progress, and why that could not
/// be read.
pub type Touring = (usize, Progress, Option<String>);

/// The console: opened, run until it ends, and closed; the exit status.
pub async fn console(
    mut options: ConsoleOptions,
    scenario: Option<Scenario>,
    tour: Option<Touring>,
) -> ExitCode {
    if let Some((_, _, Some(warning))) = &tour {
        options.warnings.push(warning.clone());
    }
    let (demo, story, target) = match start_demo(scenario, &options).await {
        Ok(started) => started,
        Err(code) => return code,
    };
    let Hubs {
        connection,
        offline,
        home,
        draft,
        others,
        namespaces,
    } = match connect_all(&target, &options, demo.is_some()).await {
        Ok(hubs) => hubs,
        Err(code) => return code,
    };
    let app = new_app(
        &mut options,
        connection.as_ref(),
        &target,
        &namespaces,
        (home, demo.as_ref()),
    );
    let (events, mut sources) = tokio::sync::mpsc::channel(crate::sources::watch::QUEUE);
    let (mut app, port, kube) = match &connection {
        Some(connection) => kube_port(
            app, &options, connection, &target, others, namespaces, events,
        ),
        None => {
            let why = offline.clone().unwrap_or_default();
            (
                app,
                Arc::new(port::OfflinePort { why }) as Arc<dyn ClusterPort>,
                None,
            )
        }
    };
    if let Some(start) = &options.wizard {
        app = open_wizard(app, start, draft, offline);
    }
    let mut screen = match Screen::enter(options.basic_colours) {
        Ok(s) => s,
        Err(e) => {
            crate::say::complain!("pooldeck: cannot open the terminal: {e}");
            return ExitCode::from(1);
        }
    };
    app.demo = demo.is_some();
    app.story = story;
    if let Some((chapter, progress, _)) = &tour {
        app = start_tour(app, *chapter, progress);
    }
    let result = event_loop(
        demo.as_ref(),
        &mut app,
        &options.theme,
        &mut screen,
        port,
        &mut sources,
        options.acting.settings.clipboard,
    )
    .await;
    screen.close(matches!(result, Err(End::Signal(HANGUP))));
    if let Some(kube) = kube {
        kube.stop();
    }
    if let Some(cluster) = demo {
        cluster.stop().await;
    }
    if let Some(parting) = app.parting.take() {
        crate::say::say!("{parting}");
    }
    exit_status(result)
}

/// The console's exit status: a signal's is the conventional 128 + its number.
fn exit_status(result: Result<(), End>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(End::Signal(signal)) => ExitCode::from(u8::try_from(128 + signal).unwrap_or(1)),
        Err(End::Failed(e)) => {
            crate::say::complain!("pooldeck: {e}");
            ExitCode::from(1)
        }
    }
}

/// The demo started on a loopback port when a scenario is asked for (the console reaches it
/// through the same kubeconfig and kube client as any hub): the demo, its story, and the
/// target to connect to.
async fn start_demo(
    scenario: Option<Scenario>,
    options: &ConsoleOptions,
) -> Result<(Option<DemoCluster>, Option<(String, String)>, Target), ExitCode> {
    let Some(scenario) = scenario else {
        return Ok((None, None, options.target.clone()));
    };
    let story = (scenario.name.clone(), scenario.description.clone());
    let story_timeline = scenario.frozen.is_some().then(|| scenario.timeline.clone());
    let pace = crate::demo::pace::Pace::default_for(&scenario.name);
    let cluster = DemoCluster::start(Options {
        scenario: Some(scenario),
        speed: options.speed,
        pace,
        ..Options::default()
    })
    .await
    .map_err(|e| {
        crate::say::complain!("pooldeck: cannot start the demo cluster: {e}");
        ExitCode::from(1)
    })?;
    // A bundle's timelines are kept again for the hub that serves it, as a replay's are.
    if let Some(timeline) = story_timeline {
        crate::timeline::carry::carry_in(&cluster.url(), &timeline);
    }
    // The demo's kubeconfig holds its admin token: it stays in memory, never in a file.
    let target = Target {
        kubeconfig: None,
        context: None,
        inline: Some(cluster.kubeconfig()),
    };
    Ok((Some(cluster), Some(story), target))
}

/// A hub's connection as the header shows it.
fn connection_of(context: String, at: &Target, namespaces: &Namespaces) -> Connection {
    Connection {
        context,
        server: server_of(at).unwrap_or_default(),
        user: user_of(at).unwrap_or_default(),
        scope: namespaces.words(),
        kubeconfig: kubeconfig_of(at),
    }
}

/// The App of the first hub, with the session's settings, the drafts left behind and what
/// the console says as it opens.
fn new_app(
    options: &mut ConsoleOptions,
    connection: Option<&Connected>,
    target: &Target,
    namespaces: &Namespaces,
    (home, demo): (String, Option<&DemoCluster>),
) -> App {
    let context = connection.map_or_else(|| "(no cluster)".to_owned(), |c| c.context.clone());
    // On a support bundle the console's clock starts when it was taken.
    let now = demo
        .and_then(DemoCluster::bundle_taken_at)
        .unwrap_or_else(Utc::now);
    let mut app = App::new(connection_of(context, target, namespaces), now);
    app.namespaces = namespaces.clone();
    app.namespaces_asked = options.namespaces.is_some();
    app.fleet.home_namespace = home;
    app.contexts = context_names(target);
    options
        .warnings
        .extend(options.acting.settings.about_contexts(&app.contexts));
    app.favourites = options.acting.settings.favourites.clone();
    // The drafts wizards left behind (crash, hangup, Ctrl-C, Esc): `n` and `e` offer them.
    app.drafts = kept_drafts(crate::drafts::MOST);
    if !options.warnings.is_empty() {
        app.message = Some(options.warnings.join("; "));
    }
    app
}

/// The cluster port of a console with a cluster: every hub watched through kube.
fn kube_port(
    app: App,
    options: &ConsoleOptions,
    connection: &Connected,
    target: &Target,
    others: Vec<(Target, Connected)>,
    namespaces: Namespaces,
    events: port::Sink,
) -> (App, Arc<dyn ClusterPort>, Option<Arc<KubePort>>) {
    let kube = KubePort::new(
        connection.client.clone(),
        target.clone(),
        &connection.context,
        options.acting.clone(),
        events,
    );
    let app = watch_hubs(app, options, &kube, connection, others, namespaces);
    (app, kube.clone(), Some(kube))
}

/// Every hub watched through the port: the first hub's read-only reason set, the others
/// made hubs of the fleet.
fn watch_hubs(
    mut app: App,
    options: &ConsoleOptions,
    kube: &KubePort,
    connection: &Connected,
    others: Vec<(Target, Connected)>,
    namespaces: Namespaces,
) -> App {
    app.fleet.read_only_why = options.acting.why_read_only(&connection.context);
    if !others.is_empty() {
        let mut parked = Vec::new();
        for (at, other) in others {
            parked.push(HubState {
                connection: connection_of(other.context.clone(), &at, &namespaces),
                read_only_why: options.acting.why_read_only(&other.context),
                home_namespace: other.default_namespace.clone(),
                ..HubState::default()
            });
            kube.add_hub(other.client, at, &other.context);
        }
        let first = std::mem::take(&mut *app.fleet);
        app.fleet = crate::app::fleet::Fleet::new(options.hubs.clone(), first, parked);
    }
    kube.watch(namespaces);
    app
}

/// `pooldeck new`: the console opens on the wizard (a kept draft resumed, or the draft) and
/// ends with it.
fn open_wizard(
    mut app: App,
    start: &WizardStart,
    draft: Option<Draft>,
    offline: Option<String>,
) -> App {
    app.offline = offline.clone();
    app.output = start.output.clone();
    app.wizard_only = true;
    match (start.resume.clone(), draft) {
        (Some(kept), _) if kept.saved.aim == Aim::Edit && offline.is_none() => {
            app.resuming = Some(kept);
            app.message = Some("reading the pool this edit's draft is for…".into());
        }
        // Without a cluster an edit's draft opens against itself: the rules check it and
        // `w` writes it; it stays an edit's draft.
        (Some(kept), _) if kept.saved.aim == Aim::Edit => {
            let pool = kept.saved.draft.pool.clone();
            app.start_wizard(Start::Resume(Box::new(kept), Some(pool)));
        }
        (Some(kept), _) => app.start_wizard(Start::Resume(Box::new(kept), None)),
        (None, Some(draft)) => app.start_wizard(Start::Draft(Box::new(draft))),
        (None, None) => {}
    }
    if let Some(why) = &offline {
        app.message = Some(format!(
            "no cluster ({why}): the rules still check; dry run and apply are unavailable"
        ));
    }
    app
}

/// The tour started at its chapter; where it is now is kept at once, so that a session that
/// ends starts here again.
fn start_tour(mut app: App, chapter: usize, progress: &Progress) -> App {
    let started = Tour::new(chapter, progress);
    if let Err(why) = tour::save(&started.progress()) {
        let said = format!("the tour's progress cannot be kept: {why}");
        app.message = Some(match app.message.take() {
            Some(before) => format!("{before}; {said}"),
            None => said,
        });
    }
    app.tour = Some(started);
    app
}
