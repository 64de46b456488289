//! Li Xuejun et al. 2015 (CAAI Trans. Intell. Syst. 10(2)): local road scanning (update only
//! the roads through the stones just placed; evaluation `roads`) against global scanning
//! (recount all 924 roads at every node; `roads-global`). The paper reports that local
//! scanning is much faster and plays much stronger under the same time limit; the digest gives
//! no numbers, so the table sets our measurements beside the claim.
//!
//! Three measurements with the default weights and PVS: nodes per second on the bench
//! positions at a fixed depth (the two must search the same tree, so the node counts agree and
//! only the time differs), the depth each completes at equal time per move on those positions,
//! and a match at equal time.

use std::time::Duration;

use anyhow::{anyhow, Result};

use crate::arena::game::GameSettings;
use crate::arena::player::Player;
use crate::core::game::split_moves;
use crate::core::limits::Limits;
use crate::core::settings::EngineSettings;
use crate::registry::EngineReferee;
use crate::report::progress::format_duration;
use crate::report::table::{elo, percent, Table};
use crate::reproduce::{estimate_secs, game_ms, suite, Reproduction, Setup, GAME};

const OPENINGS: u64 = 1;
const MATCH: u64 = 2;

/// Sizes of the experiment.
#[derive(Clone, Debug)]
pub struct Options {
    /// Depth of the fixed-depth speed measurement.
    pub bench_depth: u32,
    /// Times each bench measurement is repeated; the fastest counts, to damp the load of other
    /// processes on a shared machine.
    pub repeats: usize,
    /// Milliseconds per move for the depth-at-equal-time measurement.
    pub time_ms: u64,
    /// Game pairs of the match.
    pub pairs: usize,
    /// Both players' budget per move in the match (equal time, except in tests).
    pub match_limits: Limits,
}

impl Options {
    /// Depth 7 on the bench positions, one second per move, 200 pairs.
    pub fn full() -> Options {
        Options { bench_depth: 7, repeats: 3, time_ms: 1000, pairs: 200, match_limits: Limits::time_ms(1000) }
    }

    /// Under a minute on two cores: depth 5, 100 ms per move, 50 pairs.
    pub fn quick() -> Options {
        Options { bench_depth: 5, repeats: 3, time_ms: 100, pairs: 50, match_limits: Limits::time_ms(100) }
    }
}

/// One scanning's measurements.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Speed {
    /// Fixed-depth search of all bench positions: nodes and the fastest wall time.
    pub nodes: u64,
    pub time: Duration,
    /// At `time_ms` per position: the depth completed on each position, and nodes searched.
    pub depths: Vec<u32>,
    pub timed_nodes: u64,
    pub timed: Duration,
}

impl Speed {
    pub fn nps(&self) -> f64 {
        self.nodes as f64 / self.time.as_secs_f64().max(1e-9)
    }

    pub fn timed_nps(&self) -> f64 {
        self.timed_nodes as f64 / self.timed.as_secs_f64().max(1e-9)
    }

    pub fn mean_depth(&self) -> f64 {
        self.depths.iter().map(|&d| f64::from(d)).sum::<f64>() / self.depths.len().max(1) as f64
    }
}

fn player(eval: &str, limits: Limits) -> Player {
    let weights = GAME.evaluation(eval).expect("roads and roads-global are Connect6's").schema.defaults();
    Player::new(eval, weights, EngineSettings { eval: Some(eval.into()), ..EngineSettings::default() }, limits)
}

/// Measures one scanning on the bench positions, on this thread.
pub fn measure(eval: &str, options: &Options) -> Result<Speed> {
    let p = player(eval, Limits::depth(options.bench_depth));
    let positions: Vec<Vec<String>> =
        GAME.bench_positions().iter().map(|text| split_moves(text).into_iter().map(str::to_string).collect()).collect();
    let search =
        |limits: Limits| GAME.search_positions(&p, &positions, &limits).map(|r| r.0).map_err(|e| anyhow!("bench {e}"));
    let mut speed = Speed { time: Duration::MAX, ..Speed::default() };
    for _ in 0..options.repeats.max(1) {
        // Each position starts a new game, which clears the table and history, so every
        // repeat searches the same tree.
        let results = search(Limits::depth(options.bench_depth))?;
        speed.nodes = results.iter().map(|r| r.nodes).sum();
        speed.time = speed.time.min(results.iter().map(|r| r.elapsed).sum());
    }
    for r in search(Limits::time_ms(options.time_ms))? {
        speed.depths.push(r.depth);
        speed.timed_nodes += r.nodes;
        speed.timed += r.elapsed;
    }
    Ok(speed)
}

/// Runs the measurements and the match; writes the table into `setup.out`.
pub fn run(options: &Options, setup: &Setup) -> Result<Reproduction> {
    let settings = GameSettings::default();
    let openings = suite(options.pairs, setup.seed_for(OPENINGS))?;
    let (a, b) = (player("roads", options.match_limits), player("roads-global", options.match_limits));
    if !setup.quiet() {
        setup.say(&format!(
            "li2015: {} bench positions at depth {} (best of {}) and at {} ms per move, each scanning on one thread; \
             then roads vs roads-global, {} pairs ({} games) at {} per move",
            GAME.bench_positions().len(),
            options.bench_depth,
            options.repeats,
            options.time_ms,
            options.pairs,
            2 * options.pairs,
            options.match_limits.describe()
        ));
        let ms = game_ms(&a, &b, &openings, &settings, 1);
        setup.say(&format!(
            "estimate: the match about {} ({:.0} ms per game on {} threads)",
            format_duration(Duration::from_secs_f64(estimate_secs(2 * options.pairs, ms))),
            ms,
            rayon::current_num_threads()
        ));
    }
    // Measured one after the other on the calling thread, so that the two never share a core.
    let local = measure("roads", options)?;
    let global = measure("roads-global", options)?;
    let referee = EngineReferee { game: GAME, settings };
    let m = setup.play_match(&referee, &a, &b, &openings, options.pairs, MATCH, &|_, _| {})?;

    let mut t = Table::new(
        "Local (incremental) vs global road scanning, default weights, PVS",
        &["measure", "local (roads)", "global (roads-global)", "local / global", "paper"],
    );
    t.set_align(4, crate::report::table::Align::Left);
    let ratio = |x: f64, y: f64| if y > 0.0 { format!("{:.2}x", x / y) } else { "-".into() };
    let d = options.bench_depth;
    t.row(vec![
        format!("nodes, {} positions at depth {d}", GAME.bench_positions().len()),
        local.nodes.to_string(),
        global.nodes.to_string(),
        ratio(local.nodes as f64, global.nodes as f64),
        "same tree (not stated)".into(),
    ]);
    t.row(vec![
        format!("time at depth {d} (ms, best of {})", options.repeats.max(1)),
        format!("{:.1}", local.time.as_secs_f64() * 1e3),
        format!("{:.1}", global.time.as_secs_f64() * 1e3),
        ratio(local.time.as_secs_f64(), global.time.as_secs_f64()),
        "-".into(),
    ]);
    t.row(vec![
        format!("nodes per second at depth {d}"),
        format!("{:.0}", local.nps()),
        format!("{:.0}", global.nps()),
        ratio(local.nps(), global.nps()),
        "local much faster".into(),
    ]);
    t.row(vec![
        format!("mean depth completed at {} ms per move", options.time_ms),
        format!("{:.2}", local.mean_depth()),
        format!("{:.2}", global.mean_depth()),
        format!("{:+.2}", local.mean_depth() - global.mean_depth()),
        "(follows from the speed)".into(),
    ]);
    t.row(vec![
        format!("nodes per second at {} ms per move", options.time_ms),
        format!("{:.0}", local.timed_nps()),
        format!("{:.0}", global.timed_nps()),
        ratio(local.timed_nps(), global.timed_nps()),
        "-".into(),
    ]);
    let w = &m.wdl;
    let (lo, hi) = w.elo_ci95();
    t.row(vec![
        format!("match at {} per move: W-D-L, score", options.match_limits.describe()),
        format!("{}-{}-{}, {}", w.wins, w.draws, w.losses, percent(w.points(), w.games() as f64)),
        format!("{}-{}-{}, {}", w.losses, w.draws, w.wins, percent(w.reversed().points(), w.games() as f64)),
        format!("Elo {} ({} .. {}), LOS {}", elo(w.elo()), elo(lo), elo(hi), percent(w.los(), 1.0)),
        "local plays much stronger".into(),
    ]);
    t.note("The digest of Li Xuejun 2015 gives no numbers, only the claims in the paper column.");
    t.note(format!(
        "Depths completed per position at {} ms: local {:?}, global {:?}.",
        options.time_ms, local.depths, global.depths
    ));
    t.note("Times are wall-clock on a possibly shared machine; the fixed-depth rows take the fastest of the repeats.");
    let mut out = Reproduction::new("Li Xuejun et al. 2015: local vs global road scanning");
    out.add("li2015", t);
    out.write(&setup.out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::progress::ProgressMode;

    #[test]
    fn tiny_experiment_runs_end_to_end_and_both_scannings_search_the_same_tree() {
        let dir = tempfile::tempdir().unwrap();
        let setup = Setup { out: dir.path().to_path_buf(), seed: 1, mode: ProgressMode::Hidden };
        let options = Options { bench_depth: 2, repeats: 1, time_ms: 5, pairs: 1, match_limits: Limits::depth(1) };
        let r = run(&options, &setup).unwrap();
        let t = &r.tables[0].1;
        assert_eq!(t.rows.len(), 6);
        assert_eq!(t.rows[0][1], t.rows[0][2], "local and global scanning visit the same nodes");
        assert_eq!(t.rows[0][3], "1.00x");
        assert!(t.rows[5][1].contains(", "), "{:?}", t.rows[5]);
        for f in ["li2015.csv", "li2015.md", "report.md"] {
            assert!(dir.path().join(f).exists(), "{f} missing");
        }
    }
}
