//! `timeline --watch`: the picture kept current and every change seen kept, the pool's new
//! entries printed as they come (changes, events, pooldeck's actions, the controller's lines).

use std::collections::HashSet;

use chrono::Utc;

use super::{Shape, TimelineArgs};
use crate::domain::inert;
use crate::domain::timeline::{self, Entry};
use crate::inventory::Inventory;
use crate::timeline::Store;

/// What `--watch` goes on from: the command, its hub and pool, when it started, what it
/// printed, its client.
pub(super) struct Watched<'a> {
    pub(super) args: &'a TimelineArgs,
    pub(super) hub: &'a crate::domain::Hub,
    pub(super) namespace: &'a str,
    pub(super) started: chrono::DateTime<Utc>,
    pub(super) shown: &'a [Entry],
    pub(super) audit: Option<std::path::PathBuf>,
    pub(super) client: kube::Client,
}

/// Watches on until Ctrl-C, a hangup or a termination (then its end is noted); the exit
/// status: 1 when what is seen cannot be kept.
pub(super) async fn watch(
    watched: Watched<'_>,
    inventory: &mut Inventory,
    receiver: &mut tokio::sync::mpsc::Receiver<crate::sources::watch::Tagged>,
    store: Result<Store, crate::timeline::StoreError>,
) -> u8 {
    let Watched {
        args,
        hub,
        namespace,
        started,
        shown,
        audit,
        client,
    } = watched;
    let store = match store {
        Ok(store) => store,
        Err(why) => {
            crate::say::complain!("pooldeck: cannot watch: what is seen could not be kept: {why}");
            return 1;
        }
    };
    store.bound();
    let _watching = store.watching(&[namespace.to_owned()], started);
    inventory.note_changes();
    let mut printing = Follow {
        args,
        pool: (namespace, &args.name),
        server: &hub.server,
        audit,
        audit_length: 0,
        printed: HashSet::new(),
        workloads: Vec::new(),
    };
    // What the hub holds so far, then each new entry as it comes, in one form.
    if printing.print(shown.to_vec()) {
        follow(inventory, receiver, &store, printing, client).await;
    }
    0
}

/// How many entries `--watch` remembers as printed; past it, it starts over.
const PRINTED_AT_MOST: usize = 10_000;

/// How often `--watch` looks at the audit log for pooldeck's new actions.
const AUDIT_EVERY: std::time::Duration = std::time::Duration::from_secs(2);

/// What `--watch` follows besides the picture: the audit log and the controller's log, and
/// what it has printed (each entry once, by its subject and text).
struct Follow<'a> {
    args: &'a TimelineArgs,
    pool: (&'a str, &'a str),
    server: &'a str,
    audit: Option<std::path::PathBuf>,
    audit_length: u64,
    printed: HashSet<(String, String, chrono::DateTime<Utc>)>,
    workloads: Vec<String>,
}

impl Follow<'_> {
    /// Each entry not printed yet, printed, oldest first: a line (text), a JSON line, or a
    /// YAML document. Whether the output still takes them (a closed pipe ends the watch).
    fn print(&mut self, mut entries: Vec<Entry>) -> bool {
        use std::io::Write;
        if self.printed.len() > PRINTED_AT_MOST {
            self.printed.clear();
        }
        entries.retain(|e| {
            self.printed
                .insert((e.subject.clone(), e.text.clone(), e.at))
        });
        entries.sort_by_key(|e| e.at);
        let mut out = std::io::stdout().lock();
        for entry in &entries {
            let text = match self.args.output {
                Shape::Text => format!("{}\n", timeline::line(entry, false)),
                Shape::Json => {
                    let line = serde_json::to_string(entry).unwrap_or_default();
                    format!("{}\n", inert::json(&line))
                }
                Shape::Yaml => {
                    let value = serde_json::to_value(entry).unwrap_or_default();
                    format!("---\n{}", inert::yaml(&value).unwrap_or_default())
                }
            };
            if out
                .write_all(text.as_bytes())
                .and_then(|()| out.flush())
                .is_err()
            {
                return false;
            }
        }
        true
    }

    /// The changes seen (kept for every pool), and the event just applied when it is about
    /// the pool (`event`: its key).
    fn changed(
        &mut self,
        inventory: &mut Inventory,
        store: &Store,
        event: Option<crate::inventory::Key>,
    ) -> Vec<Entry> {
        let (namespace, name) = self.pool;
        let seen = inventory.take_seen();
        // A pool gone brings what the hub held of it: kept, not printed again.
        let mut new: Vec<Entry> = seen
            .iter()
            .filter(|((ns, pool), e)| {
                ns == namespace && pool == name && e.clock == timeline::Clock::Pooldeck
            })
            .map(|(_, e)| e.clone())
            .collect();
        self.workloads.extend(new.iter().filter_map(|e| {
            Some(format!(
                "AIWorkload {}",
                e.subject.strip_prefix("aiworkload ")?
            ))
        }));
        if let Err(why) = store.keep_all(seen) {
            crate::say::complain!("pooldeck: warning: what was seen cannot be kept: {why}");
        }
        let about = |e: &&crate::domain::model::event::Event| {
            e.involved("kind") == Some("ComputePool")
                && e.involved("name") == Some(name)
                && e.involved("namespace").unwrap_or(namespace) == namespace
        };
        let event = event.and_then(|(ns, n)| inventory.get(crate::inventory::Kind::Event, &ns, &n));
        let event = event.and_then(|e| e.event()).filter(about);
        new.extend(timeline::from_events(event));
        new
    }

    /// pooldeck's actions answered since the audit log was last read (read when it grew).
    fn acted(&mut self, inventory: &Inventory) -> Vec<Entry> {
        let Some(path) = &self.audit else {
            return Vec::new();
        };
        let length = std::fs::metadata(path).map_or(0, |m| m.len());
        if length == self.audit_length {
            return Vec::new();
        }
        self.audit_length = length;
        let Ok(text) = crate::files::read_tail(path, 4 * 1024 * 1024) else {
            return Vec::new();
        };
        let mut objects = crate::timeline::related(inventory, self.pool.0, self.pool.1);
        objects.extend(self.workloads.iter().cloned());
        let mut entries = timeline::from_audit(&text, self.server, &objects);
        entries.retain(|e| !e.text.ends_with("no outcome recorded"));
        entries
    }
}

/// The picture kept current, each change seen kept, the pool's new entries printed as they
/// come: changes, events, pooldeck's actions and the controller's lines.
async fn follow(
    inventory: &mut Inventory,
    receiver: &mut tokio::sync::mpsc::Receiver<crate::sources::watch::Tagged>,
    store: &Store,
    mut printing: Follow<'_>,
    client: kube::Client,
) {
    let (lines, mut log) = tokio::sync::mpsc::channel::<Vec<String>>(16);
    let following = tokio::spawn(crate::runtime::logs::follow(
        client,
        Box::new(move |event| {
            let lines = lines.clone();
            Box::pin(async move {
                if let crate::app::logs::LogEvent::Lines { lines: batch, .. } = event {
                    let _ = lines.send(batch).await;
                }
            })
        }),
    ));
    printing.audit_length = printing
        .audit
        .as_deref()
        .and_then(|p| std::fs::metadata(p).ok())
        .map_or(0, |m| m.len());
    let mut audit = tokio::time::interval(AUDIT_EVERY);
    let ended = ended();
    tokio::pin!(ended);
    loop {
        let new = tokio::select! {
            event = receiver.recv() => match event {
                Some((_, event)) => {
                    let key = event_key(&event);
                    inventory.apply(event, Utc::now());
                    printing.changed(inventory, store, key)
                }
                None => break,
            },
            Some(batch) = log.recv() => timeline::from_log(batch.iter().map(String::as_str), printing.pool),
            _ = audit.tick() => printing.acted(inventory),
            () = &mut ended => break,
        };
        if !printing.print(new) {
            break;
        }
    }
    following.abort();
}

/// The key of an event added or changed one at a time (a relist's are old news).
fn event_key(event: &crate::inventory::SourceEvent) -> Option<crate::inventory::Key> {
    use crate::inventory::{Kind, SourceEvent};
    match event {
        SourceEvent::Applied {
            kind: Kind::Event,
            object,
        } => Some(crate::inventory::key_of(object)),
        SourceEvent::Read { object } if object.kind == Kind::Event => Some(object.key.clone()),
        _ => None,
    }
}

/// Ctrl-C, a hangup or a termination: the watch ends, saying when it stopped watching.
async fn ended() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let (Ok(mut hangup), Ok(mut term)) = (
            signal(SignalKind::hangup()),
            signal(SignalKind::terminate()),
        ) else {
            return std::future::pending().await;
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = hangup.recv() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = tokio::signal::ctrl_c().await;
}
