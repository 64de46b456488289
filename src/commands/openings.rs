//! `evotune openings`: write a generated opening suite.

use anyhow::{Context, Result};

use crate::arena::openings::{OpeningConfig, OpeningSuite};
use crate::cli::OpeningsArgs;
use crate::game::connect::Rules;

pub fn run(args: &OpeningsArgs) -> Result<()> {
    anyhow::ensure!(args.count >= 1 && args.turns >= 1, "--count and --turns must be at least 1");
    let config = OpeningConfig {
        count: args.count,
        turns: args.turns,
        method: args.method,
        top: args.top,
        balance: args.balance,
        ..OpeningConfig::default()
    };
    let suite = OpeningSuite::generate(Rules::CONNECT6, &config, args.seed);
    if suite.len() < args.count {
        eprintln!("only {} distinct balanced openings found", suite.len());
    }
    match &args.output {
        Some(p) => crate::fsutil::write_atomic(p, suite.to_text().as_bytes())
            .with_context(|| format!("{}: cannot write", p.display()))?,
        None => print!("{}", suite.to_text()),
    }
    Ok(())
}
