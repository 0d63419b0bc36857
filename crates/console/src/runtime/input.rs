//! The terminal's keys, read on a thread of our own. crossterm's reader retries a read that
//! returns nothing, forever, once the terminal has hung up (a killed SSH session or tmux
//! pane): the console then spins and never ends. Here a hangup is reported once and the
//! thread ends; the bytes are parsed by termina's parser and handed on as crossterm's events,
//! which the rest of the console speaks. While the user's editor has the terminal the reader
//! is paused: it reads nothing (the keys are the editor's) but still notices a hangup.

use std::sync::mpsc;
use std::time::Duration;

use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use rustix::event::{PollFd, PollFlags};
use rustix::fd::OwnedFd;
use rustix::io::Errno;

/// What the reader hands on.
#[derive(Debug)]
pub enum Input {
    Event(Event),
    /// The terminal is gone (hung up, closed): nothing more will be read.
    Gone,
}

enum Control {
    /// Stop reading; the sender is answered once no read will follow.
    Pause(tokio::sync::oneshot::Sender<()>),
    Resume,
}

/// The console's end of the reader.
pub struct Keys {
    inputs: tokio::sync::mpsc::Receiver<Input>,
    control: mpsc::Sender<Control>,
    wake: OwnedFd,
}

/// How many inputs wait for the loop before the reader waits for it.
const QUEUE: usize = 1024;

/// A terminal that hung up is no longer there for anyone: if the console has not ended this
/// long after the reader saw it go (something held its loop), the reader ends it.
const LAST_RESORT: Duration = Duration::from_millis(900);

impl Keys {
    /// Starts reading standard input, which is the terminal.
    pub fn start() -> std::io::Result<Keys> {
        // Close-on-exec: the editor and any other child must not hold the pipe open.
        let (wake_read, wake) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?;
        let (sender, inputs) = tokio::sync::mpsc::channel(QUEUE);
        let (control, orders) = mpsc::channel();
        std::thread::Builder::new()
            .name("pooldeck-keys".into())
            .spawn(move || read(&wake_read, &orders, &sender))?;
        Ok(Keys {
            inputs,
            control,
            wake,
        })
    }

    /// The next input; `Gone` once the reader has ended.
    pub async fn next(&mut self) -> Input {
        self.inputs.recv().await.unwrap_or(Input::Gone)
    }

    /// Stops reading until [`Keys::resume`]: once this returns no key is taken from the
    /// terminal (a hangup is still reported). A reader that does not answer within a second
    /// has ended.
    pub async fn pause(&self) {
        let (answer, answered) = tokio::sync::oneshot::channel();
        if self.order(Control::Pause(answer)) {
            let _ = tokio::time::timeout(Duration::from_secs(1), answered).await;
        }
    }

    pub fn resume(&self) {
        self.order(Control::Resume);
    }

    fn order(&self, control: Control) -> bool {
        self.control.send(control).is_ok() && rustix::io::write(&self.wake, &[1]).is_ok()
    }
}

/// The reader's thread: waits for the terminal or an order, reads, parses, hands on.
fn read(wake: &OwnedFd, orders: &mpsc::Receiver<Control>, out: &tokio::sync::mpsc::Sender<Input>) {
    let tty = rustix::stdio::stdin();
    let mut parser = termina::Parser::default();
    let mut paused = false;
    let mut bytes = [0u8; 1024];
    loop {
        // Paused, the terminal is asked for nothing: a hangup and an error are said anyway.
        let wanted = if paused {
            PollFlags::empty()
        } else {
            PollFlags::IN
        };
        let mut fds = [PollFd::new(&tty, wanted), PollFd::new(wake, PollFlags::IN)];
        match rustix::event::poll(&mut fds, None) {
            Ok(_) | Err(Errno::INTR) => {}
            Err(_) => return gone(out, orders),
        }
        let (terminal, woken) = (fds[0].revents(), fds[1].revents());
        if !woken.is_empty() {
            let _ = rustix::io::read(wake, &mut [0u8; 64]);
            loop {
                match orders.try_recv() {
                    Ok(Control::Pause(answer)) => {
                        paused = true;
                        // Half a sequence typed before the pause would take the first key
                        // typed after it.
                        parser = termina::Parser::default();
                        let _ = answer.send(());
                    }
                    Ok(Control::Resume) => paused = false,
                    Err(mpsc::TryRecvError::Empty) => break,
                    // The console let go of its end: nothing more to read for.
                    Err(mpsc::TryRecvError::Disconnected) => return,
                }
            }
            continue;
        }
        let hung_up = PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL;
        if paused {
            if terminal.intersects(hung_up) {
                return gone(out, orders);
            }
            continue;
        }
        if terminal.is_empty() {
            continue;
        }
        let count = match rustix::io::read(tty, &mut bytes) {
            Ok(0) => return gone(out, orders),
            Ok(count) => count,
            Err(Errno::INTR | Errno::AGAIN) => continue,
            Err(_) => return gone(out, orders),
        };
        parser.parse(&bytes[..count], count == bytes.len());
        while let Some(event) = parser.pop() {
            // Keys beyond a full queue are dropped: the reader never waits on the loop, so a
            // pause or a hangup is always seen.
            if let Some(event) = event_of(event)
                && let Err(tokio::sync::mpsc::error::TrySendError::Closed(_)) =
                    out.try_send(Input::Event(event))
            {
                return;
            }
        }
    }
}

/// Says the terminal is gone; if the console has not ended its loop shortly after (its end of
/// the orders is still held), ends the process: nothing can be shown to anyone any more.
fn gone(out: &tokio::sync::mpsc::Sender<Input>, orders: &mpsc::Receiver<Control>) {
    let _ = out.try_send(Input::Gone);
    std::thread::sleep(LAST_RESORT);
    if !matches!(orders.try_recv(), Err(mpsc::TryRecvError::Disconnected)) {
        std::process::exit(128 + super::HANGUP);
    }
}

/// A parsed input as the console's event: keys and pastes; nothing else is asked of the
/// terminal, so anything else it sends is dropped.
fn event_of(event: termina::Event) -> Option<Event> {
    match event {
        termina::Event::Key(key) => key_of(key).map(Event::Key),
        termina::Event::Paste(text) => Some(Event::Paste(text)),
        _ => None,
    }
}

fn key_of(key: termina::event::KeyEvent) -> Option<KeyEvent> {
    use termina::event::{KeyCode as K, KeyEventKind as Kind, Modifiers as M};
    let code = match key.code {
        K::Char(c) => KeyCode::Char(c),
        K::Enter => KeyCode::Enter,
        K::Backspace => KeyCode::Backspace,
        K::Tab => KeyCode::Tab,
        K::BackTab => KeyCode::BackTab,
        K::Escape => KeyCode::Esc,
        K::Left => KeyCode::Left,
        K::Right => KeyCode::Right,
        K::Up => KeyCode::Up,
        K::Down => KeyCode::Down,
        K::Home => KeyCode::Home,
        K::End => KeyCode::End,
        K::PageUp => KeyCode::PageUp,
        K::PageDown => KeyCode::PageDown,
        K::Insert => KeyCode::Insert,
        K::Delete => KeyCode::Delete,
        K::Null => KeyCode::Null,
        K::Function(n) => KeyCode::F(n),
        _ => return None,
    };
    let mut modifiers = KeyModifiers::NONE;
    for (theirs, ours) in [
        (M::SHIFT, KeyModifiers::SHIFT),
        (M::CONTROL, KeyModifiers::CONTROL),
        (M::ALT, KeyModifiers::ALT),
        (M::SUPER, KeyModifiers::SUPER),
        (M::HYPER, KeyModifiers::HYPER),
        (M::META, KeyModifiers::META),
    ] {
        if key.modifiers.contains(theirs) {
            modifiers |= ours;
        }
    }
    let kind = match key.kind {
        Kind::Press => KeyEventKind::Press,
        Kind::Repeat => KeyEventKind::Repeat,
        Kind::Release => KeyEventKind::Release,
    };
    Some(KeyEvent::new_with_kind(code, modifiers, kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(bytes: &[u8]) -> Vec<Event> {
        let mut parser = termina::Parser::default();
        parser.parse(bytes, false);
        std::iter::from_fn(|| parser.pop())
            .filter_map(event_of)
            .collect()
    }

    fn key(code: KeyCode, modifiers: KeyModifiers) -> Event {
        Event::Key(KeyEvent::new(code, modifiers))
    }

    #[test]
    fn the_keys_the_console_reads_arrive_as_crossterms_events() {
        let none = KeyModifiers::NONE;
        assert_eq!(
            parsed(b"jG\r\t\x1b[Z\x7f"),
            [
                key(KeyCode::Char('j'), none),
                key(KeyCode::Char('G'), KeyModifiers::SHIFT),
                key(KeyCode::Enter, none),
                key(KeyCode::Tab, none),
                key(KeyCode::BackTab, KeyModifiers::SHIFT),
                key(KeyCode::Backspace, none),
            ]
        );
        assert_eq!(
            parsed(b"\x1b[A\x1bOB\x1b[5~\x1b[3~\x1b[1;5C\x03"),
            [
                key(KeyCode::Up, none),
                key(KeyCode::Down, none),
                key(KeyCode::PageUp, none),
                key(KeyCode::Delete, none),
                key(KeyCode::Right, KeyModifiers::CONTROL),
                key(KeyCode::Char('c'), KeyModifiers::CONTROL),
            ]
        );
        // A lone Escape at the end of what was read is the Escape key; é is one character.
        assert_eq!(
            parsed("é\x1b".as_bytes()),
            [key(KeyCode::Char('é'), none), key(KeyCode::Esc, none)]
        );
        assert_eq!(
            parsed(b"\x1b[200~a\nb\x1b[201~"),
            [Event::Paste("a\nb".into())]
        );
    }

    #[test]
    fn what_the_console_never_asked_for_is_dropped() {
        // A focus report and a cursor report: nothing a key binding could read.
        assert!(parsed(b"\x1b[I\x1b[12;40R").is_empty());
    }
}
