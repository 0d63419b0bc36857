//! The `pooldeck` binary: parse the command line and hand over to the library.
#![forbid(unsafe_code)]

// mimalloc: parsing and holding a fleet is allocation-heavy; it is markedly faster than the
// system allocator here and returns memory to the system more readily (see benches/).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    pooldeck::cli::main()
}
