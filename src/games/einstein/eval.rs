//! The dynamic hybrid evaluation of EinStein würfelt nicht (after Song Yingjian et al. 2022):
//! each cube is worth what its distance to the target corner makes it, times how likely the
//! die is to let it move; a side's attack value is the sum over its cubes, the opponent's the
//! threat; cubes the opponent can step onto are at risk.
//!
//! For a cube `k` of side `s`:
//! - selection probability `p(k)`: the die faces (of six) that let `s` move `k` — its own
//!   face, and the faces of removed cubes for which `k` is the nearest cube left above or
//!   below. It grows as neighbours are removed, which is what makes piece values dynamic;
//! - distance `d(k)`: steps to the target corner (the larger of the row and column gaps,
//!   since a diagonal step closes both);
//! - value `v(k) = dist_d + edge` where `dist_d` is the weight of distance `d` and `edge` is
//!   added for a cube at distance 2 on the target's row or column (its one or two steps to
//!   the corner cannot be blocked by a diagonal detour; the paper's sharp gain of edge pieces).
//!
//! `V(s) = Σ_k (piece + v(k) · p(k))` minus, for each cube an enemy cube could take next, `hit`
//! percent of its value times that enemy cube's selection probability. The score for the side
//! to move is `attack% · V(me) − threat% · V(opponent)`.
//!
//! The MCTS uses the evaluation in its playouts to prune clearly bad moves: a move scoring
//! more than `prune` below the best move of the roll is not played (a winning move is always
//! taken). The weights are a table the GA tunes like any other.
//!
//! That pruning is the whole cost of a hybrid playout (every step of every roll is scored), so
//! the evaluation is built for it: the terms that depend only on the table are folded into
//! tables when it is read, the selection probabilities are looked up by the side's set of
//! cubes left, and [`HybridEval::step_scores`] scores a roll's steps by what each one changes
//! without playing it. Nothing allocates. The scores equal the formula above exactly (the
//! tests below check both against a plain reading of it).

use crate::core::game::{Evaluate, Position, Side};
use crate::core::weights::{Schema, WeightSpec, Weights};
use crate::games::einstein::board::{Board, Move, CUBES, GONE, SIDE, SQUARES, TARGET};

/// The weights of [`HybridEval`], in schema order.
pub static EINSTEIN_HYBRID: Schema = Schema {
    game: "einstein",
    eval: "hybrid",
    source: "hand-set for evotune after Song Yingjian et al. 2022 (distance values, edge bonus, attack and threat)",
    specs: &[
        WeightSpec::new("piece", 100, 0, 1000, "each cube left"),
        WeightSpec::new(
            "dist1",
            1200,
            0,
            5000,
            "a cube one step from the target corner, times its selection probability",
        ),
        WeightSpec::new("dist2", 600, 0, 5000, "a cube two steps away, times its selection probability"),
        WeightSpec::new("dist3", 300, 0, 5000, "a cube three steps away, times its selection probability"),
        WeightSpec::new("dist4", 150, 0, 5000, "a cube four steps away, times its selection probability"),
        WeightSpec::new("edge", 300, 0, 3000, "a cube two steps away on the target corner's row or column"),
        WeightSpec::new("hit", 50, 0, 200, "percent of a cube's value lost when an enemy cube can step onto it"),
        WeightSpec::new("attack", 100, 0, 300, "percent: weight of the side to move's own value"),
        WeightSpec::new("threat", 100, 0, 300, "percent: weight of the opponent's value"),
        WeightSpec::new("prune", 100, 0, 5000, "MCTS playouts skip moves scoring this far below the roll's best"),
    ],
};

/// Indices of the weights.
mod w {
    pub const PIECE: usize = 0;
    pub const DIST1: usize = 1;
    pub const EDGE: usize = 5;
    pub const HIT: usize = 6;
    pub const ATTACK: usize = 7;
    pub const THREAT: usize = 8;
    pub const PRUNE: usize = 9;
}

/// Sixths of the die that let a side move each cube, by the side's alive mask (bits 1..=6,
/// shifted down by one): `SIXTHS[mask >> 1][k]`. A cube's share is its own face plus the
/// faces of removed cubes for which it is the nearest left above or below. Precomputed, so a
/// playout's evaluations never walk the die faces.
static SIXTHS: [[u8; CUBES + 1]; 64] = make_sixths();

const fn make_sixths() -> [[u8; CUBES + 1]; 64] {
    let mut table = [[0u8; CUBES + 1]; 64];
    let mut m = 0;
    while m < 64 {
        let alive = (m as u8) << 1;
        let mut face = 1;
        while face <= CUBES {
            if alive & (1 << face) != 0 {
                table[m][face] += 1;
            } else {
                let mut below = face - 1;
                while below >= 1 && alive & (1 << below) == 0 {
                    below -= 1;
                }
                if below >= 1 {
                    table[m][below] += 1;
                }
                let mut above = face + 1;
                while above <= CUBES && alive & (1 << above) == 0 {
                    above += 1;
                }
                if above <= CUBES {
                    table[m][above] += 1;
                }
            }
            face += 1;
        }
        m += 1;
    }
    table
}

/// The cube number (1..=6) of a square's code (red 1..=6, blue 7..=12).
#[inline(always)]
fn cube_of(code: u8) -> usize {
    if code > CUBES as u8 {
        (code - CUBES as u8) as usize
    } else {
        code as usize
    }
}

/// Per side and square, the squares a cube of the side there steps to (the squares it
/// attacks): the same squares as [`ATTACKERS`] of the side, read the other way.
static MY_STEPS: &[[(u8, [u8; 3]); SQUARES]; 2] = &ATTACKERS;

/// Per side and square, the squares from which an enemy cube steps onto it (the reverse of
/// the side's own steps), as a count and up to three squares.
static ATTACKERS: [[(u8, [u8; 3]); SQUARES]; 2] = make_attackers();

const fn make_attackers() -> [[(u8, [u8; 3]); SQUARES]; 2] {
    // Red steps right, down, down-right: a blue cube there steps back left, up, up-left.
    const DIRS: [[(i32, i32); 3]; 2] = [[(0, 1), (1, 0), (1, 1)], [(0, -1), (-1, 0), (-1, -1)]];
    let mut table = [[(0u8, [0u8; 3]); SQUARES]; 2];
    let mut side = 0;
    while side < 2 {
        let mut sq = 0;
        while sq < SQUARES {
            let (r, c) = ((sq / SIDE) as i32, (sq % SIDE) as i32);
            let mut d = 0;
            while d < 3 {
                let (nr, nc) = (r + DIRS[side][d].0, c + DIRS[side][d].1);
                if nr >= 0 && nr < SIDE as i32 && nc >= 0 && nc < SIDE as i32 {
                    let n = table[side][sq].0 as usize;
                    table[side][sq].1[n] = (nr * SIDE as i32 + nc) as u8;
                    table[side][sq].0 += 1;
                }
                d += 1;
            }
            sq += 1;
        }
        side += 1;
    }
    table
}

/// The hybrid evaluation of one weight table, with the distance and edge terms folded into a
/// value per side and square when the table is read.
#[derive(Clone, Debug)]
pub struct HybridEval {
    /// Six times `piece` (worths are kept in sixths of the die).
    piece6: i32,
    /// `dist_d + edge` of a cube of each side on each square (`dist_0`, twice `dist1`, is
    /// never read in play: a cube on the corner has won).
    value: [[i32; SQUARES]; 2],
    hit: i32,
    attack: i32,
    threat: i32,
    /// The playout pruning margin.
    pub prune: i32,
}

impl HybridEval {
    pub fn new(weights: &Weights) -> HybridEval {
        let v = weights.values();
        let d = |i: usize| v[w::DIST1 + i];
        let dist = [d(0) * 2, d(0), d(1), d(2), d(3)];
        let mut value = [[0; SQUARES]; 2];
        for (side, row) in value.iter_mut().enumerate() {
            let target = TARGET[side] as usize;
            let (tr, tc) = (target / SIDE, target % SIDE);
            for (sq, cell) in row.iter_mut().enumerate() {
                let (r, c) = (sq / SIDE, sq % SIDE);
                let d = r.abs_diff(tr).max(c.abs_diff(tc));
                *cell = dist[d] + if d == 2 && (r == tr || c == tc) { v[w::EDGE] } else { 0 };
            }
        }
        HybridEval {
            piece6: 6 * v[w::PIECE],
            value,
            hit: v[w::HIT],
            attack: v[w::ATTACK],
            threat: v[w::THREAT],
            prune: v[w::PRUNE],
        }
    }

    /// Sixths of the die that let `side` move each cube (index 1..=6; 0 for removed cubes).
    pub fn selection_sixths(board: &Board, side: Side) -> [u8; CUBES + 1] {
        SIXTHS[(board.alive(side) >> 1) as usize]
    }

    /// The worth of `side`'s cube `k` on `sq` (in sixths): its piece and distance value times
    /// its selection sixths, less the capture risk from the enemy cubes that can step there.
    /// `sixths` and `enemy` are the selection sixths of `side` and of its opponent. The
    /// squares are read through `code_at`, so that a step can be scored on the board as it
    /// would be after the step without playing it.
    #[inline(always)]
    fn cube_worth(
        &self,
        code_at: impl Fn(usize) -> u8,
        me: usize,
        k: usize,
        sq: u8,
        sixths: &[u8; CUBES + 1],
        enemy: &[u8; CUBES + 1],
    ) -> i32 {
        let worth = self.piece6 + self.value[me][sq as usize] * sixths[k] as i32;
        // Enemy cubes one of whose steps lands here: the chance the die lets one move.
        let (n, from) = &ATTACKERS[me][sq as usize];
        let mut at_risk = 0;
        for &f in &from[..*n as usize] {
            let code = code_at(f as usize);
            if code != 0 && (code > CUBES as u8) == (me == 0) {
                let j = if me == 0 { code - CUBES as u8 } else { code };
                at_risk = at_risk.max(enemy[j as usize] as i32);
            }
        }
        worth - worth * at_risk * self.hit / (100 * 6)
    }

    /// `V(side)` of the module documentation, in points times 6 (sixths of the die), and the
    /// worth of each cube (0 for removed ones).
    fn side_worths(
        &self,
        board: &Board,
        side: Side,
        sixths: &[u8; CUBES + 1],
        enemy: &[u8; CUBES + 1],
    ) -> (i32, [i32; CUBES + 1]) {
        let me = side.index();
        let mut worths = [0; CUBES + 1];
        let mut total = 0;
        for (k, worth) in worths.iter_mut().enumerate().skip(1) {
            let sq = board.square_of(side, k as u8);
            if sq != GONE {
                *worth = self.cube_worth(|f| board.code_at(f), me, k, sq, sixths, enemy);
                total += *worth;
            }
        }
        (total, worths)
    }

    fn side_value(&self, board: &Board, side: Side, sixths: &[u8; CUBES + 1], enemy: &[u8; CUBES + 1]) -> i32 {
        self.side_worths(board, side, sixths, enemy).0
    }

    /// The scores of `steps` (steps of the side to move, on one roll) for the mover: what
    /// `-score` gives after each step, exactly, but with only the terms a step changes worked
    /// out again. A step that takes no cube leaves both sides' selection sixths as they are,
    /// so it changes the worth of the moved cube and the capture risk of the enemy cubes its
    /// old and new squares attack, nothing else; a capture changes a side's sixths and is
    /// scored in full. This is what the playouts' pruning spends its time on.
    pub fn step_scores(&self, board: &mut Board, steps: &[Move], out: &mut [i32]) {
        let me = board.to_move();
        let (m, o) = (me.index(), me.other().index());
        let mine = Self::selection_sixths(board, me);
        let theirs = Self::selection_sixths(board, me.other());
        let (a0, my_worths) = self.side_worths(board, me, &mine, &theirs);
        let (t0, their_worths) = self.side_worths(board, me.other(), &theirs, &mine);
        for (i, &step) in steps.iter().enumerate() {
            let (from, to) = (step.from(), step.to());
            if board.code_at(to as usize) != 0 {
                let u = board.play(step);
                out[i] = -self.score(board);
                board.undo(u);
                continue;
            }
            let code = board.code_at(from as usize);
            let k = if m == 0 { code } else { code - CUBES as u8 } as usize;
            // The board after the step, read without playing it.
            let after = |sq: usize| match sq {
                _ if sq == from as usize => 0,
                _ if sq == to as usize => code,
                _ => board.code_at(sq),
            };
            let a = a0 - my_worths[k] + self.cube_worth(after, m, k, to, &mine, &theirs);
            let mut t = t0;
            // Enemy cubes on the squares the cube attacked from `from` and attacks from `to`.
            let (mut seen, (nf, sf), (nt, st)) = (0u32, &MY_STEPS[m][from as usize], &MY_STEPS[m][to as usize]);
            for &x in sf[..*nf as usize].iter().chain(&st[..*nt as usize]) {
                if seen & (1 << x) != 0 {
                    continue;
                }
                seen |= 1 << x;
                let c = after(x as usize);
                if c != 0 && (c > CUBES as u8) == (m == 0) {
                    let j = if m == 0 { c - CUBES as u8 } else { c } as usize;
                    t += self.cube_worth(after, o, j, x, &theirs, &mine) - their_worths[j];
                }
            }
            // After the step the opponent is to move: score = attack% V(them) - threat% V(us).
            out[i] = -((self.attack * t - self.threat * a) / 600);
        }
    }

    /// What each of `steps` (steps of the side to move, on one roll) is worth to the mover by
    /// the evaluation without its capture-risk term (as if `hit` were 0), in 600ths of a point
    /// and relative to the position before the step: the `lean` playouts' pruning. Without the
    /// risk term a step that takes no cube changes only the moved cube's distance value, one
    /// table lookup; a capture changes the selection sixths of the side that loses the cube,
    /// whose total is summed again (six cubes). No playing, no attacker squares read: a few
    /// operations a step, so that a pruned playout costs about what a random one does. The
    /// `hit` weight matters least of the table's under MCTS (docs/einstein.md).
    pub fn lean_merits(&self, board: &Board, steps: &[Move], out: &mut [i32; 8]) {
        let mine = Self::selection_sixths(board, board.to_move());
        for (out, &step) in out.iter_mut().zip(steps) {
            *out = self.lean_merit(board, step, &mine);
        }
    }

    /// One step's merit of [`HybridEval::lean_merits`]; `mine` is the mover's selection sixths.
    #[inline(always)]
    pub fn lean_merit(&self, board: &Board, step: Move, mine: &[u8; CUBES + 1]) -> i32 {
        let me = board.to_move();
        let m = me.index();
        let (from, to) = (step.from() as usize, step.to() as usize);
        let k = cube_of(board.code_at(from));
        let moved = self.threat * (self.value[m][to] - self.value[m][from]) * mine[k] as i32;
        match board.code_at(to) {
            0 => moved,
            // An own cube taken: the mover's total changes with it gone and the cube moved.
            taken if (taken > CUBES as u8) == (m == 1) => {
                self.threat * self.lean_change(board, me, cube_of(taken), k, to as u8)
            }
            taken => moved - self.attack * self.lean_change(board, me.other(), cube_of(taken), 0, 0),
        }
    }

    /// How `V(side)` without the risk term (in sixths) changes when the side's cube `without`
    /// is taken and its cube `moved` (0: none) steps to `to`: one pass over the cubes, the
    /// selection sixths before and after from the table.
    fn lean_change(&self, board: &Board, side: Side, without: usize, moved: usize, to: u8) -> i32 {
        let s = side.index();
        let alive = board.alive(side);
        let before = &SIXTHS[(alive >> 1) as usize];
        let after = &SIXTHS[((alive & !(1u8 << without)) >> 1) as usize];
        let mut change = -self.piece6;
        for k in 1..=CUBES {
            if alive & (1 << k) != 0 {
                let sq = board.square_of(side, k as u8) as usize;
                let new = if k == moved { self.value[s][to as usize] } else { self.value[s][sq] };
                change += new * after[k] as i32 - self.value[s][sq] * before[k] as i32;
            }
        }
        change
    }

    /// The score for the side to move (points; see the module documentation).
    pub fn score(&self, board: &Board) -> i32 {
        let me = board.to_move();
        let mine = Self::selection_sixths(board, me);
        let theirs = Self::selection_sixths(board, me.other());
        let attack = self.side_value(board, me, &mine, &theirs);
        let threat = self.side_value(board, me.other(), &theirs, &mine);
        (self.attack * attack - self.threat * threat) / 600
    }
}

impl Evaluate<Board> for HybridEval {
    fn evaluate(&self, pos: &Board) -> i32 {
        self.score(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::einstein::board::Phase;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The evaluation as the module documentation states it, square by square and face by
    /// face, without tables: what the fast version must equal.
    fn reference(weights: &Weights, board: &Board) -> i32 {
        let v = weights.values();
        let dist = [2 * v[w::DIST1], v[w::DIST1], v[w::DIST1 + 1], v[w::DIST1 + 2], v[w::DIST1 + 3]];
        let sixths = |side: Side| {
            let mut s = [0i32; CUBES + 1];
            for face in 1..=CUBES as u8 {
                for k in board.movable(side, face) {
                    if k != 0 {
                        s[k as usize] += 1;
                    }
                }
            }
            s
        };
        let side_value = |side: Side| {
            let (mine, enemy) = (sixths(side), sixths(side.other()));
            let target = TARGET[side.index()] as usize;
            let (tr, tc) = (target / SIDE, target % SIDE);
            let mut total = 0;
            for k in 1..=CUBES as u8 {
                let sq = board.square_of(side, k);
                if sq == GONE {
                    continue;
                }
                let (r, c) = (sq as usize / SIDE, sq as usize % SIDE);
                let d = r.abs_diff(tr).max(c.abs_diff(tc));
                let mut value = dist[d];
                if d == 2 && (r == tr || c == tc) {
                    value += v[w::EDGE];
                }
                let mut worth = 6 * v[w::PIECE] + value * mine[k as usize];
                let at_risk = Board::steps_from(side, sq)
                    .filter_map(|n| match board.at(n as usize) {
                        Some((owner, j)) if owner != side => Some(enemy[j as usize]),
                        _ => None,
                    })
                    .max()
                    .unwrap_or(0);
                worth -= worth * at_risk * v[w::HIT] / 600;
                total += worth;
            }
            total
        };
        let me = board.to_move();
        (v[w::ATTACK] * side_value(me) - v[w::THREAT] * side_value(me.other())) / 600
    }

    #[test]
    fn tables_equal_the_stated_evaluation_on_random_games() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut tables = vec![EINSTEIN_HYBRID.defaults()];
        for _ in 0..4 {
            let values: Vec<i32> = EINSTEIN_HYBRID.specs.iter().map(|s| rng.random_range(s.min..=s.max)).collect();
            tables.push(Weights::from_values(&EINSTEIN_HYBRID, values).unwrap());
        }
        let mut checked = 0;
        for t in &tables {
            let eval = HybridEval::new(t);
            for _ in 0..200 {
                let mut b = Board::start();
                b.play(Move::setup(rng.random_range(0..720)));
                b.play(Move::setup(rng.random_range(0..720)));
                let mut moves = Vec::new();
                while !b.status().is_over() {
                    assert_eq!(eval.score(&b), reference(t, &b));
                    checked += 1;
                    b.roll(rng.random_range(1..=6));
                    b.legal_moves(&mut moves);
                    let Phase::Move(_) = b.phase() else { unreachable!() };
                    b.play(moves[rng.random_range(0..moves.len())]);
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn step_scores_equal_scores_after_each_step() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut checked = 0;
        for t in 0..5 {
            let weights = if t == 0 {
                EINSTEIN_HYBRID.defaults()
            } else {
                let values = EINSTEIN_HYBRID.specs.iter().map(|s| rng.random_range(s.min..=s.max)).collect();
                Weights::from_values(&EINSTEIN_HYBRID, values).unwrap()
            };
            let eval = HybridEval::new(&weights);
            for _ in 0..200 {
                let mut b = Board::start();
                b.play(Move::setup(rng.random_range(0..720)));
                b.play(Move::setup(rng.random_range(0..720)));
                let mut moves = Vec::new();
                while !b.status().is_over() {
                    b.roll(rng.random_range(1..=6));
                    b.legal_moves(&mut moves);
                    let mut fast = [0; 8];
                    eval.step_scores(&mut b, &moves, &mut fast);
                    for (i, &m) in moves.iter().enumerate() {
                        let u = b.play(m);
                        assert_eq!(fast[i], -eval.score(&b), "step {i} of {moves:?}");
                        b.undo(u);
                        checked += 1;
                    }
                    b.play(moves[rng.random_range(0..moves.len())]);
                }
            }
        }
        assert!(checked > 20_000, "{checked}");
    }

    #[test]
    fn lean_merits_rank_steps_as_the_evaluation_without_its_risk_term() {
        // The scores of the evaluation with `hit` 0 are whole points (the 600ths rounded
        // toward zero), the merits 600ths: two steps' merits differ by what their scores
        // differ, to within that rounding.
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let (mut checked, mut captures) = (0, 0);
        for t in 0..4 {
            let mut values: Vec<i32> = if t == 0 {
                EINSTEIN_HYBRID.defaults().values().to_vec()
            } else {
                EINSTEIN_HYBRID.specs.iter().map(|s| rng.random_range(s.min..=s.max)).collect()
            };
            let lean = HybridEval::new(&Weights::from_values(&EINSTEIN_HYBRID, values.clone()).unwrap());
            values[w::HIT] = 0;
            let riskless = HybridEval::new(&Weights::from_values(&EINSTEIN_HYBRID, values).unwrap());
            for _ in 0..100 {
                let mut b = Board::start();
                b.play(Move::setup(rng.random_range(0..720)));
                b.play(Move::setup(rng.random_range(0..720)));
                let mut moves = Vec::new();
                while !b.status().is_over() {
                    b.roll(rng.random_range(1..=6));
                    b.legal_moves(&mut moves);
                    let (mut merits, mut scores) = ([0; 8], [0; 8]);
                    lean.lean_merits(&b, &moves, &mut merits);
                    riskless.step_scores(&mut b, &moves, &mut scores);
                    for i in 0..moves.len() {
                        captures += (b.code_at(moves[i].to() as usize) != 0) as usize;
                        for j in 0..moves.len() {
                            let gap = (merits[i] - merits[j]) as f64 / 600.0 - (scores[i] - scores[j]) as f64;
                            assert!(gap.abs() < 2.0, "steps {i} and {j} of {moves:?}: {gap}");
                            checked += 1;
                        }
                    }
                    b.play(moves[rng.random_range(0..moves.len())]);
                }
            }
        }
        assert!(checked > 5_000 && captures > 500, "{checked} {captures}");
    }

    #[test]
    fn selection_grows_as_neighbours_go() {
        let all = SIXTHS[0b111111];
        assert_eq!(all, [0, 1, 1, 1, 1, 1, 1]);
        // Cubes 1, 4 and 6 left: 1 moves on faces 1-3, 4 on 2-5 (2, 3 and 5 offer a choice),
        // 6 on 5 and 6.
        assert_eq!(SIXTHS[0b101001], [0, 3, 0, 0, 4, 0, 2]);
        assert_eq!(SIXTHS[0b000100], [0, 0, 0, 6, 0, 0, 0]);
    }
}
