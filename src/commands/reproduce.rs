//! `evotune reproduce <paper>`: one of the papers' experiments at the quick setting (minutes)
//! or the paper's sizes (`--full`), its tables printed and written under `--out`.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};

use crate::commands::args::GameArg;
use crate::commands::thread_pool;
use crate::core::limits::Limits;
use crate::report::progress::{format_duration, ProgressMode};
use crate::reproduce::{li2007, li2015, song2022, wang2021, Setup};

/// The papers' experiments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Paper {
    /// Li Guo 2007, Fig. 1: generation champions and random players in a round robin.
    Li2007,
    /// Wang Hongfei 2021: roads vs patterns, PVS vs alpha-beta, PVS vs UCT at equal time.
    Wang2021,
    /// Li Xuejun 2015: local (incremental) vs global road scanning.
    Li2015,
    /// Song Yingjian 2022: hybrid-evaluation MCTS vs plain MCTS in EinStein würfelt nicht,
    /// 5000 playouts, dice-paired games, in evotune's UCT and in the paper's flat Monte Carlo,
    /// each with the full evaluation pruning the playouts and with its lean (riskless, table)
    /// version; every design at equal playouts and at equal time.
    Song2022,
}

#[derive(Args, Debug)]
pub struct ReproduceArgs {
    /// The game: each experiment plays its paper's game (song2022 EinStein, the others
    /// Connect6), whatever this says.
    #[command(flatten)]
    pub game: GameArg,
    /// Which experiment.
    #[arg(value_enum)]
    pub paper: Paper,
    /// The paper's sizes (hours) instead of the quick setting (minutes).
    #[arg(long)]
    pub full: bool,
    /// li2007: the run whose champions to use (a results/<run> folder); default: run
    /// configs/li2007.toml (or its quick version) first.
    #[arg(long)]
    pub run: Option<PathBuf>,
    /// Folder for tables and plots (default results/reproduce-<paper>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Worker threads (default: all cores; at most 4 a core and 1024 in all).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Override the experiment's game pairs per pairing.
    #[arg(long)]
    pub pairs: Option<u64>,
    /// Override the time per move in milliseconds (wang2021, li2015).
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// wang2021: every player with evotune's threat-space search at the root and the
    /// refutation checks of the root moves, which the paper's engines do not have (without
    /// this flag no player has them).
    #[arg(long)]
    pub root_checks: bool,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

pub fn run(args: &ReproduceArgs) -> Result<()> {
    let start = Instant::now();
    let name = paper_name(args.paper);
    if args.run.is_some() && args.paper != Paper::Li2007 {
        bail!("--run applies to li2007 only (the run whose champions it compares)");
    }
    if args.time_ms.is_some() && matches!(args.paper, Paper::Li2007 | Paper::Song2022) {
        bail!("--time-ms applies to wang2021 and li2015; li2007 plays with its run's engine settings, song2022 with playouts");
    }
    if args.root_checks && args.paper != Paper::Wang2021 {
        bail!("--root-checks applies to wang2021 only");
    }
    if args.pairs == Some(0) || args.time_ms == Some(0) {
        bail!("--pairs and --time-ms must be at least 1");
    }
    let out = args.out.clone().unwrap_or_else(|| PathBuf::from("results").join(format!("reproduce-{name}")));
    let setup = Setup { out: out.clone(), seed: args.seed, mode: ProgressMode::Auto };
    let pool = thread_pool(args.threads)?;
    let setting = if args.full { "full (the paper's sizes)" } else { "quick (--full for the paper's sizes)" };
    eprintln!("reproduce {name}, {setting}, on {} threads, into {}", pool.current_num_threads(), out.display());
    let pairs = args.pairs.map(|p| p as usize);
    let report = pool.install(|| match args.paper {
        Paper::Li2007 => {
            let mut o = if args.full { li2007::Options::full()? } else { li2007::Options::quick()? };
            o.run = args.run.clone();
            if let Some(p) = pairs {
                o.pairs = p;
            }
            li2007::run(&o, &setup)
        }
        Paper::Wang2021 => {
            let mut o = if args.full { wang2021::Options::full() } else { wang2021::Options::quick() };
            if let Some(p) = pairs {
                o.pairs = p;
            }
            if let Some(t) = args.time_ms {
                o.limits = Limits::time_ms(t);
            }
            o.root_checks = args.root_checks;
            wang2021::run(&o, &setup)
        }
        Paper::Li2015 => {
            let mut o = if args.full { li2015::Options::full() } else { li2015::Options::quick() };
            if let Some(p) = pairs {
                o.pairs = p;
            }
            if let Some(t) = args.time_ms {
                o.time_ms = t;
                o.match_limits = Limits::time_ms(t);
            }
            li2015::run(&o, &setup)
        }
        Paper::Song2022 => {
            let mut o = if args.full { song2022::Options::full() } else { song2022::Options::quick() };
            if let Some(p) = pairs {
                o.pairs = p;
            }
            song2022::run(&o, &setup)
        }
    })?;
    print!("{}", report.to_text());
    for f in &report.files {
        println!("wrote {}", f.display());
    }
    println!("wall time {}", format_duration(start.elapsed()));
    Ok(())
}

fn paper_name(p: Paper) -> &'static str {
    match p {
        Paper::Li2007 => "li2007",
        Paper::Wang2021 => "wang2021",
        Paper::Li2015 => "li2015",
        Paper::Song2022 => "song2022",
    }
}
