//! `evotune bestmove`: one search from a position given as record moves.

use anyhow::{anyhow, Result};
use clap::Args;

use crate::commands::args::GameArg;
use crate::core::game::split_moves;
use crate::core::settings::EngineSettings;
use crate::player::player_from;

#[derive(Args, Debug)]
pub struct BestmoveArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// The game so far in record notation, moves separated by spaces: "j10 k11k9 ...".
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Weight file, run folder, or a built-in table: `best` (what `play` plays: the best
    /// shipped for the game, Connect6 weights/connect6-versus-cloudict.toml, Gomoku
    /// weights/gomoku-cell-pairs-fitted.toml, the others their hand table), `defaults` (the
    /// hand table), `random:SEED`.
    #[arg(long, default_value = "best")]
    pub weights: String,
    #[command(flatten)]
    pub engine: EngineSettings,
}

pub fn run(args: &BestmoveArgs) -> Result<()> {
    let game = args.game.get()?;
    let moves: Vec<String> = split_moves(&args.moves).into_iter().map(str::to_string).collect();
    let player = player_from(&args.weights, &args.engine, game)?;
    let (mut results, _) =
        game.search_positions(&player, &[moves], &player.limits()).map_err(|e| anyhow!("--moves: {e}"))?;
    let r = results.remove(0);
    println!("bestmove {}", r.best);
    let mate = r.mate_in.map(|n| format!(" mate {n}")).unwrap_or_default();
    let nps = r.nodes as f64 / r.elapsed.as_secs_f64().max(1e-9);
    println!(
        "info depth {} score {}{} nodes {} nps {:.0} ms {} pv {}",
        r.depth,
        r.score,
        mate,
        r.nodes,
        nps,
        r.elapsed.as_millis(),
        r.pv.join(" ")
    );
    Ok(())
}
