//! What a Compute Pool is, and the reference's rules about it.
//!
//! Pure: no tokio, no ratatui, no kube client, no file or terminal I/O. Everything else in
//! pooldeck imports from here; this module imports nothing of ours.

pub mod duration;
pub mod field;
pub mod model;
pub mod path;
pub mod quantity;
pub mod rules;
