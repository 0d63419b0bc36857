//! pooldeck's edges with the operating system: [`files`] a person names (bounded, regular
//! files only, never blocking on a FIFO or a device; private writes through no link) and
//! [`say`], pooldeck's own lines on stdout and stderr (inert, never a panic on a closed
//! terminal). Uses the domain only for its sanitiser.
#![forbid(unsafe_code)]
#![cfg_attr(not(test), deny(clippy::print_stdout, clippy::print_stderr))]
#![cfg_attr(test, allow(clippy::too_many_lines))]

pub mod files;
pub mod say;
