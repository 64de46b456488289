//! An opening's balance judged by a search: an outside engine (a Gomocup brain such as Rapfi
//! on a node budget, or evotune's own `play --verbose`) is shown the opening and asked to
//! move, and the last evaluation it printed on the way is its verdict. A suite of openings
//! the judge finds within a margin of even is one where neither colour wins by the opening
//! alone, so that a match on it measures the players rather than the draw of openings
//! (freestyle Gomoku from two or more played stones is mostly a win for Black).
//!
//! The judge reads the evaluation from the engine's comment lines, from the side to move's
//! view: Rapfi's `MESSAGE ... | Eval 186 | ...` (a forced win or loss is `Eval +M33` /
//! `Eval -M12`), evotune's `MESSAGE depth 9 score 186 ...`, and Connect6's Cloudict's
//! `Score :\t812.800` after its search (`Win by VCF.` when its threat search wins).

use std::sync::Arc;
use std::time::Duration;

use crate::arena::outside::{EngineSpec, OutsideEngine, Session, TurnTime};
use crate::core::game::Side;

/// An engine's evaluation of a position, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// A score in the engine's own units.
    Score(i32),
    /// A forced win (`true`) or loss for the side to move, in this many plies as the engine
    /// counts them.
    Mate { wins: bool, plies: u32 },
}

impl Eval {
    /// Whether the position is within `margin` of even: a score of at most `margin` either
    /// way; never a forced result.
    pub fn within(self, margin: i32) -> bool {
        match self {
            Eval::Score(s) => s.unsigned_abs() <= margin.unsigned_abs(),
            Eval::Mate { .. } => false,
        }
    }

    /// The evaluation for the first player (Black), from one for the side to move of a game
    /// where `moves` moves were played (one stone a move).
    pub fn for_first(self, moves: usize) -> Eval {
        if moves.is_multiple_of(2) {
            return self;
        }
        match self {
            Eval::Score(s) => Eval::Score(s.saturating_neg()),
            Eval::Mate { wins, plies } => Eval::Mate { wins: !wins, plies },
        }
    }
}

impl std::fmt::Display for Eval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Eval::Score(s) => write!(f, "{s:+}"),
            Eval::Mate { wins, plies } => write!(f, "{}M{plies}", if *wins { '+' } else { '-' }),
        }
    }
}

/// The evaluation in one comment line of an engine: the word after `Eval` or `score` (any
/// case, words split at spaces and `|`, a `:` after the word skipped), as a score (`186`,
/// `+186`, `-74`, or a decimal such as Cloudict's `Score :\t812.800`, rounded) or a forced
/// result (`+M33`, `M33`, `-M12`). Cloudict's `Win by VCF.` (it found a forced win by
/// threats for the side to move; it counts no plies) is a forced win of unknown length,
/// `+M0`. None when the line holds none.
pub fn read_eval(line: &str) -> Option<Eval> {
    if line.trim().eq_ignore_ascii_case("win by vcf.") {
        return Some(Eval::Mate { wins: true, plies: 0 });
    }
    let mut words = line.split(|c: char| c.is_whitespace() || c == '|').filter(|w| !w.is_empty()).peekable();
    while let Some(w) = words.next() {
        let w = w.strip_suffix(':').unwrap_or(w);
        if !(w.eq_ignore_ascii_case("eval") || w.eq_ignore_ascii_case("score")) {
            continue;
        }
        if words.peek() == Some(&":") {
            words.next();
        }
        let value = words.next()?;
        if let Some(eval) = Eval::parse(value).or_else(|| decimal_score(value)) {
            return Some(eval);
        }
    }
    None
}

/// A score written with a fraction (`812.800`, `-3.5`), rounded to the nearest unit; None
/// for anything else (and for values beyond an i32).
fn decimal_score(value: &str) -> Option<Eval> {
    let digits = value.trim_start_matches(['+', '-']);
    if !digits.contains('.') || !digits.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    let v: f64 = value.parse().ok()?;
    let rounded = v.round();
    (rounded.abs() <= f64::from(i32::MAX)).then_some(Eval::Score(rounded as i32))
}

impl Eval {
    /// An evaluation written as engines and [`Display`](std::fmt::Display) write it: a score
    /// (`186`, `+186`, `-74`) or a forced result (`+M33`, `M33`, `-M12`).
    pub fn parse(value: &str) -> Option<Eval> {
        let (negative, digits) = match value.as_bytes().first() {
            Some(b'-') => (true, &value[1..]),
            Some(b'+') => (false, &value[1..]),
            _ => (false, value),
        };
        if let Some(plies) = digits.strip_prefix(['M', 'm']) {
            let plies = plies.parse::<u32>().ok()?;
            Some(Eval::Mate { wins: !negative, plies })
        } else {
            let s = digits.parse::<i32>().ok()?;
            Some(Eval::Score(if negative { -s } else { s }))
        }
    }
}

/// The last evaluation among an engine's comment lines (its deepest search's).
pub fn last_eval(lines: &[String]) -> Option<Eval> {
    lines.iter().rev().find_map(|l| read_eval(l))
}

/// An outside engine that judges openings, one new game each.
pub struct Judge {
    engine: Arc<OutsideEngine>,
    time: TurnTime,
    hang: Duration,
}

impl Judge {
    /// Starts the engine of `spec` and checks that it answers. It is given `think_ms` a
    /// position (pbrain's `INFO timeout_turn`); a node budget in its init lines (Rapfi's
    /// `INFO MAX_NODE`) makes the verdicts independent of the machine's load.
    pub fn start(spec: EngineSpec, think_ms: u64) -> Result<Judge, String> {
        let hang = Duration::from_secs(30);
        let engine = Arc::new(OutsideEngine::new(spec, "judge")?);
        engine.warm_up(hang)?;
        let time = TurnTime { budget_ms: Some(think_ms), left_ms: None, wait: Duration::from_millis(think_ms) + hang };
        Ok(Judge { engine, time, hang })
    }

    /// The engine's evaluation of the position after `opening` (record moves from the
    /// start), for the side to move, or None when it printed none. Each opening is a new game
    /// for the engine (pbrain's `RESTART`, then the stones as a `BOARD`).
    pub fn eval(&self, opening: &[String]) -> Result<Option<Eval>, String> {
        let side = if opening.len().is_multiple_of(2) { Side::First } else { Side::Second };
        let mut session = Session::start(&self.engine, &[], side, self.hang).map_err(|f| f.note)?;
        let reply = session.think(opening, None, &self.time).map_err(|f| f.note)?;
        Ok(last_eval(&reply.chatter))
    }

    /// The engine's log file (its standard error and the referee's notes).
    pub fn log_path(&self) -> &std::path::Path {
        self.engine.log_path()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rapfi_and_evotune_lines_are_read() {
        let rapfi = "MESSAGE Speed 961K | Depth 18-37 | Eval 186 | Node 200K | Time 208ms";
        assert_eq!(read_eval(rapfi), Some(Eval::Score(186)));
        assert_eq!(
            read_eval("MESSAGE Speed 1K | Depth 6-2 | Eval +M3 | Node 10"),
            Some(Eval::Mate { wins: true, plies: 3 })
        );
        assert_eq!(read_eval("MESSAGE Depth 9 | Eval -M12 | Node 10"), Some(Eval::Mate { wins: false, plies: 12 }));
        assert_eq!(read_eval("MESSAGE Depth 9 | Eval -74 | Node 10"), Some(Eval::Score(-74)));
        assert_eq!(read_eval("MESSAGE depth 9 score -120 nodes 4000 ms 12"), Some(Eval::Score(-120)));
        assert_eq!(read_eval("MESSAGE Bestline H7 H6 I7"), None);
        assert_eq!(read_eval("MESSAGE Eval"), None);
        assert_eq!(read_eval("MESSAGE Eval soon"), None);
        let lines = ["MESSAGE Eval 10".to_string(), "MESSAGE Eval -30".to_string(), "MESSAGE Bestline".to_string()];
        assert_eq!(last_eval(&lines), Some(Eval::Score(-30)));
    }

    #[test]
    fn cloudict_lines_are_read() {
        assert_eq!(read_eval("Score :\t812.800"), Some(Eval::Score(813)));
        assert_eq!(read_eval("Score :\t-19999.400"), Some(Eval::Score(-19999)));
        assert_eq!(read_eval("score: -3"), Some(Eval::Score(-3)));
        assert_eq!(read_eval("Win by VCF."), Some(Eval::Mate { wins: true, plies: 0 }));
        assert_eq!(read_eval("VCF time : 0.302"), None);
        assert_eq!(read_eval("AB Time :\t1.060"), None);
        assert_eq!(read_eval("Node :\t51234"), None);
        assert_eq!(read_eval("Score :\t1.2.3"), None);
        assert_eq!(read_eval("Score :\t1e99"), None);
        // Its output before a move: the search's lines, then the verdict.
        let lines: Vec<String> =
            ["VCF time : 0.308", "VCF node : 1200", "AB Time :\t1.060", "Node :\t51234", "Score :\t605.300"]
                .map(String::from)
                .to_vec();
        assert_eq!(last_eval(&lines), Some(Eval::Score(605)));
    }

    #[test]
    fn only_scores_within_the_margin_are_even() {
        assert!(Eval::Score(100).within(100));
        assert!(Eval::Score(-100).within(100));
        assert!(!Eval::Score(101).within(100));
        assert!(!Eval::Score(-101).within(100));
        assert!(!Eval::Mate { wins: false, plies: 40 }.within(i32::MAX));
    }

    #[test]
    fn the_first_players_view_flips_after_an_odd_number_of_moves() {
        assert_eq!(Eval::Score(-74).for_first(3), Eval::Score(74));
        assert_eq!(Eval::Score(-74).for_first(4), Eval::Score(-74));
        assert_eq!(Eval::Mate { wins: true, plies: 5 }.for_first(3), Eval::Mate { wins: false, plies: 5 });
        assert_eq!(Eval::Score(i32::MIN).for_first(1), Eval::Score(i32::MAX));
    }
}
