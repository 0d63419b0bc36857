//! The verbs' flags: where the pools are, which, and the global flags every verb shares.

use std::path::PathBuf;

use clap::Args;

/// Where the named pools are: the connection and namespace flags every verb takes.
#[derive(Debug, Args)]
pub struct PoolsAt {
    /// The pools' namespace (default: the context's).
    #[arg(long, short, value_name = "NS")]
    pub namespace: Option<String>,
    /// The kubeconfig context (default: the current one). pause and resume take it repeated:
    /// each hub's pools are listed and checked on their own, and nothing is sent to any hub
    /// unless every hub's dry run passed.
    #[arg(long, value_name = "NAME", conflicts_with = "all_contexts")]
    pub context: Vec<String>,
    /// pause and resume: every context of the kubeconfig (as --context repeated).
    #[arg(long)]
    pub all_contexts: bool,
    /// The kubeconfig (default: KUBECONFIG, then ~/.kube/config, then in-cluster).
    #[arg(long, value_name = "PATH")]
    pub kubeconfig: Option<PathBuf>,
    /// Send only the server-side dry run: the server checks the request and changes nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// The pools whose labels match, in kubectl's syntax (`team=retail,tier in (gpu)`),
    /// instead of names: they are listed first.
    #[arg(long, short = 'l', value_name = "SELECTOR", allow_hyphen_values = true)]
    pub selector: Option<String>,
}

#[derive(Debug, Args)]
pub struct ActArgs {
    /// The Compute Pools, by name (or -l SELECTOR).
    #[arg(
        required_unless_present = "selector",
        conflicts_with = "selector",
        value_name = "NAME"
    )]
    pub names: Vec<String>,
    #[command(flatten)]
    pub at: PoolsAt,
}

#[derive(Debug, Args)]
pub struct DeleteArgs {
    /// The Compute Pool, by name (or -l SELECTOR: the pools it matches, the count typed to
    /// confirm).
    #[arg(
        required_unless_present = "selector",
        conflicts_with = "selector",
        value_name = "NAME"
    )]
    pub name: Option<String>,
    /// Do not ask for the name, or the count (for scripts without a terminal).
    #[arg(long)]
    pub yes: bool,
    #[command(flatten)]
    pub at: PoolsAt,
}

#[derive(Debug, Args)]
pub struct UnblockArgs {
    /// The Compute Pool being deleted, by name.
    #[arg(value_name = "NAME")]
    pub name: String,
    /// Do not ask for the text to type (for scripts without a terminal).
    #[arg(long)]
    pub yes: bool,
    #[command(flatten)]
    pub at: PoolsAt,
}

/// What every verb shares: the global flags.
#[derive(Debug, Clone, Default)]
pub struct Global {
    pub read_only: bool,
    pub audit_log: Option<PathBuf>,
}

/// Which verb.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verb {
    Pause,
    Resume,
}
