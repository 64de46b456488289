//! Wang Hongfei et al. 2021 (seed 003): road evaluation against pattern evaluation, PVS
//! against plain alpha-beta and PVS against UCT, each at equal time per move, with the win
//! rate of the first player's side counted separately as first player (Black) and as second
//! (White), as the paper's table does.

use anyhow::Result;

use crate::arena::game::GameSettings;
use crate::arena::matches::MatchReport;
use crate::arena::player::Player;
use crate::core::limits::Limits;
use crate::core::settings::{EngineSettings, SearchKind};
use crate::registry::EngineReferee;
use crate::report::progress::format_duration;
use crate::report::table::{match_cells, percent, Table, MATCH_COLUMNS};
use crate::reproduce::{estimate_secs, game_ms, suite, wilson95, Reproduction, Setup, GAME};

/// One row pair of the paper's table: the stronger configuration (always road evaluation with
/// PVS) against another, and the paper's (games, wins) as first and as second player.
pub struct PaperRow {
    pub name: &'static str,
    pub other_search: SearchKind,
    /// The other side's evaluation, one of Connect6's.
    pub other_eval: &'static str,
    pub first: (u64, u64),
    pub second: (u64, u64),
}

/// The paper's numbers (its table of results: games, wins of the road/PVS side).
pub const PAPER: [PaperRow; 3] = [
    PaperRow {
        name: "road eval vs pattern eval",
        other_search: SearchKind::Pvs,
        other_eval: "patterns",
        first: (573, 521),
        second: (351, 304),
    },
    PaperRow {
        name: "PVS vs alpha-beta",
        other_search: SearchKind::Alphabeta,
        other_eval: "roads",
        first: (784, 779),
        second: (653, 646),
    },
    PaperRow {
        name: "PVS vs UCTS (MCTS/UCT)",
        other_search: SearchKind::Mcts,
        other_eval: "roads",
        first: (637, 586),
        second: (462, 402),
    },
];

const OPENINGS: u64 = 1;
const MATCH: u64 = 2;

/// Sizes of the experiment.
#[derive(Clone, Debug)]
pub struct Options {
    /// Game pairs per row.
    pub pairs: usize,
    /// Every player's budget per move (the paper: equal time).
    pub limits: Limits,
}

impl Options {
    /// About the paper's game counts (it played 924 to 1437 games per row): 300 pairs per row,
    /// one second per move.
    pub fn full() -> Options {
        Options { pairs: 300, limits: Limits::time_ms(1000) }
    }

    /// Minutes on two cores: 30 pairs per row at 100 ms per move.
    pub fn quick() -> Options {
        Options { pairs: 30, limits: Limits::time_ms(100) }
    }
}

/// The two players of a row: road evaluation with PVS, and the row's other configuration, both
/// with the default weights of their evaluation.
pub fn players(row: &PaperRow, limits: Limits) -> (Player, Player) {
    let config = |search, eval: &str| EngineSettings { search, eval: Some(eval.into()), ..EngineSettings::default() };
    let name = |search: SearchKind, eval: &str| format!("{}+{eval}", search.name());
    let schema = |eval: &str| GAME.evaluation(eval).expect("the paper's evaluations are Connect6's").schema;
    let a = Player::new(
        name(SearchKind::Pvs, "roads"),
        schema("roads").defaults(),
        config(SearchKind::Pvs, "roads"),
        limits,
    );
    let b = Player::new(
        name(row.other_search, row.other_eval),
        schema(row.other_eval).defaults(),
        config(row.other_search, row.other_eval),
        limits,
    );
    (a, b)
}

/// Runs the three matches; writes the tables into `setup.out`.
pub fn run(options: &Options, setup: &Setup) -> Result<Reproduction> {
    let settings = GameSettings::default();
    let referee = EngineReferee { game: GAME, settings };
    let openings = suite(options.pairs, setup.seed_for(OPENINGS))?;
    let games = 2 * options.pairs * PAPER.len();
    if !setup.quiet() {
        setup.say(&format!(
            "wang2021: 3 matches of {} pairs ({} games in all), every player {} per move, default weights",
            options.pairs,
            games,
            options.limits.describe()
        ));
        let ms: f64 = PAPER
            .iter()
            .map(|row| {
                let (a, b) = players(row, options.limits);
                game_ms(&a, &b, &openings, &settings, 1)
            })
            .sum::<f64>()
            / PAPER.len() as f64;
        setup.say(&format!(
            "estimate: about {:.0} ms per game, {} on {} threads",
            ms,
            format_duration(std::time::Duration::from_secs_f64(estimate_secs(games, ms))),
            rayon::current_num_threads()
        ));
    }
    let mut reports = Vec::new();
    for (k, row) in PAPER.iter().enumerate() {
        let (a, b) = players(row, options.limits);
        setup.say(&format!("{}:", row.name));
        reports.push(setup.play_match(&referee, &a, &b, &openings, options.pairs, MATCH + k as u64, &|_, _| {})?);
    }
    let mut out = Reproduction::new(format!(
        "Wang Hongfei et al. 2021: win rates at equal time per move ({}), ours beside the paper's",
        options.limits.describe()
    ));
    out.add("wang2021", side_table(&reports));
    out.add("matches", match_table(&reports));
    out.write(&setup.out)?;
    Ok(out)
}

/// The paper's table with ours beside it: per row and side, games, wins and the win rate.
pub fn side_table(reports: &[MatchReport]) -> Table {
    let mut t = Table::new(
        "Wins of the first-named side (roads + PVS) as first player (Black) and second (White)",
        &[
            "match",
            "side",
            "paper games",
            "paper wins",
            "paper win rate",
            "games",
            "wins",
            "draws",
            "losses",
            "win rate",
            "95% CI",
        ],
    );
    t.set_align(1, crate::report::table::Align::Left);
    for (row, r) in PAPER.iter().zip(reports) {
        for (side, paper, ours) in [("first", row.first, r.a_first), ("second", row.second, r.a_second)] {
            let (lo, hi) = wilson95(ours.wins, ours.games());
            t.row(vec![
                row.name.into(),
                side.into(),
                paper.0.to_string(),
                paper.1.to_string(),
                percent(paper.1 as f64, paper.0 as f64),
                ours.games().to_string(),
                ours.wins.to_string(),
                ours.draws.to_string(),
                ours.losses.to_string(),
                percent(ours.wins as f64, ours.games() as f64),
                if ours.games() > 0 { format!("{:.1}-{:.1}%", 100.0 * lo, 100.0 * hi) } else { "-".into() },
            ]);
        }
    }
    t.note("Win rate = wins / games of that side; 95% CI is Wilson's score interval of our win rate.");
    let games: u64 = reports.iter().map(|r| r.wdl.games()).sum();
    let black: u64 = reports.iter().map(|r| r.first_wins).sum();
    t.note(format!(
        "In all our games the first player (Black) won {}: a large share either way means the colour to move after \
         the openings decides more games than the engines do.",
        percent(black as f64, games as f64)
    ));
    t
}

/// Each match as a whole: W/D/L, score, Elo with its interval, LOS, and how often each colour
/// won (the paper gives none of these).
pub fn match_table(reports: &[MatchReport]) -> Table {
    let mut t = Table::new(
        "The matches as a whole (first-named side's view)",
        &[&["match"][..], &MATCH_COLUMNS, &["Black won", "time"]].concat(),
    );
    for (row, r) in PAPER.iter().zip(reports) {
        let mut cells = vec![format!("{} ({} vs {})", row.name, r.a, r.b)];
        cells.extend(match_cells(&r.wdl));
        cells.push(percent(r.first_wins as f64, r.wdl.games() as f64));
        cells.push(format!("{:.1}s", r.elapsed.as_secs_f64()));
        t.row(cells);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::progress::ProgressMode;

    #[test]
    fn the_papers_win_rates_are_its_counts() {
        let printed = [90.92, 86.61, 99.36, 98.93, 91.99, 87.01];
        let ours: Vec<f64> =
            PAPER.iter().flat_map(|r| [r.first, r.second]).map(|(g, w)| 100.0 * w as f64 / g as f64).collect();
        for (p, o) in printed.iter().zip(&ours) {
            assert!((p - o).abs() < 0.005, "{p} vs {o}");
        }
    }

    #[test]
    fn tiny_experiment_runs_end_to_end() {
        let dir = tempfile::tempdir().unwrap();
        let setup = Setup { out: dir.path().to_path_buf(), seed: 1, mode: ProgressMode::Hidden };
        let r = run(&Options { pairs: 1, limits: Limits::depth(1) }, &setup).unwrap();
        let t = &r.tables[0].1;
        assert_eq!(t.rows.len(), 6);
        assert_eq!(t.rows[0][..5], ["road eval vs pattern eval", "first", "573", "521", "90.9%"]);
        assert!(t.rows.iter().all(|row| row[5] == "1"), "one game per side per row");
        assert_eq!(r.tables[1].1.rows.len(), 3);
        for f in ["wang2021.csv", "wang2021.md", "matches.csv", "matches.md", "report.md"] {
            assert!(dir.path().join(f).exists(), "{f} missing");
        }
        let csv = std::fs::read_to_string(dir.path().join("wang2021.csv")).unwrap();
        assert!(csv.starts_with("match,side,paper games,paper wins,paper win rate,games,wins"), "{csv}");
    }
}
