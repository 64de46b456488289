use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use evotune::cli::Cli;
use evotune::tuner::executor::EXIT_INTERRUPTED;
use evotune::tuner::interrupted::Interrupted;

fn main() -> ExitCode {
    restore_sigpipe();
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    // A weight table's engine settings give way to those the user typed.
    evotune::core::settings::note_command_line(&matches);
    evotune::interrupt::install();
    let result = cli.command.run();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is::<Interrupted>() => ExitCode::from(EXIT_INTERRUPTED as u8),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Lets a closed pipe end the process quietly, as it ends `cat` or `seq` (`evotune bench |
/// head -1`). Rust ignores SIGPIPE, so a write to a closed pipe is an error that `println!`
/// turns into a panic (exit 101 and a backtrace) in the middle of the output. The run's files
/// do not suffer: every file is written atomically or as whole lines, and a run resumes from
/// its checkpoint however it was stopped.
fn restore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any thread is started; resetting a signal's
    // disposition to the default has no other effect on the program's state.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
