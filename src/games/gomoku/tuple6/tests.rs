//! The 6-tuple table against the Gomoku blog's table (its 4096 types written down as data in
//! blog_table.txt), and the incremental evaluation against a from-scratch scan of the framed
//! board, the blog's evaluation as it describes it.

use rand::{Rng, SeedableRng};

use super::*;
use crate::games::connect::notation::board_from_record_moves;

/// The blog's table as its program builds it (blog_table.txt: the type of each of the 4096
/// windows, written down as data; see the file's header).
fn printed_blog_table() -> [u8; CODES] {
    let mut t = [OTHER; CODES];
    let letters: Vec<u8> =
        include_str!("blog_table.txt").lines().filter(|l| !l.starts_with('#')).flat_map(|l| l.bytes()).collect();
    assert_eq!(letters.len(), CODES, "blog_table.txt holds one letter a window");
    for (ty, letter) in t.iter_mut().zip(letters) {
        assert!((b'a'..=b'q').contains(&letter), "blog_table.txt: type letter {letter}");
        *ty = letter - b'a';
    }
    t
}

#[test]
fn the_table_as_printed_is_the_blogs() {
    assert_eq!(blog_table(true).to_vec(), printed_blog_table().to_vec());
}

#[test]
fn only_the_right_border_slip_differs_from_the_blog() {
    let (fixed, printed) = (blog_table(false), blog_table(true));
    let mut differ = 0;
    for code in 0..CODES {
        if fixed[code] == printed[code] {
            continue;
        }
        differ += 1;
        let c = cells(code);
        assert!(c[5] == BORDER && c[0] != BORDER, "{c:?}");
        let swapped = |t: u8| match t {
            BLOCK3 => BLOCK3_OPP,
            BLOCK3_OPP => BLOCK3,
            BLOCK2 => BLOCK2_OPP,
            BLOCK2_OPP => BLOCK2,
            other => panic!("{c:?}: type {other} differs"),
        };
        assert_eq!(fixed[code], swapped(printed[code]), "{c:?}");
    }
    assert!(differ > 0, "the printed table has the slip");
}

/// With the slip corrected the table treats both sides and both directions alike.
#[test]
fn the_corrected_table_is_symmetric() {
    let t = blog_table(false);
    let swap = |ty: u8| {
        if ty == OTHER {
            OTHER
        } else if ty % 2 == 1 {
            ty + 1
        } else {
            ty - 1
        }
    };
    for code in 0..CODES {
        let c = cells(code);
        let colours = c.map(|v| match v {
            BLACK => WHITE,
            WHITE => BLACK,
            v => v,
        });
        let mut reversed = c;
        reversed.reverse();
        assert_eq!(t[self::code(colours)], swap(t[code]), "{c:?} with the colours swapped");
        assert_eq!(t[self::code(reversed)], t[code], "{c:?} reversed");
    }
}

#[test]
fn hand_checked_windows() {
    let t = blog_table(false);
    let ty = |c: [u8; 6]| t[code(c)];
    assert_eq!(ty([0, 2, 2, 2, 2, 0]), FLEX4);
    assert_eq!(ty([1, 2, 2, 2, 2, 0]), BLOCK4);
    assert_eq!(ty([0, 2, 2, 0, 2, 2]), BLOCK4);
    assert_eq!(ty([3, 1, 1, 1, 0, 0]), BLOCK3_OPP);
    assert_eq!(ty([0, 0, 1, 1, 1, 3]), BLOCK3_OPP, "the right border like the left");
    assert_eq!(ty([0, 1, 0, 1, 1, 0]), FLEX3_OPP);
    assert_eq!(ty([0, 0, 0, 0, 0, 0]), OTHER);
    assert_eq!(ty([3, 0, 0, 0, 0, 3]), OTHER);
    assert_eq!(ty([2, 1, 1, 1, 1, 1]), LOSE);
    assert_eq!(ty([0, 2, 0, 0, 0, 0]), FLEX1);
    assert_eq!(ty([2, 0, 0, 0, 0, 0]), OTHER, "one stone at the edge of a window is not live");
}

#[test]
fn defaults_are_the_blogs_final_table() {
    let w = GOMOKU_TUPLE6.defaults();
    let blog = [1_000_000, -10_000_000, 50_000, -100_000, 400, -100_000, 400, -8_000, 20, -50, 20, -50, 1, -3, 1, -3];
    assert_eq!(&w.values()[..16], &blog[..]);
    assert_eq!(GOMOKU_TUPLE6.len(), 16 + GOMOKU_MOVE_ORDER.len());
}

/// The blog's evaluation, written from its description rather than from our incremental
/// counts: the 15x15 board framed by a row of border cells on every side, and every window of
/// six consecutive cells of that frame in the four directions scored by its type's weight
/// (windows of border alone are OTHER and weigh nothing), for `mover` (white in the table).
fn blog_f(board: &Board, mover: Colour, weights: &[i64; 17]) -> i64 {
    let t = blog_table(false);
    let n = 15i32;
    let value = |x: i32, y: i32| -> u8 {
        if !(0..n).contains(&x) || !(0..n).contains(&y) {
            return BORDER;
        }
        match board.stone(board.cell(x as usize, y as usize)) {
            None => EMPTY,
            Some(s) if s == mover => WHITE,
            Some(_) => BLACK,
        }
    };
    let framed = -1..=n;
    let mut f = 0;
    for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        for x in framed.clone() {
            for y in framed.clone() {
                let (ex, ey) = (x + 5 * dx, y + 5 * dy);
                if !framed.contains(&ex) || !framed.contains(&ey) {
                    continue;
                }
                let window: [u8; 6] = std::array::from_fn(|k| value(x + k as i32 * dx, y + k as i32 * dy));
                f += weights[t[code(window)] as usize];
            }
        }
    }
    f
}

/// Random single-stone games near the centre, every position of each.
fn random_positions(seed: u64, games: usize) -> Vec<Board> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut b = Board::new(Rules::GOMOKU);
        for _ in 0..rng.random_range(1..80) {
            let c = loop {
                let (x, y) = (rng.random_range(0..15), rng.random_range(0..15));
                let c = b.cell(x, y);
                if b.is_empty_cell(c) {
                    break c;
                }
            };
            b.play(c);
            if b.winner().is_some() {
                break;
            }
            out.push(b.clone());
        }
    }
    out
}

#[test]
fn the_score_is_minus_the_blogs_f_for_the_mover() {
    let mut weights = GOMOKU_TUPLE6.defaults().values().to_vec();
    // Distinct weights, so that a class counted under another's name shows.
    for (i, w) in weights.iter_mut().take(16).enumerate() {
        *w += 7 * i as i32 + 1;
    }
    let table = Weights::clamped(&GOMOKU_TUPLE6, weights.clone());
    let eval = Tuple6Eval::new(&table);
    let mut blog_weights = [0i64; 17];
    for i in 0..16 {
        blog_weights[i + 1] = i64::from(table.values()[i]);
    }
    for b in random_positions(11, 30) {
        let mover = b.to_move().other();
        let want = (-blog_f(&b, mover, &blog_weights)).clamp(-100_000_000, 100_000_000) as i32;
        assert_eq!(eval.evaluate_global(&b), want, "{}", b.diagram());
    }
}

#[test]
fn incremental_counts_equal_a_recount_through_play_and_undo() {
    use crate::core::game::Position;
    for b in random_positions(5, 6) {
        let mut pos = GomokuBoard::new();
        let stones = b.history().to_vec();
        for (i, &c) in stones.iter().enumerate() {
            pos.play(Move::single(c));
            if i % 7 == 0 {
                assert_eq!(pos.windows().counts(), &WindowCounts::recount(pos.board()));
            }
        }
        assert_eq!(pos.windows().counts(), &WindowCounts::recount(pos.board()));
        for _ in 0..stones.len() / 2 {
            pos.undo(1);
        }
        assert_eq!(pos.windows().counts(), &WindowCounts::recount(pos.board()));
    }
    // The empty board: border windows only, all OTHER.
    assert_eq!(WindowCounts::new(Rules::GOMOKU).counts(), &[0; 16]);
    let b = board_from_record_moves(Rules::GOMOKU, &["h8"]).unwrap();
    // A lone stone in the centre is FLEX1 of Black in the 4 windows of each direction that
    // hold it inside positions 2-5.
    assert_eq!(WindowCounts::of_board(&b).count(Colour::Black, 7), 16);
}

use crate::games::connect::movegen::Move;
