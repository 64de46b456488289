use std::process::ExitCode;

use clap::Parser;

use evotune::cli::{Cli, Command};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Bench(a) => evotune::commands::bench(&a),
        Command::Bestmove(a) => evotune::commands::bestmove(&a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
