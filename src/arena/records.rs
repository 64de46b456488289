//! Game records (`protocols.md`, "Game records"): one JSON object per line, and an SGF export
//! in Little Golem form.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::fsutil::LineLog;
use crate::game::connect::notation::parse_record_move;
use crate::game::connect::{Board, Colour, Rules};

/// Who won a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Black,
    White,
    Draw,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Reason {
    /// k in a row in Connect6 (the record says `six`).
    Six,
    /// k in a row in Gomoku.
    Five,
    /// The board filled up.
    Full,
    Adjudicated,
    Resign,
    Illegal,
    Timeout,
    /// The game reached the turn cap and was scored a draw.
    Movecap,
}

/// One game, as written to `.jsonl` record files.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub game: String,
    pub black: String,
    pub white: String,
    /// Every move from the empty board in record notation, opening moves included.
    pub moves: Vec<String>,
    pub result: Outcome,
    pub reason: Reason,
    /// How many of `moves` came from the opening rather than the players.
    #[serde(default)]
    pub opening_moves: usize,
    /// Index of the opening in its suite.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<usize>,
    /// The seed the game was played with (MCTS playouts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Search budgets, e.g. `pvs roads depth 3`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_engine: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_engine: Option<String>,
    /// Thinking time of each side in milliseconds.
    #[serde(default)]
    pub black_ms: u64,
    #[serde(default)]
    pub white_ms: u64,
    /// evotune version that played the game.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub version: String,
}

impl GameRecord {
    /// The record of a game between two named players from an opening, before any engine
    /// move: a draw by the move cap until the referee says otherwise. Mock referees in tests
    /// set `result` and `reason` and return it as it is.
    pub fn start(game: &str, black: &str, white: &str, opening: &[String], seed: u64) -> GameRecord {
        GameRecord {
            game: game.into(),
            black: black.into(),
            white: white.into(),
            moves: opening.to_vec(),
            result: Outcome::Draw,
            reason: Reason::Movecap,
            opening_moves: opening.len(),
            opening: None,
            seed: Some(seed),
            black_engine: None,
            white_engine: None,
            black_ms: 0,
            white_ms: 0,
            version: env!("CARGO_PKG_VERSION").into(),
        }
    }

    /// Total thinking time of the game in milliseconds.
    pub fn ms(&self) -> u64 {
        self.black_ms + self.white_ms
    }

    /// The game in Little Golem SGF: `(;FF[4]GM[Connect6]PB[..]PW[..];B[j10];W[j9l11])`.
    pub fn to_sgf(&self) -> String {
        let gm = match self.game.as_str() {
            "connect6" => "Connect6".to_string(),
            "gomoku" => "Gomoku".to_string(),
            other => other.to_string(),
        };
        let re = match self.result {
            Outcome::Black => "B+",
            Outcome::White => "W+",
            Outcome::Draw => "0",
        };
        let mut s = format!("(;FF[4]GM[{gm}]PB[{}]PW[{}]RE[{re}]", sgf_escape(&self.black), sgf_escape(&self.white));
        let rules = Rules::for_game(&self.game).unwrap_or(Rules::CONNECT6);
        let mut stones = 0;
        for m in &self.moves {
            let colour = Board::colour_of_stone(rules, stones);
            s.push_str(if colour == Colour::Black { ";B[" } else { ";W[" });
            s.push_str(m);
            s.push(']');
            stones += parse_record_move(rules, m).map(|v| v.len()).unwrap_or(1);
        }
        s.push(')');
        s
    }
}

fn sgf_escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// Writes records to a `.jsonl` file, one line each, straight to the file so that a crash
/// loses at most the games in flight. A write that fails (a full disk) is cut back whole:
/// the file never ends in half a line.
pub struct RecordWriter {
    log: LineLog,
}

impl RecordWriter {
    /// Creates (truncates) the file; missing folders are created.
    pub fn create(path: &Path) -> anyhow::Result<RecordWriter> {
        use anyhow::Context;
        let log = LineLog::create(path).with_context(|| format!("{}: cannot create", path.display()))?;
        Ok(RecordWriter { log })
    }

    /// Opens the file to continue it after its first `len` bytes (where a resumed run's
    /// checkpoint says its records end); anything past them is cut off. `None`: the whole
    /// file is kept.
    pub fn resume(path: &Path, len: Option<u64>) -> anyhow::Result<RecordWriter> {
        use anyhow::Context;
        let log =
            LineLog::resume(path, len).with_context(|| format!("{}: cannot continue the records", path.display()))?;
        Ok(RecordWriter { log })
    }

    pub fn write(&mut self, record: &GameRecord) -> anyhow::Result<()> {
        self.write_all(std::slice::from_ref(record))
    }

    /// Writes the records in one append: all of them, or none.
    pub fn write_all(&mut self, records: &[GameRecord]) -> anyhow::Result<()> {
        use anyhow::Context;
        let mut text = String::new();
        for r in records {
            text.push_str(&serde_json::to_string(r).context("record to JSON")?);
            text.push('\n');
        }
        self.log.append(&text).with_context(|| format!("{}: write failed", self.log.path().display()))
    }

    /// Flushes the records to disk; returns the file's length in bytes.
    pub fn sync(&self) -> anyhow::Result<u64> {
        use anyhow::Context;
        self.log.sync().with_context(|| format!("{}: cannot flush to disk", self.log.path().display()))?;
        Ok(self.log.len())
    }
}

/// Reads a `.jsonl` record file; errors name the file and line.
pub fn read_records(path: &Path) -> anyhow::Result<Vec<GameRecord>> {
    use anyhow::Context;
    let text = std::fs::read_to_string(path).with_context(|| format!("{}: cannot read", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).with_context(|| format!("{}:{}: not a game record", path.display(), i + 1))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameRecord {
        GameRecord {
            game: "connect6".into(),
            black: "champion-g300".into(),
            white: "hand".into(),
            moves: vec!["j10".into(), "j9l11".into(), "k9l8".into()],
            result: Outcome::Black,
            reason: Reason::Six,
            opening_moves: 1,
            opening: Some(3),
            seed: Some(9),
            black_engine: None,
            white_engine: None,
            black_ms: 5,
            white_ms: 7,
            version: String::new(),
        }
    }

    #[test]
    fn json_has_the_required_fields() {
        let text = serde_json::to_string(&sample()).unwrap();
        for field in [
            r#""game":"connect6""#,
            r#""black":"champion-g300""#,
            r#""white":"hand""#,
            r#""moves":["j10","j9l11","k9l8"]"#,
            r#""result":"black""#,
            r#""reason":"six""#,
        ] {
            assert!(text.contains(field), "{field} missing in {text}");
        }
        let back: GameRecord = serde_json::from_str(&text).unwrap();
        assert_eq!(back, sample());
    }

    #[test]
    fn sgf_in_little_golem_form() {
        assert_eq!(sample().to_sgf(), "(;FF[4]GM[Connect6]PB[champion-g300]PW[hand]RE[B+];B[j10];W[j9l11];B[k9l8])");
    }

    #[test]
    fn writer_and_reader_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a/games.jsonl");
        let mut w = RecordWriter::create(&p).unwrap();
        w.write(&sample()).unwrap();
        w.write(&sample()).unwrap();
        drop(w);
        assert_eq!(read_records(&p).unwrap().len(), 2);
        std::fs::write(&p, "{\"game\": 1}\n").unwrap();
        let e = read_records(&p).unwrap_err().to_string();
        assert!(e.contains("games.jsonl:1"), "{e}");
    }
}
