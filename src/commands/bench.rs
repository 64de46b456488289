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
use crate::report::json;

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
    /// Print the results as one JSON document (docs/json.md) instead of the text lines.
    #[arg(long)]
    pub json: bool,
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
    let total_nodes: u64 = results.iter().map(|r| r.nodes).sum();
    let nps = (total_nodes as f64 / secs.max(1e-9)) as u64;
    let ms = (secs * 1e3).round() as u64;
    if args.json {
        let lines: Vec<json::BenchLine> = results
            .iter()
            .map(|r| json::BenchLine {
                best: &r.best,
                score: r.score,
                depth: r.depth,
                nodes: r.nodes,
                ms: r.elapsed.as_secs_f64() * 1e3,
            })
            .collect();
        let doc = json::bench_document(game.name(), args.search.name(), args.depth, &lines, total_nodes, nps, ms);
        print!("{}", json::to_text(&doc));
        return Ok(());
    }
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
    }
    println!("bench nodes {total_nodes} nps {nps} ms {ms}");
    Ok(())
}
