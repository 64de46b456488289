//! `evotune play`: the engine on its game's protocol (stdin/stdout): the competition protocol
//! for Connect6, Gomocup's pbrain protocol for Gomoku.

use anyhow::Result;
use clap::Args;

use crate::commands::args::GameArg;
use crate::core::settings::EngineSettings;
use crate::games::ProtocolOptions;
use crate::player::player_from;

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// Weight file, or `defaults`.
    #[arg(long, default_value = "defaults")]
    pub weights: String,
    #[command(flatten)]
    pub engine: EngineSettings,
    /// Connect6: rows counted from the top in competition notation (`'S' - y`), as some
    /// platforms do.
    #[arg(long)]
    pub flip_rows: bool,
    /// Write `error ...` replies to stderr instead of stdout.
    #[arg(long)]
    pub errors_to_stderr: bool,
    /// Connect6: write a one-stone move as `JJ` instead of `JJ@@`.
    #[arg(long)]
    pub no_pad: bool,
    /// The engine's name (`name?`, `ABOUT`).
    #[arg(long, default_value = "evotune")]
    pub name: String,
    /// After every search, a `# depth .. score .. nodes .. pv ..` comment on stderr.
    #[arg(long)]
    pub verbose: bool,
}

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
