//! EinStein's line protocol for `evotune play --game einstein` (docs/protocols.md). One
//! command a line, words separated by spaces, the command in any case:
//!
//! | command | answer |
//! |---|---|
//! | `new` | `ok`: a new game, red to place its cubes |
//! | `move 351624` | `ok`: a setup of the side to move |
//! | `roll 4` (or `move r4`) | `ok`: the die shows 4 for the side to move |
//! | `move 4:b4c3` | `ok`: a step (with its roll, which is made first if not yet made) |
//! | `go` | `move 4:b4c3`: the engine's setup or step for the side to move, played |
//! | `board` | the position, top row first (`R3` red cube 3, `B5` blue cube 5), the phase, then `ok` |
//! | `quit` | nothing; the engine exits (so does the end of the input) |
//!
//! A move or `go` that ends the game adds a line `end first|second REASON`. Anything wrong is
//! answered with one line `error ...` saying what was expected, and changes nothing.

use std::io::{BufRead, Write};

use crate::core::game::{Game, Position, Status};
use crate::games::einstein::board::{Board, Phase, SIDE};
use crate::games::einstein::Einstein;
use crate::games::ProtocolOptions;
use crate::search::Engine;

/// Runs the protocol until `quit` or the end of the input.
pub fn run(
    engine: &mut Engine<Einstein>,
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
            "roll" => play_text(&mut board, &format!("r{rest}")).map(|()| vec!["ok".into()]),
            "go" => think(engine, options, &mut board, out).map(|m| with_end(&board, vec![format!("move {m}")])),
            "board" => {
                let mut lines = diagram(&board);
                lines.push("ok".into());
                Ok(lines)
            }
            _ => Err(format!("unknown command `{}`; the commands are new, move, roll, go, board, quit", clip(line))),
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

/// The board top row first, then whose turn and the phase.
pub fn diagram(board: &Board) -> Vec<String> {
    let mut lines: Vec<String> = (0..SIDE)
        .map(|r| {
            let cells: Vec<String> = (0..SIDE)
                .map(|c| match board.at(r * SIDE + c) {
                    None => "..".into(),
                    Some((side, k)) => format!("{}{k}", if side.index() == 0 { 'R' } else { 'B' }),
                })
                .collect();
            format!("{} {}", SIDE - r, cells.join(" "))
        })
        .collect();
    lines.push("  a  b  c  d  e".into());
    let phase = match board.phase() {
        Phase::Setup => "to place its cubes".to_string(),
        Phase::Roll => "to roll".to_string(),
        Phase::Move(d) => format!("to move on a roll of {d}"),
    };
    lines.push(format!("{} {phase}", if board.to_move().index() == 0 { "red" } else { "blue" }));
    lines
}

/// Plays the move written in `text` if it is legal.
fn play_text(board: &mut Board, text: &str) -> Result<(), String> {
    if text.is_empty() {
        return Err("`move` needs a move, like `move 351624` or `move 4:b4c3`".into());
    }
    let m = Einstein.parse_move(board, text)?;
    Einstein.play_checked(board, m).map_err(|e| format!("`{text}`: {e}"))
}

/// Searches, plays and returns the engine's move.
fn think(
    engine: &mut Engine<Einstein>,
    options: &ProtocolOptions,
    board: &mut Board,
    out: &mut dyn Write,
) -> Result<String, String> {
    if let Some(end) = end_line(board) {
        return Err(format!("the game is over ({end}); `new` starts another"));
    }
    if board.chance().is_some() {
        return Err("the die is to be rolled first: `roll 1` to `roll 6`".into());
    }
    let r = engine.search(board, &options.limits);
    let text = Einstein.format_move(board, r.best);
    if options.verbose {
        let _ = writeln!(out, "# score {} playouts {} time {} ms", r.score, r.nodes, r.elapsed.as_millis());
    }
    Einstein.play_checked(board, r.best).map_err(|e| format!("the engine's move {text} was refused: {e}"))?;
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
    use crate::core::settings::{EngineSettings, SearchKind};
    use crate::games::einstein::eval::EINSTEIN_HYBRID;

    fn transcript(input: &str) -> Vec<String> {
        let settings = EngineSettings { search: SearchKind::Mcts, ..EngineSettings::default() };
        let mut engine = Engine::<Einstein>::new(settings, &EINSTEIN_HYBRID.defaults());
        let options = ProtocolOptions { limits: Limits::nodes(200), ..ProtocolOptions::default() };
        let mut out = Vec::new();
        run(&mut engine, &options, &mut input.as_bytes(), &mut out, &mut Vec::new()).unwrap();
        String::from_utf8(out).unwrap().lines().map(String::from).collect()
    }

    #[test]
    fn a_session_with_bad_input() {
        let lines = transcript(
            "move 123456\nmove 123456\ngo\nroll 7\nroll 5\nmove 4:b4c3\nmove 5:b4c3\ngo\nroll 2\ngo\nmove 123456\nfly\nquit\ngo\n",
        );
        assert_eq!(lines[..2], ["ok", "ok"]);
        assert!(lines[2].starts_with("error ") && lines[2].contains("rolled first"), "{lines:?}");
        assert!(lines[3].contains("not a die value"), "{lines:?}");
        assert_eq!(lines[4], "ok");
        assert!(lines[5].contains("the roll is 5, not 4"), "{lines:?}");
        assert_eq!(lines[6], "ok", "red's cube 5 stands on b4: {lines:?}");
        assert!(lines[7].contains("rolled first"), "{lines:?}");
        assert_eq!(lines[8], "ok");
        assert!(lines[9].starts_with("move 2:"), "{lines:?}");
        assert!(lines[10].contains("already placed"), "{lines:?}");
        assert!(lines[11].starts_with("error unknown command `fly`"), "{lines:?}");
        assert_eq!(lines.len(), 12, "nothing after quit: {lines:?}");
    }
}
