//! `history.csv`: one row per generation of a GA run, written after every generation and read
//! back by `evotune plot` and the reproductions.
//!
//! The fixed columns come first; then, for each `[hall_of_fame]` anchor, the generation's best
//! individual's record against it over the remembered games: `vs_<anchor>_wins`, `_draws`,
//! `_losses`, and for reading by eye `_score` (a share), `_elo`, `_elo_lo`, `_elo_hi` (the 95%
//! interval).

use std::path::Path;

use anyhow::Context;
use serde::{Deserialize, Serialize};

use crate::stats::Wdl;

/// The best individual's record against one anchor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnchorRecord {
    /// The anchor's name as a CSV column fragment (`defaults`, `random_3`, a file stem).
    pub name: String,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl AnchorRecord {
    pub fn new(name: &str, wdl: Wdl) -> AnchorRecord {
        let name = name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
        AnchorRecord { name, wins: wdl.wins, draws: wdl.draws, losses: wdl.losses }
    }

    pub fn wdl(&self) -> Wdl {
        Wdl::new(self.wins, self.draws, self.losses)
    }
}

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
    /// Wins of the first and of the second player (read under their old names too).
    #[serde(alias = "black_wins")]
    pub first_wins: u64,
    #[serde(alias = "white_wins")]
    pub second_wins: u64,
    pub draws: u64,
    /// Wall-clock seconds of the generation, and of its games alone (the rest is scheduling,
    /// breeding and bookkeeping).
    pub wall_s: f64,
    #[serde(default)]
    pub games_wall_s: f64,
    /// The best individual's remembered games (all opponents) and the standard error of its
    /// rating (`[fitness] mode = "rating"`; 0 otherwise).
    #[serde(default)]
    pub best_games: u64,
    #[serde(default)]
    pub best_se: f64,
    /// Newcomers that replaced children because diversity fell below `[diversity] min`.
    #[serde(default)]
    pub immigrants: u64,
    /// The best individual's record against each anchor: extra columns in the CSV (see the
    /// module doc), a list in checkpoints.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub anchors: Vec<AnchorRecord>,
}

/// Column suffixes of each anchor, in order.
const ANCHOR_COLUMNS: [&str; 7] = ["wins", "draws", "losses", "score", "elo", "elo_lo", "elo_hi"];

/// Writes every row as CSV with a header. The anchor columns are those of the first row.
pub fn to_csv(rows: &[HistoryRow]) -> Result<String, csv::Error> {
    // The fixed columns through serde (one row serialised alone gives its header).
    let fixed = |row: &HistoryRow| -> Result<(Vec<String>, Vec<String>), csv::Error> {
        let mut w = csv::WriterBuilder::new().from_writer(Vec::new());
        w.serialize(HistoryRow { anchors: Vec::new(), ..row.clone() })?;
        let bytes = w.into_inner().map_err(|e| e.into_error())?;
        let mut r = csv::Reader::from_reader(bytes.as_slice());
        let header = r.headers()?.iter().map(String::from).collect();
        let values = r.records().next().transpose()?.map(|v| v.iter().map(String::from).collect()).unwrap_or_default();
        Ok((header, values))
    };
    let mut w = csv::Writer::from_writer(Vec::new());
    let anchors: Vec<String> =
        rows.first().map(|r| r.anchors.iter().map(|a| a.name.clone()).collect()).unwrap_or_default();
    for (i, row) in rows.iter().enumerate() {
        let (mut header, mut values) = fixed(row)?;
        if i == 0 {
            for a in &anchors {
                header.extend(ANCHOR_COLUMNS.iter().map(|c| format!("vs_{a}_{c}")));
            }
            w.write_record(&header)?;
        }
        for name in &anchors {
            match row.anchors.iter().find(|a| &a.name == name) {
                Some(a) => {
                    let wdl = a.wdl();
                    let (lo, hi) = wdl.elo_ci95();
                    values.extend([
                        a.wins.to_string(),
                        a.draws.to_string(),
                        a.losses.to_string(),
                        format!("{:.4}", wdl.score()),
                        format!("{:.1}", wdl.elo()),
                        format!("{lo:.1}"),
                        format!("{hi:.1}"),
                    ]);
                }
                None => values.extend(ANCHOR_COLUMNS.iter().map(|_| String::new())),
            }
        }
        w.write_record(&values)?;
    }
    let bytes = w.into_inner().map_err(|e| e.into_error())?;
    Ok(String::from_utf8(bytes).expect("csv of numbers is UTF-8"))
}

/// Reads a history file; errors name the file and the row.
pub fn read(path: &Path) -> anyhow::Result<Vec<HistoryRow>> {
    let mut r = csv::Reader::from_path(path).with_context(|| format!("{}: cannot open", path.display()))?;
    let headers = r.headers().with_context(|| format!("{}: no header", path.display()))?.clone();
    let anchors: Vec<(String, usize)> = headers
        .iter()
        .enumerate()
        .filter_map(|(i, h)| Some((h.strip_prefix("vs_")?.strip_suffix("_wins")?.to_string(), i)))
        .collect();
    let mut rows = Vec::new();
    for (i, record) in r.records().enumerate() {
        let at = || format!("{}: row {}", path.display(), i + 2);
        let record = record.with_context(at)?;
        let mut row: HistoryRow = record.deserialize(Some(&headers)).with_context(at)?;
        for (name, col) in &anchors {
            let num = |k: usize| -> anyhow::Result<Option<u64>> {
                let text = record.get(col + k).unwrap_or("");
                if text.is_empty() {
                    return Ok(None);
                }
                text.parse().map(Some).with_context(|| format!("{}: column vs_{name}_{}", at(), ANCHOR_COLUMNS[k]))
            };
            if let (Some(wins), Some(draws), Some(losses)) = (num(0)?, num(1)?, num(2)?) {
                row.anchors.push(AnchorRecord { name: name.clone(), wins, draws, losses });
            }
        }
        rows.push(row);
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
            first_wins: 30,
            second_wins: 28,
            draws: 2,
            wall_s: 12.5,
            games_wall_s: 12.0,
            best_games: 40,
            best_se: 35.5,
            immigrants: 2,
            anchors: vec![
                AnchorRecord::new("defaults", Wdl::new(30, 0, 10)),
                AnchorRecord::new("random:3", Wdl::new(1, 2, 3)),
            ],
        };
        let text = to_csv(&[row.clone(), row.clone()]).unwrap();
        assert!(text.starts_with("generation,fmax,favg,fmin,champion,pc_mean,pm_mean,diversity,games,"));
        assert!(text.lines().next().unwrap().ends_with(",vs_random_3_elo_lo,vs_random_3_elo_hi"), "{text}");
        assert!(text.contains(",30,0,10,0.7500,190.8,"), "{text}");
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("history.csv");
        std::fs::write(&p, text).unwrap();
        assert_eq!(read(&p).unwrap(), vec![row.clone(), row]);
    }
}
