//! `evotune openings`: write a generated opening suite.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use crate::arena::openings::{Keys, OpeningSuite};

use crate::commands::args::GameArg;
use crate::commands::write_output;
use crate::core::openings::{OpeningConfig, OpeningMethod, MAX_COUNT, MAX_TOP, MAX_TURNS};
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
    /// Seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output file (default stdout).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

pub fn run(args: &OpeningsArgs) -> Result<()> {
    let game = args.game.get()?.arena();
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
    let progress = Progress::background("openings", config.count as u64, "openings");
    let (suite, short) = OpeningSuite::generate_reporting(game, &config, args.seed, Some(&progress));
    progress.finish();
    match short {
        Some(s) if suite.is_empty() => anyhow::bail!("{}", s.message(Keys::CommandLine)),
        // Not an error: a suite of all the openings there are is still a good suite.
        Some(s) => eprintln!("note: {}", s.message(Keys::CommandLine)),
        None => {}
    }
    write_output(args.output.as_deref(), &suite.to_text())
}
