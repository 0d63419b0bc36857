//! The `pooldeck` binary: parse the command line and hand over to the library.
#![forbid(unsafe_code)]

// The system allocator: with the model compact and read one object at a time, it holds a
// 10,000-pool fleet in less resident memory than mimalloc did (145 against 165 MB; per-thread
// heaps kept more pages part-used), at the same speed (see benches/fleet.rs).

fn main() -> std::process::ExitCode {
    pooldeck::cli::main()
}
