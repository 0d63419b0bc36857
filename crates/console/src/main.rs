//! The `pooldeck` binary: parse the command line and hand over to the library.
#![forbid(unsafe_code)]

pooldeck::program!();
