//! Where the keys go now: the scopes in force (the top overlay takes every key; then a text
//! field, the detail, the list), and whether a command can do anything here (a disabled one
//! is left out of the footer, and its key says why). Part of `update`: reads the state only.

use super::commands::{self, Scope};
use super::{App, Input, Overlay, Tab, confirm, keys, wizard};

impl App {
    /// The scopes whose bindings apply now, most specific first.
    pub fn scopes(&self) -> Vec<Scope> {
        match self.overlay() {
            Some(Overlay::Help { .. }) => return vec![Scope::Help],
            Some(Overlay::Logs(view)) if view.searching => return vec![Scope::LogSearch],
            Some(Overlay::Logs(_)) => return vec![Scope::Logs],
            Some(Overlay::Drafts(_)) => return vec![Scope::Drafts],
            Some(Overlay::Confirm(confirm)) if confirm.focus == confirm::Focus::Field => {
                return vec![Scope::ConfirmField];
            }
            Some(Overlay::Confirm(_)) => return vec![Scope::Confirm],
            Some(Overlay::Wizard(wizard)) if wizard.editing.is_some() => {
                return if wizard.editing.as_ref().is_some_and(|e| e.multi_line()) {
                    vec![Scope::WizardLines]
                } else {
                    vec![Scope::WizardField]
                };
            }
            Some(Overlay::Wizard(wizard)) if wizard.step == crate::domain::draft::Step::Review => {
                return vec![Scope::WizardReview, Scope::Wizard];
            }
            Some(Overlay::Wizard(_)) => return vec![Scope::Wizard],
            None => {}
        }
        self.scopes_behind()
    }

    /// The scopes of what lies under the overlays: what the help explains.
    pub fn scopes_behind(&self) -> Vec<Scope> {
        match (&self.input, &self.detail) {
            (Input::Filter(_), _) => vec![Scope::Filter],
            (Input::Search(_), _) => vec![Scope::Search],
            (Input::Command(_), _) => vec![Scope::CommandLine],
            (Input::None, Some(detail)) if detail.tab == Tab::Yaml => {
                vec![Scope::Yaml, Scope::Detail]
            }
            (Input::None, Some(_)) => vec![Scope::Detail],
            (Input::None, None) if self.view.warnings.is_some() => vec![Scope::Events, Scope::List],
            (Input::None, None) => vec![Scope::List],
        }
    }

    /// Whether a command can do anything now (a disabled one is left out of the footer).
    pub fn enabled(&self, command: commands::Command) -> bool {
        use commands::Command;
        match command {
            // While another context connects, nothing is opened that would be bound to
            // either hub.
            Command::PauseResume
            | Command::Delete
            | Command::Unblock
            | Command::RunFix
            | Command::NewPool
            | Command::EditPool
                if self.connecting.is_some() =>
            {
                false
            }
            Command::Open | Command::Describe | Command::Yaml => self.view.opens.is_some(),
            Command::RunFix => keys::fix_in_view(self).is_some(),
            Command::ControllerLogs => self.detail.is_some() || self.view.logs,
            Command::AddEntry | Command::RemoveEntry | Command::Activate | Command::Cycle if matches!(self.overlay(), Some(Overlay::Wizard(w)) if w.step == crate::domain::draft::Step::Review) => {
                false
            }
            Command::Write => self.output.is_some(),
            Command::Recreate => matches!(
                self.overlay(),
                Some(Overlay::Wizard(w)) if matches!(w.purpose, wizard::Purpose::Edit { .. })
            ),
            Command::DryRun | Command::Apply => self.offline.is_none(),
            Command::AddEntry => matches!(
                self.overlay(),
                Some(Overlay::Wizard(w)) if w.step == crate::domain::draft::Step::NodeConfig
                    || (w.step == crate::domain::draft::Step::Autoscaling && w.draft.policy.is_some())
            ),
            Command::Mark | Command::NewPool | Command::EditPool => {
                self.view.pools && self.detail.is_none()
            }
            Command::PauseResume | Command::Delete | Command::Unblock => {
                let verb = if command == Command::Delete {
                    "delete"
                } else {
                    "patch"
                };
                (self.view.pools || self.detail.is_some()) && confirm::denied(self, verb).is_none()
            }
            _ => true,
        }
    }
}
