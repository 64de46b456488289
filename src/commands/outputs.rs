//! Where the games of `match`, `selfplay` and `tournament` go: records (JSON lines), SGF and
//! Piskvork `.psq` files. Every file is created (and the game checked to have the format)
//! before the first game, so that a bad path fails at once rather than after an hour of play.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;

use crate::arena::formats::{to_psq, to_sgf, SgfGame};
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
        if files.sgf.is_some() || files.psq.is_some() {
            SgfGame::of(game.arena())?;
        }
        if files.psq.is_some() && game.name() != "gomoku" {
            anyhow::bail!("--psq: .psq files are Gomoku's (Piskvork); --sgf writes {} games", game.name());
        }
        let records = records.map(RecordWriter::create).transpose()?;
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
