//! The same program under the name kubectl looks for a plugin by: installed on the PATH as
//! `kubectl-pooldeck`, `kubectl pooldeck get pools -A` runs it with the words after `pooldeck`
//! (`--context`, `-n` and `--kubeconfig` among them, as every command takes them).
#![forbid(unsafe_code)]

pooldeck::program!();
