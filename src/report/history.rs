//! `history.csv`: one row per generation of a GA run, written after every generation and read
//! back by `evotune plot` and the reproductions.

use std::path::Path;

use serde::{Deserialize, Serialize};

/// The statistics of one generation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistoryRow {
    /// Generation number, from 1.
    pub generation: u32,
    /// Best, mean and worst fitness (+1 win, -1 loss, 0 draw, summed over the generation).
    pub fmax: f64,
    pub favg: f64,
    pub fmin: f64,
    /// Population index of the generation's best individual.
    pub champion: usize,
    /// Mean crossover and mutation probabilities used to breed the next generation.
    pub pc_mean: f64,
    pub pm_mean: f64,
    /// Mean over genes of the population's standard deviation, as a share of each gene's range.
    pub diversity: f64,
    /// Games played in this generation, and how they ended.
    pub games: u64,
    pub black_wins: u64,
    pub white_wins: u64,
    pub draws: u64,
    /// Wall-clock seconds of the generation, and of its games alone (the rest is scheduling,
    /// breeding and bookkeeping).
    pub wall_s: f64,
    #[serde(default)]
    pub games_wall_s: f64,
}

/// Writes every row as CSV with a header.
pub fn to_csv(rows: &[HistoryRow]) -> Result<String, csv::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.serialize(r)?;
    }
    let bytes = w.into_inner().map_err(|e| e.into_error())?;
    Ok(String::from_utf8(bytes).expect("csv of numbers is UTF-8"))
}

/// Reads a history file; errors name the file and the row.
pub fn read(path: &Path) -> anyhow::Result<Vec<HistoryRow>> {
    use anyhow::Context;
    let mut r = csv::Reader::from_path(path).with_context(|| format!("{}: cannot open", path.display()))?;
    let mut rows = Vec::new();
    for (i, row) in r.deserialize().enumerate() {
        rows.push(row.with_context(|| format!("{}: row {}", path.display(), i + 2))?);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let row = HistoryRow {
            generation: 3,
            fmax: 4.0,
            favg: 0.0,
            fmin: -4.0,
            champion: 7,
            pc_mean: 0.8,
            pm_mean: 0.05,
            diversity: 0.21,
            games: 60,
            black_wins: 30,
            white_wins: 28,
            draws: 2,
            wall_s: 12.5,
            games_wall_s: 12.0,
        };
        let text = to_csv(&[row.clone(), row.clone()]).unwrap();
        assert!(text.starts_with("generation,fmax,favg,fmin,champion,pc_mean,pm_mean,diversity,games,"));
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("history.csv");
        std::fs::write(&p, text).unwrap();
        assert_eq!(read(&p).unwrap(), vec![row.clone(), row]);
    }
}
