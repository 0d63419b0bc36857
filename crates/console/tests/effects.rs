//! The effect executor: an effect that waits on the network (a `:ctx` switch to a slow or
//! dead server) runs on a task and answers later as a `Msg`; the key path never waits. A
//! fake cluster port stands in for the server, so this needs none.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use pooldeck::app::ports::{ClusterPort, Connected, Namespaces, Pending};
use pooldeck::app::{App, Connection, Effect, Msg, update};
use pooldeck::domain::{ClusterError, Operation, Outcome, Request};

/// A port whose connections answer only when the test says so.
#[derive(Default)]
struct SlowPort {
    release: Mutex<Option<tokio::sync::oneshot::Receiver<()>>>,
    watched: Mutex<Vec<Namespaces>>,
    used: Mutex<Vec<String>>,
}

impl ClusterPort for SlowPort {
    fn connect(&self, context: String) -> Pending<Result<Connected, ClusterError>> {
        let release = self.release.lock().expect("lock").take();
        Box::pin(async move {
            if let Some(release) = release {
                let _ = release.await;
            }
            Ok(Connected {
                context,
                server: "https://slow.example:6443".into(),
                namespace: "default".into(),
                user: "operator".into(),
                read_only: None,
            })
        })
    }

    fn use_context(&self, context: &str) {
        self.used.lock().expect("lock").push(context.to_owned());
    }

    fn watch(&self, namespaces: Namespaces) {
        self.watched.lock().expect("lock").push(namespaces);
    }

    fn perform(&self, request: Request) -> Pending<Outcome> {
        Box::pin(async move {
            Outcome::Done {
                message: format!("did {}", request.operation.kubectl()),
            }
        })
    }
    fn connect_fleet(
        &self,
        _contexts: Vec<String>,
    ) -> Pending<Result<Vec<Connected>, ClusterError>> {
        Box::pin(async { Err(ClusterError::ReadOnly) })
    }
    fn use_fleet(&self, _contexts: &[String]) {}
    fn focus(&self, _hub: usize) {}
    fn epoch(&self) -> u64 {
        0
    }
    fn follow_logs(&self, _sink: pooldeck::app::ports::LogSink) {}
    fn stop_logs(&self) {}

    fn remember(
        &self,
        _hub: usize,
        _seen: Vec<(pooldeck::inventory::Key, pooldeck::domain::timeline::Entry)>,
    ) {
    }

    fn history(
        &self,
        _hub: usize,
        _pool: pooldeck::domain::ObjectRef,
        _objects: Vec<String>,
    ) -> Pending<pooldeck::timeline::Kept> {
        Box::pin(async { pooldeck::timeline::Kept::default() })
    }
}

/// The executor's outlets around a test's answers channel (its log queue unread).
fn outlets(answers: tokio::sync::mpsc::UnboundedSender<Msg>) -> pooldeck::runtime::port::Outlets {
    let (logs, _unread) = tokio::sync::mpsc::channel(pooldeck::runtime::port::LOG_QUEUE);
    pooldeck::runtime::port::Outlets { answers, logs }
}

fn key(c: char) -> Msg {
    Msg::Key(crossterm::event::KeyEvent::new(
        crossterm::event::KeyCode::Char(c),
        crossterm::event::KeyModifiers::NONE,
    ))
}

fn enter() -> Msg {
    Msg::Key(crossterm::event::KeyEvent::new(
        crossterm::event::KeyCode::Enter,
        crossterm::event::KeyModifiers::NONE,
    ))
}

#[tokio::test]
async fn a_slow_context_switch_never_blocks_the_keys() {
    let (release, wait) = tokio::sync::oneshot::channel();
    let fake = Arc::new(SlowPort {
        release: Mutex::new(Some(wait)),
        ..SlowPort::default()
    });
    let port: Arc<dyn ClusterPort> = fake.clone();
    let (answers, mut answered) = tokio::sync::mpsc::unbounded_channel();
    let answers = outlets(answers);
    let mut app = App::new(
        Connection {
            context: "first".into(),
            server: "https://first:6443".into(),
            user: "operator".into(),
            scope: "all namespaces".into(),
            kubeconfig: None,
        },
        chrono::Utc::now(),
    );
    let mut effects = update(&mut app, key(':'));
    for c in "ctx slow".chars() {
        effects.extend(update(&mut app, key(c)));
    }
    effects.extend(update(&mut app, enter()));
    // The runtime hands the effects update returned to the executor, which returns at once.
    let started = std::time::Instant::now();
    for effect in effects {
        pooldeck::runtime::port::execute(&port, effect, &answers);
    }
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "execute returned while the connection still waits"
    );
    // Keys keep working; no answer has come.
    update(&mut app, key('?'));
    assert!(app.overlay().is_some(), "the help opened while connecting");
    assert!(answered.try_recv().is_err());
    assert_eq!(app.fleet.connection.context, "first");
    // The server answers; the answer arrives as a message and update takes it.
    release.send(()).expect("the task waits");
    let msg = tokio::time::timeout(Duration::from_secs(10), answered.recv())
        .await
        .expect("the answer arrives")
        .expect("a message");
    let effects = update(&mut app, msg);
    assert_eq!(app.fleet.connection.context, "slow");
    assert_eq!(app.fleet.connection.server, "https://slow.example:6443");
    for effect in effects {
        pooldeck::runtime::port::execute(&port, effect, &answers);
    }
    assert_eq!(*fake.used.lock().expect("lock"), ["slow"]);
    assert_eq!(*fake.watched.lock().expect("lock"), [Namespaces::All]);
}

#[tokio::test]
async fn an_operation_answers_as_a_message() {
    let port: Arc<dyn ClusterPort> = Arc::new(SlowPort::default());
    let (answers, mut answered) = tokio::sync::mpsc::unbounded_channel();
    let answers = outlets(answers);
    let operation = Operation::AccessReview {
        verb: "patch".into(),
        kind: pooldeck::domain::Kind::Pool,
        namespace: "retail-edge".into(),
    };
    let request = Request {
        id: pooldeck::domain::RequestId(7),
        hub: pooldeck::domain::Hub::default(),
        operation,
    };
    pooldeck::runtime::port::execute(&port, Effect::Perform(request.clone()), &answers);
    let msg = tokio::time::timeout(Duration::from_secs(10), answered.recv())
        .await
        .expect("answered")
        .expect("a message");
    match msg {
        Msg::Performed {
            request: done,
            outcome: Outcome::Done { message },
        } => {
            assert_eq!(done, request, "answered for the request it names");
            assert!(message.contains("kubectl auth can-i patch"));
        }
        other => panic!("unexpected {other:?}"),
    }
}

/// A port that keeps the log sink it is given, for the test to report through.
#[derive(Default)]
struct LogPort {
    sink: Mutex<Option<pooldeck::app::ports::LogSink>>,
}

impl ClusterPort for LogPort {
    fn connect(&self, _context: String) -> Pending<Result<Connected, ClusterError>> {
        Box::pin(async { Err(ClusterError::ReadOnly) })
    }
    fn use_context(&self, _context: &str) {}
    fn watch(&self, _namespaces: Namespaces) {}
    fn perform(&self, _request: Request) -> Pending<Outcome> {
        Box::pin(async { Outcome::Failed(ClusterError::ReadOnly) })
    }
    fn follow_logs(&self, sink: pooldeck::app::ports::LogSink) {
        *self.sink.lock().expect("lock") = Some(sink);
    }
    fn connect_fleet(
        &self,
        _contexts: Vec<String>,
    ) -> Pending<Result<Vec<Connected>, ClusterError>> {
        Box::pin(async { Err(ClusterError::ReadOnly) })
    }
    fn use_fleet(&self, _contexts: &[String]) {}
    fn focus(&self, _hub: usize) {}
    fn epoch(&self) -> u64 {
        0
    }
    fn stop_logs(&self) {}

    fn remember(
        &self,
        _hub: usize,
        _seen: Vec<(pooldeck::inventory::Key, pooldeck::domain::timeline::Entry)>,
    ) {
    }

    fn history(
        &self,
        _hub: usize,
        _pool: pooldeck::domain::ObjectRef,
        _objects: Vec<String>,
    ) -> Pending<pooldeck::timeline::Kept> {
        Box::pin(async { pooldeck::timeline::Kept::default() })
    }
}

/// A log that comes faster than the console takes it waits: once the bounded queue is full,
/// the stream's next report is not done until the console has taken one (the stream then
/// reads no more from the server), so memory holds at most a queue's worth.
#[tokio::test]
async fn a_log_flood_waits_for_the_console() {
    use futures::FutureExt;
    use pooldeck::app::logs::LogEvent;
    let fake = Arc::new(LogPort::default());
    let port: Arc<dyn ClusterPort> = fake.clone();
    let (answers, _answered) = tokio::sync::mpsc::unbounded_channel();
    let (logs, mut logged) = tokio::sync::mpsc::channel(pooldeck::runtime::port::LOG_QUEUE);
    let outlets = pooldeck::runtime::port::Outlets { answers, logs };
    pooldeck::runtime::port::execute(&port, Effect::FollowLogs, &outlets);
    let sink = fake
        .sink
        .lock()
        .expect("lock")
        .take()
        .expect("the log was followed");
    let lines = |n: usize| LogEvent::Lines {
        pod: "hue-0".into(),
        lines: vec![format!("line {n}")],
    };
    for n in 0..pooldeck::runtime::port::LOG_QUEUE {
        assert!(
            sink(lines(n)).now_or_never().is_some(),
            "room for report {n}"
        );
    }
    let mut waiting = sink(lines(usize::MAX));
    assert!(
        (&mut waiting).now_or_never().is_none(),
        "the queue is full: the stream waits"
    );
    // The console takes one: the waiting report goes in.
    assert!(matches!(logged.recv().await, Some(LogEvent::Lines { .. })));
    tokio::time::timeout(Duration::from_secs(10), waiting)
        .await
        .expect("queued once there is room");
    let mut taken = 0;
    while logged.try_recv().is_ok() {
        taken += 1;
    }
    assert_eq!(
        taken,
        pooldeck::runtime::port::LOG_QUEUE,
        "nothing was lost"
    );
}
