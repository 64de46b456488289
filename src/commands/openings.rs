//! `evotune openings`: write a generated opening suite.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use crate::arena::balance::judge_all;
use crate::arena::eval_judge::{Eval, Judge};
use crate::arena::game::GameSettings;
use crate::arena::openings::{Keys, OpeningGenerator, OpeningSuite};
use crate::arena::outside::{EngineSpec, SpecOptions};
use crate::arena::ArenaGame;

use crate::commands::args::GameArg;
use crate::commands::write_output;
use crate::core::openings::{OpeningConfig, OpeningMethod, MAX_COUNT, MAX_TOP, MAX_TURNS};
use crate::core::settings::EngineSettings;
use crate::player::player_from;
use crate::registry::GameRef;
use crate::report::progress::Progress;

#[derive(Args, Debug)]
pub struct OpeningsArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// Openings to generate (fewer when the settings hold fewer distinct ones).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=MAX_COUNT as u64))]
    pub count: u64,
    /// Turns per opening.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=MAX_TURNS as u64))]
    pub turns: u64,
    /// `played`: Black's first stone, `random`: every stone, within this distance of the
    /// centre (1 to 9 on the 19x19 board, 1 to 7 on 15x15). Default: 3, or the board's
    /// largest radius when that is smaller (2 on Surakarta's 6x6, where it is unused).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=9))]
    pub radius: Option<u64>,
    /// `played` (the move generator's best moves, drawn at random) or `random` (stones
    /// uniformly near the centre).
    #[arg(long, value_enum, default_value_t = OpeningMethod::Played)]
    pub method: OpeningMethod,
    /// `played`: how many of the generator's best moves each turn draws from.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=MAX_TOP as u64))]
    pub top: u64,
    /// `random`: keep openings whose static evaluation (the game's default road weights,
    /// side to move) is within this of even.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(0..=i64::from(i32::MAX)))]
    pub balance: u32,
    /// Keep only balanced openings: each `--judge` plays one game against itself from each
    /// candidate, and an opening is kept when the first player's share of those points is
    /// within MARGIN of one half (0 with two judges: one game won by each side). Candidates
    /// come from the generator's settings above, in its order.
    #[arg(long, value_name = "MARGIN", value_parser = margin_value, conflicts_with = "eval_judge")]
    pub balanced: Option<f64>,
    /// A judge for `--balanced` (at least two): a weight file, `defaults`, or an outside
    /// engine (`NAME=cmd:...`, with its own limits). Judge with other tables than the ones
    /// the suite will measure.
    #[arg(long, value_name = "PLAYER")]
    pub judge: Vec<String>,
    /// `--balanced`: the depth of the judges that are evotune's engine.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=12))]
    pub judge_depth: u32,
    /// `--balanced`: candidates to judge at most (default 20 times `--count`).
    #[arg(long)]
    pub candidates: Option<u64>,
    /// `--balanced`: the longest wait for an outside judge's move, in milliseconds.
    #[arg(long, default_value_t = 600_000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub hang_ms: u64,
    /// Leave out the openings of this suite file (equal up to the board's symmetries), such
    /// as the suites a table was developed on; may be given more than once.
    #[arg(long, value_name = "FILE")]
    pub exclude: Vec<PathBuf>,
    /// `--balanced`: candidates judged at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// Keep only the openings an outside engine judges within `--eval-judge-margin` of even
    /// (`cmd:PROGRAM[;dir=DIR;init=LINE...]`, as `evotune match` takes engines): it is shown
    /// each generated opening and asked to move, and the last evaluation it prints (`Eval N`
    /// as Rapfi prints it, or `score N` as `evotune play --verbose` does) is the verdict; a
    /// forced win or loss is never even. Give it a node budget (Rapfi: `init=INFO MAX_NODE
    /// 500000`) for verdicts independent of the load. See docs/matches.md.
    #[arg(long, value_name = "ENGINE")]
    pub eval_judge: Option<String>,
    /// `--eval-judge`: the largest evaluation either way, in the judge's units, that counts as even.
    #[arg(long, default_value_t = 100, requires = "eval_judge")]
    pub eval_judge_margin: u32,
    /// `--eval-judge`: the judge's time per opening in ms (pbrain's `INFO timeout_turn`).
    #[arg(long, default_value_t = 10_000, requires = "eval_judge",
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub eval_judge_ms: u64,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output file (default stdout).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

fn margin_value(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..=0.5).contains(&v) => Ok(v),
        _ => Err(format!("`{s}`: a share between 0 and 0.5")),
    }
}

pub fn run(args: &OpeningsArgs) -> Result<()> {
    let any = args.game.get()?;
    let game = any.arena();
    // The command line's ranges fit these types; the check below says the rest.
    let config = OpeningConfig {
        count: args.count as usize,
        turns: args.turns as usize,
        radius: args.radius.map_or(3.min(OpeningConfig::max_radius(game)), |r| r as usize),
        method: args.method,
        top: args.top as usize,
        balance: args.balance as i32,
    };
    config.check(game).map_err(|e| anyhow::anyhow!("--{} {}", e.key, e.message))?;
    let mut excluded = OpeningSuite { game, openings: Vec::new() };
    for path in &args.exclude {
        let suite = OpeningSuite::load(path, game).map_err(|e| anyhow::anyhow!("--exclude: {e:#}"))?;
        excluded.openings.extend(suite.openings);
    }
    if let Some(margin) = args.balanced {
        return balanced(any, args, config, margin, &excluded);
    }
    if !args.judge.is_empty() {
        anyhow::bail!("--judge: judges only judge with --balanced MARGIN");
    }
    if let Some(judge) = &args.eval_judge {
        return judged(args, game, &config, judge, &excluded);
    }
    let progress = Progress::background("openings", config.count as u64, "openings");
    let (mut suite, short) = OpeningSuite::generate_reporting(game, &config, args.seed, Some(&progress));
    progress.finish();
    let removed = suite.remove_all_of(&excluded);
    if removed > 0 {
        eprintln!("note: {removed} of the openings are in the --exclude files and were left out");
    }
    match short {
        Some(s) if suite.is_empty() => anyhow::bail!("{}", s.message(Keys::CommandLine)),
        // Not an error: a suite of all the openings there are is still a good suite.
        Some(s) => eprintln!("note: {}", s.message(Keys::CommandLine)),
        None => {}
    }
    write_output(args.output.as_deref(), &suite.to_text())
}

/// `--balanced`: candidates from the generator, judged in batches, kept in the generator's
/// order until `--count` are kept (the same suite on any number of threads).
fn balanced(
    any: GameRef,
    args: &OpeningsArgs,
    config: OpeningConfig,
    margin: f64,
    excluded: &OpeningSuite,
) -> Result<()> {
    if args.judge.len() < 2 {
        anyhow::bail!("--balanced: give at least two --judge players (each plays itself from every candidate)");
    }
    let engine = EngineSettings { depth: Some(args.judge_depth), ..EngineSettings::default() };
    let mut judges = Vec::new();
    for (i, spec) in args.judge.iter().enumerate() {
        let mut p = player_from(spec, &engine, any).map_err(|e| anyhow::anyhow!("--judge {spec}: {e}"))?;
        p.name = format!("judge{}-{}", i + 1, p.name);
        judges.push(p);
    }
    let settings = GameSettings { hang_ms: args.hang_ms, ..GameSettings::default() };
    let wanted = config.count;
    let most = args.candidates.map_or(wanted.saturating_mul(20), |c| c as usize).max(wanted);
    let mut generator = OpeningGenerator::new(any.arena(), &OpeningConfig { count: most, ..config }, args.seed);
    let progress = Progress::background("openings", wanted as u64, "balanced openings");
    let batch = (args.threads as usize * 4).max(1);
    let (mut kept, mut tried, mut first_won, mut second_won) = (Vec::new(), 0usize, 0usize, 0usize);
    let mut skipped = 0;
    let is_excluded = excluded.membership();
    'outer: loop {
        let mut candidates = Vec::with_capacity(batch);
        while candidates.len() < batch {
            match generator.next_opening() {
                Some(o) if is_excluded(&o) => skipped += 1,
                Some(o) => candidates.push(((tried + candidates.len()) as u64, o)),
                None => break,
            }
        }
        if candidates.is_empty() {
            break;
        }
        let verdicts = judge_all(any, &judges, &candidates, &settings, args.threads as usize);
        for ((_, opening), judged) in candidates.into_iter().zip(verdicts) {
            tried += 1;
            if judged.balanced(margin) {
                kept.push(opening);
                progress.inc(1);
                if kept.len() == wanted {
                    break 'outer;
                }
            } else if judged.first_share() > 0.5 {
                first_won += 1;
            } else {
                second_won += 1;
            }
        }
    }
    progress.finish();
    let rejected = tried - kept.len();
    let rate = if tried == 0 { 0.0 } else { 100.0 * rejected as f64 / tried as f64 };
    let summary = format!(
        "balanced within {margin} of even by {} judges ({}; evotune's at depth {}): kept {} of {tried} candidates, \
         rejected {rejected} ({rate:.1}%: {first_won} favouring the first player, {second_won} the second); \
         {skipped} left out as in --exclude files",
        judges.len(),
        args.judge.join(", "),
        args.judge_depth,
        kept.len()
    );
    eprintln!("{summary}");
    if kept.is_empty() {
        anyhow::bail!("--balanced {margin}: no candidate was balanced; raise the margin or --candidates");
    }
    if kept.len() < wanted {
        eprintln!("note: only {} balanced openings among {tried} candidates, {wanted} asked for", kept.len());
    }
    let suite = OpeningSuite { game: any.arena(), openings: kept };
    let mut text = suite.to_text();
    text.insert_str(
        text.find('\n').map_or(0, |i| i + 1),
        &format!(
            "# evotune openings --game {} --turns {} --radius {} --method {:?} --top {} --seed {} --balanced {margin}\n# {summary}\n",
            any.name(),
            config.turns,
            config.radius,
            format!("{:?}", config.method).to_lowercase().trim_matches('"').to_string(),
            config.top,
            args.seed
        ),
    );
    write_output(args.output.as_deref(), &text)
}

/// The suite of openings the judge finds even: the generator's openings in its order, each
/// judged, the uneven ones left out, until `count` are kept or the generator runs out. Each
/// kept line carries the verdict for Black as a comment; the rejections are counted on
/// standard error.
fn judged(
    args: &OpeningsArgs,
    game: &'static dyn ArenaGame,
    config: &OpeningConfig,
    judge: &str,
    excluded: &OpeningSuite,
) -> Result<()> {
    // `NAME=cmd:...` as a match's players are written: the name is not needed here.
    let text = match judge.split_once('=') {
        Some((name, rest)) if rest.starts_with("cmd:") && !name.contains(':') => rest,
        _ => judge,
    };
    let spec = EngineSpec::parse(text, &SpecOptions::default(), game.name())
        .map_err(|e| anyhow::anyhow!("--eval-judge: {e}"))?;
    let judge = Judge::start(spec, args.eval_judge_ms).map_err(|e| anyhow::anyhow!("--eval-judge: {e}"))?;
    let margin = args.eval_judge_margin as i32;
    // Candidates without a count of their own: the judge decides how many are needed.
    let candidates = OpeningConfig { count: MAX_COUNT, ..*config };
    let mut generator = OpeningGenerator::new(game, &candidates, args.seed);
    let progress = Progress::background("openings", config.count as u64, "openings");
    let mut kept: Vec<(Vec<String>, Eval)> = Vec::new();
    let (mut judged, mut forced, mut uneven, mut skipped) = (0usize, 0usize, 0usize, 0usize);
    let is_excluded = excluded.membership();
    while kept.len() < config.count {
        let Some(opening) = generator.next_opening() else { break };
        if is_excluded(&opening) {
            skipped += 1;
            continue;
        }
        let eval = judge.eval(&opening).map_err(|e| anyhow::anyhow!("--eval-judge: {e}"))?.ok_or_else(|| {
            anyhow::anyhow!(
                "--eval-judge: the engine printed no evaluation (`Eval N` or `score N` in a comment line) for `{}`; its log: {}",
                opening.join(" "),
                judge.log_path().display()
            )
        })?;
        judged += 1;
        match eval {
            e if e.within(margin) => {
                let black = e.for_first(opening.len());
                kept.push((opening, black));
                progress.inc(1);
            }
            Eval::Mate { .. } => forced += 1,
            Eval::Score(_) => uneven += 1,
        }
    }
    progress.finish();
    if skipped > 0 {
        eprintln!("note: {skipped} generated openings are in the --exclude files and were not judged");
    }
    let rejected = forced + uneven;
    eprintln!(
        "judged {judged} openings: kept {}, rejected {rejected} ({:.1}%): {forced} a forced win, {uneven} more than {margin} from even",
        kept.len(),
        100.0 * rejected as f64 / judged.max(1) as f64
    );
    if kept.is_empty() {
        anyhow::bail!(
            "no opening was judged even: raise --eval-judge-margin, or try --method random with a larger --radius"
        );
    }
    if kept.len() < config.count {
        eprintln!("note: only {} even openings among all the generator holds; {} asked for", kept.len(), config.count);
    }
    let mut text = format!(
        "# evotune opening suite: one opening per line, record notation\n# judged by `{judge}`, within {margin} of even; \
         each line's comment: the judge's evaluation for Black\n",
        judge = args.eval_judge.as_deref().unwrap_or_default()
    );
    for (o, e) in &kept {
        text.push_str(&format!("{}  # {e}\n", o.join(" ")));
    }
    write_output(args.output.as_deref(), &text)
}
