//! The protocols the referee speaks to outside engines: what it says at each point of a game
//! and how it reads the answers. Only words here; the session
//! ([`crate::arena::outside::session`]) does the talking, the timing and the verdicts.
//!
//! The referee keeps the game in record notation (docs/notation.md); each protocol translates
//! to its own notation on the way out and back. What it says:
//!
//! | protocol | game starts | engine to move | reply |
//! |---|---|---|---|
//! | `connect6` | `new white` (as White) | `new black` (its first move, as Black), `move XXYY` (the opponent's turn) | `move XXYY` |
//! | `cloudict` | `new white` | `black XXYY` / `white XXYY` for each turn it has not seen, then `next` | `move XXYY` |
//! | `pbrain` | `RESTART` -> `OK` | `INFO` time lines, then `BEGIN`, `BOARD` .. `DONE` (first turn), `TURN x,y` | `x,y` |
//! | `line` | `new` -> `ok` | `move M` -> `ok` for each unseen move, `roll d` -> `ok`, then `go` | `move M` |
//!
//! The plain competition protocol cannot place stones without asking for a move, so its games
//! start from the empty board; `cloudict` sets any opening up.

use crate::core::game::Side;
use crate::games::connect::notation::{
    cell_to_record, move_to_competition, move_to_record, parse_competition_move, parse_record_move, play_move,
};
use crate::games::connect::{Board, Cell, Rules};

/// How evotune speaks to an outside engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Protocol {
    /// The Connect6 competition protocol (`new black|white`, `move`, `end`, `quit`); its games
    /// start from the empty board.
    Connect6,
    /// The competition protocol with the Cloudict / ConnectMore extensions: openings are set
    /// up with `black` / `white`, moves asked for with `next` (the Connect6 default).
    Cloudict,
    /// Gomocup's pbrain protocol (`START`, `RESTART`, `BEGIN`, `TURN`, `BOARD`, `INFO`, `END`;
    /// the Gomoku default).
    Pbrain,
    /// evotune's line protocol (`new`, `move`, `roll`, `go`, `quit`), in record notation: the
    /// protocol (and the default) of every game but Connect6 and Gomoku.
    Line,
}

/// A line the referee says before asking, and the word that acknowledges it, if the protocol
/// acknowledges it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Say {
    pub line: String,
    pub ack: Option<&'static str>,
}

impl Say {
    fn quiet(line: impl Into<String>) -> Say {
        Say { line: line.into(), ack: None }
    }

    fn acked(line: impl Into<String>, ack: &'static str) -> Say {
        Say { line: line.into(), ack: Some(ack) }
    }
}

/// Where a game stands when the engine is to move.
#[derive(Clone, Copy, Debug)]
pub struct Turn<'a> {
    /// Every move from the start, in record notation.
    pub history: &'a [String],
    /// How many of them the engine has been told (its own moves included).
    pub told: usize,
    /// The engine's side.
    pub side: Side,
    /// Whether this is the engine's first turn of the game.
    pub first: bool,
    /// The die, when the referee has just rolled it for this turn (outcome 0 is face 1).
    pub roll: Option<u32>,
    /// What the engine may use for this move, and its time left on a game clock.
    pub budget_ms: Option<u64>,
    pub left_ms: Option<u64>,
}

/// What the referee says at a turn: lines that set the engine up (not timed), then the lines
/// that ask for the move (timed from the first of them to the reply).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub before: Vec<Say>,
    pub ask: Vec<String>,
}

/// What a line from the engine is, while the referee waits for a move. Only a move in the
/// protocol's notation is a move: anything else is skipped (an engine that never moves loses
/// on time), so that a line the engine wrote about something else (an `ERROR` for a command
/// it misread, a `MESSAGE`) never ends a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Heard {
    /// Comments and information the protocol allows at any time: skipped quietly.
    Chatter,
    /// A move, in the protocol's notation.
    Move(String),
    /// A line that is neither a move nor allowed chatter (`ERROR ...`, `UNKNOWN ...`, a
    /// refusal, garbage): noted in the engine's log and skipped.
    Other,
}

const CONNECT6: Rules = Rules::CONNECT6;
const GOMOKU: Rules = Rules::GOMOKU;

impl Protocol {
    pub const ALL: [Protocol; 4] = [Protocol::Connect6, Protocol::Cloudict, Protocol::Pbrain, Protocol::Line];

    pub fn name(self) -> &'static str {
        match self {
            Protocol::Connect6 => "connect6",
            Protocol::Cloudict => "cloudict",
            Protocol::Pbrain => "pbrain",
            Protocol::Line => "line",
        }
    }

    /// The protocol of this name, or an error listing them.
    pub fn parse(text: &str) -> Result<Protocol, String> {
        Protocol::ALL.into_iter().find(|p| p.name() == text).ok_or_else(|| {
            let names: Vec<&str> = Protocol::ALL.iter().map(|p| p.name()).collect();
            format!("no protocol `{text}`; the protocols are {}", names.join(", "))
        })
    }

    /// The game a protocol of one game was made for (the competition protocols Connect6's,
    /// pbrain Gomocup's); `None` for the line protocol, which speaks the record notation of any
    /// game, so that a new game's engines need nothing here.
    fn own_game(self) -> Option<&'static str> {
        match self {
            Protocol::Connect6 | Protocol::Cloudict => Some("connect6"),
            Protocol::Pbrain => Some("gomoku"),
            Protocol::Line => None,
        }
    }

    /// Whether an engine on this protocol can play `game`: the one game of a game's own
    /// protocol; with the line protocol, every game that has no protocol of its own.
    pub fn plays(self, game: &str) -> bool {
        match self.own_game() {
            Some(own) => own == game,
            None => Protocol::ALL.iter().all(|p| p.own_game() != Some(game)),
        }
    }

    /// The games an engine on this protocol can play, for messages.
    pub fn games_text(self) -> String {
        match self.own_game() {
            Some(own) => own.to_string(),
            None => {
                let mut own: Vec<&str> = Protocol::ALL.iter().filter_map(|p| p.own_game()).collect();
                own.dedup();
                format!("every game but {}", own.join(" and "))
            }
        }
    }

    /// The protocols of a game.
    pub fn for_game(game: &str) -> Vec<Protocol> {
        Protocol::ALL.into_iter().filter(|p| p.plays(game)).collect()
    }

    /// The protocol an engine of `game` speaks unless told otherwise: the first of its
    /// protocols that can start from any opening (Cloudict's rather than the plain competition
    /// protocol for Connect6).
    pub fn default_for(game: &str) -> Protocol {
        Protocol::ALL.into_iter().find(|&p| p.plays(game) && p.sets_up_openings()).unwrap_or(Protocol::Line)
    }

    /// Whether a game can be set up from an opening (all but the plain competition protocol,
    /// whose games start from the empty board).
    fn sets_up_openings(self) -> bool {
        self != Protocol::Connect6
    }

    /// Whether a game can start from this opening with an engine on this protocol.
    pub fn starts_from(self, opening: &[String]) -> Result<(), String> {
        if !self.sets_up_openings() && !opening.is_empty() {
            return Err(format!(
                "the connect6 protocol starts every game from the empty board and cannot set up an opening of {} move(s): \
                 use the cloudict protocol, or an opening suite of empty openings (a line `-`)",
                opening.len()
            ));
        }
        Ok(())
    }

    /// The line that checks a new engine speaks the protocol, and the first word of its answer.
    pub fn hello(self) -> (&'static str, &'static str) {
        match self {
            Protocol::Connect6 => ("name?", "name"),
            Protocol::Cloudict => ("name", "name"),
            Protocol::Pbrain => ("START 15", "OK"),
            Protocol::Line => ("new", "ok"),
        }
    }

    /// Another form of the greeting for engines that ignore the first one, tried when it
    /// has no answer for a moment: the competition protocol's `name?` is `name` in Cloudict
    /// and the engines built on it.
    pub fn fallback_hello(self) -> Option<&'static str> {
        match self {
            Protocol::Connect6 => Some("name"),
            _ => None,
        }
    }

    /// The pace of an engine on this protocol unless its spec says otherwise (`pace=MS`), in
    /// ms: Gomocup brains built like Rapfi print their move a moment before they stop
    /// thinking and drop the first word of a command that arrives in that moment.
    pub fn default_pace_ms(self) -> u64 {
        match self {
            Protocol::Pbrain => 30,
            _ => 0,
        }
    }

    /// The line that asks an engine to exit.
    pub fn quit(self) -> &'static str {
        match self {
            Protocol::Connect6 | Protocol::Cloudict | Protocol::Line => "quit",
            Protocol::Pbrain => "END",
        }
    }

    /// What starts a game in which the engine plays `side`.
    pub fn new_game(self, side: Side) -> Vec<Say> {
        match self {
            // As Black the engine is told of the game by the first request, `new black`.
            Protocol::Connect6 if side == Side::First => Vec::new(),
            // `next` plays whichever side is to move, so the colour here does not matter;
            // `new white` is the one that clears the board without asking for a move.
            Protocol::Connect6 | Protocol::Cloudict => vec![Say::quiet("new white")],
            Protocol::Pbrain => vec![Say::acked("RESTART", "OK"), Say::quiet("INFO rule 0")],
            Protocol::Line => vec![Say::acked("new", "ok")],
        }
    }

    /// The word that answers every line the referee sends outside a game (init lines,
    /// parameter lines), if the protocol answers every line: the line protocol's `ok`.
    pub fn line_ack(self) -> Option<&'static str> {
        match self {
            Protocol::Line => Some("ok"),
            Protocol::Connect6 | Protocol::Cloudict | Protocol::Pbrain => None,
        }
    }

    /// What ends a game, if the protocol says so.
    pub fn end_game(self) -> Option<&'static str> {
        match self {
            Protocol::Connect6 | Protocol::Cloudict => Some("end"),
            Protocol::Pbrain | Protocol::Line => None,
        }
    }

    /// What to say so that the engine knows the game and moves. An error when the protocol
    /// cannot say it (the plain competition protocol and an opening).
    pub fn request(self, turn: &Turn) -> Result<Request, String> {
        let unseen = &turn.history[turn.told.min(turn.history.len())..];
        let mut before = Vec::new();
        let ask = match self {
            Protocol::Connect6 => match (turn.first, turn.side, unseen) {
                (true, Side::First, []) if turn.history.is_empty() => vec!["new black".to_string()],
                (_, _, [last]) if !(turn.first && turn.side == Side::First) => {
                    vec![format!("move {}", competition(last, true)?)]
                }
                _ => return Err(self.starts_from(turn.history).err().unwrap_or_else(|| out_of_step(self, turn))),
            },
            Protocol::Cloudict => {
                for (i, m) in unseen.iter().enumerate() {
                    let colour = if (turn.told + i).is_multiple_of(2) { "black" } else { "white" };
                    // Unpadded: Cloudict reads `JJ@@` as two stones, the second off the board.
                    before.push(Say::quiet(format!("{colour} {}", competition(m, false)?)));
                }
                vec!["next".to_string()]
            }
            Protocol::Pbrain => {
                if let Some(t) = turn.budget_ms {
                    before.push(Say::quiet(format!("INFO timeout_turn {t}")));
                }
                if let Some(l) = turn.left_ms {
                    before.push(Say::quiet(format!("INFO time_left {l}")));
                }
                match (turn.first, unseen) {
                    (true, _) if turn.history.is_empty() => vec!["BEGIN".to_string()],
                    (true, _) => {
                        let mut lines = vec!["BOARD".to_string()];
                        for (i, m) in turn.history.iter().enumerate() {
                            let (x, y) = pbrain_xy(m)?;
                            let mover = if i.is_multiple_of(2) { Side::First } else { Side::Second };
                            lines.push(format!("{x},{y},{}", if mover == turn.side { 1 } else { 2 }));
                        }
                        lines.push("DONE".into());
                        lines
                    }
                    (false, [last]) => {
                        let (x, y) = pbrain_xy(last)?;
                        vec![format!("TURN {x},{y}")]
                    }
                    _ => return Err(out_of_step(self, turn)),
                }
            }
            Protocol::Line => {
                before.extend(unseen.iter().map(|m| Say::acked(format!("move {m}"), "ok")));
                if let Some(outcome) = turn.roll {
                    before.push(Say::acked(format!("roll {}", outcome + 1), "ok"));
                }
                vec!["go".to_string()]
            }
        };
        Ok(Request { before, ask })
    }

    /// What a line from the engine is, when a move is expected.
    pub fn classify(self, line: &str) -> Heard {
        let line = line.trim();
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let word = word.to_ascii_lowercase();
        let rest = rest.trim();
        match self {
            _ if line.is_empty() => Heard::Chatter,
            Protocol::Connect6 | Protocol::Cloudict | Protocol::Line if word == "error" => Heard::Other,
            // Cloudict itself prints a help banner at start (which mentions `move XXXX`) and
            // its search's progress before each move on standard output, and may end a
            // message without a newline just before its move (`We loss!move KLMN`): a line
            // ending in `move` and one word of competition notation is its move, and every
            // other line is chatter (an engine that never moves loses on time).
            Protocol::Cloudict => match line.rfind("move ") {
                Some(at)
                    if (at == 0 || !line.as_bytes()[at - 1].is_ascii_alphanumeric())
                        && is_competition_word(line[at + 5..].trim()) =>
                {
                    Heard::Move(line[at + 5..].trim().to_string())
                }
                _ => Heard::Chatter,
            },
            Protocol::Line if line.starts_with('#') => Heard::Chatter,
            // Engines of the competition protocol (Cloudict among them) print search
            // statistics too: anything but a move or an error is chatter.
            Protocol::Connect6 if word == "move" && is_competition_word(rest) => Heard::Move(rest.to_string()),
            Protocol::Connect6 => Heard::Chatter,
            Protocol::Line if word == "move" && !rest.is_empty() && !rest.contains(char::is_whitespace) => {
                Heard::Move(rest.to_string())
            }
            // The end of a game.
            Protocol::Line if word == "end" => Heard::Chatter,
            Protocol::Pbrain => match word.as_str() {
                "message" | "debug" | "suggest" | "ok" => Heard::Chatter,
                _ if is_pbrain_xy(line) => Heard::Move(line.to_string()),
                _ => Heard::Other,
            },
            _ => Heard::Other,
        }
    }

    /// The move an engine replied, in record notation. `history` is the game before it, of
    /// which `so_far` keeps what the protocol needs from one reply of the game to the next.
    pub fn to_record(self, reply: &str, history: &[String], so_far: &mut GameSoFar) -> Result<String, String> {
        match self {
            Protocol::Connect6 | Protocol::Cloudict => {
                let stones = parse_competition_move(CONNECT6, reply, false).map_err(|e| e.to_string())?;
                Ok(move_to_record(CONNECT6, &winning_part(&stones, history, so_far)))
            }
            Protocol::Pbrain => {
                let bad = || format!("expected x,y with 0 <= x, y < {}", GOMOKU.width);
                let (x, y) = reply.split_once(',').ok_or_else(bad)?;
                let (x, y): (usize, usize) =
                    (x.trim().parse().map_err(|_| bad())?, y.trim().parse().map_err(|_| bad())?);
                let size = GOMOKU.width as usize;
                if x >= size || y >= size {
                    return Err(bad());
                }
                Ok(cell_to_record(GOMOKU, (x + (size - 1 - y) * size) as Cell))
            }
            Protocol::Line if reply.is_empty() || reply.contains(char::is_whitespace) => {
                Err("expected one move after `move`".into())
            }
            Protocol::Line => Ok(reply.to_string()),
        }
    }
}

impl std::fmt::Display for Protocol {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A Connect6 move of the record in competition notation; a single stone padded with `@@` as
/// the competition platform writes it when `pad`.
fn competition(record: &str, pad: bool) -> Result<String, String> {
    let stones = parse_record_move(CONNECT6, record).map_err(|e| e.to_string())?;
    Ok(move_to_competition(CONNECT6, &stones, false, pad))
}

/// Whether a word looks like a Connect6 move in competition notation: two or four letters or
/// `@`s (`JJ`, `JJ@@`, `KLMN`), whether or not the cells exist.
fn is_competition_word(word: &str) -> bool {
    matches!(word.len(), 2 | 4) && word.bytes().all(|b| b.is_ascii_alphabetic() || b == b'@')
}

/// Whether a line is pbrain coordinates, `x,y` (two whole numbers), on the board or not.
fn is_pbrain_xy(line: &str) -> bool {
    let number = |t: &str| !t.trim().is_empty() && t.trim().bytes().all(|b| b.is_ascii_digit());
    line.split_once(',').is_some_and(|(x, y)| number(x) && number(y))
}

/// A Gomoku stone of the record as pbrain's `x,y` from the top-left corner.
fn pbrain_xy(record: &str) -> Result<(usize, usize), String> {
    let stones = parse_record_move(GOMOKU, record).map_err(|e| e.to_string())?;
    let [c] = stones[..] else { return Err(format!("`{record}`: one stone a turn in Gomoku")) };
    let size = GOMOKU.width as usize;
    Ok((c as usize % size, size - 1 - c as usize / size))
}

/// What a protocol keeps of one game between an engine's replies: for Connect6, the board
/// of the moves seen so far, brought up to date with the new ones at each reply rather than
/// played again from the start (which, move after move, cost the referee more than
/// everything else it does in a game of evotune's engine at depth 3).
#[derive(Default)]
pub struct GameSoFar {
    board: Option<Box<Board>>,
    /// How many moves of the game the board holds.
    moves: usize,
}

impl GameSoFar {
    /// The Connect6 board after `history`, which extends the history of the last call (or
    /// the board is made again); `None` if the history does not replay.
    fn connect6(&mut self, history: &[String]) -> Option<&mut Board> {
        if self.board.is_none() || self.moves > history.len() {
            self.board = Some(Box::new(Board::new(CONNECT6)));
            self.moves = 0;
        }
        let board = self.board.as_deref_mut()?;
        for m in &history[self.moves..] {
            let played = parse_record_move(CONNECT6, m).map_err(|e| e.to_string()).and_then(|s| play_move(board, &s));
            if played.is_err() {
                self.board = None;
                return None;
            }
            self.moves += 1;
        }
        self.board.as_deref_mut()
    }
}

/// The stones of a Connect6 reply that count: a pair whose first stone already wins counts
/// as that stone, as on the competition platform (engines send whole pairs).
fn winning_part(stones: &[Cell], history: &[String], so_far: &mut GameSoFar) -> Vec<Cell> {
    if let ([first, _], Some(board)) = (stones, so_far.connect6(history)) {
        if board.try_play(*first).is_ok() {
            let wins = board.winner().is_some();
            board.undo();
            if wins {
                return vec![*first];
            }
        }
    }
    stones.to_vec()
}

fn out_of_step(p: Protocol, turn: &Turn) -> String {
    format!(
        "the {p} protocol cannot bring the engine up to move {} ({} move(s) it has not seen)",
        turn.history.len() + 1,
        turn.history.len() - turn.told.min(turn.history.len())
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    fn turn<'a>(history: &'a [String], told: usize, side: Side, first: bool) -> Turn<'a> {
        Turn { history, told, side, first, roll: None, budget_ms: None, left_ms: None }
    }

    #[test]
    fn cloudict_places_what_the_engine_has_not_seen_then_asks() {
        let h = moves("j10 k11k9 h8l12");
        let r = Protocol::Cloudict.request(&turn(&h, 0, Side::Second, true)).unwrap();
        let before: Vec<&str> = r.before.iter().map(|s| s.line.as_str()).collect();
        assert_eq!(before, ["black JJ", "white KKKI", "black HHLL"]);
        assert_eq!(r.ask, ["next"]);
        let r = Protocol::Cloudict.request(&turn(&h, 2, Side::Second, false)).unwrap();
        assert_eq!(r.before, [Say::quiet("black HHLL")]);
        assert_eq!(Protocol::Cloudict.to_record("KLMN", &h, &mut GameSoFar::default()), Ok("k12m14".to_string()));
        assert_eq!(Protocol::Cloudict.classify("move KLMN"), Heard::Move("KLMN".into()));
        assert_eq!(Protocol::Cloudict.classify("# board"), Heard::Chatter);
        assert_eq!(Protocol::Cloudict.classify("error occupied"), Heard::Other);
        // Cloudict's own engine talks on standard output: its banner and search statistics
        // are chatter, and a message left without a newline does not hide the move.
        assert_eq!(Protocol::Cloudict.classify("On help for GameEngine Cloudict.Connect6"), Heard::Chatter);
        assert_eq!(Protocol::Cloudict.classify("AB Time :\t0.739"), Heard::Chatter);
        assert_eq!(Protocol::Cloudict.classify("Set the search depth to 4."), Heard::Chatter);
        assert_eq!(Protocol::Cloudict.classify("We loss!move KLMN"), Heard::Move("KLMN".into()));
        assert_eq!(Protocol::Cloudict.classify("remove this"), Heard::Chatter);
        assert_eq!(Protocol::Cloudict.classify("move XXXX   - tell the engine the move"), Heard::Chatter);
        assert_eq!(Protocol::Cloudict.classify("the engine will search the move for next step."), Heard::Chatter);
        // A malformed move is still read as the move (and then refused as unreadable).
        assert_eq!(Protocol::Cloudict.classify("move ZZZZ"), Heard::Move("ZZZZ".into()));
        assert_eq!(Protocol::Connect6.classify("hello there"), Heard::Chatter);
        assert_eq!(Protocol::Connect6.classify("move hello there"), Heard::Chatter);
        assert_eq!(Protocol::Connect6.classify("error occupied"), Heard::Other);
        assert_eq!(Protocol::Connect6.classify("move JJ@@"), Heard::Move("JJ@@".into()));
        assert_eq!(Protocol::Line.classify("move a1 b2"), Heard::Other);
        assert_eq!(Protocol::Line.classify("error what"), Heard::Other);
    }

    #[test]
    fn the_competition_protocol_starts_from_the_empty_board() {
        let empty: Vec<String> = Vec::new();
        let r = Protocol::Connect6.request(&turn(&empty, 0, Side::First, true)).unwrap();
        assert_eq!((r.before, r.ask), (vec![], vec!["new black".to_string()]));
        assert_eq!(Protocol::Connect6.new_game(Side::Second), [Say::quiet("new white")]);
        let h = moves("j10 k11k9");
        let r = Protocol::Connect6.request(&turn(&h, 1, Side::First, false)).unwrap();
        assert_eq!(r.ask, ["move KKKI"]);
        let e = Protocol::Connect6.request(&turn(&h, 0, Side::First, true)).unwrap_err();
        assert!(e.contains("empty board"), "{e}");
        assert!(Protocol::Connect6.starts_from(&h).is_err() && Protocol::Cloudict.starts_from(&h).is_ok());
    }

    #[test]
    fn a_pair_whose_first_stone_wins_counts_as_that_stone() {
        // Black has j10 k10 l10 m10 n10 after these turns; o10 makes six.
        let h = moves("j10 a1c1 k10l10 e1g1 m10n10 a19c19");
        assert_eq!(Protocol::Cloudict.to_record("OJAR", &h, &mut GameSoFar::default()), Ok("o10".to_string()));
        assert_eq!(Protocol::Cloudict.to_record("AJOJ", &h, &mut GameSoFar::default()), Ok("a10o10".to_string()));
        assert!(Protocol::Cloudict.to_record("ZZ", &h, &mut GameSoFar::default()).is_err());
        // Followed through the game, reply after reply, as a session does: the same.
        let mut so_far = GameSoFar::default();
        for n in 1..h.len() {
            assert_eq!(Protocol::Cloudict.to_record("AJOJ", &h[..n], &mut so_far), Ok("a10o10".to_string()));
        }
        assert_eq!(Protocol::Cloudict.to_record("OJAR", &h, &mut so_far), Ok("o10".to_string()));
        assert_eq!(Protocol::Cloudict.to_record("AJOJ", &h, &mut so_far), Ok("a10o10".to_string()));
    }

    #[test]
    fn pbrain_begins_sets_boards_up_and_turns() {
        let empty: Vec<String> = Vec::new();
        let t = Turn { budget_ms: Some(500), left_ms: Some(9000), ..turn(&empty, 0, Side::First, true) };
        let r = Protocol::Pbrain.request(&t).unwrap();
        let before: Vec<&str> = r.before.iter().map(|s| s.line.as_str()).collect();
        assert_eq!((before, r.ask), (vec!["INFO timeout_turn 500", "INFO time_left 9000"], vec!["BEGIN".to_string()]));
        // h8 is the centre, 7,7 from the top-left; a1 is the bottom-left corner, 0,14.
        let h = moves("h8 a1 b2");
        let r = Protocol::Pbrain.request(&turn(&h, 0, Side::Second, true)).unwrap();
        assert_eq!(r.ask, ["BOARD", "7,7,2", "0,14,1", "1,13,2", "DONE"]);
        let r = Protocol::Pbrain.request(&turn(&h, 2, Side::Second, false)).unwrap();
        assert_eq!(r.ask, ["TURN 1,13"]);
        assert_eq!(Protocol::Pbrain.to_record("7,7", &h, &mut GameSoFar::default()), Ok("h8".to_string()));
        assert!(Protocol::Pbrain.to_record("15,0", &h, &mut GameSoFar::default()).is_err());
        assert_eq!(Protocol::Pbrain.classify("MESSAGE thinking"), Heard::Chatter);
        // Only coordinates are a move: an engine's ERROR for a command it misread (Rapfi drops
        // the first word of a command that arrives as it finishes a move) is not.
        for other in ["UNKNOWN what", "seven seven", "ERROR Unknown command: TIMEOUT_TURN", "ERROR 1,2", "7,7,1", ","] {
            assert_eq!(Protocol::Pbrain.classify(other), Heard::Other, "{other}");
        }
        assert_eq!(Protocol::Pbrain.classify(" 7, 12 "), Heard::Move("7, 12".into()));
        assert_eq!(Protocol::Pbrain.classify("DEBUG 1,2"), Heard::Chatter);
    }

    #[test]
    fn the_line_protocol_sends_moves_and_rolls() {
        let h = moves("351624 162534");
        let t = Turn { roll: Some(3), ..turn(&h, 0, Side::First, true) };
        let r = Protocol::Line.request(&t).unwrap();
        assert_eq!(
            r.before,
            [Say::acked("move 351624", "ok"), Say::acked("move 162534", "ok"), Say::acked("roll 4", "ok")]
        );
        assert_eq!(r.ask, ["go"]);
        assert_eq!(Protocol::Line.classify("end first corner"), Heard::Chatter);
        assert_eq!(Protocol::Line.to_record("4:b4c3", &h, &mut GameSoFar::default()), Ok("4:b4c3".to_string()));
        assert!(Protocol::Line.to_record("", &h, &mut GameSoFar::default()).is_err());
    }

    #[test]
    fn names_and_games() {
        assert_eq!(Protocol::parse("pbrain"), Ok(Protocol::Pbrain));
        assert!(Protocol::parse("uci").unwrap_err().contains("connect6, cloudict, pbrain, line"));
        assert_eq!(Protocol::for_game("connect6"), [Protocol::Connect6, Protocol::Cloudict]);
        assert_eq!(Protocol::for_game("gomoku"), [Protocol::Pbrain]);
        assert_eq!(Protocol::for_game("a-new-game"), [Protocol::Line]);
        assert_eq!(Protocol::Line.games_text(), "every game but connect6 and gomoku");
        let defaults: Vec<Protocol> = crate::registry::names().into_iter().map(Protocol::default_for).collect();
        assert_eq!(defaults, [Protocol::Cloudict, Protocol::Pbrain, Protocol::Line, Protocol::Line]);
        for g in crate::registry::names() {
            assert!(Protocol::default_for(g).plays(g), "{g}");
        }
    }
}
