//! The controller's log beside a pool (`l`): the hue controller's pods found as the
//! troubleshooting guide finds them, their lines streamed in (follow), by default only those
//! that mention the pool, with search, pause and scrolling. The lines are kept bounded; the
//! stream is the runtime's (an effect starts and stops it). Part of `update`.

use std::collections::VecDeque;

use super::commands::{Command, Scope};
use super::component::{After, Ask, Component, Ctx};
use super::{Effect, Overlay};
use crate::domain::ObjectRef;

/// How many lines the view keeps; older ones go (a followed log never ends).
pub const KEEP: usize = 10_000;
/// How many lines of each pod's past the stream starts with.
pub const TAIL: u32 = 500;

/// Where the troubleshooting guide finds the hue controller's pods.
pub const NAMESPACE: &str = "mural-system";
pub const SELECTOR: &str = "controller.spectrocloud.com/name=hue-controllers";

/// Why one pod's log stream ended, typed (its `Display` is the words the view says).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LogEnd {
    /// The server closed it.
    Closed,
    /// The server or the connection failed it.
    Error(crate::domain::ClusterError),
    /// What it sent could not be read.
    Unreadable(String),
}

impl std::fmt::Display for LogEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LogEnd::Closed => f.write_str("the server closed it"),
            LogEnd::Error(error) => write!(f, "{error}"),
            LogEnd::Unreadable(why) => f.write_str(why),
        }
    }
}

/// Why no log can be read at all, typed (its `Display` is the sentence the view says).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LogFailure {
    /// A step of finding the pods was refused (`what`: "list pods in mural-system").
    Refused {
        what: String,
        /// The permission that would let it (said when it is refused for want of one).
        needs: String,
        error: crate::domain::ClusterError,
    },
    /// No pod has the guide's label, and the fallback (a deployment named like hue) could
    /// not be looked for.
    NoLabelledPods { fallback: Box<LogFailure> },
    /// No pod has the guide's label, and no deployment named like hue has pods.
    NoControllerPods,
    /// There is no cluster here.
    NoCluster,
}

impl std::fmt::Display for LogFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LogFailure::Refused {
                what,
                needs,
                error: crate::domain::ClusterError::Forbidden { .. },
            } => write!(f, "not permitted to {what}: ask for {needs}"),
            LogFailure::Refused { what, error, .. } => write!(f, "cannot {what}: {error}"),
            LogFailure::NoLabelledPods { fallback } => write!(
                f,
                "no pod in {NAMESPACE} has the label {SELECTOR}, and {fallback}"
            ),
            LogFailure::NoControllerPods => write!(
                f,
                "no hue controller pods: none in {NAMESPACE} with the label {SELECTOR}, and no \
                 deployment named like hue (kubectl get deployments --all-namespaces | grep \
                 --ignore-case hue)"
            ),
            LogFailure::NoCluster => f.write_str("no cluster here: the controller's log needs one"),
        }
    }
}

/// What the log stream reports (from the runtime).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LogEvent {
    /// The pods found, and how (`mural-system by label`, or the fallback deployment).
    Started {
        pods: Vec<String>,
        found: String,
    },
    Lines {
        pod: String,
        lines: Vec<String>,
    },
    /// One pod's stream ended.
    Ended {
        pod: String,
        reason: LogEnd,
    },
    /// No log can be read, and why.
    Failed(LogFailure),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLine {
    pub pod: String,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogView {
    pub pool: ObjectRef,
    pub lines: VecDeque<LogLine>,
    /// Lines that went to keep the view bounded.
    pub dropped: u64,
    /// Every line, or only those that mention the pool.
    pub all: bool,
    /// The screen holds still (lines keep arriving underneath).
    pub paused: bool,
    /// Lines back from the newest shown (0: following the end).
    pub back: usize,
    pub search: String,
    /// Typing the search.
    pub searching: bool,
    /// What the stream said: the pods followed, an end, or why there is no log.
    pub said: Option<String>,
    pub failed: bool,
    /// Pod streams still open; once the last ends the view no longer says it follows.
    pub open: usize,
    /// Every stream has ended.
    pub ended: bool,
}

impl LogView {
    pub fn new(pool: ObjectRef) -> LogView {
        LogView {
            pool,
            lines: VecDeque::new(),
            dropped: 0,
            all: false,
            paused: false,
            back: 0,
            search: String::new(),
            searching: false,
            said: Some("looking for the hue controller's pods…".into()),
            failed: false,
            open: 0,
            ended: false,
        }
    }

    /// Whether a line is about this pool: its name as a whole word.
    pub fn mentions(&self, text: &str) -> bool {
        crate::domain::timeline::mentions(text, &self.pool.name)
    }

    /// The lines shown: all, or those about the pool, oldest first.
    pub fn shown(&self) -> impl Iterator<Item = &LogLine> {
        self.lines
            .iter()
            .filter(move |l| self.all || self.mentions(&l.text))
    }

    fn take(&mut self, event: LogEvent) {
        match event {
            LogEvent::Started { pods, found } => {
                self.open = pods.len();
                self.said = Some(format!(
                    "following {} ({found})",
                    if pods.len() == 1 {
                        pods[0].clone()
                    } else {
                        format!("{} pods", pods.len())
                    }
                ));
            }
            LogEvent::Lines { pod, lines } => {
                let before = self.shown().count();
                for text in lines {
                    self.lines.push_back(LogLine {
                        pod: pod.clone(),
                        text,
                    });
                }
                while self.lines.len() > KEEP {
                    self.lines.pop_front();
                    self.dropped += 1;
                }
                // Paused or scrolled back: the screen stays on the same lines.
                if self.paused || self.back > 0 {
                    let after = self.shown().count();
                    self.back += after.saturating_sub(before);
                }
            }
            LogEvent::Ended { pod, reason } => {
                self.open = self.open.saturating_sub(1);
                self.ended = self.open == 0;
                self.said = Some(format!("{pod}: the log ended ({reason})"));
            }
            LogEvent::Failed(why) => {
                self.said = Some(why.to_string());
                self.failed = true;
            }
        }
    }
}

/// `l` on a pool (`None`: no pool in view): the view opens and the stream starts.
pub fn open(ctx: &mut Ctx, pool: Option<ObjectRef>) {
    let Some(pool) = pool else {
        ctx.say("l shows the controller's log beside a pool: select one");
        return;
    };
    ctx.effect(Effect::FollowLogs);
    ctx.ask(Ask::Open(Overlay::Logs(Box::new(LogView::new(pool)))));
}

/// A report of the stream, for the view if it is open.
pub fn arrived(overlays: &mut [Overlay], event: LogEvent) {
    if let Some(view) = overlays.iter_mut().rev().find_map(|o| match o {
        Overlay::Logs(view) => Some(view),
        _ => None,
    }) {
        view.take(event);
    }
}

impl Component for LogView {
    fn scopes(&self) -> Vec<Scope> {
        if self.searching {
            vec![Scope::LogSearch]
        } else {
            vec![Scope::Logs]
        }
    }

    fn handle(&mut self, command: Command, ctx: &mut Ctx) -> After {
        let page = isize::try_from(ctx.page).unwrap_or(isize::MAX);
        match command {
            Command::Close | Command::Cancel => return self.close(ctx),
            Command::PauseLogs => self.toggle_pause(),
            Command::AllLines => self.toggle_all(),
            Command::Search => {
                self.searching = true;
                self.search.clear();
            }
            Command::NextMatch => self.next_match(),
            Command::Erase if self.searching => {
                self.search.pop();
            }
            Command::Up => self.scroll(-1),
            Command::Down => self.scroll(1),
            Command::PageUp => self.scroll(-page),
            Command::PageDown => self.scroll(page),
            Command::Last => self.scroll(isize::MAX),
            // Not bound in the log's scopes.
            _ => {}
        }
        After::Stay
    }

    fn typed(&mut self) -> Option<&mut String> {
        self.searching.then_some(&mut self.search)
    }
}

impl LogView {
    /// Esc: the search being typed, or the one kept, goes first; then the view closes and
    /// the stream stops.
    fn close(&mut self, ctx: &mut Ctx) -> After {
        if self.searching || !self.search.is_empty() {
            self.searching = false;
            self.search.clear();
            return After::Stay;
        }
        ctx.effect(Effect::StopLogs);
        After::Close
    }

    fn toggle_pause(&mut self) {
        self.paused = !self.paused;
        if !self.paused {
            self.back = 0;
        }
    }

    fn toggle_all(&mut self) {
        self.all = !self.all;
        self.back = 0;
    }

    /// ↑↓ PgUp PgDn: back through the log, or towards its end (the end follows again).
    fn scroll(&mut self, lines: isize) {
        let total = self.shown().count();
        self.back = if lines < 0 {
            (self.back + lines.unsigned_abs()).min(total.saturating_sub(1))
        } else {
            self.back.saturating_sub(lines.unsigned_abs())
        };
    }

    /// Enter keeps the search; `n` goes to the next older line that matches it.
    fn next_match(&mut self) {
        self.searching = false;
        let needle = self.search.to_lowercase();
        if needle.is_empty() {
            return;
        }
        let shown: Vec<&LogLine> = self.shown().collect();
        let newest = shown.len().saturating_sub(1);
        let from = newest.saturating_sub(self.back);
        let found = (0..from)
            .rev()
            .find(|i| shown[*i].text.to_lowercase().contains(&needle))
            .or_else(|| {
                (from..shown.len())
                    .rev()
                    .find(|i| shown[*i].text.to_lowercase().contains(&needle))
            });
        match found {
            Some(i) => self.back = newest - i,
            None => self.said = Some(format!("\"{}\" is not in the lines shown", self.search)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Kind;

    fn event_lines(texts: &[&str]) -> LogEvent {
        LogEvent::Lines {
            pod: "hue".into(),
            lines: texts.iter().map(|t| (*t).to_owned()).collect(),
        }
    }

    #[test]
    fn l_starts_the_stream_esc_stops_it_and_lines_land_in_the_view() {
        use crate::app::Msg;
        use crate::app::script::{forget_returned, returned, update};
        use crate::app::tests::fleet_app;
        use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
        let key = |c| Msg::Key(KeyEvent::new(c, KeyModifiers::NONE));
        let mut app = fleet_app();
        forget_returned();
        let pool = app.shown.row(app.list.selected).expect("a pool").id.clone();
        update(&mut app, key(KeyCode::Char('l')));
        assert!(returned().contains(&Effect::FollowLogs), "{:?}", returned());
        update(
            &mut app,
            Msg::Logs(LogEvent::Lines {
                pod: "hue".into(),
                lines: vec![format!("reconciling {}", pool.name), "other".into()],
            }),
        );
        match app.overlays.last() {
            Some(Overlay::Logs(view)) => assert_eq!(view.shown().count(), 1),
            other => panic!("the log view: {other:?}"),
        }
        // A key that acts in the list does nothing here: `n` is the search's.
        update(&mut app, key(KeyCode::Char('n')));
        assert!(matches!(app.overlays.last(), Some(Overlay::Logs(_))));
        // A search kept with Enter goes with the first Esc; the second closes the view.
        update(&mut app, key(KeyCode::Char('/')));
        update(&mut app, key(KeyCode::Char('x')));
        update(&mut app, key(KeyCode::Enter));
        update(&mut app, key(KeyCode::Esc));
        match app.overlays.last() {
            Some(Overlay::Logs(view)) => assert!(view.search.is_empty() && !view.searching),
            other => panic!("the log view stays: {other:?}"),
        }
        update(&mut app, key(KeyCode::Esc));
        assert!(app.overlays.is_empty());
        assert!(returned().contains(&Effect::StopLogs));
    }

    #[test]
    fn only_lines_about_the_pool_unless_all() {
        let mut view = LogView::new(ObjectRef::new(Kind::Pool, "ns", "pool-1"));
        view.take(event_lines(&[
            "reconciling {\"name\":\"pool-1\"}",
            "reconciling {\"name\":\"pool-10\"}",
            "starting workers",
        ]));
        let shown: Vec<&str> = view.shown().map(|l| l.text.as_str()).collect();
        assert_eq!(
            shown,
            ["reconciling {\"name\":\"pool-1\"}"],
            "pool-10 is not pool-1"
        );
        view.all = true;
        assert_eq!(view.shown().count(), 3);
    }

    #[test]
    fn paused_the_screen_holds_while_lines_arrive_and_the_buffer_is_bounded() {
        let mut view = LogView::new(ObjectRef::new(Kind::Pool, "ns", "p"));
        view.all = true;
        view.take(event_lines(&["a", "b"]));
        view.paused = true;
        view.take(event_lines(&["c", "d"]));
        assert_eq!(view.back, 2, "the same lines stay on screen");
        let many: Vec<String> = (0..KEEP + 5).map(|i| i.to_string()).collect();
        view.take(LogEvent::Lines {
            pod: "hue".into(),
            lines: many,
        });
        assert_eq!(view.lines.len(), KEEP);
        assert_eq!(view.dropped, 9);
    }
}
