//! `evotune compare`: match records of several players against one opponent on the same
//! openings, paired by opening: each file's score and the difference of each NEW file from
//! BASE with a 95% interval (docs/records.md).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use serde::Serialize;

use crate::arena::compare::{check_game, compare, games_of, sides, ColourWdl, Comparison, PlayerGames, RecordFile};
use crate::arena::records::read_records_with_lines;
use crate::report::table::{Align, Table};
use crate::stats::Wdl;

/// Formats of `compare`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CompareFormat {
    /// A table with notes.
    Text,
    /// One line per row of the table, numbers only (percentages and percentage points).
    Csv,
    /// The rows as a JSON array (an unbounded interval end is null).
    Json,
}

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// The records (JSON lines) the others are compared with.
    #[arg(value_name = "BASE.jsonl")]
    pub base: PathBuf,
    /// Records of the players to compare with BASE, against the same opponent on the same
    /// openings (none: BASE's scores alone).
    #[arg(value_name = "NEW.jsonl", num_args = 0..)]
    pub new: Vec<PathBuf>,
    /// The player to compare in each file: once for every file, or once per file in order
    /// (BASE first). Default: the file's one player who is not the opponent.
    #[arg(long, value_name = "NAME")]
    pub player: Vec<String>,
    /// The opponent of every file's games. Default: the one player found in every file.
    #[arg(long, value_name = "NAME")]
    pub opponent: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CompareFormat::Text)]
    pub format: CompareFormat,
}

pub fn run(args: &CompareArgs) -> Result<()> {
    let paths: Vec<&Path> = std::iter::once(args.base.as_path()).chain(args.new.iter().map(|p| p.as_path())).collect();
    let files = paths
        .iter()
        .map(|p| Ok(RecordFile { name: p.display().to_string(), records: read_records_with_lines(p)? }))
        .collect::<Result<Vec<_>>>()?;
    print!("{}", report(&files, &args.player, args.opponent.as_deref(), args.format)?);
    Ok(())
}

/// The comparison of the files (the first is BASE) in `format`.
pub fn report(
    files: &[RecordFile],
    players: &[String],
    opponent: Option<&str>,
    format: CompareFormat,
) -> Result<String> {
    check_game(files)?;
    let (opponent, players) = sides(files, players, opponent)?;
    let games =
        files.iter().zip(&players).map(|(f, p)| games_of(f, p, &opponent)).collect::<Result<Vec<PlayerGames>>>()?;
    let (base, news) = games.split_first().context("no records file")?;
    let mut rows = Vec::new();
    if news.is_empty() {
        // BASE alone: its row on all its openings, without a difference.
        rows.push(Row::of(base, &opponent, &compare(base, base)?, None));
    }
    let mut last_base = None;
    for new in news {
        let c = compare(base, new)?;
        if c.diff.openings() == 0 {
            bail!(
                "{} and {} have no opening in common with the same number of games ({} only in {}, {} only in {}, \
                 {} with a different number of games)",
                new.file,
                base.file,
                c.left_out.only_base,
                base.file,
                c.left_out.only_new,
                new.file,
                c.left_out.games_differ
            );
        }
        // BASE's row again only when its openings in common differ from the last NEW file's.
        let base_row = Row::of(base, &opponent, &c, None);
        if last_base.as_ref() != Some(&base_row) {
            last_base = Some(base_row.clone());
            rows.push(base_row);
        }
        rows.push(Row::of(new, &opponent, &c, Some(&base.file)));
    }
    let notes = notes(base, news, &rows);
    Ok(match format {
        CompareFormat::Text => text(&opponent, &rows, &notes),
        CompareFormat::Csv => {
            let mut w = csv::Writer::from_writer(Vec::new());
            for r in &rows {
                w.serialize(r)?;
            }
            String::from_utf8(w.into_inner().map_err(|e| anyhow::anyhow!("cannot finish the CSV: {e}"))?)?
        }
        CompareFormat::Json => serde_json::to_string_pretty(&rows)? + "\n",
    })
}

/// One file's line of the output: its results on the openings of one comparison, and, for a
/// NEW file, the difference from BASE. Percentages and percentage points.
#[derive(Clone, Debug, PartialEq, Serialize)]
struct Row {
    file: String,
    player: String,
    opponent: String,
    /// The BASE file, for a NEW file's row.
    compared_with: Option<String>,
    openings: usize,
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    score: f64,
    first_games: u64,
    first_score: Option<f64>,
    second_games: u64,
    second_score: Option<f64>,
    diff: Option<f64>,
    error95: Option<f64>,
    low95: Option<f64>,
    high95: Option<f64>,
    z: Option<f64>,
    better: Option<usize>,
    worse: Option<usize>,
    same: Option<usize>,
    only_in_base: Option<usize>,
    only_in_new: Option<usize>,
    games_differ: Option<usize>,
}

impl Row {
    fn of(games: &PlayerGames, opponent: &str, c: &Comparison, base: Option<&str>) -> Row {
        let results: ColourWdl = if base.is_some() { c.new } else { c.base };
        let total = results.total();
        let score = |w: Wdl| (w.games() > 0).then(|| 100.0 * w.score());
        let new = |v: f64| base.map(|_| v);
        let (low, high) = c.diff.ci95();
        let changes = c.diff.changes();
        Row {
            file: games.file.clone(),
            player: games.player.clone(),
            opponent: opponent.to_string(),
            compared_with: base.map(str::to_string),
            openings: c.diff.openings(),
            games: total.games(),
            wins: total.wins,
            draws: total.draws,
            losses: total.losses,
            score: 100.0 * total.score(),
            first_games: results.first.games(),
            first_score: score(results.first),
            second_games: results.second.games(),
            second_score: score(results.second),
            diff: new(100.0 * c.diff.mean()),
            error95: new(100.0 * c.diff.error95()),
            low95: new(100.0 * low),
            high95: new(100.0 * high),
            z: new(c.diff.z()),
            better: base.map(|_| changes.better),
            worse: base.map(|_| changes.worse),
            same: base.map(|_| changes.same),
            only_in_base: base.map(|_| c.left_out.only_base),
            only_in_new: base.map(|_| c.left_out.only_new),
            games_differ: base.map(|_| c.left_out.games_differ),
        }
    }
}

/// What was paired and left out, and how to read the numbers.
fn notes(base: &PlayerGames, news: &[PlayerGames], rows: &[Row]) -> Vec<String> {
    let mut notes = Vec::new();
    for r in rows.iter().filter(|r| r.compared_with.is_some()) {
        let parts: Vec<String> = [
            (r.only_in_base, format!("only in {}", base.file)),
            (r.only_in_new, format!("only in {}", r.file)),
            (r.games_differ, "with a different number of games".to_string()),
        ]
        .into_iter()
        .filter_map(|(n, why)| n.filter(|&n| n > 0).map(|n| format!("{n} {why}")))
        .collect();
        let left_out =
            if parts.is_empty() { "none left out".to_string() } else { format!("left out {}", parts.join(", ")) };
        notes.push(format!("{} vs {}: {} openings paired, {left_out}", r.file, base.file, r.openings));
    }
    for g in std::iter::once(base).chain(news).filter(|g| g.skipped > 0) {
        notes.push(format!("{}: {} games between other players not counted", g.file, g.skipped));
    }
    if news.is_empty() {
        return notes;
    }
    notes.push(format!(
        "diff: the score minus {}'s on the openings paired, in percentage points; z: diff in standard errors",
        base.file
    ));
    notes.push("95% interval (±): Student's t over the per-opening differences".to_string());
    notes.push(format!("+/-/=: the openings on which the file scored more than {}, less, the same", base.file));
    notes
}

fn text(opponent: &str, rows: &[Row], notes: &[String]) -> String {
    let pct = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.1}%"));
    let mut t = Table::new(
        format!("Against {opponent}, paired by opening"),
        &[
            "file",
            "player",
            "openings",
            "games",
            "W-D-L",
            "score",
            "as first",
            "as second",
            "diff",
            "95% interval",
            "z",
            "+/-/=",
        ],
    );
    t.set_align(1, Align::Left);
    for (i, r) in rows.iter().enumerate() {
        if i > 0 && r.compared_with.is_none() {
            // BASE again, on other openings in common: a new group.
            t.row(Vec::new());
        }
        let mut cells = vec![
            r.file.clone(),
            r.player.clone(),
            r.openings.to_string(),
            r.games.to_string(),
            format!("{}-{}-{}", r.wins, r.draws, r.losses),
            pct(Some(r.score)),
            pct(r.first_score),
            pct(r.second_score),
        ];
        if let (Some(d), Some(e), Some(lo), Some(hi), Some(z)) = (r.diff, r.error95, r.low95, r.high95, r.z) {
            cells.push(format!("{d:+.1} ± {e:.1}"));
            cells.push(format!("{lo:+.1} .. {hi:+.1}"));
            cells.push(format!("{z:+.2}"));
            cells.push(format!("{}/{}/{}", r.better.unwrap_or(0), r.worse.unwrap_or(0), r.same.unwrap_or(0)));
        }
        t.row(cells);
    }
    for n in notes {
        t.note(n.clone());
    }
    t.to_text()
}
