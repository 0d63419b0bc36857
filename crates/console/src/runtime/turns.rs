//! The console's loop: it draws when something changed, waits for the next input (a key,
//! watch events, an answer, log lines, the clock, a signal), hands it to `update`, and carries
//! out the effects `update` leaves; the editor takes the terminal between frames.

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use crossterm::event::{Event, KeyEventKind};
use tokio::sync::mpsc::{Receiver, UnboundedReceiver};

use super::editing::{Editing, in_editor};
use super::input::{Input, Keys};
use super::terminal::{Asked, Screen, Signals};
use super::{HANGUP, TerminalError, clipboard, drafts, port, terminal_gone, tour};
use crate::app::failed::StoryError;
use crate::app::logs::LogEvent;
use crate::app::ports::ClusterPort;
use crate::app::{App, Effect, Msg, update};
use crate::demo::DemoCluster;
use crate::demo::scenario::Scenario;
use crate::theme::Theme;

/// How the loop ended, when not asked to quit: a signal (by its number; a terminal gone is a
/// hangup), or the terminal failed.
pub enum End {
    Signal(i32),
    Failed(TerminalError),
}

/// An I/O error of the terminal: a hangup when the terminal is gone, else the failure.
fn gone_or(error: std::io::Error, failed: fn(std::io::Error) -> TerminalError) -> End {
    if terminal_gone(&error) {
        End::Signal(HANGUP)
    } else {
        End::Failed(failed(error))
    }
}

/// Runs the console until it is asked to quit (`Ok`) or ends otherwise.
pub async fn event_loop(
    demo: Option<&DemoCluster>,
    app: &mut App,
    theme: &Theme,
    screen: &mut Screen,
    port: Arc<dyn ClusterPort>,
    sources: &mut Receiver<port::Tagged>,
    clipboard: crate::settings::Clipboard,
) -> Result<(), End> {
    let mut the = Loop::start(demo, screen, port, sources, clipboard)?;
    // What the updates asked for, carried out after each turn of the loop (the wizard opened
    // before the loop may have asked already).
    let mut effects = app.take_effects();
    let mut dirty = true;
    loop {
        if dirty {
            let (width, height) = the.draw(app, theme)?;
            dirty = false;
            // Keys are read for the screen as drawn: too small a screen shows no dialog, so
            // no key may act on one.
            if app.size != Some((width, height)) {
                effects.extend(update(app, Msg::Resize { width, height }));
                dirty = true;
                continue;
            }
        }
        if app.quit {
            return Ok(());
        }
        match the.next(app.building()).await {
            Turn::Update(msgs) => {
                for msg in msgs {
                    effects.extend(update(app, msg));
                }
                dirty = true;
            }
            Turn::Redraw => dirty = true,
            Turn::Quiet => {}
            Turn::End(signal) => return Err(End::Signal(signal)),
        }
        let mut asked = std::mem::take(&mut effects);
        // The editor takes the terminal, so it runs here, between frames; what its answer
        // asks for (the editor again, with findings; a confirmation's dry run) is carried out
        // at once, before any key is read.
        loop {
            let (redraw, edits) = the.carry_out(asked).await?;
            dirty |= redraw;
            if edits.is_empty() {
                break;
            }
            asked = Vec::new();
            for edit in edits {
                if let Some(answer) = the.edit(edit, app, &mut asked).await? {
                    asked.extend(update(app, answer));
                    dirty = true;
                }
            }
        }
    }
}

/// What a turn of the loop waited for.
enum Turn {
    /// Messages for `update`, in order; the screen is drawn again after.
    Update(Vec<Msg>),
    /// Drawn again (at a new size, which the draw tells `update`).
    Redraw,
    /// Nothing to do (a key released, events of a replaced watch).
    Quiet,
    End(i32),
}

/// What the loop holds besides the App: the terminal, the port, the queues it reads and the
/// writers it hands effects to.
struct Loop<'a> {
    demo: Option<&'a DemoCluster>,
    screen: &'a mut Screen,
    port: Arc<dyn ClusterPort>,
    sources: &'a mut Receiver<port::Tagged>,
    keys: Keys,
    clock: tokio::time::Interval,
    stop: Signals,
    clipboards: clipboard::Clipboards,
    drafts: drafts::Writer,
    saver: tour::Saver,
    outlets: port::Outlets,
    answered: UnboundedReceiver<Msg>,
    logged: Receiver<LogEvent>,
    /// How far the console's clock is from real time: on a support bundle it starts at the
    /// time the bundle was taken, so ages read as they did then.
    behind: chrono::TimeDelta,
}

impl<'a> Loop<'a> {
    fn start(
        demo: Option<&'a DemoCluster>,
        screen: &'a mut Screen,
        port: Arc<dyn ClusterPort>,
        sources: &'a mut Receiver<port::Tagged>,
        clipboard: crate::settings::Clipboard,
    ) -> Result<Loop<'a>, End> {
        let (answers, answered) = tokio::sync::mpsc::unbounded_channel::<Msg>();
        let (logs, logged) = tokio::sync::mpsc::channel(port::LOG_QUEUE);
        Ok(Loop {
            demo,
            screen,
            port,
            sources,
            keys: Keys::start().map_err(|e| End::Failed(TerminalError::Read(e)))?,
            clock: tokio::time::interval(Duration::from_secs(1)),
            stop: Signals::new(),
            clipboards: clipboard::Clipboards::new(clipboard),
            // Dropped when the loop ends, however it ends: what is queued is written first.
            drafts: drafts::Writer::start(answers.clone()),
            // The tour's progress, written in order off the loop (its thread idles without
            // a tour).
            saver: tour::Saver::start(answers.clone()),
            outlets: port::Outlets { answers, logs },
            answered,
            logged,
            behind: demo
                .and_then(DemoCluster::bundle_taken_at)
                .map_or(chrono::TimeDelta::zero(), |taken| taken - Utc::now()),
        })
    }

    /// Draws the screen; the size it was drawn at. A terminal gone (a dropped SSH session
    /// closes it before, or instead of, the SIGHUP) ends the loop as a hangup does.
    fn draw(&mut self, app: &App, theme: &Theme) -> Result<(u16, u16), End> {
        let drawn = self
            .screen
            .terminal
            .draw(|frame| crate::ui::render(app, theme, frame))
            .map_err(|e| gone_or(e, TerminalError::Draw))?;
        Ok((drawn.area.width, drawn.area.height))
    }

    /// Waits for the next input. A view being made (`building`) gets its next rows once
    /// what is waiting (keys, changes) had its chance.
    async fn next(&mut self, building: bool) -> Turn {
        tokio::select! {
            input = self.keys.next() => match input {
                Input::Event(Event::Key(key)) if key.kind != KeyEventKind::Release => {
                    Turn::Update(vec![Msg::Key(key)])
                }
                Input::Event(Event::Paste(text)) => Turn::Update(vec![Msg::Paste(text)]),
                Input::Event(_) => Turn::Quiet,
                // The terminal is gone (a closed SSH session): nothing left to draw on; it
                // ends as the hangup it is.
                Input::Gone => Turn::End(HANGUP),
            },
            Some(tagged) = self.sources.recv() => batch(tagged, self.sources, self.port.epoch()),
            Some(msg) = self.answered.recv() => Turn::Update(vec![msg]),
            Some(event) = self.logged.recv() => logs(event, &mut self.logged),
            _ = self.clock.tick() => Turn::Update(vec![Msg::Tick(Utc::now() + self.behind)]),
            () = tokio::task::yield_now(), if building => Turn::Update(vec![Msg::Build]),
            asked = self.stop.next() => match asked {
                Asked::End(signal) => Turn::End(signal),
                Asked::Suspend => Turn::Update(vec![Msg::Suspend]),
                Asked::Resized => Turn::Redraw,
            },
        }
    }

    /// Carries out the effects but the editor's: whether the screen must be drawn again, and
    /// the edits for the editor.
    async fn carry_out(&mut self, asked: Vec<Effect>) -> Result<(bool, Vec<Effect>), End> {
        let (edits, rest): (Vec<Effect>, Vec<Effect>) = asked
            .into_iter()
            .partition(|e| matches!(e, Effect::Edit { .. }));
        // The embedded demo's story starts again here: the loop holds the demo.
        let (resets, rest): (Vec<Effect>, Vec<Effect>) = rest
            .into_iter()
            .partition(|e| matches!(e, Effect::ResetDemo));
        if !resets.is_empty() {
            let result = match self.demo {
                Some(demo) => demo.reset().await.map_err(|e| StoryError::Demo(e.into())),
                None => Err(StoryError::NoDemo),
            };
            let _ = self.outlets.answers.send(Msg::DemoReset(result));
        }
        // A tour's chapter: another story on the same demo (the last one asked wins).
        let (plays, rest): (Vec<Effect>, Vec<Effect>) = rest
            .into_iter()
            .partition(|e| matches!(e, Effect::PlayScenario(_)));
        if let Some(Effect::PlayScenario(name)) = plays.into_iter().last() {
            self.play(name).await;
        }
        let redraw = self
            .run_effects(rest)
            .map_err(|e| gone_or(e, TerminalError::Suspend))?;
        Ok((redraw, edits))
    }

    /// Plays a scenario on the demo; `update` is told how it went.
    async fn play(&self, name: String) {
        let result = match (self.demo, Scenario::builtin(&name)) {
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
        let _ = self.outlets.answers.send(Msg::Played {
            scenario: name,
            result,
        });
    }

    /// Hands the effects to the executor; suspending is the loop's own. Whether the screen
    /// must be drawn again.
    fn run_effects(&mut self, effects: Vec<Effect>) -> std::io::Result<bool> {
        let mut redraw = false;
        for effect in effects {
            match effect {
                Effect::Suspend => {
                    self.screen.suspend()?;
                    redraw = true;
                }
                // The terminal is the loop's: OSC 52 goes out through it, between frames.
                Effect::Copy { text, what } => {
                    let backend = self.screen.terminal.backend_mut();
                    let result = self.clipboards.copy(&text, backend);
                    let _ = self.outlets.answers.send(Msg::Copied { what, result });
                }
                // Drafts are written off the loop, a burst of keystrokes once.
                Effect::SaveDraft { saved, replaces } => self.drafts.save(saved, replaces),
                Effect::DiscardDraft(file) => self.drafts.discard(file),
                // A few bytes, written off the loop; said only when it could not be kept.
                Effect::SaveTour(progress) => self.saver.save(progress),
                effect => port::execute(&self.port, effect, &self.outlets),
            }
        }
        Ok(redraw)
    }

    /// An edit in the user's editor: the answer for `update`. A hangup or a termination
    /// while the editor ran ends the console now (the edit's file stays for the next session).
    /// The watches go on meanwhile: what they bring is applied (what it asks for is added to
    /// `asked`), so the screen is up to date as soon as the editor returns.
    async fn edit(
        &mut self,
        edit: Effect,
        app: &mut App,
        asked: &mut Vec<Effect>,
    ) -> Result<Option<Msg>, End> {
        let Effect::Edit { file, text, resume } = edit else {
            return Ok(None);
        };
        let epoch = self.port.epoch();
        let mut watched = |first: port::Tagged, sources: &mut Receiver<port::Tagged>| {
            if let Turn::Update(msgs) = batch(first, sources, epoch) {
                for msg in msgs {
                    asked.extend(update(app, msg));
                }
            }
        };
        let editing = Editing {
            file: &file,
            text,
            resume,
        };
        let (answer, ended) = in_editor(
            self.screen,
            &mut self.keys,
            &mut self.stop,
            (self.sources, &mut watched),
            editing,
        )
        .await
        .map_err(|e| gone_or(e, TerminalError::Resume))?;
        match ended {
            Some(signal) => Err(End::Signal(signal)),
            None => Ok(Some(answer)),
        }
    }
}

/// Watch events as one message, with everything already queued: what is derived from them
/// (rows, findings) is brought up to date once for the lot, and drawn once. Events of a
/// replaced watch (another namespace or context) are dropped.
fn batch(first: port::Tagged, sources: &mut Receiver<port::Tagged>, epoch: u64) -> Turn {
    let mut batch = Vec::new();
    let mut next = Some(first);
    while let Some((tag, event)) = next {
        if tag.epoch == epoch {
            batch.push((tag.hub, event));
        }
        next = sources.try_recv().ok();
    }
    if batch.is_empty() {
        Turn::Quiet
    } else {
        Turn::Update(vec![Msg::Sources(batch)])
    }
}

/// Log reports, with what is queued already (no more than a queue's worth: a flood still lets
/// keys and the clock in), drawn once.
fn logs(first: LogEvent, logged: &mut Receiver<LogEvent>) -> Turn {
    let mut msgs = vec![Msg::Logs(first)];
    while msgs.len() < port::LOG_QUEUE {
        match logged.try_recv() {
            Ok(event) => msgs.push(Msg::Logs(event)),
            Err(_) => break,
        }
    }
    Turn::Update(msgs)
}
