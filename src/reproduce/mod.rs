//! The papers' experiments, played for real with the arena and printed beside the papers'
//! numbers: Li Guo 2007 Fig. 1 ([`li2007`]), Wang Hongfei 2021's match table
//! ([`wang2021`]), Li Xuejun 2015's local vs global road scanning ([`li2015`]) and Song
//! Yingjian 2022's hybrid-evaluation MCTS for EinStein würfelt nicht ([`song2022`]).
//!
//! Each experiment takes its sizes as a plain options struct with a quick setting (minutes on
//! two cores) and the paper's (`full`); tests pass tiny sizes. An experiment returns a
//! [`Reproduction`]: its tables and notes, which the command prints and writes.

pub mod li2007;
pub mod li2015;
pub mod song2022;
pub mod wang2021;

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};

use crate::arena::game::{GameSettings, Referee};
use crate::arena::matches::{play_match, MatchConfig, MatchReport};
use crate::arena::openings::{OpeningSuite, Openings};
use crate::arena::player::Player;
use crate::arena::records::GameRecord;
use crate::core::openings::OpeningConfig;
use crate::core::rng::derive_seed;
use crate::fsutil::write_atomic;
use crate::registry::GameRef;
use crate::report::progress::ProgressMode;
use crate::report::table::Table;
use crate::stats::Z95;

/// What every experiment shares: where it writes, its seed, how it reports progress.
#[derive(Clone, Debug)]
pub struct Setup {
    pub out: PathBuf,
    pub seed: u64,
    /// `Hidden` in tests: no progress, no estimate (which costs calibration games).
    pub mode: ProgressMode,
}

impl Setup {
    pub fn quiet(&self) -> bool {
        self.mode == ProgressMode::Hidden
    }

    /// A line on stderr unless quiet.
    pub fn say(&self, line: &str) {
        if !self.quiet() {
            eprintln!("{line}");
        }
    }

    /// A seed for one purpose of the experiment.
    pub fn seed_for(&self, purpose: u64) -> u64 {
        derive_seed(&[self.seed, purpose])
    }

    /// A match of `pairs` game pairs of `a` against `b` on the suite's openings, from the
    /// experiment's seed for `purpose`, with this setup's progress; `on_game` sees each game.
    #[allow(clippy::too_many_arguments)]
    pub fn play_match(
        &self,
        referee: &dyn Referee,
        a: &Player,
        b: &Player,
        suite: &OpeningSuite,
        pairs: usize,
        purpose: u64,
        on_game: &(dyn Fn(usize, &GameRecord) + Sync),
    ) -> Result<MatchReport> {
        let config = MatchConfig { pairs, seed: self.seed_for(purpose), sprt: None };
        let mut openings = Openings::fixed(suite.clone());
        play_match(referee, a, b, &mut openings, &config, &Default::default(), self.mode, false, on_game)
    }
}

/// An experiment's results: tables (each with a file stem) and the files written.
#[derive(Clone, Debug, Default)]
pub struct Reproduction {
    pub title: String,
    pub tables: Vec<(String, Table)>,
    pub files: Vec<PathBuf>,
}

impl Reproduction {
    pub fn new(title: impl Into<String>) -> Reproduction {
        Reproduction { title: title.into(), ..Reproduction::default() }
    }

    pub fn add(&mut self, stem: &str, table: Table) {
        self.tables.push((stem.to_string(), table));
    }

    /// The tables as printed.
    pub fn to_text(&self) -> String {
        let mut s = format!("{}\n\n", self.title);
        for (_, t) in &self.tables {
            s += &t.to_text();
            s.push('\n');
        }
        s
    }

    /// All tables in one Markdown page.
    pub fn to_markdown(&self) -> String {
        let mut s = format!("# {}\n\n", self.title);
        for (_, t) in &self.tables {
            s += &t.to_markdown();
            s.push('\n');
        }
        s
    }

    /// Writes every table as `<stem>.csv` and `<stem>.md` and all of them as `report.md` into
    /// `out` (made if missing), and records the paths in `files`.
    pub fn write(&mut self, out: &Path) -> Result<()> {
        std::fs::create_dir_all(out).with_context(|| format!("{}: cannot create", out.display()))?;
        for (stem, t) in &self.tables {
            self.files.extend(t.write(out, stem)?);
        }
        let md = out.join("report.md");
        write_atomic(&md, self.to_markdown().as_bytes()).with_context(|| format!("{}: cannot write", md.display()))?;
        self.files.push(md);
        Ok(())
    }
}

/// Spearman's rank correlation of two samples of equal length: the Pearson correlation of
/// their ranks, tied values sharing the mean of their ranks. `None` when it is undefined
/// (fewer than two points, different lengths, or a sample with all values equal).
///
/// ```
/// use evotune::reproduce::spearman;
/// assert_eq!(spearman(&[1.0, 2.0, 3.0], &[10.0, 20.0, 90.0]), Some(1.0));
/// ```
pub fn spearman(x: &[f64], y: &[f64]) -> Option<f64> {
    if x.len() != y.len() || x.len() < 2 {
        return None;
    }
    pearson(&ranks(x), &ranks(y))
}

/// 1-based ranks, ties given the mean of the ranks they span.
fn ranks(v: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut r = vec![0.0; v.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && v[order[j + 1]] == v[order[i]] {
            j += 1;
        }
        // Positions i..=j (0-based) hold equal values: ranks i+1..=j+1, mean (i+j)/2 + 1.
        let mean = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            r[k] = mean;
        }
        i = j + 1;
    }
    r
}

fn pearson(a: &[f64], b: &[f64]) -> Option<f64> {
    let n = a.len() as f64;
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let cov: f64 = a.iter().zip(b).map(|(x, y)| (x - ma) * (y - mb)).sum();
    let va: f64 = a.iter().map(|x| (x - ma) * (x - ma)).sum();
    let vb: f64 = b.iter().map(|y| (y - mb) * (y - mb)).sum();
    if va <= 0.0 || vb <= 0.0 {
        return None;
    }
    Some((cov / (va * vb).sqrt()).clamp(-1.0, 1.0))
}

/// Wilson's 95% score interval of a proportion `k` of `n` (better than p ± 1.96·√(p(1−p)/n)
/// near 0 and 1, where the papers' win rates sit). (0, 1) when n = 0.
pub fn wilson95(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At k = 0 or k = n the bound is exactly 0 or 1; rounding would leave it a hair inside.
    let lo = if k == 0.0 { 0.0 } else { (centre - half).max(0.0) };
    let hi = if k == n { 1.0 } else { (centre + half).min(1.0) };
    (lo, hi)
}

/// A generated opening suite with at least `pairs` openings (64 when fewer), so that long
/// matches do not replay openings.
pub fn suite(pairs: usize, seed: u64) -> anyhow::Result<OpeningSuite> {
    let config = OpeningConfig { count: pairs.max(64), ..OpeningConfig::default() };
    Ok(OpeningSuite::generate(GAME.arena(), &config, seed)?)
}

/// The papers' game: every experiment here but song2022 (EinStein) is Connect6's.
pub const GAME: GameRef = crate::registry::CONNECT6;

/// Milliseconds per game of `a` against `b` from the suite's first `games` openings (at least
/// one), timed on this thread: the per-game cost that the estimates printed before long
/// experiments multiply.
pub fn game_ms(a: &Player, b: &Player, suite: &OpeningSuite, settings: &GameSettings, games: usize) -> f64 {
    let games = games.max(1);
    let start = Instant::now();
    for i in 0..games {
        GAME.play_game(a, b, suite.get(i), settings, i as u64);
    }
    start.elapsed().as_secs_f64() * 1e3 / games as f64
}

/// Seconds for `games` games of `ms` each on the current pool's threads.
pub fn estimate_secs(games: usize, ms: f64) -> f64 {
    games as f64 * ms / 1e3 / rayon::current_num_threads().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spearman_of_monotone_reversed_and_textbook_samples() {
        let x = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(spearman(&x, &[3.0, 5.0, 8.0, 9.0, 100.0]), Some(1.0));
        assert_eq!(spearman(&x, &[5.0, 4.0, 3.0, 2.0, 1.0]), Some(-1.0));
        // Σd² = 4 with n = 5: ρ = 1 − 6·4 / (5·24) = 0.8.
        let r = spearman(&x, &[2.0, 1.0, 4.0, 3.0, 5.0]).unwrap();
        assert!((r - 0.8).abs() < 1e-12, "{r}");
    }

    #[test]
    fn spearman_shares_ranks_between_ties_and_refuses_undefined_cases() {
        assert_eq!(ranks(&[10.0, 20.0, 20.0, 5.0]), vec![2.0, 3.5, 3.5, 1.0]);
        // Ranks [1, 2.5, 2.5, 4] against [1, 2, 3, 4]: 4.5 / √(5 · 4.5).
        let r = spearman(&[1.0, 2.0, 3.0, 4.0], &[1.0, 2.0, 2.0, 3.0]).unwrap();
        assert!((r - 4.5 / (22.5f64).sqrt()).abs() < 1e-12, "{r}");
        assert_eq!(spearman(&[1.0, 2.0, 3.0], &[7.0, 7.0, 7.0]), None);
        assert_eq!(spearman(&[1.0], &[1.0]), None);
        assert_eq!(spearman(&[1.0, 2.0], &[1.0]), None);
    }

    #[test]
    fn wilson_interval_matches_published_values() {
        // 10 of 10: [0.7225, 1] (Wilson 1927; the usual worked example).
        let (lo, hi) = wilson95(10, 10);
        assert!((lo - 0.7225).abs() < 1e-4 && hi == 1.0, "{lo} {hi}");
        // 521 of 573 (Wang 2021, road vs pattern as first player): about [0.883, 0.930].
        let (lo, hi) = wilson95(521, 573);
        assert!(lo < 521.0 / 573.0 && hi > 521.0 / 573.0);
        assert!((lo - 0.8833).abs() < 1e-3 && (hi - 0.9301).abs() < 1e-3, "{lo} {hi}");
        assert_eq!(wilson95(0, 0), (0.0, 1.0));
    }

    #[test]
    fn a_reproduction_writes_each_table_and_a_report() {
        let mut r = Reproduction::new("Paper");
        let mut t = Table::new("T", &["a", "b"]);
        t.row(vec!["x".into(), "1".into()]);
        r.add("main", t);
        let dir = tempfile::tempdir().unwrap();
        r.write(dir.path()).unwrap();
        assert_eq!(r.files.len(), 3);
        let md = std::fs::read_to_string(dir.path().join("report.md")).unwrap();
        assert!(md.starts_with("# Paper\n\n### T\n"), "{md}");
        assert!(r.to_text().contains("x  1"));
    }
}
