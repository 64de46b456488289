//! EinStein's moves, die and board in the line protocol ([`crate::games::line_protocol`]) of
//! `evotune play --game einstein` (docs/protocols.md). One
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

use crate::core::game::{Game, GameMove, Position};
use crate::games::einstein::board::{Board, Phase, SIDE};
use crate::games::einstein::Einstein;
use crate::games::line_protocol::LineGame;
use crate::search::SearchResult;

impl LineGame for Einstein {
    const MOVE_EXAMPLE: &'static str = "`move 351624` or `move 4:b4c3`";
    const COMMANDS: &'static str = "new, move, roll, go, board, param, quit";

    fn diagram(&self, board: &Board) -> Vec<String> {
        diagram(board)
    }

    /// `roll d`: the die shows d for the side to move (as `move rd`).
    fn command(&self, board: &mut Board, command: &str, rest: &str) -> Option<Result<Vec<String>, String>> {
        (command == "roll").then(|| {
            let m = self.parse_move(board, &format!("r{rest}"))?;
            self.play_checked(board, m).map_err(|e| format!("`r{rest}`: {e}"))?;
            Ok(vec!["ok".into()])
        })
    }

    fn not_ready(&self, board: &Board) -> Option<String> {
        board.chance().map(|_| "the die is to be rolled first: `roll 1` to `roll 6`".to_string())
    }

    fn search_comment<M: GameMove>(r: &SearchResult<M>) -> String {
        format!("# score {} playouts {} time {} ms", r.score, r.nodes, r.elapsed.as_millis())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::limits::Limits;
    use crate::core::settings::{EngineSettings, SearchKind};
    use crate::games::einstein::eval::EINSTEIN_HYBRID;
    use crate::games::line_protocol::run;
    use crate::games::ProtocolOptions;
    use crate::search::Engine;

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
