//! The rules of Connect(m,n,k,p,q) as the board implements them: lines of k in every direction
//! and at every border, overlines, the end of the game at the winning stone, the turn
//! structure, full-board draws, the Zobrist hash, and the incremental road counts.

mod common;

use std::collections::{HashMap, HashSet};

use common::{board_of, for_each_turn_start, random_game, roads_by_direction, Oracle, RandomStyle};
use evotune::games::connect::board::{Geometry, IllegalMove};
use evotune::games::connect::notation::{board_from_record_moves, parse_record_move, play_move, record_moves};
use evotune::games::connect::{Board, Cell, Colour, Rules};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const C6: Rules = Rules::CONNECT6;
const GOMOKU: Rules = Rules::GOMOKU;
/// A small Connect6-like game (two stones a turn, one first) to test the family, not one board.
const SMALL: Rules = Rules { width: 7, height: 7, k: 4, p: 2, q: 1 };

fn cells(rules: Rules, text: &str) -> Vec<Cell> {
    text.split_whitespace().map(|t| parse_record_move(rules, t).expect("a cell")[0]).collect()
}

/// Stones of the side not making the line: on a 3-spaced grid, so they never touch each other
/// and make no line of their own, and never on `line`.
fn fillers(rules: Rules, line: &[Cell]) -> Vec<Cell> {
    let w = rules.width as usize;
    (0..rules.cells())
        .filter(|&c| (c % w).is_multiple_of(3) && (c / w).is_multiple_of(3))
        .map(|c| c as Cell)
        .filter(|c| !line.contains(c))
        .collect()
}

/// Places the stones of `line` for `colour` (the last one last, the others in order), the other
/// side putting filler stones when it is its turn. Checks that nobody has a line before the
/// last stone and that `colour` wins the moment it lands, and returns the board.
fn build_line(rules: Rules, colour: Colour, line: &[Cell], last: usize, what: &str) -> Board {
    let oracle = Oracle::new(rules);
    let mut order: Vec<Cell> = line.iter().enumerate().filter(|&(i, _)| i != last).map(|(_, &c)| c).collect();
    order.push(line[last]);
    let mut fill = fillers(rules, line).into_iter();
    let mut b = Board::new(rules);
    let mut next = 0;
    while next < order.len() {
        assert_eq!(b.winner(), None, "{what}: a winner before the line is complete\n{}", b.diagram());
        assert!(!b.is_over(), "{what}");
        if b.to_move() == colour {
            b.try_play(order[next]).unwrap_or_else(|e| panic!("{what}: {e}"));
            next += 1;
        } else {
            b.try_play(fill.next().expect("enough filler cells")).unwrap();
        }
    }
    assert_eq!(b.winner(), Some(colour), "{what}: the last stone did not win\n{}", b.diagram());
    assert_eq!(oracle.winner(&b), Some(colour), "{what}: oracle");
    assert!(b.is_over(), "{what}");
    // Nothing can be placed after a win, not even by the winner finishing its turn.
    let empty = (0..rules.cells() as Cell).find(|&c| b.is_empty_cell(c)).unwrap();
    assert_eq!(b.try_play(empty), Err(IllegalMove::GameOver), "{what}");
    b
}

/// Named lines touching every border and corner, in record notation: rules, colour, cells in
/// line order, which one is placed last.
const NAMED_LINES: &[(&str, Rules, Colour, &str, usize)] = &[
    ("bottom edge from the a1 corner", C6, Colour::Black, "a1 b1 c1 d1 e1 f1", 0),
    ("bottom edge to the s1 corner", C6, Colour::White, "n1 o1 p1 q1 r1 s1", 5),
    ("top edge from the a19 corner", C6, Colour::White, "a19 b19 c19 d19 e19 f19", 2),
    ("top edge to the s19 corner", C6, Colour::Black, "n19 o19 p19 q19 r19 s19", 5),
    ("left edge from the a1 corner", C6, Colour::Black, "a1 a2 a3 a4 a5 a6", 5),
    ("left edge to the a19 corner", C6, Colour::White, "a14 a15 a16 a17 a18 a19", 0),
    ("right edge from the s1 corner", C6, Colour::White, "s1 s2 s3 s4 s5 s6", 3),
    ("right edge to the s19 corner", C6, Colour::Black, "s14 s15 s16 s17 s18 s19", 5),
    ("diagonal from the a1 corner", C6, Colour::Black, "a1 b2 c3 d4 e5 f6", 0),
    ("diagonal to the s19 corner", C6, Colour::White, "n14 o15 p16 q17 r18 s19", 5),
    ("anti-diagonal from the a19 corner", C6, Colour::White, "a19 b18 c17 d16 e15 f14", 1),
    ("anti-diagonal to the s1 corner", C6, Colour::Black, "n6 o5 p4 q3 r2 s1", 5),
    ("diagonal from the left edge", C6, Colour::Black, "a7 b8 c9 d10 e11 f12", 4),
    ("diagonal from the bottom edge", C6, Colour::White, "g1 h2 i3 j4 k5 l6", 0),
    ("diagonal to the right edge", C6, Colour::Black, "n4 o5 p6 q7 r8 s9", 5),
    ("diagonal to the top edge", C6, Colour::White, "d14 e15 f16 g17 h18 i19", 5),
    ("anti-diagonal from the left edge", C6, Colour::White, "a12 b11 c10 d9 e8 f7", 3),
    ("anti-diagonal to the bottom edge", C6, Colour::Black, "j6 k5 l4 m3 n2 o1", 5),
    ("anti-diagonal from the top edge", C6, Colour::Black, "g19 h18 i17 j16 k15 l14", 0),
    ("anti-diagonal to the right edge", C6, Colour::White, "n12 o11 p10 q9 r8 s7", 2),
    ("centre row through j10", C6, Colour::Black, "g10 h10 i10 j10 k10 l10", 3),
    ("gomoku bottom edge corner", GOMOKU, Colour::Black, "a1 b1 c1 d1 e1", 4),
    ("gomoku right edge corner", GOMOKU, Colour::White, "o11 o12 o13 o14 o15", 0),
    ("gomoku diagonal to the o15 corner", GOMOKU, Colour::White, "k11 l12 m13 n14 o15", 2),
    ("gomoku anti-diagonal a15 corner", GOMOKU, Colour::Black, "a15 b14 c13 d12 e11", 4),
    ("gomoku anti-diagonal o1 corner", GOMOKU, Colour::White, "k5 l4 m3 n2 o1", 0),
];

#[test]
fn named_lines_at_every_border_win() {
    for &(what, rules, colour, text, last) in NAMED_LINES {
        let line = cells(rules, text);
        assert_eq!(line.len(), rules.k as usize, "{what}");
        build_line(rules, colour, &line, last, what);
    }
}

/// Every road of the board, for both colours, with the completing stone at each position of
/// the line in turn: covers every border, corner and direction.
#[test]
fn every_line_of_k_wins_for_both_colours() {
    for rules in [C6, GOMOKU, SMALL] {
        for (i, (d, road)) in roads_by_direction(rules).into_iter().enumerate() {
            for colour in Colour::BOTH {
                let what = format!("{rules:?} direction {d} road {road:?} {colour:?}");
                build_line(rules, colour, &road, i % road.len(), &what);
            }
        }
    }
}

/// A straight run of `len` cells from (x, y) in direction (dx, dy), if it fits.
fn run(rules: Rules, x: i32, y: i32, (dx, dy): (i32, i32), len: i32) -> Option<Vec<Cell>> {
    let (w, h) = (rules.width as i32, rules.height as i32);
    (0..len)
        .map(|i| {
            let (cx, cy) = (x + dx * i, y + dy * i);
            ((0..w).contains(&cx) && (0..h).contains(&cy)).then_some((cx + cy * w) as Cell)
        })
        .collect()
}

const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

#[test]
fn overlines_win_when_the_middle_stone_joins_two_short_lines() {
    // (rules, run length): k+1 and 2k-1, the latter two runs of k-1 joined by one stone.
    for (rules, len) in [(C6, 7), (C6, 8), (C6, 11), (GOMOKU, 6), (GOMOKU, 9), (SMALL, 5), (SMALL, 6)] {
        let k = rules.k as i32;
        for (d, dir) in DIRS.into_iter().enumerate() {
            // Start at the border so that the anti-diagonal (going down) fits too.
            let (x, y) = if dir.1 < 0 { (0, len - 1) } else { (0, 0) };
            let line = run(rules, x, y, dir, len).expect("fits");
            // The joining stone leaves runs of at most k-1 on both sides before it lands.
            let last = (len / 2) as usize;
            assert!((last as i32) < k && len - 1 - (last as i32) < k);
            for colour in Colour::BOTH {
                build_line(rules, colour, &line, last, &format!("{rules:?} overline {len} dir {d} {colour:?}"));
            }
        }
    }
}

/// Positions with k stones of a colour in some shape but no k in a row: nobody has won.
#[test]
fn almost_lines_do_not_win() {
    let cases: &[(&str, Rules, &[&str])] = &[
        // k-1 in a row, open at both ends.
        ("five in a row", C6, &["j10", "a1c1", "k10l10", "e1g1", "m10n10"]),
        ("five on the a column at the corner", C6, &["a1", "c3e3", "a2a3", "g3i3", "a4a5"]),
        ("five on the anti-diagonal to s1", C6, &["o5", "a1c1", "p4q3", "e1g1", "r2s1"]),
        // Six stones with a gap: three, empty, three.
        ("three gap three", C6, &["j10", "a1c1", "k10l10", "e1g1", "n10o10", "i1k1", "p10s19"]),
        // Six black stones on a line with a white stone between them.
        ("broken by the other colour", C6, &["j10", "m10a1", "k10l10", "c1e1", "n10o10", "g1i1", "p10s19"]),
        ("gomoku four in a row", GOMOKU, &["h8", "a1", "i8", "c1", "j8", "e1", "k8"]),
        ("gomoku four and one with a gap", GOMOKU, &["h8", "a1", "i8", "c1", "j8", "e1", "k8", "g1", "m8"]),
    ];
    let oracle = Oracle::new(C6);
    for &(what, rules, moves) in cases {
        let b = board_from_record_moves(rules, moves).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(b.winner(), None, "{what}\n{}", b.diagram());
        assert!(!b.is_over(), "{what}");
        if rules == C6 {
            assert_eq!(oracle.winner(&b), None, "{what}");
        }
    }
}

/// Black has five on row 10 (j10..n10); White's stones are scattered.
const FIVE: [&str; 5] = ["j10", "a1c1", "k10l10", "e1g1", "m10n10"];

#[test]
fn the_game_ends_at_the_winning_stone() {
    let base = board_from_record_moves(C6, &FIVE[..4]).unwrap();
    let before = base.stone_count();
    let c = |t: &str| parse_record_move(C6, t).unwrap()[0];
    // The first stone wins: a second stone is refused, and the board is left unchanged.
    for (first, second) in [("i10", "s19"), ("o10", "s19"), ("o10", "p10")] {
        let mut b = base.clone();
        b.play(c("m10"));
        b.play(c("n10"));
        b.play(c("q1"));
        b.play(c("s1"));
        let (hash, count) = (b.hash(), b.stone_count());
        assert!(play_move(&mut b, &[c(first), c(second)]).is_err(), "{first}{second} after a winning {first}");
        assert_eq!((b.hash(), b.stone_count()), (hash, count), "a refused move leaves the board as it was");
        assert_eq!(play_move(&mut b, &[c(first)]), Ok(()), "the winning stone alone");
        assert_eq!(b.winner(), Some(Colour::Black));
        // The game is over for both sides.
        assert!(play_move(&mut b, &[c("r1"), c("r2")]).is_err());
        assert!(play_move(&mut b, &[c("r1")]).is_err());
        assert_eq!(b.try_play(c("r1")), Err(IllegalMove::GameOver));
    }
    // The second stone wins: the move is whole, and legal.
    let mut b = board_from_record_moves(C6, &FIVE).unwrap();
    b.play(c("q1"));
    b.play(c("s1"));
    assert_eq!(play_move(&mut b, &[c("s19"), c("o10")]), Ok(()));
    assert_eq!(b.winner(), Some(Colour::Black));
    assert_eq!(b.stone_count(), before + 6);
}

#[test]
fn records_stop_at_the_winning_stone() {
    let mut moves: Vec<&str> = FIVE.to_vec();
    moves.push("q1s1");
    // The last move has one stone and it wins: the record replays.
    let won = [moves.clone(), vec!["o10"]].concat();
    let b = board_from_record_moves(C6, &won).expect("a won game's record replays");
    assert_eq!(b.winner(), Some(Colour::Black));
    assert_eq!(record_moves(&b), won, "and is written back the same way");
    // One stone that does not win is not a whole move.
    assert!(board_from_record_moves(C6, &[moves.clone(), vec!["p10"]].concat()).is_err());
    // Two stones of which the first wins are not a legal move.
    assert!(board_from_record_moves(C6, &[moves.clone(), vec!["o10p10"]].concat()).is_err());
    // Nothing may follow a win.
    assert!(board_from_record_moves(C6, &[won.clone(), vec!["r1r2"]].concat()).is_err());
    // Gomoku: five wins, a move after it is refused.
    let g = ["h8", "a1", "i8", "c1", "j8", "e1", "k8", "g1", "l8"];
    assert_eq!(board_from_record_moves(GOMOKU, &g).unwrap().winner(), Some(Colour::Black));
    assert!(board_from_record_moves(GOMOKU, &[&g[..], &["i1"]].concat()).is_err());
}

/// The turn structure of Connect(m,n,k,p,q), from its definition: Black places q stones, then
/// White and Black alternate turns of p stones.
#[test]
fn turn_structure_of_the_family() {
    let families = [
        C6,
        GOMOKU,
        SMALL,
        Rules { width: 9, height: 9, k: 5, p: 2, q: 2 },
        Rules { width: 3, height: 3, k: 3, p: 1, q: 1 },
    ];
    for rules in families {
        let (p, q) = (rules.p as usize, rules.q as usize);
        let mut expect = Vec::new();
        for _ in 0..q {
            expect.push((Colour::Black, q));
        }
        let mut turn = 1;
        while expect.len() < rules.cells() {
            let colour = if turn % 2 == 1 { Colour::White } else { Colour::Black };
            for _ in 0..p {
                expect.push((colour, p));
            }
            turn += 1;
        }
        expect.truncate(rules.cells());
        // Stones spread over the board; the check stops at the first line.
        let mut b = Board::new(rules);
        let mut left = q;
        for (n, &(colour, size)) in expect.iter().enumerate() {
            if b.winner().is_some() {
                break;
            }
            assert_eq!(b.to_move(), colour, "{rules:?} stone {n}");
            assert_eq!(Board::colour_of_stone(rules, n), colour, "{rules:?} stone {n}");
            assert_eq!(b.stones_left_in_turn(), left, "{rules:?} stone {n}");
            assert_eq!(b.turn_size(), size, "{rules:?} stone {n}");
            b.play(spread_cell(rules, n));
            left -= 1;
            if left == 0 {
                left = p;
            }
        }
    }
}

/// A cell order that spreads stones over the board (a stride coprime with the cell count).
fn spread_cell(rules: Rules, n: usize) -> Cell {
    let cells = rules.cells();
    let stride = (2..cells).find(|s| gcd(*s, cells) == 1 && *s * *s > cells).unwrap_or(1);
    ((n * stride) % cells) as Cell
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[test]
fn moves_of_the_wrong_size_are_refused() {
    let c = |t: &str| parse_record_move(C6, t).unwrap();
    let mut b = Board::new(C6);
    assert!(play_move(&mut b, &[c("j10")[0], c("k10")[0]]).is_err(), "Black's first move has one stone");
    assert!(b.is_empty());
    play_move(&mut b, &c("j10")).unwrap();
    assert!(play_move(&mut b, &c("k10")).is_err(), "White's turn has two stones");
    assert_eq!(b.stone_count(), 1);
    assert!(play_move(&mut b, &c("k10k10")).is_err(), "the same cell twice");
    assert!(play_move(&mut b, &c("j10k10")).is_err(), "an occupied cell");
    assert_eq!(b.stone_count(), 1, "refused moves place nothing");
    play_move(&mut b, &c("k10k11")).unwrap();
    // Half a turn played on the board: a move must start at a turn's start.
    assert!(play_move(&mut b, &[]).is_err(), "an empty move");
    b.play(c("a1")[0]);
    assert!(play_move(&mut b, &c("b1")).is_err());
    assert!(play_move(&mut b, &c("b1b2")).is_err());
    assert_eq!(b.stone_count(), 4);
    let mut g = Board::new(GOMOKU);
    play_move(&mut g, &parse_record_move(GOMOKU, "h8").unwrap()).unwrap();
    assert!(play_move(&mut g, &[1, 2]).is_err(), "Gomoku turns have one stone");
}

/// Plays a full board given as rows, top row first (`X` Black, `O` White), the stones of each
/// colour in reading order, as the turn structure asks. Checks nobody ever wins.
fn fill(rules: Rules, rows: &[&str]) -> Board {
    let w = rules.width as usize;
    let h = rules.height as usize;
    let mut of = [Vec::new(), Vec::new()];
    for (i, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            let c = (x + (h - 1 - i) * w) as Cell;
            match ch {
                'X' => of[0].push(c),
                'O' => of[1].push(c),
                _ => panic!("rows are full"),
            }
        }
    }
    let mut next = [0, 0];
    let mut b = Board::new(rules);
    while !b.is_full() {
        assert_eq!(b.winner(), None);
        let me = b.to_move().index();
        let c = *of[me].get(next[me]).unwrap_or_else(|| panic!("colour {me} has too few stones for the turns"));
        next[me] += 1;
        b.try_play(c).unwrap();
    }
    assert_eq!(next, [of[0].len(), of[1].len()], "every stone placed");
    b
}

#[test]
fn full_board_without_a_line_is_a_draw() {
    // Tic-tac-toe, Connect(3,3,3,1,1).
    let ttt = Rules { width: 3, height: 3, k: 3, p: 1, q: 1 };
    let b = fill(ttt, &["XOX", "XOO", "OXX"]);
    // Connect(4,4,4,2,1): 16 cells, the last turn (Black's) ends after one stone.
    let small = Rules { width: 4, height: 4, k: 4, p: 2, q: 1 };
    let s = fill(small, &["XXOO", "OOXX", "XXOO", "OOXX"]);
    for (b, rules) in [(b, ttt), (s, small)] {
        assert!(b.is_full() && b.is_over(), "{rules:?}");
        assert_eq!(b.winner(), None);
        assert_eq!(Oracle::new(rules).winner(&b), None);
        for c in 0..rules.cells() as Cell {
            assert_eq!(b.clone().try_play(c), Err(IllegalMove::Occupied));
        }
        let mut b2 = b.clone();
        assert!(play_move(&mut b2, &[0]).is_err(), "no move on a full board");
        // The record of the drawn game replays, the cut-short last turn included.
        let text = record_moves(&b);
        let again = board_from_record_moves(rules, &text).expect("a full-board record replays");
        assert!(again.is_full() && again.winner().is_none());
        assert_eq!(again.hash(), b.hash());
    }
}

/// Connect6 random games, seeded: crowded (small region, stones near stones) to sparse.
fn styles() -> [RandomStyle; 4] {
    [
        RandomStyle { region: 7, near: 1.0 },
        RandomStyle { region: 9, near: 0.9 },
        RandomStyle { region: 13, near: 0.7 },
        RandomStyle { region: 19, near: 0.3 },
    ]
}

#[test]
fn hash_depends_on_the_position_not_the_move_order() {
    for seed in 0..40u64 {
        let rules = if seed % 4 == 3 { GOMOKU } else { C6 };
        let stones = random_game(rules, seed, styles()[seed as usize % 4], 80);
        // Stop before the winning stone: then no order of the same stones makes a line early.
        let n = stones.len() - 1;
        let board = board_of(rules, &stones[..n]);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..5 {
            // Shuffle each colour's stones among that colour's places in the order.
            let mut by_colour = [Vec::new(), Vec::new()];
            for (i, &c) in stones[..n].iter().enumerate() {
                by_colour[Board::colour_of_stone(rules, i).index()].push(c);
            }
            by_colour[0].shuffle(&mut rng);
            by_colour[1].shuffle(&mut rng);
            let mut next = [0, 0];
            let mut b = Board::new(rules);
            for i in 0..n {
                let me = Board::colour_of_stone(rules, i).index();
                b.play(by_colour[me][next[me]]);
                next[me] += 1;
            }
            assert_eq!(b.hash(), board.hash(), "seed {seed}: another order, another hash");
            assert_eq!(b.live_roads(Colour::Black), board.live_roads(Colour::Black));
        }
        // Different positions of one game have different hashes.
        let mut b = Board::new(rules);
        let mut seen = HashSet::from([b.hash()]);
        for &c in &stones[..n] {
            b.play(c);
            assert!(seen.insert(b.hash()), "seed {seed}: a hash repeats within a game");
        }
        assert_ne!(board.hash(), 0);
    }
}

#[test]
fn undo_restores_hash_and_counts() {
    for seed in 0..20u64 {
        let rules = if seed.is_multiple_of(2) { C6 } else { GOMOKU };
        let stones = random_game(rules, 100 + seed, styles()[seed as usize % 4], 400);
        let mut b = Board::new(rules);
        let mut snapshots = vec![snapshot(&b)];
        for &c in &stones {
            b.play(c);
            snapshots.push(snapshot(&b));
        }
        while !b.is_empty() {
            b.undo();
            snapshots.pop();
            assert_eq!(snapshot(&b), *snapshots.last().unwrap(), "seed {seed} after undo to {}", b.stone_count());
        }
        assert_eq!(b.hash(), 0);
    }
}

type Snapshot = (u64, usize, Option<Colour>, [u32; 2], Vec<i32>, Vec<i32>);

fn snapshot(b: &Board) -> Snapshot {
    (
        b.hash(),
        b.stone_count(),
        b.winner(),
        [b.threat_count(Colour::Black), b.threat_count(Colour::White)],
        b.live_roads(Colour::Black).to_vec(),
        b.live_roads(Colour::White).to_vec(),
    )
}

/// Checks every incremental count against the engine's global recount and the oracle's.
fn check_counts(b: &Board, oracle: &Oracle, what: &str) {
    let global = b.live_roads_global();
    let brute = oracle.live(b);
    for c in Colour::BOTH {
        assert_eq!(*b.live_roads(c), global[c.index()], "{what}: live roads of {c:?} vs global scan");
        assert_eq!(*b.live_roads(c), brute[c.index()], "{what}: live roads of {c:?} vs oracle");
        // Threat roads: the same roads, as cell lists.
        let geo = b.geometry();
        let mut mine: Vec<Vec<Cell>> = b.threat_roads(c).map(|r| sorted(geo.road(r))).collect();
        let level = b.rules().threat_level();
        let mut theirs: Vec<Vec<Cell>> = oracle
            .roads
            .iter()
            .filter(|r| {
                let n = r.iter().filter(|&&x| b.stone(x) == Some(c)).count();
                n >= level && r.iter().all(|&x| b.stone(x) != Some(c.other()))
            })
            .map(|r| sorted(r))
            .collect();
        mine.sort();
        theirs.sort();
        assert_eq!(mine, theirs, "{what}: threat roads of {c:?}");
        assert_eq!(b.threat_count(c) as usize, theirs.len(), "{what}: threat count of {c:?}");
    }
    assert_eq!(b.winner(), oracle.winner(b), "{what}: winner");
}

fn sorted(cells: &[Cell]) -> Vec<Cell> {
    let mut v = cells.to_vec();
    v.sort_unstable();
    v
}

#[test]
fn incremental_road_counts_equal_the_global_recount() {
    for rules in [C6, GOMOKU] {
        let oracle = Oracle::new(rules);
        for seed in 0..24u64 {
            let stones = random_game(rules, 200 + seed, styles()[seed as usize % 4], rules.cells());
            let mut b = Board::new(rules);
            for &c in &stones {
                b.play(c);
                check_counts(&b, &oracle, &format!("{rules:?} seed {seed} stone {}", b.stone_count()));
                // Per road, the stone counts themselves.
                for r in 0..b.geometry().road_count() {
                    let mut n = [0u8; 2];
                    for &x in b.geometry().road(r) {
                        if let Some(s) = b.stone(x) {
                            n[s.index()] += 1;
                        }
                    }
                    assert_eq!(b.road_counts(r), n);
                }
            }
            // Undo half the game, checking again, then play a different continuation.
            for _ in 0..stones.len() / 2 {
                b.undo();
                check_counts(&b, &oracle, &format!("{rules:?} seed {seed} undo to {}", b.stone_count()));
            }
            let rest = random_game(rules, 900 + seed, RandomStyle { region: 19, near: 0.5 }, 40);
            for c in rest {
                if b.winner().is_some() {
                    break;
                }
                if b.is_empty_cell(c) {
                    b.play(c);
                    check_counts(&b, &oracle, &format!("{rules:?} seed {seed} replay {}", b.stone_count()));
                }
            }
        }
    }
}

#[test]
fn connect6_has_924_roads() {
    let by_dir = roads_by_direction(C6);
    let mut per_dir = [0; 4];
    for (d, _) in &by_dir {
        per_dir[*d] += 1;
    }
    assert_eq!(per_dir, [266, 266, 196, 196]);
    assert_eq!(by_dir.len(), 924);
    for (rules, n) in [(C6, 924), (GOMOKU, 2 * 15 * 11 + 2 * 11 * 11), (SMALL, 2 * 7 * 4 + 2 * 4 * 4)] {
        let geo = Geometry::of(rules);
        assert_eq!(geo.road_count(), n, "{rules:?}");
        // The engine's roads are exactly the oracle's, and each cell lies on the roads that
        // hold it.
        let mine: HashSet<Vec<Cell>> = (0..geo.road_count()).map(|r| sorted(geo.road(r))).collect();
        let oracle: HashSet<Vec<Cell>> = roads_by_direction(rules).iter().map(|(_, r)| sorted(r)).collect();
        assert_eq!(mine.len(), n, "{rules:?}: no road twice");
        assert_eq!(mine, oracle, "{rules:?}");
        let mut through: HashMap<Cell, usize> = HashMap::new();
        for r in 0..geo.road_count() {
            for &c in geo.road(r) {
                *through.entry(c).or_default() += 1;
                assert!(geo.roads_through(c).contains(&(r as u16)));
            }
        }
        for c in 0..rules.cells() as Cell {
            assert_eq!(geo.roads_through(c).len(), through.get(&c).copied().unwrap_or(0), "{rules:?} cell {c}");
        }
    }
}

/// Positions at the start of turns of random games are always what the rules say: the mover
/// is the colour of the next stone, and nobody has won.
#[test]
fn turn_starts_of_random_games_replay_from_their_records() {
    for seed in 0..10u64 {
        let stones = random_game(C6, 300 + seed, styles()[seed as usize % 4], 361);
        for_each_turn_start(C6, &stones, |b| {
            let text = record_moves(b);
            let again = board_from_record_moves(C6, &text).expect("a turn start replays");
            assert_eq!((again.hash(), again.to_move()), (b.hash(), b.to_move()));
            assert_eq!(again.stones_left_in_turn(), again.turn_size());
        });
        // The whole game replays, its last move cut short if its first stone won.
        let b = board_of(C6, &stones);
        let again = board_from_record_moves(C6, &record_moves(&b)).expect("the game replays");
        assert_eq!(again.winner(), b.winner());
    }
}
