//! Move notation, both ways (docs/notation.md):
//! - record notation (Little Golem style): `j10`, `j9l11` — column letter `a`.. (no letter is
//!   skipped), row number from 1 at the bottom;
//! - competition notation: two upper-case letters a stone, column `'A'+x`, row `'A'+y`
//!   (`JJ` is the centre), `@@` for "no second stone"; optionally rows counted from the top.

use super::board::{Board, Cell, Rules};

/// Why a piece of move text could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("empty move")]
    Empty,
    #[error("`{text}`: expected a column letter a-{last} at position {pos}")]
    BadColumn { text: String, pos: usize, last: char },
    #[error("`{text}`: expected a row number 1-{max} after the column letter at position {pos}")]
    BadRow { text: String, pos: usize, max: usize },
    #[error("`{text}`: expected pairs of letters A-{last} (or `@@` for no stone)")]
    BadCompetition { text: String, last: char },
    #[error("`{text}`: a move has {max} stone(s) at most")]
    TooManyStones { text: String, max: usize },
    /// The text is a move in the other notation: say so, and how to write it.
    #[error("`{text}` is {found} notation; {} notation ({}) writes it `{suggestion}`", .found.other(), .found.other().how())]
    OtherNotation { text: String, found: Notation, suggestion: String },
}

/// The two notations, for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notation {
    Record,
    Competition,
}

impl Notation {
    fn other(self) -> Notation {
        match self {
            Notation::Record => Notation::Competition,
            Notation::Competition => Notation::Record,
        }
    }

    fn how(self) -> &'static str {
        match self {
            Notation::Record => "a column letter and a row number from 1 per stone, e.g. j10k11",
            Notation::Competition => "two capital letters per stone, e.g. JJKK",
        }
    }
}

impl std::fmt::Display for Notation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Notation::Record => "record",
            Notation::Competition => "competition",
        })
    }
}

/// Writes one cell in record notation, e.g. `j10`.
pub fn cell_to_record(rules: Rules, c: Cell) -> String {
    let w = rules.width as usize;
    let (x, y) = (c as usize % w, c as usize / w);
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}

/// Writes a move (its stones) in record notation, e.g. `j9l11`.
pub fn move_to_record(rules: Rules, stones: &[Cell]) -> String {
    stones.iter().map(|&c| cell_to_record(rules, c)).collect()
}

/// Reads a move in record notation (upper or lower case) into its stones. A move written in
/// competition notation is refused with its record spelling.
pub fn parse_record_move(rules: Rules, text: &str) -> Result<Vec<Cell>, NotationError> {
    read_record(rules, text).map_err(|e| match read_competition(rules, text, false) {
        Ok(stones) => NotationError::OtherNotation {
            text: text.trim().into(),
            found: Notation::Competition,
            suggestion: move_to_record(rules, &stones),
        },
        Err(_) => e,
    })
}

fn read_record(rules: Rules, text: &str) -> Result<Vec<Cell>, NotationError> {
    let (w, h) = (rules.width as usize, rules.height as usize);
    let last = (b'a' + rules.width - 1) as char;
    let bytes = text.trim().as_bytes();
    if bytes.is_empty() {
        return Err(NotationError::Empty);
    }
    let mut stones = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let col = bytes[i].to_ascii_lowercase();
        if !col.is_ascii_lowercase() || (col - b'a') as usize >= w {
            return Err(NotationError::BadColumn { text: text.into(), pos: i + 1, last });
        }
        i += 1;
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() && i - start < 3 {
            i += 1;
        }
        let row: usize = std::str::from_utf8(&bytes[start..i])
            .ok()
            .and_then(|s| s.parse().ok())
            .filter(|&r| (1..=h).contains(&r) && bytes[start] != b'0')
            .ok_or_else(|| NotationError::BadRow { text: text.into(), pos: start + 1, max: h })?;
        stones.push(((col - b'a') as usize + (row - 1) * w) as Cell);
    }
    let max = rules.p.max(rules.q) as usize;
    if stones.len() > max {
        return Err(NotationError::TooManyStones { text: text.into(), max });
    }
    Ok(stones)
}

/// Writes a move in competition notation. A one-stone move gets `@@` when `pad` is set.
pub fn move_to_competition(rules: Rules, stones: &[Cell], flip_rows: bool, pad: bool) -> String {
    let w = rules.width as usize;
    let mut s = String::new();
    for &c in stones {
        let (x, mut y) = (c as usize % w, c as usize / w);
        if flip_rows {
            y = rules.height as usize - 1 - y;
        }
        s.push((b'A' + x as u8) as char);
        s.push((b'A' + y as u8) as char);
    }
    if pad && stones.len() == 1 && rules.p == 2 {
        s.push_str("@@");
    }
    s
}

/// Reads a move in competition notation (`JJ`, `JJ@@`, `JIKL`). A move written in record
/// notation is refused with its competition spelling.
pub fn parse_competition_move(rules: Rules, text: &str, flip_rows: bool) -> Result<Vec<Cell>, NotationError> {
    read_competition(rules, text, flip_rows).map_err(|e| match read_record(rules, text) {
        Ok(stones) => NotationError::OtherNotation {
            text: text.trim().into(),
            found: Notation::Record,
            suggestion: move_to_competition(rules, &stones, flip_rows, false),
        },
        Err(_) => e,
    })
}

fn read_competition(rules: Rules, text: &str, flip_rows: bool) -> Result<Vec<Cell>, NotationError> {
    let (w, h) = (rules.width as usize, rules.height as usize);
    let bad = || NotationError::BadCompetition {
        text: text.into(),
        last: (b'A' + rules.width.max(rules.height) - 1) as char,
    };
    let bytes = text.trim().as_bytes();
    if bytes.is_empty() {
        return Err(NotationError::Empty);
    }
    if !bytes.len().is_multiple_of(2) {
        return Err(bad());
    }
    let mut stones = Vec::new();
    for pair in bytes.chunks(2) {
        if pair == b"@@" {
            continue;
        }
        let (cx, cy) = (pair[0].to_ascii_uppercase(), pair[1].to_ascii_uppercase());
        if !cx.is_ascii_uppercase() || !cy.is_ascii_uppercase() {
            return Err(bad());
        }
        let (x, y) = ((cx - b'A') as usize, (cy - b'A') as usize);
        if x >= w || y >= h {
            return Err(bad());
        }
        let y = if flip_rows { h - 1 - y } else { y };
        stones.push((x + y * w) as Cell);
    }
    if stones.is_empty() {
        return Err(bad());
    }
    let max = rules.p.max(rules.q) as usize;
    if stones.len() > max {
        return Err(NotationError::TooManyStones { text: text.into(), max });
    }
    Ok(stones)
}

/// Why a sequence of record moves is not a legal game prefix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameTextError {
    /// The notation error names the text itself (and is not a `source`, which would print
    /// it a second time in an error chain).
    #[error("move {index}: {error}")]
    Notation { index: usize, text: String, error: NotationError },
    #[error("move {index} `{text}`: {reason}")]
    Illegal { index: usize, text: String, reason: String },
}

/// Plays a game given as record moves (e.g. `["j10", "k11k9"]`) from the empty board,
/// checking the turn structure: every move has exactly the stones its turn needs, except that
/// the last move of a won game may stop after its winning stone.
pub fn board_from_record_moves<S: AsRef<str>>(rules: Rules, moves: &[S]) -> Result<Board, GameTextError> {
    let mut board = Board::new(rules);
    for (i, m) in moves.iter().enumerate() {
        let text = m.as_ref();
        let stones = parse_record_move(rules, text).map_err(|error| GameTextError::Notation {
            index: i + 1,
            text: text.into(),
            error,
        })?;
        play_move(&mut board, &stones).map_err(|reason| GameTextError::Illegal {
            index: i + 1,
            text: text.into(),
            reason,
        })?;
    }
    Ok(board)
}

/// Plays one whole move (all stones of a turn) on the board, checking legality and the turn
/// structure. On error the board is unchanged.
pub fn play_move(board: &mut Board, stones: &[Cell]) -> Result<(), String> {
    if board.winner().is_some() {
        return Err("the game is already over".into());
    }
    if board.is_full() {
        return Err("the board is full".into());
    }
    let need = board.stones_left_in_turn();
    if board.turn_size() != need {
        return Err("a move must start at the beginning of a turn".into());
    }
    if stones.len() > need {
        return Err(format!("this turn places {need} stone(s), got {}", stones.len()));
    }
    let mut placed = 0;
    let mut result = Ok(());
    for &c in stones {
        if let Err(e) = board.try_play(c) {
            result = Err(format!("{} {e}", cell_to_record(board.rules(), c)));
            break;
        }
        placed += 1;
        if board.winner().is_some() && placed < stones.len() {
            result = Err("stones after the winning stone".into());
            break;
        }
    }
    if result.is_ok() && placed < need && board.winner().is_none() && !board.is_full() {
        result = Err(format!("this turn places {need} stone(s), got {}", stones.len()));
    }
    if result.is_err() {
        for _ in 0..placed {
            board.undo();
        }
    }
    result
}

/// The moves of a board's history in record notation, grouped by turn.
pub fn record_moves(board: &Board) -> Vec<String> {
    let rules = board.rules();
    let mut out = Vec::new();
    let mut i = 0;
    let h = board.history();
    while i < h.len() {
        let n = if i < rules.q as usize { rules.q as usize } else { rules.p as usize };
        let end = (i + n).min(h.len());
        out.push(move_to_record(rules, &h[i..end]));
        i = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const C6: Rules = Rules::CONNECT6;

    #[test]
    fn centre_and_corners() {
        let b = Board::new(C6);
        assert_eq!(cell_to_record(C6, b.cell(9, 9)), "j10");
        assert_eq!(cell_to_record(C6, b.cell(0, 0)), "a1");
        assert_eq!(cell_to_record(C6, b.cell(18, 18)), "s19");
        assert_eq!(parse_record_move(C6, "J10").unwrap(), vec![b.cell(9, 9)]);
        assert_eq!(parse_record_move(C6, "j9l11").unwrap(), vec![b.cell(9, 8), b.cell(11, 10)]);
        assert_eq!(move_to_competition(C6, &[b.cell(9, 9)], false, true), "JJ@@");
        assert_eq!(parse_competition_move(C6, "JJ@@", false).unwrap(), vec![b.cell(9, 9)]);
        assert_eq!(parse_competition_move(C6, "AAAS", true).unwrap(), vec![b.cell(0, 18), b.cell(0, 0)]);
    }

    #[test]
    fn bad_text_is_refused() {
        for bad in ["", "t1", "a0", "a20", "a", "1a", "j10k", "a01", "a1b2c3", "é"] {
            assert!(parse_record_move(C6, bad).is_err(), "{bad}");
        }
        for bad in ["", "J", "JT", "J1", "@@", "ZZAA", "AABBCC"] {
            assert!(parse_competition_move(C6, bad, false).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_other_notation_is_named_with_its_spelling() {
        let e = parse_record_move(C6, "JJKK").unwrap_err().to_string();
        assert!(e.contains("competition notation") && e.contains("`j10k11`"), "{e}");
        let e = parse_competition_move(C6, "j10k11", false).unwrap_err().to_string();
        assert!(e.contains("record notation") && e.contains("`JJKK`"), "{e}");
        let e = parse_competition_move(C6, "j10", true).unwrap_err().to_string();
        assert!(e.contains("`JJ`"), "{e}");
        // In a game text the move's text appears once, with its number.
        let e = board_from_record_moves(C6, &["j10", "k11k9x"]).unwrap_err().to_string();
        assert_eq!(e.matches("k11k9x").count(), 1, "{e}");
        assert!(e.starts_with("move 2: "), "{e}");
    }

    #[test]
    fn game_text_checks_turns() {
        assert!(board_from_record_moves(C6, &["j10", "k11k9"]).is_ok());
        assert!(board_from_record_moves(C6, &["j10k10"]).is_err());
        assert!(board_from_record_moves(C6, &["j10", "k11"]).is_err());
        assert!(board_from_record_moves(C6, &["j10", "j10k9"]).is_err());
        let b = board_from_record_moves(C6, &["j10", "k11k9", "a1b1"]).unwrap();
        assert_eq!(record_moves(&b), vec!["j10", "k11k9", "a1b1"]);
    }

    proptest! {
        #[test]
        fn record_round_trip(x in 0usize..19, y in 0usize..19, x2 in 0usize..19, y2 in 0usize..19) {
            let (a, b) = ((x + 19 * y) as Cell, (x2 + 19 * y2) as Cell);
            let text = move_to_record(C6, &[a, b]);
            prop_assert_eq!(parse_record_move(C6, &text).unwrap(), vec![a, b]);
            prop_assert_eq!(parse_record_move(C6, &text.to_uppercase()).unwrap(), vec![a, b]);
        }

        #[test]
        fn competition_round_trip(x in 0usize..19, y in 0usize..19, x2 in 0usize..19, y2 in 0usize..19, flip: bool) {
            let (a, b) = ((x + 19 * y) as Cell, (x2 + 19 * y2) as Cell);
            let text = move_to_competition(C6, &[a, b], flip, true);
            prop_assert_eq!(parse_competition_move(C6, &text, flip).unwrap(), vec![a, b]);
            let one = move_to_competition(C6, &[a], flip, true);
            prop_assert_eq!(parse_competition_move(C6, &one, flip).unwrap(), vec![a]);
        }

        #[test]
        fn parser_never_panics(s in "\\PC{0,12}") {
            let _ = parse_record_move(C6, &s);
            let _ = parse_competition_move(C6, &s, false);
        }
    }
}
