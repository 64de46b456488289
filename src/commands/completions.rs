//! `evotune completions SHELL` and `evotune man`: the command line described for the shell
//! and for `man`, generated from the same definitions as `--help` so they never disagree.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use clap_complete::Shell;

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    #[arg(value_enum)]
    pub shell: Shell,
}

#[derive(Args, Debug)]
pub struct ManArgs {
    /// Write a page per command (evotune.1, evotune-match.1, ...) into this folder instead of
    /// printing the main page.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// Prints the completion script of `command` (the whole command line, as `cli` defines it).
pub fn run_completions(args: &CompletionsArgs, mut command: clap::Command) -> Result<()> {
    clap_complete::generate(args.shell, &mut command, "evotune", &mut std::io::stdout());
    Ok(())
}

/// Prints (or writes) the man pages of `command`.
pub fn run_man(args: &ManArgs, command: clap::Command) -> Result<()> {
    match &args.out {
        Some(dir) => {
            std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create", dir.display()))?;
            clap_mangen::generate_to(command, dir)
                .with_context(|| format!("{}: cannot write the pages", dir.display()))?;
            println!("man pages written to {}", dir.display());
        }
        None => {
            let mut page = Vec::new();
            clap_mangen::Man::new(command).render(&mut page).context("cannot render the man page")?;
            std::io::stdout().write_all(&page)?;
        }
    }
    Ok(())
}
