//! Freestyle Gomoku's rules against OpenSpiel's `gomoku` (an implementation no one here
//! wrote): 60 seeded random games recorded by `scripts/openspiel_gomoku.py`, with OpenSpiel's
//! verdict after every move (over or not, the winner, the set of legal moves). evotune must
//! agree at every position. Plus the brute-force oracle of tests/common on random positions.

mod common;

use evotune::core::game::{Game, Position, Side, Status};
use evotune::fsutil::fnv1a64;
use evotune::games::connect::game::ConnectPosition;
use evotune::games::connect::movegen::Move;
use evotune::games::connect::notation::cell_to_record;
use evotune::games::connect::{Board, Colour, Rules};
use evotune::games::gomoku::{Gomoku, GomokuBoard};

use common::{random_game, Oracle, RandomStyle};

#[derive(serde::Deserialize)]
struct Recorded {
    over: bool,
    legal: usize,
    hash: String,
}

#[derive(serde::Deserialize)]
struct RecordedGame {
    game: usize,
    moves: Vec<String>,
    result: String,
    positions: Vec<Recorded>,
}

/// The legal moves of a position as the script hashes them.
fn legal_key(pos: &GomokuBoard) -> (usize, String) {
    let mut moves: Vec<Move> = Vec::new();
    Gomoku.legal_moves(pos, &mut moves);
    let mut cells: Vec<String> = moves
        .iter()
        .map(|m| {
            assert_eq!(m.stones().len(), 1, "a Gomoku move is one stone");
            cell_to_record(Rules::GOMOKU, m.stones()[0])
        })
        .collect();
    cells.sort();
    (cells.len(), format!("{:016x}", fnv1a64(cells.join(",").as_bytes())))
}

/// The longest line of one colour through the last stone.
fn last_line(board: &Board) -> usize {
    let Some(&c) = board.history().last() else { return 0 };
    let colour = board.stone(c);
    let (x, y) = board.xy(c);
    let mut best = 0;
    for (dx, dy) in [(1i32, 0i32), (0, 1), (1, 1), (1, -1)] {
        let mut n = 1;
        for sign in [1, -1] {
            let (mut cx, mut cy) = (x as i32 + sign * dx, y as i32 + sign * dy);
            while (0..15).contains(&cx)
                && (0..15).contains(&cy)
                && board.stone(board.cell(cx as usize, cy as usize)) == colour
            {
                n += 1;
                cx += sign * dx;
                cy += sign * dy;
            }
        }
        best = best.max(n);
    }
    best
}

#[test]
fn every_position_agrees_with_openspiel() {
    let text = std::fs::read_to_string("tests/fixtures/gomoku-openspiel.jsonl").expect("the fixture");
    let (mut positions, mut overlines, mut draws) = (0, 0, 0);
    for line in text.lines() {
        let g: RecordedGame = serde_json::from_str(line).unwrap();
        let mut pos = Gomoku.start();
        assert_eq!(g.positions.len(), g.moves.len() + 1);
        for (i, want) in g.positions.iter().enumerate() {
            let what = format!("game {} after {} moves", g.game, i);
            assert_eq!(pos.status().is_over(), want.over, "{what}: over?");
            assert_eq!(legal_key(&pos), (want.legal, want.hash.clone()), "{what}: legal moves");
            positions += 1;
            if let Some(text) = g.moves.get(i) {
                let m = Gomoku.parse_move(&pos, text).unwrap();
                Gomoku.play_checked(&mut pos, m).unwrap_or_else(|e| panic!("{what}: {text}: {e}"));
            }
        }
        let result = match pos.status() {
            Status::Won { winner, reason } => {
                assert_eq!(reason, "five");
                overlines += usize::from(last_line(pos.board()) > 5);
                if winner == Side::First {
                    "first"
                } else {
                    "second"
                }
            }
            Status::Draw { reason } => {
                assert_eq!(reason, "full");
                draws += 1;
                "draw"
            }
            Status::Ongoing => panic!("game {}: OpenSpiel ended it, evotune did not", g.game),
        };
        assert_eq!(result, g.result, "game {}", g.game);
        // The replay of the whole record agrees too.
        assert!(Gomoku.replay(&g.moves).is_ok());
    }
    assert!(positions > 3000, "{positions} positions");
    assert!(draws >= 1, "a full board is among the games");
    assert!(overlines >= 1, "an overline is among the wins");
    eprintln!("{positions} positions agree; {overlines} games won by an overline, {draws} drawn");
}

/// The brute-force oracle of tests/common (lines counted cell by cell) on random games: the
/// winner, and that a game goes on exactly while no line of five exists and a cell is free.
#[test]
fn status_agrees_with_the_brute_force_oracle() {
    for seed in 0..40 {
        let stones = random_game(Rules::GOMOKU, 9100 + seed, RandomStyle { region: 9, near: 0.9 }, 225);
        let mut pos = Gomoku.start();
        let oracle = Oracle::new(Rules::GOMOKU);
        for &c in &stones {
            let board = pos.board().clone();
            let want = oracle.winner(&board);
            match pos.status() {
                Status::Won { winner, .. } => {
                    assert_eq!(Some(if winner == Side::First { Colour::Black } else { Colour::White }), want);
                    break;
                }
                Status::Draw { .. } => panic!("a draw with free cells"),
                Status::Ongoing => assert_eq!(want, None, "seed {seed}"),
            }
            pos.play(Move::single(c));
        }
    }
}
