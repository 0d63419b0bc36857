//! Why the demo cluster could not start, load a story or write its kubeconfig, said in the
//! operator's words (stderr of `demo serve`, the console's footer after `:reset`).

use std::path::PathBuf;

use pooldeck_domain::manifest::ParseError;

use super::registry::CrdError;
use super::status::ApiError;

/// Why the demo cluster could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A compiled-in CRD that does not read (a build defect, said rather than hidden).
    #[error(transparent)]
    Crd(#[from] CrdError),
    #[error("cannot load the CRDs: {0}")]
    CrdRefused(Box<ApiError>),
    #[error("cannot create the demo {what}: {detail}")]
    Certificate { what: &'static str, detail: String },
    #[error("the operating system gave no random bytes: {detail}")]
    NoRandom { detail: String },
    #[error("cannot listen on 127.0.0.1:{port}: {source}")]
    Listen { port: u16, source: std::io::Error },
    #[error("cannot read the bound address: {0}")]
    Address(std::io::Error),
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    #[error("this demo plays no scenario")]
    NoScenario,
    #[error(transparent)]
    Kubeconfig(#[from] pooldeck_io::files::WriteError),
}

/// Why a scenario (built in, or a recording in a file) cannot be played.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    #[error("no scenario named \"{name}\"; built in: {built_in}, large")]
    Unknown { name: String, built_in: String },
    #[error("scenario {name}: {why}")]
    BuiltIn {
        name: String,
        why: Box<ScenarioError>,
    },
    #[error("cannot read {}: {why}", path.display())]
    Unreadable {
        path: PathBuf,
        why: pooldeck_io::files::ReadError,
    },
    #[error("{}: {why}", path.display())]
    InFile {
        path: PathBuf,
        why: Box<ScenarioError>,
    },
    #[error("{0}")]
    Text(ParseError),
    #[error("the scenario is empty")]
    Empty,
    #[error("document {document} names no hub (each hub of a recording has `hub: CONTEXT`)")]
    NoHub { document: usize },
    #[error("the hub {hub} is recorded twice")]
    HubTwice { hub: String },
    #[error("\"{0}\" is not a duration")]
    NotADuration(String),
    #[error("{0}")]
    Duration(#[from] pooldeck_domain::duration::DurationError),
    #[error("steps[{index}].at: {why}")]
    StepAt {
        index: usize,
        why: Box<ScenarioError>,
    },
    #[error("steps[{index}] has none of put, merge, delete, event")]
    StepAction { index: usize },
    /// The store refused one of the story's objects; `what` names it.
    #[error("{what}: {why}")]
    Refused { what: String, why: Box<ApiError> },
}
