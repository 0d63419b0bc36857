//! The `pooldeck` binary: parse the command line and hand over to the library.
#![forbid(unsafe_code)]

// mimalloc: parsing and holding a fleet is allocation-heavy; it is markedly faster than the
// system allocator here and returns memory to the system more readily (see benches/). It is
// built without its transparent-huge-page advice (Cargo.toml), and `main` turns huge pages off
// for the process: a 2 MiB page is kept whole while any of it is in use, and the console's
// heap is many small objects, so at 10,000 pools huge pages held about 15 MB more than the
// heap needs (135 MB of the resident set was huge pages). Latency is the same without them
// (cargo bench --bench console).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    // Best effort: a kernel without the switch leaves the process as it was.
    #[cfg(target_os = "linux")]
    let _ = rustix::thread::disable_transparent_huge_pages(true);
    pooldeck::cli::main()
}
