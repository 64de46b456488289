//! `evotune play`: the engine on the competition protocol (stdin/stdout).

use anyhow::Result;

use crate::cli::PlayArgs;
use crate::commands::default_limits;
use crate::game::connect::protocol::{self, ProtocolOptions};
use crate::game::connect::Rules;
use crate::player::load_weights;
use crate::search::Engine;

pub fn run(args: &PlayArgs) -> Result<()> {
    let (weights, _, eval) = load_weights(&args.weights, args.engine.eval, Rules::CONNECT6)?;
    let config = args.engine.engine_config(eval);
    let mut engine = Engine::new(config, &weights);
    let options = ProtocolOptions {
        name: args.name.clone(),
        limits: args.engine.limits_or(default_limits(config.search)),
        flip_rows: args.flip_rows,
        errors_to_stderr: args.errors_to_stderr,
        pad_single: !args.no_pad,
        verbose: args.verbose,
    };
    let (stdin, stdout, stderr) = (std::io::stdin(), std::io::stdout(), std::io::stderr());
    protocol::run(&mut engine, &options, stdin.lock(), stdout.lock(), stderr.lock())?;
    Ok(())
}
