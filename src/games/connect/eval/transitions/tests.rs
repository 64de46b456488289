//! Tests of the K function: which transitions a stone can cause (against the paper's list and
//! the genes), and the evaluation against a plain reading of its definition.

use std::collections::HashSet;

use super::line::{change_of, State, BLACK, EMPTY, K, OFF, REACH, SPAN, WHITE};
use super::*;
use crate::games::connect::notation::board_from_record_moves;

/// Every transition some scanned line shows, as (own side?, from, to), self transitions
/// included: the mover Black, each other cell black, white or empty, and the lines that leave
/// the board on one side; lines already holding six of one colour are left out.
fn occurring() -> HashSet<(bool, State, State)> {
    let mut seen = HashSet::new();
    for off_left in 0..=REACH {
        for off_right in 0..=REACH {
            if off_left > 0 && off_right > 0 {
                continue;
            }
            let free: Vec<usize> = (0..SPAN).filter(|&i| i != REACH && i >= off_left && i < SPAN - off_right).collect();
            for code in 0..3u32.pow(free.len() as u32) {
                let mut d = [OFF; SPAN];
                d[REACH] = BLACK;
                let mut c = code;
                for &i in &free {
                    d[i] = [BLACK, WHITE, EMPTY][(c % 3) as usize];
                    c /= 3;
                }
                let mut before = d;
                before[REACH] = EMPTY;
                if before.windows(K).any(|w| w.iter().all(|&x| x == BLACK) || w.iter().all(|&x| x == WHITE)) {
                    continue;
                }
                let ch = change_of(&d);
                seen.insert((true, ch.own.0, ch.own.1));
                seen.insert((false, ch.opp.0, ch.opp.1));
            }
        }
    }
    seen
}

/// Li Guo 2007 §1.2's list of transitions after one stone, as printed.
const PAPER: &[(&str, &[&str])] = &[
    ("A5", &["S5", "C6", "A4", "S4"]),
    ("S5", &["C6", "A5", "A4", "A3", "S5", "D5", "D4", "S3", "I3", "D3", "S2", "D2"]),
    ("D5", &["S3", "S4", "D3", "D2"]),
    ("A4", &["A5", "S4"]),
    ("S4", &["S5", "A5", "A3", "I3", "A2"]),
    ("D4", &["D5", "D3", "S3", "S2", "I3"]),
    ("A3", &["A4", "S4", "S3", "D3", "S2"]),
    ("I3", &["S4", "S3", "D3", "S2", "D2"]),
    ("S3", &["S4", "D4", "D3", "D2"]),
    ("D3", &["D4"]),
    ("A2", &["A3", "S2"]),
    ("S2", &["S3", "D2"]),
    ("D2", &["D3", "A2", "S2"]),
];

#[test]
fn the_genes_are_the_papers_transitions_that_a_stone_can_cause() {
    let seen = occurring();
    let genes: HashSet<(bool, State, State)> = CONNECT6_TRANSITIONS
        .specs
        .iter()
        .filter(|s| s.group == WeightGroup::Eval)
        .map(|s| {
            let (side, from, to) = parse_gene(s.name).unwrap();
            (side == Side::Own, from, to)
        })
        .collect();
    assert_eq!(genes.len(), 43);
    let mut listed = 0;
    let mut impossible = Vec::new();
    for &(from, tos) in PAPER {
        for &to in tos {
            listed += 1;
            let (from, to) = (State::parse(from).unwrap(), State::parse(to).unwrap());
            let occurs: Vec<bool> = [true, false].into_iter().filter(|&own| seen.contains(&(own, from, to))).collect();
            if occurs.is_empty() {
                impossible.push(format!("{}->{}", from.symbol(), to.symbol()));
            }
            for own in occurs {
                assert!(
                    genes.contains(&(own, from, to)),
                    "{own} {}->{} occurs but has no gene",
                    from.symbol(),
                    to.symbol()
                );
            }
        }
    }
    assert_eq!(listed, 54);
    // The 12 the module documentation names, and nothing else.
    impossible.sort();
    assert_eq!(
        impossible,
        [
            "D2->A2", "D2->S2", "D4->I3", "D4->S2", "D4->S3", "D5->D2", "D5->D3", "D5->S3", "D5->S4", "S3->D4",
            "S5->A4", "S5->D2"
        ]
    );
    // Every gene is a transition that happens.
    for g in &genes {
        assert!(seen.contains(g), "gene {g:?} never happens");
    }
    // A stone never weakens its own side's pattern nor strengthens the opponent's.
    for &(own, from, to) in &seen {
        if from != to {
            assert_eq!(own, to > from, "{own} {}->{}", from.symbol(), to.symbol());
        }
    }
}

/// The evaluation as defined, without the trail or the memo: every stone's four lines read
/// afresh in the position it was played in.
fn reference(e: &TransitionEval, board: &Board) -> i32 {
    let me = board.to_move();
    let mut s = 0;
    for i in 0..board.stone_count() {
        let v = e.stone_value(board, i);
        s += if Board::colour_of_stone(Rules::CONNECT6, i) == me { v } else { -v };
    }
    s
}

/// A table with every gene different, so that a transition read as another shows.
fn distinct_table() -> Weights {
    let values = CONNECT6_TRANSITIONS
        .specs
        .iter()
        .enumerate()
        .map(|(i, s)| if s.group == WeightGroup::Eval { (i as i32 + 1) * 7 } else { s.default })
        .collect();
    Weights::from_values(&CONNECT6_TRANSITIONS, values).unwrap()
}

#[test]
fn the_trail_gives_the_definition_along_games_and_after_switching_boards() {
    let e = TransitionEval::new(&distinct_table());
    let a = board_from_record_moves(Rules::CONNECT6, &["j10", "k11k9", "l10h10", "j12j8", "i9i11", "m10n10", "g10f10"])
        .unwrap();
    let b = board_from_record_moves(Rules::CONNECT6, &["j10", "j11j9", "k10i10", "h10l10", "k11k9"]).unwrap();
    // Every prefix of each game, alternating between the two so that the trail is rebuilt.
    let (mut pa, mut pb) = (Board::new(Rules::CONNECT6), Board::new(Rules::CONNECT6));
    for i in 0..a.stone_count().max(b.stone_count()) {
        if let Some(&c) = a.history().get(i) {
            pa.play(c);
            assert_eq!(e.evaluate(&pa), reference(&e, &pa), "game a, {} stones", i + 1);
        }
        if let Some(&c) = b.history().get(i) {
            pb.play(c);
            assert_eq!(e.evaluate(&pb), reference(&e, &pb), "game b, {} stones", i + 1);
        }
    }
    // Black's i11 turns its indistinct three into a sleep four: the table scores.
    assert_ne!(e.evaluate(&pa), 0);
    // Taking stones back and playing others: the trail keeps only the common prefix.
    for _ in 0..3 {
        pa.undo();
    }
    pa.play(pa.cell(3, 3));
    assert_eq!(e.evaluate(&pa), reference(&e, &pa));
}

#[test]
fn a_stone_is_worth_its_transitions() {
    let w = CONNECT6_TRANSITIONS.defaults();
    let e = TransitionEval::new(&w);
    let get = |name: &str| w.get(name).unwrap();
    // Black's stones on j10 and k10 (White's pair far away): the second makes no listed
    // transition (a single stone becoming a two is not in the paper's list).
    let b = board_from_record_moves(Rules::CONNECT6, &["j10", "a1a2", "k10l10"]).unwrap();
    assert_eq!(e.stone_value(&b, 3), 0);
    // l10 turns Black's live two j10-k10 into a live three.
    assert_eq!(e.stone_value(&b, 4), get("own_a2_a3"));
    // White to move: Black's stones count against it.
    assert_eq!(e.evaluate(&b), -get("own_a2_a3"));
    // White's m10 then blocks the live three to a sleep three.
    let b = board_from_record_moves(Rules::CONNECT6, &["j10", "a1a2", "k10l10", "m10a19"]).unwrap();
    assert_eq!(e.stone_value(&b, 5), get("opp_a3_s3"));
}

/// The table with the genes of one side only: the other side's at 0.
fn one_side_table(keep: Side) -> Weights {
    let w = CONNECT6_TRANSITIONS.defaults();
    let values = CONNECT6_TRANSITIONS
        .specs
        .iter()
        .zip(w.values())
        .map(|(s, &v)| match parse_gene(s.name) {
            Some((side, _, _)) if side != keep => 0,
            _ => v,
        })
        .collect();
    Weights::from_values(&CONNECT6_TRANSITIONS, values).unwrap()
}

#[test]
fn the_k_function_ranks_the_generators_moves() {
    use crate::core::settings::EngineSettings;
    use crate::games::connect::movegen::Move;
    use crate::games::connect::search::ConnectGen;
    // White to move; Black has a live three j9-j11, White the stones k9 and k11.
    let b = board_from_record_moves(Rules::CONNECT6, &["j10", "k11k9", "j11j9"]).unwrap();
    let first_move = |w: &Weights| {
        let mut gen = ConnectGen::new(Rules::CONNECT6, &EngineSettings::default(), w);
        let mut moves = Vec::new();
        gen.movegen.generate(&b, &mut moves);
        let e = TransitionEval::new(w);
        // A pair is worth its stones' K values, the second scored with the first on the board;
        // the generator puts the best first.
        let worth = |m: &Move| {
            let [a, c] = [m.stones()[0], m.stones()[1]];
            let me = b.to_move();
            (e.stone_score(&b, me, a, None) + e.stone_score(&b, me, c, Some(a)))
                .max(e.stone_score(&b, me, c, None) + e.stone_score(&b, me, a, Some(c)))
        };
        assert!(moves.iter().all(|m| worth(m) <= worth(&moves[0])), "{moves:?}");
        moves[0]
    };
    let j12 = b.cell(9, 11);
    let j8 = b.cell(9, 7);
    // Both tables hold the same move-order weights: before the K function ranked the
    // candidates, both searched the same moves in the same order.
    let blocker = first_move(&one_side_table(Side::Opp));
    let builder = first_move(&one_side_table(Side::Own));
    assert!(blocker.contains(j12) || blocker.contains(j8), "{blocker:?}");
    assert!(!builder.contains(j12) && !builder.contains(j8), "{builder:?}");
    // Other schemas' generators rank by their move-order weights.
    assert!(
        crate::games::connect::eval::stone_scorer(&crate::games::connect::eval::CONNECT6_ROADS.defaults()).is_none()
    );
}
