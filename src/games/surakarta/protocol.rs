//! Surakarta's moves and board in the line protocol ([`crate::games::line_protocol`]) of
//! `evotune play --game surakarta` (docs/protocols.md and
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

use crate::games::line_protocol::LineGame;
use crate::games::surakarta::board::Board;
use crate::games::surakarta::Surakarta;

impl LineGame for Surakarta {
    const MOVE_EXAMPLE: &'static str = "`move b2-b3`";

    fn diagram(&self, board: &Board) -> Vec<String> {
        board.diagram().lines().map(String::from).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::limits::Limits;
    use crate::core::settings::EngineSettings;
    use crate::games::line_protocol::run;
    use crate::games::surakarta::eval::SURAKARTA_FEATURES;
    use crate::games::ProtocolOptions;
    use crate::search::Engine;

    fn transcript(input: &str) -> Vec<String> {
        let mut engine = Engine::<Surakarta>::new(EngineSettings::default(), &SURAKARTA_FEATURES.defaults());
        let options = ProtocolOptions { limits: Limits::depth(2), ..ProtocolOptions::default() };
        let mut out = Vec::new();
        let mut err = Vec::new();
        run(&mut engine, &options, &mut input.as_bytes(), &mut out, &mut err).unwrap();
        String::from_utf8(out).unwrap().lines().map(String::from).collect()
    }

    #[test]
    fn huge_tokens_long_lines_and_bad_bytes_get_one_short_error_each() {
        let mut input = format!("move {}\n", "x".repeat(60_000)).into_bytes();
        input.extend(std::iter::repeat_n(b'y', 10_000_000));
        input.extend_from_slice(b"\nmove \xff\xfe\nmove b2-b3\nquit\n");
        let mut engine = Engine::<Surakarta>::new(EngineSettings::default(), &SURAKARTA_FEATURES.defaults());
        let options = ProtocolOptions { limits: Limits::depth(2), ..ProtocolOptions::default() };
        let mut out = Vec::new();
        run(&mut engine, &options, &mut &input[..], &mut out, &mut Vec::new()).unwrap();
        let text = String::from_utf8(out).expect("replies are UTF-8");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{}", &text[..300.min(text.len())]);
        assert!(
            lines[..3].iter().all(|l| l.starts_with("error ") && l.len() < 300),
            "{}",
            &text[..300.min(text.len())]
        );
        assert!(lines[1].contains("longer than 65536 bytes") && lines[2].contains("not UTF-8"), "{lines:?}");
        assert_eq!(lines[3], "ok", "nothing changed: the legal move is played");
    }

    /// `param NAME VALUE` makes the engine play the table so set from the next game on,
    /// exactly as an engine started with it; bad lines get one `error` each.
    #[test]
    fn param_lines_set_the_table_played() {
        let tuned = crate::player::random_weights(&SURAKARTA_FEATURES, 5);
        let options = ProtocolOptions { limits: Limits::depth(2), ..ProtocolOptions::default() };
        let play = |engine: &mut Engine<Surakarta>, input: &str| {
            let mut out = Vec::new();
            run(engine, &options, &mut input.as_bytes(), &mut out, &mut Vec::new()).unwrap();
            String::from_utf8(out).unwrap()
        };
        let game = "new\ngo\ngo\ngo\ngo\n";
        let started_tuned = play(&mut Engine::new(EngineSettings::default(), &tuned), game);
        let told: String = SURAKARTA_FEATURES
            .specs
            .iter()
            .zip(tuned.values())
            .map(|(s, v)| format!("param {} {v}\n", s.name))
            .collect();
        let mut engine = Engine::new(EngineSettings::default(), &SURAKARTA_FEATURES.defaults());
        let out = play(&mut engine, &format!("{told}{game}"));
        let oks = "ok\n".repeat(SURAKARTA_FEATURES.specs.len());
        assert_eq!(out, format!("{oks}{started_tuned}"));
        assert_eq!(engine.weights(), &tuned);

        let spec = &SURAKARTA_FEATURES.specs[0];
        let lines =
            transcript(&format!("param {}\nparam no_such 1\nparam {} {}\n", spec.name, spec.name, spec.max + 1));
        assert_eq!(lines[0], "error expected `param NAME VALUE`");
        assert!(lines[1].starts_with("error unknown parameter `no_such`"), "{lines:?}");
        assert_eq!(
            lines[2],
            format!("error `{}`: {} takes an integer from {} to {}", spec.max + 1, spec.name, spec.min, spec.max)
        );
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
