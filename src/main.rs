use std::process::ExitCode;

use clap::Parser;

use evotune::cli::{Cli, Command};
use evotune::commands;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Bench(a) => commands::bench::run(a),
        Command::Bestmove(a) => commands::bestmove::run(a),
        Command::Selfplay(a) => commands::matches::run_selfplay(a),
        Command::Match(a) => commands::matches::run_match_command(a),
        Command::Export(a) => commands::export::run(a),
        Command::Plot(a) => commands::plot::run(a),
        Command::Openings(a) => commands::openings::run(a),
        Command::Play(a) => commands::play::run(a),
        Command::Evolve(a) => commands::evolve::run(a),
        Command::Spsa(a) => commands::spsa::run(a),
        Command::Tournament(a) => commands::tournament::run(a),
        Command::Reproduce(a) => commands::reproduce::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
