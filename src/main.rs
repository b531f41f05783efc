//! The `kontor` binary: parse the command line and hand it to the library.

use clap::Parser;

fn main() -> std::process::ExitCode {
    kontor::cli::run(kontor::cli::Cli::parse())
}
