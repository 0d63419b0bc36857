//! pooldeck's own lines on standard output and standard error. Everything goes through
//! [`domain::inert`](pooldeck_domain::inert) first, since a message may carry a server's words or
//! a file's text, and a write that fails (a closed pipe, a terminal gone with a dropped SSH
//! session) is let go: the process never panics for want of somewhere to print (`println!`
//! and `eprintln!` do, and are not used; clippy's print lints hold the library to it).

use std::io::Write;

/// A line on standard output, made inert; a failed write is let go.
pub fn out(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{}", pooldeck_domain::inert::text(text));
    let _ = out.flush();
}

/// A line on standard error, made inert; a failed write is let go.
pub fn err(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{}", pooldeck_domain::inert::text(text));
}

/// Text on standard error without a line break (a prompt), made inert.
pub fn prompt(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = write!(err, "{}", pooldeck_domain::inert::line(text));
    let _ = err.flush();
}

/// `say!(...)`: a line on standard output, as [`out`].
#[macro_export]
#[doc(hidden)]
macro_rules! __say_out {
    ($($arg:tt)*) => { $crate::say::out(&format!($($arg)*)) };
}

/// `complain!(...)`: a line on standard error, as [`err`].
#[macro_export]
#[doc(hidden)]
macro_rules! __say_err {
    ($($arg:tt)*) => { $crate::say::err(&format!($($arg)*)) };
}

pub use crate::{__say_err as complain, __say_out as say};
