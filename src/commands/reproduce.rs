//! `evotune reproduce <paper>`: one of the papers' experiments at the quick setting (minutes)
//! or the paper's sizes (`--full`), its tables printed and written under `--out`.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Result};

use crate::cli::{Paper, ReproduceArgs};
use crate::commands::thread_pool;
use crate::core::limits::Limits;
use crate::report::progress::{format_duration, ProgressMode};
use crate::reproduce::{li2007, li2015, song2022, wang2021, Setup};

pub fn run(args: &ReproduceArgs) -> Result<()> {
    let start = Instant::now();
    let name = paper_name(args.paper);
    if args.run.is_some() && args.paper != Paper::Li2007 {
        bail!("--run applies to li2007 only (the run whose champions it compares)");
    }
    if args.time_ms.is_some() && matches!(args.paper, Paper::Li2007 | Paper::Song2022) {
        bail!("--time-ms applies to wang2021 and li2015; li2007 plays with its run's engine settings, song2022 with playouts");
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
