//! `evotune match` and `evotune selfplay`: two players, paired openings, colours swapped.

use std::path::Path;

use anyhow::{bail, Context, Result};

use crate::arena::game::{EngineReferee, Referee};
use crate::arena::matches::{run_match, MatchConfig, MatchReport};
use crate::arena::openings::Openings;
use crate::arena::records::{GameRecord, RecordWriter};
use crate::arena::stats::Sprt;
use crate::cli::{EngineArgs, MatchArgs, SelfplayArgs, SideArgs};
use crate::commands::{match_openings, player_from, thread_pool};
use crate::fsutil::LineLog;
use crate::game::connect::Rules;
use crate::player::Player;
use crate::report::progress::{Progress, ProgressMode};

/// Players A and B: the shared engine options with each side's overrides.
pub fn players(a: &str, b: &str, engine: &EngineArgs, sides: &SideArgs, rules: Rules) -> Result<(Player, Player)> {
    let ea = engine.with(&sides.a());
    let eb = engine.with(&sides.b());
    let mut pa = player_from(a, &ea, rules).context("player A (--a)")?;
    let mut pb = player_from(b, &eb, rules).context("player B (--b)")?;
    if pa.name == pb.name {
        pa.name = format!("{}-A", pa.name);
        pb.name = format!("{}-B", pb.name);
    }
    Ok((pa, pb))
}

/// Parses `--sprt ELO0,ELO1`.
pub fn parse_sprt(text: &str, alpha: f64, beta: f64) -> Result<Sprt> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let [e0, e1] = parts[..] else { bail!("--sprt {text}: expected ELO0,ELO1, e.g. 0,10") };
    let e0: f64 = e0.parse().with_context(|| format!("--sprt {text}: `{e0}` is not a number"))?;
    let e1: f64 = e1.parse().with_context(|| format!("--sprt {text}: `{e1}` is not a number"))?;
    Sprt::new(e0, e1, alpha, beta).map_err(|e| anyhow::anyhow!("--sprt: {e}"))
}

struct Outputs {
    records: Option<RecordWriter>,
    sgf: Option<LineLog>,
}

impl Outputs {
    fn new(records: Option<&Path>, sgf: Option<&Path>) -> Result<Outputs> {
        let records = records.map(RecordWriter::create).transpose()?;
        let sgf =
            sgf.map(|p| LineLog::create(p).with_context(|| format!("{}: cannot create", p.display()))).transpose()?;
        Ok(Outputs { records, sgf })
    }

    fn write(&mut self, g: &crate::arena::records::GameRecord) -> Result<()> {
        if let Some(w) = &mut self.records {
            w.write(g)?;
        }
        if let Some(log) = &mut self.sgf {
            log.append(&format!("{}\n", g.to_sgf()))
                .with_context(|| format!("{}: write failed", log.path().display()))?;
        }
        Ok(())
    }
}

#[allow(clippy::too_many_arguments)]
fn play(
    a: &Player,
    b: &Player,
    pairs: usize,
    openings: &crate::cli::OpeningArgs,
    threads: Option<usize>,
    seed: u64,
    sprt: Option<Sprt>,
    outputs: &mut Outputs,
    live: bool,
) -> Result<MatchReport> {
    let rules = Rules::CONNECT6;
    let (mut openings, settings) = match_openings(openings, rules, pairs)?;
    let pool = thread_pool(threads)?;
    let referee = EngineReferee { settings };
    let config = MatchConfig { pairs, seed, sprt };
    pool.install(|| {
        play_match(&referee, a, b, &mut openings, &config, ProgressMode::Auto, live, &mut |g| outputs.write(g))
    })
}

/// Plays a match on the current rayon pool with a progress bar: the line that says who plays
/// whom, then the games. `live` prints the running W/D/L after every batch (for SPRT runs).
/// Shared by `match`, `selfplay` and `reproduce`.
#[allow(clippy::too_many_arguments)]
pub fn play_match(
    referee: &dyn Referee,
    a: &Player,
    b: &Player,
    openings: &mut Openings,
    config: &MatchConfig,
    mode: ProgressMode,
    live: bool,
    on_game: &mut dyn FnMut(&GameRecord) -> Result<()>,
) -> Result<MatchReport> {
    let described = openings.describe(config.pairs).map_err(|e| anyhow::anyhow!("openings: {e}"))?;
    if mode != ProgressMode::Hidden {
        eprintln!(
            "{} ({} {} {}) vs {} ({} {} {}): {} games from {} on {} threads",
            a.name,
            a.engine.search.name(),
            a.engine.eval.name(),
            a.limits.describe(),
            b.name,
            b.engine.search.name(),
            b.engine.eval.name(),
            b.limits.describe(),
            2 * config.pairs,
            described,
            rayon::current_num_threads()
        );
    }
    let progress = Progress::new("games", 2 * config.pairs as u64, "games", mode);
    let report = run_match(referee, a, b, openings, config, &progress, on_game, &mut |r| {
        let w = &r.wdl;
        let mut msg = format!("W {} D {} L {} Elo {:.0}", w.wins, w.draws, w.losses, w.elo());
        if let Some(llr) = r.llr {
            msg += &format!(" LLR {llr:.2}");
        }
        if live {
            progress.println(&msg);
        }
        progress.set_message(msg);
    })?;
    progress.finish();
    Ok(report)
}

pub fn run_match_command(args: &MatchArgs) -> Result<()> {
    let rules = Rules::CONNECT6;
    let (a, b) = players(&args.a, &args.b, &args.engine, &args.sides, rules)?;
    let sprt = args.sprt.as_deref().map(|s| parse_sprt(s, args.alpha, args.beta)).transpose()?;
    let mut outputs = Outputs::new(args.records.as_deref(), args.sgf.as_deref())?;
    let report =
        play(&a, &b, args.pairs as usize, &args.openings, args.threads, args.seed, sprt, &mut outputs, sprt.is_some())?;
    print!("{}", report.summary(sprt.as_ref()));
    println!("time {:.1}s", report.elapsed.as_secs_f64());
    Ok(())
}

pub fn run_selfplay(args: &SelfplayArgs) -> Result<()> {
    let rules = Rules::CONNECT6;
    let (a, b) = players(&args.a, &args.b, &args.engine, &args.sides, rules)?;
    let mut outputs = Outputs::new(Some(&args.records), None)?;
    let pairs = args.games.div_ceil(2) as usize;
    let report = play(&a, &b, pairs, &args.openings, args.threads, args.seed, None, &mut outputs, false)?;
    print!("{}", report.summary(None));
    println!("records {}", args.records.display());
    Ok(())
}
