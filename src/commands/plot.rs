//! `evotune plot`: a run's plots redrawn from its files: the fitness plot from history.csv and
//! the genes plot from the generation champions, `champions/gen-NNNN.toml`.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use clap::Args;

use crate::report::{history, plots};
use crate::watch::run_files;

#[derive(Args, Debug)]
pub struct PlotArgs {
    /// A run's results folder (results/<run>) or its history.csv.
    pub run: PathBuf,
}

pub fn run(args: &PlotArgs) -> Result<()> {
    for p in redraw(&args.run)? {
        println!("{}", p.display());
    }
    Ok(())
}

/// Draws the plots of the run at `run` (its results folder or its history.csv) and returns
/// the files written. A run without champion files gets no genes plot, with a message saying so.
fn redraw(run: &Path) -> Result<Vec<PathBuf>> {
    let (csv, dir) = if run.is_dir() {
        (run.join("history.csv"), run.to_path_buf())
    } else {
        (run.to_path_buf(), run.parent().map(|p| p.to_path_buf()).unwrap_or_default())
    };
    if !csv.exists() {
        bail!("{}: no history.csv (give a run's results folder, results/<run>, or the file itself)", csv.display());
    }
    let rows = history::read(&csv)?;
    let title = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "run".into());
    let mut files = plots::plot_history(&rows, &dir, &title)?;
    let champions = dir.join("champions");
    match champion_genes(&champions)? {
        Some((schema, points)) => {
            let title = format!("{title}: the weights of each generation's best");
            files.extend(plots::plot_genes(schema, &points, &dir, &title)?);
        }
        None => eprintln!("{}: no gen-NNNN.toml champion files; genes.png not drawn", champions.display()),
    }
    Ok(files)
}

/// The genes of every `gen-NNNN.toml` in `dir` (see [`run_files::champion_genes`]); files
/// left out are named on stderr.
fn champion_genes(dir: &Path) -> Result<Option<run_files::ChampionGenes>> {
    run_files::champion_genes(dir, &mut |why| eprintln!("warning: {why}; left out of genes.png"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::weights::Meta;
    use crate::games::connect::eval::patterns::CONNECT6_PATTERNS;
    use crate::games::connect::eval::roads::CONNECT6_ROADS;
    use crate::report::history::HistoryRow;

    fn history(dir: &Path, generations: u32) {
        let rows: Vec<HistoryRow> = (1..=generations)
            .map(|g| HistoryRow {
                generation: g,
                fmax: 5.0,
                favg: 0.0,
                fmin: -5.0,
                champion: 0,
                pc_mean: 0.7,
                pm_mean: 0.05,
                diversity: 0.2,
                games: 40,
                first_wins: 20,
                second_wins: 20,
                draws: 0,
                wall_s: 1.0,
                games_wall_s: 1.0,
                best_games: 40,
                best_se: 30.0,
                immigrants: 0,
                anchors: vec![],
            })
            .collect();
        std::fs::write(dir.join("history.csv"), history::to_csv(&rows).unwrap()).unwrap();
    }

    #[test]
    fn redraws_fitness_and_genes_from_a_results_folder() {
        let dir = tempfile::tempdir().unwrap();
        history(dir.path(), 3);
        let champions = dir.path().join("champions");
        std::fs::create_dir_all(&champions).unwrap();
        for g in 1..=3 {
            let mut w = CONNECT6_ROADS.defaults().values().to_vec();
            w[0] += g;
            let w = crate::core::weights::Weights::from_values(&CONNECT6_ROADS, w).unwrap();
            w.save(&champions.join(format!("gen-{g:04}.toml")), &Meta::default()).unwrap();
        }
        // Not champions of this run's kind, or not champions at all: left out.
        CONNECT6_PATTERNS.defaults().save(&champions.join("gen-0004.toml"), &Meta::default()).unwrap();
        std::fs::write(champions.join("gen-0005.toml"), "not toml [").unwrap();
        std::fs::write(champions.join("notes.txt"), "x").unwrap();
        let (schema, points) = champion_genes(&champions).unwrap().unwrap();
        assert!(std::ptr::eq(schema, &CONNECT6_ROADS));
        assert_eq!(points.iter().map(|p| p.0).collect::<Vec<_>>(), [1, 2, 3]);
        assert_eq!(points[2].1[0], CONNECT6_ROADS.specs[0].default + 3);

        let files = redraw(dir.path()).unwrap();
        let names: Vec<String> = files.iter().map(|f| f.file_name().unwrap().to_string_lossy().into_owned()).collect();
        assert_eq!(names, ["fitness.png", "fitness.svg", "genes.png", "genes.svg"]);
        assert!(files.iter().all(|f| f.exists()));
    }

    #[test]
    fn without_champions_only_the_fitness_plot() {
        let dir = tempfile::tempdir().unwrap();
        history(dir.path(), 2);
        let files = redraw(&dir.path().join("history.csv")).unwrap();
        assert_eq!(files.len(), 2);
        assert!(!dir.path().join("genes.png").exists());
        std::fs::create_dir_all(dir.path().join("champions")).unwrap();
        assert_eq!(redraw(dir.path()).unwrap().len(), 2);
        let e = redraw(&dir.path().join("nothing")).unwrap_err().to_string();
        assert!(e.contains("no history.csv"), "{e}");
    }
}
