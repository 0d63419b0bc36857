//! What a Compute Pool is, the reference's rules about it, and the values the rest of pooldeck
//! speaks in: kinds and object references, operations and their outcomes, typed errors.
//!
//! Also [`manifest`]: YAML text into located documents and objects, for findings that point at
//! a line and column.
//!
//! Pure: no tokio, no ratatui, no kube client, no file or terminal I/O. Everything else in
//! pooldeck imports from here; this crate imports nothing of ours, and its dependencies hold
//! no runtime, client, terminal or HTTP crate (both checked by
//! `crates/console/tests/architecture.rs`).

#![cfg_attr(test, allow(clippy::too_many_lines))]
// Numbers come from the API: checked or saturating arithmetic only (a test may do as it likes).
#![deny(clippy::arithmetic_side_effects)]
#![cfg_attr(test, allow(clippy::arithmetic_side_effects))]

pub mod diagnosis;
pub mod draft;
pub mod duration;
pub mod edit;
pub mod entry;
pub mod error;
pub mod exists;
pub mod field;
pub mod field_selector;
pub mod fixes;
pub mod hosts;
pub mod inert;
pub mod json;
pub mod jsonpath;
pub mod kind;
pub mod manifest;
pub mod model;
pub mod object;
pub mod operation;
pub mod path;
pub mod quantity;
pub mod quota;
pub mod redact;
pub mod request;
pub mod rules;
pub mod selector;
pub mod shared;
pub mod shell;
pub mod time;
pub mod timeline;
pub mod words;

pub use error::ClusterError;
pub use kind::Kind;
pub use object::{ObjectRef, Preconditions};
pub use operation::{Operation, Outcome, Run};
pub use request::{Hub, Request, RequestId};
