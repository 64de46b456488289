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

/// From a game of the `play` player against Rapfi (suite 7701): Black to move wins by
/// threes with j9 in four attacking moves. Without its table the search needs more than
/// the root's 20,000 positions to prove it (27,788 with the `play` player's generator), with the
/// table fewer (15,519).
const TRANSPOSED_WIN: &str = "l6 j5 k8 k5 l7 j6 j8 i7 h8 l8";

#[test]
fn the_table_finds_a_win_the_search_without_it_missed() {
    let mut pos = position(TRANSPOSED_WIN);
    let mut clock = Clock::unlimited();
    assert_eq!(search_by_threats(&mut gen(), &mut clock, &mut pos, 8, 20_000, Known::none()), None, "out of positions");
    let mut clock = Clock::unlimited();
    let (m, attacks) = vct(&mut gen(), &mut clock, &mut pos, 8, 20_000).expect("a win by threes");
    assert_eq!((Gomoku.format_move(&pos, m).as_str(), attacks), ("j9", 4));
    assert!(clock.nodes <= 20_000, "{}", clock.nodes);
    // The same win without the table, given the positions it needs.
    let mut clock = Clock::unlimited();
    assert_eq!(search_by_threats(&mut gen(), &mut clock, &mut pos, 8, 40_000, Known::none()), Some((m, 4)));
    pos.play(m);
    // The main search without threat searches confirms it: after j9 every White move loses
    // (it sees the mate from depth 10).
    let settings = EngineSettings { vcdt_depth: 0, ..EngineSettings::default() };
    let mut e = Engine::<Gomoku>::new(settings, &GOMOKU_TUPLE6.defaults());
    let r = e.search(&mut pos, &Limits::depth(10));
    assert!(r.score < -MATE_BOUND, "White is not lost after j9: {}", r.score);
}

/// Positions along four games against Rapfi (every side to move): the table changes no
/// verdict and no move of a search that ran to its end.
#[test]
fn the_table_changes_no_verdict() {
    let games = [
        "j5 k9 i10 j8 i7 i9 j9 l8 l7 k8 m8 k6 k7 j7 h8 j10 m7 k11 n7 o7 l9 k10 k12 h9 i8 m11 l12 i11",
        "d8 h6 g8 g5 g11 e9 f8 e8 g9 g10 e7 d6 h10 i11 h8 j8 i7 f10 h9 h11 f9 e10",
        "h12 d10 f11 e9 f12 d8 e12 g12 f10 f13 c11 h11 e14 e11",
        "f8 h9 g5 g9 g7 h6 h7 f9 i9 f7 g6 g8 e6 f5 f6 e5 g3 g4 h4 i3 j10 h8 i7 i8 g10 j7 k8 j4 k6 i5 k7 k5 l6 g1 h2 j8 j6 l2 k3 n6",
        TRANSPOSED_WIN,
    ];
    let (mut compared, mut wins) = (0, 0);
    for game in games {
        let moves: Vec<&str> = game.split(' ').collect();
        for n in 3..=moves.len() {
            for depth in 1..=4 {
                let mut pos = position(&moves[..n].join(" "));
                let budget = 200_000;
                let mut with = Clock::unlimited();
                let a = vct(&mut gen(), &mut with, &mut pos, depth, budget);
                let mut without = Clock::unlimited();
                let b = search_by_threats(&mut gen(), &mut without, &mut pos, depth, budget, Known::none());
                if without.nodes >= budget {
                    continue;
                }
                assert!(with.nodes <= without.nodes, "the table costs positions: {} > {}", with.nodes, without.nodes);
                assert_eq!(a, b, "after {n} moves, depth {depth}");
                compared += 1;
                wins += usize::from(a.is_some());
            }
        }
    }
    assert!(compared >= 100 && wins >= 3, "{compared} searches compared, {wins} wins");
}
