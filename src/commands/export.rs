//! `evotune export`: a weight table as TOML, JSON, `NAME VALUE` lines or a C header; also a
//! table of an outside engine's parameters (`--schema`), such as the champion of a run that
//! tuned one.

use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, ValueEnum};

use crate::commands::args::GameArg;
use crate::commands::write_output;
use crate::core::schema_file::SchemaFile;
use crate::core::weights::Weights;
use crate::export::Format;
use crate::player::load_weights;

/// Formats of `export`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    Toml,
    Json,
    /// One `NAME VALUE` line per weight, in the schema's order.
    Lines,
    /// A C header: a `static const int` array with the names in comments and a `#define`
    /// per weight index.
    C,
}

impl ExportFormat {
    fn format(self) -> Format {
        match self {
            ExportFormat::Toml => Format::Toml,
            ExportFormat::Json => Format::Json,
            ExportFormat::Lines => Format::Lines,
            ExportFormat::C => Format::C,
        }
    }
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
    #[arg(long, conflicts_with = "schema")]
    pub eval: Option<String>,
    /// The parameter schema file of the table's weights, for a table of an outside engine's
    /// parameters (a run with `[outside]`); `defaults` is then the schema's defaults.
    #[arg(long, value_name = "FILE")]
    pub schema: Option<PathBuf>,
    /// Write to this file instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

pub fn run(args: &ExportArgs) -> Result<()> {
    let game = args.game.get()?;
    let (weights, meta) = match &args.schema {
        Some(path) => {
            let schema = SchemaFile::load(path).map_err(anyhow::Error::msg)?.schema(game.name());
            if args.weights == "defaults" {
                (schema.defaults(), Default::default())
            } else {
                Weights::load(std::path::Path::new(&args.weights), &[schema])?
            }
        }
        None => {
            let (weights, meta, _) = load_weights(&args.weights, args.eval.as_deref(), game)?;
            (weights, meta)
        }
    };
    let text = args.format.format().render(&weights, &meta);
    write_output(args.output.as_deref(), &text)
}
