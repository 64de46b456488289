//! `evotune export`: a weight table as TOML, JSON or a C header.

use anyhow::{Context, Result};

use crate::cli::{ExportArgs, ExportFormat};
use crate::export::{to_c_header, to_json};
use crate::player::load_weights;

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
