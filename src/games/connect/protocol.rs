//! The engine on the competition protocol (docs/protocols.md, "Connect6"):
//! one command a line on the input, one reply a line on the output, flushed at once.
//!
//! Platform commands: `name?`, `new black`, `new white`, `move XXYY`, `error`, `end`, `quit`.
//! Cloudict / ConnectMore extensions: `name`, `black XXYY`, `white XXYY` (place stones with no
//! search), `next` (search and move for the side to move), `depth d`, `print`, and `undo`
//! (take back the last move). evotune's own: `param NAME VALUE` (a value of the table the
//! engine plays, for a tuner that tells one process one individual after another).
//!
//! Where things go:
//! - the output carries only protocol replies: `name ...`, `move ...`, `Quit!`, `error ...`
//!   (unless errors go to the error stream), and the `print` diagram, whose every line starts
//!   with `# ` so that a reader of replies can skip it;
//! - the error stream carries comments (`# ...`): a rejected move reported by the platform,
//!   the end of a game, search statistics when `verbose` is set.
//!
//! A bad line never changes the state and gets exactly one `error <reason>` line; the engine
//! never prints a move for a position that is over or out of turn.
//!
//! ```
//! use evotune::games::connect::eval::CONNECT6_ROADS;
//! use evotune::games::connect::protocol::{run, ProtocolOptions};
//! use evotune::games::connect::Connect6;
//! use evotune::core::limits::Limits;
//! use evotune::core::settings::EngineSettings;
//! use evotune::search::Engine;
//! let weights = CONNECT6_ROADS.defaults();
//! let mut engine = Engine::<Connect6>::new(EngineSettings { tt_mib: 1, ..EngineSettings::default() }, &weights);
//! let options = ProtocolOptions { limits: Limits::depth(1), ..ProtocolOptions::default() };
//! let mut out = Vec::new();
//! run(&mut engine, &options, &b"name?\nquit\n"[..], &mut out, std::io::sink()).unwrap();
//! assert_eq!(String::from_utf8(out).unwrap(), "name evotune\nQuit!\n");
//! ```

use std::io::{BufRead, Write};

use super::board::{Board, Cell, Colour};
use super::game::ConnectGame;
use super::notation::{move_to_competition, parse_competition_move, play_move};
use crate::core::limits::Limits;
use crate::games::line_protocol::{clip, one_line, read_command};
use crate::games::param_lines::ParamLines;
pub use crate::games::ProtocolOptions;
use crate::search::{Engine, Searchable, MATE, MATE_BOUND, MAX_PLY};

/// Runs the protocol until `quit` (replies `Quit!`) or the end of the input, both `Ok`.
/// Errors are only those of reading the input or writing the replies (e.g. a closed pipe).
pub fn run<G: ConnectGame + Searchable<Position = Board>, R: BufRead, W: Write, E: Write>(
    engine: &mut Engine<G>,
    options: &ProtocolOptions,
    mut input: R,
    out: W,
    err: E,
) -> std::io::Result<()> {
    let board = Board::new(G::RULES);
    let mut session = Session {
        engine,
        options,
        limits: options.limits,
        board,
        engine_colour: None,
        ended: false,
        values: ParamLines::default(),
        out,
        err,
    };
    let mut raw = Vec::new();
    while let Some(read) = read_command(&mut input, &mut raw)? {
        match read {
            Ok(line) if session.handle(&line)? == Flow::Quit => return Ok(()),
            Ok(_) => {}
            // A line too long or not UTF-8 cannot be a command: one error line, nothing changes.
            Err(refused) => session.error(&refused)?,
        }
    }
    Ok(())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// A rejected command: the reason of its `error` line.
type Reject = String;

struct Session<'a, G: Searchable, W, E> {
    engine: &'a mut Engine<G>,
    options: &'a ProtocolOptions,
    limits: Limits,
    board: Board,
    /// The colour the engine plays; `None` until `new`, `move` or `next` tells.
    engine_colour: Option<Colour>,
    /// `end` was received: no more moves until `new`.
    ended: bool,
    /// The table `param` lines have set, played from the next `new` or search on.
    values: ParamLines,
    out: W,
    err: E,
}

impl<G: ConnectGame + Searchable<Position = Board>, W: Write, E: Write> Session<'_, G, W, E> {
    fn handle(&mut self, line: &str) -> std::io::Result<Flow> {
        let mut words = line.split_whitespace();
        let Some(first) = words.next() else {
            return Ok(Flow::Continue);
        };
        let command = first.to_ascii_lowercase();
        let args: Vec<&str> = words.collect();
        let result = match command.as_str() {
            "quit" => {
                self.reply("Quit!")?;
                return Ok(Flow::Quit);
            }
            "name?" | "name" => self.name(&command, &args)?,
            "new" => self.new_game(&args)?,
            "move" => self.opponent_move(&args)?,
            "black" => self.place(Colour::Black, &args)?,
            "white" => self.place(Colour::White, &args)?,
            "next" => self.next(&args)?,
            "depth" => self.set_depth(&args),
            "param" => self.set_param(&args),
            "print" => self.print(&args)?,
            "undo" => self.undo(&args),
            "error" => {
                let detail = if args.is_empty() { String::new() } else { format!(" ({})", clip(&args.join(" "))) };
                self.comment(&format!("the platform rejected our last move{detail}; state kept"))?;
                Ok(())
            }
            "end" => {
                self.ended = true;
                Ok(())
            }
            _ => Err(format!("unknown command `{}`", clip(first))),
        };
        match result {
            Ok(()) => Ok(Flow::Continue),
            Err(reason) => {
                self.error(&reason)?;
                Ok(Flow::Continue)
            }
        }
    }

    fn name(&mut self, command: &str, args: &[&str]) -> std::io::Result<Result<(), Reject>> {
        if let Err(e) = no_args(command, args) {
            return Ok(Err(e));
        }
        let line = format!("name {}", self.options.name);
        self.reply(&line)?;
        Ok(Ok(()))
    }

    /// `new black` / `new white`: a fresh game; as Black the engine moves at once.
    fn new_game(&mut self, args: &[&str]) -> std::io::Result<Result<(), Reject>> {
        let colour = match args {
            [c] if c.eq_ignore_ascii_case("black") => Colour::Black,
            [c] if c.eq_ignore_ascii_case("white") => Colour::White,
            _ => return Ok(Err("expected `new black` or `new white`".into())),
        };
        self.board = Board::new(G::RULES);
        self.take_values();
        self.engine.new_game(0);
        self.engine_colour = Some(colour);
        self.ended = false;
        if colour == Colour::Black {
            self.engine_move()?;
        }
        Ok(Ok(()))
    }

    /// `move XXYY`: the opponent's stones, then the engine's answer unless the game is over.
    fn opponent_move(&mut self, args: &[&str]) -> std::io::Result<Result<(), Reject>> {
        let stones = match self.read_move("move", args) {
            Ok(s) => s,
            Err(e) => return Ok(Err(e)),
        };
        let to_move = self.board.to_move();
        // Without `new` the engine takes the side opposite the mover, so that a referee can
        // set up a position with `black` / `white` and then hand over with `move`.
        let ours = self.engine_colour.unwrap_or(to_move.other());
        if to_move == ours {
            return Ok(Err(format!(
                "it is our turn ({} to move): send `next`, or `{} ...` to place stones",
                to_move.name(),
                to_move.name()
            )));
        }
        if let Err(e) = play_turn(&mut self.board, &stones) {
            return Ok(Err(e));
        }
        self.engine_colour = Some(ours);
        if self.board.is_over() {
            self.game_over_comment()?;
        } else {
            self.engine_move()?;
        }
        Ok(Ok(()))
    }

    /// `black XXYY` / `white XXYY`: stones for the side to move, no search.
    fn place(&mut self, colour: Colour, args: &[&str]) -> std::io::Result<Result<(), Reject>> {
        let stones = match self.read_move(colour.name(), args) {
            Ok(s) => s,
            Err(e) => return Ok(Err(e)),
        };
        let to_move = self.board.to_move();
        if to_move != colour {
            return Ok(Err(format!("it is {}'s turn, not {}'s", to_move.name(), colour.name())));
        }
        if let Err(e) = play_turn(&mut self.board, &stones) {
            return Ok(Err(e));
        }
        if self.board.is_over() {
            self.game_over_comment()?;
        }
        Ok(Ok(()))
    }

    /// `next`: the engine plays the side to move (and keeps playing it).
    fn next(&mut self, args: &[&str]) -> std::io::Result<Result<(), Reject>> {
        if let Err(e) = no_args("next", args).and_then(|()| self.playable()) {
            return Ok(Err(e));
        }
        self.engine_colour = Some(self.board.to_move());
        self.engine_move()?;
        Ok(Ok(()))
    }

    /// `depth d`: the depth limit of the following searches; no reply.
    fn set_depth(&mut self, args: &[&str]) -> Result<(), Reject> {
        let max = MAX_PLY as u32;
        match args {
            [d] => match d.parse::<u32>() {
                Ok(d) if (1..=max).contains(&d) => {
                    self.limits.depth = Some(d);
                    Ok(())
                }
                _ => Err(format!("`{}`: expected a depth 1-{max}", clip(d))),
            },
            _ => Err(format!("expected `depth d` with d in 1-{max}")),
        }
    }

    /// `param NAME VALUE`: a value of the engine's table, within the table's bounds; no
    /// reply. The engine plays the table so set from the next `new` or search on, made again
    /// as a new process of that table would start (it forgets what it learnt).
    fn set_param(&mut self, args: &[&str]) -> Result<(), Reject> {
        let [name, value] = args else {
            return Err("expected `param NAME VALUE`".into());
        };
        self.values.set(self.engine, name, value)
    }

    /// Makes the engine play the table `param` lines set, if they set one since.
    fn take_values(&mut self) {
        self.values.apply(self.engine);
    }

    /// `print`: the board on the output in competition coordinates, every line starting with
    /// `# ` (the output, not the error stream, because a GUI that asks wants to read it).
    fn print(&mut self, args: &[&str]) -> std::io::Result<Result<(), Reject>> {
        if let Err(e) = no_args("print", args) {
            return Ok(Err(e));
        }
        let text = self.diagram();
        for line in text.lines() {
            writeln!(self.out, "# {line}")?;
        }
        self.out.flush()?;
        Ok(Ok(()))
    }

    /// `undo`: takes back the last move (all stones of the last turn); no reply.
    fn undo(&mut self, args: &[&str]) -> Result<(), Reject> {
        no_args("undo", args)?;
        if self.ended {
            return Err("the game has ended; send `new black` or `new white`".into());
        }
        let n = self.board.stone_count();
        if n == 0 {
            return Err("nothing to undo".into());
        }
        let rules = self.board.rules();
        let (p, q) = (rules.p as usize, rules.q as usize);
        // The turn holding the last stone starts after the first turn's q stones and a whole
        // number of p-stone turns; a winning move cut short is still one turn.
        let start = if n <= q { 0 } else { q + (n - 1 - q) / p * p };
        for _ in start..n {
            self.board.undo();
        }
        Ok(())
    }

    /// Checks the argument of `move` / `black` / `white` and that the game accepts moves.
    fn read_move(&self, command: &str, args: &[&str]) -> Result<Vec<Cell>, Reject> {
        let [text] = args else {
            return Err(format!("expected `{command} XXYY` with one move"));
        };
        self.playable()?;
        parse_competition_move(self.board.rules(), text, self.options.flip_rows).map_err(|e| clip(&e.to_string()))
    }

    /// Whether a move can be played now.
    fn playable(&self) -> Result<(), Reject> {
        if self.ended {
            return Err("the game has ended; send `new black` or `new white`".into());
        }
        if let Some(w) = self.board.winner() {
            return Err(format!("the game is over ({} has won)", w.name()));
        }
        if self.board.is_full() {
            return Err("the game is over (the board is full)".into());
        }
        Ok(())
    }

    /// Searches for the side to move, plays the move found and prints it. The board must be
    /// at the start of a turn of a game that is not over.
    fn engine_move(&mut self) -> std::io::Result<()> {
        self.take_values();
        let result = self.engine.search(&mut self.board, &self.limits);
        if result.best.is_none() {
            return self.error("no legal move");
        }
        let before = self.board.stone_count();
        // The engine's move goes through the same checks as the opponent's: a bug in the
        // search must show as an error line, never as an illegal move sent to the platform.
        if let Err(e) = play_turn(&mut self.board, result.best.stones()) {
            return self.error(&format!("the engine chose an illegal move: {e}"));
        }
        // Only the stones placed are sent: a move whose first stone already wins stops there.
        let placed = self.board.history()[before..].to_vec();
        let text = self.competition(&placed);
        let pv: Vec<String> = result.pv.iter().map(|m| self.competition(m.stones())).collect();
        let info = format!(
            "depth {} score {} nodes {} ms {} pv {}",
            result.depth,
            result.score,
            result.nodes,
            result.elapsed.as_millis(),
            pv.join(" ")
        );
        if self.options.verbose_stdout {
            // Before the move: a referee stops reading at the move. A forced result as a
            // judge reads one (`+M9`: a win in 9 plies), not as the search's raw number.
            let score = match result.score {
                s if s > MATE_BOUND => format!("+M{}", MATE - s),
                s if s < -MATE_BOUND => format!("-M{}", MATE + s),
                s => s.to_string(),
            };
            self.reply(&format!(
                "# depth {} score {score} nodes {} ms {}",
                result.depth,
                result.nodes,
                result.elapsed.as_millis()
            ))?;
        }
        self.reply(&format!("move {text}"))?;
        if self.options.verbose {
            self.comment(&info)?;
        }
        if self.board.is_over() {
            self.game_over_comment()?;
        }
        Ok(())
    }

    fn competition(&self, stones: &[Cell]) -> String {
        move_to_competition(self.board.rules(), stones, self.options.flip_rows, self.options.pad_single)
    }

    fn game_over_comment(&mut self) -> std::io::Result<()> {
        let text = match self.board.winner() {
            Some(w) => format!("game over: {} wins", w.name()),
            None => "game over: the board is full, a draw".into(),
        };
        self.comment(&text)
    }

    /// The board with competition coordinates: columns `A`.., rows lettered as the protocol
    /// spells them (so with `flip_rows` the top row is `A`).
    fn diagram(&self) -> String {
        let (w, h) = (self.board.width(), self.board.height());
        let row_letter = |y: usize| (b'A' + if self.options.flip_rows { h - 1 - y } else { y } as u8) as char;
        let mut s = String::from(" ");
        for x in 0..w {
            s.push(' ');
            s.push((b'A' + x as u8) as char);
        }
        s.push('\n');
        for y in (0..h).rev() {
            s.push(row_letter(y));
            for x in 0..w {
                s.push(' ');
                s.push(match self.board.stone(self.board.cell(x, y)) {
                    Some(Colour::Black) => 'X',
                    Some(Colour::White) => 'O',
                    None => '.',
                });
            }
            s.push('\n');
        }
        let state = if let Some(w) = self.board.winner() {
            format!("{} has won", w.name())
        } else if self.board.is_full() {
            "the board is full".into()
        } else {
            format!("{} to move, {} stone(s)", self.board.to_move().name(), self.board.stones_left_in_turn())
        };
        let engine = self.engine_colour.map_or("no side yet".to_string(), |c| format!("engine plays {}", c.name()));
        s.push_str(&format!("X black, O white; {state}; {engine}\n"));
        s
    }

    fn reply(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    fn comment(&mut self, text: &str) -> std::io::Result<()> {
        writeln!(self.err, "# {text}")?;
        self.err.flush()
    }

    fn error(&mut self, reason: &str) -> std::io::Result<()> {
        let line = format!("error {}", one_line(reason));
        if self.options.errors_to_stderr {
            writeln!(self.err, "{line}")?;
            self.err.flush()
        } else {
            self.reply(&line)
        }
    }
}

/// Plays a whole turn with the checks of [`play_move`]. One leniency: a pair whose first stone
/// already wins is accepted (its second stone must still be a free cell), because platforms
/// send full pairs; only the winning stone is placed.
fn play_turn(board: &mut Board, stones: &[Cell]) -> Result<(), String> {
    if let [first, second] = *stones {
        let free = |c: Cell| (c as usize) < board.rules().cells() && board.is_empty_cell(c);
        if first != second && free(first) && free(second) && board.winner().is_none() {
            board.play(first);
            let wins = board.winner().is_some();
            board.undo();
            if wins {
                return play_move(board, &[first]);
            }
        }
    }
    if let [a, b] = *stones {
        if a == b {
            return Err("the same cell twice".into());
        }
    }
    play_move(board, stones)
}

fn no_args(command: &str, args: &[&str]) -> Result<(), Reject> {
    if args.is_empty() {
        Ok(())
    } else {
        Err(format!("`{command}` takes no argument"))
    }
}

#[cfg(test)]
mod tests;
