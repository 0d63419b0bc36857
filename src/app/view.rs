//! Where the console is: which list it shows, and which pool is open on which tab.

/// Which list the console shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Pools,
    Evaluations,
    Hosts,
    Events,
    Projects,
    /// Every finding of the doctor, of every pool.
    Problems,
}

impl View {
    pub fn title(self) -> &'static str {
        match self {
            View::Pools => "Compute Pools",
            View::Evaluations => "Evaluations",
            View::Hosts => "Hosts",
            View::Events => "Events",
            View::Projects => "Projects",
            View::Problems => "Problems",
        }
    }

    /// Names and aliases the command line takes for this view.
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            View::Pools => &["pools", "pool", "cp", "computepools"],
            View::Evaluations => &["evaluations", "cpe", "evaluation"],
            View::Hosts => &["hosts", "host"],
            View::Events => &["events", "ev", "event"],
            View::Projects => &["projects", "project", "proj"],
            View::Problems => &["problems", "problem", "doctor"],
        }
    }

    pub const ALL: [View; 6] = [
        View::Pools,
        View::Evaluations,
        View::Hosts,
        View::Events,
        View::Projects,
        View::Problems,
    ];
}

/// The tabs of a pool's detail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Overview,
    Conditions,
    Hosts,
    Scaling,
    Events,
    Yaml,
    /// The doctor's findings about the pool, then their evidence.
    Diagnose,
}

impl Tab {
    pub const ALL: [Tab; 7] = [
        Tab::Overview,
        Tab::Conditions,
        Tab::Hosts,
        Tab::Scaling,
        Tab::Events,
        Tab::Yaml,
        Tab::Diagnose,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Tab::Overview => "Overview",
            Tab::Conditions => "Conditions",
            Tab::Hosts => "Hosts",
            Tab::Scaling => "Scaling",
            Tab::Events => "Events",
            Tab::Yaml => "YAML",
            Tab::Diagnose => "Diagnose",
        }
    }

    pub fn step(self, forward: bool) -> Tab {
        let i = Tab::ALL.iter().position(|t| *t == self).unwrap_or(0);
        let n = Tab::ALL.len();
        Tab::ALL[if forward {
            (i + 1) % n
        } else {
            (i + n - 1) % n
        }]
    }
}

/// One pool opened from a list: which, which tab, how far scrolled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Detail {
    pub namespace: String,
    pub name: String,
    pub tab: Tab,
    pub scroll: u16,
}
