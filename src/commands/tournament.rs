//! `evotune tournament`: a round robin of weight files and built-in players with a score table
//! in Li Guo 2007's style (+1 / −1 / 0) and a Bradley–Terry rating table.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args;

use crate::arena::player::Player;
use crate::arena::tournament::{play_tournament, TournamentConfig, TournamentReport};
use crate::commands::args::{GameArg, OpeningArgs};
use crate::commands::outputs::{GameFileArgs, GameOutputs, OrderedOutputs};
use crate::commands::{check_table_memory, clocked, openings_from, own_engines, thread_pool, CLI_TT_MIB};
use crate::core::settings::EngineSettings;
use crate::player::player_from;
use crate::registry::EngineReferee;
use crate::report::progress::ProgressMode;

#[derive(Args, Debug)]
pub struct TournamentArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// Players: weight files or built-in names (`defaults`, `random`, `random:SEED`), or
    /// outside engines `cmd:COMMAND[;protocol=P][;dir=DIR][;init=LINE]...[;log=FILE]` (one
    /// argument: quote it); `NAME=SPEC` sets the name shown in the tables.
    #[arg(required = true, num_args = 2..)]
    pub players: Vec<String>,
    /// Game pairs per pairing (colours swapped within a pair).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..))]
    pub pairs: u64,
    #[command(flatten)]
    pub engine: EngineSettings,
    #[command(flatten)]
    pub openings: OpeningArgs,
    /// Worker threads (default: all cores; at most 4 a core and 1024 in all; their engines' tables
    /// must fit in the memory available, checked before any game).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Write every game as a JSON line to this file.
    #[arg(long, help_heading = "Output")]
    pub records: Option<PathBuf>,
    #[command(flatten)]
    pub files: GameFileArgs,
    /// Print the standings and pairings as one JSON document on stdout (docs/json.md)
    /// instead of the tables, which go to stderr.
    #[arg(long, help_heading = "Output")]
    pub json: bool,
    /// Write the score and rating tables (CSV and Markdown) into this folder.
    #[arg(long, help_heading = "Output")]
    pub out: Option<PathBuf>,
    /// Seed (game seeds derive from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

pub fn run(args: &TournamentArgs) -> Result<()> {
    let game = args.game.get()?;
    let mut players = args
        .players
        .iter()
        .enumerate()
        .map(|(k, spec)| {
            player_from(spec, &clocked(&args.engine, &args.openings), game)
                .with_context(|| format!("player {} (`{spec}`)", k + 1))
        })
        .collect::<Result<Vec<Player>>>()?;
    unique_names(&mut players);
    let (suite, settings) = openings_from(&args.openings, game, args.pairs as usize)?;
    let everyone: Vec<&Player> = players.iter().collect();
    crate::commands::matches::ready_outside(&everyone, &suite.openings, &settings)?;
    let outputs = Arc::new(OrderedOutputs::new(GameOutputs::new(game, args.records.as_deref(), &args.files)?));
    let pool = thread_pool(args.threads)?;
    check_table_memory(pool.current_num_threads(), &own_engines(&everyone), CLI_TT_MIB)?;
    let config = TournamentConfig { pairs: args.pairs as usize, seed: args.seed };
    let referee = EngineReferee { game, settings };
    on_ctrl_c(&players, &config, &outputs, args);
    let report = pool.install(|| {
        play_tournament(&referee, &players, &suite, &config, ProgressMode::Auto, &|k, g| outputs.finished(k, g))
    })?;
    outputs.check()?;
    let mut text = format!("{}\n{}", report.score_table().to_text(), report.rating_table().to_text());
    for line in crate::arena::player::outside_summaries(&everyone) {
        text += &format!("{line}\n");
    }
    if let Some(out) = &args.out {
        for f in write_tables(&report, out)? {
            text += &format!("wrote {}\n", f.display());
        }
    }
    if args.json {
        eprint!("{text}");
        print!("{}", crate::report::json::to_text(&report.json_document()));
    } else {
        print!("{text}");
    }
    Ok(())
}

/// On Ctrl-C (or SIGTERM, SIGHUP): the finished games are written, the score and rating
/// tables of the whole pairs so far printed (with `--json`, the document marked
/// `"interrupted": true`), and the process exits with status 130, its outside engines killed.
fn on_ctrl_c(players: &[Player], config: &TournamentConfig, outputs: &Arc<OrderedOutputs>, args: &TournamentArgs) {
    let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
    let (pairs, outputs, json) = (config.pairs, outputs.clone(), args.json);
    let records = args.records.clone();
    crate::interrupt::on_signal(move |_| {
        let written = outputs.close();
        let report = TournamentReport::so_far(names.clone(), pairs, &written);
        eprintln!(
            "\ninterrupted: {} games finished; the standings of the {} whole pairs:",
            written.len(),
            report.games() / 2 + report.aborted() / 2
        );
        if json {
            let mut doc = report.json_document();
            doc["interrupted"] = serde_json::Value::Bool(true);
            print!("{}", crate::report::json::to_text(&doc));
        } else {
            print!("{}\n{}", report.score_table().to_text(), report.rating_table().to_text());
        }
        match &records {
            Some(path) => eprintln!("records {} hold them", path.display()),
            None => eprintln!("(without --records the games are not kept)"),
        }
        let _ = std::io::stdout().flush();
        crate::interrupt::exit(crate::interrupt::EXIT_INTERRUPTED);
    });
}

/// `scores.csv/.md` and `ratings.csv/.md` in `out`.
pub fn write_tables(report: &TournamentReport, out: &Path) -> Result<Vec<std::path::PathBuf>> {
    let mut files = report.score_table().write(out, "scores")?;
    files.extend(report.rating_table().write(out, "ratings")?);
    Ok(files)
}

/// Makes display names unique (`defaults`, `defaults-2`, ...), since the tables are read by
/// name.
pub fn unique_names(players: &mut [Player]) {
    for i in 1..players.len() {
        if players[..i].iter().any(|p| p.name == players[i].name) {
            let base = players[i].name.clone();
            let n = (2..).find(|n| !players.iter().any(|p| p.name == format!("{base}-{n}"))).unwrap_or(2);
            players[i].name = format!("{base}-{n}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::openings::OpeningSuite;
    use crate::core::limits::Limits;
    use crate::core::settings::EngineSettings;
    use crate::games::connect::eval::CONNECT6_ROADS;
    use crate::registry::CONNECT6;

    #[test]
    fn duplicate_names_get_numbers() {
        let w = CONNECT6_ROADS.defaults();
        let p = |n: &str| Player::new(n, w.clone(), EngineSettings::default(), Limits::depth(1));
        let mut players = vec![p("defaults"), p("defaults"), p("x"), p("defaults")];
        unique_names(&mut players);
        let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["defaults", "defaults-2", "x", "defaults-3"]);
    }

    #[test]
    fn a_real_tiny_tournament_writes_its_tables() {
        let schema = &CONNECT6_ROADS;
        let config = EngineSettings { tt_mib: 1, ..EngineSettings::default() };
        let players = vec![
            Player::new("defaults", schema.defaults(), config.clone(), Limits::depth(1)),
            Player::new("random:1", crate::player::random_weights(schema, 1), config.clone(), Limits::depth(1)),
            Player::new("random:2", crate::player::random_weights(schema, 2), config, Limits::depth(1)),
        ];
        let suite = OpeningSuite::generate(CONNECT6, &Default::default(), 1).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let records = dir.path().join("games.jsonl");
        let referee = EngineReferee { game: CONNECT6, settings: Default::default() };
        let config = TournamentConfig { pairs: 1, seed: 1 };
        let writer = crate::arena::records::RecordWriter::create(&records).unwrap();
        let writer = std::sync::Mutex::new(writer);
        let report = play_tournament(&referee, &players, &suite, &config, ProgressMode::Hidden, &|_, g| {
            writer.lock().unwrap().write_all(std::slice::from_ref(g)).unwrap()
        })
        .unwrap();
        assert_eq!(report.games(), 6);
        assert_eq!(crate::arena::records::read_records(&records).unwrap().len(), 6);
        let files = write_tables(&report, dir.path()).unwrap();
        assert_eq!(files.len(), 4);
        assert!(std::fs::read_to_string(dir.path().join("ratings.md")).unwrap().contains("| defaults |"));
    }
}
