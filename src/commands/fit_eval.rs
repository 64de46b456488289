//! `evotune fit-eval`: a table's evaluation weights fitted to an outside engine's evaluation
//! of recorded positions (see `crate::eval_fit`).

use std::collections::HashSet;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;

use crate::arena::eval_judge::Eval;
use crate::arena::outside::{EngineSpec, SpecOptions};
use crate::commands::args::GameArg;
use crate::eval_fit::labels::{label_positions, position_key, positions_to_label, read_labels, Label};
use crate::eval_fit::{expected, fit, fit_scale, held_out, Labelled};
use crate::fsutil::LineLog;
use crate::player::{is_outside_player, load_weights};
use crate::registry::GameRef;
use crate::report::progress::Progress;

/// The moves that decide whether a position is held out: a game's positions share them.
const HOLDOUT_PREFIX: usize = 6;

#[derive(Args, Debug)]
pub struct FitEvalArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// The evaluation whose weights are fitted (default: the table's own, or the game's
    /// default evaluation).
    #[arg(long)]
    pub eval: Option<String>,
    /// The table to start from (a weight file, `defaults`, `best`, or a run's folder); its
    /// move-order weights are kept.
    #[arg(long, default_value = "defaults")]
    pub weights: String,
    /// The labelled positions (JSON lines, one position a line:
    /// `{"moves":["h8","i9"],"eval":"+186"}`, the judge's evaluation for the side to move,
    /// `+M12`/`-M9` for a forced result, null for none). Read first; with --records and
    /// --judge, the records' positions it lacks are judged and appended to it one by one,
    /// so an interrupted run goes on where it stopped when run again.
    #[arg(long, value_name = "FILE")]
    pub labels: PathBuf,
    /// Game records (JSON lines, as `match --records` writes them) whose positions are to be
    /// labelled: every position from the end of the opening on, less repeats (up to
    /// symmetry) and positions a static evaluation cannot judge (the game over, or tactics
    /// pending: in Gomoku a four on the board, in Connect6 a threat road of four or five
    /// stones).
    #[arg(long, value_name = "FILE", num_args = 1.., requires = "judge")]
    pub records: Vec<PathBuf>,
    /// The engine that labels (`cmd:PROGRAM[;dir=DIR;init=LINE...]`, as `match` takes
    /// engines): shown each position and asked to move, its last printed evaluation (`Eval N`
    /// as Rapfi prints it, `score N` as `evotune play --verbose` does; for Connect6
    /// Cloudict's `Score :` and `Win by VCF.`, or `evotune play --verbose-stdout`'s `score N`)
    /// is the label. Give it a node budget (Rapfi: `init=INFO MAX_NODE 50000`) or a counted
    /// clock (evotune: `--clock-nps`) so labels do not depend on the load.
    #[arg(long, value_name = "ENGINE", requires = "records")]
    pub judge: Option<String>,
    /// The judge's time a position in ms (pbrain's `INFO timeout_turn`; a node budget
    /// should stop it first).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub judge_ms: u64,
    /// Judges (engine processes) labelling at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub judge_threads: u64,
    /// Label positions at most in this run (the rest wait for the next).
    #[arg(long)]
    pub max_labels: Option<usize>,
    /// The judge's scale K': its score S counts as the expected result sigmoid(S / K').
    /// Rapfi's classical evaluation: 200.
    #[arg(long, default_value_t = 200.0)]
    pub label_scale: f64,
    /// What a forced result (`+M12`, `-M9`) teaches: nothing (`leave-out`: a static
    /// evaluation cannot see a forced win many moves deep), or the result itself
    /// (`result`: an expected result of 1 for the side to move's forced win, 0 for its loss).
    #[arg(long, value_enum, default_value_t = Mates::LeaveOut)]
    pub mates: Mates,
    /// Percent of the positions held out of the fit to measure it on (chosen by their first
    /// 6 moves, so that a game's positions from its sixth move on fall on the same side).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=90))]
    pub holdout: u32,
    /// Rounds over the evaluation weights, at most (the fit stops earlier when a pass whose
    /// steps all shrank below one moved no weight).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub rounds: u32,
    /// Where to write the fitted table (TOML). Without it nothing is fitted: the labels are
    /// made and the loss of --weights is printed.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// What `--mates` does with forced results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Mates {
    LeaveOut,
    Result,
}

pub fn run(args: &FitEvalArgs) -> Result<()> {
    let game = args.game.get()?;
    if is_outside_player(&args.weights) {
        bail!("--weights {}: a weight table to start from, not an outside engine", args.weights);
    }
    if !(args.label_scale.is_finite() && args.label_scale > 0.0) {
        bail!("--label-scale {}: a positive number", args.label_scale);
    }
    let (start, mut meta, eval) = load_weights(&args.weights, args.eval.as_deref(), game)?;
    if let Some(judge) = &args.judge {
        label(args, game, judge)?;
    }
    if !args.labels.exists() {
        bail!("{}: no such label file (make one with --records and --judge)", args.labels.display());
    }
    let labels = read_labels(&args.labels, game)?;
    let (train, test, left_out) = split(game, eval, &labels, args)?;
    println!(
        "{} labelled positions in {}: {} to fit, {} held out, {} left out (a forced result, no evaluation, or tactical)",
        labels.len(),
        args.labels.display(),
        train.len(),
        test.as_ref().map_or(0, |t| t.len()),
        left_out
    );
    if train.is_empty() {
        bail!("no labelled position to fit to in {}", args.labels.display());
    }
    let k = fit_scale(&train, &start);
    println!("scale K of {}: {k:.1} (the judge's: {})", args.weights, args.label_scale);
    let test_before = test.as_ref().map(|t| t.loss(&start, k));
    let Some(out) = &args.out else {
        println!("loss: {:.6} fitted positions", train.loss(&start, k));
        if let Some(l) = test_before {
            println!("      {l:.6} held out");
        }
        return Ok(());
    };
    let progress = Progress::background("fit-eval", u64::from(args.rounds), "rounds");
    let (weights, before, after) = fit(
        &train,
        &start,
        k,
        args.rounds as usize,
        |s| progress.println(&format!("round {}: {} {} -> {}: loss {:.6}", s.round, s.weight, s.from, s.to, s.loss)),
        |round, searching| {
            progress.inc(1);
            progress.set_message(format!("round {round}, {searching} weights searching"));
        },
    )?;
    progress.finish();
    println!("loss, fitted positions: {before:.6} -> {after:.6}");
    if let (Some(t), Some(was)) = (&test, test_before) {
        println!("loss, held out:         {was:.6} -> {:.6}", t.loss(&weights, k));
    }
    meta.name = Some(format!("{}-evalfit", meta.name.as_deref().unwrap_or(&args.weights)));
    meta.eval = Some(eval.to_string());
    meta.game = Some(game.name().to_string());
    meta.extra.insert("eval_fitted_to".into(), toml::Value::String(args.labels.display().to_string()));
    meta.extra.insert("eval_fit_scale".into(), toml::Value::Float((k * 10.0).round() / 10.0));
    weights.save(out, &meta).with_context(|| format!("{}: cannot write", out.display()))?;
    println!("wrote {}", out.display());
    Ok(())
}

/// Labels the records' positions that the label file lacks, appending to it.
fn label(args: &FitEvalArgs, game: GameRef, judge: &str) -> Result<()> {
    // `NAME=cmd:...` as a match's players are written: the name is not needed here.
    let text = match judge.split_once('=') {
        Some((name, rest)) if rest.starts_with("cmd:") && !name.contains(':') => rest,
        _ => judge,
    };
    let spec =
        EngineSpec::parse(text, &SpecOptions::default(), game.name()).map_err(|e| anyhow::anyhow!("--judge: {e}"))?;
    // Opening the file cuts a line torn by an interrupted run before it is read.
    let mut log =
        LineLog::resume(&args.labels, None).with_context(|| format!("{}: cannot open", args.labels.display()))?;
    let known_labels = read_labels(&args.labels, game)?;
    let mut known: HashSet<Vec<u32>> = known_labels.iter().map(|l| position_key(game, &l.moves)).collect();
    let (mut todo, h) = positions_to_label(game, &args.records, &mut known)?;
    println!(
        "{} games: {} positions after the openings, {} left out as tactical or over, {} repeated or labelled before: {} to label",
        h.games,
        h.seen,
        h.tactical,
        h.repeated,
        todo.len()
    );
    if let Some(most) = args.max_labels {
        todo.truncate(most);
    }
    if todo.is_empty() {
        return Ok(());
    }
    let progress = Progress::new("labels", todo.len() as u64, "positions", crate::report::progress::ProgressMode::Auto);
    let started = std::time::Instant::now();
    let done = label_positions(&spec, args.judge_ms, args.judge_threads as usize, &todo, &mut log, &progress);
    progress.finish();
    let done = done?;
    println!(
        "labelled {done} positions in {:.0} s, appended to {}",
        started.elapsed().as_secs_f64(),
        args.labels.display()
    );
    Ok(())
}

/// The labels with a score, replayed and split into the fitted and the held-out part (None
/// when nothing is held out), and how many were left out (forced results with `--mates
/// leave-out`, no evaluation, tactical positions).
/// The positions are sorted by their moves, so that the fit does not depend on the order of
/// the file's lines.
fn split(
    game: GameRef,
    eval: &str,
    labels: &[Label],
    args: &FitEvalArgs,
) -> Result<(Labelled, Option<Labelled>, usize)> {
    let mut scored: Vec<(&Vec<String>, f64)> = labels
        .iter()
        .filter(|l| game.quiet_for_static(&l.moves) == Ok(true))
        .filter_map(|l| match l.eval {
            Some(Eval::Score(s)) => Some((&l.moves, expected(f64::from(s), args.label_scale))),
            Some(Eval::Mate { wins, .. }) if args.mates == Mates::Result => Some((&l.moves, f64::from(u8::from(wins)))),
            _ => None,
        })
        .collect();
    let left_out = labels.len() - scored.len();
    scored.sort_by(|a, b| a.0.cmp(b.0));
    scored.dedup_by(|a, b| a.0 == b.0);
    let (test, train): (Vec<_>, Vec<_>) =
        scored.into_iter().partition(|(m, _)| held_out(m, HOLDOUT_PREFIX, args.holdout));
    let make = |part: Vec<(&Vec<String>, f64)>| -> Result<Labelled> {
        let moves: Vec<Vec<String>> = part.iter().map(|(m, _)| (*m).clone()).collect();
        let positions =
            game.static_positions(eval, &moves).map_err(|e| anyhow::anyhow!("{}: {e}", args.labels.display()))?;
        let targets = part.iter().map(|(_, t)| *t).collect();
        Ok(Labelled { positions, targets })
    };
    let test = if test.is_empty() { None } else { Some(make(test)?) };
    Ok((make(train)?, test, left_out))
}
