//! The move generator against brute force on positions from seeded random games: wins are
//! taken, every block of the opponent's threat roads is generated and nothing else is, `Lost`
//! is reported exactly when no block exists, quiet moves are legal, and the double-threat
//! finder (`threat_moves`) finds exactly the moves that leave threats no turn can block.

mod common;

use std::collections::BTreeSet;

use common::{
    blocks, blocks_needed_brute, for_each_turn_start, need_after, random_game, threat_cells, Oracle, RandomStyle,
};
use evotune::games::connect::make_move;
use evotune::games::connect::movegen::{Move, MoveGen, MoveGenConfig, Situation, ThreatSet};
use evotune::games::connect::notation::{play_move, record_moves};
use evotune::games::connect::{Board, Cell, Colour, Rules};

#[derive(Debug, Default)]
struct Tally {
    win: usize,
    defend: usize,
    lost: usize,
    quiet: usize,
    /// Win moves whose first stone already wins, so that `play_move` refuses them.
    win_refused: usize,
}

/// The stones a turn places here: a full turn, or what is left of the board.
fn turn_stones(board: &Board) -> usize {
    board.turn_size().min(board.rules().cells() - board.stone_count())
}

/// Plays `m` on a copy with the referee's rules; panics if it is illegal.
fn after(board: &Board, m: Move, what: &str) -> Board {
    let mut b = board.clone();
    play_move(&mut b, m.stones()).unwrap_or_else(|e| panic!("{what}: {m:?} is illegal: {e}"));
    b
}

fn check_position(gen: &mut MoveGen, oracle: &Oracle, board: &Board, tally: &mut Tally) {
    let what = format!("{:?} {:?}", board.rules(), record_moves(board));
    let me = board.to_move();
    let turn = turn_stones(board);
    let mut out = Vec::new();
    let s = gen.generate(board, &mut out);
    assert_eq!(gen.situation(board), s, "{what}: situation() and generate() disagree");
    let mine = oracle.threats(board, me);
    let theirs = oracle.threats(board, me.other());
    if !mine.is_empty() {
        tally.win += 1;
        assert_eq!(s, Situation::Win, "{what}");
        assert_eq!(out.len(), 1, "{what}: a win is the only move");
        // Played the engine's way (stop at the winning stone). Whether the referee accepts
        // the move as written is `win_moves_are_legal_moves` (a known bug).
        let mut b = board.clone();
        assert!(out[0].stones().iter().all(|&c| b.is_empty_cell(c)), "{what}: {:?}", out[0]);
        make_move(&mut b, out[0]);
        assert_eq!(b.winner(), Some(me), "{what}: the winning move {:?} does not win", out[0]);
        if play_move(&mut board.clone(), out[0].stones()).is_err() {
            tally.win_refused += 1;
        }
        return;
    }
    if !theirs.is_empty() {
        let mut t = ThreatSet::default();
        t.collect(board, me.other());
        assert_eq!(t.len(), theirs.len(), "{what}");
        let (singles, pairs) = blocks(&theirs);
        assert_eq!(t.blocks_needed(2), blocks_needed_brute(&theirs), "{what}: blocks needed");
        // Minimal blocking sets: a single that blocks alone, or a pair neither of whose
        // stones does.
        let minimal_pairs: BTreeSet<Move> = pairs
            .iter()
            .filter(|(a, b)| !singles.contains(a) && !singles.contains(b))
            .map(|&(a, b)| Move::pair(a, b))
            .collect();
        let mut sets = Vec::new();
        t.blocking_sets(1, &mut sets);
        let brute_singles: BTreeSet<Move> = singles.iter().map(|&c| Move::single(c)).collect();
        assert_eq!(sets.iter().copied().collect::<BTreeSet<_>>(), brute_singles, "{what}: blocking sets of 1");
        // Every minimal set of two comes out, and only sets that block everything. (It also
        // returns some non-minimal pairs, see `blocking_sets_are_minimal`: harmless here, the
        // generator treats them as a single block plus a free stone.)
        t.blocking_sets(2, &mut sets);
        let returned: BTreeSet<Move> = sets.iter().copied().collect();
        assert_eq!(returned.len(), sets.len(), "{what}: a blocking set twice");
        for m in brute_singles.iter().chain(&minimal_pairs) {
            assert!(returned.contains(m), "{what}: blocking set {m:?} missing from {returned:?}");
        }
        for m in &returned {
            assert!(theirs.iter().all(|r| r.iter().any(|c| m.contains(*c))), "{what}: {m:?} does not block");
        }

        let can_block = !singles.is_empty() || (turn >= 2 && !pairs.is_empty());
        if !can_block {
            tally.lost += 1;
            assert_eq!(s, Situation::Lost, "{what}: no block exists");
            assert_eq!(out.len(), 1, "{what}: one best try");
            let m = out[0];
            assert_eq!(m.stones().len(), turn, "{what}: the best try is a whole move");
            after(board, m, &what);
            return;
        }
        tally.defend += 1;
        assert_eq!(s, Situation::Defend, "{what}: a block exists ({singles:?} / {pairs:?})");
        let distinct: BTreeSet<Move> = out.iter().copied().collect();
        assert_eq!(distinct.len(), out.len(), "{what}: a move twice");
        for &m in &out {
            assert_eq!(m.stones().len(), turn, "{what}: {m:?}");
            let b = after(board, m, &what);
            assert_eq!(b.threat_count(me.other()), 0, "{what}: {m:?} leaves a threat road");
            assert!(oracle.threats(&b, me.other()).is_empty(), "{what}: {m:?} leaves a threat road (oracle)");
        }
        // The hitting part of each generated move: its single-block stone, or the pair.
        let covered: BTreeSet<Cell> = singles.iter().copied().filter(|c| out.iter().any(|m| m.contains(*c))).collect();
        assert_eq!(covered, singles.iter().copied().collect(), "{what}: single blocks missing");
        let generated_pairs: BTreeSet<Move> =
            out.iter().copied().filter(|m| !m.stones().iter().any(|c| singles.contains(c))).collect();
        let expect_pairs = if turn >= 2 { minimal_pairs } else { BTreeSet::new() };
        assert_eq!(generated_pairs, expect_pairs, "{what}: the two-stone blocks");
        return;
    }
    tally.quiet += 1;
    assert_eq!(s, Situation::Quiet, "{what}");
    assert!(!out.is_empty(), "{what}: no quiet move");
    let distinct: BTreeSet<Move> = out.iter().copied().collect();
    assert_eq!(distinct.len(), out.len(), "{what}: a move twice");
    let cap = if turn == 1 { gen.config.singles } else { gen.config.width };
    assert!(out.len() <= cap, "{what}: {} moves, more than the width {cap}", out.len());
    for &m in &out {
        assert_eq!(m.stones().len(), turn, "{what}: {m:?}");
        after(board, m, &what);
    }
}

fn styles() -> [RandomStyle; 5] {
    [
        RandomStyle { region: 7, near: 1.0 },
        RandomStyle { region: 9, near: 0.9 },
        RandomStyle { region: 11, near: 0.8 },
        RandomStyle { region: 13, near: 0.6 },
        RandomStyle { region: 19, near: 0.4 },
    ]
}

fn check_games(rules: Rules, games: u64, seed0: u64) -> Tally {
    let oracle = Oracle::new(rules);
    let mut gen = MoveGen::new(MoveGenConfig::default(), &Board::new(rules));
    let mut tally = Tally::default();
    for seed in seed0..seed0 + games {
        let stones = random_game(rules, seed, styles()[seed as usize % 5], rules.cells());
        for_each_turn_start(rules, &stones, |b| check_position(&mut gen, &oracle, b, &mut tally));
    }
    tally
}

#[test]
fn connect6_generation_matches_brute_force() {
    let t = check_games(Rules::CONNECT6, 60, 1000);
    eprintln!("connect6 positions: {t:?}");
    assert!(t.win >= 30 && t.defend >= 30 && t.lost >= 10 && t.quiet >= 30, "too few of a kind: {t:?}");
}

#[test]
fn gomoku_generation_matches_brute_force() {
    let t = check_games(Rules::GOMOKU, 60, 2000);
    eprintln!("gomoku positions: {t:?}");
    assert!(t.win >= 30 && t.defend >= 30 && t.lost >= 10 && t.quiet >= 30, "too few of a kind: {t:?}");
}

/// Other widths of the generator: the tactical part must not depend on them.
#[test]
fn narrow_and_wide_generators_block_the_same_way() {
    let rules = Rules::CONNECT6;
    let oracle = Oracle::new(rules);
    for config in
        [MoveGenConfig { singles: 1, seconds: 1, width: 1 }, MoveGenConfig { singles: 40, seconds: 20, width: 200 }]
    {
        let mut gen = MoveGen::new(config, &Board::new(rules));
        let mut tally = Tally::default();
        for seed in 3000..3015 {
            let stones = random_game(rules, seed, styles()[seed as usize % 5], rules.cells());
            for_each_turn_start(rules, &stones, |b| check_position(&mut gen, &oracle, b, &mut tally));
        }
        assert!(tally.defend > 5 && tally.quiet > 5, "{config:?}: {tally:?}");
    }
}

/// In quiet Connect6 positions, `threat_moves(3)` returns exactly the moves after which the
/// mover's threat roads need three or more stones, up to free stones: every move it returns
/// does that (with the need it reports), every such pair of which both stones matter is
/// returned, and every stone that does it alone is in some returned move; `wins_next_turn`
/// is true exactly when there is such a move.
#[test]
fn threat_moves_find_every_unstoppable_double() {
    let rules = Rules::CONNECT6;
    let oracle = Oracle::new(rules);
    let mut gen = MoveGen::new(MoveGenConfig::default(), &Board::new(rules));
    let (mut positions, mut with_vcdt) = (0, 0);
    for seed in 4000..4040u64 {
        let stones = random_game(rules, seed, styles()[seed as usize % 4], rules.cells());
        for_each_turn_start(rules, &stones, |board| {
            let me = board.to_move();
            if board.threat_count(me) > 0 || board.threat_count(me.other()) > 0 || turn_stones(board) != 2 {
                return;
            }
            positions += 1;
            let what = format!("{:?}", record_moves(board));
            let mut found = Vec::new();
            gen.threat_moves(board, 3, &mut found);
            for &(need, m) in &found {
                assert_eq!(need_after(board, &oracle, me, m.stones()), need.min(3), "{what}: {m:?}");
                assert!(need >= 3, "{what}: {m:?} needs {need}");
            }
            let returned: BTreeSet<Move> = found.iter().map(|&(_, m)| m).collect();
            let cells = threat_cells(board, &oracle, me);
            let alone: Vec<Cell> =
                cells.iter().copied().filter(|&a| need_after(board, &oracle, me, &[a]) >= 3).collect();
            for &a in &alone {
                assert!(returned.iter().any(|m| m.contains(a)), "{what}: {a} makes an unstoppable threat alone");
            }
            let mut any = !alone.is_empty();
            for (i, &a) in cells.iter().enumerate() {
                for &b in &cells[i + 1..] {
                    if alone.contains(&a) || alone.contains(&b) {
                        continue;
                    }
                    if need_after(board, &oracle, me, &[a, b]) >= 3 {
                        any = true;
                        assert!(returned.contains(&Move::pair(a, b)), "{what}: {:?} missing", Move::pair(a, b));
                    }
                }
            }
            assert_eq!(any, !found.is_empty(), "{what}");
            // The search's horizon test says the same without listing the moves.
            assert_eq!(gen.wins_next_turn(board), any, "{what}: wins_next_turn");
            with_vcdt += usize::from(any);
        });
    }
    eprintln!("quiet positions {positions}, with a winning double {with_vcdt}");
    assert!(positions >= 100 && with_vcdt >= 20, "too few: {positions} / {with_vcdt}");
}

/// `ThreatSet::blocking_sets` promises minimal sets ("each stone touching a road the others
/// miss"). White has a closed four d5-g5 (c5 and j5 black: one threat road, empty h5 and i5)
/// and a four i1-i4 at the bottom edge (one threat road, empty i5 and i6): i5 alone touches
/// both, so the minimal sets are {i5} and {h5, i6}.
#[test]
fn blocking_sets_are_minimal() {
    let moves = ["c5", "d5e5", "j5a19", "f5g5", "c19e19", "i1i2", "g19k19", "i3i4"];
    let board = evotune::games::connect::notation::board_from_record_moves(Rules::CONNECT6, &moves).unwrap();
    let c = |t: &str| evotune::games::connect::notation::parse_record_move(Rules::CONNECT6, t).unwrap()[0];
    let mut t = ThreatSet::default();
    t.collect(&board, Colour::White);
    assert_eq!(t.len(), 2);
    let mut sets = Vec::new();
    t.blocking_sets(2, &mut sets);
    assert_eq!(
        sets,
        vec![Move::single(c("i5")), Move::pair(c("h5"), c("i6"))]
            .into_iter()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect::<Vec<_>>()
    );
}

/// Black has five on the e column (e5-e9, e4 White: e10 completes it) and four on row 10
/// (f10-i10 between White's d10 and k10: empty e10 and j10). The generated win is the pair
/// {e10, j10}, spelled lower cell first: e10 already makes six, and the referee's
/// `play_move` refuses a stone after the winning stone.
#[test]
fn win_moves_are_legal_moves() {
    let moves = ["f10", "d10k10", "g10h10", "e4a1", "i10e5", "c1e1", "e6e7", "g1q19", "e8e9", "o19m19"];
    let board = evotune::games::connect::notation::board_from_record_moves(Rules::CONNECT6, &moves).unwrap();
    let mut gen = MoveGen::new(MoveGenConfig::default(), &board);
    let mut out = Vec::new();
    assert_eq!(gen.generate(&board, &mut out), Situation::Win);
    let mut b = board.clone();
    assert_eq!(play_move(&mut b, out[0].stones()), Ok(()), "{:?}", record_moves(&board));
    assert_eq!(b.winner(), Some(Colour::Black));
    // The same over random games.
    let t = check_games(Rules::CONNECT6, 60, 1000);
    assert_eq!(t.win_refused, 0, "{t:?}");
}
