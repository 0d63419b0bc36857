//! pooldeck: a terminal console for operators of PaletteAI Compute Pools.
//!
//! Module map (dependencies point downwards only):
//! - [`domain`]: what a Compute Pool is. The lenient model of ComputePool and
//!   ComputePoolEvaluation, quantities and durations, and the configuration reference's rules
//!   (`domain::rules::validate`). Pure; imports nothing of ours.
//! - [`manifest`]: YAML text into located documents and objects, for findings that point at a
//!   line and column. Uses `domain` for paths.
//! - [`inventory`]: the cluster picture, changed only by source events; cheap snapshots.
//! - [`app`]: the console's state machine (App, Msg, Effect, update) and the list rows.
//! - [`theme`]: colours by meaning, the settings file, colour depth.
//! - [`ui`]: `render(&App, &Theme, &mut Frame)`; pure.
//! - [`sources`]: kube-rs watchers into source events; the connection; the recorder.
//! - [`cluster`]: operations carried out on the hub (labels, deletes with preconditions,
//!   finalizers by value, access reviews), read-only mode enforced.
//! - [`demo`]: the embedded, loopback-only, Kubernetes-compatible demo cluster.
//! - [`drafts`]: the wizard's drafts on disk (private, resumable).
//! - [`files`]: reading the files a person names: regular files only, bounded, never blocking
//!   on a FIFO or device.
//! - [`settings`]: the settings file beyond the theme (read-only contexts, clipboard, audit log).
//! - [`runtime`]: the only place with the terminal and the event loop; carries out effects.
//! - [`say`]: pooldeck's own lines on stdout and stderr: inert, never a panic on a closed
//!   terminal.
//! - [`cli`]: the command line (`validate`, `get`, `demo serve`, `record`, the console), a
//!   thin layer over the modules above.
#![forbid(unsafe_code)]
// Output goes through `say`: inert, and never a panic when the terminal is gone.
#![cfg_attr(not(test), deny(clippy::print_stdout, clippy::print_stderr))]

pub mod app;
pub mod cli;
pub mod cluster;
pub mod demo;
pub mod domain;
pub mod drafts;
pub mod files;
pub mod inventory;
pub mod manifest;
pub mod runtime;
pub mod say;
pub mod settings;
pub mod sources;
pub mod theme;
pub mod ui;
