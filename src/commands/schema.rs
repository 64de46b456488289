//! `evotune schema`: a built-in weight schema written as a parameter schema file, the
//! starting point for tuning an outside engine (docs/outside-tuning.md).

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use crate::commands::args::GameArg;
use crate::commands::write_output;
use crate::core::schema_file::SchemaFile;

#[derive(Args, Debug)]
pub struct SchemaArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// The evaluation whose weights are written (default: the game's default evaluation).
    #[arg(long)]
    pub eval: Option<String>,
    /// Write to this file instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

pub fn run(args: &SchemaArgs) -> Result<()> {
    let schema = args.game.get()?.schema(args.eval.as_deref())?;
    let text = SchemaFile::of(schema).to_text();
    write_output(args.output.as_deref(), &text)
}
