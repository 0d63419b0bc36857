//! pooldeck: a terminal console for operators of PaletteAI Compute Pools.
//!
//! Module map (dependencies point downwards only):
//! - [`domain`]: what a Compute Pool is. The lenient model of ComputePool and
//!   ComputePoolEvaluation, quantities and durations, and the configuration reference's rules
//!   (`domain::rules::validate`). Pure; imports nothing of ours.
//! - [`manifest`]: YAML text into located documents and objects, for findings that point at a
//!   line and column. Uses `domain` for paths.
//! - [`cli`]: the command line (`pooldeck validate`, ...), a thin layer over the modules above.
#![forbid(unsafe_code)]

pub mod app;
pub mod cli;
pub mod demo;
pub mod domain;
pub mod inventory;
pub mod manifest;
pub mod runtime;
pub mod sources;
pub mod theme;
pub mod ui;
