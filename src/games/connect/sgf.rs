//! How SGF knows a game of stones on a grid (Connect6, Gomoku): its game number, its rules, its
//! board, and the stones of a move. The records are written in `arena::formats`.

use crate::games::connect::board::Rules;
use crate::games::connect::notation::parse_record_move;

/// A game's form in SGF.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SgfGame {
    /// The `GM` number.
    pub number: u32,
    /// `RU`, where `GM` alone does not say which game it is.
    pub rules: Option<&'static str>,
    /// The board and what a move is.
    pub board: Rules,
}

impl SgfGame {
    /// SGF's number of Gomoku and Renju, whose games Piskvork's `.psq` files hold too.
    pub const GOMOKU_NUMBER: u32 = 4;

    /// Whether Piskvork's `.psq` files hold the game's records (Gomoku's family).
    pub fn has_psq(&self) -> bool {
        self.number == SgfGame::GOMOKU_NUMBER
    }

    /// Columns and rows.
    pub fn size(&self) -> (usize, usize) {
        (self.board.width as usize, self.board.height as usize)
    }

    /// The stones of a move in record notation as (column, row from the top), both from 0.
    pub fn stones(&self, text: &str) -> Option<Vec<(usize, usize)>> {
        let (w, h) = self.size();
        let cells = parse_record_move(self.board, text).ok()?;
        Some(cells.into_iter().map(|c| (c as usize % w, h - 1 - c as usize / w)).collect())
    }
}
