//! The engine side of evotune's line protocol (`evotune play` for Surakarta and EinStein,
//! docs/protocols.md), one loop for every game that speaks it, and what each engine-side
//! protocol shares: reading a command line and quoting input in an error.
//!
//! One command a line, words separated by spaces, the command in any case:
//!
//! | command | answer |
//! |---|---|
//! | `new` | `ok`: a new game from the start |
//! | `move M` | `ok`: the move is played |
//! | `go` | `move M`: the engine's move for the side to move, played |
//! | `board` | the position, then `ok` |
//! | `param NAME VALUE` | `ok`: a value of the engine's table, played from the next `new` or `go` on ([`ParamLines`]) |
//! | `quit` | nothing; the engine exits (so does the end of the input) |
//!
//! A game may add commands ([`LineGame::command`]: EinStein's `roll`). A move or `go` that
//! ends the game adds a line `end first|second|draw REASON`. Anything wrong (an unknown
//! command, a move that is not a move or not legal, `go` after the end) is answered with one
//! line `error ...` saying what was expected, and changes nothing.

use std::io::{BufRead, Write};

use crate::core::game::{GameMove, Position, Status};
use crate::games::param_lines::ParamLines;
use crate::games::ProtocolOptions;
use crate::search::{Engine, SearchResult, Searchable};

/// What a game adds to the line protocol.
pub trait LineGame: Searchable {
    /// An example of the `move` command, for the error of a `move` without a move.
    const MOVE_EXAMPLE: &'static str;
    /// The commands, for the error of an unknown one.
    const COMMANDS: &'static str = "new, move, go, board, param, quit";

    /// The position as `board` prints it, top row first.
    fn diagram(&self, pos: &Self::Position) -> Vec<String>;

    /// The answer to a command of this game's own, `None` if it has none of that name.
    fn command(&self, _pos: &mut Self::Position, _command: &str, _rest: &str) -> Option<Result<Vec<String>, String>> {
        None
    }

    /// Why the engine cannot search this position yet (the game not being over).
    fn not_ready(&self, _pos: &Self::Position) -> Option<String> {
        None
    }

    /// The `verbose` comment after a search.
    fn search_comment<M: GameMove>(r: &SearchResult<M>) -> String {
        format!("# depth {} score {} nodes {} time {} ms", r.depth, r.score, r.nodes, r.elapsed.as_millis())
    }
}

/// Runs the protocol until `quit` or the end of the input.
pub fn run<G: LineGame>(
    engine: &mut Engine<G>,
    options: &ProtocolOptions,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<()> {
    let game = G::default();
    let mut board = game.start();
    let mut games = 0u64;
    engine.new_game(games);
    let mut told = ParamLines::default();
    let mut raw = Vec::new();
    while let Some(read) = read_command(input, &mut raw)? {
        let line = match read {
            Ok(line) => line,
            Err(refused) => {
                reply_error(options, out, err, &refused)?;
                continue;
            }
        };
        let (command, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c.to_ascii_lowercase(), r.trim()),
            None => (line.to_ascii_lowercase(), ""),
        };
        let reply: Result<Vec<String>, String> = match command.as_str() {
            "quit" => return Ok(()),
            "new" => {
                board = game.start();
                games += 1;
                told.apply(engine);
                engine.new_game(games);
                Ok(vec!["ok".into()])
            }
            "move" => play_text(game, &mut board, rest).map(|()| with_end(&board, vec!["ok".into()])),
            "go" => {
                told.apply(engine);
                think(engine, options, &mut board, out).map(|m| with_end(&board, vec![format!("move {m}")]))
            }
            "param" => match rest.split_whitespace().collect::<Vec<_>>()[..] {
                [name, value] => told.set(engine, name, value).map(|()| vec!["ok".into()]),
                _ => Err("expected `param NAME VALUE`".into()),
            },
            "board" => {
                let mut lines = game.diagram(&board);
                lines.push("ok".into());
                Ok(lines)
            }
            other => game
                .command(&mut board, other, rest)
                .unwrap_or_else(|| Err(format!("unknown command `{}`; the commands are {}", clip(&line), G::COMMANDS))),
        };
        match reply {
            Ok(lines) => {
                for l in lines {
                    writeln!(out, "{l}")?;
                }
            }
            Err(why) => reply_error(options, out, err, &why)?,
        }
        out.flush()?;
    }
    Ok(())
}

/// Writes `error REASON` (on one short line) where the options send errors.
fn reply_error(options: &ProtocolOptions, out: &mut dyn Write, err: &mut dyn Write, why: &str) -> std::io::Result<()> {
    let text = format!("error {}", one_line(why));
    if options.errors_to_stderr {
        writeln!(err, "{text}")?;
        err.flush()
    } else {
        writeln!(out, "{text}")?;
        out.flush()
    }
}

/// Plays the move written in `text` if it is legal.
fn play_text<G: LineGame>(game: G, board: &mut G::Position, text: &str) -> Result<(), String> {
    if text.is_empty() {
        return Err(format!("`move` needs a move, like {}", G::MOVE_EXAMPLE));
    }
    let m = game.parse_move(board, text)?;
    game.play_checked(board, m).map_err(|e| format!("`{text}`: {e}"))
}

/// Searches, plays and returns the engine's move.
fn think<G: LineGame>(
    engine: &mut Engine<G>,
    options: &ProtocolOptions,
    board: &mut G::Position,
    out: &mut dyn Write,
) -> Result<String, String> {
    let game = G::default();
    if let Some(end) = end_line(board) {
        return Err(format!("the game is over ({end}); `new` starts another"));
    }
    if let Some(why) = game.not_ready(board) {
        return Err(why);
    }
    let r = engine.search(board, &options.limits);
    let text = game.format_move(board, r.best);
    if options.verbose {
        let _ = writeln!(out, "{}", G::search_comment(&r));
    }
    game.play_checked(board, r.best).map_err(|e| format!("the engine's move {text} was refused: {e}"))?;
    Ok(text)
}

/// `end WINNER REASON` once the game is over.
fn end_line<P: Position>(board: &P) -> Option<String> {
    match board.status() {
        Status::Ongoing => None,
        Status::Won { winner, reason } => Some(format!("end {} {reason}", winner.name())),
        Status::Draw { reason } => Some(format!("end draw {reason}")),
    }
}

fn with_end<P: Position>(board: &P, mut lines: Vec<String>) -> Vec<String> {
    lines.extend(end_line(board));
    lines
}

/// The longest line an engine-side protocol takes (64 KiB): the rest of a longer line is read
/// and dropped, so that memory does not grow with the input.
pub const MAX_LINE: usize = 64 * 1024;
/// The most characters of an error reason, whatever input it quotes.
pub const MAX_REASON: usize = 200;

/// The next command line of `input` that is not blank, trimmed: `Ok` a command, `Err` why a
/// line cannot be one (longer than [`MAX_LINE`] bytes, or not UTF-8: the caller answers with
/// one error line and nothing changes); `None` at the end of the input. `raw` is scratch
/// space, reused from line to line.
pub fn read_command(input: &mut dyn BufRead, raw: &mut Vec<u8>) -> std::io::Result<Option<Result<String, String>>> {
    loop {
        let Some(fits) = read_bounded(input, raw)? else { return Ok(None) };
        if !fits {
            return Ok(Some(Err(format!("a line longer than {MAX_LINE} bytes: ignored"))));
        }
        let Ok(line) = std::str::from_utf8(raw) else {
            return Ok(Some(Err("a line that is not UTF-8 text: ignored".into())));
        };
        let line = line.trim();
        if !line.is_empty() {
            return Ok(Some(Ok(line.to_string())));
        }
    }
}

/// Reads one line into `raw` (without its end), keeping at most [`MAX_LINE`] bytes: `Some(true)`
/// a line, `Some(false)` a longer one (dropped), `None` the end of the input.
fn read_bounded(input: &mut dyn BufRead, raw: &mut Vec<u8>) -> std::io::Result<Option<bool>> {
    raw.clear();
    let mut fits = true;
    let mut any = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(any.then_some(fits));
        }
        any = true;
        let (part, used, ended) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        if fits && raw.len() + part.len() > MAX_LINE {
            fits = false;
            raw.clear();
        } else if fits {
            raw.extend_from_slice(part);
        }
        input.consume(used);
        if ended {
            return Ok(Some(fits));
        }
    }
}

/// Input echoed in an error line, cut short so that a huge line gives a readable reply.
pub fn clip(text: &str) -> String {
    const MAX: usize = 64;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(MAX).collect();
        s.push_str("...");
        s
    }
}

/// A reason that fits on one short line whatever input it quotes: control characters as `?`,
/// at most [`MAX_REASON`] characters.
pub fn one_line(text: &str) -> String {
    let mut out: String = text.chars().take(MAX_REASON).map(|c| if c.is_control() { '?' } else { c }).collect();
    if text.chars().nth(MAX_REASON).is_some() {
        out.push_str("...");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn commands(bytes: &[u8]) -> Vec<Result<String, String>> {
        let mut input = std::io::BufReader::with_capacity(1000, bytes);
        let mut raw = Vec::new();
        let mut out = Vec::new();
        while let Some(read) = read_command(&mut input, &mut raw).unwrap() {
            out.push(read);
            assert!(raw.capacity() <= 2 * MAX_LINE + 2000, "memory grows with the input");
        }
        out
    }

    #[test]
    fn long_lines_and_bad_bytes_are_refused_and_the_next_line_is_read() {
        let mut bytes = b"new\r\n\n".to_vec();
        bytes.extend(std::iter::repeat_n(b'x', 10 * MAX_LINE));
        bytes.extend_from_slice(b"\nmove \xff\xfe\ngo");
        let got = commands(&bytes);
        assert_eq!(got.len(), 4, "{:?}", got.iter().map(|r| r.as_ref().map(|l| l.len())).collect::<Vec<_>>());
        assert_eq!(got[0], Ok("new".to_string()));
        assert!(got[1].as_ref().unwrap_err().contains("longer than 65536 bytes"));
        assert!(got[2].as_ref().unwrap_err().contains("not UTF-8"));
        assert_eq!(got[3], Ok("go".to_string()));
        assert_eq!(commands(&vec![b'y'; MAX_LINE]), [Ok("y".repeat(MAX_LINE))]);
    }

    #[test]
    fn reasons_are_one_short_line() {
        let long = format!("bad token `{}`\nsecond line", "z".repeat(10_000_000));
        let r = one_line(&long);
        assert!(r.chars().count() <= MAX_REASON + 3 && !r.contains('\n') && r.ends_with("..."), "{}", r.len());
        assert_eq!(one_line("a\tb"), "a?b");
    }
}
