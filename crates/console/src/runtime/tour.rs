//! The tour's progress on disk: `$XDG_STATE_HOME/pooldeck/tour/progress`, two lines
//! (`chapter N`, `done N…`), private like the drafts, written as a new file moved into place.

use crate::app::failed::TourNotSaved;
use crate::app::tour::Progress;

/// The progress file's name in the tour directory.
const FILE: &str = "progress";

/// Keeps the progress; why not, in the user's terms.
pub fn save(progress: &Progress) -> Result<(), TourNotSaved> {
    let dir = crate::drafts::tour_dir()?;
    crate::files::write_private(&dir.join(FILE), progress.to_text().as_bytes())?;
    Ok(())
}

/// The progress kept, if any; a file that cannot be read or makes no sense is said (the
/// tour then starts at the first chapter, and the file is written anew as it starts).
pub fn load() -> (Progress, Option<String>) {
    let dir = match crate::drafts::tour_dir() {
        Ok(dir) => dir,
        Err(e) => {
            return (
                Progress::default(),
                Some(format!("the tour's progress cannot be kept: {e}")),
            );
        }
    };
    let path = dir.join(FILE);
    match crate::files::read_text(&path, crate::files::SMALL_FILE_BYTES) {
        // An empty file is no progress yet (a session ended before its first write).
        Ok(text) if text.trim().is_empty() => (Progress::default(), None),
        Ok(text) => match Progress::read(&text) {
            Ok(progress) => (progress, None),
            Err(why) => (
                Progress::default(),
                Some(format!(
                    "the tour's progress file {} makes no sense ({why}); starting at chapter 1",
                    path.display()
                )),
            ),
        },
        Err(crate::files::ReadError::NotFound) => (Progress::default(), None),
        Err(e) => (
            Progress::default(),
            Some(format!(
                "the tour's progress file {} cannot be read ({e}); starting at chapter 1",
                path.display()
            )),
        ),
    }
}

/// Writes the progress off the loop, one save after another in the order asked (a chapter
/// done, then another opened at once, are kept in that order; of a burst only the last is
/// written). Dropped, it writes what is queued first (for a moment at most).
pub struct Saver {
    saves: Option<std::sync::mpsc::Sender<Progress>>,
    done: std::sync::mpsc::Receiver<()>,
}

impl Saver {
    /// Starts the writer; a save that fails is said back as `Msg::TourNotSaved`.
    pub fn start(answers: tokio::sync::mpsc::UnboundedSender<crate::app::Msg>) -> Saver {
        let (saves, queue) = std::sync::mpsc::channel::<Progress>();
        let (finished, done) = std::sync::mpsc::channel::<()>();
        let spawned = std::thread::Builder::new()
            .name("pooldeck-tour".into())
            .spawn(move || {
                while let Ok(mut progress) = queue.recv() {
                    while let Ok(later) = queue.try_recv() {
                        progress = later;
                    }
                    if let Err(why) = save(&progress) {
                        let _ = answers.send(crate::app::Msg::TourNotSaved(why));
                    }
                }
                let _ = finished.send(());
            });
        if let Err(e) = spawned {
            crate::say::complain!("pooldeck: the tour's progress cannot be kept: {e}");
        }
        Saver {
            saves: Some(saves),
            done,
        }
    }

    pub fn save(&self, progress: Progress) {
        if let Some(saves) = &self.saves {
            let _ = saves.send(progress);
        }
    }
}

impl Drop for Saver {
    fn drop(&mut self) {
        self.saves = None;
        let _ = self.done.recv_timeout(std::time::Duration::from_secs(2));
    }
}
