//! The only place with tasks, channels and the terminal. It builds the async runtime (for
//! the console and for the one-shot commands), connects (or starts the demo cluster), starts
//! the watch sources through the cluster port, puts the terminal in raw mode on the
//! alternate screen, feeds keys, source events, the clock and the answers of effects into
//! `app::update`, runs the effects `update` leaves on tasks ([`port::execute`]), and draws
//! with `ui::render` once the queued messages are drained. Must not import `cli`.

mod clipboard;
mod drafts;
pub mod editor;
mod input;
pub use drafts::kept_drafts;
mod logs;
pub mod port;
mod terminal;
mod tour;

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use crossterm::event::{Event, KeyEventKind};

use crate::app::ask::Start;
use crate::app::failed::StoryError;
use crate::app::ports::{ClusterPort, Namespaces};
use crate::app::{App, Connection, Effect, Msg, update};
use crate::demo::scenario::Scenario;
use crate::demo::{DemoCluster, Options};
use crate::sources::connection::{Target, connect, server_of};
use crate::theme::Theme;

use self::input::{Input, Keys};
use self::port::KubePort;
use self::terminal::{Asked, Screen, Signals};

/// How to open the console.
#[derive(Clone, Debug)]
pub struct ConsoleOptions {
    pub target: Target,
    /// `None`: the context's namespace (or every namespace for the demo).
    pub namespaces: Option<Namespaces>,
    /// Open on the embedded demo cluster playing this scenario.
    pub demo: Option<String>,
    pub speed: f64,
    pub theme: Theme,
    /// Said in the console's footer once it opens (a broken settings file, say).
    pub warnings: Vec<String>,
    /// The terminal shows only the 16 basic colours.
    pub basic_colours: bool,
    /// Read-only mode, the settings file, the audit log.
    pub acting: port::Acting,
    /// `pooldeck new`: the console opens on the wizard and ends with it.
    pub wizard: Option<WizardStart>,
    /// `--tour`: the guided tour on the demo, from this chapter (1-based; `None`: where the
    /// kept progress says).
    pub tour: Option<Option<usize>>,
    /// Several hubs watched at once (the fleet view), by context: the first is the target's.
    /// Empty: one hub.
    pub hubs: Vec<String>,
}

/// How `pooldeck new` opens the wizard.
#[derive(Clone, Debug)]
pub struct WizardStart {
    /// The draft to start from (`--from FILE`); none: a new pool.
    pub draft: Option<crate::domain::draft::Draft>,
    /// The namespace asked for (`-n`); none: the file's, else the context's.
    pub namespace: Option<String>,
    /// Where Review's `w` writes the manifest (`-o FILE`).
    pub output: Option<std::path::PathBuf>,
    /// `--resume`: the kept draft the wizard opens on (an edit's once its pool is read).
    pub resume: Option<crate::app::drafts::Kept>,
}

/// The async runtime, or the exit status when it cannot start.
pub fn build() -> Result<tokio::runtime::Runtime, ExitCode> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| {
            crate::say::complain!("pooldeck: cannot start the runtime: {e}");
            ExitCode::from(1)
        })
}

/// Why the console cannot draw here, if it cannot: it needs a terminal on both standard
/// input and output, and one that can move the cursor.
pub fn terminal_problem() -> Option<String> {
    use std::io::IsTerminal;
    let hint = "for output to a file or a pipe use `pooldeck get pools -A` (or -o json); over \
                ssh, ask for a terminal with `ssh -t`";
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Some(format!(
            "the console needs a terminal, and standard input or output is not one; {hint}"
        ));
    }
    if std::env::var("TERM").is_ok_and(|t| t == "dumb") {
        return Some(format!(
            "the console cannot draw on TERM=dumb (it cannot move the cursor); set TERM to your \
             terminal's type (xterm-256color, say), or {hint}"
        ));
    }
    None
}

pub fn run(options: ConsoleOptions) -> ExitCode {
    // What was asked for is checked first: a scenario name misspelt is the error to report,
    // whatever the terminal.
    // The tour chooses the scenario: its chapter's.
    let tour = options.tour.map(|asked| {
        let (progress, warning) = tour::load();
        let chapter = asked.unwrap_or_else(|| progress.start());
        (chapter, progress, warning)
    });
    let demo = match &tour {
        Some((chapter, ..)) => crate::app::tour::CHAPTERS
            .get(chapter.saturating_sub(1))
            .map(|c| c.scenario.to_owned()),
        None => options.demo.clone(),
    };
    let scenario = match demo.as_deref().map(Scenario::builtin).transpose() {
        Ok(scenario) => scenario,
        Err(e) => {
            crate::say::complain!("pooldeck: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(problem) = terminal_problem() {
        crate::say::complain!("pooldeck: {problem}");
        return ExitCode::from(2);
    }
    let runtime = match build() {
        Ok(r) => r,
        Err(code) => return code,
    };
    let code = runtime.block_on(console(options, scenario, tour));
    // A task still waiting for an editor that did not end is not waited for.
    runtime.shutdown_timeout(EDITOR_GRACE);
    code
}

#[expect(clippy::too_many_lines, reason = "to be split: issue 48")]
async fn console(
    mut options: ConsoleOptions,
    scenario: Option<Scenario>,
    tour: Option<(usize, crate::app::tour::Progress, Option<String>)>,
) -> ExitCode {
    if let Some((_, _, Some(warning))) = &tour {
        options.warnings.push(warning.clone());
    }
    // The demo is a real server on a loopback port; the console reaches it through the same
    // kubeconfig and kube client as any hub.
    let mut demo = None;
    let mut story = None;
    let mut target = options.target.clone();
    if let Some(scenario) = scenario {
        story = Some((scenario.name.clone(), scenario.description.clone()));
        let pace = crate::demo::pace::Pace::default_for(&scenario.name);
        let cluster = match DemoCluster::start(Options {
            scenario: Some(scenario),
            speed: options.speed,
            pace,
            ..Options::default()
        })
        .await
        {
            Ok(c) => c,
            Err(e) => {
                crate::say::complain!("pooldeck: cannot start the demo cluster: {e}");
                return ExitCode::from(1);
            }
        };
        // The demo's kubeconfig holds its admin token: it stays in memory, never in a file.
        target = Target {
            kubeconfig: None,
            context: None,
            inline: Some(cluster.kubeconfig()),
        };
        demo = Some(cluster);
    }
    // `pooldeck new` works without a cluster: choices then come only from the file and the
    // rules, and apply is unavailable.
    let (connection, offline) = match connect(&target).await {
        Ok(c) => (Some(c), None),
        Err(e) if options.wizard.is_some() => (None, Some(e.to_string())),
        Err(e) => {
            crate::say::complain!("pooldeck: {e}");
            return ExitCode::from(1);
        }
    };
    let home = connection
        .as_ref()
        .map_or_else(|| "default".to_owned(), |c| c.default_namespace.clone());
    // `pooldeck new`: the draft's namespace is the one asked for, else the file's, else the
    // context's; the console watches it (with what -n or -A asked) so every check sees it.
    let draft = options.wizard.as_ref().map(|start| {
        let namespace = start
            .namespace
            .clone()
            .or_else(|| {
                start
                    .draft
                    .as_ref()
                    .map(|d| d.namespace().to_owned())
                    .filter(|n| !n.is_empty())
            })
            .unwrap_or_else(|| home.clone());
        match start.draft.clone() {
            Some(mut draft) => {
                if draft.namespace() != namespace {
                    draft.move_to(&namespace);
                }
                draft
            }
            None => crate::domain::draft::Draft::new(&namespace),
        }
    });
    // The other hubs of a fleet: each connected now (a kubeconfig that cannot reach one is
    // said before the console opens); a hub that is down or slow is shown so, later.
    // All at once: a context's credential plugin that takes its time holds up no other.
    let targets: Vec<(&String, Target)> = options
        .hubs
        .iter()
        .skip(1)
        .map(|context| {
            let at = Target {
                kubeconfig: target.kubeconfig.clone(),
                context: Some(context.clone()),
                inline: None,
            };
            (context, at)
        })
        .collect();
    let connected = futures::future::join_all(targets.iter().map(|(_, at)| connect(at))).await;
    let mut others = Vec::new();
    for ((context, at), result) in targets.into_iter().zip(connected) {
        match result {
            Ok(connected) => others.push((at, connected)),
            Err(e) => {
                crate::say::complain!(
                    "pooldeck: hub {}: {e} (name the others with --context)",
                    crate::domain::inert::line(context)
                );
                return ExitCode::from(1);
            }
        }
    }
    let mut namespaces =
        options
            .namespaces
            .clone()
            .unwrap_or_else(|| match (&connection, demo.is_some(), &draft) {
                // Across hubs whose contexts name different namespaces: every namespace.
                _ if !others.is_empty() => Namespaces::All,
                // The wizard alone watches every namespace it may (the namespace choice
                // offers every Project seen); refused that, its own (`App::narrow_for_wizard`).
                (_, true, _) | (_, false, Some(_)) => Namespaces::All,
                (Some(connection), false, None) => {
                    Namespaces::Only(vec![connection.default_namespace.clone()])
                }
                (None, false, None) => Namespaces::Only(vec!["default".into()]),
            });
    if let (Namespaces::Only(list), Some(draft)) = (&mut namespaces, &draft)
        && !list.iter().any(|n| n == draft.namespace())
    {
        list.push(draft.namespace().to_owned());
    }
    // The context's own namespace goes into every watch's path: checked as a named one is.
    if let Namespaces::Only(list) = &namespaces
        && let Some(problem) = list
            .iter()
            .find_map(|ns| crate::domain::rules::names::namespace_problem(ns))
    {
        crate::say::complain!(
            "pooldeck: the namespace cannot be used: {problem}; fix the kubeconfig's namespace or pass -n NS"
        );
        return ExitCode::from(2);
    }
    let mut app = App::new(
        Connection {
            context: connection
                .as_ref()
                .map_or_else(|| "(no cluster)".to_owned(), |c| c.context.clone()),
            server: server_of(&target).unwrap_or_default(),
            user: crate::sources::connection::user_of(&target).unwrap_or_default(),
            scope: namespaces.words(),
            kubeconfig: crate::sources::connection::kubeconfig_of(&target),
        },
        Utc::now(),
    );
    app.namespaces = namespaces.clone();
    app.namespaces_asked = options.namespaces.is_some();
    app.fleet.home_namespace = home;
    app.contexts = crate::sources::connection::context_names(&target);
    options
        .warnings
        .extend(options.acting.settings.about_contexts(&app.contexts));
    app.favourites = options.acting.settings.favourites.clone();
    // The drafts wizards left behind (crash, hangup, Ctrl-C, Esc): `n` and `e` offer them.
    app.drafts = kept_drafts(crate::drafts::MOST);
    if !options.warnings.is_empty() {
        app.message = Some(options.warnings.join("; "));
    }
    let (events, mut sources) = tokio::sync::mpsc::channel(crate::sources::watch::QUEUE);
    let (port, kube): (Arc<dyn ClusterPort>, Option<Arc<KubePort>>) = match &connection {
        Some(connection) => {
            let kube = KubePort::new(
                connection.client.clone(),
                target.clone(),
                &connection.context,
                options.acting.clone(),
                events,
            );
            app.fleet.read_only_why = options.acting.why_read_only(&connection.context);
            if !others.is_empty() {
                let mut parked = Vec::new();
                for (at, other) in others {
                    parked.push(crate::app::hub::HubState {
                        connection: Connection {
                            context: other.context.clone(),
                            server: server_of(&at).unwrap_or_default(),
                            user: crate::sources::connection::user_of(&at).unwrap_or_default(),
                            scope: namespaces.words(),
                            kubeconfig: crate::sources::connection::kubeconfig_of(&at),
                        },
                        read_only_why: options.acting.why_read_only(&other.context),
                        home_namespace: other.default_namespace.clone(),
                        ..crate::app::hub::HubState::default()
                    });
                    kube.add_hub(other.client, at, &other.context);
                }
                let first = std::mem::take(&mut *app.fleet);
                app.fleet = crate::app::fleet::Fleet::new(options.hubs.clone(), first, parked);
            }
            kube.watch(namespaces);
            (kube.clone(), Some(kube))
        }
        None => {
            let why = offline.clone().unwrap_or_default();
            (Arc::new(port::OfflinePort { why }), None)
        }
    };
    if let Some(start) = &options.wizard {
        app.offline = offline.clone();
        app.output = start.output.clone();
        app.wizard_only = true;
        match (start.resume.clone(), draft) {
            (Some(kept), _)
                if kept.saved.aim == crate::domain::draft::Aim::Edit && offline.is_none() =>
            {
                app.resuming = Some(kept);
                app.message = Some("reading the pool this edit's draft is for…".into());
            }
            // Without a cluster an edit's draft opens against itself: the rules check it and
            // `w` writes it; it stays an edit's draft.
            (Some(kept), _) if kept.saved.aim == crate::domain::draft::Aim::Edit => {
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
        let started = crate::app::tour::Tour::new(*chapter, progress);
        // Where the tour is now is kept at once: a session that ends starts here again.
        if let Err(why) = tour::save(&started.progress()) {
            let said = format!("the tour's progress cannot be kept: {why}");
            app.message = Some(match app.message.take() {
                Some(before) => format!("{before}; {said}"),
                None => said,
            });
        }
        app.tour = Some(started);
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
    screen.close(matches!(result, Ok(Some(HANGUP))));
    if let Some(kube) = kube {
        kube.stop();
    }
    if let Some(cluster) = demo {
        cluster.stop().await;
    }
    match result {
        Ok(None) => ExitCode::SUCCESS,
        // Ended by a signal: the conventional status, 128 + its number.
        Ok(Some(signal)) => ExitCode::from(u8::try_from(128 + signal).unwrap_or(1)),
        Err(e) => {
            crate::say::complain!("pooldeck: {e}");
            ExitCode::from(1)
        }
    }
}

/// Why the console could not go on with its terminal.
#[derive(Debug, thiserror::Error)]
enum TerminalError {
    #[error("cannot read the terminal: {0}")]
    Read(std::io::Error),
    #[error("cannot draw: {0}")]
    Draw(std::io::Error),
    #[error("cannot suspend: {0}")]
    Suspend(std::io::Error),
    #[error("cannot take the terminal back: {0}")]
    Resume(std::io::Error),
}

/// SIGHUP's number: the console ends with 128 + it when its terminal hangs up or is gone.
const HANGUP: i32 = 1;

/// Whether a write to the terminal failed because there is no terminal any more (its other
/// side closed: EIO; or it went away: ENXIO, EPIPE, EBADF).
fn terminal_gone(error: &std::io::Error) -> bool {
    error.kind() == std::io::ErrorKind::BrokenPipe
        || matches!(
            error.raw_os_error(),
            Some(libc::EIO | libc::ENXIO | libc::EPIPE | libc::EBADF)
        )
}

/// Hands the effects `update` returned to the executor; suspending is the loop's own. Says
/// whether the screen must be drawn again.
fn run_effects(
    effects: Vec<Effect>,
    screen: &mut Screen,
    clipboards: &mut clipboard::Clipboards,
    drafts: &drafts::Writer,
    saver: &tour::Saver,
    port: &Arc<dyn ClusterPort>,
    outlets: &port::Outlets,
) -> std::io::Result<bool> {
    let answers = &outlets.answers;
    let mut redraw = false;
    for effect in effects {
        match effect {
            Effect::Suspend => {
                screen.suspend()?;
                redraw = true;
            }
            // The terminal is the loop's: OSC 52 goes out through it, between frames.
            Effect::Copy { text, what } => {
                let result = clipboards.copy(&text, screen.terminal.backend_mut());
                let _ = answers.send(Msg::Copied { what, result });
            }
            // Drafts are written off the loop, a burst of keystrokes once.
            Effect::SaveDraft { saved, replaces } => drafts.save(saved, replaces),
            Effect::DiscardDraft(file) => drafts.discard(file),
            // A few bytes, written off the loop; said only when it could not be kept.
            Effect::SaveTour(progress) => saver.save(progress),
            effect => port::execute(port, effect, outlets),
        }
    }
    Ok(redraw)
}

#[expect(clippy::too_many_lines, reason = "to be split: issue 48")]
async fn event_loop(
    demo: Option<&DemoCluster>,
    app: &mut App,
    theme: &Theme,
    screen: &mut Screen,
    port: Arc<dyn ClusterPort>,
    sources: &mut tokio::sync::mpsc::Receiver<port::Tagged>,
    clipboard: crate::settings::Clipboard,
) -> Result<Option<i32>, TerminalError> {
    let (answers, mut answered) = tokio::sync::mpsc::unbounded_channel::<Msg>();
    let (logs, mut logged) = tokio::sync::mpsc::channel(port::LOG_QUEUE);
    let outlets = port::Outlets {
        answers: answers.clone(),
        logs,
    };
    let mut keys = Keys::start().map_err(TerminalError::Read)?;
    let mut clock = tokio::time::interval(Duration::from_secs(1));
    let mut stop = Signals::new();
    let mut dirty = true;
    let mut clipboards = clipboard::Clipboards::new(clipboard);
    // Dropped when the loop ends, however it ends: what is queued is written first.
    let drafts = drafts::Writer::start(answers.clone());
    // The tour's progress, written in order off the loop (its thread idles without a tour).
    let saver = tour::Saver::start(answers.clone());
    // What the updates asked for, carried out after each turn of the loop (the wizard opened
    // before the loop may have asked already).
    let mut effects = app.take_effects();
    loop {
        if dirty {
            let drawn = match screen
                .terminal
                .draw(|frame| crate::ui::render(app, theme, frame))
            {
                Ok(frame) => frame.area,
                // The terminal is gone (a dropped SSH session closes it before, or instead
                // of, the SIGHUP): end as a hangup does, with the shutdown steps after.
                Err(e) if terminal_gone(&e) => return Ok(Some(HANGUP)),
                Err(e) => return Err(TerminalError::Draw(e)),
            };
            dirty = false;
            // Keys are read for the screen as drawn: too small a screen shows no dialog, so
            // no key may act on one.
            if app.size != Some((drawn.width, drawn.height)) {
                effects.extend(update(
                    app,
                    Msg::Resize {
                        width: drawn.width,
                        height: drawn.height,
                    },
                ));
                dirty = true;
                continue;
            }
        }
        if app.quit {
            return Ok(None);
        }
        tokio::select! {
            input = keys.next() => match input {
                Input::Event(Event::Key(key)) if key.kind != KeyEventKind::Release => {
                    effects.extend(update(app, Msg::Key(key)));
                    dirty = true;
                }
                Input::Event(Event::Paste(text)) => {
                    effects.extend(update(app, Msg::Paste(text)));
                    dirty = true;
                }
                Input::Event(_) => {}
                // The terminal is gone (a closed SSH session): nothing left to draw on; it
                // ends as the hangup it is.
                Input::Gone => return Ok(Some(HANGUP)),
            },
            Some((tag, event)) = sources.recv() => {
                // Everything already queued is applied before the one redraw; events of a
                // replaced watch (another namespace or context) are dropped.
                // Applied as one message: what is derived from them (rows, findings) is
                // brought up to date once for the lot, not once per event.
                let mut batch = Vec::new();
                let mut next = Some((tag, event));
                while let Some((tag, event)) = next {
                    if tag.epoch == port.epoch() {
                        batch.push((tag.hub, event));
                    }
                    next = sources.try_recv().ok();
                }
                if !batch.is_empty() {
                    effects.extend(update(app, Msg::Sources(batch)));
                    dirty = true;
                }
            }
            Some(msg) = answered.recv() => {
                effects.extend(update(app, msg));
                dirty = true;
            }
            Some(event) = logged.recv() => {
                // What is queued already goes in before the one redraw (no more than a
                // queue's worth: a flood still lets keys and the clock in).
                let mut next = Some(event);
                let mut taken = 0;
                while let Some(event) = next {
                    effects.extend(update(app, Msg::Logs(event)));
                    taken += 1;
                    next = if taken < port::LOG_QUEUE {
                        logged.try_recv().ok()
                    } else {
                        None
                    };
                }
                dirty = true;
            }
            _ = clock.tick() => {
                effects.extend(update(app, Msg::Tick(Utc::now())));
                dirty = true;
            }
            // A view being made: its next rows, once what is waiting (keys, changes) had
            // its chance.
            () = tokio::task::yield_now(), if app.building() => {
                effects.extend(update(app, Msg::Build));
                dirty = true;
            }
            asked = stop.next() => match asked {
                Asked::End(signal) => return Ok(Some(signal)),
                Asked::Suspend => {
                    effects.extend(update(app, Msg::Suspend));
                }
                // Drawn at the new size, which the draw tells `update`.
                Asked::Resized => dirty = true,
            },
        }
        let mut asked = std::mem::take(&mut effects);
        // The editor takes the terminal, so it runs here, between frames; what its answer
        // asks for (the editor again, with findings; a confirmation's dry run) is carried out
        // at once, before any key is read.
        loop {
            let (edits, rest): (Vec<Effect>, Vec<Effect>) = asked
                .into_iter()
                .partition(|e| matches!(e, Effect::Edit { .. }));
            // The embedded demo's story starts again here: the loop holds the demo.
            let (resets, rest): (Vec<Effect>, Vec<Effect>) = rest
                .into_iter()
                .partition(|e| matches!(e, Effect::ResetDemo));
            if !resets.is_empty() {
                let result = match demo {
                    Some(demo) => demo.reset().await.map_err(|e| StoryError::Demo(e.into())),
                    None => Err(StoryError::NoDemo),
                };
                let _ = outlets.answers.send(Msg::DemoReset(result));
            }
            // A tour's chapter: another story on the same demo (the last one asked wins).
            let (plays, rest): (Vec<Effect>, Vec<Effect>) = rest
                .into_iter()
                .partition(|e| matches!(e, Effect::PlayScenario(_)));
            if let Some(Effect::PlayScenario(name)) = plays.into_iter().last() {
                let result = match (demo, Scenario::builtin(&name)) {
                    (Some(demo), Ok(scenario)) => {
                        let story = (scenario.name.clone(), scenario.description.clone());
                        demo.play(scenario)
                            .await
                            .map(|()| story)
                            .map_err(|e| StoryError::Demo(e.into()))
                    }
                    (None, _) => Err(StoryError::NoDemo),
                    (_, Err(e)) => Err(StoryError::Demo(crate::demo::Error::from(e).into())),
                };
                let _ = outlets.answers.send(Msg::Played {
                    scenario: name,
                    result,
                });
            }
            match run_effects(
                rest,
                screen,
                &mut clipboards,
                &drafts,
                &saver,
                &port,
                &outlets,
            ) {
                Ok(redraw) => dirty |= redraw,
                Err(e) if terminal_gone(&e) => return Ok(Some(HANGUP)),
                Err(e) => return Err(TerminalError::Suspend(e)),
            }
            if edits.is_empty() {
                break;
            }
            asked = Vec::new();
            for edit in edits {
                let Effect::Edit { file, text, resume } = edit else {
                    continue;
                };
                let (answer, ended) =
                    match in_editor(screen, &mut keys, &mut stop, &file, text, resume).await {
                        Ok(answered) => answered,
                        Err(e) if terminal_gone(&e) => return Ok(Some(HANGUP)),
                        Err(e) => return Err(TerminalError::Resume(e)),
                    };
                // A hangup or a termination while the editor ran ends the console now (the
                // edit's file stays for the next session).
                if let Some(signal) = ended {
                    return Ok(Some(signal));
                }
                asked.extend(update(app, answer));
                dirty = true;
            }
        }
    }
}

/// Gives the terminal to the user's editor on an edit kept in pooldeck's edits directory (with
/// `resume`, the pool as read: an edit an earlier session left, made on that version, is
/// opened instead), the key reader paused meanwhile so that no keystroke of the editor's is
/// read here; the answer for `update`, and the signal that asked the console to end meanwhile
/// (a terminal gone ends it as a hangup). While the editor runs, signals are the editor's: a
/// Ctrl-C is its own; a Ctrl-Z in it stops the console too (the shell's job is both; `fg`
/// continues both); a termination is passed on to it, and the console ends once it has. An
/// error: the terminal could not be taken back.
async fn in_editor(
    screen: &mut Screen,
    keys: &mut Keys,
    stop: &mut Signals,
    file: &str,
    text: String,
    resume: Option<serde_json::Value>,
) -> std::io::Result<(Msg, Option<i32>)> {
    let path = match crate::drafts::edits_dir() {
        Ok(dir) => dir.join(file),
        Err(e) => {
            let msg = Msg::Edited {
                path: std::path::PathBuf::from(file),
                said: None,
                result: Err(editor::EditorError::NoPlace(e)),
            };
            return Ok((msg, None));
        }
    };
    let (text, said) = match &resume {
        Some(live) => editor::opened(&path, text, live),
        None => (text, None),
    };
    // The key reader stops before the editor starts (what it read before is dropped while the
    // editor runs: keys typed at a console that was opening the editor).
    keys.pause().await;
    screen.pause();
    // Held while the editor is open: another edit of this pool is refused meanwhile.
    let locked = editor::Lock::take(&path);
    let child = match locked
        .as_ref()
        .map_err(Clone::clone)
        .and_then(|_| editor::spawn(&path, &text))
    {
        Ok(child) => child,
        Err(why) => {
            screen.resume()?;
            keys.resume();
            let msg = Msg::Edited {
                path,
                said,
                result: Err(why),
            };
            return Ok((msg, None));
        }
    };
    let at = path.clone();
    let editor_pid = child.id();
    let waiting = tokio::task::spawn_blocking(move || editor::finish(child, &at));
    let (result, ended) = wait_for_editor(waiting, editor_pid, keys, stop).await;
    if ended.is_none() {
        // What was typed into a terminal the editor no longer read (while it closed) is
        // dropped, not taken as the console's keys (a `q` would end it).
        #[cfg(unix)]
        let _ = rustix::termios::tcflush(
            rustix::stdio::stdin(),
            rustix::termios::QueueSelector::IFlush,
        );
        screen.resume()?;
        keys.resume();
    }
    Ok((Msg::Edited { path, said, result }, ended))
}

/// Waits for the editor to end, keeping the console's signals and the terminal watched:
/// what it saved (or why not), and the signal that asked the console to end meanwhile.
async fn wait_for_editor(
    mut waiting: tokio::task::JoinHandle<Result<String, editor::EditorError>>,
    editor_pid: u32,
    keys: &mut Keys,
    stop: &mut Signals,
) -> (Result<String, editor::EditorError>, Option<i32>) {
    let mut ended = None;
    // Once the console is asked to end, the editor has a moment to end first.
    let mut given_up = std::pin::pin!(futures::future::Fuse::<tokio::time::Sleep>::terminated());
    let result = loop {
        tokio::select! {
            done = &mut waiting => {
                break done.unwrap_or_else(|e| Err(editor::EditorError::Lost(e.to_string())));
            }
            () = &mut given_up => {
                break Err(editor::EditorError::ConsoleEnded);
            }
            // Keys typed before the editor opened and not read yet are dropped; the terminal
            // gone ends the editor with the console, the edit's file kept.
            input = keys.next(), if ended.is_none() => {
                if let Input::Gone = input {
                    stop_editor(editor_pid);
                    ended = Some(HANGUP);
                    given_up.set(futures::FutureExt::fuse(tokio::time::sleep(EDITOR_GRACE)));
                }
            }
            signal = stop.next() => match signal {
                // Ctrl-Z in the editor stopped it; the console stops with it, so the shell
                // sees its job stopped (a console left running would hold the terminal with
                // nothing reading it).
                Asked::Suspend => {
                    #[cfg(unix)]
                    let _ = rustix::process::kill_process(
                        rustix::process::getpid(),
                        rustix::process::Signal::STOP,
                    );
                }
                // Ctrl-C in the editor was the editor's; a resize is drawn after it.
                Asked::End(2) | Asked::Resized => {}
                Asked::End(signal) => {
                    stop_editor(editor_pid);
                    ended = Some(signal);
                    given_up.set(futures::FutureExt::fuse(tokio::time::sleep(EDITOR_GRACE)));
                }
            },
        }
    };
    (result, ended)
}

/// How long an editor asked to end (the console is ending) is waited for.
const EDITOR_GRACE: Duration = Duration::from_millis(300);

/// Asks the editor to end (the console is ending; its file stays).
fn stop_editor(pid: u32) {
    #[cfg(unix)]
    if let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process(pid, rustix::process::Signal::TERM);
    }
}
