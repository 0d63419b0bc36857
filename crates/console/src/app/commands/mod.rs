//! The one command registry: every key of the console maps to a [`Command`] in one table,
//! and the same table makes the footer hints, the `?` help and README's key table (a test
//! keeps README in step). Which bindings apply depends on the [`Scope`]: the top overlay, the
//! text being typed, the pool detail, or the list.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

mod read;
mod scope;
pub mod words;

pub use read::{TOGETHER, clashes, footer, help, markdown};
pub use scope::Scope;

/// What a key asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    Quit,
    /// Stop for now, as Ctrl-Z does in a shell.
    Suspend,
    Help,
    /// Close the top overlay.
    Close,
    Up,
    Down,
    PageUp,
    PageDown,
    First,
    Last,
    Open,
    Describe,
    Yaml,
    Filter,
    CommandLine,
    SortNext,
    SortReverse,
    WarningsOnly,
    /// Leave the pool detail for the list.
    Back,
    /// Clear the filter and the message.
    Clear,
    NextTab,
    PreviousTab,
    /// Jump to the tab whose number was typed.
    JumpTab,
    RunFix,
    /// The controller's log beside a pool.
    ControllerLogs,
    /// Watch every namespace (`0`, as k9s).
    AllNamespaces,
    /// The pool as YAML in the user's editor.
    RawEdit,
    /// Watch the favourite namespace whose number was typed (`1`-`9`, as k9s).
    FavouriteNamespace,
    PauseLogs,
    AllLines,
    NextMatch,
    Search,
    /// In a text field: keep what was typed.
    Accept,
    /// In a text field: drop it.
    Cancel,
    /// On the command line: complete the word.
    Complete,
    /// In a text field: delete the last character.
    Erase,
    /// Mark or unmark the row (a fix then applies to every marked pool).
    Mark,
    /// Pause reconciliation, or resume it when every chosen pool is paused.
    PauseResume,
    /// Delete the pool safely.
    Delete,
    /// Unblock a deletion that does not complete.
    Unblock,
    /// What the pool refers to: its ScalingPolicy, or its AIWorkloads.
    Related,
    /// Copy what is in view: a name, the YAML, or a dialog's kubectl equivalent.
    Copy,
    /// In a dialog: the next or the previous control.
    FocusNext,
    FocusPrevious,
    /// In a dialog: press the focused control.
    Activate,
    /// Open the wizard on a new pool, or on the selected one.
    NewPool,
    EditPool,
    /// In the wizard: the next or previous step.
    NextStep,
    PreviousStep,
    /// In the wizard: the next choice, or the toggle flipped.
    Cycle,
    AddEntry,
    Recreate,
    RemoveEntry,
    /// In the wizard's Review: the server's dry run.
    DryRun,
    /// In the wizard's Review: apply (behind a confirmation).
    Apply,
    /// In the wizard's Review: write the manifest to the file given (`pooldeck new -o`).
    Write,
    /// Among the drafts offered: discard the one under the cursor (asked twice).
    DiscardDraft,
    /// In the tour: the step's answer shown or hidden.
    TourAnswer,
    /// In the tour: the next chapter, once this one is done.
    NextChapter,
    /// On the Timeline tab: show or hide the entries of the source whose letter was typed.
    ToggleSource,
    /// On the Timeline tab: newest first, or oldest first.
    Reverse,
    /// On the Timeline tab: the entry at the top opened, or closed.
    OpenEntry,
}

/// One key (or a few equivalent keys) bound to a command in a scope.
#[derive(Debug)]
pub struct Binding {
    pub scope: Scope,
    pub keys: &'static [(KeyCode, KeyModifiers)],
    /// How the keys read in the help and README.
    pub label: &'static str,
    /// How they read in the footer, with the hint; `None`: not in the footer.
    pub footer: Option<(&'static str, &'static str)>,
    pub command: Command,
    /// What it does, for the help and README.
    pub help: &'static str,
}

const NONE: KeyModifiers = KeyModifiers::NONE;
const SHIFT: KeyModifiers = KeyModifiers::SHIFT;
const CONTROL: KeyModifiers = KeyModifiers::CONTROL;

const fn ch(c: char) -> (KeyCode, KeyModifiers) {
    (KeyCode::Char(c), NONE)
}

const fn key(code: KeyCode) -> (KeyCode, KeyModifiers) {
    (code, NONE)
}

macro_rules! bind {
    ($scope:ident, [$($key:expr),+], $label:expr, $footer:expr, $command:ident, $help:expr) => {
        Binding {
            scope: Scope::$scope,
            keys: &[$($key),+],
            label: $label,
            footer: $footer,
            command: Command::$command,
            help: $help,
        }
    };
}

/// Every binding, in the order the footer and the help list them.
#[rustfmt::skip]
pub const BINDINGS: &[Binding] = &[
    bind!(Global, [(KeyCode::Char('c'), CONTROL)], "Ctrl-C", None, Quit, "quit at once, from anywhere"),
    bind!(Global, [(KeyCode::Char('z'), CONTROL)], "Ctrl-Z", None, Suspend, "suspend to the shell (fg comes back)"),
    // The help overlay.
    bind!(Help, [key(KeyCode::Esc), ch('?'), ch('q')], "Esc ? q", Some(("Esc", "close")), Close, "close the help"),
    bind!(Help, [key(KeyCode::Down), ch('j')], "↓ j", Some(("↑↓", "scroll")), Down, "scroll down"),
    bind!(Help, [key(KeyCode::Up), ch('k')], "↑ k", None, Up, "scroll up"),
    bind!(Help, [key(KeyCode::PageDown)], "PgDn", None, PageDown, "scroll a page down"),
    bind!(Help, [key(KeyCode::PageUp)], "PgUp", None, PageUp, "scroll a page up"),
    // A confirmation: Cancel has the focus; Esc cancels anywhere.
    bind!(Confirm, [key(KeyCode::Esc)], "Esc", Some(("Esc", "cancel")), Close, "cancel: nothing is sent"),
    bind!(Confirm, [key(KeyCode::Tab), key(KeyCode::Right)], "Tab →", Some(("Tab", "next")), FocusNext, "the next control"),
    bind!(Confirm, [key(KeyCode::BackTab), (KeyCode::BackTab, SHIFT), key(KeyCode::Left)], "Shift-Tab ←", None, FocusPrevious, "the previous control"),
    bind!(Confirm, [key(KeyCode::Enter)], "Enter", Some(("Enter", "press")), Activate, "press the focused button (Confirm works once the dry run passed and the text is typed)"),
    bind!(Confirm, [ch('c')], "c", Some(("c", "copy kubectl")), Copy, "copy the kubectl equivalent"),
    bind!(Confirm, [key(KeyCode::Down), ch('j')], "↓ j", None, Down, "scroll the dialog"),
    bind!(Confirm, [key(KeyCode::Up), ch('k')], "↑ k", None, Up, "scroll the dialog back"),
    bind!(Confirm, [key(KeyCode::PageDown)], "PgDn", None, PageDown, "scroll the dialog a page"),
    bind!(Confirm, [key(KeyCode::PageUp)], "PgUp", None, PageUp, "scroll the dialog a page back"),
    bind!(ConfirmField, [key(KeyCode::Down)], "↓", None, Down, "scroll the dialog (letters go into the text)"),
    bind!(ConfirmField, [key(KeyCode::Up)], "↑", None, Up, "scroll the dialog back"),
    bind!(ConfirmField, [key(KeyCode::PageDown)], "PgDn", None, PageDown, "scroll the dialog a page"),
    bind!(ConfirmField, [key(KeyCode::PageUp)], "PgUp", None, PageUp, "scroll the dialog a page back"),
    bind!(ConfirmField, [key(KeyCode::Esc)], "Esc", Some(("Esc", "cancel")), Close, "cancel: nothing is sent"),
    bind!(ConfirmField, [key(KeyCode::Tab)], "Tab", Some(("Tab", "next")), FocusNext, "the next control"),
    bind!(ConfirmField, [key(KeyCode::BackTab), (KeyCode::BackTab, SHIFT)], "Shift-Tab", None, FocusPrevious, "the previous control"),
    bind!(ConfirmField, [key(KeyCode::Enter)], "Enter", Some(("Enter", "to Confirm")), Activate, "move to the Confirm button once the text matches"),
    bind!(ConfirmField, [key(KeyCode::Backspace)], "Backspace", None, Erase, "delete a character"),
    // The controller's log.
    bind!(Logs, [key(KeyCode::Esc), ch('q')], "Esc q", Some(("Esc", "close")), Close, "close the log (its stream stops)"),
    bind!(Logs, [ch(' ')], "Space", Some(("Space", "pause")), PauseLogs, "pause the screen (lines keep arriving) or follow again"),
    bind!(Logs, [ch('a')], "a", Some(("a", "all/pool")), AllLines, "every line, or only those about the pool"),
    bind!(Logs, [ch('/')], "/", Some(("/", "search")), Search, "search the log (backwards from the screen)"),
    bind!(Logs, [ch('n')], "n", None, NextMatch, "the next older line that matches the search"),
    bind!(Logs, [key(KeyCode::Up), ch('k')], "↑ k", Some(("↑↓", "scroll")), Up, "a line back"),
    bind!(Logs, [key(KeyCode::Down), ch('j')], "↓ j", None, Down, "a line on (at the end it follows again)"),
    bind!(Logs, [key(KeyCode::PageUp)], "PgUp", None, PageUp, "a page back"),
    bind!(Logs, [key(KeyCode::PageDown)], "PgDn", None, PageDown, "a page on"),
    bind!(Logs, [key(KeyCode::End), ch('G')], "End G", None, Last, "the end, following"),
    bind!(LogSearch, [key(KeyCode::Enter)], "Enter", Some(("Enter", "find")), NextMatch, "find it"),
    bind!(LogSearch, [key(KeyCode::Esc)], "Esc", Some(("Esc", "cancel")), Close, "drop the search"),
    bind!(LogSearch, [key(KeyCode::Backspace)], "Backspace", None, Erase, "delete a character"),
    // The wizard.
    bind!(Event, [key(KeyCode::Down), ch('j')], "↓ j", Some(("↑↓", "scroll")), Down, "scroll down"),
    bind!(Event, [key(KeyCode::Up), ch('k')], "↑ k", None, Up, "scroll up"),
    bind!(Event, [key(KeyCode::PageDown)], "PgDn", None, PageDown, "a page down"),
    bind!(Event, [key(KeyCode::PageUp)], "PgUp", None, PageUp, "a page up"),
    bind!(Event, [key(KeyCode::Enter)], "Enter", Some(("Enter", "go to object")), Activate, "open the object the event concerns (a pool: its detail)"),
    bind!(Event, [ch('c')], "c", Some(("c", "copy")), Copy, "copy the message"),
    bind!(Event, [key(KeyCode::Esc), ch('q')], "Esc q", Some(("Esc", "close")), Close, "close"),
    bind!(Describe, [key(KeyCode::Down), ch('j')], "↓ j", Some(("↑↓", "scroll")), Down, "scroll down"),
    bind!(Describe, [key(KeyCode::Up), ch('k')], "↑ k", None, Up, "scroll up"),
    bind!(Describe, [key(KeyCode::PageDown)], "PgDn", None, PageDown, "a page down"),
    bind!(Describe, [key(KeyCode::PageUp)], "PgUp", None, PageUp, "a page up"),
    bind!(Describe, [ch('g'), key(KeyCode::Home)], "g Home", None, First, "the top"),
    bind!(Describe, [ch('G'), (KeyCode::Char('G'), SHIFT), key(KeyCode::End)], "G End", None, Last, "the end"),
    bind!(Describe, [key(KeyCode::Enter)], "Enter", Some(("Enter", "open pool")), Activate, "open the pool's detail (its fixes are there)"),
    bind!(Describe, [ch('c')], "c", Some(("c", "copy")), Copy, "copy the page"),
    bind!(Describe, [key(KeyCode::Esc), ch('q'), ch('d')], "Esc q d", Some(("Esc", "close")), Close, "close"),
    bind!(Drafts, [key(KeyCode::Down), ch('j')], "↓ j", Some(("↑↓", "choose")), Down, "the next entry"),
    bind!(Drafts, [key(KeyCode::Up), ch('k')], "↑ k", None, Up, "the previous entry"),
    bind!(Drafts, [key(KeyCode::Enter)], "Enter", Some(("Enter", "open")), Activate, "open the wizard: afresh, or on the draft chosen"),
    bind!(Drafts, [ch('d')], "d", Some(("d d", "discard")), DiscardDraft, "discard the draft under the cursor (press it twice; its file is removed)"),
    bind!(Drafts, [key(KeyCode::Esc)], "Esc", Some(("Esc", "close")), Close, "close: nothing opened, nothing discarded"),
    bind!(WizardField, [key(KeyCode::Enter)], "Enter", Some(("Enter", "keep")), Accept, "keep what was typed (the rules check it at once)"),
    bind!(WizardField, [key(KeyCode::Esc)], "Esc", Some(("Esc", "drop")), Cancel, "drop what was typed"),
    bind!(WizardLines, [(KeyCode::Char('s'), CONTROL)], "Ctrl-S", Some(("^S", "keep")), Accept, "keep the lines typed (the rules check them at once)"),
    bind!(WizardLines, [key(KeyCode::Esc)], "Esc", Some(("Esc", "drop")), Cancel, "drop what was typed"),
    bind!(WizardReview, [key(KeyCode::Enter)], "Enter", Some(("Enter", "apply")), Apply, "apply: create or update the pool (asks first)"),
    bind!(WizardReview, [ch('d')], "d", Some(("d", "dry run")), DryRun, "the server's dry run of the request"),
    bind!(WizardReview, [ch('c')], "c", Some(("c", "copy")), Copy, "copy the manifest"),
    bind!(WizardReview, [ch('w')], "w", Some(("w", "write")), Write, "write the manifest to the file pooldeck new -o named"),
    bind!(Wizard, [key(KeyCode::Down), ch('j')], "↓ j", Some(("↑↓", "field")), Down, "the next field"),
    bind!(Wizard, [key(KeyCode::Up), ch('k')], "↑ k", None, Up, "the previous field"),
    bind!(Wizard, [key(KeyCode::Tab), key(KeyCode::Right)], "Tab →", Some(("Tab", "step")), NextStep, "the next step"),
    bind!(Wizard, [key(KeyCode::BackTab), (KeyCode::BackTab, SHIFT), key(KeyCode::Left)], "Shift-Tab ←", None, PreviousStep, "the previous step"),
    bind!(Wizard, [key(KeyCode::Enter)], "Enter", Some(("Enter", "edit")), Activate, "type into the field (a choice moves on)"),
    bind!(Wizard, [ch(' ')], "Space", None, Cycle, "the next choice, or flip a toggle"),
    bind!(Wizard, [ch('a')], "a", Some(("a", "add")), AddEntry, "add a worker pool (Node Config), or a GPU entry to the policy written here (Autoscaling)"),
    bind!(Wizard, [ch('x')], "x", None, RemoveEntry, "remove the worker pool or policy GPU entry under the cursor"),
    bind!(Wizard, [ch('R')], "R", None, Recreate, "recreate the pool being edited, so its VIP can change (safe delete, wait until gone, create)"),
    bind!(Wizard, [key(KeyCode::Esc)], "Esc", Some(("Esc", "close")), Close, "close the wizard (the draft is kept)"),
    // Text fields.
    bind!(Filter, [key(KeyCode::Enter)], "Enter", Some(("Enter", "keep")), Accept, "keep the filter"),
    bind!(Filter, [key(KeyCode::Esc)], "Esc", Some(("Esc", "clear")), Cancel, "clear the filter"),
    bind!(Filter, [key(KeyCode::Backspace)], "Backspace", None, Erase, "delete a character"),
    bind!(Search, [key(KeyCode::Enter)], "Enter", Some(("Enter", "keep")), Accept, "keep the search"),
    bind!(Search, [key(KeyCode::Esc)], "Esc", Some(("Esc", "clear")), Cancel, "clear the search"),
    bind!(Search, [key(KeyCode::Backspace)], "Backspace", None, Erase, "delete a character"),
    bind!(CommandLine, [key(KeyCode::Tab)], "Tab", Some(("Tab", "")), Complete, "complete: a command, a namespace after ns, a context after ctx (after a comma, the next), a hub after hub, a name after a view's word (Tab again: the next)"),
    bind!(CommandLine, [key(KeyCode::Enter)], "Enter", Some(("Enter", "")), Accept, "run it: a view by name, a view and a name (:cp NAME shows it), or a command (? lists both)"),
    bind!(CommandLine, [key(KeyCode::Esc)], "Esc", Some(("Esc", "")), Cancel, "leave the command line"),
    bind!(CommandLine, [key(KeyCode::Backspace)], "Backspace", None, Erase, "delete a character"),
    // The tour's caption, over a list or a detail (before theirs: its ? is the answer).
    bind!(Tour, [ch('?')], "?", Some(("?", "answer")), TourAnswer, "the tour: show the step's answer, or hide it (:help lists the keys)"),
    bind!(Tour, [ch(']')], "]", Some(("]", "next chapter")), NextChapter, "the tour: the next chapter, once this one is done (:chapter N jumps)"),
    // A pool's Timeline tab (before the detail's: its letters filter there).
    bind!(Timeline, [ch('c'), ch('s'), ch('e'), ch('h'), ch('p'), ch('a'), ch('l'), ch('w')], "c s e h p a l w", Some(("c s e h p a l w", "sources")), ToggleSource, "show or hide a source: conditions, scaling, events, hosts, the pool's own changes, our actions, the controller's log, watch gaps"),
    bind!(Timeline, [ch('r')], "r", Some(("r", "order")), Reverse, "newest first, or oldest first"),
    bind!(Timeline, [key(KeyCode::Enter)], "Enter", Some(("Enter", "open")), OpenEntry, "open the entry at the top: its detail (an event's times and count, an action's request and kubectl line)"),
    // A pool's detail.
    bind!(Detail, [key(KeyCode::Right), key(KeyCode::Tab)], "→ Tab", Some(("←→ Tab", "tabs")), NextTab, "next tab"),
    bind!(Detail, [ key(KeyCode::Left), key(KeyCode::BackTab), (KeyCode::BackTab, SHIFT), ch('h') ], "← Shift-Tab h", None, PreviousTab, "previous tab"),
    bind!(Detail, [ch('1'), ch('2'), ch('3'), ch('4'), ch('5'), ch('6'), ch('7'), ch('8')], "1-8", None, JumpTab, "jump to a tab: Overview, Conditions, Hosts, Scaling, Events, YAML, Diagnose, Timeline"),
    bind!(Detail, [ch('d')], "d", None, Describe, "the pool described: spec, status, conditions explained, hosts, evaluation, findings, events"),
    bind!(Detail, [ch('E'), (KeyCode::Char('E'), SHIFT)], "E", None, RawEdit, "edit the pool's YAML in your editor (KUBE_EDITOR, VISUAL, EDITOR): checked, diff, dry run, confirmation"),
    bind!(Detail, [ch('l')], "l", None, ControllerLogs, "the hue controller's log, the lines about this pool"),
    bind!(Detail, [ch('f')], "f", Some(("f", "fix")), RunFix, "run the fix of the doctor's finding that has one (Diagnose tab), behind a confirmation"),
    bind!(Detail, [key(KeyCode::Down), ch('j')], "↓ j", Some(("↑↓", "scroll")), Down, "scroll down"),
    bind!(Detail, [key(KeyCode::Up), ch('k')], "↑ k", None, Up, "scroll up"),
    bind!(Detail, [key(KeyCode::PageDown)], "PgDn", None, PageDown, "scroll a page down"),
    bind!(Detail, [key(KeyCode::PageUp)], "PgUp", None, PageUp, "scroll a page up"),
    bind!(Yaml, [ch('/')], "/", Some(("/", "search")), Search, "search the YAML (jumps to the first match)"),
    bind!(Yaml, [ch('c')], "c", None, Copy, "copy the pool's YAML"),
    bind!(Detail, [ch('p')], "p", Some(("p", "pause")), PauseResume, "pause reconciliation, or resume it (asks first)"),
    bind!(Detail, [(KeyCode::Char('d'), CONTROL)], "Ctrl-D", Some(("^D", "delete")), Delete, "delete the pool: impact, dry run, name typed"),
    bind!(Detail, [ch('u')], "u", None, Unblock, "unblock a deletion that does not complete (AIWorkloads, then the finalizer)"),
    bind!(Detail, [ch('o')], "o", None, Related, "what the pool refers to: on Scaling its ScalingPolicy described, elsewhere the AIWorkloads that run on it"),
    bind!(Detail, [ch('c')], "c", None, Copy, "copy the pool's name (on Diagnose: the doctor's steps as a runbook)"),
    bind!(Detail, [key(KeyCode::Esc)], "Esc", Some(("Esc", "back")), Back, "back to the list"),
    bind!(Detail, [ch(':')], ":", None, CommandLine, "command line"),
    bind!(Detail, [ch('?')], "?", Some(("?", "help")), Help, "this help"),
    bind!(Detail, [ch('q')], "q", Some(("q", "quit")), Quit, "quit"),
    // The lists.
    bind!(List, [key(KeyCode::Down), ch('j')], "↓ j", Some(("↑↓", "move")), Down, "move down"),
    bind!(List, [key(KeyCode::Up), ch('k')], "↑ k", None, Up, "move up"),
    bind!(List, [key(KeyCode::PageDown)], "PgDn", None, PageDown, "a page down"),
    bind!(List, [key(KeyCode::PageUp)], "PgUp", None, PageUp, "a page up"),
    bind!(List, [ch('g'), key(KeyCode::Home)], "g Home", None, First, "the first row"),
    bind!(List, [ch('G'), (KeyCode::Char('G'), SHIFT), key(KeyCode::End)], "G End", None, Last, "the last row"),
    bind!(List, [key(KeyCode::Enter)], "Enter", Some(("Enter", "open")), Open, "open: the pool (from pools on Overview, evaluations on Scaling, hosts on Hosts), an event read whole"),
    bind!(List, [ch('d')], "d", None, Describe, "the pool described: spec, status, conditions explained, hosts, evaluation, findings, events"),
    bind!(List, [ch('y')], "y", None, Yaml, "open the pool on its YAML"),
    bind!(List, [ch('/')], "/", Some(("/", "filter")), Filter, "filter: a substring, !text to invert, -l SELECTOR on labels"),
    bind!(List, [ch(' ')], "Space", None, Mark, "mark or unmark the pool (p then pauses every marked pool)"),
    bind!(List, [ch('p')], "p", Some(("p", "pause")), PauseResume, "pause reconciliation of the pool (or the marked pools), or resume it"),
    bind!(List, [(KeyCode::Char('d'), CONTROL)], "Ctrl-D", Some(("^D", "delete")), Delete, "delete the pool: impact, dry run, name typed"),
    bind!(List, [ch('u')], "u", None, Unblock, "unblock a deletion that does not complete (AIWorkloads, then the finalizer)"),
    bind!(List, [ch('c')], "c", None, Copy, "copy the selected name"),
    bind!(List, [ch('l')], "l", None, ControllerLogs, "the hue controller's log, the lines about the selected pool"),
    bind!(List, [ch('n')], "n", Some(("n", "new")), NewPool, "write a new pool in the wizard"),
    bind!(List, [ch('e')], "e", None, EditPool, "edit the selected pool in the wizard"),
    bind!(List, [ch('E'), (KeyCode::Char('E'), SHIFT)], "E", None, RawEdit, "edit the selected pool's YAML in your editor (KUBE_EDITOR, VISUAL, EDITOR): checked, diff, dry run, confirmation"),
    bind!(Events, [ch('w')], "w", Some(("w", "warnings only")), WarningsOnly, "warnings only, or all events"),
    bind!(List, [ch('s')], "s", None, SortNext, "sort by the next column"),
    bind!(List, [ch('S'), (KeyCode::Char('S'), SHIFT)], "S", None, SortReverse, "reverse the order"),
    bind!(List, [ch('0')], "0", None, AllNamespaces, "watch every namespace (as :ns all)"),
    bind!(List, [ch('1'), ch('2'), ch('3'), ch('4'), ch('5'), ch('6'), ch('7'), ch('8'), ch('9')], "1-9", None, FavouriteNamespace, "watch a favourite namespace (favourites: in the settings file, in order)"),
    bind!(List, [ch(':')], ":", Some((":", "cmd")), CommandLine, "command line: a view by name or a command (both listed below)"),
    bind!(List, [key(KeyCode::Esc)], "Esc", None, Clear, "clear the filter and the message"),
    bind!(List, [ch('?')], "?", Some(("?", "help")), Help, "this help"),
    bind!(List, [ch('q')], "q", Some(("q", "quit")), Quit, "quit"),
];

/// The binding for a key in a scope (or in the global scope).
pub fn lookup(scopes: &[Scope], event: &KeyEvent) -> Option<&'static Binding> {
    let pressed = (event.code, event.modifiers);
    let matches = |b: &&Binding| {
        b.keys.iter().any(|k| {
            *k == pressed
                // A typed capital may come with or without SHIFT; ignore SHIFT on characters.
                || (matches!(event.code, KeyCode::Char(_))
                    && k.0 == event.code
                    && k.1 == NONE
                    && event.modifiers == SHIFT)
        })
    };
    BINDINGS
        .iter()
        .filter(|b| b.scope == Scope::Global)
        .find(matches)
        .or_else(|| {
            BINDINGS
                .iter()
                .filter(|b| scopes.contains(&b.scope))
                .find(matches)
        })
}
