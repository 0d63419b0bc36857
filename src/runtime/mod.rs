//! The only place with tasks, channels and the terminal: it connects (or starts the demo
//! cluster), starts the watch sources, puts the terminal in raw mode on the alternate screen,
//! feeds keys, source events and the clock into `app::update`, and draws with `ui::render`.
//! The terminal is restored however the console ends: quit, error, panic, SIGTERM or SIGHUP
//! (a dropped SSH session).

use std::io::{Stdout, stdout};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use chrono::Utc;
use crossterm::event::{Event, EventStream, KeyEventKind};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use futures::StreamExt;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use crate::app::{App, Connection, Effect, Msg, update};
use crate::demo::scenario::Scenario;
use crate::demo::{DemoCluster, Options};
use crate::inventory::Kind;
use crate::sources::connection::{Target, connect};
use crate::sources::watch::{Namespaces, spawn};
use crate::theme::Theme;

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
}

/// Puts the terminal back as it was. Used on every way out, including a panic.
fn restore() {
    let _ = disable_raw_mode();
    let _ = execute!(stdout(), LeaveAlternateScreen, crossterm::cursor::Show);
}

/// Raw mode and the alternate screen for as long as it lives.
struct Screen {
    terminal: Terminal<CrosstermBackend<Stdout>>,
}

impl Screen {
    fn enter() -> std::io::Result<Screen> {
        enable_raw_mode()?;
        if let Err(e) = execute!(stdout(), EnterAlternateScreen, crossterm::cursor::Hide) {
            restore();
            return Err(e);
        }
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
        match Terminal::new(CrosstermBackend::new(stdout())) {
            Ok(terminal) => Ok(Screen { terminal }),
            Err(e) => {
                restore();
                Err(e)
            }
        }
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        restore();
    }
}

pub fn run(options: ConsoleOptions) -> ExitCode {
    let runtime = match crate::cli::runtime() {
        Ok(r) => r,
        Err(code) => return code,
    };
    runtime.block_on(console(options))
}

async fn console(options: ConsoleOptions) -> ExitCode {
    // The demo is a real server on a loopback port; the console reaches it through the same
    // kubeconfig and kube client as any hub.
    let mut demo = None;
    let mut target = options.target.clone();
    if let Some(name) = &options.demo {
        let scenario = match Scenario::builtin(name) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("pooldeck: {e}");
                return ExitCode::from(2);
            }
        };
        let cluster = match DemoCluster::start(Options {
            scenario: Some(scenario),
            speed: options.speed,
            ..Options::default()
        })
        .await
        {
            Ok(c) => c,
            Err(e) => {
                eprintln!("pooldeck: cannot start the demo cluster: {e}");
                return ExitCode::from(1);
            }
        };
        let path: PathBuf = std::env::temp_dir().join(format!(
            "pooldeck-console-{}.kubeconfig",
            cluster.address.port()
        ));
        if let Err(e) = cluster.write_kubeconfig(&path) {
            eprintln!("pooldeck: {e}");
            return ExitCode::from(1);
        }
        target = Target {
            kubeconfig: Some(path),
            context: None,
        };
        demo = Some(cluster);
    }
    let connection = match connect(&target).await {
        Ok(c) => c,
        Err(e) => {
            eprintln!("pooldeck: {e}");
            return ExitCode::from(1);
        }
    };
    let namespaces = options.namespaces.clone().unwrap_or_else(|| {
        if demo.is_some() {
            Namespaces::All
        } else {
            Namespaces::Only(vec![connection.default_namespace.clone()])
        }
    });
    let scope = scope_words(&namespaces);
    let mut app = App::new(
        Connection {
            context: connection.context.clone(),
            server: target_server(&target).unwrap_or_default(),
            scope,
        },
        Utc::now(),
    );
    let mut sources = Sources::start(connection.client.clone(), target.clone(), namespaces);

    let mut screen = match Screen::enter() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("pooldeck: cannot open the terminal: {e}");
            return ExitCode::from(1);
        }
    };
    let result = event_loop(&mut app, &options.theme, &mut screen, &mut sources).await;
    drop(screen);
    sources.stop();
    if let Some(cluster) = demo {
        cluster.stop().await;
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pooldeck: {e}");
            ExitCode::from(1)
        }
    }
}

/// The server the kubeconfig points at, for the header.
fn target_server(target: &Target) -> Option<String> {
    let kubeconfig = match &target.kubeconfig {
        Some(path) => kube::config::Kubeconfig::read_from(path).ok()?,
        None => kube::config::Kubeconfig::read().ok()?,
    };
    let context_name = target
        .context
        .clone()
        .or(kubeconfig.current_context.clone())?;
    let context = kubeconfig
        .contexts
        .iter()
        .find(|c| c.name == context_name)?
        .context
        .clone()?;
    let cluster = kubeconfig
        .clusters
        .iter()
        .find(|c| c.name == context.cluster)?
        .cluster
        .clone()?;
    cluster.server
}

/// The watch sources of the console, restartable for another namespace scope or context.
struct Sources {
    client: kube::Client,
    target: Target,
    namespaces: Namespaces,
    tasks: Vec<tokio::task::JoinHandle<()>>,
    receiver: tokio::sync::mpsc::UnboundedReceiver<crate::inventory::SourceEvent>,
}

const WATCHED: [Kind; 5] = [
    Kind::Pool,
    Kind::Evaluation,
    Kind::Event,
    Kind::Project,
    Kind::Tenant,
];

impl Sources {
    fn start(client: kube::Client, target: Target, namespaces: Namespaces) -> Sources {
        let (sender, receiver) = tokio::sync::mpsc::unbounded_channel();
        let tasks = spawn(&client, &WATCHED, &namespaces, &sender);
        Sources {
            client,
            target,
            namespaces,
            tasks,
            receiver,
        }
    }

    fn stop(&mut self) {
        for task in self.tasks.drain(..) {
            task.abort();
        }
    }

    /// Starts over with a fresh channel, so nothing from the old watchers arrives after.
    fn restart(&mut self) {
        self.stop();
        let (sender, receiver) = tokio::sync::mpsc::unbounded_channel();
        self.tasks = spawn(&self.client, &WATCHED, &self.namespaces, &sender);
        self.receiver = receiver;
    }
}

fn scope_words(namespaces: &Namespaces) -> String {
    match namespaces {
        Namespaces::All => "all namespaces".to_owned(),
        Namespaces::Only(list) => list.join(", "),
    }
}

/// Carries out what `update` asked for: other namespaces, another context.
async fn perform(app: &mut App, sources: &mut Sources) {
    for effect in std::mem::take(&mut app.effects) {
        match effect {
            Effect::Watch(namespaces) => {
                sources.namespaces = namespaces;
                sources.restart();
                app.connection.scope = scope_words(&sources.namespaces);
                app.inventory = crate::inventory::Inventory::new();
                app.message = Some(format!("watching {}", app.connection.scope));
            }
            Effect::SwitchContext(context) => {
                let target = Target {
                    kubeconfig: sources.target.kubeconfig.clone(),
                    context: Some(context.clone()),
                };
                match connect(&target).await {
                    Ok(connection) => {
                        sources.client = connection.client;
                        sources.target = target.clone();
                        sources.restart();
                        app.connection.context = connection.context;
                        app.connection.server = target_server(&target).unwrap_or_default();
                        app.inventory = crate::inventory::Inventory::new();
                        app.message = Some(format!("switched to context {context}"));
                    }
                    Err(e) => app.message = Some(e),
                }
            }
        }
    }
    app.refresh();
}

async fn event_loop(
    app: &mut App,
    theme: &Theme,
    screen: &mut Screen,
    sources: &mut Sources,
) -> Result<(), String> {
    let mut keys = EventStream::new();
    let mut clock = tokio::time::interval(Duration::from_secs(1));
    let mut stop = Signals::new();
    let mut dirty = true;
    loop {
        if dirty {
            screen
                .terminal
                .draw(|frame| crate::ui::render(app, theme, frame))
                .map_err(|e| format!("cannot draw: {e}"))?;
            dirty = false;
        }
        if app.quit {
            return Ok(());
        }
        tokio::select! {
            event = keys.next() => match event {
                Some(Ok(Event::Key(key))) if key.kind != KeyEventKind::Release => {
                    update(app, Msg::Key(key));
                    if !app.effects.is_empty() {
                        perform(app, sources).await;
                    }
                    dirty = true;
                }
                Some(Ok(Event::Resize(_, _))) => dirty = true,
                Some(Ok(_)) => {}
                // The terminal is gone (a closed SSH session): nothing left to draw on.
                Some(Err(_)) | None => return Ok(()),
            },
            Some(event) = sources.receiver.recv() => {
                update(app, Msg::Source(event));
                // Everything already queued is applied before the one redraw.
                while let Ok(event) = sources.receiver.try_recv() {
                    update(app, Msg::Source(event));
                }
                dirty = true;
            }
            _ = clock.tick() => {
                update(app, Msg::Tick(Utc::now()));
                dirty = true;
            }
            _ = stop.next() => return Ok(()),
        }
    }
}

/// SIGTERM and SIGHUP end the console cleanly.
struct Signals {
    #[cfg(unix)]
    terminate: Option<tokio::signal::unix::Signal>,
    #[cfg(unix)]
    hangup: Option<tokio::signal::unix::Signal>,
}

impl Signals {
    fn new() -> Signals {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Signals {
                terminate: signal(SignalKind::terminate()).ok(),
                hangup: signal(SignalKind::hangup()).ok(),
            }
        }
        #[cfg(not(unix))]
        {
            Signals {}
        }
    }

    async fn next(&mut self) {
        #[cfg(unix)]
        {
            let terminate = async {
                match &mut self.terminate {
                    Some(s) => {
                        s.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            let hangup = async {
                match &mut self.hangup {
                    Some(s) => {
                        s.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                _ = terminate => {}
                _ = hangup => {}
            }
        }
        #[cfg(not(unix))]
        std::future::pending::<()>().await
    }
}
