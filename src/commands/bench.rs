//! `evotune bench`: fixed positions, fixed depth, default weights. The node total is a
//! deterministic signature of the search: quote it in commits that change search behaviour.

use anyhow::{anyhow, bail, Result};
use clap::Args;

use crate::arena::player::Player;
use crate::commands::args::GameArg;
use crate::core::game::split_moves;
use crate::core::limits::Limits;
use crate::core::settings::EngineOption;
use crate::core::settings::{EngineSettings, SearchKind};

#[derive(Args, Debug)]
pub struct BenchArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// Depth of every bench search.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: u32,
    /// Search algorithm to bench.
    #[arg(long, value_enum, default_value_t = SearchKind::Pvs)]
    pub search: SearchKind,
    /// Evaluation to bench (default: the game's default evaluation).
    #[arg(long)]
    pub eval: Option<String>,
    /// Any other engine option, as `[engine]` names it: `--engine horizon_wins=false`
    /// benches the search without that feature (repeatable; options as `match --a-engine`).
    #[arg(long, value_name = "KEY=VALUE")]
    pub engine: Vec<EngineOption>,
}

pub fn run(args: &BenchArgs) -> Result<()> {
    let game = args.game.get()?;
    let evaluation = match &args.eval {
        Some(name) => game.evaluation(name)?,
        None => game.default_evaluation(),
    };
    let positions: Vec<Vec<String>> =
        game.bench_positions().iter().map(|p| split_moves(p).into_iter().map(str::to_string).collect()).collect();
    if positions.is_empty() {
        bail!("{} has no bench positions", game.name());
    }
    let limits = match args.search {
        SearchKind::Mcts => Limits::nodes(1000 * u64::from(args.depth)),
        _ => Limits::depth(args.depth),
    };
    let mut settings =
        EngineSettings { search: args.search, eval: Some(evaluation.name.into()), ..EngineSettings::default() };
    for option in &args.engine {
        option.apply(&mut settings).map_err(|e| anyhow!("--engine {e}"))?;
    }
    let player = Player::new("bench", evaluation.schema.defaults(), settings, limits);
    let (results, wall) = game.search_positions(&player, &positions, &limits).map_err(|e| anyhow!("bench {e}"))?;
    let secs = wall.as_secs_f64();
    let mut total_nodes = 0u64;
    for (i, r) in results.iter().enumerate() {
        println!(
            "position {:>2}  best {:<8} score {:>11}  depth {:>2}  nodes {:>9}  {:>8.1} ms",
            i + 1,
            r.best,
            r.score,
            r.depth,
            r.nodes,
            r.elapsed.as_secs_f64() * 1e3
        );
        total_nodes += r.nodes;
    }
    println!(
        "bench nodes {} nps {} ms {}",
        total_nodes,
        (total_nodes as f64 / secs.max(1e-9)) as u64,
        (secs * 1e3).round() as u64
    );
    Ok(())
}
