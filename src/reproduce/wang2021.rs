//! Wang Hongfei et al. 2021: road evaluation against pattern evaluation, PVS against
//! alpha-beta and PVS against UCT, each at equal time per move, with the win rate of the
//! first-named side counted separately as first player (Black) and as second (White), as the
//! paper's table does.
//!
//! Played as the paper played them: every game from the empty board with Black's first stone
//! at the centre, the same time per move for both sides, and as the alpha-beta baseline one
//! without what the paper credits its PVS with (sorted moves, the transposition table, the
//! history heuristic): `alphabeta-unordered`. Every player searches as the paper describes its
//! engines, without evotune's threat-space search at the root and the refutation checks of the
//! root moves (`vcdt_depth` 0): at 100 ms a move on a loaded machine those checks can use up a
//! move's time, and the PVS side then played without a main search, so the rows measured the
//! checks' clock rather than the searches the paper compares (docs/results.md);
//! `--root-checks` gives them back to every player. The three matches' games are interleaved
//! on the threads, so that a change of the machine's load falls on every row alike; each
//! side's mean thinking time per turn is reported beside the results, and how many distinct
//! games a row holds (from one start position, only the clock makes deterministic engines
//! vary).

use std::collections::HashSet;
use std::time::Instant;

use anyhow::Result;

use crate::arena::game::{play_games, GameJob, GameSettings};
use crate::arena::matches::score_for;
use crate::arena::openings::OpeningSuite;
use crate::arena::player::Player;
use crate::arena::records::{GameRecord, Outcome};
use crate::core::limits::Limits;
use crate::core::rng::derive_seed;
use crate::core::settings::{EngineSettings, SearchKind};
use crate::registry::EngineReferee;
use crate::report::progress::{format_duration, Progress};
use crate::report::table::{match_cells, percent, Table, MATCH_COLUMNS};
use crate::reproduce::{estimate_secs, game_ms, wilson95, Reproduction, Setup, GAME};
use crate::stats::{GameScore, Wdl};

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
        other_search: SearchKind::AlphabetaUnordered,
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

const MATCH: u64 = 2;

/// Every game's start: Black's first stone on the centre point (j10 of 19 x 19), White to move.
pub const CENTRE: &str = "j10";

/// Sizes of the experiment.
#[derive(Clone, Debug)]
pub struct Options {
    /// Games per row as each colour (a row plays twice this many).
    pub pairs: usize,
    /// Every player's budget per move (the paper: equal time, the time not given).
    pub limits: Limits,
    /// Every player with evotune's threat-space search at the root and the refutation checks
    /// of the root moves (not in the paper's engines).
    pub root_checks: bool,
}

impl Options {
    /// At least the paper's smallest count a colour (351): 200 games a colour, 400 a row,
    /// one second per move (hours on two cores).
    pub fn full() -> Options {
        Options { pairs: 200, limits: Limits::time_ms(1000), root_checks: false }
    }

    /// Minutes on two cores: 30 games a colour at 100 ms per move.
    pub fn quick() -> Options {
        Options { pairs: 30, limits: Limits::time_ms(100), root_checks: false }
    }
}

/// The two players of a row: road evaluation with PVS, and the row's other configuration, both
/// with the default weights of their evaluation; with `root_checks`, both with evotune's
/// threat-space search at the root and its refutation checks, else neither.
pub fn players(row: &PaperRow, limits: Limits, root_checks: bool) -> (Player, Player) {
    let vcdt_depth = if root_checks { EngineSettings::default().vcdt_depth } else { 0 };
    let config = |search, eval: &str| EngineSettings {
        search,
        eval: Some(eval.into()),
        vcdt_depth,
        ..EngineSettings::default()
    };
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

/// One row's games, counted from the first-named side's (a's) view.
#[derive(Clone, Debug, Default)]
pub struct RowResult {
    pub a: String,
    pub b: String,
    /// a's results as first player (Black) and as second (White).
    pub a_first: Wdl,
    pub a_second: Wdl,
    pub black_wins: u64,
    /// Thinking time (ms) and turns of each side.
    pub a_ms: u64,
    pub a_turns: u64,
    pub b_ms: u64,
    pub b_turns: u64,
    /// Distinct move sequences among the row's games.
    pub distinct: usize,
}

impl RowResult {
    /// The row's games together.
    pub fn wdl(&self) -> Wdl {
        Wdl::new(
            self.a_first.wins + self.a_second.wins,
            self.a_first.draws + self.a_second.draws,
            self.a_first.losses + self.a_second.losses,
        )
    }

    pub fn games(&self) -> u64 {
        self.wdl().games()
    }

    /// Counts the row's records (a and b as their names say).
    fn of(a: &Player, b: &Player, records: &[&GameRecord]) -> RowResult {
        let mut r = RowResult { a: a.name.clone(), b: b.name.clone(), ..RowResult::default() };
        let mut seen = HashSet::new();
        for g in records {
            seen.insert(&g.moves);
            let a_first = g.first == a.name;
            let score = score_for(g.result, a_first);
            let side = if a_first { &mut r.a_first } else { &mut r.a_second };
            match score {
                GameScore::Win => side.wins += 1,
                GameScore::Draw => side.draws += 1,
                GameScore::Loss => side.losses += 1,
            }
            r.black_wins += u64::from(g.result == Outcome::First);
            // Turns alternate after the opening, starting with the side it leaves to move.
            let turns = (g.moves.len() - g.opening_moves) as u64;
            let first_turns = if g.opening_moves % 2 == 0 { turns.div_ceil(2) } else { turns / 2 };
            let ((ams, at), (bms, bt)) = if a_first {
                ((g.first_ms, first_turns), (g.second_ms, turns - first_turns))
            } else {
                ((g.second_ms, turns - first_turns), (g.first_ms, first_turns))
            };
            r.a_ms += ams;
            r.a_turns += at;
            r.b_ms += bms;
            r.b_turns += bt;
        }
        r.distinct = seen.len();
        r
    }
}

/// The one-minute load average of the machine, where the system tells it.
fn load_average() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Runs the three matches, their games interleaved; writes the tables into `setup.out`.
pub fn run(options: &Options, setup: &Setup) -> Result<Reproduction> {
    let settings = GameSettings::default();
    let referee = EngineReferee { game: GAME, settings };
    let centre = vec![CENTRE.to_string()];
    let games = 2 * options.pairs * PAPER.len();
    let rows: Vec<(Player, Player)> =
        PAPER.iter().map(|row| players(row, options.limits, options.root_checks)).collect();
    if !setup.quiet() {
        setup.say(&format!(
            "wang2021: 3 matches of {} games a colour ({} games in all) from Black's first stone at the centre, \
             interleaved; every player {} per move, default weights, {}",
            options.pairs,
            games,
            options.limits.describe(),
            root_checks_said(options.root_checks)
        ));
        let suite = OpeningSuite { game: GAME.arena(), openings: vec![centre.clone()] };
        let ms = rows.iter().map(|(a, b)| game_ms(a, b, &suite, &settings, 1)).sum::<f64>() / PAPER.len() as f64;
        setup.say(&format!(
            "estimate: about {:.0} ms per game, {} on {} threads",
            ms,
            format_duration(std::time::Duration::from_secs_f64(estimate_secs(games, ms))),
            rayon::current_num_threads()
        ));
    }
    // Game i of every row, each colour, before game i + 1 of any.
    let mut jobs = Vec::with_capacity(games);
    let mut row_of = Vec::with_capacity(games);
    for i in 0..options.pairs {
        for (k, (a, b)) in rows.iter().enumerate() {
            for (colour, (first, second)) in [(a, b), (b, a)].into_iter().enumerate() {
                let seed = derive_seed(&[setup.seed_for(MATCH + k as u64), i as u64, colour as u64]);
                jobs.push(GameJob { first, second, opening: &centre, opening_index: 0, seed });
                row_of.push(k);
            }
        }
    }
    let load_before = load_average();
    let start = Instant::now();
    let progress = Progress::new("games", games as u64, "games", setup.mode);
    let records = play_games(&referee, &jobs, &progress);
    progress.finish();
    let elapsed = start.elapsed();
    let load_after = load_average();
    let results: Vec<RowResult> = rows
        .iter()
        .enumerate()
        .map(|(k, (a, b))| {
            let mine: Vec<&GameRecord> = records.iter().zip(&row_of).filter(|(_, &r)| r == k).map(|(g, _)| g).collect();
            RowResult::of(a, b, &mine)
        })
        .collect();
    let mut out = Reproduction::new(format!(
        "Wang Hongfei et al. 2021: win rates at equal time per move ({}), from Black's first stone at the centre, \
         ours beside the paper's",
        options.limits.describe()
    ));
    out.add("wang2021", side_table(&results));
    let mut matches = match_table(&results);
    matches.note(format!("Every player {}.", root_checks_said(options.root_checks)));
    let load = |l: Option<f64>| l.map_or("unknown".to_string(), |l| format!("{l:.1}"));
    matches.note(format!(
        "{} games in {:.0} s on {} threads; one-minute load average {} before, {} after.",
        games,
        elapsed.as_secs_f64(),
        rayon::current_num_threads(),
        load(load_before),
        load(load_after)
    ));
    out.add("matches", matches);
    out.write(&setup.out)?;
    Ok(out)
}

/// How the players' roots were searched, for the tables.
fn root_checks_said(root_checks: bool) -> &'static str {
    if root_checks {
        "with evotune's threat-space search at the root and its refutation checks (not in the paper's engines)"
    } else {
        "without a threat-space search at the root or refutation checks, as the paper's engines \
         (--root-checks adds evotune's)"
    }
}

/// The paper's table with ours beside it: per row and side, games, wins and the win rate.
pub fn side_table(results: &[RowResult]) -> Table {
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
    for (row, r) in PAPER.iter().zip(results) {
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
    let games: u64 = results.iter().map(RowResult::games).sum();
    let black: u64 = results.iter().map(|r| r.black_wins).sum();
    t.note(format!(
        "In all our games the first player (Black) won {}: a large share either way means the colour decides more \
         games than the engines do.",
        percent(black as f64, games as f64)
    ));
    t
}

/// Each match as a whole: W/D/L, score, Elo with its interval, LOS, how often Black won, how
/// many games differ, and each side's mean thinking time per turn (the paper gives none of
/// these).
pub fn match_table(results: &[RowResult]) -> Table {
    let mut t = Table::new(
        "The matches as a whole (first-named side's view)",
        &[&["match"][..], &MATCH_COLUMNS, &["Black won", "distinct games", "ms a turn (a)", "ms a turn (b)"]].concat(),
    );
    let per_turn =
        |ms: u64, turns: u64| if turns > 0 { format!("{:.1}", ms as f64 / turns as f64) } else { "-".into() };
    for (row, r) in PAPER.iter().zip(results) {
        let mut cells = vec![format!("{} ({} vs {})", row.name, r.a, r.b)];
        let wdl = r.wdl();
        cells.extend(match_cells(&wdl));
        cells.push(percent(r.black_wins as f64, wdl.games() as f64));
        cells.push(format!("{} of {}", r.distinct, wdl.games()));
        cells.push(per_turn(r.a_ms, r.a_turns));
        cells.push(per_turn(r.b_ms, r.b_turns));
        t.row(cells);
    }
    t.note(
        "From one start position deterministic engines vary only as the clock cuts their searches short: \
         distinct games counts the different move sequences among a row's games.",
    );
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
        let r = run(&Options { pairs: 1, limits: Limits::depth(1), root_checks: false }, &setup).unwrap();
        let t = &r.tables[0].1;
        assert_eq!(t.rows.len(), 6);
        assert_eq!(t.rows[0][..5], ["road eval vs pattern eval", "first", "573", "521", "90.9%"]);
        assert!(t.rows.iter().all(|row| row[5] == "1"), "one game per side per row");
        let m = &r.tables[1].1;
        assert_eq!(m.rows.len(), 3);
        assert!(m.rows[1][0].contains("pvs+roads vs alphabeta-unordered+roads"), "{:?}", m.rows[1]);
        assert!(m.notes.iter().any(|n| n.contains("without a threat-space search at the root")), "{:?}", m.notes);
        for f in ["wang2021.csv", "wang2021.md", "matches.csv", "matches.md", "report.md"] {
            assert!(dir.path().join(f).exists(), "{f} missing");
        }
        let csv = std::fs::read_to_string(dir.path().join("wang2021.csv")).unwrap();
        assert!(csv.starts_with("match,side,paper games,paper wins,paper win rate,games,wins"), "{csv}");
    }

    /// The paper's engines have no threat-space search at the root: no player gets evotune's
    /// unless asked, and then every player does.
    #[test]
    fn root_checks_only_when_asked_and_for_every_player() {
        for row in &PAPER {
            let (a, b) = players(row, Limits::time_ms(100), false);
            assert_eq!((a.engine.vcdt_depth, b.engine.vcdt_depth), (0, 0), "{}", row.name);
            let (a, b) = players(row, Limits::time_ms(100), true);
            let on = EngineSettings::default().vcdt_depth;
            assert!(on > 0);
            assert_eq!((a.engine.vcdt_depth, b.engine.vcdt_depth), (on, on), "{}", row.name);
        }
    }

    /// A row's counts: colours, turns and thinking time per side, distinct games.
    #[test]
    fn a_rows_games_are_counted_by_colour_and_side() {
        let (a, b) = players(&PAPER[0], Limits::depth(1), false);
        let game = |first: &Player, second: &Player, moves: &[&str], result, ms: (u64, u64)| GameRecord {
            result,
            first_ms: ms.0,
            second_ms: ms.1,
            moves: moves.iter().map(|m| m.to_string()).collect(),
            ..GameRecord::start("connect6", &first.name, &second.name, &[CENTRE.to_string()], 0)
        };
        // From the centre stone White moves first: 3 turns are White, Black, White.
        let g1 = game(&a, &b, &["j10", "k10k11", "j11j12", "l10l11"], Outcome::First, (50, 120));
        let g2 = game(&b, &a, &["j10", "k10k11", "j11j12"], Outcome::First, (60, 70));
        let g3 = game(&b, &a, &["j10", "k10k11", "j11j12"], Outcome::Second, (60, 70));
        let r = RowResult::of(&a, &b, &[&g1, &g2, &g3]);
        assert_eq!(r.a_first, Wdl::new(1, 0, 0));
        assert_eq!(r.a_second, Wdl::new(1, 0, 1));
        assert_eq!(r.black_wins, 2);
        assert_eq!(r.distinct, 2);
        // a: Black in g1 (1 turn, 50 ms), White in g2 and g3 (1 turn each, 70 ms each).
        assert_eq!((r.a_turns, r.a_ms), (3, 190));
        assert_eq!((r.b_turns, r.b_ms), (4, 240));
    }
}
