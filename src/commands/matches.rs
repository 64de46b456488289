//! `evotune match` and `evotune selfplay`: two players, paired openings, colours swapped.

use std::path::Path;

use anyhow::{bail, Context, Result};

use crate::arena::matches::{play_match, MatchConfig, MatchReport};
use crate::arena::player::Player;
use crate::arena::records::RecordWriter;
use crate::arena::stats::Sprt;
use crate::cli::{MatchArgs, SelfplayArgs, SideArgs};
use crate::commands::{clocked, match_openings, thread_pool};
use crate::core::settings::EngineSettings;
use crate::fsutil::LineLog;
use crate::player::player_from;
use crate::registry::{EngineReferee, GameRef};
use crate::report::progress::ProgressMode;

/// Players A and B: the shared engine options with each side's overrides.
pub fn players(a: &str, b: &str, engine: &EngineSettings, sides: &SideArgs, game: GameRef) -> Result<(Player, Player)> {
    let ea = engine.with(&sides.a()).map_err(|e| anyhow::anyhow!("--a-engine {e}"))?;
    let eb = engine.with(&sides.b()).map_err(|e| anyhow::anyhow!("--b-engine {e}"))?;
    let mut pa = player_from(a, &ea, game).context("player A (--a)")?;
    let mut pb = player_from(b, &eb, game).context("player B (--b)")?;
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
    game: GameRef,
    records: Option<RecordWriter>,
    sgf: Option<LineLog>,
}

impl Outputs {
    fn new(game: GameRef, records: Option<&Path>, sgf: Option<&Path>) -> Result<Outputs> {
        let records = records.map(RecordWriter::create).transpose()?;
        let sgf =
            sgf.map(|p| LineLog::create(p).with_context(|| format!("{}: cannot create", p.display()))).transpose()?;
        Ok(Outputs { game, records, sgf })
    }

    fn write(&mut self, g: &crate::arena::records::GameRecord) -> Result<()> {
        if let Some(w) = &mut self.records {
            w.write(g)?;
        }
        if let Some(log) = &mut self.sgf {
            log.append(&format!("{}\n", g.to_sgf(self.game.arena())))
                .with_context(|| format!("{}: write failed", log.path().display()))?;
        }
        Ok(())
    }
}

#[allow(clippy::too_many_arguments)]
fn play(
    game: GameRef,
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
    let (mut openings, settings) = match_openings(openings, game, pairs)?;
    let pool = thread_pool(threads)?;
    let referee = EngineReferee { game, settings };
    let config = MatchConfig { pairs, seed, sprt };
    pool.install(|| {
        play_match(&referee, a, b, &mut openings, &config, ProgressMode::Auto, live, &mut |g| outputs.write(g))
    })
}

pub fn run_match_command(args: &MatchArgs) -> Result<()> {
    let game = args.game.get()?;
    let (a, b) = players(&args.a, &args.b, &clocked(&args.engine, &args.openings), &args.sides, game)?;
    let sprt = args.sprt.as_deref().map(|s| parse_sprt(s, args.alpha, args.beta)).transpose()?;
    let mut outputs = Outputs::new(game, args.records.as_deref(), args.sgf.as_deref())?;
    let report = play(
        game,
        &a,
        &b,
        args.pairs as usize,
        &args.openings,
        args.threads,
        args.seed,
        sprt,
        &mut outputs,
        sprt.is_some(),
    )?;
    print!("{}", report.summary(sprt.as_ref()));
    println!("time {:.1}s", report.elapsed.as_secs_f64());
    Ok(())
}

pub fn run_selfplay(args: &SelfplayArgs) -> Result<()> {
    let game = args.game.get()?;
    let (a, b) = players(&args.a, &args.b, &clocked(&args.engine, &args.openings), &args.sides, game)?;
    let mut outputs = Outputs::new(game, Some(&args.records), None)?;
    let pairs = args.games.div_ceil(2) as usize;
    let report = play(game, &a, &b, pairs, &args.openings, args.threads, args.seed, None, &mut outputs, false)?;
    print!("{}", report.summary(None));
    println!("records {}", args.records.display());
    Ok(())
}
