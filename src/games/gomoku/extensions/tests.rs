use super::*;
use crate::core::game::{split_moves, Game};
use crate::core::limits::Limits;
use crate::core::settings::EngineSettings;
use crate::core::weights::Weights;
use crate::games::connect::game::ConnectPosition;
use crate::games::connect::movegen::Move;
use crate::games::gomoku::pair_eval::GOMOKU_CELL_PAIRS;
use crate::games::gomoku::tuple6::GOMOKU_TUPLE6;
use crate::games::gomoku::{Gomoku, GomokuThreats};
use crate::search::{SearchResult, Searcher, TreeGame, TreeSearch};

/// From a game against Rapfi (suite 7701), Black to move, no four on the board: a win by
/// continuous fours in four attacks (the threat-space search's shortest), the fifth move a
/// five. The `tuple6` player (`bench --game gomoku`), which has no quiescence, sees it at
/// depth 6 without extensions, with the blocks extended at depth 4.
const VCF4: &str = "l6 j5 k8 k5 l7 j6 l5 l8 k7 j7 j8 i9 m6 n5 j3 n7";

/// From a game against Rapfi (suite 7701): Black to move wins by threes with j9, the
/// threat-space search's four attacks (the `vct` tests' `TRANSPOSED_WIN`), mate in 7.
const VCT4: &str = "l6 j5 k8 k5 l7 j6 j8 i7 h8 l8";

/// A search of `moves` at `depth` by a player of `eval` and `weights` with these extensions,
/// without the root's threat-space searches (so that only the main search finds wins).
fn search(moves: &str, eval: &str, weights: &Weights, ext: Extensions, depth: u32) -> SearchResult<Move> {
    let settings = EngineSettings { vcdt_depth: 0, eval: Some(eval.into()), ..EngineSettings::default() };
    let mut s = TreeSearch::<Gomoku, GomokuThreats>::new(settings, weights);
    s.generator_mut().extensions = ext;
    let mut pos = Gomoku.replay(&split_moves(moves)).unwrap();
    s.search(&mut pos, &Limits::depth(depth))
}

#[test]
fn the_blocks_of_fours_extended_see_a_win_by_four_fours_at_depth_four() {
    let w = GOMOKU_TUPLE6.defaults();
    let pos = Gomoku.replay(&split_moves(VCF4)).unwrap();
    let b = pos.board();
    assert_eq!(b.threat_count(b.to_move()) + b.threat_count(b.to_move().other()), 0, "quiet");
    let r = search(VCF4, "tuple6", &w, Extensions::Fours, 4);
    assert_eq!(r.mate_in(), Some(5), "score {}", r.score);
    // Without the extension depth 4 sees no win, nor does depth 5; depth 6 does (its horizon
    // after the third block sees the fourth four's double threat).
    for depth in [4, 5] {
        assert_eq!(search(VCF4, "tuple6", &w, Extensions::None, depth).mate_in(), None, "depth {depth}");
    }
    assert_eq!(search(VCF4, "tuple6", &w, Extensions::None, 6).mate_in(), Some(5));
}

#[test]
fn the_answers_to_threes_extended_see_a_win_by_threes_at_depth_six() {
    let w = GOMOKU_CELL_PAIRS.defaults();
    let r = search(VCT4, "cell-pairs", &w, Extensions::FoursAndThrees, 6);
    assert_eq!(r.mate_in(), Some(7), "score {}", r.score);
    let pos = Gomoku.replay(&split_moves(VCT4)).unwrap();
    assert_eq!(Gomoku.format_move(&pos, r.best), "j9");
    // Not seen at depth 5 (the extensions stop at the iteration's depth in plies), nor at
    // depth 8 without extensions; with the fours' alone, at depth 9.
    assert_eq!(search(VCT4, "cell-pairs", &w, Extensions::FoursAndThrees, 5).mate_in(), None);
    assert_eq!(search(VCT4, "cell-pairs", &w, Extensions::None, 8).mate_in(), None);
    assert_eq!(search(VCT4, "cell-pairs", &w, Extensions::Fours, 8).mate_in(), None);
    assert_eq!(search(VCT4, "cell-pairs", &w, Extensions::Fours, 9).mate_in(), Some(7));
}

#[test]
fn a_node_facing_a_four_or_a_three_is_extended_as_the_variant_says() {
    let at = |moves: &str| Gomoku.replay(&split_moves(moves)).unwrap();
    // White to move faces Black's four (h8 i8 j8 k8): every variant but none extends.
    let four = at("h8 a1 i8 a2 j8 a3 k8");
    let all = [Extensions::None, Extensions::Fours, Extensions::FoursAndThrees, Extensions::FoursAndBlockedThrees];
    assert_eq!(all.map(|e| e.of(four.board())), [0, 1, 1, 1]);
    // White to move faces Black's open three (h8 i8 j8) and cannot make a four.
    let three = at("h8 a1 i8 a2 j8");
    assert_eq!(all.map(|e| e.of(three.board())), [0, 0, 1, 1]);
    // White can answer with a four of its own (a1 a2 a3 on column a): only the blocked
    // variant leaves the node unextended.
    let counter = at("h8 a1 i8 a2 o15 a3 j8");
    assert_eq!(all.map(|e| e.of(counter.board())), [0, 0, 1, 0]);
    // A quiet node: nothing.
    let quiet = at("h8 a1 i8");
    assert_eq!(all.map(|e| e.of(quiet.board())), [0; 4]);
    // The players that keep cell patterns extend the blocks of fours; the others nothing.
    let generator = |eval: &str, w: &Weights| {
        let settings = EngineSettings { eval: Some(eval.into()), ..EngineSettings::default() };
        Gomoku.generator(&settings, w).extensions
    };
    assert_eq!(generator("cell-pairs", &GOMOKU_CELL_PAIRS.defaults()), Extensions::Fours);
    assert_eq!(generator("tuple6", &GOMOKU_TUPLE6.defaults()), Extensions::None);
}
