//! Song Yingjian et al. 2022: MCTS for EinStein würfelt nicht with the "dynamic hybrid
//! evaluation" pruning its playouts, against plain MCTS (random playouts), both at 5000
//! simulations per move. The paper reports that the hybrid player won 64.5% of the games and
//! used 73.5% of the plain player's time.
//!
//! The paper's "MCTS" is flat Monte Carlo as its section 2.2 describes it: every step of the
//! roll gets MC_CONSTANT simulations (its example: 2000, 100 and 4999 wins out of 5000 for the
//! three steps) and the best win rate is played; section 3 plugs the evaluation in to "filter
//! out the nodes whose win rate is clearly low" while simulating. Read that way, a pruned root
//! step gets no simulations at all, which is where a hybrid search with the same per-step
//! budget saves time. evotune's own design is UCT with one budget per move and the evaluation
//! pruning the playouts only: stronger at equal playouts, but with no root steps to skip its
//! playouts cost more than random ones. Both designs are measured (`paper` and `paper-plain`,
//! `hybrid` and `plain`).
//!
//! For each: a match of dice-paired games (each setup pair played twice with colours swapped
//! and the same dice stream), and the time and playouts each search spends on the bench
//! positions (one thread, best of three timings).

use std::time::Duration;

use anyhow::{anyhow, Context, Result};

use crate::arena::game::GameSettings;
use crate::arena::matches::{play_match, MatchConfig, MatchReport};
use crate::arena::openings::{OpeningSuite, Openings};
use crate::arena::player::Player;
use crate::core::game::split_moves;
use crate::core::limits::Limits;
use crate::core::openings::OpeningConfig;
use crate::core::settings::{EngineSettings, SearchKind};
use crate::registry::{EngineReferee, GameRef, EINSTEIN};
use crate::report::progress::format_duration;
use crate::report::table::{elo, percent, Table};
use crate::reproduce::{estimate_secs, wilson95, Reproduction, Setup};

const OPENINGS: u64 = 1;
const MATCH: u64 = 2;
/// The paper's game.
const GAME: GameRef = EINSTEIN;

/// Sizes of the experiment.
#[derive(Clone, Debug)]
pub struct Options {
    /// Simulations (playouts) per move, both players.
    pub playouts: u64,
    /// Game pairs of the match.
    pub pairs: usize,
    /// Times the bench timing is repeated (the fastest counts).
    pub repeats: usize,
}

impl Options {
    /// The paper's budget, 500 pairs (1000 games).
    pub fn full() -> Options {
        Options { playouts: 5000, pairs: 500, repeats: 3 }
    }

    /// The paper's budget, 100 pairs: about a minute on two cores.
    pub fn quick() -> Options {
        Options { playouts: 5000, pairs: 100, repeats: 3 }
    }
}

/// The player of one evaluation (`hybrid` or `plain`) with the default table.
pub fn player(eval: &str, playouts: u64) -> Player {
    let weights = GAME.evaluation(eval).expect("hybrid and plain are EinStein's").schema.defaults();
    let settings = EngineSettings { search: SearchKind::Mcts, eval: Some(eval.into()), ..EngineSettings::default() };
    Player::new(eval, weights, settings, Limits::nodes(playouts))
}

/// Milliseconds and playouts of one search of every bench position (the fastest of
/// `repeats` timings; the playouts are the same every time), on this thread.
fn bench(p: &Player, repeats: usize) -> Result<(f64, u64)> {
    let positions: Vec<Vec<String>> =
        GAME.bench_positions().iter().map(|t| split_moves(t).into_iter().map(str::to_string).collect()).collect();
    let mut best = Duration::MAX;
    let mut playouts = 0;
    for _ in 0..repeats.max(1) {
        let (results, _) = GAME.search_positions(p, &positions, &p.limits()).map_err(|e| anyhow!("bench {e}"))?;
        best = best.min(results.iter().map(|r| r.elapsed).sum());
        playouts = results.iter().map(|r| r.nodes).sum();
    }
    Ok((best.as_secs_f64() * 1e3, playouts))
}

/// One design's experiment: its hybrid player against its plain player, then both timed.
struct Duel {
    report: MatchReport,
    /// Milliseconds each player spent in the match.
    hybrid_ms: u64,
    plain_ms: u64,
    /// Bench milliseconds and playouts of each player.
    bench_hybrid: (f64, u64),
    bench_plain: (f64, u64),
}

fn duel(hybrid: &Player, plain: &Player, openings: &OpeningSuite, options: &Options, setup: &Setup) -> Result<Duel> {
    let settings = GameSettings::default();
    if !setup.quiet() {
        let start = std::time::Instant::now();
        GAME.play_game(hybrid, plain, openings.get(0), &settings, 0);
        let ms = start.elapsed().as_secs_f64() * 1e3;
        setup.say(&format!(
            "{} vs {}: {} pairs, about {} ({ms:.0} ms per game on {} threads)",
            hybrid.describe(),
            plain.describe(),
            options.pairs,
            format_duration(Duration::from_secs_f64(estimate_secs(2 * options.pairs, ms))),
            rayon::current_num_threads()
        ));
    }
    let referee = EngineReferee { game: GAME, settings };
    let config = MatchConfig { pairs: options.pairs, seed: setup.seed_for(MATCH), sprt: None };
    let (mut hybrid_ms, mut plain_ms) = (0u64, 0u64);
    let report = play_match(
        &referee,
        hybrid,
        plain,
        &mut Openings::fixed(openings.clone()),
        &config,
        setup.mode,
        false,
        &mut |g| {
            let (h, p) = if g.first == hybrid.name { (g.first_ms, g.second_ms) } else { (g.second_ms, g.first_ms) };
            hybrid_ms += h;
            plain_ms += p;
            Ok(())
        },
    )?;
    let bench_hybrid = bench(hybrid, options.repeats)?;
    let bench_plain = bench(plain, options.repeats)?;
    Ok(Duel { report, hybrid_ms, plain_ms, bench_hybrid, bench_plain })
}

fn ratio(x: f64, y: f64) -> String {
    if y > 0.0 {
        percent(x, y)
    } else {
        "-".into()
    }
}

/// The rows of one design's table: wins, Elo, and the time and playout ratios.
fn table(title: String, d: &Duel, repeats: usize) -> Table {
    let mut t = Table::new(title, &["measure", "ours", "95% interval", "paper"]);
    let w = &d.report.wdl;
    let (lo, hi) = wilson95(w.wins, w.games());
    let (elo_lo, elo_hi) = w.elo_ci95();
    t.row(vec![
        format!("hybrid's wins, {} games", w.games()),
        format!("{} ({})", w.wins, percent(w.wins as f64, w.games() as f64)),
        format!("{} .. {}", percent(lo, 1.0), percent(hi, 1.0)),
        "64.5%".into(),
    ]);
    t.row(vec![
        "hybrid's Elo".into(),
        elo(w.elo()),
        format!("{} .. {}", elo(elo_lo), elo(elo_hi)),
        format!("{} (from 64.5%)", elo(-400.0 * (1.0f64 / 0.645 - 1.0).log10())),
    ]);
    t.row(vec![
        "hybrid's time / plain's, in the match".into(),
        ratio(d.hybrid_ms as f64, d.plain_ms as f64),
        "-".into(),
        "73.5%".into(),
    ]);
    let n = GAME.bench_positions().len();
    t.row(vec![
        format!("hybrid's time / plain's, {n} bench positions"),
        ratio(d.bench_hybrid.0, d.bench_plain.0),
        "-".into(),
        "73.5%".into(),
    ]);
    t.row(vec![
        format!("hybrid's playouts / plain's, {n} bench positions"),
        ratio(d.bench_hybrid.1 as f64, d.bench_plain.1 as f64),
        "-".into(),
        "-".into(),
    ]);
    let m = &d.report;
    t.note(format!(
        "Hybrid as first player: {}-{} (wins-losses); as second: {}-{}. First player won {} of the games.",
        m.a_first.wins,
        m.a_first.losses,
        m.a_second.wins,
        m.a_second.losses,
        percent(m.first_wins as f64, w.games() as f64)
    ));
    t.note(format!(
        "Match time: hybrid {} ms, plain {} ms in all; bench: hybrid {:.1} ms for {} playouts, plain {:.1} ms for {} \
         (fastest of {}).",
        d.hybrid_ms,
        d.plain_ms,
        d.bench_hybrid.0,
        d.bench_hybrid.1,
        d.bench_plain.0,
        d.bench_plain.1,
        repeats.max(1)
    ));
    t
}

/// Plays both designs' matches and times the searches; writes the tables into `setup.out`.
pub fn run(options: &Options, setup: &Setup) -> Result<Reproduction> {
    let config = OpeningConfig { count: options.pairs.max(64), ..OpeningConfig::default() };
    let openings = OpeningSuite::generate(GAME.arena(), &config, setup.seed_for(OPENINGS))?;
    if !setup.quiet() {
        setup.say(&format!(
            "song2022: hybrid vs plain, {} pairs ({} games, dice shared within a pair) at {} playouts, in two \
             designs: evotune's UCT (playouts per move) and the paper's flat Monte Carlo (playouts per root step); \
             then each player timed on {} bench positions",
            options.pairs,
            2 * options.pairs,
            options.playouts,
            GAME.bench_positions().len()
        ));
    }
    let ours =
        duel(&player("hybrid", options.playouts), &player("plain", options.playouts), &openings, options, setup)?;
    let paper =
        duel(&player("paper", options.playouts), &player("paper-plain", options.playouts), &openings, options, setup)?;

    let mut t = table(
        format!("evotune's design: UCT, hybrid (pruned playouts) vs plain, {} playouts per move", options.playouts),
        &ours,
        options.repeats,
    );
    t.note(
        "A pruned playout scores every step of each roll (the steps' changes only, captures in full) where a random \
         playout draws one, so the same number of playouts costs more: no time is saved in this design.",
    );
    let mut p = table(
        format!(
            "The paper's design: flat Monte Carlo, {} playouts per root step; hybrid drops the root steps the \
             evaluation prunes and prunes its playouts",
            options.playouts
        ),
        &paper,
        options.repeats,
    );
    p.note(
        "The paper's saving is its budget per step: a root step the evaluation prunes gets no playouts, which the \
         playouts-per-step ratio shows; whether the time follows depends on what a pruned playout costs.",
    );
    let mut out =
        Reproduction::new("Song Yingjian et al. 2022: hybrid-evaluation MCTS vs plain MCTS (EinStein würfelt nicht)");
    out.add("song2022", t);
    out.add("song2022-paper", p);
    std::fs::create_dir_all(&setup.out).with_context(|| format!("{}: cannot create", setup.out.display()))?;
    out.write(&setup.out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::progress::ProgressMode;

    #[test]
    fn tiny_experiment_plays_its_games_and_writes_its_table() {
        let dir = tempfile::tempdir().unwrap();
        let setup = Setup { out: dir.path().to_path_buf(), seed: 1, mode: ProgressMode::Hidden };
        let r = run(&Options { playouts: 50, pairs: 3, repeats: 1 }, &setup).unwrap();
        assert_eq!(r.tables.len(), 2);
        for (_, t) in &r.tables {
            assert_eq!(t.rows.len(), 5);
            assert!(t.rows[0][0].contains("6 games"), "{:?}", t.rows[0]);
        }
        // The paper's hybrid spends no playouts on the root steps it prunes: never more than
        // its plain player, who gives every root step the same budget.
        let playouts = |row: &Vec<String>| row[1].trim_end_matches('%').parse::<f64>().unwrap();
        assert!(playouts(&r.tables[1].1.rows[4]) <= 100.0, "{:?}", r.tables[1].1.rows[4]);
        assert_eq!(playouts(&r.tables[0].1.rows[4]), 100.0, "{:?}", r.tables[0].1.rows[4]);
        assert!(dir.path().join("song2022.csv").exists());
        assert!(dir.path().join("song2022-paper.csv").exists());
    }
}
