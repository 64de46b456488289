//! Move generation for turns of one or two stones.
//!
//! In order of priority:
//! 1. **Win**: the side to move has a threat road (at least k - p own stones, no enemy stone):
//!    the move that completes it is the only move generated.
//! 2. **Defend**: the opponent has threat roads. Only moves whose stones touch every one of
//!    them are generated (all of them: pruning a defence could hide the only one that holds);
//!    when more than the stones of this turn would be needed the position is **Lost**.
//! 3. **Quiet**: single stones near existing stones are ranked by a cheap score (what the
//!    stone adds to its own roads and takes from the opponent's), and pairs are built from the
//!    best first stones and, for each, the best second stones re-scored after the first.
//!
//! The generator is shared by every evaluation and search, as in Li Guo 2007 where only the
//! evaluation's parameters are tuned. It is a pure function of the position: ties are broken
//! by cell index, so a fixed-depth search is deterministic.

use super::board::{Board, Cell, Colour, MAX_K};
use crate::core::weights::{WeightGroup, WeightSpec, Weights};

/// The most stones a turn may place (p). Threat roads have at most this many empty cells.
pub const MAX_P: usize = 2;

/// One move: one or two stones (sorted, so that a pair has one spelling).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move {
    stones: [Cell; MAX_P],
    len: u8,
}

impl Move {
    pub const NONE: Move = Move { stones: [0; MAX_P], len: 0 };

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

    pub fn contains(&self, c: Cell) -> bool {
        self.stones().contains(&c)
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
    /// Second stones tried for each first stone, and free stones added to a one-stone block.
    pub seconds: usize,
    /// Quiet moves kept after ranking, best first.
    pub width: usize,
}

impl Default for MoveGenConfig {
    fn default() -> Self {
        MoveGenConfig { singles: 12, seconds: 6, width: 16 }
    }
}

/// What the generator's cheap score gives a stone for each road through it, by stone counts:
/// `own[n]` when the stone lifts an own road (no enemy stone) to n stones, `block[n]` when it
/// lands in an enemy road of n stones (no own stone), killing it. A stone completing k in a
/// row scores [`MoveScoring::WIN`]. The cheap score decides which stones and pairs a quiet
/// node searches at all (the best `singles`, `seconds` and `width` of them) and how blocks
/// are ordered, so these weights are tuned with the evaluation's (the `move_*` weights of a
/// table: [`CONNECT6_MOVE_ORDER`], [`GOMOKU_MOVE_ORDER`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveScoring {
    pub own: [i32; MAX_K + 1],
    pub block: [i32; MAX_K + 1],
}

/// The hand-set scores, by the stones a road still needs: after the stone for own roads
/// (0 = the stone completes it), before it for enemy roads.
const OWN_BY_NEED: [i32; MAX_K + 1] = [MoveScoring::WIN, 20_000, 400, 60, 14, 4, 1, 1, 1];
const BLOCK_BY_NEED: [i32; MAX_K + 1] = [0, 30_000, 3_000, 40, 10, 3, 1, 1, 1];

impl MoveScoring {
    /// The score of a stone that completes a line.
    pub const WIN: i32 = 1_000_000;

    /// The hand-set scores for lines of `k`.
    pub fn defaults(k: usize) -> MoveScoring {
        let mut s = MoveScoring { own: [0; MAX_K + 1], block: [0; MAX_K + 1] };
        for n in 1..=k {
            s.own[n] = OWN_BY_NEED[k - n];
            s.block[n] = BLOCK_BY_NEED[k - n];
        }
        s
    }

    /// The scores of a weight table: its `move_own{n}` and `move_block{n}` weights, the
    /// defaults for any it does not have (tables of schemas without move-order weights).
    pub fn from_weights(weights: &Weights, k: usize) -> MoveScoring {
        let mut s = MoveScoring::defaults(k);
        for (spec, &v) in weights.schema().specs.iter().zip(weights.values()) {
            if spec.group != WeightGroup::MoveOrder {
                continue;
            }
            let (table, n) = if let Some(n) = spec.name.strip_prefix("move_own") {
                (&mut s.own, n)
            } else if let Some(n) = spec.name.strip_prefix("move_block") {
                (&mut s.block, n)
            } else {
                panic!("move-order weight `{}` is neither move_own nor move_block", spec.name)
            };
            let n: usize = n.parse().expect("move-order weight names end in a stone count");
            assert!((1..k).contains(&n), "move-order weight `{}` out of 1..k", spec.name);
            table[n] = v;
        }
        s
    }

    /// What a road with `mine` own and `theirs` enemy stones gives a stone of "mine".
    fn road_value(&self, k: usize, mine: usize, theirs: usize) -> i32 {
        if theirs == 0 && mine < k {
            self.own[mine + 1]
        } else if mine == 0 && theirs > 0 {
            self.block[theirs]
        } else {
            0
        }
    }
}

/// A move-order weight for lines of `K`: own roads of `n` stones (`block = false`) or enemy
/// roads of `n` (`block = true`), default from the hand-set table, bounds 0 to ten times it.
const fn move_spec<const K: usize>(name: &'static str, n: usize, block: bool, doc: &'static str) -> WeightSpec {
    let default = if block { BLOCK_BY_NEED[K - n] } else { OWN_BY_NEED[K - n] };
    WeightSpec::new(name, default, 0, 10 * default, doc).in_group(WeightGroup::MoveOrder)
}

/// Connect6's move-order weights (part of its road and pattern schemas).
pub const CONNECT6_MOVE_ORDER: [WeightSpec; 10] = [
    move_spec::<6>("move_own1", 1, false, "move order: a stone starting an own road"),
    move_spec::<6>("move_own2", 2, false, "move order: a stone making an own road of 2"),
    move_spec::<6>("move_own3", 3, false, "move order: a stone making an own road of 3"),
    move_spec::<6>("move_own4", 4, false, "move order: a stone making an own road of 4 (a threat)"),
    move_spec::<6>("move_own5", 5, false, "move order: a stone making an own road of 5 (a threat)"),
    move_spec::<6>("move_block1", 1, true, "move order: a stone in an enemy road of 1"),
    move_spec::<6>("move_block2", 2, true, "move order: a stone in an enemy road of 2"),
    move_spec::<6>("move_block3", 3, true, "move order: a stone in an enemy road of 3"),
    move_spec::<6>("move_block4", 4, true, "move order: a stone blocking an enemy road of 4"),
    move_spec::<6>("move_block5", 5, true, "move order: a stone blocking an enemy road of 5"),
];

/// Freestyle Gomoku's move-order weights (part of its road and pattern schemas).
pub const GOMOKU_MOVE_ORDER: [WeightSpec; 8] = [
    move_spec::<5>("move_own1", 1, false, "move order: a stone starting an own road"),
    move_spec::<5>("move_own2", 2, false, "move order: a stone making an own road of 2"),
    move_spec::<5>("move_own3", 3, false, "move order: a stone making an own road of 3"),
    move_spec::<5>("move_own4", 4, false, "move order: a stone making an own road of 4 (a threat)"),
    move_spec::<5>("move_block1", 1, true, "move order: a stone in an enemy road of 1"),
    move_spec::<5>("move_block2", 2, true, "move order: a stone in an enemy road of 2"),
    move_spec::<5>("move_block3", 3, true, "move order: a stone blocking an enemy road of 3"),
    move_spec::<5>("move_block4", 4, true, "move order: a stone blocking an enemy road of 4"),
];

/// The empty cells of every threat road of one side: what a defender must touch.
#[derive(Clone, Debug, Default)]
pub struct ThreatSet {
    roads: Vec<([Cell; MAX_P], u8)>,
}

impl ThreatSet {
    /// Collects the threat roads of `attacker` (cleared first).
    pub fn collect(&mut self, board: &Board, attacker: Colour) {
        self.roads.clear();
        for r in board.threat_roads(attacker) {
            let mut cells = [0; MAX_P];
            let mut n = 0;
            for c in board.empty_cells_of_road(r) {
                cells[n] = c;
                n += 1;
            }
            self.roads.push((cells, n as u8));
        }
    }

    /// The threat roads `attacker` would have after placing `stones` (not yet on the board),
    /// without playing them: the roads through the stones that they lift to k - p stones.
    /// Only valid while `attacker` has no threat road yet, as in quiet positions.
    pub fn collect_after(&mut self, board: &Board, attacker: Colour, stones: &[Cell]) {
        debug_assert_eq!(board.threat_count(attacker), 0);
        debug_assert!(stones.len() <= MAX_P);
        self.roads.clear();
        let (me, them) = (attacker.index(), attacker.other().index());
        let level = board.rules().threat_level();
        let geo = board.geometry();
        let none: &[u16] = &[];
        let (ra, rb) = match stones {
            [a] => (geo.roads_through(*a), none),
            [a, b] => (geo.roads_through(*a), geo.roads_through(*b)),
            _ => (none, none),
        };
        // Both lists are in increasing road order: one merge finds every road through the
        // move's stones, and how many of them it holds.
        let (mut i, mut j) = (0, 0);
        while i < ra.len() || j < rb.len() {
            let r = match (ra.get(i), rb.get(j)) {
                (Some(&x), Some(&y)) => x.min(y),
                (Some(&x), None) => x,
                (None, Some(&y)) => y,
                (None, None) => break,
            };
            let mut hits = 0;
            if ra.get(i) == Some(&r) {
                hits += 1;
                i += 1;
            }
            if rb.get(j) == Some(&r) {
                hits += 1;
                j += 1;
            }
            let n = board.road_counts(r as usize);
            if n[them] != 0 || (n[me] as usize) + hits < level {
                continue;
            }
            let mut empty = [0; MAX_P];
            let mut len = 0;
            for &c in geo.road(r as usize) {
                if board.is_empty_cell(c) && !stones.contains(&c) {
                    empty[len] = c;
                    len += 1;
                }
            }
            self.roads.push((empty, len as u8));
        }
    }

    pub fn is_empty(&self) -> bool {
        self.roads.is_empty()
    }

    pub fn len(&self) -> usize {
        self.roads.len()
    }

    /// The first road none of `stones` touches.
    fn first_unhit(&self, stones: &[Cell]) -> Option<&[Cell]> {
        self.roads
            .iter()
            .map(|(cells, n)| &cells[..*n as usize])
            .find(|cells| !cells.iter().any(|c| stones.contains(c)))
    }

    /// The fewest stones that touch every road, or `cap + 1` when more than `cap` are needed.
    pub fn blocks_needed(&self, cap: usize) -> usize {
        let mut chosen = Vec::with_capacity(cap);
        (0..=cap).find(|&budget| self.can_block(&mut chosen, budget)).unwrap_or(cap + 1)
    }

    fn can_block(&self, chosen: &mut Vec<Cell>, budget: usize) -> bool {
        let Some(road) = self.first_unhit(chosen) else { return true };
        if chosen.len() == budget {
            return false;
        }
        for &c in road {
            chosen.push(c);
            let ok = self.can_block(chosen, budget);
            chosen.pop();
            if ok {
                return true;
            }
        }
        false
    }

    /// Every set of at most `budget` stones that touches every road, each stone touching a road
    /// the others miss (minimal sets; a stone left over is free). Sorted, no duplicates.
    pub fn blocking_sets(&self, budget: usize, out: &mut Vec<Move>) {
        out.clear();
        let mut chosen = Vec::with_capacity(budget);
        self.enumerate(&mut chosen, budget, out);
        out.sort_unstable();
        out.dedup();
    }

    fn enumerate(&self, chosen: &mut Vec<Cell>, budget: usize, out: &mut Vec<Move>) {
        let Some(road) = self.first_unhit(chosen) else {
            // Keep the set only if no stone in it is redundant.
            let minimal = (0..chosen.len()).all(|skip| {
                let rest: Vec<Cell> = chosen.iter().enumerate().filter(|&(i, _)| i != skip).map(|(_, &c)| c).collect();
                self.first_unhit(&rest).is_some()
            });
            if minimal {
                out.push(Move::from_stones(chosen));
            }
            return;
        };
        if chosen.len() == budget {
            return;
        }
        for &c in road {
            chosen.push(c);
            self.enumerate(chosen, budget, out);
            chosen.pop();
        }
    }

    /// How many roads each cell touches, for the best try in a lost position.
    fn hits(&self, c: Cell) -> usize {
        self.roads.iter().filter(|(cells, n)| cells[..*n as usize].contains(&c)).count()
    }
}

/// Row length of [`MoveGen`]'s per-colour value tables (counts go up to `MAX_K`).
const STRIDE: usize = MAX_K + 1;

/// A reusable generator: scratch buffers live here so that generation does not allocate.
#[derive(Clone, Debug)]
pub struct MoveGen {
    pub config: MoveGenConfig,
    /// `value[mine * (k+1) + theirs]`: what a road with these counts gives a stone of "mine".
    value: Vec<i32>,
    /// The same by colour and raw counts: `by_counts[c][black * STRIDE + white]` is what a
    /// road with these counts gives a stone of colour c (one lookup per road in
    /// `score_cell`, the generator's hottest loop).
    by_counts: [[i32; STRIDE * STRIDE]; 2],
    k: usize,
    score: Vec<i32>,
    delta: Vec<i32>,
    is_touched: Vec<bool>,
    touched: Vec<Cell>,
    candidates: Vec<(i32, Cell)>,
    seconds: Vec<(i32, Cell)>,
    pairs: Vec<(i32, Move)>,
    threats: ThreatSet,
    blocks: Vec<Move>,
    threat_scratch: Vec<(usize, Move)>,
}

impl MoveGen {
    /// A generator with the hand-set move scores.
    pub fn new(config: MoveGenConfig, board: &Board) -> MoveGen {
        MoveGen::with_scoring(config, MoveScoring::defaults(board.rules().k as usize), board)
    }

    /// A generator scoring stones with `scoring` (see [`MoveScoring`]).
    pub fn with_scoring(config: MoveGenConfig, scoring: MoveScoring, board: &Board) -> MoveGen {
        let k = board.rules().k as usize;
        let mut value = vec![0; (k + 1) * (k + 1)];
        for mine in 0..=k {
            for theirs in 0..=k {
                value[mine * (k + 1) + theirs] = scoring.road_value(k, mine, theirs);
            }
        }
        let mut by_counts = [[0; STRIDE * STRIDE]; 2];
        for black in 0..=k {
            for white in 0..=k {
                by_counts[0][black * STRIDE + white] = value[black * (k + 1) + white];
                by_counts[1][black * STRIDE + white] = value[white * (k + 1) + black];
            }
        }
        let cells = board.rules().cells();
        MoveGen {
            config,
            value,
            by_counts,
            k,
            score: vec![0; cells],
            delta: vec![0; cells],
            is_touched: vec![false; cells],
            touched: Vec::new(),
            candidates: Vec::new(),
            seconds: Vec::new(),
            pairs: Vec::new(),
            threats: ThreatSet::default(),
            blocks: Vec::new(),
            threat_scratch: Vec::new(),
        }
    }

    #[inline]
    fn road_value(&self, mine: usize, theirs: usize) -> i32 {
        self.value[mine * (self.k + 1) + theirs]
    }

    /// The cheap score of an empty cell for `me`: the sum over its roads of what a stone there
    /// adds to `me`'s road or takes from the opponent's.
    #[inline]
    pub fn score_cell(&self, board: &Board, me: Colour, c: Cell) -> i32 {
        let table = &self.by_counts[me.index()];
        let mut s = 0;
        for &r in board.geometry().roads_through(c) {
            let [black, white] = board.road_counts(r as usize);
            s += table[black as usize * STRIDE + white as usize];
        }
        s
    }

    /// The situation of the side to move without generating moves: a cheap test that lets a
    /// search stop at its horizon. `Defend` means "under threat but a block exists".
    pub fn situation(&mut self, board: &Board) -> Situation {
        let me = board.to_move();
        if board.threat_count(me) > 0 {
            return Situation::Win;
        }
        if board.is_full() {
            return Situation::Full;
        }
        if board.threat_count(me.other()) == 0 {
            return Situation::Quiet;
        }
        self.threats.collect(board, me.other());
        if self.threats.blocks_needed(self.turn_stones(board)) > self.turn_stones(board) {
            Situation::Lost
        } else {
            Situation::Defend
        }
    }

    fn turn_stones(&self, board: &Board) -> usize {
        board.turn_size().min(board.rules().cells() - board.stone_count())
    }

    /// Generates the moves of the side to move into `out` (cleared first), best first.
    /// The board must be at the start of a turn.
    pub fn generate(&mut self, board: &Board, out: &mut Vec<Move>) -> Situation {
        out.clear();
        let me = board.to_move();
        // The road needing the fewest stones: a move must stop at its winning stone, so when
        // one stone makes six the move is that stone alone.
        if let Some(r) = board.threat_roads(me).min_by_key(|&r| board.rules().k - board.road_counts(r)[me.index()]) {
            let stones: Vec<Cell> = board.empty_cells_of_road(r).collect();
            out.push(Move::from_stones(&stones));
            return Situation::Win;
        }
        if board.is_full() {
            return Situation::Full;
        }
        self.rank_candidates(board);
        if board.threat_count(me.other()) > 0 {
            return self.defend(board, out);
        }
        let turn = self.turn_stones(board);
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
            for j in 0..self.seconds.len() {
                let (sb, b) = self.seconds[j];
                self.pairs.push((sa + sb, Move::pair(a, b)));
            }
        }
        self.finish_pairs(out, self.config.width);
        Situation::Quiet
    }

    /// Moves of the side to move that leave threats needing at least `min_blocks` stones to
    /// stop (2: double threats, which force both of the opponent's stones; p + 1 or more: a
    /// win next turn, the opponent cannot stop them all). Best first: more blocks needed,
    /// then a higher cheap score, then cell order. Only threats made by the move's own stones
    /// count, so call it in positions where the mover has no threat road yet.
    ///
    /// A stone can only make a threat in a road of the mover that it lifts to k - p stones:
    /// the move's stones come from roads holding k - p - 1 own stones (one stone is enough)
    /// or, for two-stone turns, both from one road holding k - p - 2 (each stone pair is
    /// tried once and measured exactly: [`ThreatSet::collect_after`], then
    /// [`ThreatSet::blocks_needed`]).
    pub fn threat_moves(&mut self, board: &Board, min_blocks: usize, out: &mut Vec<(usize, Move)>) {
        out.clear();
        let me = board.to_move();
        debug_assert_eq!(board.threat_count(me), 0, "the mover already has a threat road");
        let turn = self.turn_stones(board);
        let level = board.rules().threat_level();
        let mut singles: Vec<Cell> = Vec::new();
        let mut pairs: Vec<Move> = Vec::new();
        let geo = board.geometry();
        for r in 0..geo.road_count() {
            let n = board.road_counts(r);
            let (mine, theirs) = (n[me.index()] as usize, n[me.other().index()] as usize);
            if theirs != 0 || mine == 0 || mine >= level || mine + turn < level {
                continue;
            }
            let empty: Vec<Cell> = board.empty_cells_of_road(r).collect();
            if mine + 1 == level {
                singles.extend_from_slice(&empty);
            } else if turn == 2 && mine + 2 == level {
                for (i, &a) in empty.iter().enumerate() {
                    pairs.extend(empty[i + 1..].iter().map(|&b| Move::pair(a, b)));
                }
            }
        }
        singles.sort_unstable();
        singles.dedup();
        if turn == 1 {
            pairs.extend(singles.iter().map(|&a| Move::single(a)));
        } else {
            for (i, &a) in singles.iter().enumerate() {
                pairs.extend(singles[i + 1..].iter().map(|&b| Move::pair(a, b)));
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        let mut threats = std::mem::take(&mut self.threats);
        let mut scored = Vec::new();
        for m in pairs {
            threats.collect_after(board, me, m.stones());
            // One road, or roads sharing a cell, can be stopped with one stone.
            if threats.len() < 2 && min_blocks >= 2 {
                continue;
            }
            let need = threats.blocks_needed(turn.max(2));
            if need >= min_blocks {
                let cheap: i32 = m.stones().iter().map(|&c| self.score_cell(board, me, c)).sum();
                scored.push((need, cheap, m));
            }
        }
        self.threats = threats;
        scored.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(y.1.cmp(&x.1)).then(x.2.cmp(&y.2)));
        out.extend(scored.into_iter().map(|(need, _, m)| (need, m)));
    }

    /// [`generate`](Self::generate), plus in quiet positions the moves making double
    /// threats or better ([`threat_moves`](Self::threat_moves), at most `max_threats`), first.
    /// Finding them costs far more than a plain generation, so searches ask for them only
    /// where a forced win two turns ahead is inside their horizon.
    pub fn generate_with_threats(&mut self, board: &Board, max_threats: usize, out: &mut Vec<Move>) -> Situation {
        let situation = self.generate(board, out);
        if situation != Situation::Quiet || max_threats == 0 {
            return situation;
        }
        let mut threats = std::mem::take(&mut self.threat_scratch);
        self.threat_moves(board, 2, &mut threats);
        threats.truncate(max_threats);
        if !threats.is_empty() {
            out.retain(|m| !threats.iter().any(|(_, t)| t == m));
            let quiet = out.len();
            out.extend(threats.iter().map(|&(_, m)| m));
            out.rotate_left(quiet);
        }
        self.threat_scratch = threats;
        situation
    }

    /// Scores every candidate cell (empty, within distance 2 of a stone; the centre on an
    /// empty board; every empty cell if none is near) and sorts them best first.
    fn rank_candidates(&mut self, board: &Board) {
        self.candidates.clear();
        let me = board.to_move();
        if board.is_empty() {
            let c = board.cell(board.width() / 2, board.height() / 2);
            self.score[c as usize] = self.score_cell(board, me, c);
            self.candidates.push((self.score[c as usize], c));
            return;
        }
        let cells = board.rules().cells() as Cell;
        for c in 0..cells {
            if board.is_empty_cell(c) && board.is_near_stone(c) {
                let s = self.score_cell(board, me, c);
                self.score[c as usize] = s;
                self.candidates.push((s, c));
            }
        }
        if self.candidates.is_empty() {
            for c in (0..cells).filter(|&c| board.is_empty_cell(c)) {
                let s = self.score_cell(board, me, c);
                self.score[c as usize] = s;
                self.candidates.push((s, c));
            }
        }
        // Ties broken by cell index so that generation is a pure function of the position.
        let order = |x: &(i32, Cell), y: &(i32, Cell)| y.0.cmp(&x.0).then(x.1.cmp(&y.1));
        // Only a prefix is ever read in order: the first stones, and in `best_seconds` the
        // best `seconds` cells off a first stone's lines (at most 8(k-1) cells lie on them),
        // so only that prefix is sorted; the rest is merely below it.
        let on_lines = 8 * (self.k - 1);
        let prefix = self.config.singles.max(self.config.seconds + on_lines + 1);
        if self.candidates.len() > prefix {
            self.candidates.select_nth_unstable_by(prefix - 1, order);
            self.candidates[..prefix].sort_unstable_by(order);
        } else {
            self.candidates.sort_unstable_by(order);
        }
    }

    /// Fills `self.seconds` with the best second stones after first stone `a`, scored as if
    /// `a` were on the board: each road through `a` changes the value of its other cells.
    fn best_seconds(&mut self, board: &Board, a: Cell) {
        let me_colour = board.to_move();
        let me = me_colour.index();
        let geo = board.geometry();
        for &r in geo.roads_through(a) {
            let n = board.road_counts(r as usize);
            let (m, t) = (n[me] as usize, n[1 - me] as usize);
            let d = if m + 1 < self.k { self.road_value(m + 1, t) - self.road_value(m, t) } else { 0 };
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
        let want = self.config.seconds.max(1);
        let mut seconds = std::mem::take(&mut self.seconds);
        seconds.clear();
        // Cells on a's roads: their score changes with a. Candidates were scored already;
        // cells far from every other stone were not.
        for &c in &self.touched {
            let base =
                if board.is_near_stone(c) { self.score[c as usize] } else { self.score_cell(board, me_colour, c) };
            keep_best(&mut seconds, want, base + self.delta[c as usize], c);
        }
        // Every other candidate keeps its score, and candidates are sorted best first: the
        // first `want` of them not on a's roads are the only ones that can make the cut.
        let mut untouched = 0;
        for &(s, c) in &self.candidates {
            if untouched == want {
                break;
            }
            if c != a && !self.is_touched[c as usize] {
                keep_best(&mut seconds, want, s, c);
                untouched += 1;
            }
        }
        for &c in &self.touched {
            self.delta[c as usize] = 0;
            self.is_touched[c as usize] = false;
        }
        self.touched.clear();
        self.seconds = seconds;
    }

    /// Sorts `self.pairs` best first, drops duplicate spellings and keeps `width` of them.
    fn finish_pairs(&mut self, out: &mut Vec<Move>, width: usize) {
        // A pair reached from both of its stones keeps its higher score.
        self.pairs.sort_unstable_by(|x, y| x.1.cmp(&y.1).then(y.0.cmp(&x.0)));
        self.pairs.dedup_by(|later, earlier| later.1 == earlier.1);
        self.pairs.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        out.extend(self.pairs.iter().take(width).map(|&(_, m)| m));
    }

    /// Moves that touch every threat road of the opponent, or `Lost` when none can.
    fn defend(&mut self, board: &Board, out: &mut Vec<Move>) -> Situation {
        let turn = self.turn_stones(board);
        self.threats.collect(board, board.to_move().other());
        let mut blocks = std::mem::take(&mut self.blocks);
        self.threats.blocking_sets(turn, &mut blocks);
        self.pairs.clear();
        for b in &blocks {
            let base: i32 = b.stones().iter().map(|&c| self.score[c as usize]).sum();
            if b.stones().len() == turn {
                self.pairs.push((base, *b));
                continue;
            }
            // One stone blocks everything: the other is free, so try the best free cells.
            let a = b.stones()[0];
            self.best_seconds(board, a);
            for &(s, c) in &self.seconds {
                self.pairs.push((base + s, Move::pair(a, c)));
            }
        }
        self.blocks = blocks;
        if self.pairs.is_empty() {
            out.push(self.best_try(board, turn));
            return Situation::Lost;
        }
        self.finish_pairs(out, usize::MAX);
        Situation::Defend
    }

    /// In a lost position, the move that touches the most threat roads (for actual play).
    fn best_try(&self, board: &Board, turn: usize) -> Move {
        let mut cells: Vec<(usize, i32, Cell)> =
            self.candidates.iter().map(|&(s, c)| (self.threats.hits(c), s, c)).filter(|&(h, _, _)| h > 0).collect();
        cells.sort_unstable_by(|x, y| (y.0, y.1, x.2).cmp(&(x.0, x.1, y.2)));
        let mut stones: Vec<Cell> = cells.iter().map(|x| x.2).take(turn).collect();
        for &(_, c) in &self.candidates {
            if stones.len() >= turn {
                break;
            }
            if !stones.contains(&c) {
                stones.push(c);
            }
        }
        if stones.is_empty() {
            stones.extend((0..board.rules().cells() as Cell).find(|&c| board.is_empty_cell(c)));
        }
        Move::from_stones(&stones)
    }
}

/// Keeps the `want` best (score, cell) entries in `best`, sorted best first, ties by cell.
#[inline]
fn keep_best(best: &mut Vec<(i32, Cell)>, want: usize, score: i32, c: Cell) {
    let better = |x: &(i32, Cell)| score > x.0 || (score == x.0 && c < x.1);
    if best.len() == want {
        if !best.last().is_some_and(better) {
            return;
        }
        best.pop();
    }
    let at = best.iter().position(better).unwrap_or(best.len());
    best.insert(at, (score, c));
}

#[cfg(test)]
mod tests {
    use super::*;
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
        t.collect(&b, Colour::Black);
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
        let plain = MoveGen::new(MoveGenConfig::default(), &b);
        // j12 extends Black's j-column three and White, to move, scores it as a block.
        let c = b.cell(9, 11);
        let mut values = defaults.values().to_vec();
        values[CONNECT6_ROADS.index_of("move_block3").unwrap()] = 400;
        let tuned = Weights::from_values(&CONNECT6_ROADS, values).unwrap();
        let scoring = MoveScoring::from_weights(&tuned, 6);
        assert_eq!((scoring.block[3], scoring.own[6]), (400, MoveScoring::WIN));
        let steered = MoveGen::with_scoring(MoveGenConfig::default(), scoring, &b);
        let me = b.to_move();
        assert!(steered.score_cell(&b, me, c) > plain.score_cell(&b, me, c));
    }

    #[test]
    fn keep_best_keeps_the_top() {
        let mut v = Vec::new();
        for (s, c) in [(5, 9), (7, 3), (5, 2), (1, 1), (9, 8)] {
            keep_best(&mut v, 3, s, c);
        }
        assert_eq!(v, vec![(9, 8), (7, 3), (5, 2)]);
    }
}
