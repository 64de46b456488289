//! The Gomocup `pbrain` protocol (Piskvork and Gomocup managers): one command a line on the
//! input, one reply a line on the output, flushed at once. Coordinates are `x,y`, 0-based from
//! the top-left corner.
//!
//! | manager sends | engine does |
//! |---|---|
//! | `START n` | `OK` when it plays an n x n board (15 here), else `ERROR ...` |
//! | `RESTART` | a new game; `OK` |
//! | `BEGIN` | plays the first move of a new game: `x,y` |
//! | `TURN x,y` | the opponent's stone; the engine answers with its own: `x,y` |
//! | `BOARD`, lines `x,y,f`, `DONE` | a position (f = 1 own stone, 2 the opponent's; the continuous games' 3 is refused); the engine moves: `x,y` |
//! | `TAKEBACK x,y` | takes the last stone (at x,y) back; `OK` |
//! | `INFO key value` | `timeout_turn`, `timeout_match`, `time_left`, `time_increment` (ms) are the time control the engine keeps to (see [`move_limits`]); `rule` 1 (exactly five) is refused with a `MESSAGE` (this engine plays freestyle); a parameter of the engine's table (`INFO own4 800`, names as `evotune schema` lists them) sets its value, played from the next game or move on, a value out of its bounds an `ERROR`; other keys are read and ignored; no reply |
//! | `ABOUT` | `name="...", version="...", author="...", country="..."` |
//! | `END` | exits |
//!
//! A bad line gets one `ERROR <reason>` (an unknown command: `UNKNOWN <reason>`) and changes
//! nothing; the engine never prints a move for a position that is over. Comments for people
//! (`verbose` search statistics, the end of a game) are `MESSAGE` / `DEBUG` lines, which
//! managers show and otherwise ignore. End of input exits cleanly.

use std::io::{BufRead, Write};

use crate::core::game::Position;
use crate::core::limits::Limits;
use crate::games::connect::board::{Cell, Colour, Rules};
use crate::games::connect::game::ConnectPosition;
use crate::games::connect::movegen::Move;
use crate::games::gomoku::{Gomoku, GomokuBoard};
use crate::games::line_protocol::{clip, one_line, read_command};
use crate::games::param_lines::ParamLines;
use crate::games::{ProtocolOptions, DEFAULT_MOVE_MS};
use crate::search::Engine;

/// The board side this engine plays.
const SIZE: usize = Rules::GOMOKU.width as usize;
/// Milliseconds kept back from each move's time for reading, writing and the manager (less
/// when the move has little: a fifth of it).
const TIME_MARGIN_MS: u64 = 50;
/// Under a match clock, the moves a move's soft target shares the time left with (a
/// Gomoku game lasts some 20 to 40 moves a side).
const MOVES_TO_GO: u64 = 25;
/// Under a match clock, the most of the time left one move may take: a tenth.
const MATCH_SHARE: u64 = 10;
/// `INFO time_left` of a match without a time limit.
const UNLIMITED_LEFT: u64 = 2_147_483_647;

/// The manager's time control, as its `INFO` lines gave it (ms; `None`: not given, or no
/// limit).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ManagerTimes {
    /// `timeout_turn`: the most one move may take (0: no limit).
    pub turn: Option<u64>,
    /// `timeout_match`: the whole game's time (0: no limit).
    pub game: Option<u64>,
    /// `time_left`: what is left of the game's time.
    pub left: Option<u64>,
    /// `time_increment`: added to the time left after each move.
    pub increment: u64,
}

/// The limits of a move, as a Gomocup brain keeps them: the user's own (`--depth`,
/// `--nodes`, `--time-ms`), with the time never more than the manager allows. With a turn
/// limit the move may take all of it less a margin; with a game clock (the time left, or the
/// whole game's time before any `time_left`) it may take a tenth of what is left plus the
/// increment, and aims at a 25th of it (a soft target: the search starts no new iteration
/// past it, and time saved is kept). Without any limit from either, a move takes
/// [`DEFAULT_MOVE_MS`].
pub fn move_limits(user: Limits, times: &ManagerTimes) -> Limits {
    let mut limits = user;
    let left = times.left.or(times.game);
    let from_clock = left.map(|l| (l / MATCH_SHARE + times.increment).min(l));
    let hard = match (times.turn, from_clock) {
        (Some(t), Some(c)) => Some(t.min(c)),
        (t, c) => t.or(c),
    };
    match hard {
        Some(h) => {
            let t = h.saturating_sub(TIME_MARGIN_MS.min(h / 5)).max(1);
            limits.time_ms = Some(limits.time_ms.map_or(t, |own| own.min(t)));
            if let Some(l) = left {
                limits.soft_ms = Some((l / MOVES_TO_GO + times.increment).clamp(1, limits.time_ms.unwrap_or(t)));
            }
        }
        None if user.is_unlimited() => limits.time_ms = Some(DEFAULT_MOVE_MS),
        None => {}
    }
    limits
}

/// Runs the protocol until `END` or the end of the input, both `Ok`. Errors are only those of
/// reading the input or writing the replies.
pub fn run<R: BufRead, W: Write, E: Write>(
    engine: &mut Engine<Gomoku>,
    options: &ProtocolOptions,
    mut input: R,
    mut out: W,
    _err: E,
) -> std::io::Result<()> {
    let mut s = Session {
        engine,
        options,
        board: GomokuBoard::new(),
        started: false,
        times: ManagerTimes::default(),
        games: 0,
        told: ParamLines::default(),
    };
    let mut raw = Vec::new();
    while let Some(read) = read_command(&mut input, &mut raw)? {
        let line = match read {
            Ok(line) => line,
            Err(refused) => {
                writeln!(out, "ERROR {}", one_line(&refused))?;
                out.flush()?;
                continue;
            }
        };
        let line = line.as_str();
        let mut words = line.split_whitespace();
        let command = words.next().unwrap_or("").to_ascii_uppercase();
        let rest: Vec<&str> = words.collect();
        let reply = match command.as_str() {
            "END" => return Ok(()),
            "START" => s.start(&rest),
            "RESTART" => s.restart(&rest),
            "BEGIN" => s.begin(&rest),
            "TURN" => s.turn(&rest),
            "BOARD" => s.board(&rest, &mut input)?,
            "TAKEBACK" => s.takeback(&rest),
            "INFO" => s.info(&rest),
            "ABOUT" => Reply::Lines(vec![format!(
                "name=\"{}\", version=\"{}\", author=\"evotune\", country=\"-\"",
                s.options.name,
                env!("CARGO_PKG_VERSION")
            )]),
            _ => Reply::Unknown(format!("command `{}` is not understood", clip(line))),
        };
        match reply {
            Reply::None => {}
            Reply::Lines(lines) => {
                for l in lines {
                    writeln!(out, "{l}")?;
                }
            }
            Reply::Error(why) => writeln!(out, "ERROR {}", one_line(&why))?,
            Reply::Unknown(why) => writeln!(out, "UNKNOWN {}", one_line(&why))?,
        }
        out.flush()?;
    }
    Ok(())
}

/// What a command answers.
enum Reply {
    None,
    Lines(Vec<String>),
    Error(String),
    Unknown(String),
}

struct Session<'a> {
    engine: &'a mut Engine<Gomoku>,
    options: &'a ProtocolOptions,
    board: GomokuBoard,
    /// `START` was received.
    started: bool,
    /// The time control of the `INFO` lines.
    times: ManagerTimes,
    /// Games begun, for the engine's seed.
    games: u64,
    /// The table `INFO NAME VALUE` lines have set, played from the next game or move on.
    told: ParamLines,
}

impl Session<'_> {
    fn start(&mut self, args: &[&str]) -> Reply {
        match args {
            [n] => match n.parse::<usize>() {
                Ok(n) if n == SIZE => {
                    self.started = true;
                    self.new_game();
                    Reply::Lines(vec!["OK".into()])
                }
                Ok(n) => Reply::Error(format!("unsupported size {n}: this engine plays {SIZE}x{SIZE}")),
                Err(_) => Reply::Error(format!("`START {}`: expected a board size", clip(n))),
            },
            _ => Reply::Error("expected `START n`".into()),
        }
    }

    fn restart(&mut self, args: &[&str]) -> Reply {
        if !args.is_empty() {
            return Reply::Error("`RESTART` takes no argument".into());
        }
        if let Err(e) = self.need_start() {
            return Reply::Error(e);
        }
        self.new_game();
        Reply::Lines(vec!["OK".into()])
    }

    fn new_game(&mut self) {
        self.board = GomokuBoard::new();
        self.games += 1;
        self.told.apply(self.engine);
        self.engine.new_game(self.games);
    }

    fn need_start(&self) -> Result<(), String> {
        if self.started {
            Ok(())
        } else {
            Err("no `START` yet".into())
        }
    }

    fn begin(&mut self, args: &[&str]) -> Reply {
        if !args.is_empty() {
            return Reply::Error("`BEGIN` takes no argument".into());
        }
        if let Err(e) = self.need_start() {
            return Reply::Error(e);
        }
        if self.board.board().stone_count() > 0 {
            return Reply::Error("`BEGIN` starts a game, but stones are on the board; send `RESTART` first".into());
        }
        self.engine_move()
    }

    /// The one `x,y` argument of a command that needs a started game (`usage`: the command's
    /// form, for the error).
    fn one_cell(&self, args: &[&str], usage: &str) -> Result<Cell, String> {
        self.need_start()?;
        match args {
            [xy] => parse_xy(xy),
            _ => Err(format!("expected `{usage}`")),
        }
    }

    fn turn(&mut self, args: &[&str]) -> Reply {
        let c = match self.one_cell(args, "TURN x,y") {
            Ok(c) => c,
            Err(e) => return Reply::Error(e),
        };
        if let Err(e) = self.playable() {
            return Reply::Error(e);
        }
        if let Err(e) = self.board.play_checked(&[c]) {
            return Reply::Error(format!("{}: {e}", clip(args[0])));
        }
        if self.board.status().is_over() {
            return Reply::Lines(vec![format!("MESSAGE {}", self.over())]);
        }
        self.engine_move()
    }

    /// `BOARD`: reads lines up to `DONE`, then moves. The stones go down in turns, alternating:
    /// the engine moves next, so it is the first player when both sides have as many stones
    /// and the second when the opponent has one more. (The order of a side's stones does not
    /// change a freestyle position.)
    fn board<R: BufRead>(&mut self, args: &[&str], input: &mut R) -> std::io::Result<Reply> {
        let mut own = Vec::new();
        let mut theirs = Vec::new();
        let mut bad: Option<String> = None;
        let mut raw = Vec::new();
        loop {
            let line = match read_command(input, &mut raw)? {
                None => {
                    bad.get_or_insert_with(|| "the input ended before `DONE`".into());
                    break;
                }
                Some(Ok(line)) => line,
                Some(Err(refused)) => {
                    bad.get_or_insert(refused);
                    continue;
                }
            };
            let line = line.as_str();
            if line.eq_ignore_ascii_case("DONE") {
                break;
            }
            let parts: Vec<&str> = line.split(',').map(str::trim).collect();
            match parts[..] {
                [x, y, f] => match (parse_xy(&format!("{x},{y}")), f) {
                    (Ok(c), "1") => own.push(c),
                    (Ok(c), "2") => theirs.push(c),
                    (Err(e), _) => {
                        bad.get_or_insert(e);
                    }
                    (Ok(_), other) => {
                        bad.get_or_insert(format!("`{}`: the field is 1 (own) or 2 (opponent)", clip(other)));
                    }
                },
                _ => {
                    bad.get_or_insert(format!("`{}`: expected x,y,field", clip(line)));
                }
            }
        }
        if !args.is_empty() {
            return Ok(Reply::Error("`BOARD` takes no argument".into()));
        }
        if let Err(e) = self.need_start() {
            return Ok(Reply::Error(e));
        }
        if let Some(e) = bad {
            return Ok(Reply::Error(e));
        }
        // The engine moves next: with as many stones as the opponent it is the first player.
        let (first, second) = if own.len() == theirs.len() {
            (&own, &theirs)
        } else if theirs.len() == own.len() + 1 {
            (&theirs, &own)
        } else {
            return Ok(Reply::Error(format!(
                "{} own and {} opponent stones: the engine's turn needs as many, or one more of the opponent's",
                own.len(),
                theirs.len()
            )));
        };
        let mut stones = Vec::with_capacity(own.len() + theirs.len());
        for i in 0..first.len().max(second.len()) {
            stones.extend(first.get(i));
            stones.extend(second.get(i));
        }
        let mut board = GomokuBoard::new();
        for &c in &stones {
            if board.status().is_over() {
                return Ok(Reply::Error("the position holds a five already".into()));
            }
            if let Err(e) = board.play_checked(&[c]) {
                let (x, y) = xy_of(c);
                return Ok(Reply::Error(format!("{x},{y}: {e}")));
            }
        }
        self.new_game();
        self.board = board;
        if self.board.status().is_over() {
            return Ok(Reply::Error(format!("the game is over ({})", self.over())));
        }
        Ok(self.engine_move())
    }

    fn takeback(&mut self, args: &[&str]) -> Reply {
        let c = match self.one_cell(args, "TAKEBACK x,y") {
            Ok(c) => c,
            Err(e) => return Reply::Error(e),
        };
        if self.board.board().history().last() != Some(&c) {
            return Reply::Error(format!("{}: not the last stone played", clip(args[0])));
        }
        self.board.unplace();
        Reply::Lines(vec!["OK".into()])
    }

    fn info(&mut self, args: &[&str]) -> Reply {
        let [key, value, ..] = args else {
            return Reply::Error("expected `INFO key value`".into());
        };
        let number = || value.parse::<u64>().map_err(|_| format!("INFO {key}: `{}` is not a number", clip(value)));
        match key.to_ascii_lowercase().as_str() {
            "timeout_turn" => match number() {
                Ok(v) => self.times.turn = (v > 0).then_some(v),
                Err(e) => return Reply::Error(e),
            },
            "timeout_match" => match number() {
                Ok(v) => self.times.game = (v > 0 && v < UNLIMITED_LEFT).then_some(v),
                Err(e) => return Reply::Error(e),
            },
            "time_left" => match number() {
                Ok(v) => self.times.left = (v < UNLIMITED_LEFT).then_some(v),
                Err(e) => return Reply::Error(e),
            },
            "time_increment" => match number() {
                Ok(v) => self.times.increment = v,
                Err(e) => return Reply::Error(e),
            },
            "rule" => match number() {
                Ok(v) if v & 1 == 1 => {
                    return Reply::Lines(vec!["MESSAGE rule exactly-five is not supported; playing freestyle".into()])
                }
                Ok(_) => {}
                Err(e) => return Reply::Error(e),
            },
            // A value of the engine's table (evotune's own key: a tuner telling one process
            // one individual after another).
            _ if ParamLines::knows(self.engine, key) => {
                if let Err(e) = self.told.set(self.engine, key, value) {
                    return Reply::Error(format!("INFO {e}"));
                }
            }
            // max_memory, game_type, evaluate, folder, and keys of other managers: nothing
            // to do.
            _ => {}
        }
        Reply::None
    }

    fn playable(&self) -> Result<(), String> {
        if self.board.status().is_over() {
            return Err(format!("the game is over ({})", self.over()));
        }
        Ok(())
    }

    fn over(&self) -> String {
        let b = self.board.board();
        match b.winner() {
            Some(Colour::Black) => "black has five".into(),
            Some(Colour::White) => "white has five".into(),
            None => "the board is full".into(),
        }
    }

    /// The limits of the next search: the user's, within the manager's time.
    fn limits(&self) -> Limits {
        move_limits(self.options.limits, &self.times)
    }

    /// Searches, plays and prints the engine's move.
    fn engine_move(&mut self) -> Reply {
        let limits = self.limits();
        self.told.apply(self.engine);
        let r = self.engine.search(&mut self.board, &limits);
        let stone = match r.best.stones() {
            [c] => *c,
            _ => return Reply::Error("no legal move".into()),
        };
        // The engine's move goes through the same checks as the opponent's.
        if let Err(e) = self.board.play_checked(&[stone]) {
            return Reply::Error(format!("the engine chose an illegal move: {e}"));
        }
        let (x, y) = xy_of(stone);
        let mut lines = Vec::new();
        if self.options.verbose {
            let budget = limits.time_ms.map(|t| format!(" of {t}")).unwrap_or_default();
            lines.push(format!(
                "MESSAGE depth {} score {} nodes {} ms {}{budget}",
                r.depth,
                r.score,
                r.nodes,
                r.elapsed.as_millis()
            ));
        }
        lines.push(format!("{x},{y}"));
        lines.into()
    }
}

impl From<Vec<String>> for Reply {
    fn from(lines: Vec<String>) -> Reply {
        Reply::Lines(lines)
    }
}

/// The cell of `x,y` (from the top-left), or why not.
fn parse_xy(text: &str) -> Result<Cell, String> {
    let bad = || format!("`{}`: expected x,y with 0 <= x, y < {SIZE}", clip(text));
    let (x, y) = text.split_once(',').ok_or_else(bad)?;
    let x: usize = x.trim().parse().map_err(|_| bad())?;
    let y: usize = y.trim().parse().map_err(|_| bad())?;
    if x >= SIZE || y >= SIZE {
        return Err(bad());
    }
    Ok((x + (SIZE - 1 - y) * SIZE) as Cell)
}

/// `x,y` (from the top-left) of a cell.
fn xy_of(c: Cell) -> (usize, usize) {
    let (x, y) = (c as usize % SIZE, c as usize / SIZE);
    (x, SIZE - 1 - y)
}

/// A move of `x,y`, for tests.
pub fn move_at(x: usize, y: usize) -> Move {
    Move::single((x + (SIZE - 1 - y) * SIZE) as Cell)
}

#[cfg(test)]
mod tests;
