//! Song Yingjian et al. 2022: MCTS for EinStein würfelt nicht with the "dynamic hybrid
//! evaluation" pruning its playouts, against plain MCTS (random playouts), both at 5000
//! simulations per move. The paper reports that the hybrid player won 64.5% of the games and
//! used 73.5% of the plain player's time.
//!
//! Two measurements with the default hybrid table: a match of dice-paired games (each setup
//! pair played twice with colours swapped and the same dice stream), and the time each search
//! takes for the same number of playouts on the bench positions (one thread, best of three).

use std::time::Duration;

use anyhow::{anyhow, Context, Result};

use crate::arena::game::GameSettings;
use crate::arena::matches::{play_match, MatchConfig};
use crate::arena::openings::{OpeningConfig, OpeningSuite, Openings};
use crate::arena::player::Player;
use crate::core::game::split_moves;
use crate::core::limits::Limits;
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

/// Milliseconds of one search of every bench position (fastest of `repeats`), on this thread.
fn bench_ms(p: &Player, repeats: usize) -> Result<f64> {
    let positions: Vec<Vec<String>> =
        GAME.bench_positions().iter().map(|t| split_moves(t).into_iter().map(str::to_string).collect()).collect();
    let mut best = Duration::MAX;
    for _ in 0..repeats.max(1) {
        let (results, _) = GAME.search_positions(p, &positions, &p.limits()).map_err(|e| anyhow!("bench {e}"))?;
        best = best.min(results.iter().map(|r| r.elapsed).sum());
    }
    Ok(best.as_secs_f64() * 1e3)
}

/// Plays the match and times the searches; writes the table into `setup.out`.
pub fn run(options: &Options, setup: &Setup) -> Result<Reproduction> {
    let settings = GameSettings::default();
    let config = OpeningConfig { count: options.pairs.max(64), ..OpeningConfig::default() };
    let openings = OpeningSuite::generate(GAME.arena(), &config, setup.seed_for(OPENINGS))?;
    let (hybrid, plain) = (player("hybrid", options.playouts), player("plain", options.playouts));
    if !setup.quiet() {
        setup.say(&format!(
            "song2022: hybrid vs plain MCTS, {} pairs ({} games, dice shared within a pair) at {} playouts per move; \
             then both timed on {} bench positions",
            options.pairs,
            2 * options.pairs,
            options.playouts,
            GAME.bench_positions().len()
        ));
        let start = std::time::Instant::now();
        GAME.play_game(&hybrid, &plain, openings.get(0), &settings, 0);
        let ms = start.elapsed().as_secs_f64() * 1e3;
        setup.say(&format!(
            "estimate: the match about {} ({ms:.0} ms per game on {} threads)",
            format_duration(Duration::from_secs_f64(estimate_secs(2 * options.pairs, ms))),
            rayon::current_num_threads()
        ));
    }
    let referee = EngineReferee { game: GAME, settings };
    let config = MatchConfig { pairs: options.pairs, seed: setup.seed_for(MATCH), sprt: None };
    let (mut hybrid_ms, mut plain_ms) = (0u64, 0u64);
    let m =
        play_match(&referee, &hybrid, &plain, &mut Openings::fixed(openings), &config, setup.mode, false, &mut |g| {
            let (h, p) = if g.first == hybrid.name { (g.first_ms, g.second_ms) } else { (g.second_ms, g.first_ms) };
            hybrid_ms += h;
            plain_ms += p;
            Ok(())
        })?;
    let bench_hybrid = bench_ms(&hybrid, options.repeats)?;
    let bench_plain = bench_ms(&plain, options.repeats)?;

    let mut t = Table::new(
        format!("Hybrid-evaluation MCTS vs plain MCTS, {} playouts per move, default table", options.playouts),
        &["measure", "ours", "95% interval", "paper"],
    );
    let w = &m.wdl;
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
    let ratio = |x: f64, y: f64| if y > 0.0 { percent(x, y) } else { "-".into() };
    t.row(vec![
        "hybrid's time / plain's, in the match".into(),
        ratio(hybrid_ms as f64, plain_ms as f64),
        "-".into(),
        "73.5%".into(),
    ]);
    t.row(vec![
        format!("hybrid's time / plain's, {} bench positions", GAME.bench_positions().len()),
        ratio(bench_hybrid, bench_plain),
        "-".into(),
        "73.5%".into(),
    ]);
    t.note(format!(
        "Hybrid as first player: {}-{} (wins-losses); as second: {}-{}. First player won {} of the games.",
        m.a_first.wins,
        m.a_first.losses,
        m.a_second.wins,
        m.a_second.losses,
        percent(m.first_wins as f64, w.games() as f64)
    ));
    t.note(format!(
        "Match time: hybrid {hybrid_ms} ms, plain {plain_ms} ms in all; bench: hybrid {bench_hybrid:.1} ms, \
         plain {bench_plain:.1} ms (fastest of {}).",
        options.repeats.max(1)
    ));
    if bench_hybrid > bench_plain {
        t.note(
            "Our hybrid playouts score every step of a roll with the evaluation, where a random playout only \
             draws one, so the same number of playouts takes longer: the paper's time saving is not reproduced.",
        );
    }
    let mut out =
        Reproduction::new("Song Yingjian et al. 2022: hybrid-evaluation MCTS vs plain MCTS (EinStein würfelt nicht)");
    out.add("song2022", t);
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
        let t = &r.tables[0].1;
        assert_eq!(t.rows.len(), 4);
        assert!(t.rows[0][0].contains("6 games"), "{:?}", t.rows[0]);
        assert!(dir.path().join("song2022.csv").exists());
    }
}
