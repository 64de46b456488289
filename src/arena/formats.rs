//! Game records in the formats other programs read: SGF (FF[4], any SGF viewer or library) and
//! Piskvork's `.psq` (Gomoku managers and viewers). Both place stones on a board, so only the
//! games played by placing stones have them: Connect6 and Gomoku.
//!
//! SGF registers a game number (`GM`) for Gomoku (4, "Gomoku + Renju") and none for Connect6.
//! A Connect6 game is written with Go's number (`GM[1]`), whose 19×19 board and two-letter
//! points are Connect6's, and `RU[Connect6]`: every SGF viewer opens it, and the stones of a
//! turn are its `B` or `W` nodes one after the other (SGF has one point a move). A Go viewer
//! removes stones that Go would capture (a group enclosed on every side); Connect6 never
//! does, so such a position shows fewer stones there than the game had.
//!
//! Points are SGF's: the column letter from `a` at the left, then the row letter from `a` at
//! the TOP (record notation counts rows from 1 at the bottom: `j10` on 19×19 is `jj`, `a1` is
//! `as`).

use anyhow::{bail, Result};

use crate::arena::records::{GameRecord, Outcome, Reason};
use crate::arena::ArenaGame;
use crate::core::game::Side;
use crate::games::connect::sgf::SgfGame;

/// The SGF form of a game, or an error saying that its games have none.
pub fn sgf_form(game: &dyn ArenaGame) -> Result<SgfGame> {
    let Some(sgf) = game.sgf() else {
        bail!(
            "{} moves pieces rather than placing stones: SGF and .psq have no form for its games (its records, \
             --records, hold them)",
            game.name()
        )
    };
    Ok(sgf)
}

/// A point in SGF letters: `a`..`z` then `A`..`Z` (FF[4] boards up to 52).
fn sgf_letter(i: usize) -> char {
    if i < 26 {
        (b'a' + i as u8) as char
    } else {
        (b'A' + (i - 26) as u8) as char
    }
}

/// SGF text escapes `\` and `]`.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// SGF's `RE`: `B+` / `W+` with `R` for a resignation, `T` for a loss on time and `F` for a
/// forfeit (an illegal move, a crashed engine); `0` for a draw; `Void` for a game the referee
/// aborted.
fn sgf_result(record: &GameRecord) -> String {
    if record.reason == Reason::Aborted {
        // Left out of every score (its result is written as a draw): SGF's "no result".
        return "Void".into();
    }
    let winner = match record.result {
        Outcome::First => "B+",
        Outcome::Second => "W+",
        Outcome::Draw => return "0".into(),
    };
    let how = match record.reason {
        Reason::Resign | Reason::Adjudicated => "R",
        Reason::Timeout => "T",
        Reason::Illegal | Reason::Crash => "F",
        Reason::Rule(_) | Reason::Movecap | Reason::Aborted => "",
    };
    format!("{winner}{how}")
}

/// The moves of a record (its `#` lines, which say why the arena ended a game, left out).
fn played_moves(record: &GameRecord) -> impl Iterator<Item = &String> {
    record.moves.iter().filter(|m| !m.starts_with('#'))
}

/// The arena's notes in a record (`# illegal move ...`), without their `#`.
fn notes(record: &GameRecord) -> Vec<&str> {
    record.moves.iter().filter_map(|m| m.strip_prefix('#')).map(str::trim).collect()
}

/// One game as an SGF game tree on one line: root properties (`FF`, `CA`, `AP`, `GM`, `SZ`,
/// `RU`, `PB`, `PW`, `RE`, `GC` with the end reason and the opening's length), then a node per
/// stone. A file of such lines is an SGF collection.
pub fn to_sgf(record: &GameRecord, game: &dyn ArenaGame) -> Result<String> {
    let sgf = sgf_form(game)?;
    let (w, h) = sgf.size();
    let size = if w == h { format!("{w}") } else { format!("{w}:{h}") };
    let mut s = format!("(;FF[4]CA[UTF-8]AP[evotune:{}]GM[{}]SZ[{size}]", env!("CARGO_PKG_VERSION"), sgf.number);
    if let Some(rules) = sgf.rules {
        s += &format!("RU[{rules}]");
    }
    let mut comment =
        format!("ended by {}; the first {} move(s) were the opening", record.reason.as_str(), record.opening_moves);
    for note in notes(record) {
        comment += &format!("; {note}");
    }
    s += &format!(
        "PB[{}]PW[{}]RE[{}]GC[{}]",
        escape(&record.first),
        escape(&record.second),
        sgf_result(record),
        escape(&comment)
    );
    let moves: Vec<String> = played_moves(record).cloned().collect();
    for (text, side) in moves.iter().zip(game.movers(&moves)) {
        let colour = if side == Side::First { 'B' } else { 'W' };
        let Some(stones) = sgf.stones(text) else {
            bail!("{} vs {}: `{text}` is not a move of {}", record.first, record.second, game.name());
        };
        for (x, y) in stones {
            s += &format!(";{colour}[{}{}]", sgf_letter(x), sgf_letter(y));
        }
    }
    s.push(')');
    Ok(s)
}

/// One Gomoku game in Piskvork's `.psq` form, as Gomocup's archives hold them: the header
/// `Piskvorky 15x15, 11:11, 0`, a line `x,y,ms` per stone (from 1, x from the left, y from the
/// top; the records keep each side's total time, not each move's, so `ms` is 0), then the
/// first and the second player's names and `-1`.
pub fn to_psq(record: &GameRecord, game: &dyn ArenaGame) -> Result<String> {
    let sgf = sgf_form(game)?;
    if !sgf.has_psq() {
        bail!("{}: .psq files are Gomoku's (Piskvork); use --sgf for its games", game.name());
    }
    let (w, h) = sgf.size();
    let mut s = format!("Piskvorky {w}x{h}, 11:11, 0\n");
    for text in played_moves(record) {
        let Some(stones) = sgf.stones(text) else {
            bail!("{} vs {}: `{text}` is not a move of {}", record.first, record.second, game.name());
        };
        for (x, y) in stones {
            s += &format!("{},{},0\n", x + 1, y + 1);
        }
    }
    s += &format!("{}\n{}\n-1\n", one_line(&record.first), one_line(&record.second));
    Ok(s)
}

fn one_line(name: &str) -> String {
    name.replace(['\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::{CONNECT6, GOMOKU, SURAKARTA};

    fn record(game: &str, moves: &[&str], result: Outcome, reason: Reason) -> GameRecord {
        let mut r = GameRecord::start(game, "champ]ion", "hand", &[], 1);
        r.moves = moves.iter().map(|m| m.to_string()).collect();
        r.opening_moves = 1;
        r.result = result;
        r.reason = reason;
        r
    }

    #[test]
    fn connect6_points_count_rows_from_the_top() {
        let r = record("connect6", &["j10", "a1s19", "k9l8"], Outcome::First, Reason::rule("six"));
        let s = to_sgf(&r, CONNECT6).unwrap();
        assert!(s.starts_with("(;FF[4]CA[UTF-8]AP[evotune:"), "{s}");
        assert!(s.contains("GM[1]SZ[19]RU[Connect6]PB[champ\\]ion]PW[hand]RE[B+]GC[ended by six"), "{s}");
        assert!(s.ends_with(";B[jj];W[as];W[sa];B[kk];B[ll])"), "{s}");
    }

    #[test]
    fn gomoku_is_game_four_and_results_say_how() {
        let mut r = record("gomoku", &["h8", "i9", "# out of time: 512 ms used"], Outcome::First, Reason::Timeout);
        let s = to_sgf(&r, GOMOKU).unwrap();
        assert!(s.contains("GM[4]SZ[15]PB["), "{s}");
        assert!(s.contains("RE[B+T]") && s.contains("out of time: 512 ms used]"), "{s}");
        assert!(s.ends_with(";B[hh];W[ig])"), "{s}");
        r.result = Outcome::Draw;
        r.reason = Reason::Movecap;
        assert!(to_sgf(&r, GOMOKU).unwrap().contains("RE[0]"));
    }

    #[test]
    fn psq_counts_from_one_at_the_top_left() {
        let r = record("gomoku", &["a15", "o1", "h8"], Outcome::Second, Reason::rule("five"));
        let psq = to_psq(&r, GOMOKU).unwrap();
        assert_eq!(psq, "Piskvorky 15x15, 11:11, 0\n1,1,0\n15,15,0\n8,8,0\nchamp]ion\nhand\n-1\n");
        assert!(to_psq(&r, CONNECT6).is_err());
    }

    #[test]
    fn games_that_move_pieces_are_refused_by_name() {
        let r = record("surakarta", &[], Outcome::Draw, Reason::Movecap);
        let e = to_sgf(&r, SURAKARTA).unwrap_err().to_string();
        assert!(e.contains("surakarta") && e.contains("--records"), "{e}");
    }
}
