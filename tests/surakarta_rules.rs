//! Surakarta's rules against an independent reading of them: the oracle here knows nothing of
//! the engine's circuit lists. It walks the board geometrically (a flying piece moves in a
//! straight line; leaving the board on rows or columns 1-4 it follows the quarter circle
//! around the nearest corner onto the perpendicular line at the same distance from that
//! corner, now heading into the board), so it checks the lists as well as the flights.
//! Then perft counts from fixed positions, the end rules and the notation.

use std::collections::BTreeSet;

use evotune::core::game::{Game, GameMove, Position, Side, Status};
use evotune::games::surakarta::board::{Board, Move};
use evotune::games::surakarta::Surakarta;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

type Cells = [Option<Side>; 36];

fn cell(r: i32, c: i32) -> usize {
    (r * 6 + c) as usize
}

/// The point a flight enters after leaving the board from (r, c) heading (dr, dc), and its
/// new heading; `None` where no arc leaves (rows and columns 0 and 5).
fn through_arc(r: i32, c: i32, dr: i32, dc: i32) -> Option<(i32, i32, i32, i32)> {
    let line = if dr == 0 { r } else { c };
    if !(1..=4).contains(&line) {
        return None;
    }
    Some(match (dr, dc) {
        // Off the right edge: rows 1-2 turn round the top-right corner, rows 3-4 round the
        // bottom-right one.
        (0, 1) if r <= 2 => (0, 5 - r, 1, 0),
        (0, 1) => (5, r, -1, 0),
        (0, -1) if r <= 2 => (0, r, 1, 0),
        (0, -1) => (5, 5 - r, -1, 0),
        (-1, 0) if c <= 2 => (c, 0, 0, 1),
        (-1, 0) => (5 - c, 5, 0, -1),
        (1, 0) if c <= 2 => (5 - c, 0, 0, 1),
        (1, 0) => (c, 5, 0, -1),
        _ => unreachable!("orthogonal headings only"),
    })
}

/// Every move of `me` by the rules as written: (from, to, capture).
fn oracle_moves(cells: &Cells, me: Side) -> BTreeSet<(usize, usize, bool)> {
    let mut out = BTreeSet::new();
    for r in 0..6 {
        for c in 0..6 {
            let from = cell(r, c);
            if cells[from] != Some(me) {
                continue;
            }
            for dr in -1..=1 {
                for dc in -1..=1 {
                    let (nr, nc) = (r + dr, c + dc);
                    if (dr, dc) != (0, 0)
                        && (0..6).contains(&nr)
                        && (0..6).contains(&nc)
                        && cells[cell(nr, nc)].is_none()
                    {
                        out.insert((from, cell(nr, nc), false));
                    }
                }
            }
            for (hr, hc) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                let (mut pr, mut pc, mut dr, mut dc) = (r, c, hr, hc);
                let mut arcs = 0;
                // Two laps are more than any flight can use.
                for _ in 0..48 {
                    let (nr, nc) = (pr + dr, pc + dc);
                    if (0..6).contains(&nr) && (0..6).contains(&nc) {
                        (pr, pc) = (nr, nc);
                    } else {
                        match through_arc(pr, pc, dr, dc) {
                            Some((a, b, x, y)) => {
                                (pr, pc, dr, dc) = (a, b, x, y);
                                arcs += 1;
                            }
                            None => break,
                        }
                    }
                    let at = cell(pr, pc);
                    if at == from {
                        continue;
                    }
                    match cells[at] {
                        None => continue,
                        Some(s) if s != me && arcs > 0 => {
                            out.insert((from, at, true));
                            break;
                        }
                        Some(_) => break,
                    }
                }
            }
        }
    }
    out
}

fn engine_moves(board: &Board) -> BTreeSet<(usize, usize, bool)> {
    let mut moves = Vec::new();
    board.pseudo_moves(&mut moves);
    let set: BTreeSet<_> = moves.iter().map(|m| (m.from(), m.to(), m.is_capture())).collect();
    assert_eq!(set.len(), moves.len(), "no move twice");
    // Captures first.
    let first_step = moves.iter().position(|m| !m.is_capture()).unwrap_or(moves.len());
    assert!(moves[first_step..].iter().all(|m| !m.is_capture()));
    set
}

fn cells_of(board: &Board) -> Cells {
    std::array::from_fn(|c| board.at(c))
}

fn random_cells(rng: &mut ChaCha8Rng, per_side: usize) -> Cells {
    let mut cells = [None; 36];
    for side in Side::BOTH {
        let mut placed = 0;
        while placed < per_side {
            let c = rng.random_range(0..36);
            if cells[c].is_none() {
                cells[c] = Some(side);
                placed += 1;
            }
        }
    }
    cells
}

#[test]
fn every_move_of_random_boards_matches_the_geometric_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    let mut captures = 0;
    for i in 0..4000 {
        let per_side = 1 + i % 12;
        let cells = random_cells(&mut rng, per_side);
        let me = if i % 2 == 0 { Side::First } else { Side::Second };
        let board = Board::from_cells(cells, me, 50);
        let expected = oracle_moves(&cells, me);
        assert_eq!(engine_moves(&board), expected, "board {i}:\n{}", board.diagram());
        captures += expected.iter().filter(|m| m.2).count();
    }
    assert!(captures > 4000, "the boards exercise captures: {captures}");
}

#[test]
fn every_move_of_random_games_matches_the_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut moves = Vec::new();
    let mut positions = 0;
    for _ in 0..60 {
        let mut board = Surakarta.start();
        while !board.status().is_over() {
            let expected = oracle_moves(&cells_of(&board), board.to_move());
            assert_eq!(engine_moves(&board), expected, "\n{}", board.diagram());
            Surakarta.legal_moves(&board, &mut moves);
            // Prefer captures half the time, so games reach the sparse endings.
            let captures = moves.iter().filter(|m| m.is_capture()).count();
            let m = if captures > 0 && rng.random_bool(0.5) {
                moves[rng.random_range(0..captures)]
            } else {
                moves[rng.random_range(0..moves.len())]
            };
            let hash = board.hash();
            let u = board.play(m);
            assert_eq!(board.hash(), board.hash_from_scratch());
            board.undo(u);
            assert_eq!(board.hash(), hash);
            board.play(m);
            positions += 1;
        }
    }
    assert!(positions > 2000, "{positions}");
}

/// A lap through the start point: the first player's piece on c4 (an outer self-crossing)
/// reaches d4 only by flying up column c, round the top-left arc, along row 4 and across its
/// own start point; the other ways are blocked by its own piece on c3 or lack an arc.
#[test]
fn a_flight_may_cross_its_own_start_point() {
    let mut cells = [None; 36];
    cells[14] = Some(Side::First); // c4
    cells[20] = Some(Side::First); // c3
    cells[15] = Some(Side::Second); // d4
    let board = Board::from_cells(cells, Side::First, 50);
    let m = Surakarta.parse_move(&board, "c4xd4").unwrap();
    assert!(m.is_capture());
    assert!(board.is_pseudo_legal(m));
    assert!(oracle_moves(&cells, Side::First).contains(&(14, 15, true)));
    // With an own piece on a4 the lap is blocked, and no other flight reaches d4.
    let mut blocked = cells;
    blocked[12] = Some(Side::First); // a4
    let board = Board::from_cells(blocked, Side::First, 50);
    assert!(!board.is_pseudo_legal(Move::capture(14, 15)));
    assert!(!oracle_moves(&blocked, Side::First).contains(&(14, 15, true)));
}

/// An enemy piece next to the flier on the same line without an arc between is not
/// capturable; corners never fly.
#[test]
fn a_capture_needs_an_arc_and_corners_never_fly() {
    let mut cells = [None; 36];
    cells[13] = Some(Side::First); // b4, on row 4 (outer) and column b (inner)
    cells[14] = Some(Side::Second); // c4
    cells[30] = Some(Side::First); // a1, a corner
    let board = Board::from_cells(cells, Side::First, 50);
    let set = engine_moves(&board);
    // Flying right along row 4, b4 meets c4 at once, without an arc. Flying left it passes
    // a4, takes the top-left arc (radius 2) into column c at c6 heading down, passes c5 and
    // lands on c4: a capture.
    assert!(set.contains(&(13, 14, true)), "{set:?}");
    assert!(!set.iter().any(|&(f, _, cap)| f == 30 && cap));
    assert_eq!(set.len(), oracle_moves(&cells, Side::First).len());
}

fn perft(board: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    Surakarta.legal_moves(board, &mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut n = 0;
    for m in moves {
        let u = board.play(m);
        n += perft(board, depth - 1);
        board.undo(u);
    }
    n
}

fn oracle_perft(board: &mut Board, depth: u32) -> u64 {
    if depth == 0 || board.status().is_over() {
        return (depth == 0) as u64;
    }
    let mut n = 0;
    for (f, t, cap) in oracle_moves(&cells_of(board), board.to_move()) {
        let u = board.play(if cap { Move::capture(f, t) } else { Move::step(f, t) });
        n += oracle_perft(board, depth - 1);
        board.undo(u);
    }
    n
}

/// A middle game with captures on both sides (record moves from the start).
/// (Fourteen moves of a self-play game: 10 pieces against 11, the first player to move.)
const MIDDLE: &str = "d2-d3 b5-c4 f2-e3 a5-b4 e1-d2 b6-b5 e3-f3 b4-a4 a2-b3 b5xb3 c1xb3 c5xb3 b2-a3 d5-d4";

#[test]
fn perft_counts_from_fixed_positions() {
    let mut start = Surakarta.start();
    let counts: Vec<u64> = (1..=4).map(|d| perft(&mut start, d)).collect();
    assert_eq!(counts, vec![PERFT_START[0], PERFT_START[1], PERFT_START[2], PERFT_START[3]]);
    assert_eq!(oracle_perft(&mut start, 3), PERFT_START[2]);
    let moves: Vec<&str> = MIDDLE.split_whitespace().collect();
    let mut middle = Surakarta.replay(&moves).expect("the middle game replays");
    let counts: Vec<u64> = (1..=3).map(|d| perft(&mut middle, d)).collect();
    assert_eq!(counts, PERFT_MIDDLE.to_vec());
    assert_eq!(oracle_perft(&mut middle, 3), PERFT_MIDDLE[2]);
}

/// From the start: 16 steps (the front row's pieces, 2 or 3 each), no capture possible for
/// the first two moves of each side.
const PERFT_START: [u64; 4] = [16, 256, 5382, 111_122];
const PERFT_MIDDLE: [u64; 3] = [30, 953, 28_565];

#[test]
fn the_game_ends_by_the_rules() {
    // All pieces captured: the second player's last piece on c1 is taken.
    let mut cells = [None; 36];
    cells[14] = Some(Side::First);
    cells[9] = Some(Side::First);
    cells[32] = Some(Side::Second);
    let mut board = Board::from_cells(cells, Side::First, 50);
    assert_eq!(board.status(), Status::Ongoing);
    Surakarta.play_checked(&mut board, Move::capture(14, 32)).unwrap();
    assert_eq!(board.status(), Status::Won { winner: Side::First, reason: "captured" });
    let mut moves = vec![Move::NONE];
    Surakarta.legal_moves(&board, &mut moves);
    assert!(moves.is_empty());
    assert!(Surakarta.play_checked(&mut board, Move::step(9, 3)).unwrap_err().contains("over"));

    // The no-capture limit: two pieces against one shuffle; the side with more wins.
    let mut cells = [None; 36];
    cells[30] = Some(Side::First); // a1
    cells[35] = Some(Side::First); // f1
    cells[0] = Some(Side::Second); // a6
    let mut board = Board::from_cells(cells, Side::First, 4);
    for text in ["a1-a2", "a6-b6", "f1-f2", "b6-c6"] {
        assert_eq!(board.status(), Status::Ongoing, "{text}");
        let m = Surakarta.parse_move(&board, text).unwrap();
        Surakarta.play_checked(&mut board, m).unwrap();
    }
    assert_eq!(board.status(), Status::Won { winner: Side::First, reason: "no-capture" });

    // A repetition with equal pieces is a draw; with more pieces, a win.
    let pos = Surakarta.replay(&["b2-b3", "e5-e4", "b3-b2", "e4-e5"]).unwrap();
    assert_eq!(pos.status(), Status::Draw { reason: "repetition" });
    let mut board = Board::from_cells(cells, Side::Second, 50);
    for text in ["a6-b6", "a1-a2", "b6-a6", "a2-a1"] {
        let m = Surakarta.parse_move(&board, text).unwrap();
        Surakarta.play_checked(&mut board, m).unwrap();
    }
    assert_eq!(board.status(), Status::Won { winner: Side::First, reason: "repetition" });

    // A side that cannot move: the second player's only piece on a6 walled in by b6, a5, b5
    // (whose own flights are blocked too).
    let mut cells = [None; 36];
    cells[0] = Some(Side::Second);
    for c in [1, 6, 7] {
        cells[c] = Some(Side::First);
    }
    let board = Board::from_cells(cells, Side::Second, 50);
    assert_eq!(board.status(), Status::Won { winner: Side::First, reason: "blocked" });
}

#[test]
fn illegal_moves_are_refused_with_a_reason() {
    let mut board = Surakarta.start();
    let cases = [
        ("c3-c4", "c3 is empty"),
        ("b5-b4", "second player"),
        ("b1-b2", "own pieces"),
        ("b2-b4", "not a step"),
        ("b2xb5", "cannot capture"),
    ];
    for (text, reason) in cases {
        let m = Surakarta.parse_move(&board, text).unwrap();
        let e = Surakarta.play_checked(&mut board, m).unwrap_err();
        assert!(e.contains(reason), "{text}: {e}");
    }
    assert_eq!(board.moves_played(), 0);
    // A capture flag the board does not bear out (text from another position).
    assert!(Surakarta.play_checked(&mut board, Move::capture(25, 19)).is_err());
    assert!(Surakarta.parse_move(&board, "b2-b9").unwrap_err().contains("b2-b9"));
}

#[test]
fn records_round_trip() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let mut board = Surakarta.start();
    let mut texts = Vec::new();
    let mut moves = Vec::new();
    while !board.status().is_over() && texts.len() < 120 {
        Surakarta.legal_moves(&board, &mut moves);
        let m = moves[rng.random_range(0..moves.len())];
        let text = Surakarta.format_move(&board, m);
        assert_eq!(Surakarta.parse_move(&board, &text), Ok(m), "{text}");
        texts.push(text);
        board.play(m);
    }
    let again = Surakarta.replay(&texts).unwrap();
    assert_eq!(again.hash(), board.hash());
    assert_eq!(again.status(), board.status());
}
