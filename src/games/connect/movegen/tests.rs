//! Tests of the move generator on hand-made positions.

use super::ranked::{keep_best, Ranked};
use super::*;
use crate::core::weights::Weights;
use crate::games::connect::board::{Board, Cell, Colour};
use crate::games::connect::notation::{board_from_record_moves, parse_record_move};
use crate::games::connect::Rules;

fn gen(moves: &[&str]) -> (Situation, Vec<Move>, Board) {
    let b = board_from_record_moves(Rules::CONNECT6, moves).unwrap();
    let mut g = MoveGen::new(MoveGenConfig::default(), &b);
    let mut out = Vec::new();
    let s = g.generate(&b, &mut out);
    assert_eq!(g.situation(&b), s, "situation() agrees with generate()");
    (s, out, b)
}

fn mv(text: &str) -> Move {
    Move::from_stones(&parse_record_move(Rules::CONNECT6, text).unwrap())
}

#[test]
fn first_move_is_the_centre() {
    let (s, out, _) = gen(&[]);
    assert_eq!(s, Situation::Quiet);
    assert_eq!(out, vec![mv("j10")]);
}

#[test]
fn takes_the_win() {
    // Black has a4..d4 (four in a row at the left edge): two stones make six.
    let (s, out, _) = gen(&["a4", "a10a11", "b4c4", "b10b12", "d4s19", "c12q19"]);
    assert_eq!(s, Situation::Win);
    assert_eq!(out, vec![mv("e4f4")]);
}

#[test]
fn blocks_a_single_threat_with_every_move() {
    // White has an open four on the 10th row (f10..i10): its threat roads are d..i, e..j
    // and f..k, so Black needs both stones, and exactly three pairs touch all three.
    let (s, out, b) = gen(&["a1", "f10g10", "s1s2", "h10i10"]);
    assert_eq!(s, Situation::Defend);
    assert_eq!(out.len(), 3, "{out:?}");
    for m in &out {
        let mut b2 = b.clone();
        for &c in m.stones() {
            b2.play(c);
        }
        assert_eq!(b2.threat_count(Colour::White), 0, "{m:?} leaves a threat");
    }
    for m in ["e10j10", "d10j10", "e10k10"] {
        assert!(out.contains(&mv(m)), "{m} missing");
    }
}

#[test]
fn two_threats_need_both_stones() {
    // White fours c-f on rows 5 and 15, each closed on the left by a black stone: each has
    // one threat road (c..h) and Black must put one stone on each.
    let (s, out, b) = gen(&["a1", "c5d5", "b5b15", "e5f5", "s5s7", "c15d15", "s9s11", "e15f15"]);
    assert_eq!(s, Situation::Defend);
    for m in &out {
        let mut b2 = b.clone();
        m.stones().iter().for_each(|&c| b2.play(c));
        assert_eq!(b2.threat_count(Colour::White), 0);
    }
    // g5 or h5, times g15 or h15: 4 pairs.
    assert_eq!(out.len(), 4, "{out:?}");
    assert!(out.contains(&mv("g5h15")));
}

#[test]
fn three_separate_threats_are_lost() {
    // White owns three separate fours on rows 5, 10 and 15: Black cannot touch them all.
    let (s, out, _) = gen(&[
        "a1", "c5d5", "s1s3", "e5f5", "s5s7", "c10d10", "s9s11", "e10f10", "s13s15", "c15d15", "s17s19", "e15f15",
    ]);
    assert_eq!(s, Situation::Lost);
    assert_eq!(out.len(), 1);
}

#[test]
fn quiet_moves_are_distinct_pairs() {
    let (s, out, _) = gen(&["j10", "k11k9"]);
    assert_eq!(s, Situation::Quiet);
    assert_eq!(out.len(), MoveGenConfig::default().width);
    let set: std::collections::HashSet<_> = out.iter().collect();
    assert_eq!(set.len(), out.len());
    assert!(out.iter().all(|m| m.stones().len() == 2));
}

#[test]
fn blocks_needed_counts_hitting_sets() {
    let b = board_from_record_moves(Rules::CONNECT6, &["a1", "c5d5", "s1s3", "e5f5"]).unwrap();
    let mut t = ThreatSet::default();
    t.collect(&b, Colour::White);
    // An open four (c5..f5 with a5, b5, g5, h5 empty) needs two stones.
    assert_eq!(t.len(), 3);
    assert_eq!(t.blocks_needed(2), 2);
    assert_eq!(t.blocks_needed(1), 2, "capped at cap + 1");
    assert!(!t.can_block_with(1) && t.can_block_with(2));
    // From a floor: exact at and above it, the floor itself when it is enough.
    assert_eq!(t.blocks_needed_from(1, 2), 2);
    assert_eq!(t.blocks_needed_from(2, 2), 2);
    assert_eq!(t.blocks_needed_from(2, 1), 2, "capped at cap + 1");
    t.collect(&b, Colour::Black);
    assert_eq!(t.blocks_needed_from(1, 2), 1, "no road: the floor suffices");
    assert!(t.can_block_with(0));
    assert_eq!(t.blocks_needed(2), 0);
    // Closed on the left (b5 black), the four has one threat road: one stone blocks it.
    let b = board_from_record_moves(Rules::CONNECT6, &["a1", "c5d5", "b5s2", "e5f5"]).unwrap();
    t.collect(&b, Colour::White);
    assert_eq!((t.len(), t.blocks_needed(2)), (1, 1));
}

#[test]
fn move_order_weights_steer_the_cheap_score() {
    use crate::games::connect::eval::roads::CONNECT6_ROADS;
    let b = board_from_record_moves(Rules::CONNECT6, &["j10", "k11k9", "j11j9"]).unwrap();
    let defaults = CONNECT6_ROADS.defaults();
    assert_eq!(MoveScoring::from_weights(&defaults, 6), MoveScoring::defaults(6));
    let mut plain = MoveGen::new(MoveGenConfig::default(), &b);
    // j12 extends Black's j-column three and White, to move, scores it as a block.
    let c = b.cell(9, 11);
    let mut values = defaults.values().to_vec();
    values[CONNECT6_ROADS.index_of("move_block3").unwrap()] = 400;
    let tuned = Weights::from_values(&CONNECT6_ROADS, values).unwrap();
    let scoring = MoveScoring::from_weights(&tuned, 6);
    assert_eq!((scoring.block[3], scoring.own[6]), (400, MoveScoring::WIN));
    let mut steered = MoveGen::with_scoring(MoveGenConfig::default(), scoring, &b);
    let me = b.to_move();
    assert!(steered.score_cell(&b, me, c) > plain.score_cell(&b, me, c));
}

#[test]
fn keep_best_keeps_the_top() {
    let mut v = Vec::new();
    for (s, c) in [(5, 9), (7, 3), (5, 2), (1, 1), (9, 8)] {
        keep_best(&mut v, 3, Ranked::new(s, c));
    }
    let kept: Vec<(i32, Cell)> = v.iter().map(|r| (r.score(), r.cell())).collect();
    assert_eq!(kept, vec![(9, 8), (7, 3), (5, 2)]);
}

#[test]
fn best_few_keeps_the_sorted_top_of_distinct_cells() {
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    for _ in 0..2000 {
        let len = rng.random_range(1..60usize);
        let mut cells: Vec<Cell> = (0..361).collect();
        let (picked, _) = cells.partial_shuffle(&mut rng, len);
        // Scores from a narrow range, so that ties (broken by the cell) are common.
        let all: Vec<Ranked> = picked.iter().map(|&c| Ranked::new(rng.random_range(-20..20), c)).collect();
        let n = rng.random_range(1..=12usize);
        let mut want = all.clone();
        want.sort_unstable();
        want.truncate(n);
        let mut have = all.clone();
        super::generator::best_few(&mut have, n);
        assert_eq!(have, want, "best {n} of {len}");
    }
}

/// The cheap score by its definition: what each road through the cell gives a stone there.
fn score_by_roads(scoring: &MoveScoring, board: &Board, me: Colour, c: Cell) -> i32 {
    let k = board.rules().k as usize;
    let geo = board.geometry();
    geo.roads_through(c)
        .iter()
        .map(|&r| {
            let n = board.road_counts(r as usize);
            scoring.road_value(k, n[me.index()] as usize, n[me.other().index()] as usize)
        })
        .sum()
}

#[test]
fn the_cheap_score_is_the_sum_over_roads_for_any_weights() {
    use crate::games::connect::eval::roads::{CONNECT6_ROADS, GOMOKU_ROADS};
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    for (rules, schema) in [(Rules::CONNECT6, &CONNECT6_ROADS), (Rules::GOMOKU, &GOMOKU_ROADS)] {
        for game in 0..12 {
            // Move-order weights anywhere in their bounds (the defaults in the first game).
            let values = schema
                .specs
                .iter()
                .map(|s| if game == 0 { s.default } else { rng.random_range(s.min..=s.max) })
                .collect();
            let scoring = MoveScoring::from_weights(&Weights::from_values(schema, values).unwrap(), rules.k as usize);
            let mut b = Board::new(rules);
            let mut gen = MoveGen::with_scoring(MoveGenConfig::default(), scoring, &b);
            // Random stones around the centre (some games reach a won position and stop).
            let (w, h) = (b.width() as i32, b.height() as i32);
            for _ in 0..rng.random_range(0..60) {
                if b.winner().is_some() {
                    break;
                }
                let x = (w / 2 + rng.random_range(-6..=6)).clamp(0, w - 1);
                let y = (h / 2 + rng.random_range(-6..=6)).clamp(0, h - 1);
                let c = b.cell(x as usize, y as usize);
                if b.is_empty_cell(c) {
                    b.play(c);
                }
            }
            if b.winner().is_some() {
                continue;
            }
            for c in (0..rules.cells() as Cell).filter(|&c| b.is_empty_cell(c)) {
                for me in Colour::BOTH {
                    let want = score_by_roads(&scoring, &b, me, c);
                    assert_eq!(gen.score_cell(&b, me, c), want, "{rules:?} game {game}, cell {c}, {me:?}");
                }
            }
        }
    }
}

/// `wins_next_turn` by brute force: some move of the side to move (its stones on roads
/// holding at least k - p - turn of its stones and none of the other's: no other stone can
/// make a threat) leaves threat roads that the opponent's p stones cannot all touch. A stone
/// alone is tried too: a second stone of the mover never makes its threats easier to block.
fn wins_next_turn_by_brute_force(board: &Board) -> bool {
    let me = board.to_move();
    let rules = board.rules();
    let (turn, opponent) = (board.turn_size(), rules.p as usize);
    let level = rules.threat_level();
    let mut cells: Vec<Cell> = (0..board.geometry().road_count())
        .filter(|&r| {
            let n = board.road_counts(r);
            n[me.other().index()] == 0 && n[me.index()] as usize + turn >= level
        })
        .flat_map(|r| board.empty_cells_of_road(r).collect::<Vec<_>>())
        .collect();
    cells.sort_unstable();
    cells.dedup();
    let blocks_after = |stones: &[Cell]| {
        let mut b = board.clone();
        stones.iter().for_each(|&c| b.play(c));
        let mut threats = ThreatSet::default();
        threats.collect(&b, me);
        threats.blocks_needed(opponent)
    };
    cells.iter().enumerate().any(|(i, &a)| {
        blocks_after(&[a]) > opponent || (turn == 2 && cells[i + 1..].iter().any(|&b| blocks_after(&[a, b]) > opponent))
    })
}

#[test]
fn wins_next_turn_agrees_with_brute_force_on_random_positions() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(32);
    for rules in [Rules::CONNECT6, Rules::GOMOKU] {
        let (mut checked, mut wins) = (0, 0);
        let mut shared = MoveGen::new(MoveGenConfig::for_rules(rules), &Board::new(rules));
        for _ in 0..400 {
            // Random stones close to the centre: crowded lines, many near-threats.
            let mut b = Board::new(rules);
            let (w, h) = (b.width() as i32, b.height() as i32);
            let stones = rng.random_range(6..30);
            while b.stone_count() < stones && b.winner().is_none() {
                let x = w / 2 + rng.random_range(-4..=4);
                let y = h / 2 + rng.random_range(-4..=4);
                let c = b.cell(x as usize, y as usize);
                if b.is_empty_cell(c) {
                    b.play(c);
                }
            }
            // At the start of a turn, without a threat road of the side to move.
            if b.winner().is_some() || b.stones_left_in_turn() != b.turn_size() || b.threat_count(b.to_move()) > 0 {
                continue;
            }
            let mut gen = MoveGen::new(MoveGenConfig::for_rules(rules), &b);
            let want = wins_next_turn_by_brute_force(&b);
            assert_eq!(gen.wins_next_turn(&b), want, "{rules:?}\n{}", b.diagram());
            // A generator that checked other positions before tries its last winning move
            // first: the answer is the same.
            assert_eq!(shared.wins_next_turn(&b), want, "{rules:?} (shared generator)\n{}", b.diagram());
            // The threat-space search's last attacking move asks `wins_next_turn` in place of
            // the ranked list of moves forcing the opponent's whole turn, whose first needing
            // more than a turn was its answer: the two agree.
            let p = rules.p as usize;
            let mut listed = Vec::new();
            gen.threat_moves(&b, p, &mut listed);
            let first_wins = listed.first().is_some_and(|&(need, _)| need > p);
            assert_eq!(first_wins, want, "{rules:?} (threat_moves, forcing {p})\n{}", b.diagram());
            checked += 1;
            wins += usize::from(want);
        }
        assert!(checked >= 100 && wins >= 10 && wins < checked - 10, "{rules:?}: {wins} wins in {checked}");
    }
}

/// The blocks a pair needs, measured from the board alone (`pair_blocks`, how the horizon
/// check tries its last winning move), against placing the pair and counting the blocks of
/// every threat road, for random pairs of cells near crowded lines on random Connect6
/// positions.
#[test]
fn a_pairs_blocks_from_the_board_agree_with_brute_force() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(33);
    let rules = Rules::CONNECT6;
    let (mut pairs, mut wins) = (0, 0);
    for _ in 0..300 {
        let mut b = Board::new(rules);
        let stones = rng.random_range(6..30);
        while b.stone_count() < stones && b.winner().is_none() {
            let c = b.cell(rng.random_range(5..=13), rng.random_range(5..=13));
            if b.is_empty_cell(c) {
                b.play(c);
            }
        }
        let me = b.to_move();
        if b.winner().is_some() || b.stones_left_in_turn() != 2 || b.threat_count(me) > 0 {
            continue;
        }
        let mut gen = MoveGen::new(MoveGenConfig::for_rules(rules), &b);
        // The cells of roads a pair can lift to a threat, as the brute force above lists them.
        let mut empty: Vec<Cell> = (0..b.geometry().road_count())
            .filter(|&r| {
                let n = b.road_counts(r);
                n[me.other().index()] == 0 && n[me.index()] as usize + 2 >= rules.threat_level()
            })
            .flat_map(|r| b.empty_cells_of_road(r).collect::<Vec<_>>())
            .collect();
        empty.sort_unstable();
        empty.dedup();
        if empty.len() < 2 {
            continue;
        }
        for _ in 0..60 {
            let (a, c) = (empty[rng.random_range(0..empty.len())], empty[rng.random_range(0..empty.len())]);
            if a == c {
                continue;
            }
            let mut after = b.clone();
            after.play(a);
            after.play(c);
            let mut threats = ThreatSet::default();
            threats.collect(&after, me);
            let want = threats.blocks_needed(2) > 2;
            assert_eq!(gen.pair_blocks(&b, me, a, c, 3) >= 3, want, "{a} {c}\n{}", b.diagram());
            pairs += 1;
            wins += usize::from(want);
        }
    }
    assert!(pairs >= 5000 && wins >= 20, "{wins} winning pairs in {pairs}");
}

/// A Connect6 position of 3 to 29 stones played at random in the board's middle 7x7
/// (fewer if a stone wins on the way), where generators meet threats as well as quiet play.
fn random_middle_position(rng: &mut impl rand::Rng) -> Board {
    let mut b = Board::new(Rules::CONNECT6);
    let stones = rng.random_range(3..30);
    while b.stone_count() < stones && b.winner().is_none() {
        let c = b.cell(rng.random_range(6..13), rng.random_range(6..13));
        if b.is_empty_cell(c) {
            b.play(c);
        }
    }
    b
}

/// A quiet position's whole generation after its first stage and the generations of some
/// of its children (as a search makes them in between), which reuses the first stage's
/// candidates and pairs, is a fresh generator's, on random Connect6 positions.
#[test]
fn the_whole_generation_after_a_first_stage_is_a_fresh_ones() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let config = MoveGenConfig::for_rules(Rules::CONNECT6);
    let mut checked = 0;
    let mut g = MoveGen::new(config, &Board::new(Rules::CONNECT6));
    for _ in 0..300 {
        let b = random_middle_position(&mut rng);
        if b.winner().is_some() || b.stones_left_in_turn() != 2 {
            continue;
        }
        let (mut first, mut whole, mut expected, mut scratch) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        if !g.first_stage(&b, &mut first) || b.threat_count(b.to_move().other()) > 0 {
            continue;
        }
        // The children of the first stage's moves, each generated in both ways.
        for m in first.iter().take(rng.random_range(0..4)) {
            let mut child = b.clone();
            m.stones().iter().for_each(|&c| child.play(c));
            if child.winner().is_none() {
                g.first_stage(&child, &mut scratch);
                g.generate(&child, &mut scratch);
            }
        }
        let situation = g.generate(&b, &mut whole);
        MoveGen::new(config, &b).generate(&b, &mut expected);
        assert_eq!(situation, Situation::Quiet);
        assert_eq!(whole, expected, "\n{}", b.diagram());
        checked += 1;
    }
    assert!(checked >= 50, "{checked} quiet positions");
}

/// The two stages a search asks for, on random Connect6 positions (quiet ones and ones
/// under threat): the first stage lists distinct moves, every one of them a move of the whole
/// generation's kind (under threat: it touches every threat road; quiet: among the pairs of
/// the best first stones), best first as the whole list orders them; the stages merged as
/// the search merges them hold every move of the whole list once and nothing twice.
#[test]
fn the_stages_together_list_every_move_once() {
    use rand::SeedableRng;
    use staged::{FIRST_STAGE_FIRSTS, FIRST_STAGE_WIDTH};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(6);
    let config = MoveGenConfig::for_rules(Rules::CONNECT6);
    let (mut quiet, mut defend) = (0, 0);
    for _ in 0..400 {
        let b = random_middle_position(&mut rng);
        if b.winner().is_some() || b.stones_left_in_turn() != 2 {
            continue;
        }
        let mut g = MoveGen::new(config, &b);
        let (mut first, mut whole) = (Vec::new(), Vec::new());
        let staged = g.first_stage(&b, &mut first);
        let situation = g.generate(&b, &mut whole);
        assert_eq!(staged, matches!(situation, Situation::Quiet | Situation::Defend), "{situation:?}\n{}", b.diagram());
        if !staged {
            continue;
        }
        for (i, m) in first.iter().enumerate() {
            assert!(!first[..i].contains(m), "{m:?} twice in the first stage");
            assert!(m.stones().len() == 2 && m.stones().iter().all(|&c| b.is_empty_cell(c)), "{m:?}");
        }
        if situation == Situation::Defend {
            defend += 1;
            let mut threats = ThreatSet::default();
            threats.collect(&b, b.to_move().other());
            for m in &first {
                let mut b2 = b.clone();
                m.stones().iter().for_each(|&c| b2.play(c));
                assert_eq!(b2.threat_count(b.to_move().other()), 0, "{m:?} leaves a threat\n{}", b.diagram());
            }
            // Every block of two stones is in both lists.
            let mut blocks = Vec::new();
            threats.blocking_sets(2, &mut blocks);
            for m in blocks.iter().filter(|m| m.stones().len() == 2) {
                assert!(first.contains(m) && whole.contains(m), "{m:?}");
            }
        } else {
            quiet += 1;
            // The pairs of the best first stones are the whole generation's with fewer first
            // stones and a narrower width: the same moves in the same order.
            let narrow = MoveGenConfig { singles: FIRST_STAGE_FIRSTS, width: FIRST_STAGE_WIDTH, ..config };
            let mut expected = Vec::new();
            MoveGen::new(narrow, &b).generate(&b, &mut expected);
            assert_eq!(first, expected, "\n{}", b.diagram());
        }
        // The first stage's moves that the whole list has come in its order.
        let common: Vec<_> = first.iter().filter(|m| whole.contains(m)).collect();
        let in_whole: Vec<_> = whole.iter().filter(|m| first.contains(m)).collect();
        assert_eq!(common, in_whole, "\n{}", b.diagram());
        // Merged as the search merges them: each stage's moves not listed before.
        let mut merged = first.clone();
        let listed = merged.len();
        for m in &whole {
            if !merged[..listed].contains(m) {
                merged.push(*m);
            }
        }
        for (i, m) in merged.iter().enumerate() {
            assert!(!merged[..i].contains(m), "{m:?} twice");
        }
        assert!(whole.iter().all(|m| merged.contains(m)));
        assert_eq!(merged.len(), listed + whole.iter().filter(|m| !first.contains(m)).count());
    }
    assert!(quiet >= 20 && defend >= 20, "{quiet} quiet, {defend} under threat");
}
