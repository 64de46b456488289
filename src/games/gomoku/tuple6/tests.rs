//! The 6-tuple table and evaluation against the Gomoku blog's code, transcribed as printed, and
//! against a from-scratch scan of the padded board as the blog's `evaluate()` does it.

use rand::{Rng, SeedableRng};

use super::*;
use crate::games::connect::notation::board_from_record_moves;

/// The blog's `init_tuple6type()`, transcribed line by line (mover = white = 2), its
/// right-border branch included as printed.
fn printed_blog_table() -> [u8; CODES] {
    let mut t = [0u8; CODES];
    let at = |p: [usize; 6]| p.iter().fold(0, |a, &v| a * 4 + v);
    let hand: [([usize; 6], u8); 31] = [
        ([2, 2, 2, 2, 2, 2], WIN),
        ([2, 2, 2, 2, 2, 0], WIN),
        ([0, 2, 2, 2, 2, 2], WIN),
        ([2, 2, 2, 2, 2, 1], WIN),
        ([1, 2, 2, 2, 2, 2], WIN),
        ([3, 2, 2, 2, 2, 2], WIN),
        ([2, 2, 2, 2, 2, 3], WIN),
        ([1, 1, 1, 1, 1, 1], LOSE),
        ([1, 1, 1, 1, 1, 0], LOSE),
        ([0, 1, 1, 1, 1, 1], LOSE),
        ([1, 1, 1, 1, 1, 2], LOSE),
        ([2, 1, 1, 1, 1, 1], LOSE),
        ([3, 1, 1, 1, 1, 1], LOSE),
        ([1, 1, 1, 1, 1, 3], LOSE),
        ([0, 2, 2, 2, 2, 0], FLEX4),
        ([0, 1, 1, 1, 1, 0], FLEX4_OPP),
        ([0, 2, 2, 2, 0, 0], FLEX3),
        ([0, 0, 2, 2, 2, 0], FLEX3),
        ([0, 2, 0, 2, 2, 0], FLEX3),
        ([0, 2, 2, 0, 2, 0], FLEX3),
        ([0, 1, 1, 1, 0, 0], FLEX3_OPP),
        ([0, 0, 1, 1, 1, 0], FLEX3_OPP),
        ([0, 1, 0, 1, 1, 0], FLEX3_OPP),
        ([0, 1, 1, 0, 1, 0], FLEX3_OPP),
        ([0, 2, 2, 0, 0, 0], FLEX2),
        ([0, 2, 0, 2, 0, 0], FLEX2),
        ([0, 2, 0, 0, 2, 0], FLEX2),
        ([0, 0, 2, 2, 0, 0], FLEX2),
        ([0, 0, 2, 0, 2, 0], FLEX2),
        ([0, 0, 0, 2, 2, 0], FLEX2),
        ([0, 1, 1, 0, 0, 0], FLEX2_OPP),
    ];
    for (p, ty) in hand {
        t[at(p)] = ty;
    }
    for (p, ty) in [
        ([0, 1, 0, 1, 0, 0], FLEX2_OPP),
        ([0, 1, 0, 0, 1, 0], FLEX2_OPP),
        ([0, 0, 1, 1, 0, 0], FLEX2_OPP),
        ([0, 0, 1, 0, 1, 0], FLEX2_OPP),
        ([0, 0, 0, 1, 1, 0], FLEX2_OPP),
        ([0, 2, 0, 0, 0, 0], FLEX1),
        ([0, 0, 2, 0, 0, 0], FLEX1),
        ([0, 0, 0, 2, 0, 0], FLEX1),
        ([0, 0, 0, 0, 2, 0], FLEX1),
        ([0, 1, 0, 0, 0, 0], FLEX1_OPP),
        ([0, 0, 1, 0, 0, 0], FLEX1_OPP),
        ([0, 0, 0, 1, 0, 0], FLEX1_OPP),
        ([0, 0, 0, 0, 1, 0], FLEX1_OPP),
    ] {
        t[at(p)] = ty;
    }
    for p1 in 0..4 {
        for p2 in 0..3 {
            for p3 in 0..3 {
                for p4 in 0..3 {
                    for p5 in 0..3 {
                        for p6 in 0..4 {
                            let (mut x, mut y, mut ix, mut iy) = (0, 0, 0, 0);
                            if p1 == 1 {
                                x += 1;
                            } else if p1 == 2 {
                                y += 1;
                            }
                            for p in [p2, p3, p4, p5] {
                                if p == 1 {
                                    x += 1;
                                    ix += 1;
                                } else if p == 2 {
                                    y += 1;
                                    iy += 1;
                                }
                            }
                            if p6 == 1 {
                                ix += 1;
                            } else if p6 == 2 {
                                iy += 1;
                            }
                            let i = at([p1, p2, p3, p4, p5, p6]);
                            let mut set = |cond: bool, ty: u8| {
                                if cond && t[i] == 0 {
                                    t[i] = ty;
                                }
                            };
                            if p1 == 3 || p6 == 3 {
                                if p1 == 3 && p6 != 3 {
                                    set(ix == 0 && iy == 4, BLOCK4);
                                    set(ix == 4 && iy == 0, BLOCK4_OPP);
                                    set(ix == 0 && iy == 3, BLOCK3);
                                    set(ix == 3 && iy == 0, BLOCK3_OPP);
                                    set(ix == 0 && iy == 2, BLOCK2);
                                    set(ix == 2 && iy == 0, BLOCK2_OPP);
                                } else if p6 == 3 && p1 != 3 {
                                    set(x == 0 && y == 4, BLOCK4);
                                    set(x == 4 && y == 0, BLOCK4_OPP);
                                    // As printed: black's three and two under white's names.
                                    set(x == 3 && y == 0, BLOCK3);
                                    set(x == 0 && y == 3, BLOCK3_OPP);
                                    set(x == 2 && y == 0, BLOCK2);
                                    set(x == 0 && y == 2, BLOCK2_OPP);
                                }
                            } else {
                                set((x == 0 && y == 4) || (ix == 0 && iy == 4), BLOCK4);
                                set((x == 4 && y == 0) || (ix == 4 && iy == 0), BLOCK4_OPP);
                                set((x == 0 && y == 3) || (ix == 0 && iy == 3), BLOCK3);
                                set((x == 3 && y == 0) || (ix == 3 && iy == 0), BLOCK3_OPP);
                                set((x == 0 && y == 2) || (ix == 0 && iy == 2), BLOCK2);
                                set((x == 2 && y == 0) || (ix == 2 && iy == 0), BLOCK2_OPP);
                            }
                        }
                    }
                }
            }
        }
    }
    t
}

#[test]
fn the_table_as_printed_is_the_seeds() {
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
fn defaults_are_the_seeds_final_table() {
    let w = GOMOKU_TUPLE6.defaults();
    let seed = [1_000_000, -10_000_000, 50_000, -100_000, 400, -100_000, 400, -8_000, 20, -50, 20, -50, 1, -3, 1, -3];
    assert_eq!(&w.values()[..16], &seed[..]);
    assert_eq!(GOMOKU_TUPLE6.len(), 16 + GOMOKU_MOVE_ORDER.len());
}

/// The blog's `evaluate()`: the board in a 17x17 array with a border of 3, the four scans
/// of its loops, the table's types weighted and summed, for `mover` (the blog's white).
#[allow(clippy::needless_range_loop)] // the blog's loops, as printed
fn seed_f(board: &Board, mover: Colour, weights: &[i64; 17]) -> i64 {
    let t = blog_table(false);
    let n = 15;
    let mut a = [[3u8; 17]; 17];
    for (i, row) in a.iter_mut().enumerate().skip(1).take(n) {
        for (j, v) in row.iter_mut().enumerate().skip(1).take(n) {
            // Row i from the top, column j from the left; the mover is 2.
            let c = board.cell(j - 1, n - i);
            *v = match board.stone(c) {
                None => 0,
                Some(s) if s == mover => 2,
                Some(_) => 1,
            };
        }
    }
    let ty = |cells: [u8; 6]| weights[t[code(cells)] as usize];
    let mut f = 0;
    for i in 1..=15 {
        for j in 0..12 {
            f += ty([a[i][j], a[i][j + 1], a[i][j + 2], a[i][j + 3], a[i][j + 4], a[i][j + 5]]);
        }
    }
    for j in 1..=15 {
        for i in 0..12 {
            f += ty([a[i][j], a[i + 1][j], a[i + 2][j], a[i + 3][j], a[i + 4][j], a[i + 5][j]]);
        }
    }
    for i in 0..12 {
        for j in 0..12 {
            f += ty([a[i][j], a[i + 1][j + 1], a[i + 2][j + 2], a[i + 3][j + 3], a[i + 4][j + 4], a[i + 5][j + 5]]);
        }
    }
    for i in 0..12 {
        for j in 5..17 {
            f += ty([a[i][j], a[i + 1][j - 1], a[i + 2][j - 2], a[i + 3][j - 3], a[i + 4][j - 4], a[i + 5][j - 5]]);
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
fn the_score_is_minus_the_seeds_f_for_the_mover() {
    let mut weights = GOMOKU_TUPLE6.defaults().values().to_vec();
    // Distinct weights, so that a class counted under another's name shows.
    for (i, w) in weights.iter_mut().take(16).enumerate() {
        *w += 7 * i as i32 + 1;
    }
    let table = Weights::clamped(&GOMOKU_TUPLE6, weights.clone());
    let eval = Tuple6Eval::new(&table);
    let mut seed_weights = [0i64; 17];
    for i in 0..16 {
        seed_weights[i + 1] = i64::from(table.values()[i]);
    }
    for b in random_positions(11, 30) {
        let mover = b.to_move().other();
        let want = (-seed_f(&b, mover, &seed_weights)).clamp(-100_000_000, 100_000_000) as i32;
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
