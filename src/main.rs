//! The `kontor` binary: parse the command line and hand it to the console.

use clap::Parser;

/// mimalloc: the JSON paths allocate many small strings; it answers them
/// about a tenth faster than the system allocator (see docs/performance.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    kontor::console::run(kontor::console::Cli::parse())
}
