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
//! | `quit` | nothing; the engine exits (so does the end of the input) |
//!
//! A game may add commands ([`LineGame::command`]: EinStein's `roll`). A move or `go` that
//! ends the game adds a line `end first|second|draw REASON`. Anything wrong (an unknown
//! command, a move that is not a move or not legal, `go` after the end) is answered with one
//! line `error ...` saying what was expected, and changes nothing.

use std::io::{BufRead, Write};

use crate::core::game::{GameMove, Position, Status};
use crate::games::ProtocolOptions;
use crate::search::{Engine, SearchResult, Searchable};

/// What a game adds to the line protocol.
pub trait LineGame: Searchable {
    /// An example of the `move` command, for the error of a `move` without a move.
    const MOVE_EXAMPLE: &'static str;
    /// The commands, for the error of an unknown one.
    const COMMANDS: &'static str = "new, move, go, board, quit";

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
    let mut raw = Vec::new();
    while let Some(line) = read_command(input, &mut raw)? {
        let (command, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c.to_ascii_lowercase(), r.trim()),
            None => (line.to_ascii_lowercase(), ""),
        };
        let reply: Result<Vec<String>, String> = match command.as_str() {
            "quit" => return Ok(()),
            "new" => {
                board = game.start();
                games += 1;
                engine.new_game(games);
                Ok(vec!["ok".into()])
            }
            "move" => play_text(game, &mut board, rest).map(|()| with_end(&board, vec!["ok".into()])),
            "go" => think(engine, options, &mut board, out).map(|m| with_end(&board, vec![format!("move {m}")])),
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
            Err(why) => {
                let text = format!("error {}", one_line(&why.replace('\n', " ")));
                if options.errors_to_stderr {
                    writeln!(err, "{text}")?;
                } else {
                    writeln!(out, "{text}")?;
                }
            }
        }
        out.flush()?;
    }
    Ok(())
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

/// The next command line of `input` that is not blank, trimmed; `None` at the end of the
/// input. Bytes that are not UTF-8 cannot form a command: lossy decoding turns them into an
/// unknown command or a malformed move rather than a read error.
pub fn read_command(input: &mut dyn BufRead, raw: &mut Vec<u8>) -> std::io::Result<Option<String>> {
    loop {
        raw.clear();
        if input.read_until(b'\n', raw)? == 0 {
            return Ok(None);
        }
        let line = String::from_utf8_lossy(raw);
        let line = line.trim();
        if !line.is_empty() {
            return Ok(Some(line.to_string()));
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

/// A reason that fits on one line whatever input it quotes.
pub fn one_line(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { '?' } else { c }).collect()
}
