use super::*;
use crate::core::game::{split_moves, Game, Position};
use crate::core::limits::Limits;
use crate::core::settings::EngineSettings;
use crate::games::connect::board::Rules;
use crate::games::gomoku::tuple6::GOMOKU_TUPLE6;
use crate::games::gomoku::{Gomoku, GomokuBoard};
use crate::search::{Engine, MATE_BOUND};

fn gen() -> ConnectGen {
    ConnectGen::new(Rules::GOMOKU, &EngineSettings::default(), &GOMOKU_TUPLE6.defaults())
}

fn position(moves: &str) -> GomokuBoard {
    Gomoku.replay(&split_moves(moves)).unwrap()
}

/// Black's twos g8 h8 (row 8) and i9 i10 (column i) meet at i8: a stone there makes two open
/// threes, one stone stops only one, and the other becomes a live four. No four is possible
/// before it (Black has no three), so continuous fours find nothing. White's stones are in
/// the corners.
const DOUBLE_THREE: &str = "g8 a1 h8 a15 i9 o1 i10 o15 j12 o8";

/// The same, with White's j9 j10 j11 (and Black's j12 closing them at one end): White answers
/// i8 with the four j8, which also stops the row's three; Black must block at j7, and White
/// then stops the column's three.
const DEFENDER_FOUR: &str = "g8 j9 h8 j10 i9 j11 i10 a1 j12 a15";

#[test]
fn a_double_three_wins_by_threes_and_not_by_fours() {
    let mut pos = position(DOUBLE_THREE);
    let mut clock = Clock::unlimited();
    assert_eq!(gen().vcdt(&mut clock, &mut pos, 10, 100_000), None, "no win by fours");
    let (m, attacks) = vct(&mut gen(), &mut clock, &mut pos, 2, 100_000).expect("a win by threes");
    assert_eq!((Gomoku.format_move(&pos, m).as_str(), attacks), ("i8", 2));
    // The main search confirms it: after i8 every White move loses.
    pos.play(m);
    let settings = EngineSettings { vcdt_depth: 0, ..EngineSettings::default() };
    let mut e = Engine::<Gomoku>::new(settings, &GOMOKU_TUPLE6.defaults());
    let r = e.search(&mut pos, &Limits::depth(4));
    assert!(r.score < -MATE_BOUND, "White is not lost after i8: {}", r.score);
}

#[test]
fn the_defenders_four_refutes_the_double_three() {
    let mut pos = position(DEFENDER_FOUR);
    let mut clock = Clock::unlimited();
    assert_eq!(vct(&mut gen(), &mut clock, &mut pos, 2, 100_000), None);
    // Without White's answer i8 would still win: White's j8 is what saves it.
    let mut after = position(&format!("{DEFENDER_FOUR} i8"));
    let mut e = Engine::<Gomoku>::new(EngineSettings::default(), &GOMOKU_TUPLE6.defaults());
    let r = e.search(&mut after, &Limits::depth(3));
    assert_eq!(Gomoku.format_move(&after, r.best), "j8", "score {}", r.score);
}

#[test]
fn the_budget_bounds_the_search() {
    let mut pos = position(DOUBLE_THREE);
    let mut clock = Clock::unlimited();
    assert_eq!(vct(&mut gen(), &mut clock, &mut pos, 2, 3), None, "three positions are too few");
    assert!(clock.nodes <= 3, "{}", clock.nodes);
}

#[test]
fn no_win_is_claimed_in_a_quiet_opening() {
    let mut pos = position("h8 i9 j8");
    let mut clock = Clock::unlimited();
    assert_eq!(vct(&mut gen(), &mut clock, &mut pos, 6, 50_000), None);
}
