use super::*;
use crate::core::game::{split_moves, Game};
use crate::games::connect::game::ConnectPosition;
use crate::games::gomoku::{Gomoku, GomokuBoard};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[test]
fn hand_made_lines_have_their_levels() {
    for (line, level) in [
        ("xxxx.....", F5),
        ("..xx.xx..", F5),
        ("...x.xxo.", B4),
        ("..xx.x...", F4),
        ("o.xx.x...", F4),
        ("oxxx.....", B4),
        ("|oxx.x.o.", B4),
        ("...x.x...", F3),
        (".....xx..", F3),
        ("..ox.x...", B3),
        ("|..x.x...", F3),
        ("|x...x...", B3),
        ("...x.....", F2),
        (".....x...", F2),
        ("...o.x...", B2),
        (".........", F1),
        ("..o...o..", DEAD),
        ("...o.....", B1),
        ("...o..o..", DEAD),
        ("|..o.o...", DEAD),
        ("xxx...xxx", F4),
        ("o..x.x..o", F3),
        ("ox...x..o", B3),
    ] {
        assert_eq!(level_of_text(line), level, "{line}");
    }
}

#[test]
fn classes_combine_lines() {
    assert_eq!(class_of([F5, DEAD, DEAD, DEAD]), FIVE);
    assert_eq!(class_of([B4, B4, DEAD, DEAD]), FLEX4);
    assert_eq!(class_of([B4, F3, B1, DEAD]), FOUR_THREE);
    assert_eq!(class_of([F3, F3, F2, DEAD]), DOUBLE_THREE);
    assert_eq!(class_of([B4, B3, F2, F1]), FOUR);
    assert_eq!(class_of([F3, F2, F2, F1]), THREE);
    assert_eq!(class_of([B3, F2, F1, F1]), TWO_TWO);
    assert_eq!(class_of([DEAD; 4]), NONE);
}

/// After random stones put on and taken off, the incremental state equals a recount: with the
/// level pairs (`cell-pairs`) and without them (`cells`, `tuple6-cells`).
#[test]
fn incremental_patterns_match_a_recount() {
    for pairs in [true, false] {
        let mut rng = ChaCha8Rng::seed_from_u64(33);
        for _ in 0..20 {
            let mut pos = Gomoku.start();
            pos.keep_cells(pairs);
            assert_eq!(pos.kept_cells().unwrap().keeps_pairs(), pairs);
            for step in 0..80 {
                let take = pos.board().stone_count() > 0 && rng.random_range(0..4) == 0;
                if take {
                    pos.unplace();
                } else {
                    let empty: Vec<Cell> =
                        (0..225).filter(|&c| pos.board().is_empty_cell(c as Cell)).map(|c| c as Cell).collect();
                    let c = empty[rng.random_range(0..empty.len())];
                    pos.place(c);
                    if pos.board().winner().is_some() {
                        pos.unplace();
                    }
                }
                if step == 40 {
                    // Kept from here on, counted from the board first.
                    let mut fresh = GomokuBoard::from_board(pos.board().clone());
                    assert!(fresh.kept_cells().is_none());
                    fresh.keep_cells(pairs);
                    assert_eq!(fresh.kept_cells().unwrap().snapshot(), CellPatterns::recount(pos.board(), pairs));
                }
                if step % 7 == 0 {
                    let kept = pos.kept_cells().unwrap().snapshot();
                    assert_eq!(kept, CellPatterns::recount(pos.board(), pairs), "step {step}");
                }
            }
            assert_eq!(pos.kept_cells().unwrap().snapshot(), CellPatterns::recount(pos.board(), pairs));
            while pos.board().stone_count() > 0 {
                pos.unplace();
            }
            assert_eq!(pos.kept_cells().unwrap().snapshot(), CellPatterns::new(Rules::GOMOKU, pairs).snapshot());
        }
    }
}

/// Patterns kept without the level pairs are counted again with them when a `cell-pairs`
/// search asks, and patterns kept with them stay so when a `cells` search asks.
#[test]
fn asking_for_the_pairs_adds_them() {
    let mut pos = Gomoku.replay(&split_moves("h8 i9 i8 j8 g7 h9")).unwrap();
    pos.keep_cells(false);
    assert!(!pos.kept_cells().unwrap().keeps_pairs());
    pos.keep_cells(true);
    assert!(pos.kept_cells().unwrap().keeps_pairs());
    assert_eq!(pos.kept_cells().unwrap().snapshot(), CellPatterns::recount(pos.board(), true));
    pos.keep_cells(false);
    assert!(pos.kept_cells().unwrap().keeps_pairs());
    assert_ne!(CellPatterns::recount(pos.board(), true), CellPatterns::recount(pos.board(), false));
}

/// On a real position: Black's open three h8 i8 j8 makes g8 and k8 open-four cells.
#[test]
fn an_open_three_gives_two_open_four_cells() {
    let pos = Gomoku.replay(&split_moves("h8 a1 i8 a15 j8 o1")).unwrap();
    let b = pos.board();
    let (g8, k8, f8) = (b.cell(6, 7), b.cell(10, 7), b.cell(5, 7));
    for c in [g8, k8] {
        assert_eq!(pos.cells().levels(Colour::Black, c)[0], F4);
        assert_eq!(pos.cells().class(Colour::Black, c), FLEX4);
    }
    assert_eq!(pos.cells().levels(Colour::Black, f8)[0], B4);
    assert_eq!(pos.cells().class_count(Colour::Black, FLEX4), 2);
}
