//! `evotune tournament`: a round robin of weight files and built-in players with a score table
//! in Li Guo 2007's style (+1 / −1 / 0) and a Bradley–Terry rating table.

use std::path::Path;

use anyhow::{Context, Result};

use crate::arena::game::{EngineReferee, Referee};
use crate::arena::openings::OpeningSuite;
use crate::arena::records::RecordWriter;
use crate::arena::tournament::{pairings, run_tournament, TournamentConfig, TournamentReport};
use crate::cli::TournamentArgs;
use crate::commands::{openings_from, player_from, thread_pool};
use crate::game::connect::Rules;
use crate::player::Player;
use crate::report::progress::{Progress, ProgressMode};

pub fn run(args: &TournamentArgs) -> Result<()> {
    let rules = Rules::CONNECT6;
    let mut players = args
        .players
        .iter()
        .enumerate()
        .map(|(k, spec)| player_from(spec, &args.engine, rules).with_context(|| format!("player {} (`{spec}`)", k + 1)))
        .collect::<Result<Vec<Player>>>()?;
    unique_names(&mut players);
    let (suite, settings) = openings_from(&args.openings, rules, args.pairs as usize)?;
    let pool = thread_pool(args.threads)?;
    let config = TournamentConfig { pairs: args.pairs as usize, seed: args.seed };
    let referee = EngineReferee { settings };
    let report = pool.install(|| {
        play_tournament(&referee, &players, &suite, &config, ProgressMode::Auto, args.records.as_deref())
    })?;
    print!("{}\n{}", report.score_table().to_text(), report.rating_table().to_text());
    if let Some(out) = &args.out {
        for f in write_tables(&report, out)? {
            println!("wrote {}", f.display());
        }
    }
    Ok(())
}

/// Plays a round robin on the current rayon pool with a progress bar, after a line saying
/// what will be played; writes the records file if asked. Shared with `reproduce`.
pub fn play_tournament(
    referee: &dyn Referee,
    players: &[Player],
    suite: &OpeningSuite,
    config: &TournamentConfig,
    mode: ProgressMode,
    records: Option<&Path>,
) -> Result<TournamentReport> {
    // Created before the games so that a bad path fails at once, not after an hour of play.
    let mut writer = records.map(RecordWriter::create).transpose()?;
    let n_pairings = pairings(players.len()).len();
    let games = 2 * config.pairs * n_pairings;
    if mode != ProgressMode::Hidden {
        eprintln!(
            "round robin of {} players: {} pairings x {} pair(s) = {} games from {} openings on {} threads",
            players.len(),
            n_pairings,
            config.pairs,
            games,
            (n_pairings * config.pairs).min(suite.len()),
            rayon::current_num_threads()
        );
        for p in players {
            eprintln!("  {}: {} {} {}", p.name, p.engine.search.name(), p.engine.eval.name(), p.limits.describe());
        }
    }
    let progress = Progress::new("games", games as u64, "games", mode);
    let (report, records) = run_tournament(referee, players, suite, config, &progress)?;
    progress.finish();
    if let Some(w) = &mut writer {
        w.write_all(&records)?;
    }
    Ok(report)
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
    use crate::game::connect::eval::EvalKind;
    use crate::search::{EngineConfig, Limits};

    #[test]
    fn duplicate_names_get_numbers() {
        let w = EvalKind::Roads.schema(Rules::CONNECT6).defaults();
        let p = |n: &str| Player::new(n, w.clone(), EngineConfig::default(), Limits::depth(1));
        let mut players = vec![p("defaults"), p("defaults"), p("x"), p("defaults")];
        unique_names(&mut players);
        let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["defaults", "defaults-2", "x", "defaults-3"]);
    }

    #[test]
    fn a_real_tiny_tournament_writes_its_tables() {
        let rules = Rules::CONNECT6;
        let schema = EvalKind::Roads.schema(rules);
        let config = EngineConfig { tt_mib: 1, ..EngineConfig::default() };
        let players = vec![
            Player::new("defaults", schema.defaults(), config, Limits::depth(1)),
            Player::new("random:1", crate::player::random_weights(schema, 1), config, Limits::depth(1)),
            Player::new("random:2", crate::player::random_weights(schema, 2), config, Limits::depth(1)),
        ];
        let suite = OpeningSuite::generate(rules, &Default::default(), 1).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let records = dir.path().join("games.jsonl");
        let referee = EngineReferee::default();
        let config = TournamentConfig { pairs: 1, seed: 1 };
        let report =
            play_tournament(&referee, &players, &suite, &config, ProgressMode::Hidden, Some(&records)).unwrap();
        assert_eq!(report.games(), 6);
        assert_eq!(crate::arena::records::read_records(&records).unwrap().len(), 6);
        let files = write_tables(&report, dir.path()).unwrap();
        assert_eq!(files.len(), 4);
        assert!(std::fs::read_to_string(dir.path().join("ratings.md")).unwrap().contains("| defaults |"));
    }
}
