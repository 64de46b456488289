//! Move generation for turns of one or two stones.
//!
//! In order of priority:
//! 1. **Win**: the side to move has a threat road (at least k - p own stones, no enemy stone):
//!    the move that completes it.
//! 2. **Defend**: the opponent has threat roads. Only moves whose stones touch every one of
//!    them are generated; when more than p stones would be needed the position is **lost**.
//! 3. **Quiet**: single stones near existing stones are ranked by a cheap score (what the
//!    stone adds to its own roads and takes from the opponent's), and pairs are built from the
//!    best first stones and, for each, the best second stones re-scored after the first.
//!
//! The generator is shared by every evaluation and search, as in Li Guo 2007 where only the
//! evaluation's parameters are tuned.

use super::board::{Board, Cell};

/// One move: one or two stones (sorted, so that a pair has one spelling).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Move {
    stones: [Cell; 2],
    len: u8,
}

impl Move {
    pub const NONE: Move = Move { stones: [0, 0], len: 0 };

    pub fn single(c: Cell) -> Move {
        Move { stones: [c, 0], len: 1 }
    }

    pub fn pair(a: Cell, b: Cell) -> Move {
        debug_assert_ne!(a, b);
        Move { stones: [a.min(b), a.max(b)], len: 2 }
    }

    /// A move from 0, 1 or 2 stones.
    pub fn from_stones(stones: &[Cell]) -> Move {
        match stones {
            [] => Move::NONE,
            [a] => Move::single(*a),
            [a, b, ..] => Move::pair(*a, *b),
        }
    }

    #[inline]
    pub fn stones(&self) -> &[Cell] {
        &self.stones[..self.len as usize]
    }

    pub fn is_none(&self) -> bool {
        self.len == 0
    }
}

/// What the generator found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Situation {
    /// The single generated move wins now.
    Win,
    /// The opponent wins next turn whatever we do; one move (the best try) is generated.
    Lost,
    /// The opponent has threats; every generated move blocks all of them.
    Defend,
    /// No threats on either side.
    Quiet,
    /// No empty cell is left.
    Full,
}

/// Generator widths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MoveGenConfig {
    /// First stones considered in quiet positions (and single-stone moves kept).
    pub singles: usize,
    /// Second stones tried for each first stone.
    pub seconds: usize,
    /// Moves kept in quiet positions, best first.
    pub width: usize,
}

impl Default for MoveGenConfig {
    fn default() -> Self {
        MoveGenConfig { singles: 10, seconds: 6, width: 20 }
    }
}

/// Score of a stone for the road it extends, indexed by the stones it still needs after the
/// stone (0 = the stone completes the road).
const ATTACK_BY_NEED: [i32; 9] = [100_000, 2_000, 400, 60, 14, 4, 1, 1, 1];
/// Score of a stone for the enemy road it kills, indexed by the stones that road still needed.
const DEFEND_BY_NEED: [i32; 9] = [0, 3_000, 600, 40, 10, 3, 1, 1, 1];

/// The cheap score a road gives a stone of the side with `mine` stones in it against `theirs`.
#[inline]
fn road_value(k: usize, mine: usize, theirs: usize) -> i32 {
    if theirs == 0 {
        ATTACK_BY_NEED[k - mine - 1]
    } else if mine == 0 {
        DEFEND_BY_NEED[k - theirs]
    } else {
        0
    }
}

/// A reusable generator: scratch buffers live here so that generation does not allocate.
#[derive(Clone, Debug)]
pub struct MoveGen {
    pub config: MoveGenConfig,
    score: Vec<i32>,
    delta: Vec<i32>,
    is_touched: Vec<bool>,
    touched: Vec<Cell>,
    candidates: Vec<(i32, Cell)>,
    seconds: Vec<(i32, Cell)>,
    pairs: Vec<(i32, Move)>,
}

impl MoveGen {
    pub fn new(config: MoveGenConfig, cells: usize) -> MoveGen {
        MoveGen {
            config,
            score: vec![0; cells],
            delta: vec![0; cells],
            is_touched: vec![false; cells],
            touched: Vec::new(),
            candidates: Vec::new(),
            seconds: Vec::new(),
            pairs: Vec::new(),
        }
    }

    /// The cheap score of an empty cell for the side to move.
    #[inline]
    pub fn score_cell(board: &Board, c: Cell) -> i32 {
        let me = board.to_move().index();
        let k = board.rules().k as usize;
        let mut s = 0;
        for &r in board.geometry().roads_through(c) {
            let n = board.road_counts(r as usize);
            s += road_value(k, n[me] as usize, n[1 - me] as usize);
        }
        s
    }

    /// Generates the moves of the side to move into `out` (cleared first), best first.
    /// The board must be at the start of a turn.
    pub fn generate(&mut self, board: &mut Board, out: &mut Vec<Move>) -> Situation {
        out.clear();
        let me = board.to_move();
        if let Some(r) = board.threat_roads(me).next() {
            let stones: Vec<Cell> = board.empty_cells_of_road(r).collect();
            out.push(Move::from_stones(&stones));
            return Situation::Win;
        }
        let empty = board.rules().cells() - board.stone_count();
        if empty == 0 {
            return Situation::Full;
        }
        self.rank_candidates(board);
        if board.threat_count(me.other()) > 0 {
            return self.defend(board, out);
        }
        let turn = board.turn_size().min(empty);
        if turn == 1 {
            let n = self.config.singles.max(1);
            out.extend(self.candidates.iter().take(n).map(|&(_, c)| Move::single(c)));
            return Situation::Quiet;
        }
        self.pairs.clear();
        let firsts = self.config.singles.min(self.candidates.len());
        for i in 0..firsts {
            let (sa, a) = self.candidates[i];
            self.best_seconds(board, a);
            for &(sb, b) in &self.seconds {
                self.pairs.push((sa + sb, Move::pair(a, b)));
            }
        }
        self.finish_pairs(out, self.config.width);
        Situation::Quiet
    }

    /// Scores every candidate cell (empty, within distance 2 of a stone; the centre on an
    /// empty board; every empty cell if none is near) and sorts them best first.
    fn rank_candidates(&mut self, board: &Board) {
        self.candidates.clear();
        let cells = board.rules().cells() as Cell;
        if board.is_empty() {
            let c = board.cell(board.width() / 2, board.height() / 2);
            self.score[c as usize] = Self::score_cell(board, c);
            self.candidates.push((self.score[c as usize], c));
            return;
        }
        for c in 0..cells {
            if board.is_empty_cell(c) && board.is_near_stone(c) {
                let s = Self::score_cell(board, c);
                self.score[c as usize] = s;
                self.candidates.push((s, c));
            }
        }
        if self.candidates.is_empty() {
            for c in 0..cells {
                if board.is_empty_cell(c) {
                    let s = Self::score_cell(board, c);
                    self.score[c as usize] = s;
                    self.candidates.push((s, c));
                }
            }
        }
        // Ties broken by cell index so that generation is a pure function of the position.
        self.candidates.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
    }

    /// Fills `self.seconds` with the best second stones after first stone `a`, scored as if
    /// `a` were on the board: each road through `a` changes the value of its other cells.
    fn best_seconds(&mut self, board: &Board, a: Cell) {
        let me = board.to_move().index();
        let k = board.rules().k as usize;
        let geo = board.geometry();
        for &r in geo.roads_through(a) {
            let n = board.road_counts(r as usize);
            let (m, t) = (n[me] as usize, n[1 - me] as usize);
            let d = if m + 1 < k { road_value(k, m + 1, t) - road_value(k, m, t) } else { 0 };
            if d == 0 {
                continue;
            }
            for &c in geo.road(r as usize) {
                if c != a && board.is_empty_cell(c) {
                    if !self.is_touched[c as usize] {
                        self.is_touched[c as usize] = true;
                        self.touched.push(c);
                    }
                    self.delta[c as usize] += d;
                }
            }
        }
        self.seconds.clear();
        let want = self.config.seconds.max(1);
        let consider = |s: &mut Vec<(i32, Cell)>, score: i32, c: Cell| {
            if s.len() < want {
                s.push((score, c));
                s.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
            } else if let Some(last) = s.last() {
                if score > last.0 || (score == last.0 && c < last.1) {
                    s.pop();
                    s.push((score, c));
                    s.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
                }
            }
        };
        for &(s, c) in &self.candidates {
            if c != a {
                consider(&mut self.seconds, s + self.delta[c as usize], c);
            }
        }
        // Cells on a's roads that were not candidates (far from other stones).
        for &c in &self.touched {
            if !board.is_near_stone(c) {
                let s = Self::score_cell(board, c) + self.delta[c as usize];
                consider(&mut self.seconds, s, c);
            }
        }
        for &c in &self.touched {
            self.delta[c as usize] = 0;
            self.is_touched[c as usize] = false;
        }
        self.touched.clear();
    }

    /// Sorts `self.pairs` best first, drops duplicate spellings and keeps `width` of them.
    fn finish_pairs(&mut self, out: &mut Vec<Move>, width: usize) {
        self.pairs.sort_unstable_by(|x, y| (x.1.stones, y.0).cmp(&(y.1.stones, x.0)));
        self.pairs.dedup_by(|later, earlier| later.1 == earlier.1);
        self.pairs.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.stones.cmp(&y.1.stones)));
        out.extend(self.pairs.iter().take(width).map(|&(_, m)| m));
    }

    /// Moves that touch every threat road of the opponent, or `Lost` when none can.
    fn defend(&mut self, board: &Board, out: &mut Vec<Move>) -> Situation {
        let them = board.to_move().other();
        let roads: Vec<usize> = board.threat_roads(them).collect();
        let turn = board.turn_size().min(board.rules().cells() - board.stone_count());
        // A stone lies on at most 4(k) roads; more threat roads than `turn` stones can touch
        // means the position is lost.
        let max_hit = turn * 4 * board.rules().k as usize;
        let mut cells: Vec<(Cell, u128)> = Vec::new();
        if roads.len() <= 128 && roads.len() <= max_hit {
            for (i, &r) in roads.iter().enumerate() {
                for c in board.empty_cells_of_road(r) {
                    match cells.iter_mut().find(|(x, _)| *x == c) {
                        Some((_, m)) => *m |= 1 << i,
                        None => cells.push((c, 1 << i)),
                    }
                }
            }
        }
        cells.sort_unstable_by_key(|&(c, _)| c);
        let full: u128 = if roads.len() >= 128 { u128::MAX } else { (1u128 << roads.len()) - 1 };
        self.pairs.clear();
        let score = |c: Cell| self_score(&self.score, c);
        for (i, &(a, ma)) in cells.iter().enumerate() {
            if ma == full {
                if turn == 1 {
                    self.pairs.push((score(a), Move::single(a)));
                    continue;
                }
                // One stone suffices: the other is free, so try the best free cells.
                let mut added = 0;
                for &(s, b) in &self.candidates {
                    if b != a {
                        self.pairs.push((score(a) + s, Move::pair(a, b)));
                        added += 1;
                        if added >= self.config.seconds.max(1) {
                            break;
                        }
                    }
                }
            }
            if turn == 2 {
                for &(b, mb) in &cells[i + 1..] {
                    if ma | mb == full {
                        self.pairs.push((score(a) + score(b), Move::pair(a, b)));
                    }
                }
            }
        }
        if self.pairs.is_empty() {
            out.push(self.best_try(board, &cells, turn));
            return Situation::Lost;
        }
        // Every blocking move is kept: pruning a defence could hide the only one that holds.
        self.finish_pairs(out, usize::MAX);
        Situation::Defend
    }

    /// In a lost position, the move that touches the most threat roads (for actual play).
    fn best_try(&self, board: &Board, cells: &[(Cell, u128)], turn: usize) -> Move {
        let mut by_hits: Vec<(u32, i32, Cell)> =
            cells.iter().map(|&(c, m)| (m.count_ones(), self.score[c as usize], c)).collect();
        by_hits.sort_unstable_by(|x, y| (y.0, y.1, x.2).cmp(&(x.0, x.1, y.2)));
        let mut stones: Vec<Cell> = by_hits.iter().map(|x| x.2).take(turn).collect();
        for &(_, c) in &self.candidates {
            if stones.len() >= turn {
                break;
            }
            if !stones.contains(&c) {
                stones.push(c);
            }
        }
        if stones.is_empty() {
            if let Some(c) = (0..board.rules().cells() as Cell).find(|&c| board.is_empty_cell(c)) {
                stones.push(c);
            }
        }
        Move::from_stones(&stones)
    }
}

#[inline]
fn self_score(score: &[i32], c: Cell) -> i32 {
    score[c as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect::notation::{board_from_record_moves, parse_record_move};
    use crate::game::connect::Rules;

    fn gen(moves: &[&str]) -> (Situation, Vec<Move>, Board) {
        let mut b = board_from_record_moves(Rules::CONNECT6, moves).unwrap();
        let mut g = MoveGen::new(MoveGenConfig::default(), 361);
        let mut out = Vec::new();
        let s = g.generate(&mut b, &mut out);
        (s, out, b)
    }

    fn mv(text: &str) -> Move {
        Move::from_stones(&parse_record_move(Rules::CONNECT6, text).unwrap())
    }

    #[test]
    fn first_move_is_the_centre() {
        let (s, out, _) = gen(&[]);
        assert_eq!(s, Situation::Quiet);
        assert_eq!(out[0], mv("j10"));
    }

    #[test]
    fn takes_the_win() {
        // Black has a4..d4 (four in a row at the left edge): two stones make six.
        let (s, out, _) = gen(&["a4", "a10a11", "b4c4", "b10b12", "d4s19", "c12q19"]);
        assert_eq!(s, Situation::Win);
        assert_eq!(out, vec![mv("e4f4")]);
    }

    #[test]
    fn blocks_a_single_threat_with_every_stone_pair_containing_a_blocker() {
        // White threatens with four on the 10th row (f10..i10); Black to move, no threats.
        let (s, out, b) = gen(&["a1", "f10g10", "s1s2", "h10i10"]);
        assert_eq!(s, Situation::Defend);
        assert!(!out.is_empty());
        for m in &out {
            let mut b2 = b.clone();
            for &c in m.stones() {
                b2.play(c);
            }
            assert_eq!(b2.threat_count(Colour::White), 0, "{m:?} leaves a threat");
        }
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

    use crate::game::connect::Colour;
}
