//! Song Yingjian et al. 2022: MCTS for EinStein würfelt nicht with the "dynamic hybrid
//! evaluation" pruning its simulations, against plain MCTS (random playouts), both at 5000
//! simulations per move. The paper reports that the hybrid player won 64.5% of the games and
//! used 73.5% of the plain player's time.
//!
//! Four designs, each a hybrid player against its plain counterpart:
//! - **UCT** (`hybrid` vs `plain`): evotune's own design, one budget of playouts per move, the
//!   evaluation pruning every step of the playouts.
//! - **paper** (`paper` vs `paper-plain`): the paper's "MCTS" as its section 2.2 describes it,
//!   flat Monte Carlo with MC_CONSTANT playouts for each step of the roll; read with section 3
//!   ("filter out the nodes whose win rate is clearly low"), a root step the evaluation prunes
//!   gets no playouts, and the playouts are pruned too.
//! - **UCT lean** (`lean` vs `plain`) and **flat lean** (`paper-lean` vs `paper-plain`):
//!   playouts pruned by the evaluation without its capture-risk term, which scores a step by
//!   table lookups (a step that takes no cube changes one cube's distance value; a capture, the
//!   selection sixths of one side), so that a pruned playout costs little more than a random
//!   one; the flat design also gives the root steps the full evaluation prunes no playouts.
//!   (The guarded designs, `guard` and `paper-guard`, measured before and weaker, are kept as
//!   evaluations; docs/einstein.md has their rows.)
//!
//! Each design is played twice: at equal playouts (the paper's comparison) and at equal time,
//! the hybrid player's budget scaled by the time ratio the first match measured. Times are
//! measured where they cannot drift apart under a changing load: within the same games (both
//! players alternate on one thread), and on the bench positions with the two players
//! interleaved position by position; playouts are counted.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use anyhow::{anyhow, Result};

use crate::arena::game::GameSettings;
use crate::arena::matches::MatchReport;
use crate::arena::openings::OpeningSuite;
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

/// The paper's figures.
const PAPER_WINS: f64 = 0.645;
const PAPER_TIME: f64 = 0.735;

/// Sizes of the experiment.
#[derive(Clone, Debug)]
pub struct Options {
    /// Simulations (playouts) per move or per root step, both players.
    pub playouts: u64,
    /// Game pairs of each match.
    pub pairs: usize,
    /// Interleaved rounds of the bench timing (the median ratio counts).
    pub repeats: usize,
}

impl Options {
    /// The paper's budget, 500 pairs (1000 games) a match.
    pub fn full() -> Options {
        Options { playouts: 5000, pairs: 500, repeats: 5 }
    }

    /// The paper's budget, 100 pairs a match: a few minutes on two cores.
    pub fn quick() -> Options {
        Options { playouts: 5000, pairs: 100, repeats: 3 }
    }
}

/// One design: the hybrid player's evaluation name and its plain counterpart's.
#[derive(Clone, Copy, Debug)]
pub struct Design {
    pub name: &'static str,
    pub hybrid: &'static str,
    pub plain: &'static str,
    pub what: &'static str,
}

/// The designs measured, in the order of the table.
pub const DESIGNS: [Design; 4] = [
    Design {
        name: "UCT",
        hybrid: "hybrid",
        plain: "plain",
        what: "evotune's UCT, playouts per move; hybrid prunes every playout step",
    },
    Design {
        name: "paper",
        hybrid: "paper",
        plain: "paper-plain",
        what: "the paper's flat Monte Carlo, playouts per root step; hybrid gives pruned root steps none and prunes \
               its playouts",
    },
    Design {
        name: "UCT lean",
        hybrid: "lean",
        plain: "plain",
        what: "UCT, playouts per move; hybrid prunes every playout step by the evaluation without its capture-risk \
               term, scored by table lookups (a few operations a step)",
    },
    Design {
        name: "flat lean",
        hybrid: "paper-lean",
        plain: "paper-plain",
        what:
            "flat, playouts per root step; hybrid gives the root steps the full evaluation prunes none, its playouts \
               as UCT lean's",
    },
];

/// The player of one evaluation with the default table and a budget of playouts.
pub fn player(eval: &str, playouts: u64) -> Player {
    let weights = GAME.evaluation(eval).expect("an EinStein evaluation").schema.defaults();
    let settings = EngineSettings { search: SearchKind::Mcts, eval: Some(eval.into()), ..EngineSettings::default() };
    Player::new(format!("{eval} {playouts}"), weights, settings, Limits::nodes(playouts))
}

/// The bench positions as move lists.
fn bench_positions() -> Vec<Vec<String>> {
    GAME.bench_positions().iter().map(|t| split_moves(t).into_iter().map(str::to_string).collect()).collect()
}

/// One search of one position: milliseconds and playouts.
fn search_one(p: &Player, position: &[String]) -> Result<(f64, u64)> {
    let (results, _) =
        GAME.search_positions(p, &[position.to_vec()], &p.limits()).map_err(|e| anyhow!("bench: {e}"))?;
    let r = results.first().ok_or_else(|| anyhow!("bench: no result"))?;
    Ok((r.elapsed.as_secs_f64() * 1e3, r.nodes))
}

/// The bench timing of two players interleaved position by position (the order swapped every
/// round), so that a change of load hits both alike: the median over the rounds of the time
/// ratio a / b, and each player's playouts over the positions (the same every round).
pub fn interleaved_bench(a: &Player, b: &Player, rounds: usize) -> Result<BenchRatio> {
    let positions = bench_positions();
    let mut ratios = Vec::new();
    let (mut playouts_a, mut playouts_b) = (0, 0);
    let (mut ms_a, mut ms_b) = (0.0, 0.0);
    for round in 0..rounds.max(1) {
        let (mut ta, mut tb) = (0.0, 0.0);
        (playouts_a, playouts_b) = (0, 0);
        for pos in &positions {
            let (x, y) = if round % 2 == 0 {
                let x = search_one(a, pos)?;
                (x, search_one(b, pos)?)
            } else {
                let y = search_one(b, pos)?;
                (search_one(a, pos)?, y)
            };
            ta += x.0;
            tb += y.0;
            playouts_a += x.1;
            playouts_b += y.1;
        }
        ms_a += ta;
        ms_b += tb;
        ratios.push(if tb > 0.0 { ta / tb } else { f64::NAN });
    }
    ratios.sort_by(f64::total_cmp);
    let n = rounds.max(1) as f64;
    Ok(BenchRatio { time: ratios[ratios.len() / 2], playouts_a, playouts_b, ms_a: ms_a / n, ms_b: ms_b / n })
}

/// What [`interleaved_bench`] measured.
#[derive(Clone, Copy, Debug)]
pub struct BenchRatio {
    /// Median over the rounds of a's time over b's.
    pub time: f64,
    pub playouts_a: u64,
    pub playouts_b: u64,
    /// Mean milliseconds of a round.
    pub ms_a: f64,
    pub ms_b: f64,
}

/// A match of `hybrid` against `plain` and the thinking time each spent in it (summed over
/// its games, in which the two alternate on one thread).
struct Duel {
    report: MatchReport,
    hybrid_ms: u64,
    plain_ms: u64,
}

impl Duel {
    fn time_ratio(&self) -> f64 {
        if self.plain_ms > 0 {
            self.hybrid_ms as f64 / self.plain_ms as f64
        } else {
            f64::NAN
        }
    }

    fn wins(&self) -> f64 {
        let w = &self.report.wdl;
        w.wins as f64 / w.games().max(1) as f64
    }
}

fn duel(hybrid: &Player, plain: &Player, openings: &OpeningSuite, pairs: usize, setup: &Setup) -> Result<Duel> {
    let settings = GameSettings::default();
    let referee = EngineReferee { game: GAME, settings };
    let (hybrid_total, plain_total) = (AtomicU64::new(0), AtomicU64::new(0));
    let report = setup.play_match(&referee, hybrid, plain, openings, pairs, MATCH, &|_, g| {
        let (h, p) = if g.first == hybrid.name { (g.first_ms, g.second_ms) } else { (g.second_ms, g.first_ms) };
        hybrid_total.fetch_add(h, Ordering::Relaxed);
        plain_total.fetch_add(p, Ordering::Relaxed);
    })?;
    let (hybrid_ms, plain_ms) = (hybrid_total.into_inner(), plain_total.into_inner());
    Ok(Duel { report, hybrid_ms, plain_ms })
}

/// Everything measured for one design.
struct Measured {
    design: Design,
    equal_playouts: Duel,
    equal_time: Duel,
    /// The hybrid player's playouts in the equal-time match.
    equal_time_playouts: u64,
    bench: BenchRatio,
}

/// The hybrid budget that costs what `playouts` cost the plain player, given the time ratio
/// hybrid / plain at equal playouts (searches take time in proportion to their playouts).
pub fn equal_time_playouts(playouts: u64, time_ratio: f64) -> u64 {
    if time_ratio.is_finite() && time_ratio > 0.0 {
        ((playouts as f64 / time_ratio).round() as u64).max(1)
    } else {
        playouts
    }
}

fn measure(design: Design, openings: &OpeningSuite, options: &Options, setup: &Setup) -> Result<Measured> {
    let plain = player(design.plain, options.playouts);
    let hybrid = player(design.hybrid, options.playouts);
    setup.say(&format!(
        "song2022 {}: {} vs {}, {} pairs",
        design.name,
        hybrid.describe(),
        plain.describe(),
        options.pairs
    ));
    let equal_playouts = duel(&hybrid, &plain, openings, options.pairs, setup)?;
    let n = equal_time_playouts(options.playouts, equal_playouts.time_ratio());
    let faster = player(design.hybrid, n);
    setup.say(&format!(
        "song2022 {}: hybrid took {} of plain's time at equal playouts; at equal time it gets {n} playouts",
        design.name,
        percent(equal_playouts.time_ratio(), 1.0)
    ));
    let equal_time = duel(&faster, &plain, openings, options.pairs, setup)?;
    let bench = interleaved_bench(&hybrid, &plain, options.repeats)?;
    Ok(Measured { design, equal_playouts, equal_time, equal_time_playouts: n, bench })
}

fn ratio_text(x: f64) -> String {
    if x.is_finite() {
        percent(x, 1.0)
    } else {
        "-".into()
    }
}

fn row(t: &mut Table, name: &str, budget: String, d: &Duel, bench: Option<&BenchRatio>) {
    let w = &d.report.wdl;
    let (lo, hi) = wilson95(w.wins, w.games());
    let (elo_lo, elo_hi) = w.elo_ci95();
    t.row(vec![
        name.to_string(),
        budget,
        w.games().to_string(),
        percent(w.wins as f64, w.games() as f64),
        format!("{} .. {}", percent(lo, 1.0), percent(hi, 1.0)),
        format!("{} ({} .. {})", elo(w.elo()), elo(elo_lo), elo(elo_hi)),
        ratio_text(d.time_ratio()),
        bench.map_or("".into(), |b| ratio_text(b.time)),
        bench.map_or("".into(), |b| ratio_text(b.playouts_a as f64 / b.playouts_b.max(1) as f64)),
    ]);
}

/// The main table: for each design a row at equal playouts and one at equal time, then the
/// paper's row, and notes on which rows do what the paper's figures say.
fn table(measured: &[Measured], options: &Options) -> Table {
    let mut t = Table::new(
        format!(
            "Hybrid against plain, dice-paired games; plain has {} playouts (per move in UCT, per root step in the \
             flat designs)",
            options.playouts
        ),
        &[
            "design",
            "hybrid's playouts",
            "games",
            "hybrid's wins",
            "95% interval",
            "Elo (95%)",
            "time / plain's, in the games",
            "time / plain's, bench",
            "playouts / plain's, bench",
        ],
    );
    for m in measured {
        row(&mut t, m.design.name, format!("{} (equal playouts)", options.playouts), &m.equal_playouts, Some(&m.bench));
        row(&mut t, m.design.name, format!("{} (equal time)", m.equal_time_playouts), &m.equal_time, None);
    }
    t.row(vec![
        "the paper".into(),
        format!("{} (equal simulations)", options.playouts),
        "-".into(),
        percent(PAPER_WINS, 1.0),
        "-".into(),
        elo(-400.0 * (1.0 / PAPER_WINS - 1.0).log10()),
        percent(PAPER_TIME, 1.0),
        "-".into(),
        "-".into(),
    ]);
    for m in measured {
        t.note(format!("{}: {}.", m.design.name, m.design.what));
    }
    // Which rows are both stronger and cheaper, as the paper's is.
    let mut both = Vec::new();
    for m in measured {
        for (d, budget) in [(&m.equal_playouts, options.playouts), (&m.equal_time, m.equal_time_playouts)] {
            if d.wins() >= 0.6 && d.time_ratio() <= 1.0 {
                both.push(format!(
                    "{} at {budget} ({} wins, {} of the time)",
                    m.design.name,
                    percent(d.wins(), 1.0),
                    percent(d.time_ratio(), 1.0)
                ));
            }
        }
    }
    t.note(if both.is_empty() {
        "No row has hybrid winning at least 60% in at most plain's time.".to_string()
    } else {
        format!("Hybrid wins at least 60% in at most plain's time: {}.", both.join("; "))
    });
    // What the paper's two figures need of a design with a budget per root step.
    for m in measured.iter().filter(|m| m.design.plain == "paper-plain") {
        let b = &m.bench;
        let playouts = b.playouts_a as f64 / b.playouts_b.max(1) as f64;
        let per_playout = b.time / playouts;
        t.note(format!(
            "{}: hybrid plays {} of plain's playouts on the bench, each costing {:.2}x a plain one; the paper's 73.5% of \
             the time at this share of playouts needs a hybrid playout at {:.2}x.",
            m.design.name,
            percent(playouts, 1.0),
            per_playout,
            PAPER_TIME / playouts
        ));
    }
    if let Some(load) = load_average() {
        t.note(format!(
            "Load average of the machine when the table was made: {load} (the time ratios compare players measured \
             side by side)."
        ));
    }
    t
}

/// The 1-, 5- and 15-minute load averages, where the system reports them.
fn load_average() -> Option<String> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    Some(text.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
}

/// Plays every design's two matches and times the searches; writes the table into
/// `setup.out`.
pub fn run(options: &Options, setup: &Setup) -> Result<Reproduction> {
    let config = OpeningConfig { count: options.pairs.max(64), ..OpeningConfig::default() };
    let openings = OpeningSuite::generate(GAME.arena(), &config, setup.seed_for(OPENINGS))?;
    if !setup.quiet() {
        let start = std::time::Instant::now();
        let (a, b) = (player("paper", options.playouts), player("paper-plain", options.playouts));
        GAME.play_game(&a, &b, openings.get(0), &GameSettings::default(), 0);
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let games = 2 * 2 * options.pairs * DESIGNS.len();
        setup.say(&format!(
            "song2022: {} designs, each hybrid vs plain at equal playouts and at equal time, {} pairs a match (dice \
             shared within a pair), {} playouts; {games} games, roughly {} on {} threads",
            DESIGNS.len(),
            options.pairs,
            options.playouts,
            format_duration(Duration::from_secs_f64(estimate_secs(games, ms * 0.6))),
            rayon::current_num_threads()
        ));
    }
    let mut measured = Vec::new();
    for design in DESIGNS {
        measured.push(measure(design, &openings, options, setup)?);
    }
    let mut out =
        Reproduction::new("Song Yingjian et al. 2022: hybrid-evaluation MCTS vs plain MCTS (EinStein würfelt nicht)");
    out.add("song2022", table(&measured, options));
    out.write(&setup.out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::progress::ProgressMode;

    #[test]
    fn equal_time_scales_the_budget_by_the_time_ratio() {
        assert_eq!(equal_time_playouts(5000, 4.0), 1250);
        assert_eq!(equal_time_playouts(5000, 0.5), 10000);
        assert_eq!(equal_time_playouts(5000, f64::NAN), 5000);
        assert_eq!(equal_time_playouts(3, 100.0), 1);
    }

    #[test]
    fn tiny_experiment_plays_every_design_twice_and_writes_its_table() {
        let dir = tempfile::tempdir().unwrap();
        let setup = Setup { out: dir.path().to_path_buf(), seed: 1, mode: ProgressMode::Hidden };
        let r = run(&Options { playouts: 50, pairs: 3, repeats: 1 }, &setup).unwrap();
        let t = &r.tables[0].1;
        assert_eq!(t.rows.len(), 2 * DESIGNS.len() + 1);
        for row in &t.rows[..2 * DESIGNS.len()] {
            assert_eq!(row[2], "6", "{row:?}");
        }
        let playouts = |row: &Vec<String>| row[8].trim_end_matches('%').parse::<f64>().unwrap();
        // UCT spends the same playouts per move whatever the evaluation; the flat designs'
        // hybrid spends none on the root steps it prunes, never more than plain.
        assert_eq!(playouts(&t.rows[0]), 100.0, "{:?}", t.rows[0]);
        assert!(playouts(&t.rows[2]) <= 100.0, "{:?}", t.rows[2]);
        assert!(playouts(&t.rows[6]) <= 100.0, "{:?}", t.rows[6]);
        assert!(dir.path().join("song2022.csv").exists());
    }
}
