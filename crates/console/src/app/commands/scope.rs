//! Where the keys go: the scopes, each with the line the help shows and the prompt the footer says.

use super::words;

/// Where the keys go: the top of the modal stack decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Everywhere, under whatever is on top.
    Global,
    /// A list view.
    List,
    /// The events list only.
    Events,
    /// A pool's detail.
    Detail,
    /// A pool's YAML tab.
    Yaml,
    /// A pool's Timeline tab.
    Timeline,
    /// Typing a filter.
    Filter,
    /// Typing a YAML search.
    Search,
    /// Typing a command.
    CommandLine,
    /// The help overlay.
    Help,
    /// A confirmation, its buttons focused.
    Confirm,
    /// A confirmation, typing the name or the acknowledgement.
    ConfirmField,
    /// The wizard.
    Wizard,
    /// The wizard, typing into a field.
    WizardField,
    /// The wizard, typing into a field of several lines (SSH keys, labels, taints).
    WizardLines,
    /// The wizard's Review step.
    WizardReview,
    /// The controller's log.
    Logs,
    /// The controller's log, typing a search.
    LogSearch,
    /// The drafts `n` or `e` offer.
    Drafts,
    /// One event read whole.
    Event,
    /// A pool described.
    Describe,
    /// The guided tour's caption, over a list or a pool's detail (`--tour`).
    Tour,
}

impl Scope {
    /// A line for the help and README saying where the bindings apply.
    pub fn title(self) -> &'static str {
        match self {
            Scope::Global => "Everywhere",
            Scope::List => "Lists",
            Scope::Events => "Events list",
            Scope::Detail => "A pool's detail",
            Scope::Yaml => "A pool's YAML tab",
            Scope::Timeline => "A pool's Timeline tab",
            Scope::Filter => "Typing a filter (/)",
            Scope::Search => "Searching the YAML (/ on the YAML tab)",
            Scope::CommandLine => "The command line (:)",
            Scope::Help => "The help (?)",
            Scope::Confirm => "A confirmation",
            Scope::ConfirmField => "A confirmation, typing the name",
            Scope::Wizard => "The wizard (n, e)",
            Scope::WizardField => "The wizard, typing into a field",
            Scope::WizardLines => "The wizard, typing lines (SSH keys, labels, taints)",
            Scope::WizardReview => "The wizard's Review step",
            Scope::Logs => "The controller's log (l)",
            Scope::LogSearch => "The controller's log, typing a search",
            Scope::Drafts => "The drafts offered (n, e)",
            Scope::Event => "An event read whole (Enter on the events list)",
            Scope::Describe => "A pool described (d)",
            Scope::Tour => "The guided tour (--tour)",
        }
    }

    /// What a text scope says before its keys in the footer (the command line's views from
    /// the registry).
    pub fn prompt(self) -> Option<String> {
        let said = match self {
            Scope::Filter => "type to filter  !text invert  -l key=value labels",
            Scope::Search => "type to search the YAML",
            Scope::ConfirmField => "type the text shown",
            Scope::WizardField => "type the value",
            Scope::WizardLines => "one per line",
            Scope::LogSearch => "type to search the log",
            Scope::CommandLine => {
                let views = crate::app::View::all().map(|v| format!(":{}", v.name()));
                let words = words::usages(false, false).map(str::to_owned);
                return Some(views.chain(words).collect::<Vec<_>>().join(" ") + " ");
            }
            _ => return None,
        };
        Some(said.to_owned())
    }
}
