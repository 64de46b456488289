//! Transcripts of the pbrain protocol: byte strings in, exact replies out, bad input included,
//! and whole games against another engine through the protocol with a mirror board.

use super::*;
use crate::core::game::Game;
use crate::core::settings::EngineSettings;
use crate::games::gomoku::tuple6::GOMOKU_TUPLE6;

fn engine() -> Engine<Gomoku> {
    Engine::new(EngineSettings { tt_mib: 1, ..EngineSettings::default() }, &GOMOKU_TUPLE6.defaults())
}

fn options() -> ProtocolOptions {
    ProtocolOptions { limits: Limits::depth(2), ..ProtocolOptions::default() }
}

fn transcript(input: &str) -> String {
    let mut out = Vec::new();
    run(&mut engine(), &options(), input.as_bytes(), &mut out, std::io::sink()).expect("in-memory I/O");
    String::from_utf8(out).expect("replies are UTF-8")
}

fn lines(text: &str) -> Vec<&str> {
    text.lines().collect()
}

/// A move reply `x,y` on the board.
fn is_move(line: &str) -> bool {
    parse_xy(line).is_ok()
}

#[test]
fn start_begin_turn_end() {
    let out = transcript("START 15\nBEGIN\nTURN 0,0\nEND\nABOUT\n");
    let l = lines(&out);
    assert_eq!(l[0], "OK");
    assert_eq!(l[1], "7,7", "the first stone goes to the centre");
    assert!(is_move(l[2]) && l[2] != "7,7" && l[2] != "0,0", "{out}");
    assert_eq!(l.len(), 3, "nothing after END: {out}");
}

#[test]
fn about_restart_and_info() {
    let out = transcript("ABOUT\nSTART 15\nINFO timeout_turn 1000\nINFO max_memory 83886080\nINFO time_left 2000\nRESTART\nINFO rule 1\nINFO rule 0\n");
    let l = lines(&out);
    assert!(l[0].starts_with("name=\"evotune\", version=\"") && l[0].contains("author="), "{out}");
    assert_eq!(l[1], "OK");
    assert_eq!(l[2], "OK", "RESTART");
    assert!(l[3].starts_with("MESSAGE") && l[3].contains("freestyle"), "{out}");
    assert_eq!(l.len(), 4, "INFO has no reply: {out}");
}

#[test]
fn board_sets_up_a_position_and_the_engine_completes_its_five() {
    // Own stones 5,5..8,5 (four in a row), the opponent's scattered: the engine moves as the
    // side with as many stones, and takes the five.
    let input = "START 15\nBOARD\n5,5,1\n0,0,2\n6,5,1\n0,2,2\n7,5,1\n0,4,2\n8,5,1\n0,6,2\nDONE\n";
    let l = transcript(input);
    let reply = lines(&l)[1];
    assert!(reply == "4,5" || reply == "9,5", "{l}");
}

#[test]
fn the_engine_blocks_a_four() {
    // The opponent (2) has 3,3..6,3 with 2,3 taken by the engine: it must play 7,3.
    let input = "START 15\nBOARD\n2,3,1\n3,3,2\n10,10,1\n4,3,2\n12,12,1\n5,3,2\n6,3,2\nDONE\n";
    assert_eq!(lines(&transcript(input))[1], "7,3");
}

#[test]
fn bad_input_gets_one_error_line_and_changes_nothing() {
    let cases: [(&str, &str); 14] = [
        ("TURN 1,1\n", "ERROR"),                            // before START
        ("START 20\n", "ERROR"),                            // unsupported size
        ("START x\n", "ERROR"),                             //
        ("START 15\nTURN 15,0\n", "ERROR"),                 // off the board
        ("START 15\nTURN -1,3\n", "ERROR"),                 //
        ("START 15\nTURN 3;4\n", "ERROR"),                  //
        ("START 15\nTURN\n", "ERROR"),                      //
        ("START 15\nFOO\n", "UNKNOWN"),                     //
        ("START 15\nINFO timeout_turn soon\n", "ERROR"),    //
        ("START 15\nTAKEBACK 1,1\n", "ERROR"),              // nothing to take back
        ("START 15\nBOARD\n1,1,1\n1,1,2\nDONE\n", "ERROR"), // one cell twice
        ("START 15\nBOARD\n1,1,1\n2,2,1\nDONE\n", "ERROR"), // the engine cannot be to move
        ("START 15\nBOARD\n1,1,5\nDONE\n", "ERROR"),        // a field that is not 1 or 2
        ("START 15\nBOARD\n1,1\nDONE\n", "ERROR"),          //
    ];
    for (input, want) in cases {
        let out = transcript(input);
        let last = lines(&out).last().copied().unwrap_or("");
        assert!(last.starts_with(want), "{input:?}: {out}");
        assert!(!last.contains('\n'));
    }
    // After an error the session goes on as before: the occupied cell is refused, the game
    // continues from where it was.
    let out = transcript("START 15\nBEGIN\nTURN 7,7\nTURN 0,0\n");
    let l = lines(&out);
    assert_eq!(l[1], "7,7");
    assert!(l[2].starts_with("ERROR"), "{out}");
    assert!(is_move(l[3]), "{out}");
    // Bytes that are not UTF-8, an overlong line, blank lines: one reply each, no panic.
    let mut input = b"START 15\n\xff\xfe\n\n".to_vec();
    input.extend(std::iter::repeat_n(b'A', 10_000));
    input.push(b'\n');
    let mut out = Vec::new();
    run(&mut engine(), &options(), &input[..], &mut out, std::io::sink()).unwrap();
    let out = String::from_utf8(out).unwrap();
    let l = lines(&out);
    assert_eq!(l.len(), 3, "{out}");
    assert!(l[1].starts_with("ERROR") && l[2].starts_with("UNKNOWN") && l[2].len() < 120, "{out}");
    // BOARD without DONE at the end of the input.
    assert!(lines(&transcript("START 15\nBOARD\n1,1,1\n")).last().unwrap().starts_with("ERROR"));
}

#[test]
fn takeback_and_a_finished_game() {
    let out = transcript("START 15\nBEGIN\nTAKEBACK 7,7\nBEGIN\n");
    assert_eq!(lines(&out), ["OK", "7,7", "OK", "7,7"]);
    // The opponent completes five: the engine says so and does not move.
    let input = "START 15\nBOARD\n0,0,1\n5,5,2\n0,2,1\n6,5,2\n0,4,1\n7,5,2\n0,6,1\n8,5,2\nDONE\nTURN 9,5\nTURN 1,1\n";
    let out = transcript(input);
    let l = lines(&out);
    assert!(l.iter().any(|x| x.starts_with("MESSAGE") && x.contains("five")), "{out}");
    assert!(l.last().unwrap().starts_with("ERROR"), "no move after the end: {out}");
}

/// Whole games through the protocol against another engine: every reply is a legal move on a
/// mirror board kept by the test.
#[test]
fn games_against_another_engine_stay_legal() {
    for begin in [true, false] {
        let mut other = Engine::<Gomoku>::new(
            EngineSettings { tt_mib: 1, ..EngineSettings::default() },
            &crate::player::random_weights(&GOMOKU_TUPLE6, 3),
        );
        other.new_game(1);
        let mut mirror = GomokuBoard::new();
        let mut input = String::from("START 15\n");
        let mut replies = 0;
        if begin {
            input.push_str("BEGIN\n");
        }
        for _ in 0..60 {
            let out = transcript(&input);
            let l = lines(&out);
            if l.len() == replies + 1 + 1 {
                // The engine's last reply: a move (or the end of the game).
                let last = l[l.len() - 1];
                if !is_move(last) {
                    break;
                }
                let c = parse_xy(last).unwrap();
                mirror.play_checked(&[c]).unwrap_or_else(|e| panic!("{last}: {e}\n{out}"));
                replies += 1;
            } else if begin || replies > 0 || l.len() > 1 {
                panic!("expected one reply more: {out}");
            }
            if mirror.status().is_over() {
                break;
            }
            let r = other.search(&mut mirror, &Limits::depth(1));
            let c = r.best.stones()[0];
            mirror.play_checked(&[c]).unwrap();
            let (x, y) = xy_of(c);
            input.push_str(&format!("TURN {x},{y}\n"));
            if mirror.status().is_over() {
                break;
            }
        }
        assert!(mirror.board().stone_count() > 10, "a real game:\n{}", mirror.board().diagram());
        assert!(Gomoku.replay(&crate::games::connect::notation::record_moves(mirror.board())).is_ok());
    }
}

#[test]
fn a_line_too_long_or_not_utf8_gets_one_error_and_changes_nothing() {
    let long = "x".repeat(300_000);
    let out = transcript(&format!("START 15\n{long}\nBOARD\n7,7,2\n{long}\nDONE\nTURN 7,7\n"));
    let l = lines(&out);
    assert_eq!(l[0], "OK");
    assert!(l[1].starts_with("ERROR a line longer than 65536 bytes"), "{}", &l[1][..80.min(l[1].len())]);
    assert!(l[2].starts_with("ERROR a line longer than 65536 bytes"), "BOARD refused: {}", &l[2][..80.min(l[2].len())]);
    assert!(is_move(l[3]) && l.len() == 4, "{out}");
    let mut out = Vec::new();
    run(&mut engine(), &options(), &b"START 15\nTU\xffRN 7,7\nTURN 1,2,3\n"[..], &mut out, std::io::sink()).unwrap();
    let out = String::from_utf8(out).expect("replies are UTF-8");
    let l = lines(&out);
    assert_eq!(l[1], "ERROR a line that is not UTF-8 text: ignored");
    assert!(l[2].starts_with("ERROR") && l[2].len() < 300, "{out}");
    let out = transcript(&format!("START 15\nTURN {}\n", "9".repeat(1_000)));
    assert!(lines(&out)[1].len() < 300, "a huge token is not echoed whole");
}

#[test]
fn the_manager_times_bound_every_move_and_nothing_else_has_a_default() {
    let none = Limits::default();
    let times = |turn, game, left, increment| ManagerTimes { turn, game, left, increment };
    // A turn limit: the move may take it all but a margin, and no more.
    let l = move_limits(none, &times(Some(200), None, None, 0));
    assert_eq!((l.time_ms, l.soft_ms, l.depth), (Some(160), None, None));
    assert_eq!(move_limits(none, &times(Some(5000), None, None, 0)).time_ms, Some(4950));
    // A game clock: a tenth of what is left at most, a 25th as the target; little left, a
    // fast answer.
    let l = move_limits(none, &times(Some(30_000), Some(180_000), Some(100_000), 0));
    assert_eq!((l.time_ms, l.soft_ms), (Some(9950), Some(4000)));
    let l = move_limits(none, &times(None, Some(180_000), Some(300), 0));
    assert!(l.time_ms.unwrap() <= 30 && l.soft_ms.unwrap() <= l.time_ms.unwrap(), "{l:?}");
    // Before any time_left, the whole game's time stands for it; the increment is added.
    let l = move_limits(none, &times(None, Some(60_000), None, 1000));
    assert_eq!((l.time_ms, l.soft_ms), (Some(6950), Some(3400)));
    // The user's limits stay, within the manager's time.
    let l = move_limits(Limits::depth(3), &times(Some(200), None, None, 0));
    assert_eq!((l.depth, l.time_ms), (Some(3), Some(160)));
    assert_eq!(move_limits(Limits::time_ms(100), &times(Some(5000), None, None, 0)).time_ms, Some(100));
    assert_eq!(move_limits(Limits::depth(3), &ManagerTimes::default()), Limits::depth(3));
    // Neither: a second a move.
    assert_eq!(move_limits(none, &ManagerTimes::default()).time_ms, Some(DEFAULT_MOVE_MS));
}

#[test]
fn info_lines_set_the_time_control() {
    let options = ProtocolOptions::default();
    let mut engine = engine();
    let mut s = Session {
        engine: &mut engine,
        options: &options,
        board: GomokuBoard::new(),
        started: true,
        times: ManagerTimes::default(),
        games: 0,
        told: ParamLines::default(),
    };
    for line in ["timeout_turn 200", "timeout_match 90000", "time_left 4000", "time_increment 50"] {
        let words: Vec<&str> = line.split(' ').collect();
        assert!(matches!(s.info(&words), Reply::None), "{line}");
    }
    assert_eq!(s.times, ManagerTimes { turn: Some(200), game: Some(90_000), left: Some(4000), increment: 50 });
    assert_eq!(s.limits().time_ms, Some(160));
    // 0 and 2147483647 mean no limit.
    for line in ["timeout_turn 0", "timeout_match 0", "time_left 2147483647"] {
        let words: Vec<&str> = line.split(' ').collect();
        s.info(&words);
    }
    assert_eq!(s.limits().time_ms, Some(DEFAULT_MOVE_MS));
}

/// `INFO NAME VALUE` with a parameter of the engine's table makes the engine play the table
/// so set, exactly as an engine started with it; a value out of bounds is an `ERROR`, and
/// keys that are not parameters are ignored as before.
#[test]
fn info_lines_set_the_table_played() {
    let tuned = crate::player::random_weights(&GOMOKU_TUPLE6, 7);
    // With the searches' scores (`MESSAGE` lines), which the table sets.
    let verbose = ProtocolOptions { verbose: true, ..options() };
    // The searches' `MESSAGE` lines end with the wall time taken (` ms N`), which the load
    // decides: compare everything before it.
    let play = |engine: &mut Engine<Gomoku>, input: &str| {
        let mut out = Vec::new();
        run(engine, &verbose, input.as_bytes(), &mut out, std::io::sink()).unwrap();
        let text = String::from_utf8(out).unwrap();
        text.lines().map(|l| l.split(" ms ").next().unwrap_or(l)).collect::<Vec<_>>().join("\n")
    };
    let game = "RESTART\nBEGIN\nTURN 6,6\nTURN 9,9\n";
    let settings = EngineSettings { tt_mib: 1, ..EngineSettings::default() };
    let started_tuned = play(&mut Engine::new(settings.clone(), &tuned), &format!("START 15\n{game}"));
    let defaults = play(&mut engine(), &format!("START 15\n{game}"));
    assert_ne!(started_tuned, defaults, "the tables play differently");
    let told: String =
        GOMOKU_TUPLE6.specs.iter().zip(tuned.values()).map(|(s, v)| format!("INFO {} {v}\n", s.name)).collect();
    let mut e = engine();
    assert_eq!(play(&mut e, &format!("START 15\n{told}{game}")), started_tuned);
    assert_eq!(e.weights(), &tuned);

    let spec = &GOMOKU_TUPLE6.specs[0];
    let out = play(
        &mut engine(),
        &format!("START 15\nINFO {} {}\nINFO no_such 3\nINFO max_memory 0\n", spec.name, spec.max + 1),
    );
    assert_eq!(
        lines(&out),
        [
            "OK",
            &format!("ERROR INFO `{}`: {} takes an integer from {} to {}", spec.max + 1, spec.name, spec.min, spec.max)
        ]
    );
}
