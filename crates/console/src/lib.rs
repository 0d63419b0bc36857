//! pooldeck: a terminal console for operators of PaletteAI Compute Pools.
//!
//! The workspace (dependencies point downwards only; each crate's own rules are in
//! `crates/console/tests/architecture.rs`):
//! - `pooldeck-domain` ([`domain`], [`manifest`]): what a Compute Pool is. The lenient model
//!   of ComputePool and ComputePoolEvaluation, quantities and durations, the configuration
//!   reference's rules, the doctor's diagnosis and fixes, drafts, operations and their
//!   outcomes; YAML text into located documents. Pure: no runtime, client, terminal or HTTP
//!   crate.
//! - `pooldeck-io` ([`files`], [`say`]): reading the files a person names (regular files only,
//!   bounded, never blocking on a FIFO or device), private writes, and pooldeck's own lines on
//!   stdout and stderr (inert, never a panic on a closed terminal).
//! - `pooldeck-demo` ([`demo`]): the embedded, loopback-only, Kubernetes-compatible demo
//!   cluster.
//!
//! This crate, the console and the command line:
//! - [`inventory`]: the cluster picture, changed only by source events.
//! - [`app`]: the console's state machine (App, Msg, Effect, update) and the list rows.
//! - [`theme`]: colours by meaning, the settings file, colour depth.
//! - [`ui`]: `render(&App, &Theme, &mut Frame)`; pure.
//! - [`sources`]: kube-rs watchers into source events; the connection; the recorder.
//! - [`cluster`]: operations carried out on the hub (labels, deletes with preconditions,
//!   finalizers by value, access reviews), read-only mode enforced.
//! - [`drafts`]: the wizard's drafts on disk (private, resumable).
//! - [`settings`]: the settings file beyond the theme (read-only contexts, clipboard, audit log).
//! - [`runtime`]: the only place with the terminal and the event loop; carries out effects.
//! - [`cli`]: the command line (`validate`, `get`, `demo serve`, `record`, the console), a
//!   thin layer over the modules above.
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::too_many_lines))]
// Output goes through `say`: inert, and never a panic when the terminal is gone.
#![cfg_attr(not(test), deny(clippy::print_stdout, clippy::print_stderr))]

// The workspace's other crates, under the names the console has always used for them.
pub use pooldeck_demo as demo;
pub use pooldeck_domain as domain;
pub use pooldeck_domain::manifest;
pub use pooldeck_io::{files, say};

/// A binary's whole body: the allocator and `main` (the `pooldeck` binary and its kubectl
/// plugin name, `kubectl-pooldeck`, are the same program).
///
/// mimalloc: parsing and holding a fleet is allocation-heavy, and it is faster than the
/// system allocator here and returns memory more readily. Huge pages are off (its advice at
/// build time, the process's in `main`): a 2 MiB page is kept whole while any of it is used,
/// and this heap is many small objects. `cargo bench --bench console` measures both.
#[macro_export]
macro_rules! program {
    () => {
        #[global_allocator]
        static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

        fn main() -> std::process::ExitCode {
            // Best effort: a kernel without the switch leaves the process as it was.
            #[cfg(target_os = "linux")]
            let _ = rustix::thread::disable_transparent_huge_pages(true);
            $crate::cli::main()
        }
    };
}

pub mod app;
pub mod cli;
pub mod cluster;
pub mod drafts;
pub mod inventory;
pub mod runtime;
pub mod settings;
pub mod sources;
pub mod theme;
pub mod timeline;
pub mod ui;
