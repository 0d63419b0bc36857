//! Where the keys go now: the scopes in force (the top overlay takes every key; then a text
//! field, the detail, the list), and whether a command can do anything here (a disabled one
//! is left out of the footer, and its key says why). Part of `update`: reads the state only.

use super::commands::{Command, Scope};
use super::component::Component;
use super::{App, Input, Overlay, confirm, wizard};
use crate::domain::draft::Step;

/// Whether a command can act now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Availability {
    /// Its footer hint shows and its key acts.
    Enabled,
    /// Left out of the footer; its key says why (a permission missing, no cluster, a context
    /// switching, no file to write to).
    Disabled(String),
    /// Left out of the footer; its key does nothing (nothing here for it to act on).
    Hidden,
}

impl App {
    /// The scopes whose bindings apply now, most specific first.
    pub fn scopes(&self) -> Vec<Scope> {
        // The top overlay takes every key: its scopes are its own to say.
        match self.overlay() {
            Some(top) => super::component::Component::scopes(top),
            None => self.scopes_behind(),
        }
    }

    /// The scopes of what lies under the overlays: what the help explains.
    pub fn scopes_behind(&self) -> Vec<Scope> {
        let mut scopes = self.screen_scopes();
        // The tour's caption lies over the list and the detail, not over a field typed.
        if self.tour.is_some() && self.input == Input::None {
            scopes.insert(0, Scope::Tour);
        }
        scopes
    }

    /// The scopes of the screen or the text field being typed.
    fn screen_scopes(&self) -> Vec<Scope> {
        match (&self.input, &self.detail) {
            // The text field being typed, the detail or the list: each says its own.
            (Input::Filter(_) | Input::Search(_) | Input::Command(..), _) => {
                Component::scopes(&self.input)
            }
            // The screens say their own.
            (Input::None, Some(detail)) => Component::scopes(detail),
            (Input::None, None) => Component::scopes(&self.list),
        }
    }

    /// Whether a command can do anything now (a disabled one is left out of the footer).
    pub fn enabled(&self, command: Command) -> bool {
        self.availability(command) == Availability::Enabled
    }

    /// Whether a command can act now, and if not, whether its key says why: the one place a
    /// command's conditions are written (the footer, the dispatch and the message a key
    /// leaves all read it).
    pub fn availability(&self, command: Command) -> Availability {
        use Availability::{Disabled, Enabled};
        if let Some(why) = self
            .held_elsewhere(command)
            .or_else(|| self.while_connecting(command))
        {
            return Disabled(why);
        }
        match command {
            Command::AllNamespaces
            | Command::Open
            | Command::Describe
            | Command::Yaml
            | Command::RunFix
            | Command::ControllerLogs => self.on_the_lists(command),
            Command::AddEntry
            | Command::RemoveEntry
            | Command::Activate
            | Command::Cycle
            | Command::Write
            | Command::Recreate
            | Command::DryRun
            | Command::Apply => self.in_the_wizard(command),
            Command::RawEdit
            | Command::Mark
            | Command::NewPool
            | Command::EditPool
            | Command::PauseResume
            | Command::Delete
            | Command::Unblock => self.on_the_pools(command),
            // Every other command acts wherever its binding is in force.
            Command::Quit
            | Command::Suspend
            | Command::Help
            | Command::Close
            | Command::Up
            | Command::Down
            | Command::PageUp
            | Command::PageDown
            | Command::First
            | Command::Last
            | Command::Filter
            | Command::CommandLine
            | Command::SortNext
            | Command::SortReverse
            | Command::WarningsOnly
            | Command::Back
            | Command::Clear
            | Command::NextTab
            | Command::PreviousTab
            | Command::JumpTab
            | Command::FavouriteNamespace
            | Command::PauseLogs
            | Command::AllLines
            | Command::NextMatch
            | Command::Search
            | Command::Accept
            | Command::Cancel
            | Command::Complete
            | Command::Erase
            | Command::Copy
            | Command::FocusNext
            | Command::FocusPrevious
            | Command::NextStep
            | Command::PreviousStep
            | Command::DiscardDraft
            | Command::Related
            | Command::TourAnswer
            | Command::ToggleSource
            | Command::Reverse
            | Command::OpenEntry => Enabled,
            // The next chapter once this one is done (`:chapter N` jumps anywhere).
            Command::NextChapter => match self
                .tour
                .as_ref()
                .and_then(|t| super::tour::moves::next_refused(t, self.read_only()))
            {
                Some(why) => Disabled(why),
                None => Enabled,
            },
        }
    }
    /// While another context connects, nothing is opened that would be bound to either hub.
    fn while_connecting(&self, command: Command) -> Option<String> {
        let opens = matches!(
            command,
            Command::PauseResume
                | Command::Delete
                | Command::Unblock
                | Command::RunFix
                | Command::NewPool
                | Command::EditPool
        );
        let context = self.connecting.as_deref().filter(|_| opens)?;
        Some(format!(
            "switching to context {context}: try again once it is connected"
        ))
    }

    /// What opens from a list or a detail: every namespace, a row, its description, YAML,
    /// fix or log.
    fn on_the_lists(&self, command: Command) -> Availability {
        use Availability::{Enabled, Hidden};
        let when = |yes: bool| if yes { Enabled } else { Hidden };
        match command {
            // Shown while some namespaces only are watched.
            Command::AllNamespaces => when(!matches!(
                self.namespaces,
                crate::app::ports::Namespaces::All
            )),
            // The events list opens the event itself.
            Command::Open => {
                when(self.list.view.described().is_some() || self.list.view.warnings.is_some())
            }
            Command::Describe => {
                when(self.detail.is_some() || self.list.view.described().is_some())
            }
            Command::Yaml => when(self.list.view.opens.is_some()),
            Command::RunFix => when(
                self.detail
                    .as_ref()
                    .and_then(|d| d.fix_in_view(&self.fleet))
                    .is_some(),
            ),
            Command::ControllerLogs => when(self.detail.is_some() || self.list.view.logs),
            _ => Enabled,
        }
    }

    /// On a list across hubs, a key acts on its row's hub, which is put in focus; while
    /// something holds the focus on another hub (marks, an edit), a key on this row would act
    /// there instead, so it says why it does not (p with marks too: on a row of another hub,
    /// a pause of the marks would read as a pause of that row).
    fn held_elsewhere(&self, command: Command) -> Option<String> {
        let acts_on_row = matches!(
            command,
            Command::Open
                | Command::Describe
                | Command::Yaml
                | Command::Delete
                | Command::Unblock
                | Command::NewPool
                | Command::EditPool
                | Command::RawEdit
                | Command::ControllerLogs
                | Command::Mark
                | Command::PauseResume
        );
        if self.overlay().is_none() && self.detail.is_none() && acts_on_row {
            self.other_hub_row()
        } else {
            None
        }
    }

    /// The wizard's own commands: Review takes no entry; `w` needs a file, `R` an edit, the
    /// dry run and apply a cluster.
    fn in_the_wizard(&self, command: Command) -> Availability {
        use Availability::{Disabled, Enabled, Hidden};
        let when = |yes: bool| if yes { Enabled } else { Hidden };
        match command {
            Command::AddEntry | Command::RemoveEntry | Command::Activate | Command::Cycle if matches!(self.overlay(), Some(Overlay::Wizard(w)) if w.step == Step::Review) => {
                Hidden
            }
            // A page of an object that names no pool opens none.
            Command::Activate if matches!(self.overlay(), Some(Overlay::Describe(d)) if !matches!(d.kind, crate::domain::Kind::Pool | crate::domain::Kind::AIWorkload)) => {
                Hidden
            }
            Command::Write if self.output.is_none() => Disabled(
                "no file to write to (pooldeck new -o FILE names one); c copies the manifest"
                    .into(),
            ),
            Command::Recreate => when(matches!(
                self.overlay(),
                Some(Overlay::Wizard(w)) if matches!(w.purpose, wizard::Purpose::Edit { .. })
            )),
            Command::DryRun | Command::Apply => match &self.offline {
                Some(why) => Disabled(format!(
                    "no cluster ({why}): the dry run and apply need one; w writes the manifest, \
                     c copies it"
                )),
                None => Enabled,
            },
            Command::AddEntry => when(matches!(
                self.overlay(),
                Some(Overlay::Wizard(w)) if w.step == Step::NodeConfig
                    || (w.step == Step::Autoscaling && w.draft.policy.is_some())
            )),
            _ => Enabled,
        }
    }

    /// The keys that act on a pool: an edit in the editor, marks, the wizard, the fixes
    /// (refused, with why, when read-only, offline or not permitted).
    fn on_the_pools(&self, command: Command) -> Availability {
        use Availability::{Disabled, Enabled, Hidden};
        let when = |yes: bool| if yes { Enabled } else { Hidden };
        match command {
            Command::RawEdit => {
                if !(self.list.view.pools || self.detail.is_some()) {
                    return Hidden;
                }
                if self.read_only() {
                    return Disabled(
                        "read-only mode: an edit could not be sent, so none is opened (y shows \
                         the YAML)"
                            .into(),
                    );
                }
                match &self.offline {
                    Some(why) => Disabled(format!("no cluster ({why}): an edit needs one")),
                    None => Enabled,
                }
            }
            Command::Mark | Command::NewPool | Command::EditPool => {
                when(self.list.view.pools && self.detail.is_none())
            }
            Command::PauseResume | Command::Delete | Command::Unblock => {
                if !(self.list.view.pools || self.detail.is_some()) {
                    return Hidden;
                }
                let verb = if command == Command::Delete {
                    "delete"
                } else {
                    "patch"
                };
                match confirm::denied(self, verb) {
                    Some(missing) => Disabled(format!(
                        "not permitted in context {}: needs {}",
                        self.fleet.connection.context,
                        missing.words()
                    )),
                    None => Enabled,
                }
            }
            _ => Enabled,
        }
    }
}
