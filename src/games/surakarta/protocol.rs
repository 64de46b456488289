//! Surakarta's line protocol for `evotune play --game surakarta` (docs/protocols.md and
//! docs/surakarta.md in this repository). One
//! command a line, words separated by spaces, the command in any case:
//!
//! | command | answer |
//! |---|---|
//! | `new` | `ok`: a new game from the start, the first player to move |
//! | `move b2-b3` | `ok`: the opponent's move is played |
//! | `go` | `move b2-b3`: the engine's move for the side to move, played |
//! | `board` | the position, top row first (`x` first player, `o` second), then `ok` |
//! | `quit` | nothing; the engine exits (so does the end of the input) |
//!
//! A move or `go` that ends the game adds a line `end first|second|draw REASON`. Anything
//! wrong (an unknown command, a move that is not a move or not legal, `go` after the end) is
//! answered with one line `error ...` saying what was expected, and changes nothing.

use std::io::{BufRead, Write};

use crate::core::game::{Game, Status};
use crate::games::surakarta::board::Board;
use crate::games::surakarta::Surakarta;
use crate::games::ProtocolOptions;
use crate::search::Engine;

/// Runs the protocol until `quit` or the end of the input.
pub fn run(
    engine: &mut Engine<Surakarta>,
    options: &ProtocolOptions,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<()> {
    let mut board = Board::start();
    let mut games = 0u64;
    engine.new_game(games);
    let mut raw = Vec::new();
    loop {
        raw.clear();
        if input.read_until(b'\n', &mut raw)? == 0 {
            return Ok(());
        }
        let line = String::from_utf8_lossy(&raw);
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let (command, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c.to_ascii_lowercase(), r.trim()),
            None => (line.to_ascii_lowercase(), ""),
        };
        let reply: Result<Vec<String>, String> = match command.as_str() {
            "quit" => return Ok(()),
            "new" => {
                board = Board::start();
                games += 1;
                engine.new_game(games);
                Ok(vec!["ok".into()])
            }
            "move" => play_text(&mut board, rest).map(|()| with_end(&board, vec!["ok".into()])),
            "go" => think(engine, options, &mut board, out).map(|m| with_end(&board, vec![format!("move {m}")])),
            "board" => {
                let mut lines: Vec<String> = board.diagram().lines().map(String::from).collect();
                lines.push("ok".into());
                Ok(lines)
            }
            _ => Err(format!("unknown command `{}`; the commands are new, move, go, board, quit", clip(line))),
        };
        match reply {
            Ok(lines) => {
                for l in lines {
                    writeln!(out, "{l}")?;
                }
            }
            Err(why) => {
                let text = format!("error {}", why.replace('\n', " "));
                if options.errors_to_stderr {
                    writeln!(err, "{text}")?;
                } else {
                    writeln!(out, "{text}")?;
                }
            }
        }
        out.flush()?;
    }
}

/// Plays the move written in `text` if it is legal.
fn play_text(board: &mut Board, text: &str) -> Result<(), String> {
    if text.is_empty() {
        return Err("`move` needs a move, like `move b2-b3`".into());
    }
    let m = Surakarta.parse_move(board, text)?;
    Surakarta.play_checked(board, m).map_err(|e| format!("`{text}`: {e}"))
}

/// Searches, plays and returns the engine's move.
fn think(
    engine: &mut Engine<Surakarta>,
    options: &ProtocolOptions,
    board: &mut Board,
    out: &mut dyn Write,
) -> Result<String, String> {
    if let Some(end) = end_line(board) {
        return Err(format!("the game is over ({end}); `new` starts another"));
    }
    let r = engine.search(board, &options.limits);
    let text = Surakarta.format_move(board, r.best);
    if options.verbose {
        let _ =
            writeln!(out, "# depth {} score {} nodes {} time {} ms", r.depth, r.score, r.nodes, r.elapsed.as_millis());
    }
    Surakarta.play_checked(board, r.best).map_err(|e| format!("the engine's move {text} was refused: {e}"))?;
    Ok(text)
}

/// `end WINNER REASON` once the game is over.
fn end_line(board: &Board) -> Option<String> {
    match board.status() {
        Status::Ongoing => None,
        Status::Won { winner, reason } => Some(format!("end {} {reason}", winner.name())),
        Status::Draw { reason } => Some(format!("end draw {reason}")),
    }
}

fn with_end(board: &Board, mut lines: Vec<String>) -> Vec<String> {
    lines.extend(end_line(board));
    lines
}

/// At most 40 characters of a line, for error messages.
fn clip(line: &str) -> String {
    let mut s: String = line.chars().take(40).collect();
    if s.len() < line.len() {
        s.push_str("...");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::limits::Limits;
    use crate::core::settings::EngineSettings;
    use crate::games::surakarta::eval::SURAKARTA_FEATURES;

    fn transcript(input: &str) -> Vec<String> {
        let mut engine = Engine::<Surakarta>::new(EngineSettings::default(), &SURAKARTA_FEATURES.defaults());
        let options = ProtocolOptions { limits: Limits::depth(2), ..ProtocolOptions::default() };
        let mut out = Vec::new();
        let mut err = Vec::new();
        run(&mut engine, &options, &mut input.as_bytes(), &mut out, &mut err).unwrap();
        String::from_utf8(out).unwrap().lines().map(String::from).collect()
    }

    #[test]
    fn a_session_with_bad_input() {
        let lines = transcript(
            "new\nmove b2-b3\nmove b2-b3\nmove e5-e4\nGO\nfly me\nmove\nmove z9-a1\nmove a1xb1\n\nmove \u{7}\nquit\nnew\n",
        );
        assert_eq!(lines[0], "ok");
        assert_eq!(lines[1], "ok");
        // b2 is empty now, and it is the second player's turn anyway.
        assert!(lines[2].starts_with("error ") && lines[2].contains("b2-b3"), "{lines:?}");
        assert_eq!(lines[3], "ok");
        assert!(lines[4].starts_with("move "), "{lines:?}");
        assert!(lines[5].starts_with("error unknown command `fly me`"), "{lines:?}");
        assert!(lines[6].contains("needs a move"), "{lines:?}");
        assert!(lines[7].contains("column a-f"), "{lines:?}");
        assert!(lines[8].starts_with("error "), "{lines:?}");
        assert!(lines[9].starts_with("error "), "{lines:?}");
        assert_eq!(lines.len(), 10, "nothing after quit: {lines:?}");
    }

    #[test]
    fn the_end_of_a_game_is_announced_and_go_refused_after_it() {
        // Eight moves that bring the first four positions back twice: b2-b3 e5-e4 b3-b2
        // e4-e5 repeats the start.
        let lines = transcript("move b2-b3\nmove e5-e4\nmove b3-b2\nmove e4-e5\ngo\nboard\n");
        assert_eq!(lines[3], "ok");
        assert_eq!(lines[4], "end draw repetition");
        assert!(lines[5].starts_with("error the game is over (end draw repetition)"), "{lines:?}");
        assert_eq!(lines[6], "6 oooooo");
        assert_eq!(lines.last().unwrap(), "ok");
    }
}
