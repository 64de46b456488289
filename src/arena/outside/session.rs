//! One outside engine's side of one game: a process from its pool, told the game as it goes
//! and asked for moves, each reply timed by the referee from the first line of the request to
//! the reply.
//!
//! Whatever goes wrong ends the game with a [`Forfeit`]: the engine ended (`crash`), it did
//! not move in time (`timeout`, and it is killed), or it replied a move that is none
//! (`illegal`); the referee then checks the move itself against the rules. While it waits
//! for a move, lines that are not one (an `ERROR` for a command the engine misread,
//! comments) are noted in the log and skipped. When the exchange fails outside a move (an
//! acknowledgement that never comes, a game the protocol cannot describe), nobody lost on the
//! board: the game is `aborted` and left out of the score. At the end of a game that went in
//! order the process goes back to the pool for the next game.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::arena::outside::pool::{clip, is_refusal, Forfeit, NoAnswer, OutsideEngine, REFUSAL};
use crate::arena::outside::process::{EngineProcess, ReadError};
use crate::arena::outside::protocol::{GameSoFar, Heard, Say, Turn};
use crate::arena::records::Reason;
use crate::core::game::Side;

/// The most comment lines of one reply kept in [`Reply::chatter`] (the last ones).
const MAX_CHATTER: usize = 32;

/// How long the referee waits, and what it tells the engine about time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnTime {
    /// What the engine may use for this move (pbrain's `INFO timeout_turn`).
    pub budget_ms: Option<u64>,
    /// Its time left on the game clock (pbrain's `INFO time_left`).
    pub left_ms: Option<u64>,
    /// When the move is lost on time: the reply must come within this of the request.
    pub wait: Duration,
}

/// An engine's move: record notation, and the time from the request to the reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    pub text: String,
    pub ms: u64,
    /// The last comments the engine printed while it thought (pbrain's `MESSAGE` lines,
    /// search statistics; at most 32): where an opening's judge reads the engine's evaluation.
    pub chatter: Vec<String>,
}

/// One engine's side of a game in progress.
pub struct Session {
    engine: Arc<OutsideEngine>,
    /// `None` once the engine has lost the game its way (the process is gone then).
    process: Option<EngineProcess>,
    side: Side,
    /// Moves of the game the engine knows, its own included.
    told: usize,
    /// Whether it has been asked for a move in this game.
    asked: bool,
    /// The wait for answers that are not moves (acknowledgements, a new engine's greeting).
    hang: Duration,
    /// What the protocol keeps of the game to read the engine's replies.
    so_far: GameSoFar,
    /// Whether the process was told its values by lines its protocol does not acknowledge
    /// and has not moved since: an `error` from it before its first move refuses them (it
    /// answers the lines in order, so before any line of the game).
    unconfirmed: bool,
}

impl Session {
    /// Takes a process for a game in which the engine plays `side` (with `values`, when its
    /// parameters are tuned) and starts the game.
    pub fn start(engine: &Arc<OutsideEngine>, values: &[i32], side: Side, hang: Duration) -> Result<Session, Forfeit> {
        let process = engine.checkout(values, hang)?;
        let unconfirmed = engine.awaits_refusal(&process);
        let mut session = Session {
            engine: Arc::clone(engine),
            process: Some(process),
            side,
            told: 0,
            asked: false,
            hang,
            so_far: GameSoFar::default(),
            unconfirmed,
        };
        for say in engine.protocol().new_game(side) {
            match say.ack {
                // Said with the first request of the game, in the same write.
                None => session.process.as_mut().expect("a process just taken").queue(&say.line),
                Some(_) => session.say(&say)?,
            }
        }
        Ok(session)
    }

    /// Asks for a move in the game `history` (record moves from the start), the die just
    /// rolled as `roll` in dice games.
    pub fn think(&mut self, history: &[String], roll: Option<u32>, time: &TurnTime) -> Result<Reply, Forfeit> {
        let protocol = self.engine.protocol();
        let turn = Turn {
            history,
            told: self.told,
            side: self.side,
            first: !self.asked,
            roll,
            budget_ms: time.budget_ms,
            left_ms: time.left_ms,
        };
        let request = match protocol.request(&turn) {
            Ok(r) => r,
            // Commands check openings against protocols before any game, so this is the
            // referee's limit, not the engine's fault; it still must not end the match.
            Err(e) => return Err(self.lose(Reason::Aborted, format!("cannot be told this game: {e}"))),
        };
        if let Some(p) = self.process.as_mut() {
            let unasked = self.engine.discard_pending(p);
            if let Some(answer) = unasked.iter().find(|l| self.unconfirmed && is_refusal(l)) {
                return Err(self.refused(answer));
            }
        }
        // Lines without acknowledgement go together with the request, in one write.
        let mut quiet: Vec<&str> = Vec::new();
        for say in &request.before {
            if say.ack.is_some() {
                self.send_all(&quiet)?;
                quiet.clear();
                self.say(say)?;
            } else {
                quiet.push(&say.line);
            }
        }
        quiet.extend(request.ask.iter().map(String::as_str));
        self.send_all(&quiet)?;
        // The engine's clock starts when the request is written, after any pacing wait in
        // send_all: the referee's own wait is never charged to the engine's time.
        let start = Instant::now();
        let asked = request.ask.first().map_or("", String::as_str);
        let deadline = start + time.wait;
        let mut chatter = Vec::new();
        let raw = loop {
            let line = self.read(deadline, asked, time.wait)?;
            match protocol.classify(&line) {
                Heard::Move(m) => break m,
                Heard::Chatter => {
                    // The last few are enough for a judge; an engine that talks without end
                    // cannot fill the referee's memory.
                    if chatter.len() == MAX_CHATTER {
                        chatter.remove(0);
                    }
                    chatter.push(line);
                }
                Heard::Other if self.unconfirmed && is_refusal(&line) => return Err(self.refused(&line)),
                Heard::Other => {
                    if let Some(p) = &self.process {
                        self.engine.skipped(p.id(), &line, &format!("a move awaited after `{}`", clip(asked)));
                    }
                }
            }
        };
        let ms = start.elapsed().as_millis() as u64;
        if self.unconfirmed {
            self.unconfirmed = false;
            if let Some(p) = &self.process {
                self.engine.confirmed(p);
            }
        }
        self.asked = true;
        let text = match protocol.to_record(&raw, history, &mut self.so_far) {
            Ok(t) => t,
            Err(e) => {
                return Err(self.lose(Reason::Illegal, format!("answered the unreadable move `{}`: {e}", clip(&raw))))
            }
        };
        self.told = history.len() + 1;
        Ok(Reply { text, ms, chatter })
    }

    /// Says one line and waits for its acknowledgement, if the protocol has one. One that
    /// never comes aborts the game: the engine did not understand the referee, and nobody
    /// lost on the board.
    fn say(&mut self, say: &Say) -> Result<(), Forfeit> {
        self.send(&say.line)?;
        let Some(ack) = say.ack else { return Ok(()) };
        let deadline = Instant::now() + self.hang;
        let Some(p) = self.process.as_mut() else { return Err(self.gone()) };
        // Before its first move the answer may be the refusal of its values instead.
        let refusal = if self.unconfirmed { REFUSAL } else { ack };
        match self.engine.wait_for_either(p, ack, refusal, deadline) {
            Ok(line) if self.unconfirmed && is_refusal(&line) => Err(self.refused(&line)),
            Ok(_) => Ok(()),
            Err(n @ NoAnswer { error: ReadError::Timeout, .. }) => Err(self
                .lose(Reason::Aborted, format!("did not acknowledge `{}` with `{ack}`{}", clip(&say.line), n.seen()))),
            Err(NoAnswer { error: ReadError::Closed, .. }) => {
                Err(self.lose(Reason::Crash, format!("ended while it was to acknowledge `{}`", clip(&say.line))))
            }
        }
    }

    fn send(&mut self, line: &str) -> Result<(), Forfeit> {
        self.send_all(&[line])
    }

    /// Sends lines in one write (none: nothing).
    fn send_all(&mut self, lines: &[&str]) -> Result<(), Forfeit> {
        let Some(first) = lines.first() else { return Ok(()) };
        let Some(p) = self.process.as_mut() else { return Err(self.gone()) };
        if p.send_lines(lines).is_err() {
            return Err(self.lose(Reason::Crash, format!("ended before `{}` could be sent", clip(first))));
        }
        Ok(())
    }

    fn read(&mut self, deadline: Instant, asked: &str, wait: Duration) -> Result<String, Forfeit> {
        let Some(p) = self.process.as_mut() else { return Err(self.gone()) };
        p.read_line(deadline).map_err(|e| self.read_failed(e, asked, wait))
    }

    fn read_failed(&mut self, e: ReadError, asked: &str, wait: Duration) -> Forfeit {
        match e {
            ReadError::Timeout => {
                self.lose(Reason::Timeout, format!("did not answer `{}` within {} ms", clip(asked), wait.as_millis()))
            }
            ReadError::Closed => self.lose(Reason::Crash, format!("ended while it was to answer `{}`", clip(asked))),
        }
    }

    /// The engine refused the values its individual was told by lines.
    fn refused(&mut self, answer: &str) -> Forfeit {
        match self.process.take() {
            Some(p) => self.engine.refused(p, None, answer),
            None => self.gone(),
        }
    }

    /// The game is lost: the process is ended and counted.
    fn lose(&mut self, reason: Reason, what: String) -> Forfeit {
        match self.process.take() {
            Some(p) => self.engine.lost(p, reason, what),
            None => self.gone(),
        }
    }

    fn gone(&self) -> Forfeit {
        Forfeit { reason: Reason::Crash, note: "the engine is gone".into() }
    }
}

impl Drop for Session {
    /// Ends the game for the engine (the line goes with the next one it is sent: nothing
    /// waits for it) and gives the process back for the next game.
    fn drop(&mut self) {
        if let Some(mut p) = self.process.take() {
            if let Some(end) = self.engine.protocol().end_game() {
                p.queue(end);
            }
            self.engine.checkin(p);
        }
    }
}
