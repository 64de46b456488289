//! `evotune play`: the engine on its game's protocol (stdin/stdout): the competition protocol
//! for Connect6, Gomocup's pbrain protocol for Gomoku.

use anyhow::Result;

use crate::cli::PlayArgs;
use crate::games::ProtocolOptions;
use crate::player::player_from;

pub fn run(args: &PlayArgs) -> Result<()> {
    let game = args.game.get()?;
    let player = player_from(&args.weights, &args.engine, game)?;
    let options = ProtocolOptions {
        name: args.name.clone(),
        limits: player.limits(),
        flip_rows: args.flip_rows,
        errors_to_stderr: args.errors_to_stderr,
        pad_single: !args.no_pad,
        verbose: args.verbose,
    };
    let (stdin, stdout, stderr) = (std::io::stdin(), std::io::stdout(), std::io::stderr());
    game.play_protocol(&player, &options, &mut stdin.lock(), &mut stdout.lock(), &mut stderr.lock())?;
    Ok(())
}
