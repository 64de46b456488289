//! Where the games of `match`, `selfplay` and `tournament` go: records (JSON lines), SGF and
//! Piskvork `.psq` files. Every file is created (and the game checked to have the format)
//! before the first game, so that a bad path fails at once rather than after an hour of play.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context, Result};
use clap::Args;

use crate::arena::formats::{sgf_form, to_psq, to_sgf};
use crate::arena::records::{GameRecord, RecordWriter};
use crate::fsutil::{write_atomic, LineLog};
use crate::registry::GameRef;

/// The games in the formats other programs read.
#[derive(Args, Debug, Clone, Default)]
pub struct GameFileArgs {
    /// Write every game as SGF to this file, one game a line (an SGF collection): Gomoku as
    /// GM[4], Connect6 with Go's board and points (GM[1], RU[Connect6]); docs/records.md.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub sgf: Option<PathBuf>,
    /// Gomoku: write every game as a Piskvork .psq file into this folder (000001.psq, ...,
    /// in the order the games end).
    #[arg(long, value_name = "DIR", help_heading = "Output")]
    pub psq: Option<PathBuf>,
}

/// The open outputs of a command.
pub struct GameOutputs {
    game: GameRef,
    records: Option<RecordWriter>,
    sgf: Option<LineLog>,
    psq: Option<PathBuf>,
    written: usize,
}

impl GameOutputs {
    pub fn new(game: GameRef, records: Option<&Path>, files: &GameFileArgs) -> Result<GameOutputs> {
        let records = records.map(RecordWriter::create).transpose()?;
        GameOutputs::open(game, records, files)
    }

    /// The outputs of a match continued from its records at `path`: the file is rewritten
    /// (atomically) with the games `kept` (its whole pairs) and continued after them; the SGF
    /// and .psq files are written anew, starting with the kept games.
    pub fn continuing(game: GameRef, path: &Path, kept: &[GameRecord], files: &GameFileArgs) -> Result<GameOutputs> {
        let mut text = String::new();
        for r in kept {
            text += &serde_json::to_string(r).context("record to JSON")?;
            text.push('\n');
        }
        write_atomic(path, text.as_bytes()).with_context(|| format!("{}: cannot rewrite", path.display()))?;
        let mut outputs = GameOutputs::open(game, None, files)?;
        outputs.write_all(kept)?;
        outputs.records = Some(RecordWriter::resume(path, None)?);
        Ok(outputs)
    }

    fn open(game: GameRef, records: Option<RecordWriter>, files: &GameFileArgs) -> Result<GameOutputs> {
        let sgf = if files.sgf.is_some() || files.psq.is_some() { Some(sgf_form(game.arena())?) } else { None };
        if files.psq.is_some() && !sgf.is_some_and(|s| s.has_psq()) {
            anyhow::bail!("--psq: .psq files are Gomoku's (Piskvork); --sgf writes {} games", game.name());
        }
        let sgf = files
            .sgf
            .as_deref()
            .map(|p| LineLog::create(p).with_context(|| format!("{}: cannot create", p.display())))
            .transpose()?;
        if let Some(dir) = &files.psq {
            std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create the folder", dir.display()))?;
        }
        Ok(GameOutputs { game, records, sgf, psq: files.psq.clone(), written: 0 })
    }

    /// Writes one finished game to every output.
    pub fn write(&mut self, g: &GameRecord) -> Result<()> {
        self.write_all(std::slice::from_ref(g))
    }

    /// Writes finished games in their order (to the records in one append).
    pub fn write_all(&mut self, games: &[GameRecord]) -> Result<()> {
        if let Some(w) = &mut self.records {
            w.write_all(games)?;
        }
        for g in games {
            self.written += 1;
            if let Some(log) = &mut self.sgf {
                let line = to_sgf(g, self.game.arena())?;
                log.append(&format!("{line}\n")).with_context(|| format!("{}: write failed", log.path().display()))?;
            }
            if let Some(dir) = &self.psq {
                let path = dir.join(format!("{:06}.psq", self.written));
                write_atomic(&path, to_psq(g, self.game.arena())?.as_bytes())
                    .with_context(|| format!("{}: write failed", path.display()))?;
            }
        }
        Ok(())
    }
}

/// A command's outputs shared with the games in flight ([`crate::arena::game::play_games_with`]
/// hands each game over as it ends): a game is written as soon as every game scheduled
/// before it is, so the files keep the schedule's order whatever the threads, and a crash
/// loses only the games still waiting for an earlier one. On Ctrl-C, [`Self::close`]
/// writes those too and stops the writing.
pub struct OrderedOutputs {
    state: Mutex<Ordered>,
}

struct Ordered {
    outputs: GameOutputs,
    /// The index of the next game to write.
    next: usize,
    /// Finished games waiting for an earlier one, by index.
    waiting: BTreeMap<usize, GameRecord>,
    /// Every game written, in the order written.
    written: Vec<(usize, GameRecord)>,
    /// The first write that failed (the games are played on, and the command reports it).
    error: Option<anyhow::Error>,
    closed: bool,
}

impl OrderedOutputs {
    pub fn new(outputs: GameOutputs) -> OrderedOutputs {
        OrderedOutputs {
            state: Mutex::new(Ordered {
                outputs,
                next: 0,
                waiting: BTreeMap::new(),
                written: Vec::new(),
                error: None,
                closed: false,
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Ordered> {
        // A panic on another thread ends the command; what was written stands.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Game `index` of the schedule has ended.
    pub fn finished(&self, index: usize, record: &GameRecord) {
        let mut s = self.lock();
        if s.closed {
            return;
        }
        s.waiting.insert(index, record.clone());
        loop {
            let next = s.next;
            let Some(r) = s.waiting.remove(&next) else { break };
            s.write(next, r);
            s.next += 1;
        }
    }

    /// Writes the finished games still waiting for an earlier one, stops all writing and
    /// returns every game written with its index (a Ctrl-C's standings count them).
    pub fn close(&self) -> Vec<(usize, GameRecord)> {
        let mut s = self.lock();
        for (k, r) in std::mem::take(&mut s.waiting) {
            s.write(k, r);
        }
        s.closed = true;
        s.written.clone()
    }

    /// The first write that failed, if one did.
    pub fn check(&self) -> Result<()> {
        match self.lock().error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

impl Ordered {
    fn write(&mut self, index: usize, r: GameRecord) {
        if self.error.is_none() {
            if let Err(e) = self.outputs.write(&r) {
                self.error = Some(e);
                return;
            }
        }
        self.written.push((index, r));
    }
}
