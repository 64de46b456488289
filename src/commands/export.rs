//! `evotune export`: a weight table as TOML, JSON or a C header.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};

use crate::commands::args::GameArg;
use crate::export::{to_c_header, to_json};
use crate::player::load_weights;

/// Formats of `export`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    Toml,
    Json,
    /// A C header: a `static const int` array with the names in comments and a `#define`
    /// per weight index.
    C,
}

#[derive(Args, Debug)]
pub struct ExportArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// Weight file (its [meta] says which evaluation), or `defaults`.
    #[arg(long)]
    pub weights: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ExportFormat::Toml)]
    pub format: ExportFormat,
    /// Evaluation of `defaults` / `random` (files name their own in [meta]).
    #[arg(long)]
    pub eval: Option<String>,
    /// Write to this file instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

pub fn run(args: &ExportArgs) -> Result<()> {
    let game = args.game.get()?;
    let (weights, meta, _) = load_weights(&args.weights, args.eval.as_deref(), game)?;
    let text = match args.format {
        ExportFormat::Toml => weights.to_toml(&meta),
        ExportFormat::Json => to_json(&weights, &meta),
        ExportFormat::C => to_c_header(&weights, &meta),
    };
    match &args.output {
        Some(path) => {
            crate::fsutil::write_atomic(path, text.as_bytes())
                .with_context(|| format!("{}: cannot write", path.display()))?;
            eprintln!("wrote {}", path.display());
        }
        None => print!("{text}"),
    }
    Ok(())
}
