use super::*;
use crate::core::game::{split_moves, Game};
use crate::core::limits::Limits;
use crate::core::settings::EngineSettings;
use crate::games::gomoku::pair_eval::GOMOKU_CELL_PAIRS;
use crate::games::gomoku::{GomokuThreats, GOMOKU_BENCH};
use crate::search::{SearchResult, Searchable, Searcher, TreeSearch};

/// Black to move, no four on the board: `l8` (a four on row 8, White must answer `m8`) then
/// `l7` (fours on column l and on the k8-n5 diagonal: two fives to make) wins by continuous
/// fours; no single stone wins at once, and neither `l8` nor `l7` is a four-three.
const VCF: &str = "i8 h8 j8 l11 k8 a1 m6 a15 n5 o4 l9 o15 l10 h1";

/// A `cell-pairs` player (the shipped evaluation's schema at its defaults) without the root's
/// threat-space searches, so that only the main search finds wins; `plies` of quiescence.
fn settings() -> EngineSettings {
    EngineSettings { vcdt_depth: 0, eval: Some("cell-pairs".into()), ..EngineSettings::default() }
}

fn searcher(plies: usize) -> TreeSearch<Gomoku, GomokuThreats> {
    let mut s = TreeSearch::<Gomoku, GomokuThreats>::new(settings(), &GOMOKU_CELL_PAIRS.defaults());
    s.generator_mut().quiescence_plies = plies;
    s
}

fn search(moves: &str, plies: usize, depth: u32) -> SearchResult<Move> {
    let mut pos = Gomoku.replay(&split_moves(moves)).unwrap();
    searcher(plies).search(&mut pos, &Limits::depth(depth))
}

fn cell(name: &str) -> Cell {
    let pos = Gomoku.replay::<&str>(&[]).unwrap();
    Gomoku.parse_move(&pos, name).unwrap().stones()[0]
}

#[test]
fn a_win_by_fours_past_the_horizon_is_a_mate_at_depth_one() {
    // The players that keep cell patterns search with quiescence.
    assert_eq!(Gomoku.generator(&settings(), &GOMOKU_CELL_PAIRS.defaults()).quiescence_plies, QUIESCENCE_PLIES);
    let pos = Gomoku.replay(&split_moves(VCF)).unwrap();
    for depth in [1, 2] {
        let r = search(VCF, QUIESCENCE_PLIES, depth);
        assert_eq!(r.mate_in(), Some(3), "depth {depth}: score {}", r.score);
        assert!(["l8", "l7"].contains(&Gomoku.format_move(&pos, r.best).as_str()), "{:?}", r.best);
    }
    // Scored statically at the horizon, depth 1 does not see it ...
    assert_eq!(search(VCF, 0, 1).mate_in(), None);
    // ... and the search without quiescence proves the same mate a turn deeper (where Black's
    // second four meets the class wins at the horizon), and deeper still.
    assert_eq!(search(VCF, 0, 2).mate_in(), Some(3));
    assert_eq!(search(VCF, 0, 5).mate_in(), Some(3));
}

/// Black to move, a win in four turns by fours: `l8` (a four on row 8, White must take `m8`),
/// then `l7`, a four on column l (White must take `l6`) and an open three on the k8-n5
/// diagonal, a four-three the class wins see; or `n5` (a four on column n, White must take
/// `n6`), `l8`, `m8`, and `l7` making two fours. (A quiet `l7` first wins a turn sooner: the
/// search without quiescence finds that one at depth 2.)
const VCF3: &str = "i8 h8 j8 l11 k8 o4 l9 n1 l10 a1 m6 a15 n2 o15 n3 h1 n4 a8";

#[test]
fn a_longer_win_by_fours_past_the_horizon_is_a_mate_at_depth_one() {
    let pos = Gomoku.replay(&split_moves(VCF3)).unwrap();
    let depth_one = |plies| {
        let mut pos = pos.clone();
        let mut s = searcher(plies);
        s.search(&mut pos, &Limits::depth(1))
    };
    let r = depth_one(QUIESCENCE_PLIES);
    assert_eq!(r.mate_in(), Some(4), "score {}", r.score);
    // One four and its block (2 plies) reach the four-three.
    assert_eq!(depth_one(2).mate_in(), Some(4));
    assert_eq!(depth_one(0).mate_in(), None);
    assert_eq!(search(VCF3, 0, 2).mate_in(), Some(3));
}

#[test]
fn a_side_facing_a_four_must_block_it_and_a_quiet_one_stands_pat() {
    // Black played l8, a four: White must take m8, and cannot stand pat.
    let after_four = format!("{VCF} l8");
    let mut pos = Gomoku.replay(&split_moves(&after_four)).unwrap();
    let mut s = searcher(QUIESCENCE_PLIES);
    Gomoku::prepare(s.generator_mut(), &mut pos);
    let eval = Gomoku.evaluator("cell-pairs", &GOMOKU_CELL_PAIRS.defaults());
    let mut out = Vec::new();
    assert_eq!(horizon(s.generator_mut(), &eval, &pos, 1, 0, &mut out), Quiescence::Forced);
    assert_eq!(out, vec![Move::single(cell("m8"))]);
    // At the cap the same node is scored statically.
    out.clear();
    let capped = horizon(s.generator_mut(), &eval, &pos, 1, QUIESCENCE_PLIES, &mut out);
    assert_eq!(capped, Quiescence::Score(eval.evaluate(&pos)));
    // Black before l8: quiet, so it may stand pat on its static score; its fours near its last
    // stone (l10) are all four it has: l8 and m8 on row 8, l7 and j9 on the k8-n5 diagonal.
    let mut pos = Gomoku.replay(&split_moves(VCF)).unwrap();
    Gomoku::prepare(s.generator_mut(), &mut pos);
    out.clear();
    assert_eq!(horizon(s.generator_mut(), &eval, &pos, 1, 0, &mut out), Quiescence::StandPat(eval.evaluate(&pos)));
    assert!(out.is_empty());
    attacks(s.generator_mut(), &pos, 0, &mut out);
    let mut names: Vec<String> = out.iter().map(|&m| Gomoku.format_move(&pos, m)).collect();
    names.sort();
    assert_eq!(names, ["j9", "l7", "l8", "m8"]);
}

/// The bench positions are quiet middle games without a forced win for the side to move
/// within a depth-4 search: standing pat keeps quiescence from inventing one, at every depth
/// the bench searches.
#[test]
fn quiet_positions_get_no_false_mate() {
    for (i, moves) in GOMOKU_BENCH.iter().enumerate() {
        for depth in [1, 2, 3] {
            let r = search(moves, QUIESCENCE_PLIES, depth);
            assert_eq!(r.mate_in(), None, "bench position {i} at depth {depth}: score {}", r.score);
        }
    }
}
