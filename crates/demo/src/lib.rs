//! The embedded demo cluster: a small, loopback-only HTTP server that speaks enough of the
//! Kubernetes API for pooldeck's kube client and for a stock `kubectl`, filled from scripted
//! scenarios or recordings. The console's `--demo` runs the normal live sources against it.
//!
//! Owns: the store and its API semantics (`store`), the resources it serves (`registry`,
//! from `demo/crds/`), the HTTP layer (`api`), Tables (`table`), selectors (`selector`), and
//! the scenario player with its simulated controllers (`scenario`). Must not import the
//! console (`app`, `ui`) or the kube client.

#![cfg_attr(test, allow(clippy::too_many_lines))]
pub mod actions;
pub mod api;
mod counts;
mod discovery;
pub mod error;
pub mod frozen;
mod kubeconfig;
pub mod large;
pub mod logs;
pub mod pace;
pub mod player;
pub mod protobuf;
pub mod registry;
pub mod scenario;
pub mod selector;
pub mod serve;
pub mod status;
pub mod store;
pub mod table;
pub mod tls;
pub mod watch;

use std::collections::HashMap;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use self::api::{Server, User};
pub use self::error::Error;
pub use self::kubeconfig::{WRITTEN_BY_DEMO, hubs_kubeconfig};
use self::registry::Registry;
use self::scenario::Scenario;
use self::store::Store;

/// The kubeconfig context for the admin user, and for the read-only viewer.
pub const ADMIN_CONTEXT: &str = "pooldeck-demo";
pub const VIEWER_CONTEXT: &str = "pooldeck-demo-viewer";
/// The context of an operator who may patch pools (pause, resume) but not delete them.
pub const OPERATOR_CONTEXT: &str = "pooldeck-demo-operator";
/// The context of a reader who may read inside a namespace but not pods' logs.
pub const READER_CONTEXT: &str = "pooldeck-demo-reader";

/// How to start a demo cluster.
#[derive(Clone, Debug)]
pub struct Options {
    /// Port on 127.0.0.1; 0 picks a free one.
    pub port: u16,
    /// What to play: a built-in scenario, a scenario or recording file, or nothing.
    pub scenario: Option<Scenario>,
    /// Time scale for the scenario: 2.0 plays twice as fast.
    pub speed: f64,
    /// How often watches that asked for bookmarks get one.
    pub bookmark_interval: Duration,
    /// How much history the server keeps for watches that resume (older: 410 Gone): by
    /// count, bytes and age, as a real API server compacts.
    pub history: store::HistoryBounds,
    /// Kinds not to serve, as if their CRD were not installed.
    pub without_kinds: Vec<String>,
    /// Serve with this identity (certificates and tokens) instead of a new one, so clients of
    /// an earlier server reconnect to this one as to a restarted API server.
    pub identity: Option<Identity>,
    /// How long the server waits on a client before closing its connection.
    pub deadlines: serve::Deadlines,
    /// How fast lists go out (none: as fast as the demo can).
    pub pace: Option<pace::Pace>,
    /// Serve watch-lists (`sendInitialEvents`), as a server with the WatchList feature on does;
    /// false refuses them as one with the feature off does (clients then list in pages).
    pub watch_list: bool,
}

/// What clients trust and present: the certificates and the two tokens.
#[derive(Clone)]
pub struct Identity {
    pub certificates: Arc<tls::Certificates>,
    pub admin_token: String,
    pub viewer_token: String,
    pub operator_token: String,
    pub reader_token: String,
}

impl std::fmt::Debug for Identity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Identity { .. }")
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            port: 0,
            scenario: None,
            speed: 1.0,
            bookmark_interval: Duration::from_secs(10),
            history: store::HistoryBounds::default(),
            without_kinds: Vec::new(),
            identity: None,
            deadlines: serve::Deadlines::default(),
            pace: None,
            watch_list: true,
        }
    }
}

/// A running demo cluster. Dropping it stops the server.
pub struct DemoCluster {
    pub address: SocketAddr,
    pub store: Arc<Store>,
    pub admin_token: String,
    pub viewer_token: String,
    /// The throwaway certificate authority that signed the server's certificate (PEM).
    pub ca_pem: String,
    /// Certificates and tokens, to start a successor that clients trust as this server.
    pub identity: Identity,
    shutdown: Option<oneshot::Sender<()>>,
    server: Option<JoinHandle<()>>,
    player: std::sync::Mutex<Option<player::Player>>,
    /// The scenario played and its speed (the story starts again from them on a reset;
    /// another replaces it when played).
    scenario: std::sync::Mutex<Option<(scenario::Scenario, f64)>>,
    /// Timeline steps the scenario player has reached.
    played: Arc<std::sync::atomic::AtomicUsize>,
    /// Steps in one pass of the scenario's timeline.
    steps: std::sync::atomic::AtomicUsize,
    /// The API's state shared with the server (the scenario's controller log lines).
    api: Arc<Server>,
}

/// A token for one of the demo's users.
fn token() -> Result<String, Error> {
    pooldeck_io::files::token().map_err(|e| Error::NoRandom {
        detail: e.to_string(),
    })
}

/// Binds 127.0.0.1:port. A port just released by a stopped server may still be held for a
/// moment while its acceptor winds down, so a busy fixed port is tried again briefly.
async fn bind(port: u16) -> Result<TcpListener, Error> {
    let mut attempts = 0;
    loop {
        match TcpListener::bind(("127.0.0.1", port)).await {
            Ok(listener) => return Ok(listener),
            Err(e) if port != 0 && e.kind() == std::io::ErrorKind::AddrInUse && attempts < 30 => {
                attempts += 1;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(source) => return Err(Error::Listen { port, source }),
        }
    }
}

impl DemoCluster {
    /// Starts the server on a loopback port and, if given, the scenario player.
    pub async fn start(options: Options) -> Result<DemoCluster, Error> {
        let mut registry = Registry::builtin()?;
        registry
            .resources
            .retain(|r| !options.without_kinds.contains(&r.kind));
        let store = Arc::new(Store::with_bounds(registry, options.history));
        let identity = match options.identity.clone() {
            Some(identity) => identity,
            None => Identity {
                certificates: Arc::new(tls::generate()?),
                admin_token: token()?,
                viewer_token: token()?,
                operator_token: token()?,
                reader_token: token()?,
            },
        };
        let admin_token = identity.admin_token.clone();
        let viewer_token = identity.viewer_token.clone();
        let server = Arc::new(api_server(&options, store.clone(), &identity));
        let listener = bind(options.port).await?;
        let address = listener.local_addr().map_err(Error::Address)?;
        let certificates = identity.certificates.clone();
        for crd in registry::crd_manifests()? {
            store.put(crd).map_err(|e| Error::CrdRefused(Box::new(e)))?;
        }
        let played = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let steps = options.scenario.as_ref().map_or(0, |s| s.steps.len());
        let player = match &options.scenario {
            // A bundle served back plays nothing: its objects are as they were taken.
            Some(scenario) if scenario.frozen.is_some() => {
                scenario.load_initial(&store)?;
                None
            }
            Some(scenario) => {
                scenario.load_initial(&store)?;
                logs::seed(&store)?;
                Some(player::spawn(
                    scenario.clone(),
                    store.clone(),
                    options.speed,
                    played.clone(),
                ))
            }
            None => None,
        };
        let story = options
            .scenario
            .as_ref()
            .map(|scenario| (scenario.clone(), options.speed));
        let api = server.clone();
        let router = api::router(server);
        let (shutdown, stop) = oneshot::channel::<()>();
        let watches = store.clone();
        let tls = certificates.server.clone();
        let server = tokio::spawn(async move {
            let stop = async move {
                let _ = stop.await;
                // Open watches end, and new ones are refused, so the server can stop.
                watches.close();
            };
            serve::serve(listener, tls, router, options.deadlines, stop).await;
        });
        Ok(DemoCluster {
            address,
            store,
            admin_token,
            viewer_token,
            ca_pem: certificates.ca_pem.clone(),
            identity,
            shutdown: Some(shutdown),
            server: Some(server),
            player: std::sync::Mutex::new(player),
            scenario: std::sync::Mutex::new(story),
            played,
            steps: std::sync::atomic::AtomicUsize::new(steps),
            api,
        })
    }

    /// Starts the story again (`:reset` in the console, SIGUSR1 to `demo serve`): the
    /// scenario's objects as they were at the start (every other object removed, what clients
    /// changed forgotten), its timeline from the first step. Watches see the objects go and
    /// come back. Awaited on the runtime the cluster runs on (its player's tasks are spawned
    /// there).
    pub async fn reset(&self) -> Result<(), Error> {
        let playing = self
            .scenario
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone();
        let Some((scenario, speed)) = playing else {
            return Err(Error::NoScenario);
        };
        if scenario.frozen.is_some() {
            // Nothing on a served bundle changes: it is as at its start already.
            return Ok(());
        }
        self.restart(scenario, speed).await
    }

    /// Plays another scenario from its start, at the speed of the one played (the tour's
    /// chapters): as a reset, with the new story's objects, timeline and controller log.
    pub async fn play(&self, scenario: scenario::Scenario) -> Result<(), Error> {
        let speed = self
            .scenario
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .as_ref()
            .map_or(1.0, |(_, speed)| *speed);
        self.restart(scenario, speed).await
    }

    async fn restart(&self, scenario: scenario::Scenario, speed: f64) -> Result<(), Error> {
        // Tried on a store of its own first: a story that cannot load leaves the one playing
        // as it was, rather than an empty demo.
        let trial =
            Store::with_bounds(self.store.registry.clone(), store::HistoryBounds::default());
        scenario.load_initial(&trial)?;
        logs::seed(&trial)?;
        // The old story is stopped whole before anything is reloaded: none of its steps, nor
        // a deletion it had under way, lands on the new one.
        let playing = self
            .player
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take();
        if let Some(playing) = playing {
            playing.stop().await;
        }
        let mut player = self
            .player
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        self.store
            .purge(|resource| resource.kind == "CustomResourceDefinition");
        self.store.forget_by_hand();
        scenario.load_initial(&self.store)?;
        logs::seed(&self.store)?;
        self.played.store(0, std::sync::atomic::Ordering::SeqCst);
        self.steps
            .store(scenario.steps.len(), std::sync::atomic::Ordering::SeqCst);
        *self
            .api
            .controller_logs
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) =
            Arc::new(scenario.controller_logs.clone());
        *player = Some(player::spawn(
            scenario.clone(),
            self.store.clone(),
            speed,
            self.played.clone(),
        ));
        *self
            .scenario
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some((scenario, speed));
        Ok(())
    }

    /// Stops the scenario and the server, ending open watches.
    pub async fn stop(mut self) {
        self.store.close();
        self.halt();
        if let Some(mut server) = self.server.take() {
            // Connections finish what they are doing; one that does not is cut after a while.
            if tokio::time::timeout(Duration::from_secs(5), &mut server)
                .await
                .is_err()
            {
                server.abort();
                let _ = server.await;
            }
        }
    }

    fn halt(&mut self) {
        if let Some(player) = self
            .player
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take()
        {
            player.abort();
        }
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
    }
}

impl Drop for DemoCluster {
    fn drop(&mut self) {
        self.halt();
    }
}

/// The API server's state: the store, who each token is, and the options it serves under.
fn api_server(options: &Options, store: Arc<Store>, identity: &Identity) -> Server {
    let mut tokens = HashMap::new();
    tokens.insert(identity.admin_token.clone(), User::Admin);
    tokens.insert(identity.viewer_token.clone(), User::Viewer);
    tokens.insert(identity.operator_token.clone(), User::Operator);
    tokens.insert(identity.reader_token.clone(), User::Reader);
    Server {
        store,
        tokens,
        bookmark_interval: options.bookmark_interval,
        body_deadline: options.deadlines.request_body,
        writes: std::sync::atomic::AtomicU64::new(0),
        forbidden: std::sync::atomic::AtomicU64::new(0),
        pace: options.pace,
        watch_list: options.watch_list,
        speed: options.speed,
        watch_lists_asked: std::sync::atomic::AtomicU64::new(0),
        watches_opened: std::sync::atomic::AtomicU64::new(0),
        watch_lists_served: std::sync::atomic::AtomicU64::new(0),
        largest_list: std::sync::atomic::AtomicU64::new(0),
        frozen: frozen::of(options),
        controller_logs: std::sync::RwLock::new(Arc::new(
            options
                .scenario
                .as_ref()
                .map(|s| s.controller_logs.clone())
                .unwrap_or_default(),
        )),
    }
}
