//! How EinStein's playouts choose their moves ([`Policy`]): at random, guarding their own
//! cubes, or by the hybrid evaluation's pruning (the steps it keeps, a win always taken); and
//! a playout to the end of the game.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::board::{Board, Move, Phase, CUBES, SIDE, TARGET};
use super::eval::HybridEval;
use crate::core::game::{Position, Status};
use crate::search::MATE;

/// How playouts choose their moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Uniformly at random.
    Random,
    /// At random among the moves the hybrid evaluation does not prune.
    Hybrid,
    /// The evaluation's certain verdicts by cheap tests: a winning step if there is one; else
    /// a capture of an enemy cube standing one step from its corner (it wins on its next roll
    /// otherwise); else at random among the steps that take no own cube; else at random.
    Guard,
    /// As [`Policy::Hybrid`], the steps ranked by [`HybridEval::lean_merits`] (the evaluation
    /// without its capture-risk term, from tables): a winning step if there is one, else at
    /// random among the steps within `prune` of the best.
    Lean,
}

/// The steps of a roll the evaluation keeps: a winning step alone if there is one (the
/// corner, or the enemy's last cube), else the steps scoring at most `prune` below the best.
/// Marks them in `keep`, writes the steps' scores in `scores` (a win scores [`MATE`]) and returns
/// how many are kept.
pub fn kept_steps(
    eval: &HybridEval,
    board: &mut Board,
    moves: &[Move],
    keep: &mut [bool; 8],
    scores: &mut [i32; 8],
) -> usize {
    // A win is seen on the step itself, without playing it: most rolls have none, and the
    // evaluations below are the whole cost of the pruning.
    if let Some(w) = winning_step(board, moves) {
        for (i, k) in keep[..moves.len()].iter_mut().enumerate() {
            *k = i == w;
        }
        scores[..moves.len()].fill(0);
        scores[w] = MATE;
        return 1;
    }
    eval.step_scores(board, moves, scores);
    let best = scores[..moves.len()].iter().copied().max().unwrap_or(0);
    let floor = best.saturating_sub(eval.prune);
    let mut kept = 0;
    for (k, &s) in keep[..moves.len()].iter_mut().zip(&scores[..moves.len()]) {
        *k = s >= floor;
        kept += *k as usize;
    }
    kept
}

/// The first of `moves` that wins at once: onto the target corner, or onto the enemy's last
/// cube.
pub(super) fn winning_step(board: &Board, moves: &[Move]) -> Option<usize> {
    let me = board.to_move();
    let target = TARGET[me.index()];
    let last = board.alive(me.other()).count_ones() == 1;
    moves.iter().position(|m| m.to() == target || (last && board.holds_enemy_of(me, m.to())))
}

/// Per side, the squares one step from its target corner as a bit set: a cube of the side
/// there wins on its next move if the die lets it move.
pub(super) static NEAR_CORNER: [u32; 2] = [near_corner(TARGET[0]), near_corner(TARGET[1])];

pub(super) const fn near_corner(corner: u8) -> u32 {
    let (cr, cc) = (corner as usize / SIDE, corner as usize % SIDE);
    let mut bits = 0;
    let mut sq = 0;
    while sq < SIDE * SIDE {
        let (r, c) = (sq / SIDE, sq % SIDE);
        if r.abs_diff(cr) <= 1 && c.abs_diff(cc) <= 1 && sq != corner as usize {
            bits |= 1 << sq;
        }
        sq += 1;
    }
    bits
}

/// [`Policy::Guard`]'s step: a win is played at once; otherwise each step is classed in one
/// pass over the roll's steps (3 takes an enemy cube about to win, 1 takes no own cube, 0 takes
/// an own cube), and one of the highest class is drawn. A few comparisons a step, so that a
/// guarded playout costs about what a random one does.
pub(super) fn guard_step(board: &Board, moves: &[Move], rng: &mut ChaCha8Rng) -> Move {
    let me = board.to_move();
    let target = TARGET[me.index()];
    let last = board.alive(me.other()).count_ones() == 1;
    let danger = NEAR_CORNER[me.other().index()];
    let mut class = [0u8; 8];
    let (mut best, mut count) = (0u8, 0usize);
    for (i, m) in moves.iter().enumerate() {
        let to = m.to();
        let enemy = board.holds_enemy_of(me, to);
        let c = if to == target || (last && enemy) {
            return *m;
        } else if enemy && danger & (1 << to) != 0 {
            3
        } else if enemy || board.code_at(to as usize) == 0 {
            1
        } else {
            0
        };
        class[i] = c;
        if c > best {
            (best, count) = (c, 1);
        } else if c == best {
            count += 1;
        }
    }
    let pick = rng.random_range(0..count);
    moves
        .iter()
        .zip(class)
        .filter(|&(_, c)| c == best)
        .nth(pick)
        .map(|(m, _)| *m)
        .expect("`count` steps have the best class")
}

/// [`Policy::Lean`]'s step: a win at once; else the steps whose lean merit is within `prune`
/// points of the best, one drawn at random when there are several (most rolls keep one, and
/// then no number is drawn).
pub(super) fn lean_step(eval: &HybridEval, board: &Board, moves: &[Move], rng: &mut ChaCha8Rng) -> Move {
    let me = board.to_move();
    let target = TARGET[me.index()];
    let last = board.alive(me.other()).count_ones() == 1;
    let mine = HybridEval::selection_sixths(board, me);
    // One pass: a win is played at once, the other steps get their merits.
    let mut merits = [0i32; 8];
    let mut best = i32::MIN;
    for (i, &m) in moves.iter().enumerate() {
        let to = m.to();
        if to == target || (last && board.holds_enemy_of(me, to)) {
            return m;
        }
        merits[i] = eval.lean_merit(board, m, &mine);
        best = best.max(merits[i]);
    }
    let floor = best.saturating_sub(eval.prune.saturating_mul(600));
    let merits = &merits[..moves.len()];
    let kept = merits.iter().filter(|&&m| m >= floor).count();
    let pick = if kept == 1 { 0 } else { rng.random_range(0..kept) };
    moves
        .iter()
        .zip(merits)
        .filter(|&(_, &m)| m >= floor)
        .nth(pick)
        .map(|(m, _)| *m)
        .expect("`kept` steps are within the floor")
}

/// The step of a roll the policy plays: a winning step if there is one, else one drawn at
/// random among the candidates.
pub fn policy_step(policy: Policy, eval: &HybridEval, board: &mut Board, moves: &[Move], rng: &mut ChaCha8Rng) -> Move {
    if moves.len() == 1 {
        return moves[0];
    }
    match policy {
        Policy::Random => moves[rng.random_range(0..moves.len())],
        Policy::Guard => guard_step(board, moves, rng),
        Policy::Lean => lean_step(eval, board, moves, rng),
        Policy::Hybrid => {
            let mut keep = [false; 8];
            let mut scores = [0i32; 8];
            let kept = kept_steps(eval, board, moves, &mut keep, &mut scores);
            if kept == 1 {
                let i = keep.iter().position(|&k| k).expect("one step is kept");
                // A win is taken without a draw; a lone step that is not a win still draws
                // (from one), as the playouts always have, so that their games stay the same.
                if scores[i] == MATE {
                    return moves[i];
                }
            }
            let mut pick = rng.random_range(0..kept);
            for (i, &k) in keep[..moves.len()].iter().enumerate() {
                if k {
                    if pick == 0 {
                        return moves[i];
                    }
                    pick -= 1;
                }
            }
            unreachable!("`kept` counts the candidates")
        }
    }
}

/// Plays the game out from a position waiting for a roll; returns the status at the end.
pub(super) fn playout(
    policy: Policy,
    eval: &HybridEval,
    board: &mut Board,
    moves: &mut Vec<Move>,
    rng: &mut ChaCha8Rng,
) -> Status {
    loop {
        let status = board.status();
        if status.is_over() {
            return status;
        }
        board.roll(rng.random_range(1..=CUBES as u8));
        moves.clear();
        if let Phase::Move(die) = board.phase() {
            board.steps_for(die, moves);
        }
        let m = policy_step(policy, eval, board, moves, rng);
        board.play(m);
    }
}

/// Plays the game out from a position waiting for a roll with the policy; returns the end.
pub fn playout_from(policy: Policy, eval: &HybridEval, board: &mut Board, rng: &mut ChaCha8Rng) -> Status {
    playout(policy, eval, board, &mut Vec::with_capacity(8), rng)
}
