//! `evotune plot`: the fitness plot of a run from its history.csv.

use anyhow::{bail, Result};

use crate::cli::PlotArgs;
use crate::report::{history, plots};

pub fn run(args: &PlotArgs) -> Result<()> {
    let (csv, dir) = if args.run.is_dir() {
        (args.run.join("history.csv"), args.run.clone())
    } else {
        (args.run.clone(), args.run.parent().map(|p| p.to_path_buf()).unwrap_or_default())
    };
    if !csv.exists() {
        bail!("{}: no history.csv (give a run's results folder, results/<run>, or the file itself)", csv.display());
    }
    let rows = history::read(&csv)?;
    let title = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "run".into());
    for p in plots::plot_history(&rows, &dir, &title)? {
        println!("{}", p.display());
    }
    Ok(())
}
