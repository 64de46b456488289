//! `evotune openings`: write a generated opening suite.

use anyhow::{Context, Result};

use crate::arena::openings::{Keys, OpeningConfig, OpeningSuite};
use crate::cli::OpeningsArgs;
use crate::report::progress::Progress;

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
    match &args.output {
        Some(p) => crate::fsutil::write_atomic(p, suite.to_text().as_bytes())
            .with_context(|| format!("{}: cannot write", p.display()))?,
        None => print!("{}", suite.to_text()),
    }
    Ok(())
}
