//! `evotune play`: the engine on its game's protocol (stdin/stdout): the competition protocol
//! for Connect6, Gomocup's pbrain protocol for Gomoku, the line protocol for Surakarta and
//! EinStein. By default it plays the best table shipped for the game under a time control:
//! [`DEFAULT_MOVE_MS`] a move, or in Gomoku the manager's `INFO` times.

use anyhow::Result;
use clap::Args;

use crate::commands::args::GameArg;
use crate::core::limits::Limits;
use crate::core::settings::EngineSettings;
use crate::games::ProtocolOptions;
use crate::player::player_from;
use crate::registry::GameRef;

/// The time of a move when neither `--depth`, `--nodes` nor `--time-ms` is given (and in
/// Gomoku the manager gives no time either).
pub use crate::games::DEFAULT_MOVE_MS;

/// `evotune play`'s arguments; its help is the command's entry in [`crate::cli::Command`].
#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// Weight file, run folder, or a built-in table: `best` (the best shipped for the game:
    /// Connect6 weights/connect6-versus-cloudict.toml, Gomoku
    /// weights/gomoku-cell-pairs-fitted.toml, the others their hand table; with an `--eval`
    /// of another schema, its hand table), `defaults` (the hand table), `random:SEED`.
    #[arg(long, default_value = "best")]
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
    /// Connect6: the same comment on stdout, just before the move (as Cloudict prints its
    /// search's), where `fit-eval --judge` reads an engine's score.
    #[arg(long)]
    pub verbose_stdout: bool,
}

pub fn run(args: &PlayArgs) -> Result<()> {
    let game = args.game.get()?;
    let player = player_from(&args.weights, &args.engine, game)?;
    let options = ProtocolOptions {
        name: args.name.clone(),
        limits: play_limits(args.engine.limits(), game),
        flip_rows: args.flip_rows,
        errors_to_stderr: args.errors_to_stderr,
        pad_single: !args.no_pad,
        verbose: args.verbose,
        verbose_stdout: args.verbose_stdout,
    };
    let (stdin, stdout, stderr) = (std::io::stdin(), std::io::stdout(), std::io::stderr());
    // The error stream is unbuffered: a comment written in pieces would be a write each,
    // which a referee logging it pays for in every game. Whole lines, one write each.
    let mut err = std::io::LineWriter::new(stderr.lock());
    game.play_protocol(&player, &options, &mut stdin.lock(), &mut stdout.lock(), &mut err)?;
    Ok(())
}

/// The limits `play` searches with: the user's, or [`DEFAULT_MOVE_MS`] a move. A protocol with
/// a clock of its own (Gomoku's) gets the user's as they are, and keeps to the manager's times
/// (or the default).
pub fn play_limits(user: Limits, game: GameRef) -> Limits {
    if user.is_unlimited() && !game.protocol_keeps_time() {
        Limits::time_ms(DEFAULT_MOVE_MS)
    } else {
        user
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::{CONNECT6, EINSTEIN, GOMOKU};

    #[test]
    fn play_moves_in_a_second_unless_told_otherwise() {
        assert_eq!(play_limits(Limits::default(), CONNECT6), Limits::time_ms(1000));
        assert_eq!(play_limits(Limits::default(), EINSTEIN), Limits::time_ms(1000));
        assert_eq!(play_limits(Limits::depth(3), CONNECT6), Limits::depth(3));
        // Gomoku's time is the manager's (crate::games::gomoku::pbrain::move_limits).
        assert_eq!(play_limits(Limits::default(), GOMOKU), Limits::default());
    }
}
