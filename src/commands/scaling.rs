//! `evotune scaling`: a GA run's trace replayed for more threads than this machine has
//! (`report::scaling`), and checked against other runs of the same config measured here.

use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::Args;

use crate::report::scaling::{
    generations, predict, predict_at, predict_cluster, predict_cluster_stolen, repeated, Cluster, GameClock,
    Generation, Measured, Order, Prediction,
};
use crate::report::trace;

#[derive(Args, Debug)]
pub struct ScalingArgs {
    /// The run: its results folder (results/<run>), its checkpoints (populations/<run>) or
    /// its trace.csv.
    pub run: PathBuf,
    /// Thread counts to predict, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,8,16,32,64,128,256")]
    pub threads: Vec<usize>,
    /// A game's recorded time to replay: `cpu` (what the game cost, whatever the load of
    /// the machine it was recorded on) or `wall` (as the run saw it).
    #[arg(long, value_enum, default_value = "cpu")]
    pub time: GameClock,
    /// The order of the games on the threads: `by-class` (as the executor hands them out on
    /// that many threads: the first game of each class of alike games, then the classes
    /// whose games took longest so far; traces from before classes: as recorded), `recorded`
    /// (the run's own order) or `longest` (longest first by their recorded times: the best
    /// any order could do).
    #[arg(long, value_enum, default_value = "by-class")]
    pub order: Order,
    /// Another run of the same config and seed (on other threads): its measured games a
    /// second beside this run's prediction for its threads. Repeatable.
    #[arg(long, value_name = "RUN")]
    pub against: Vec<PathBuf>,
    /// Also predict a cluster run (`--executor slurm|parallel`) with each generation split
    /// into this many shards, comma-separated: the games dealt to the shards class by class
    /// as the plan deals them, each shard handing its games out on --shard-threads threads
    /// as the one-machine executor does (long classes first), then taking games of the other
    /// shards that nobody has taken (work stealing: one pool, long classes first), the shards
    /// started in turn on --nodes machines. The barrier tail counts every core idle, the
    /// starts (--shard-start, --generation-start) included. The efficiency without stealing
    /// (each shard its fixed list) is printed beside it.
    #[arg(long, value_delimiter = ',')]
    pub shards: Vec<usize>,
    /// With --shards: the machines running shards at once (default: one a shard).
    #[arg(long)]
    pub nodes: Option<usize>,
    /// With --shards: each shard's threads (the cluster run's --threads).
    #[arg(long, default_value_t = 1)]
    pub shard_threads: usize,
    /// With --shards: seconds from a machine taking a shard to the shard's first game (the
    /// process's start, reading the plan, building the players, and writing its file at the
    /// end). Measured on one machine: 0.06 with `--executor parallel`, 0.15 under SLURM
    /// (docs/performance.md); 0 leaves it out.
    #[arg(long, value_name = "SECONDS", default_value_t = 0.0)]
    pub shard_start: f64,
    /// With --shards: seconds added to each generation with every core idle (writing the
    /// plan, starting the shards, seeing them end, gathering and checking their files,
    /// moving the generation's work folder aside). Measured on one machine: 0.33 with
    /// `--executor parallel`, 0.75 under an idle one-node SLURM (docs/performance.md); a busy
    /// site's queue adds its wait.
    #[arg(long, value_name = "SECONDS", default_value_t = 0.0)]
    pub generation_start: f64,
    /// With --shards: the efficiency to size a generation for. Beside each cluster row is
    /// the share of a generation the fixed costs (--shard-start, --generation-start) take,
    /// and how long a generation's games must last for the cluster to reach this efficiency.
    #[arg(long, value_name = "SHARE", default_value_t = 0.85)]
    pub efficiency: f64,
    /// Replay each generation as a config with K times the game pairs would play it (K times
    /// `[hall_of_fame] pairs`): each class of alike games K times over, as games on other
    /// openings. To size a cluster's generation from a short run of a smaller config.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub pairs_times: usize,
}

pub fn run(args: &ScalingArgs) -> Result<()> {
    if args.threads.contains(&0) {
        bail!("--threads: every count must be at least 1");
    }
    if args.shards.contains(&0) || args.nodes == Some(0) || args.shard_threads == 0 || args.pairs_times == 0 {
        bail!("--shards, --nodes, --shard-threads and --pairs-times must be at least 1");
    }
    if !(args.efficiency > 0.0 && args.efficiency < 1.0) {
        bail!("--efficiency {}: a share between 0 and 1 (0.85 is 85%)", args.efficiency);
    }
    for (name, value) in [("--shard-start", args.shard_start), ("--generation-start", args.generation_start)] {
        if !(value.is_finite() && value >= 0.0) {
            bail!("{name} {value}: seconds, 0 or more");
        }
    }
    let path = trace::find(&args.run)?;
    let gens = generations(&trace::read(&path)?);
    if gens.is_empty() {
        bail!(
            "{}: no generation played on this machine's threads (a cluster run's games are not timed)",
            path.display()
        );
    }
    print!("{}", describe(&path.display().to_string(), &gens, args.time));
    let gens = if args.pairs_times > 1 {
        let more = repeated(&gens, args.pairs_times);
        let per_gen = more.iter().map(|g| g.games.len()).sum::<usize>() / more.len();
        println!(
            "  replayed as {} times the game pairs: {per_gen} games a generation, each class of alike games {} times over",
            args.pairs_times, args.pairs_times
        );
        more
    } else {
        gens
    };
    println!();
    println!("predicted ({} game times, {} order):", clock_name(args.time), order_name(args.order));
    println!(
        "{:>8} {:>10} {:>9} {:>11} {:>13} {:>11}",
        "threads", "games/s", "speed-up", "efficiency", "barrier tail", "sequential"
    );
    let one = predict(&gens, 1, args.time, args.order);
    for &n in &args.threads {
        let p = predict(&gens, n, args.time, args.order);
        println!("{}", row(&p, &one));
    }
    if !args.shards.is_empty() {
        println!();
        println!(
            "predicted as a cluster run ({} game times; {} threads a shard, on {}; {} s a shard's start, {} s a \
             generation's):",
            clock_name(args.time),
            args.shard_threads,
            args.nodes.map_or("a machine a shard".to_string(), |n| format!("{n} machines")),
            args.shard_start,
            args.generation_start
        );
        println!(
            "{:>8} {:>8} {:>10} {:>9} {:>11} {:>13} {:>11} {:>13} {:>14} {:>12}",
            "shards",
            "cores",
            "games/s",
            "speed-up",
            "efficiency",
            "barrier tail",
            "sequential",
            "stolen a gen",
            "without steal",
            "fixed costs"
        );
        let mut sizes = Vec::new();
        for &shards in &args.shards {
            let nodes = args.nodes.unwrap_or(shards);
            let cluster = Cluster {
                shard_start: args.shard_start,
                generation_start: args.generation_start,
                ..Cluster::new(shards, args.shard_threads, nodes)
            };
            let (p, stolen) = predict_cluster_stolen(&gens, cluster, args.time);
            let fixed = predict_cluster(&gens, Cluster { steal: false, ..cluster }, args.time);
            let free = predict_cluster(&gens, Cluster::new(shards, args.shard_threads, nodes), args.time);
            let size = Sizing::of(&p, &free, gens.len(), args.efficiency);
            // `row` starts with the prediction's threads: the cluster's cores.
            println!(
                "{shards:>8} {} {stolen:>13.1} {:>13.1}% {:>11.1}%",
                row(&p, &one),
                100.0 * fixed.efficiency(),
                100.0 * size.fixed_share
            );
            sizes.push((shards, size));
        }
        if args.shard_start > 0.0 || args.generation_start > 0.0 {
            let work = one.one_thread_s / gens.len() as f64;
            for (shards, size) in sizes {
                println!("{}", size.line(shards, work, args.efficiency));
            }
        }
    }
    for other in &args.against {
        let path = trace::find(other)?;
        let theirs = generations(&trace::read(&path)?);
        if theirs.is_empty() {
            bail!("{}: no generation played on this machine's threads", path.display());
        }
        let m = Measured::of(&theirs);
        let p = predict(&gens, m.threads, args.time, args.order);
        // The other run replayed by its own times: how well the replay itself reproduces it.
        let own = predict(&theirs, m.threads, GameClock::Wall, Order::Recorded);
        println!();
        print!("{}", describe(&path.display().to_string(), &theirs, args.time));
        let off = |x: f64| 100.0 * (x / m.games_per_s() - 1.0);
        println!(
            "  measured {:.1} games/s on {} threads; predicted from {}: {:.1} on free cores ({:+.1}%)",
            m.games_per_s(),
            m.threads,
            args.run.display(),
            p.games_per_s(),
            off(p.games_per_s()),
        );
        if let Some(share) = m.ran {
            let loaded = predict_at(&gens, m.threads, args.time, args.order, share);
            println!(
                "  predicted at its load ({:.0}% of a core a thread): {:.1} games/s ({:+.1}%)",
                100.0 * share,
                loaded.games_per_s(),
                off(loaded.games_per_s())
            );
        }
        println!(
            "  its own game wall times replayed on {} threads: {:.1} games/s ({:+.1}%)",
            m.threads,
            own.games_per_s(),
            off(own.games_per_s())
        );
    }
    Ok(())
}

/// A cluster row's fixed costs against its generation, and the generation it would take to
/// reach an efficiency (a generation's time on the cores, fixed costs and all, a generation
/// of the same games without them, and the efficiency without them).
struct Sizing {
    /// Fixed costs a generation (seconds): the prediction with them less the one without.
    fixed_s: f64,
    /// Their share of a generation's predicted time.
    fixed_share: f64,
    /// A generation's time without them, and the efficiency then (the order's losses only).
    free_s: f64,
    free_efficiency: f64,
    /// How long a generation's games must last on the cluster for `efficiency`, the fixed
    /// costs as they are (None: not even without fixed costs).
    needed_s: Option<f64>,
}

impl Sizing {
    fn of(with: &Prediction, without: &Prediction, gens: usize, efficiency: f64) -> Sizing {
        let gens = gens.max(1) as f64;
        let fixed_s = ((with.wall_s - without.wall_s) / gens).max(0.0);
        let free_s = without.wall_s / gens;
        let free_efficiency = without.efficiency();
        // Efficiency with fixed costs F on games lasting T: e0 T / (T + F), e0 the efficiency
        // without them; it reaches `efficiency` from T = F e / (e0 - e).
        let needed_s = (free_efficiency > efficiency).then(|| fixed_s * efficiency / (free_efficiency - efficiency));
        Sizing { fixed_s, fixed_share: fixed_s / (with.wall_s / gens).max(1e-12), free_s, free_efficiency, needed_s }
    }

    /// What the row says about the generation's length; `work` is a generation's seconds on
    /// one core.
    fn line(&self, shards: usize, work: f64, efficiency: f64) -> String {
        let head = format!(
            "{shards:>8} shards: fixed costs are {:.1}% of this generation ({:.2} s of {:.2} s a generation;",
            100.0 * self.fixed_share,
            self.fixed_s,
            self.free_s + self.fixed_s
        );
        match self.needed_s {
            Some(t) => {
                let times = t / self.free_s.max(1e-12);
                format!(
                    "{head} its games last {:.2} s). For {:.0}%: games lasting {:.1} s a generation on these cores, \
                     about {:.0} CPU-seconds of games ({:.1}x this generation's {:.0})",
                    self.free_s,
                    100.0 * efficiency,
                    t,
                    work * times,
                    times,
                    work
                )
            }
            None => format!(
                "{head} its games last {:.2} s). {:.0}% is out of reach at any length: {:.1}% without fixed costs",
                self.free_s,
                100.0 * efficiency,
                100.0 * self.free_efficiency
            ),
        }
    }
}

/// What a trace holds and what its run measured.
fn describe(name: &str, gens: &[Generation], clock: GameClock) -> String {
    let m = Measured::of(gens);
    let times: Vec<f64> = gens
        .iter()
        .flat_map(|g| &g.games)
        .map(|t| match clock {
            GameClock::Cpu => t.cpu_s,
            GameClock::Wall => t.wall_s,
        })
        .collect();
    let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
    let longest = times.iter().copied().fold(0.0, f64::max);
    let sequential = gens.iter().map(|g| g.sequential(clock)).sum::<f64>() / gens.len() as f64;
    let per_gen = m.games as f64 / gens.len() as f64;
    format!(
        "{name}: {} generations, {} games ({per_gen:.0} a generation), played on {} threads\n  \
         game {} time: mean {:.1} ms, longest {:.1} ms; sequential phases {:.1} ms a generation\n  \
         measured: {:.1} games/s ({:.1} over the games alone); threads in games {:.1}% of the games' time; \
         each thread had {} of a core (below 100%: the machine was loaded){}\n",
        gens.len(),
        m.games,
        m.threads,
        clock_name(clock),
        1e3 * mean,
        1e3 * longest,
        1e3 * sequential,
        m.games_per_s(),
        m.games as f64 / m.games_wall_s.max(1e-12),
        100.0 * m.busy,
        match m.ran {
            Some(r) => format!("{:.0}%", 100.0 * r),
            None => format!("about {:.0}%", 100.0 * m.cpu_share),
        },
        match m.cpu_efficiency {
            Some(e) => format!(
                "\n  CPU accounting: {:.1}% of the CPU time the threads had during the games went into games",
                100.0 * e
            ),
            None => String::new(),
        },
    )
}

fn row(p: &Prediction, one: &Prediction) -> String {
    format!(
        "{:>8} {:>10.1} {:>8.2}x {:>10.1}% {:>12.1}% {:>10.1}%",
        p.threads,
        p.games_per_s(),
        one.wall_s / p.wall_s.max(1e-12),
        100.0 * p.efficiency(),
        100.0 * p.tail_loss(),
        100.0 * p.sequential_loss()
    )
}

fn clock_name(c: GameClock) -> &'static str {
    match c {
        GameClock::Cpu => "cpu",
        GameClock::Wall => "wall",
    }
}

fn order_name(o: Order) -> &'static str {
    match o {
        Order::Recorded => "recorded",
        Order::Longest => "longest-first",
        Order::ByClass => "by-class",
    }
}
