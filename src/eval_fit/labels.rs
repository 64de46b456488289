//! Labelled positions: the positions of recorded games, each with an outside engine's
//! evaluation, kept in a file of JSON lines that grows as the engine judges them, so that a
//! long labelling run can stop and go on where it stopped.
//!
//! One line a position: `{"moves":["h8","i9","j10"],"eval":"+186"}`, the moves from the
//! start in record notation and the judge's evaluation for the side to move as it printed it
//! (`-74`, or a forced result `+M12` / `-M9`); `"eval":null` when it printed none. Blank lines
//! are skipped.

use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use crate::arena::eval_judge::{Eval, Judge};
use crate::arena::outside::EngineSpec;
use crate::arena::records::read_records_with_lines;
use crate::fsutil::LineLog;
use crate::registry::GameRef;
use crate::report::progress::Progress;

/// One position and its judge's verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub moves: Vec<String>,
    /// For the side to move; None when the judge printed no evaluation.
    pub eval: Option<Eval>,
}

/// A label line as it is written.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct LabelLine {
    moves: Vec<String>,
    eval: Option<String>,
}

impl Label {
    /// The line of the file (with its newline).
    pub fn to_line(&self) -> String {
        let line = LabelLine { moves: self.moves.clone(), eval: self.eval.map(|e| e.to_string()) };
        let mut text = serde_json::to_string(&line).expect("a label is plain JSON");
        text.push('\n');
        text
    }

    /// A line of the file, or what is wrong with it.
    pub fn parse(line: &str) -> Result<Label, String> {
        let parsed: LabelLine = serde_json::from_str(line).map_err(|e| {
            format!(
                "expected a label, {{\"moves\":[\"h8\",\"i9\"],\"eval\":\"+186\"}} (eval a score, +M12/-M9 or null): {e}"
            )
        })?;
        let eval = match &parsed.eval {
            None => None,
            Some(text) => Some(Eval::parse(text).ok_or_else(|| {
                format!("eval `{text}`: expected a score (-74, +186), a forced result (+M12, -M9) or null")
            })?),
        };
        Ok(Label { moves: parsed.moves, eval })
    }
}

/// Every label of a file, checked to be legal positions of `game`. An error names the file,
/// the line and what was expected there.
pub fn read_labels(path: &Path, game: GameRef) -> Result<Vec<Label>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("{}: cannot read", path.display()))?;
    let mut labels = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = |e: String| anyhow::anyhow!("{}:{}: {e}", path.display(), i + 1);
        let label = Label::parse(line).map_err(at)?;
        game.quiet_for_static(&label.moves).map_err(|e| at(format!("not a position of {}: {e}", game.name())))?;
        labels.push(label);
    }
    Ok(labels)
}

/// The key that makes two positions the same: equal up to the board's symmetries (the
/// openings' key), or the moves themselves where the game gives no key.
pub fn position_key(game: GameRef, moves: &[String]) -> Vec<u32> {
    match game.opening_key(moves) {
        Ok(key) => key,
        Err(_) => {
            let text = moves.join(" ");
            text.bytes().map(u32::from).collect()
        }
    }
}

/// What the records gave.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Harvest {
    pub games: usize,
    /// Positions after the openings, before anything was left out.
    pub seen: usize,
    /// Positions left out as tactical or over ([`AnyGame::quiet_for_static`](crate::registry::AnyGame)).
    pub tactical: usize,
    /// Positions met before (up to symmetry), in these records or the labels.
    pub repeated: usize,
}

/// The positions of the games in `files` (`match --records` files) worth labelling: every
/// position from the end of the opening on, less those a static evaluation cannot judge
/// (tactical, over) and those already met (up to symmetry) or in `known` (keys of labelled
/// positions). In the records' order. A record that is not one, or not of `game`, is an
/// error naming its file and line.
pub fn positions_to_label(
    game: GameRef,
    files: &[std::path::PathBuf],
    known: &mut HashSet<Vec<u32>>,
) -> Result<(Vec<Vec<String>>, Harvest)> {
    let mut out = Vec::new();
    let mut h = Harvest::default();
    for f in files {
        for (line, record) in read_records_with_lines(f)? {
            if record.game != game.name() {
                bail!(
                    "{}:{line}: a record of {}, not {} (choose the game with --game)",
                    f.display(),
                    record.game,
                    game.name()
                );
            }
            game.check_record(&record).map_err(|e| anyhow::anyhow!("{}:{line}: {e}", f.display()))?;
            h.games += 1;
            let moves: Vec<String> = record.moves.iter().filter(|m| !m.starts_with('#')).cloned().collect();
            for end in record.opening_moves.min(moves.len())..=moves.len() {
                let position = &moves[..end];
                h.seen += 1;
                let quiet =
                    game.quiet_for_static(position).map_err(|e| anyhow::anyhow!("{}:{line}: {e}", f.display()))?;
                if !quiet {
                    h.tactical += 1;
                } else if !known.insert(position_key(game, position)) {
                    h.repeated += 1;
                } else {
                    out.push(position.to_vec());
                }
            }
        }
    }
    Ok((out, h))
}

/// Asks `threads` judges (each a process of `spec`, `think_ms` a position) for the
/// evaluation of each of `positions` and appends each verdict to `log` as it comes (the order
/// of the lines then depends on the judges' speed; the verdicts do not when the judge has a
/// node budget). Stops at the first error, with everything judged before it kept.
pub fn label_positions(
    spec: &EngineSpec,
    think_ms: u64,
    threads: usize,
    positions: &[Vec<String>],
    log: &mut LineLog,
    progress: &Progress,
) -> Result<usize> {
    let next = AtomicUsize::new(0);
    let (send, receive) = mpsc::channel::<Result<Label, String>>();
    let mut written = 0;
    let mut failure: Option<anyhow::Error> = None;
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let send = send.clone();
            let next = &next;
            scope.spawn(move || {
                let judge = match Judge::start(spec.clone(), think_ms) {
                    Ok(j) => j,
                    Err(e) => {
                        let _ = send.send(Err(format!("the judge did not start: {e}")));
                        return;
                    }
                };
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(moves) = positions.get(i) else { return };
                    let verdict = judge.eval(moves).map(|eval| Label { moves: moves.clone(), eval }).map_err(|e| {
                        format!("`{}`: {e} (the judge's log: {})", moves.join(" "), judge.log_path().display())
                    });
                    let failed = verdict.is_err();
                    if send.send(verdict).is_err() || failed {
                        return;
                    }
                }
            });
        }
        drop(send);
        for verdict in receive {
            match verdict {
                Ok(label) => {
                    if let Err(e) = log.append(&label.to_line()) {
                        failure.get_or_insert(anyhow::anyhow!("{}: cannot write: {e}", log.path().display()));
                        next.store(positions.len(), Ordering::Relaxed);
                        continue;
                    }
                    written += 1;
                    progress.inc(1);
                }
                Err(e) => {
                    failure.get_or_insert(anyhow::anyhow!("--judge: {e}"));
                    // The other judges finish the position they hold and stop.
                    next.store(positions.len(), Ordering::Relaxed);
                }
            }
        }
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(written),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;

    #[test]
    fn a_label_line_round_trips() {
        for eval in [Some(Eval::Score(-74)), Some(Eval::Score(186)), Some(Eval::Mate { wins: false, plies: 9 }), None] {
            let label = Label { moves: vec!["h8".into(), "i9".into()], eval };
            let line = label.to_line();
            assert!(line.ends_with('\n'));
            assert_eq!(Label::parse(line.trim_end()).unwrap(), label);
        }
    }

    #[test]
    fn a_bad_label_line_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("labels.jsonl");
        let good = Label { moves: vec!["h8".into(), "i9".into()], eval: Some(Eval::Score(3)) }.to_line();
        for (bad, expected) in [
            ("{\"moves\":[\"h8\"],\"eval\":\"lots\"}", "eval `lots`: expected a score"),
            ("{\"moves\":[\"h8\"]", "expected a label"),
            ("{\"moves\":[\"h8\"],\"eval\":\"1\",\"x\":1}", "expected a label"),
            ("{\"moves\":[\"h8\",\"h8\"],\"eval\":\"1\"}", "not a position of gomoku"),
        ] {
            std::fs::write(&path, format!("{good}\n{bad}\n")).unwrap();
            let e = read_labels(&path, registry::GOMOKU).unwrap_err().to_string();
            assert!(e.starts_with(&format!("{}:3: ", path.display())), "{e}");
            assert!(e.contains(expected), "{e}");
        }
        std::fs::write(&path, &good).unwrap();
        assert_eq!(read_labels(&path, registry::GOMOKU).unwrap().len(), 1);
    }

    #[test]
    fn positions_are_taken_after_the_opening_without_fours_or_repeats() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.jsonl");
        // Black makes a four with its 4th stone (h8 i8 j8 k8) and wins.
        let moves = ["h8", "h9", "i8", "i9", "j8", "j9", "k8", "a1", "l8"];
        let record = crate::arena::records::GameRecord {
            moves: moves.map(String::from).to_vec(),
            opening_moves: 2,
            result: crate::arena::records::Outcome::First,
            reason: crate::arena::records::Reason::rule("five"),
            ..crate::arena::records::GameRecord::start("gomoku", "a", "b", &[], 0)
        };
        let line = serde_json::to_string(&record).unwrap();
        std::fs::write(&path, format!("{line}\n{line}\n")).unwrap();
        let mut known = HashSet::new();
        let (positions, h) = positions_to_label(registry::GOMOKU, std::slice::from_ref(&path), &mut known).unwrap();
        // After 2..=9 moves: 8 positions a game; those after 7 and 8 moves hold a four, the
        // last is over; the second game repeats the first.
        assert_eq!(h, Harvest { games: 2, seen: 16, tactical: 6, repeated: 5 });
        assert_eq!(positions.iter().map(|p| p.len()).collect::<Vec<_>>(), [2, 3, 4, 5, 6]);
        std::fs::write(&path, format!("{line}\nnot json\n")).unwrap();
        let e = positions_to_label(registry::GOMOKU, std::slice::from_ref(&path), &mut HashSet::new()).unwrap_err();
        assert!(format!("{e:#}").contains(&format!("{}:2:", path.display())), "{e:#}");
    }
}
