//! Game records: one JSON object per line (`docs/records.md`); `formats` writes them for
//! other programs (SGF, .psq).
//!
//! A record names the first and the second player (in Connect6 and Gomoku Black moves first),
//! the result from their side (`first`, `second`, `draw`) and why the game ended, in the
//! game's own words (`six`, `five`, `full`) or the arena's (`movecap`, `illegal`, ...).
//! Records written before the sides were named (`black`, `white`, `black_ms`, ...) still read.

use std::borrow::Cow;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::core::game::Side;
use crate::fsutil::LineLog;

/// Who won a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    #[serde(alias = "black")]
    First,
    #[serde(alias = "white")]
    Second,
    Draw,
}

impl Outcome {
    /// The result of a game won by `side`.
    pub fn win_of(side: Side) -> Outcome {
        match side {
            Side::First => Outcome::First,
            Side::Second => Outcome::Second,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The game's own end, in its words: `six` (Connect6), `five` (Gomoku), `full` (a board
    /// without a free cell), ...
    Rule(Cow<'static, str>),
    Adjudicated,
    /// Adjudicated: both searches agreed for long enough that one side was lost.
    Resign,
    /// A player's move was refused (an outside engine's also for a reply that is not a move).
    Illegal,
    /// A player ran out of time (an outside engine also when it did not answer at all).
    Timeout,
    /// An outside engine ended (exited, was killed by a signal, closed its output) in a game.
    Crash,
    /// The game reached the turn cap and was scored a draw.
    Movecap,
    /// The referee ended the game because its exchange with an outside engine failed outside
    /// a move (an acknowledgement that never came, a game the protocol cannot describe, a
    /// game that could not start): nobody lost on the board, and the game is left out of
    /// every score. Its result is written as a draw.
    Aborted,
}

impl Reason {
    /// A game's own end reason.
    pub const fn rule(word: &'static str) -> Reason {
        Reason::Rule(Cow::Borrowed(word))
    }

    /// The word records write.
    pub fn as_str(&self) -> &str {
        match self {
            Reason::Rule(w) => w,
            Reason::Adjudicated => "adjudicated",
            Reason::Resign => "resign",
            Reason::Illegal => "illegal",
            Reason::Timeout => "timeout",
            Reason::Crash => "crash",
            Reason::Movecap => "movecap",
            Reason::Aborted => "aborted",
        }
    }

    /// Whether a game that ended so counts in scores: every end but `aborted`.
    pub fn is_scored(&self) -> bool {
        *self != Reason::Aborted
    }

    fn from_word(w: &str) -> Reason {
        match w {
            "adjudicated" => Reason::Adjudicated,
            "resign" => Reason::Resign,
            "illegal" => Reason::Illegal,
            "timeout" => Reason::Timeout,
            "crash" => Reason::Crash,
            "movecap" => Reason::Movecap,
            "aborted" => Reason::Aborted,
            other => Reason::Rule(Cow::Owned(other.to_string())),
        }
    }
}

impl Serialize for Reason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Reason {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Reason, D::Error> {
        let w = String::deserialize(d)?;
        if w.is_empty() {
            return Err(serde::de::Error::custom("an empty end reason"));
        }
        Ok(Reason::from_word(&w))
    }
}

/// One game, as written to `.jsonl` record files.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub game: String,
    /// The player who moved first (Black in Connect6 and Gomoku).
    #[serde(alias = "black")]
    pub first: String,
    #[serde(alias = "white")]
    pub second: String,
    /// Every move from the start in record notation, opening moves included.
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
    #[serde(default, skip_serializing_if = "Option::is_none", alias = "black_engine")]
    pub first_engine: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none", alias = "white_engine")]
    pub second_engine: Option<String>,
    /// Thinking time of each side in milliseconds.
    #[serde(default, alias = "black_ms")]
    pub first_ms: u64,
    #[serde(default, alias = "white_ms")]
    pub second_ms: u64,
    /// evotune version that played the game.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub version: String,
}

impl GameRecord {
    /// The record of a game between two named players from an opening, before any engine
    /// move: a draw by the move cap until the referee says otherwise. Mock referees in tests
    /// set `result` and `reason` and return it as it is.
    pub fn start(game: &str, first: &str, second: &str, opening: &[String], seed: u64) -> GameRecord {
        GameRecord {
            game: game.into(),
            first: first.into(),
            second: second.into(),
            moves: opening.to_vec(),
            result: Outcome::Draw,
            reason: Reason::Movecap,
            opening_moves: opening.len(),
            opening: None,
            seed: Some(seed),
            first_engine: None,
            second_engine: None,
            first_ms: 0,
            second_ms: 0,
            version: env!("CARGO_PKG_VERSION").into(),
        }
    }

    /// Whether the game counts in scores (it was not aborted by the referee).
    pub fn is_scored(&self) -> bool {
        self.reason.is_scored()
    }

    /// Total thinking time of the game in milliseconds.
    pub fn ms(&self) -> u64 {
        self.first_ms + self.second_ms
    }

    /// The name of the player of a side.
    pub fn player(&self, side: Side) -> &str {
        match side {
            Side::First => &self.first,
            Side::Second => &self.second,
        }
    }
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
    Ok(read_records_with_lines(path)?.into_iter().map(|(_, r)| r).collect())
}

/// Reads a `.jsonl` record file with each record's line number (1-based; blank lines are
/// skipped), for messages about a record; errors name the file and line.
pub fn read_records_with_lines(path: &Path) -> anyhow::Result<Vec<(usize, GameRecord)>> {
    use anyhow::Context;
    let text = std::fs::read_to_string(path).with_context(|| format!("{}: cannot read", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let record =
                serde_json::from_str(l).with_context(|| format!("{}:{}: not a game record", path.display(), i + 1))?;
            Ok((i + 1, record))
        })
        .collect()
}

#[cfg(test)]
mod tests;
