//! Scripted transcripts: byte strings in, exact replies out. Interactive games run the
//! protocol on a thread fed through channels, with a mirror board on the test side that
//! checks every move the engine prints.

use std::io::{BufRead, Read, Write};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::time::Duration;

use proptest::prelude::*;

use super::*;
use crate::core::limits::Limits;
use crate::core::settings::EngineSettings;
use crate::games::connect::eval::CONNECT6_ROADS;
use crate::games::connect::{Connect6, Rules};

const C6: Rules = Rules::CONNECT6;

fn engine() -> Engine<Connect6> {
    let weights = CONNECT6_ROADS.defaults();
    Engine::new(EngineSettings { tt_mib: 1, ..EngineSettings::default() }, &weights)
}

fn options() -> ProtocolOptions {
    ProtocolOptions { limits: Limits::depth(1), ..ProtocolOptions::default() }
}

/// Runs a whole transcript; returns (output, error stream).
fn transcript_with(options: &ProtocolOptions, input: &str) -> (String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    run(&mut engine(), options, input.as_bytes(), &mut out, &mut err).expect("in-memory I/O cannot fail");
    (String::from_utf8(out).expect("replies are UTF-8"), String::from_utf8(err).expect("comments are UTF-8"))
}

fn transcript(input: &str) -> String {
    transcript_with(&options(), input).0
}

fn lines(text: &str) -> Vec<&str> {
    text.lines().collect()
}

/// The stones of a `move ...` reply.
fn reply_stones(line: &str, flip: bool) -> Vec<Cell> {
    let text = line.strip_prefix("move ").unwrap_or_else(|| panic!("not a move: {line:?}"));
    parse_competition_move(C6, text, flip).unwrap_or_else(|e| panic!("{line:?}: {e}"))
}

/// Plays a reply on the mirror board, failing the test if it is illegal there.
fn mirror_play(mirror: &mut Board, line: &str, flip: bool) {
    let stones = reply_stones(line, flip);
    play_move(mirror, &stones).unwrap_or_else(|e| panic!("engine played an illegal move {line:?}: {e}"));
}

/// The board after moves in (unflipped) competition notation, checked.
fn board_after(moves: &[&str]) -> Board {
    let mut b = Board::new(C6);
    for m in moves {
        play_move(&mut b, &parse_competition_move(C6, m, false).expect("valid")).expect("legal");
    }
    b
}

/// The first cells of `wanted` (competition notation) that are free on the board, as text.
fn free_cells(board: &Board, wanted: &[&str], n: usize) -> String {
    let free: Vec<&str> = wanted
        .iter()
        .copied()
        .filter(|t| parse_competition_move(C6, t, false).map(|s| board.is_empty_cell(s[0])).unwrap_or(false))
        .take(n)
        .collect();
    assert_eq!(free.len(), n, "not enough free cells");
    free.concat()
}

/// Input that yields lines as the test sends them, as a platform's pipe would.
struct ChannelReader {
    rx: Receiver<String>,
    buf: Vec<u8>,
    pos: usize,
}

impl Read for ChannelReader {
    fn read(&mut self, dst: &mut [u8]) -> std::io::Result<usize> {
        let src = self.fill_buf()?;
        let n = src.len().min(dst.len());
        dst[..n].copy_from_slice(&src[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for ChannelReader {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.pos >= self.buf.len() {
            // A closed channel is the end of the input.
            match self.rx.recv() {
                Ok(line) => {
                    self.buf = line.into_bytes();
                    self.pos = 0;
                }
                Err(_) => return Ok(&[]),
            }
        }
        Ok(&self.buf[self.pos..])
    }

    fn consume(&mut self, n: usize) {
        self.pos += n;
    }
}

/// Output that the test sees only when the protocol flushes: a reply left unflushed makes
/// the test time out instead of passing by luck.
struct FlushWriter {
    pending: Vec<u8>,
    tx: Sender<String>,
}

impl Write for FlushWriter {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(b);
        Ok(b.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.pending.is_empty() {
            let text = String::from_utf8(std::mem::take(&mut self.pending)).expect("replies are UTF-8");
            // The test may have stopped listening; that is its business.
            let _ = self.tx.send(text);
        }
        Ok(())
    }
}

/// The test's end of an interactive session; it logs the whole exchange for a replay.
struct Driver {
    tx: Sender<String>,
    rx: Receiver<String>,
    input: String,
    output: String,
}

impl Driver {
    fn send(&mut self, line: &str) {
        let line = format!("{line}\n");
        self.input.push_str(&line);
        self.tx.send(line).expect("the protocol thread is alive");
    }

    /// The next reply line (each flush carries whole lines).
    fn reply(&mut self) -> String {
        let chunk = self.rx.recv_timeout(Duration::from_secs(60)).expect("a flushed reply");
        assert!(chunk.ends_with('\n') && chunk.matches('\n').count() == 1, "one line per flush: {chunk:?}");
        self.output.push_str(&chunk);
        chunk.trim_end().to_string()
    }
}

/// Who plays against the engine on the test side.
enum Opponent {
    /// Uniformly random free cells from a linear congruential stream of this seed.
    Random(u64),
    /// A second engine with other weights: real games, with blocks and long fights.
    Engine(Box<Engine<Connect6>>),
}

impl Opponent {
    fn choose(&mut self, board: &mut Board) -> Vec<Cell> {
        match self {
            Opponent::Random(state) => {
                let mut stones = Vec::new();
                while stones.len() < board.stones_left_in_turn() {
                    *state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let c = ((*state >> 33) % 361) as Cell;
                    if board.is_empty_cell(c) && !stones.contains(&c) {
                        stones.push(c);
                    }
                }
                stones
            }
            Opponent::Engine(e) => e.search(board, &Limits::depth(1)).best.stones().to_vec(),
        }
    }
}

/// Plays the engine against an opponent through the protocol until the game ends (or 150
/// turns); every engine move is checked on a mirror board. Returns (input, output, mirror).
fn play_game(engine_colour: Colour, mut opponent: Opponent) -> (String, String, Board) {
    let (in_tx, in_rx) = channel();
    let (out_tx, out_rx) = channel();
    let mut engine = engine();
    let opts = options();
    std::thread::scope(|s| {
        let reader = ChannelReader { rx: in_rx, buf: Vec::new(), pos: 0 };
        let writer = FlushWriter { pending: Vec::new(), tx: out_tx };
        let handle = s.spawn(|| run(&mut engine, &opts, reader, writer, std::io::sink()));
        let mut d = Driver { tx: in_tx, rx: out_rx, input: String::new(), output: String::new() };
        let mut mirror = Board::new(C6);
        d.send(&format!("new {}", engine_colour.name()));
        if engine_colour == Colour::Black {
            let r = d.reply();
            mirror_play(&mut mirror, &r, false);
        }
        for _ in 0..150 {
            if mirror.is_over() {
                break;
            }
            let stones = opponent.choose(&mut mirror);
            play_move(&mut mirror, &stones).expect("the opponent plays legal moves");
            d.send(&format!("move {}", move_to_competition(C6, &stones, false, false)));
            if mirror.is_over() {
                break;
            }
            let r = d.reply();
            mirror_play(&mut mirror, &r, false);
        }
        d.send("quit");
        assert_eq!(d.reply(), "Quit!");
        let Driver { input, output, .. } = d;
        handle.join().expect("the protocol thread does not panic").expect("no I/O error");
        (input, output, mirror)
    })
}

#[test]
fn name_and_quit() {
    assert_eq!(
        transcript("name?\n  NAME  \nquit\nname?\nnew black\nmove JJKK\n"),
        "name evotune\nname evotune\nQuit!\n"
    );
    let named = ProtocolOptions { name: "champion-g300".into(), ..options() };
    assert_eq!(transcript_with(&named, "name?\r\nQUIT\r\n").0, "name champion-g300\nQuit!\n");
}

#[test]
fn the_search_comment_comes_before_the_move_on_the_output_when_asked() {
    let judged = ProtocolOptions { verbose_stdout: true, ..options() };
    let (out, err) = transcript_with(&judged, "new black\n");
    let l = lines(&out);
    assert_eq!(l.len(), 2, "{out:?}");
    // What `fit-eval`'s judge reads: the score for the side to move.
    assert!(l[0].starts_with("# depth 1 score "), "{out:?}");
    assert!(crate::arena::eval_judge::read_eval(l[0]).is_some(), "{out:?}");
    assert_eq!(reply_stones(l[1], false).len(), 1);
    assert_eq!(err, "", "--verbose alone writes the error stream");
    // White to move with four in a column: a six this turn, written as a judge reads a
    // forced result (`+M1`), not as the search's raw number.
    let won = "new white\nblack JJ\nwhite AAAB\nblack SSSR\nwhite ACAD\nblack SQSP\nnext\n";
    let (out, _) = transcript_with(&judged, won);
    assert!(out.lines().any(|l| l.starts_with("# depth") && l.contains(" score +M")), "{out:?}");
}

#[test]
fn blank_lines_and_end_of_input() {
    assert_eq!(transcript(""), "");
    assert_eq!(transcript("\n\n   \n\t\n"), "");
    // No final newline: the last command still counts.
    assert_eq!(transcript("name?"), "name evotune\n");
}

#[test]
fn black_opens_at_once() {
    let out = transcript("new black\n");
    let l = lines(&out);
    assert_eq!(l.len(), 1, "{out:?}");
    assert!(l[0].ends_with("@@"), "a single stone is padded by default: {out:?}");
    assert_eq!(reply_stones(l[0], false).len(), 1);
    let bare = ProtocolOptions { pad_single: false, ..options() };
    let out2 = transcript_with(&bare, "new black\n").0;
    assert_eq!(out2, out.replace("@@", ""));
    assert_eq!(transcript("new white\n"), "", "White waits for Black's move");
}

#[test]
fn full_games_as_white_and_black() {
    for (colour, seed) in [(Colour::White, 1), (Colour::Black, 2), (Colour::White, 3)] {
        let (input, output, mirror) = play_game(colour, Opponent::Random(seed));
        assert_eq!(mirror.winner(), Some(colour), "the engine beats a random player:\n{}", mirror.diagram());
        // The whole exchange again as one script: the same replies, exactly, and no others.
        assert_eq!(transcript(&input), output, "replaying\n{input}");
    }
}

#[test]
fn long_games_against_another_engine_stay_legal() {
    for (colour, weights) in [(Colour::White, "random:5"), (Colour::Black, "random:6")] {
        let (w, _, _) =
            crate::player::load_weights(weights, Some("roads"), crate::registry::CONNECT6).expect("built-in weights");
        let other = Engine::new(EngineSettings { tt_mib: 1, ..EngineSettings::default() }, &w);
        let (input, output, mirror) = play_game(colour, Opponent::Engine(Box::new(other)));
        assert!(mirror.stone_count() > 12, "a real fight:\n{}", mirror.diagram());
        assert_eq!(transcript(&input), output);
    }
}

#[test]
fn bad_lines_get_one_error_each_and_change_nothing() {
    let clean = transcript("new white\nmove JJ\n");
    let mut mirror = board_after(&["JJ"]);
    mirror_play(&mut mirror, lines(&clean)[0], false);
    let next = free_cells(&mirror, &["AA", "AB", "AC", "AD"], 2);
    let bad = [
        "move ZZZZ",                 // off the board
        "move AA",                   // one stone where two are due and it does not win
        "move JJAA",                 // occupied cell
        "move AAAA",                 // the same cell twice
        "move AAABAC",               // three stones
        "move",                      // no move
        "move AA AB",                // two arguments
        "move J",                    // odd length
        "white AAAB",                // Black is to move
        "foo",                       // unknown command
        "depth x",                   // not a number
        "depth 0",                   // not positive
        "depth 1000",                // beyond the deepest ply
        "new purple",                // no such colour
        "next please",               // next takes no argument
        "\u{fffd}\u{7}move\u{0} JJ", // garbage bytes
        "undo undo",                 // undo takes no argument
    ];
    let mut input = String::from("new white\nmove JJ\n");
    for b in bad {
        input.push_str(b);
        input.push('\n');
    }
    input.push_str(&format!("move {next}\n"));
    let out = transcript(&input);
    let l = lines(&out);
    assert_eq!(l.len(), 2 + bad.len(), "{out}");
    assert_eq!(l[0], lines(&clean)[0]);
    for (i, b) in bad.iter().enumerate() {
        assert!(l[1 + i].starts_with("error "), "{b:?} gave {:?}", l[1 + i]);
        assert!(!l[1 + i].chars().any(|c| c.is_control()), "one clean line: {:?}", l[1 + i]);
    }
    // The game went on as if the bad lines had never been sent.
    let reference = transcript(&format!("new white\nmove JJ\nmove {next}\n"));
    assert_eq!(l.last(), lines(&reference).last());
    play_move(&mut mirror, &parse_competition_move(C6, &next, false).expect("valid")).expect("legal");
    mirror_play(&mut mirror, l[l.len() - 1], false);
}

#[test]
fn colour_commands_check_the_side_to_move() {
    // After `black JJ` it is White's turn: `black` is refused, `white` is fine, no search.
    let out = transcript("new white\nblack JJ\nblack AAAB\nwhite AAAB\nwhite ACAD\n");
    assert_eq!(lines(&out).len(), 2, "{out}");
    assert!(out.starts_with("error it is white's turn"), "{out}");
    assert!(lines(&out)[1].starts_with("error it is black's turn"), "{out}");
    // The engine is White: a `move` for White is out of turn; `next` searches for White.
    let out = transcript("new white\nblack JJ\nmove AAAB\nnext\n");
    let l = lines(&out);
    assert_eq!(l.len(), 2, "{out}");
    assert!(l[0].starts_with("error it is our turn"), "{out}");
    let mut mirror = board_after(&["JJ"]);
    mirror_play(&mut mirror, l[1], false);
}

#[test]
fn padding_is_accepted_in_every_form() {
    let plain = transcript("new white\nmove JJ\n");
    assert_eq!(transcript("new white\nmove JJ@@\n"), plain);
    assert_eq!(transcript("new white\nmove jj\n"), plain);
    assert_eq!(transcript("new white\nMOVE @@jj\n"), plain);
    assert!(transcript("new white\nmove @@\n").starts_with("error "));
    assert!(transcript("new white\nmove @@@@\n").starts_with("error "));
}

#[test]
fn flipped_rows_both_ways() {
    let flip = |text: &str| -> String {
        text.chars()
            .enumerate()
            .map(|(i, c)| if i % 2 == 1 && c != '@' { (b'S' - (c as u8 - b'A')) as char } else { c })
            .collect()
    };
    let flipped = ProtocolOptions { flip_rows: true, ..options() };
    // The same physical position both ways: a black stone at the top centre (j19).
    let plain = transcript("new white\nmove JS\n");
    let (out, _) = transcript_with(&flipped, "new white\nmove JA\n");
    let reply = lines(&plain)[0].strip_prefix("move ").expect("a move").to_string();
    assert_eq!(out, format!("move {}\n", flip(&reply)));
    let mut mirror = board_after(&["JS"]);
    mirror_play(&mut mirror, out.trim_end(), true);
    // The diagram labels rows as the protocol spells them: with flipped rows the top is `A`.
    let (diagram, _) = transcript_with(&flipped, "black JA\nprint\n");
    let l = lines(&diagram);
    assert!(l[1].starts_with("# A . . . . . . . . . X"), "{diagram}");
    let (diagram, _) = transcript_with(&options(), "black JA\nprint\n");
    assert!(lines(&diagram)[19].starts_with("# A . . . . . . . . . X"), "{diagram}");
}

/// Black: j10..n10 (five on the 10th row, open at o10); White's stones are far away.
const FIVE_FOR_BLACK: &str = "new white\nblack JJ\nwhite AABA\nblack KJLJ\nwhite ASBS\nblack MJNJ\nwhite CADA\n";

#[test]
fn a_winning_single_stone_ends_the_game_without_reply() {
    let (out, err) = transcript_with(&options(), &format!("{FIVE_FOR_BLACK}move OJ\n"));
    assert_eq!(out, "", "no reply to a winning move");
    assert!(err.contains("black wins"), "{err}");
    // A full pair whose first stone wins is accepted too, as platforms send pairs.
    assert_eq!(transcript(&format!("{FIVE_FOR_BLACK}move OJSS\n")), "");
    // Nothing can be played afterwards; `new` starts again.
    let out = transcript(&format!("{FIVE_FOR_BLACK}move OJ\nmove ABAC\nnext\nwhite ABAC\nnew white\nmove JJ\n"));
    let l = lines(&out);
    assert_eq!(l.len(), 4, "{out}");
    for e in &l[..3] {
        assert!(e.starts_with("error the game is over (black has won)"), "{out}");
    }
    reply_stones(l[3], false);
}

#[test]
fn the_engine_blocks_an_open_four() {
    // Black j10..m10 with both ends open; White (the engine) must stop every six.
    let setup = "new white\nblack JJ\nwhite AABA\nblack KJLJ\nwhite ASBS\n";
    let out = transcript(&format!("{setup}move MJCA\n"));
    let mut mirror = board_after(&["JJ", "AABA", "KJLJ", "ASBS", "MJCA"]);
    assert!(mirror.threat_count(Colour::Black) > 0);
    mirror_play(&mut mirror, out.trim_end(), false);
    assert_eq!(mirror.threat_count(Colour::Black), 0, "{out} does not block:\n{}", mirror.diagram());
    // The same through `next` (the engine takes White's side for the position set up).
    let out = transcript(&format!("{setup}black MJCA\nnext\n"));
    let mut m2 = board_after(&["JJ", "AABA", "KJLJ", "ASBS", "MJCA"]);
    mirror_play(&mut m2, out.trim_end(), false);
    assert_eq!(m2.threat_count(Colour::Black), 0);
}

#[test]
fn the_engine_takes_a_win() {
    // White (the engine) to move; Black has five with an open end, but White wins first if it
    // can: give White four on row 1 (a1..d1) and let it move.
    let out = transcript("new white\nblack JJ\nwhite AABA\nblack KJLJ\nwhite CADA\nmove MJNJ\n");
    let mut mirror = board_after(&["JJ", "AABA", "KJLJ", "CADA", "MJNJ"]);
    mirror_play(&mut mirror, out.trim_end(), false);
    assert_eq!(mirror.winner(), Some(Colour::White), "{out}");
}

#[test]
fn platform_error_end_and_new() {
    let (out, err) = transcript_with(&options(), "new white\nmove JJ\nerror\n");
    assert_eq!(lines(&out).len(), 1);
    assert!(err.contains("rejected"), "{err}");
    // After `end`, moves are refused until `new`.
    let out = transcript("new white\nmove JJ\nend\nmove AAAB\nnext\nnew black\n");
    let l = lines(&out);
    assert_eq!(l.len(), 4, "{out}");
    assert!(l[1].starts_with("error the game has ended") && l[2].starts_with("error the game has ended"));
    assert_eq!(l[3], lines(&transcript("new black\n"))[0], "a new game is a fresh start");
}

#[test]
fn errors_can_go_to_stderr() {
    let opts = ProtocolOptions { errors_to_stderr: true, ..options() };
    let (out, err) = transcript_with(&opts, "foo\nname?\n");
    assert_eq!(out, "name evotune\n");
    assert_eq!(err, "error unknown command `foo`\n");
}

#[test]
fn depth_and_undo() {
    // `depth` is silent; `undo` takes back whole turns.
    let fresh = transcript("print\n");
    let out = transcript("depth 2\nnew white\nmove JJ\nundo\nundo\nprint\nundo\n");
    let l = lines(&out);
    assert!(l[0].starts_with("move "), "{out}");
    let diagram: Vec<&str> = l[1..l.len() - 1].to_vec();
    let expected: Vec<&str> = lines(&fresh);
    assert_eq!(diagram[..20], expected[..20], "the board is empty again");
    assert_eq!(l[l.len() - 1], "error nothing to undo");
    // Back at the empty board the turn structure starts over: one stone for Black's first turn.
    let out = transcript("new white\nmove JJ\nundo\nundo\nblack AAAB\nmove KK\n");
    let l = lines(&out);
    assert_eq!(l.len(), 3, "{out}");
    assert!(l[1].starts_with("error this turn places 1 stone(s)"), "{out}");
    let mut mirror = board_after(&["KK"]);
    mirror_play(&mut mirror, l[2], false);
}

/// `param` lines make the engine play the table they set, exactly as an engine started with
/// it (a tuner tells one process one individual after another); a bad one is an error line
/// and changes nothing.
#[test]
fn param_lines_set_the_table_played() {
    // Settings that make a move cheap (no refutation checks), so that games are quick.
    let settings = EngineSettings { tt_mib: 1, refutation_nodes: 0, quiet_refutation_nodes: 0, ..Default::default() };
    let tuned = crate::player::random_weights(&CONNECT6_ROADS, 7);
    let play = |engine: &mut Engine<Connect6>, input: &str| {
        let mut out = Vec::new();
        run(engine, &options(), input.as_bytes(), &mut out, std::io::sink()).unwrap();
        String::from_utf8(out).unwrap()
    };
    let self_play = "new black\nnext\nnext\nnext\nnext\n";
    let started_tuned = play(&mut Engine::new(settings.clone(), &tuned), self_play);
    let defaults = play(&mut Engine::new(settings.clone(), &CONNECT6_ROADS.defaults()), self_play);
    assert_ne!(started_tuned, defaults, "the tables play differently");
    let told: String =
        CONNECT6_ROADS.specs.iter().zip(tuned.values()).map(|(s, v)| format!("param {} {v}\n", s.name)).collect();
    // Told before a game, or between two games of another table: the same moves.
    let mut engine = Engine::new(settings.clone(), &CONNECT6_ROADS.defaults());
    assert_eq!(play(&mut engine, &format!("{told}{self_play}")), started_tuned);
    let mut engine = Engine::new(settings, &CONNECT6_ROADS.defaults());
    assert_eq!(play(&mut engine, &format!("{self_play}{told}{self_play}")), defaults.clone() + &started_tuned);
    assert_eq!(engine.weights(), &tuned);

    // Bad lines: one error each, the table kept.
    let spec = &CONNECT6_ROADS.specs[0];
    let range = format!("{} takes an integer from {} to {}", spec.name, spec.min, spec.max);
    let bad = [
        ("param".to_string(), "error expected `param NAME VALUE`".to_string()),
        (format!("param {} 1 2", spec.name), "error expected `param NAME VALUE`".into()),
        (
            "param no_such 3".into(),
            "error unknown parameter `no_such` of the roads table (`evotune schema --game connect6 --eval roads` \
             lists them)"
                .into(),
        ),
        (format!("param {} {}", spec.name, spec.max + 1), format!("error `{}`: {range}", spec.max + 1)),
        (format!("param {} x", spec.name), format!("error `x`: {range}")),
    ];
    let input: String = bad.iter().map(|(line, _)| format!("{line}\n")).collect();
    let out = play(&mut engine, &format!("{input}new black\n"));
    let errors: Vec<&str> = bad.iter().map(|(_, e)| e.as_str()).collect();
    assert_eq!(lines(&out)[..errors.len()], errors[..]);
    assert_eq!(engine.weights(), &tuned);
}

#[test]
fn print_goes_to_the_output_marked() {
    let out = transcript("black JJ\nprint\n");
    let l = lines(&out);
    assert_eq!(l.len(), 21, "{out}");
    assert!(l.iter().all(|x| x.starts_with("# ")), "{out}");
    assert!(l[20].contains("white to move, 2 stone(s)"), "{out}");
}

/// A line of protocol input, valid or not, biased towards commands that change the state.
fn any_line() -> impl Strategy<Value = String> {
    let coord = "[A-Ua-u@]{2}";
    prop_oneof![
        Just("new black".to_string()),
        Just("new white".to_string()),
        Just("next".to_string()),
        Just("undo".to_string()),
        Just("end".to_string()),
        Just("error".to_string()),
        Just("print".to_string()),
        Just("name?".to_string()),
        (coord, coord).prop_map(|(a, b)| format!("move {a}{b}")),
        coord.prop_map(|a| format!("move {a}")),
        (prop_oneof![Just("black"), Just("white")], coord, coord).prop_map(|(c, a, b)| format!("{c} {a}{b}")),
        // Small depths only: the point is parsing, not deep searches.
        "depth ?[0-2x-]?",
        Just("depth 1000".to_string()),
        "\\PC{0,12}",
        ".{0,6}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_lines_never_break_the_protocol(script in prop::collection::vec(any_line(), 0..40)) {
        let input: String = script.iter().map(|l| format!("{l}\n")).collect();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let result = run(&mut engine(), &options(), input.as_bytes(), &mut out, &mut err);
        prop_assert!(result.is_ok());
        let out = String::from_utf8(out).expect("UTF-8");
        let mut quit = false;
        for line in out.lines() {
            prop_assert!(!quit, "output after Quit!: {}", out);
            if line == "Quit!" {
                quit = true;
            } else if let Some(m) = line.strip_prefix("move ") {
                prop_assert!(parse_competition_move(C6, m, false).is_ok(), "{}", line);
            } else {
                prop_assert!(line.starts_with("error ") || line.starts_with("# ") || line == "name evotune", "{}", line);
            }
        }
    }

    #[test]
    fn random_bytes_never_break_the_protocol(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        prop_assert!(run(&mut engine(), &options(), &bytes[..], &mut out, &mut err).is_ok());
    }
}

#[test]
fn a_line_too_long_or_not_utf8_gets_one_short_error_and_changes_nothing() {
    let mut input = format!("new black\nmove {}\n", "j".repeat(60_000)).into_bytes();
    input.extend(std::iter::repeat_n(b'k', 10_000_000));
    input.extend_from_slice(b"\nmove \xff\xfe\nname\nquit\n");
    let (mut out, mut err) = (Vec::new(), Vec::new());
    run(&mut engine(), &options(), &input[..], &mut out, &mut err).unwrap();
    let out = String::from_utf8(out).expect("replies are UTF-8");
    let l = lines(&out);
    // new black: the engine's opening move; then three errors; then the name.
    assert!(l[0].starts_with("move "), "{out}");
    assert!(l[1..4].iter().all(|e| e.starts_with("error ") && e.len() < 300), "{}", &out[..400.min(out.len())]);
    assert!(l[2].contains("longer than 65536 bytes") && l[3].contains("not UTF-8"), "{l:?}");
    assert!(l[4].starts_with("name "), "{l:?}");
}
