//! The wizard's drafts written off the event loop: saves and discards go, in order, to one
//! thread that writes them; saves of a run still waiting are written once, the last (the
//! files the others would have written, and those they replace, are removed), so a burst of
//! keystrokes costs one write. Dropping the writer waits (a little) for what is queued: a
//! hangup does not lose the last keystroke.

use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::Duration;

use tokio::sync::mpsc::UnboundedSender;

use crate::app::Msg;
use crate::domain::draft::{NotKept, Saved};

/// How long dropping the writer waits for what is queued to be written.
const FLUSH_WITHIN: Duration = Duration::from_secs(3);

enum Job {
    Save {
        saved: Box<Saved>,
        replaces: Option<String>,
    },
    Discard(String),
}

/// The drafts' writer thread.
pub struct Writer {
    jobs: Option<Sender<Job>>,
    done: Receiver<()>,
}

impl Writer {
    /// Starts the thread; a failure is said back as `Msg::DraftNotSaved`.
    pub fn start(answers: UnboundedSender<Msg>) -> Writer {
        let (jobs, queue) = channel::<Job>();
        let (finished, done) = channel::<()>();
        let spawned = std::thread::Builder::new()
            .name("pooldeck-drafts".into())
            .spawn(move || {
                write_all(&queue, &answers);
                let _ = finished.send(());
            });
        if let Err(e) = spawned {
            // Without the thread every job fails to be queued, and says so.
            crate::say::complain!("pooldeck: drafts cannot be written: {e}");
        }
        Writer {
            jobs: Some(jobs),
            done,
        }
    }

    /// Keeps a draft (replacing the file it was kept in before, when another).
    pub fn save(&self, saved: Saved, replaces: Option<String>) {
        self.send(Job::Save {
            saved: Box::new(saved),
            replaces,
        });
    }

    /// Forgets the draft kept in this file.
    pub fn discard(&self, file: String) {
        self.send(Job::Discard(file));
    }

    fn send(&self, job: Job) {
        if let Some(jobs) = &self.jobs {
            let _ = jobs.send(job);
        }
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        // Closing the queue ends the thread once it has written what is in it.
        self.jobs = None;
        match self.done.recv_timeout(FLUSH_WITHIN) {
            Ok(()) | Err(RecvTimeoutError::Disconnected | RecvTimeoutError::Timeout) => {}
        }
    }
}

/// One draft saved, and the files it was kept in before removed; what stood in the way.
fn keep(saved: &Saved, remove: &[String]) -> Result<(), NotKept> {
    let dir = crate::drafts::dir().map_err(NotKept::Directory)?;
    crate::drafts::save(&dir, saved, None)?;
    let kept = saved.file_name();
    for file in remove.iter().filter(|f| **f != kept) {
        crate::drafts::discard(&dir, file).map_err(NotKept::Removed)?;
    }
    Ok(())
}

/// Writes what arrives until the queue closes.
fn write_all(queue: &Receiver<Job>, answers: &UnboundedSender<Msg>) {
    while let Ok(first) = queue.recv() {
        let mut batch = vec![first];
        batch.extend(queue.try_iter());
        for job in coalesce(batch) {
            let done = match job {
                Step::Save { saved, remove } => keep(&saved, &remove),
                Step::Discard(file) => crate::drafts::dir()
                    .map_err(NotKept::Directory)
                    .and_then(|dir| crate::drafts::discard(&dir, &file).map_err(NotKept::Removed)),
            };
            if let Err(why) = done {
                let _ = answers.send(Msg::DraftNotSaved(why));
            }
        }
    }
}

/// What is written for a batch: each run of saves once (its last), with every file the run
/// would have left behind to remove; discards in their place.
#[derive(Debug, PartialEq)]
enum Step {
    Save {
        saved: Box<Saved>,
        remove: Vec<String>,
    },
    Discard(String),
}

fn coalesce(batch: Vec<Job>) -> Vec<Step> {
    let mut out: Vec<Step> = Vec::new();
    for job in batch {
        match job {
            Job::Discard(file) => out.push(Step::Discard(file)),
            Job::Save { saved, replaces } => {
                let mut remove: Vec<String> = replaces.into_iter().collect();
                if let Some(Step::Save {
                    saved: earlier,
                    remove: before,
                }) = out.last_mut()
                {
                    remove.append(before);
                    remove.push(earlier.file_name());
                    out.pop();
                }
                out.push(Step::Save { saved, remove });
            }
        }
    }
    out
}

/// The drafts wizards left (a crash, a hangup, Esc), newest first (at most `most`), for `n`
/// and `e` to offer; those that cannot be read are left out here (`pooldeck new --drafts`
/// names them).
pub fn kept_drafts(most: usize) -> Vec<crate::app::drafts::Kept> {
    let Some(dir) = crate::drafts::existing_dir() else {
        return Vec::new();
    };
    crate::drafts::list(&dir, most)
        .into_iter()
        .filter_map(|listed| {
            Some(crate::app::drafts::Kept {
                file: listed.file,
                saved: listed.draft.ok()?,
                at: listed.modified.map(chrono::DateTime::<chrono::Utc>::from),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::draft::{Aim, Draft};
    use crate::domain::path::YamlPath;
    use serde_json::json;

    fn named(name: &str) -> Box<Saved> {
        let mut draft = Draft::new("ml");
        draft.set(&YamlPath::keys("metadata.name"), Some(json!(name)));
        Box::new(Saved {
            aim: Aim::New,
            context: String::new(),
            resource_version: None,
            started: "20261201T150000".into(),
            typing: None,
            draft,
        })
    }

    #[test]
    fn a_run_of_saves_is_written_once_and_leaves_no_file_behind() {
        // Typed g, gp, gpu: three files in turn, each replacing the one before.
        let (g, gp, gpu) = (named("g"), named("gp"), named("gpu"));
        let batch = vec![
            Job::Save {
                saved: g.clone(),
                replaces: Some("ml.unnamed.new.yaml".into()),
            },
            Job::Save {
                saved: gp.clone(),
                replaces: Some(g.file_name()),
            },
            Job::Save {
                saved: gpu.clone(),
                replaces: Some(gp.file_name()),
            },
            Job::Discard("other.yaml".into()),
            Job::Save {
                saved: gpu.clone(),
                replaces: None,
            },
        ];
        let steps = coalesce(batch);
        assert_eq!(steps.len(), 3, "{steps:?}");
        let Step::Save { saved, remove } = &steps[0] else {
            panic!("a save first");
        };
        assert_eq!(saved.name(), "gpu");
        for file in [
            "ml.unnamed.new.yaml".to_owned(),
            g.file_name(),
            gp.file_name(),
        ] {
            assert!(remove.contains(&file), "{file} in {remove:?}");
        }
        assert_eq!(steps[1], Step::Discard("other.yaml".into()));
    }
}
