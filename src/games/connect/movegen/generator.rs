//! The move generator: wins, forced defences, candidate stones and pairs, threat moves.

use std::sync::Arc;

use super::view::{BoardView, CLASS_HALF, ROAD_CLASSES};
use super::{Move, MoveGenConfig, MoveScoring, Situation, StoneScorer, ThreatSet};
use crate::games::connect::board::{Board, Cell, Colour, DIRECTIONS, MAX_K};

/// Weights of the road classes, each split as `high * 2^15 + low` with both halves in i16,
/// so that the dot product with a histogram is two sums of i16 products (which x86's
/// baseline SSE2 does eight at a time, `pmaddwd`; it has no 32-bit vector multiply).
/// Exact for weights below 2^30 in magnitude, far beyond the schemas' bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ClassWeights {
    high: [i16; ROAD_CLASSES],
    low: [i16; ROAD_CLASSES],
}

impl ClassWeights {
    fn new(w: [i32; ROAD_CLASSES]) -> ClassWeights {
        assert!(w.iter().all(|v| v.unsigned_abs() < 1 << 30), "a move-order weight beyond 2^30");
        ClassWeights { high: w.map(|v| (v >> 15) as i16), low: w.map(|v| (v & 0x7FFF) as i16) }
    }

    /// The weighted sum of a road-class histogram (its bytes, little-endian).
    #[inline]
    #[cfg(target_arch = "x86_64")]
    fn dot(&self, counts: u128) -> i32 {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of the x86_64 baseline, so these intrinsics exist on every
        // x86_64 CPU; the loads are unaligned loads of 16-byte arrays that are in bounds.
        unsafe {
            let load = |a: &[i16; ROAD_CLASSES], half: usize| _mm_loadu_si128(a[half * 8..].as_ptr().cast());
            let bytes = _mm_loadu_si128((&counts as *const u128).cast());
            let zero = _mm_setzero_si128();
            let (first, second) = (_mm_unpacklo_epi8(bytes, zero), _mm_unpackhi_epi8(bytes, zero));
            let high =
                _mm_add_epi32(_mm_madd_epi16(first, load(&self.high, 0)), _mm_madd_epi16(second, load(&self.high, 1)));
            let low =
                _mm_add_epi32(_mm_madd_epi16(first, load(&self.low, 0)), _mm_madd_epi16(second, load(&self.low, 1)));
            let sum = _mm_add_epi32(_mm_slli_epi32(high, 15), low);
            let sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 0b01_00_11_10));
            let sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 0b10_11_00_01));
            _mm_cvtsi128_si32(sum)
        }
    }

    /// The weighted sum of a road-class histogram (its bytes, little-endian).
    #[inline]
    #[cfg(not(target_arch = "x86_64"))]
    fn dot(&self, counts: u128) -> i32 {
        self.dot_scalar(counts)
    }

    /// The same sum one product at a time: the portable version and the test oracle.
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))]
    fn dot_scalar(&self, counts: u128) -> i32 {
        let (mut high, mut low) = (0i32, 0i32);
        for ((&n, &h), &l) in counts.to_le_bytes().iter().zip(&self.high).zip(&self.low) {
            high += i32::from(h) * i32::from(n);
            low += i32::from(l) * i32::from(n);
        }
        (high << 15) + low
    }
}

/// A reusable generator: scratch buffers live here so that generation does not allocate.
#[derive(Clone, Debug)]
pub struct MoveGen {
    pub config: MoveGenConfig,
    /// `value[mine * (k+1) + theirs]`: what a road with these counts gives a stone of "mine".
    value: Vec<i32>,
    /// The same by road class: what a road of each class of the view's road-class
    /// histograms gives a stone of colour c, so that a cell's score, the generator's hottest
    /// function, is one dot product.
    by_class: [ClassWeights; 2],
    /// Ranks the candidate stones in place of the cheap road score when an evaluation lends
    /// one (see [`StoneScorer`]).
    stone_scorer: Option<Arc<dyn StoneScorer>>,
    /// The generator's view of the board it was last asked about.
    view: BoardView,
    k: usize,
    score: Vec<i32>,
    /// Every candidate cell with its score; `candidates[..sorted]` is in the generator's
    /// order (best first) and every later one is below them.
    candidates: Vec<Ranked>,
    sorted: usize,
    seconds: Vec<Ranked>,
    pairs: Vec<RankedMove>,
    threats: ThreatSet,
    blocks: Vec<Move>,
    threat_scratch: Vec<(usize, Move)>,
    /// Working lists of `threat_moves_for`: roads at their empty cells, single threat
    /// cells, candidate moves and the scored ones.
    threat_roads: Vec<(Cell, u16)>,
    threat_singles: Vec<Cell>,
    threat_candidates: Vec<u32>,
    threat_scored: Vec<u128>,
    /// Where each cell's roads are in `threat_roads` (empty ranges between calls).
    threat_cell_roads: Vec<(u32, u32)>,
    /// The cells of `threat_singles` while `threat_candidates` runs (all false between).
    threat_single: Vec<bool>,
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
        let by_class = Colour::BOTH.map(|me| {
            let mut w = [0; ROAD_CLASSES];
            let (mine, theirs) = (me.index() * CLASS_HALF, me.other().index() * CLASS_HALF);
            for n in 0..k {
                // Empty roads are in both halves of the histogram: count them once, as own.
                w[mine + n] = value[n * (k + 1)];
                if n > 0 {
                    w[theirs + n] = value[n];
                }
            }
            ClassWeights::new(w)
        });
        let cells = board.rules().cells();
        MoveGen {
            config,
            value,
            by_class,
            stone_scorer: None,
            view: BoardView::new(board),
            k,
            score: vec![0; cells],
            candidates: Vec::new(),
            sorted: 0,
            seconds: Vec::new(),
            pairs: Vec::new(),
            threats: ThreatSet::default(),
            blocks: Vec::new(),
            threat_scratch: Vec::new(),
            threat_roads: Vec::new(),
            threat_singles: Vec::new(),
            threat_candidates: Vec::new(),
            threat_scored: Vec::new(),
            threat_cell_roads: vec![(0, 0); cells],
            threat_single: vec![false; cells],
        }
    }

    /// This generator with its candidate stones ranked by `scorer` (none: by the cheap road
    /// score).
    pub fn with_stone_scorer(mut self, scorer: Option<Arc<dyn StoneScorer>>) -> MoveGen {
        self.stone_scorer = scorer;
        self
    }

    #[inline]
    fn road_value(&self, mine: usize, theirs: usize) -> i32 {
        self.value[mine * (self.k + 1) + theirs]
    }

    /// The cheap score of an empty cell for `me`: the sum over its roads of what a stone there
    /// adds to `me`'s road or takes from the opponent's.
    pub fn score_cell(&mut self, board: &Board, me: Colour, c: Cell) -> i32 {
        self.view.sync(board);
        self.cell_score(me, c)
    }

    /// [`score_cell`](Self::score_cell) in the position the view was last brought to.
    #[inline]
    fn cell_score(&self, me: Colour, c: Cell) -> i32 {
        self.by_class[me.index()].dot(self.view.classes(c))
    }

    /// The score that ranks a candidate stone: the stone scorer's, else the cheap one.
    #[inline]
    fn rank_score(&self, board: &Board, me: Colour, c: Cell) -> i32 {
        match &self.stone_scorer {
            Some(scorer) => scorer.stone_score(board, me, c, None),
            None => self.cell_score(me, c),
        }
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
        self.view.sync(board);
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
            let n = self.sort_candidates(self.config.singles.max(1));
            out.extend(self.candidates[..n].iter().map(|r| Move::single(r.cell())));
            return Situation::Quiet;
        }
        self.pairs.clear();
        let firsts = self.sort_candidates(self.config.singles);
        for i in 0..firsts {
            let (sa, a) = (self.candidates[i].score(), self.candidates[i].cell());
            self.best_seconds(board, a);
            for j in 0..self.seconds.len() {
                let second = self.seconds[j];
                self.pairs.push(RankedMove::new(sa + second.score(), Move::pair(a, second.cell())));
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
    /// tried once and measured exactly: the roads it lifts to k - p stones, then
    /// [`ThreatSet::blocks_needed`]).
    pub fn threat_moves(&mut self, board: &Board, min_blocks: usize, out: &mut Vec<(usize, Move)>) {
        self.threat_moves_for(board, board.to_move(), min_blocks, out)
    }

    /// [`threat_moves`](Self::threat_moves) of either side: for the side not to move, the
    /// moves of its next turn (of p stones) as if it were its turn now.
    pub fn threat_moves_for(&mut self, board: &Board, me: Colour, min_blocks: usize, out: &mut Vec<(usize, Move)>) {
        out.clear();
        self.view.sync(board);
        debug_assert_eq!(board.threat_count(me), 0, "the attacker already has a threat road");
        let turn = self.threat_candidates(board, me, min_blocks);
        let moves = std::mem::take(&mut self.threat_candidates);
        let mut scored = std::mem::take(&mut self.threat_scored);
        scored.clear();
        for &packed in &moves {
            let need = self.blocks_after(board, me, turn, packed, min_blocks);
            if need >= min_blocks {
                let cheap: i32 = unpack_move(packed).stones().iter().map(|&c| self.cell_score(me, c)).sum();
                // Most blocks needed first, then the higher cheap score, then the move.
                let rank =
                    (u64::from(u32::MAX - need as u32) << 32) | u64::from((i32::MAX as i64 - cheap as i64) as u32);
                scored.push((rank as u128) << 32 | packed as u128);
            }
        }
        self.clear_threat_index();
        scored.sort_unstable();
        out.extend(
            scored.iter().map(|&key| (u32::MAX as usize - (key >> 64) as u32 as usize, unpack_move(key as u32))),
        );
        self.threat_candidates = moves;
        self.threat_scored = scored;
    }

    /// Whether the side to move, in a position without threat roads, has a move leaving
    /// threats that the opponent's next turn cannot all block: a win two turns on. Stops at
    /// the first such move, and is cheap when there is none: such a move lifts at least
    /// p + 1 roads to threats, so the mover needs that many roads one or two stones short of
    /// one, and at least one of them short by one stone (see `threat_candidates`).
    pub fn wins_next_turn(&mut self, board: &Board) -> bool {
        let me = board.to_move();
        debug_assert_eq!(board.threat_count(me), 0, "the attacker already has a threat road");
        let opponent_turn = board.rules().p as usize;
        let one_short = board.near_threat_roads(me, 1).take(opponent_turn + 1).count();
        let two_short = if self.turn_stones(board) == 2 {
            board.near_threat_roads(me, 2).take(opponent_turn + 1).count()
        } else {
            0
        };
        if one_short == 0 || one_short + two_short <= opponent_turn {
            return false;
        }
        let turn = self.threat_candidates(board, me, opponent_turn + 1);
        let moves = std::mem::take(&mut self.threat_candidates);
        let wins =
            moves.iter().any(|&packed| self.blocks_after(board, me, turn, packed, opponent_turn + 1) > opponent_turn);
        self.clear_threat_index();
        self.threat_candidates = moves;
        wins
    }

    /// Lists in `threat_candidates` (packed, sorted) the moves of `me` that may leave
    /// threats needing `min_blocks` stones, indexes the roads they can lift by cell, and
    /// returns the stones of `me`'s turn. A stone can only make a threat in a road it lifts
    /// to k - p stones: the move's stones come from roads holding k - p - 1 (one stone is
    /// enough) or, for two-stone turns, both from one road holding k - p - 2. Pair the call
    /// with [`clear_threat_index`](Self::clear_threat_index).
    fn threat_candidates(&mut self, board: &Board, me: Colour, min_blocks: usize) -> usize {
        let turn = if me == board.to_move() { self.turn_stones(board) } else { board.rules().p as usize };
        let level = board.rules().threat_level();
        // The roads a turn can make threats of, listed at each of their empty cells: a move's
        // threats are among the roads listed at its stones.
        let mut at_cells = std::mem::take(&mut self.threat_roads);
        at_cells.clear();
        let mut singles = std::mem::take(&mut self.threat_singles);
        singles.clear();
        // Candidate moves as packed stones (first << 16 | second, second 0 for one stone),
        // whose integer order is the moves' order.
        let mut moves = std::mem::take(&mut self.threat_candidates);
        moves.clear();
        // Roads one stone short: each of their empty cells makes a threat alone.
        for r in board.near_threat_roads(me, 1) {
            let first = at_cells.len();
            at_cells.extend(board.empty_cells_of_road(r).map(|c| (c, r as u16)));
            for &(c, _) in &at_cells[first..] {
                singles.push(c);
                self.threat_single[c as usize] = true;
            }
        }
        // Roads two stones short: a pair of their empty cells makes a threat. Threats made
        // only of such roads all hold both stones, so they lie on the stones' line, and two
        // blocks stop them all (the nearest empty cell on either side of the stones is in
        // every one of them that has empty cells on that side): a move needing three blocks
        // therefore has a stone that lifts a road one stone short, and other pairs are not
        // listed then.
        if turn == 2 && level > 2 {
            for r in board.near_threat_roads(me, 2) {
                let first = at_cells.len();
                at_cells.extend(board.empty_cells_of_road(r).map(|c| (c, r as u16)));
                for i in first..at_cells.len() {
                    let a = at_cells[i].0;
                    for &(b, _) in &at_cells[i + 1..] {
                        if min_blocks <= 2 || self.threat_single[a as usize] || self.threat_single[b as usize] {
                            moves.push(pack_pair(a, b));
                        }
                    }
                }
            }
        }
        for &c in &singles {
            self.threat_single[c as usize] = false;
        }
        at_cells.sort_unstable();
        // Where each cell's roads are in `at_cells`, for `blocks_after`.
        let mut from = 0;
        while from < at_cells.len() {
            let c = at_cells[from].0;
            let to = from + at_cells[from..].iter().take_while(|&&(x, _)| x == c).count();
            self.threat_cell_roads[c as usize] = (from as u32, to as u32);
            from = to;
        }
        singles.sort_unstable();
        singles.dedup();
        if turn == 1 {
            moves.extend(singles.iter().map(|&a| (a as u32) << 16));
        } else {
            for (i, &a) in singles.iter().enumerate() {
                moves.extend(singles[i + 1..].iter().map(|&b| pack_pair(a, b)));
            }
        }
        moves.sort_unstable();
        moves.dedup();
        self.threat_roads = at_cells;
        self.threat_singles = singles;
        self.threat_candidates = moves;
        turn
    }

    /// The stones needed to block every threat the packed move of `me` leaves (measured
    /// exactly up to `turn.max(2)`, more reported as one more), or 0 when it leaves fewer
    /// threats than `min_blocks` (which fewer stones then stop). Reads the index
    /// [`threat_candidates`](Self::threat_candidates) built.
    fn blocks_after(&mut self, board: &Board, me: Colour, turn: usize, packed: u32, min_blocks: usize) -> usize {
        let level = board.rules().threat_level();
        let m = unpack_move(packed);
        let stones = m.stones();
        // The roads the move lifts to k - p stones: a road holding both stones is listed at
        // both and counted once, with both.
        let at_cells = &self.threat_roads;
        let cell_roads = &self.threat_cell_roads;
        let roads_at = |c: Cell| {
            let (from, to) = cell_roads[c as usize];
            &at_cells[from as usize..to as usize]
        };
        let listed: [&[(Cell, u16)]; 2] = [roads_at(stones[0]), stones.get(1).map_or(&[], |&b| roads_at(b))];
        // Fewer threats than `min_blocks` can be stopped with fewer stones (one each).
        if listed[0].len() + listed[1].len() < min_blocks {
            return 0;
        }
        let threats = &mut self.threats;
        threats.clear();
        for (i, roads) in listed.iter().enumerate() {
            for &(_, r) in roads.iter() {
                let in_other = listed[1 - i].iter().any(|&(_, q)| q == r);
                if i == 1 && in_other {
                    continue;
                }
                let hits = 1 + usize::from(in_other);
                if board.road_counts(r as usize)[me.index()] as usize + hits >= level {
                    threats.push_after(board, r as usize, stones);
                }
            }
        }
        if threats.len() < min_blocks {
            return 0;
        }
        threats.blocks_needed(turn.max(2))
    }

    /// Empties the cell index [`threat_candidates`](Self::threat_candidates) built.
    fn clear_threat_index(&mut self) {
        for &(c, _) in &self.threat_roads {
            self.threat_cell_roads[c as usize] = (0, 0);
        }
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
    /// empty board; every empty cell if none is near); [`sort_candidates`] orders them.
    fn rank_candidates(&mut self, board: &Board) {
        self.candidates.clear();
        self.sorted = 0;
        let me = board.to_move();
        if board.is_empty() {
            let c = board.cell(board.width() / 2, board.height() / 2);
            self.score[c as usize] = self.rank_score(board, me, c);
            self.candidates.push(Ranked::new(self.score[c as usize], c));
            return;
        }
        let cells = board.rules().cells() as Cell;
        for c in self.view.cells_near_stones() {
            if board.is_empty_cell(c) {
                let s = self.rank_score(board, me, c);
                self.score[c as usize] = s;
                self.candidates.push(Ranked::new(s, c));
            }
        }
        if self.candidates.is_empty() {
            for c in (0..cells).filter(|&c| board.is_empty_cell(c)) {
                let s = self.rank_score(board, me, c);
                self.score[c as usize] = s;
                self.candidates.push(Ranked::new(s, c));
            }
        }
    }

    /// Puts the best `n` candidates (or all there are) first, in order, and returns how many
    /// that is. Only a prefix is ever read in order (the first stones; in `best_seconds` the
    /// best `seconds` cells off a first stone's lines; in defences often none), so the order
    /// is made on demand, a few at a time: the rest is merely below the sorted part.
    fn sort_candidates(&mut self, n: usize) -> usize {
        /// Candidates sorted at a time beyond those asked for.
        const CHUNK: usize = 16;
        let n = n.min(self.candidates.len());
        if n > self.sorted {
            let rest = &mut self.candidates[self.sorted..];
            let more = (n - self.sorted).max(CHUNK).min(rest.len());
            if more < rest.len() {
                rest.select_nth_unstable(more - 1);
            }
            rest[..more].sort_unstable();
            self.sorted += more;
        }
        n
    }

    /// Fills `self.seconds` with the best second stones after first stone `a`, scored as if
    /// `a` were on the board: each road through `a` changes the value of its other cells.
    /// A cell shares roads with `a` only along one of `a`'s four lines, where its change is
    /// the sum over a window of those roads sliding along the line.
    fn best_seconds(&mut self, board: &Board, a: Cell) {
        if let Some(scorer) = self.stone_scorer.clone() {
            return self.best_seconds_by(board, a, &*scorer);
        }
        let me_colour = board.to_move();
        let me = me_colour.index();
        let k = self.k;
        let want = self.config.seconds.max(1);
        let mut seconds = std::mem::take(&mut self.seconds);
        seconds.clear();
        // Which cells of a's lines a changes, by direction and offset from a (k - 1 + t).
        let mut touched = [[false; 2 * MAX_K - 1]; 4];
        for (line, touched) in board.geometry().lines_through(a).iter().zip(&mut touched) {
            // What a's stone adds to each road's value for its other cells.
            let mut change = [0; MAX_K];
            for (d, &r) in change.iter_mut().zip(line.roads()) {
                let n = board.road_counts(r as usize);
                let (m, t) = (n[me] as usize, n[1 - me] as usize);
                if m + 1 < k {
                    *d = self.road_value(m + 1, t) - self.road_value(m, t);
                }
            }
            let roads = line.roads().len();
            let a_at = line.offset_of(a);
            let (mut sum, mut changed) = (0, 0);
            for (i, c) in line.cells(k).enumerate() {
                if i < roads {
                    sum += change[i];
                    changed += usize::from(change[i] != 0);
                }
                if i >= k {
                    sum -= change[i - k];
                    changed -= usize::from(change[i - k] != 0);
                }
                if changed == 0 || c == a || !board.is_empty_cell(c) {
                    continue;
                }
                // Cells on a's roads: their score changes with a. Candidates were scored
                // already; cells far from every other stone were not.
                touched[i + k - 1 - a_at] = true;
                let base =
                    if self.view.is_near_stone(c) { self.score[c as usize] } else { self.cell_score(me_colour, c) };
                keep_best(&mut seconds, want, Ranked::new(base + sum, c));
            }
        }
        // Every other candidate keeps its score, and candidates are sorted best first: the
        // first `want` of them not on a's roads are the only ones that can make the cut.
        let (ax, ay) = board.xy(a);
        let is_touched = |c: Cell| {
            let (cx, cy) = board.xy(c);
            let (dx, dy) = (cx as isize - ax as isize, cy as isize - ay as isize);
            let (dir, t) = match (dx, dy) {
                (_, 0) => (0, dx),
                (0, _) => (1, dy),
                _ if dx == dy => (2, dx),
                _ if dx == -dy => (3, dx),
                _ => return false,
            };
            t.unsigned_abs() < k && touched[dir][(t + k as isize - 1) as usize]
        };
        self.add_untouched(&mut seconds, a, want, is_touched);
        self.seconds = seconds;
    }

    /// [`best_seconds`](Self::best_seconds) by the stone scorer: the cells of `a`'s lines
    /// within the scorer's reach are scored again with `a` on the board.
    fn best_seconds_by(&mut self, board: &Board, a: Cell, scorer: &dyn StoneScorer) {
        let me = board.to_move();
        let want = self.config.seconds.max(1);
        let reach = scorer.reach() as i32;
        let mut seconds = std::mem::take(&mut self.seconds);
        seconds.clear();
        let (ax, ay) = board.xy(a);
        let (w, h) = (board.width() as i32, board.height() as i32);
        for (dx, dy) in DIRECTIONS {
            for t in (-reach..=reach).filter(|&t| t != 0) {
                let (x, y) = (ax as i32 + t * dx, ay as i32 + t * dy);
                if x < 0 || x >= w || y < 0 || y >= h {
                    continue;
                }
                let c = board.cell(x as usize, y as usize);
                if board.is_empty_cell(c) {
                    keep_best(&mut seconds, want, Ranked::new(scorer.stone_score(board, me, c, Some(a)), c));
                }
            }
        }
        let is_touched = |c: Cell| {
            let (cx, cy) = board.xy(c);
            let (dx, dy) = (cx as i32 - ax as i32, cy as i32 - ay as i32);
            (dx == 0 || dy == 0 || dx.abs() == dy.abs()) && dx.abs().max(dy.abs()) <= reach
        };
        self.add_untouched(&mut seconds, a, want, is_touched);
        self.seconds = seconds;
    }

    /// Adds to `seconds` the best candidates other than `a` whose score `a` leaves as it is:
    /// candidates are sorted best first, so only the first `want` of them can make the cut.
    fn add_untouched(&mut self, seconds: &mut Vec<Ranked>, a: Cell, want: usize, is_touched: impl Fn(Cell) -> bool) {
        let mut untouched = 0;
        let mut i = 0;
        while untouched < want && i < self.sort_candidates(i + 1) {
            let r = self.candidates[i];
            if r.cell() != a && !is_touched(r.cell()) {
                keep_best(seconds, want, r);
                untouched += 1;
            }
            i += 1;
        }
    }

    /// Sorts `self.pairs` best first, drops duplicate spellings and keeps `width` of them.
    fn finish_pairs(&mut self, out: &mut Vec<Move>, width: usize) {
        // A pair reached from both of its stones keeps its higher score: by move, the best
        // spelling comes first.
        for p in self.pairs.iter_mut() {
            *p = p.by_move();
        }
        self.pairs.sort_unstable();
        self.pairs.dedup_by_key(|p| p.move_bits());
        for p in self.pairs.iter_mut() {
            *p = p.by_score();
        }
        self.pairs.sort_unstable();
        out.extend(self.pairs.iter().take(width).map(|p| p.get()));
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
                self.pairs.push(RankedMove::new(base, *b));
                continue;
            }
            // One stone blocks everything: the other is free, so try the best free cells.
            let a = b.stones()[0];
            self.best_seconds(board, a);
            for second in &self.seconds {
                self.pairs.push(RankedMove::new(base + second.score(), Move::pair(a, second.cell())));
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
    fn best_try(&mut self, board: &Board, turn: usize) -> Move {
        let mut cells: Vec<(usize, i32, Cell)> = self
            .candidates
            .iter()
            .map(|r| (self.threats.hits(r.cell()), r.score(), r.cell()))
            .filter(|&(h, _, _)| h > 0)
            .collect();
        cells.sort_unstable_by(|x, y| (y.0, y.1, x.2).cmp(&(x.0, x.1, y.2)));
        let mut stones: Vec<Cell> = cells.iter().map(|x| x.2).take(turn).collect();
        let n = self.sort_candidates(2 * turn);
        for c in self.candidates[..n].iter().map(|r| r.cell()) {
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

/// A candidate cell and its score, packed so that integer order is the generator's order:
/// the higher score first, ties by the lower cell (a position's moves do not depend on how
/// they were found).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Ranked(u64);

impl Ranked {
    #[inline]
    pub(super) fn new(score: i32, c: Cell) -> Ranked {
        Ranked(((i32::MAX as i64 - score as i64) as u64) << 16 | c as u64)
    }

    #[inline]
    pub(super) fn score(self) -> i32 {
        (i32::MAX as i64 - (self.0 >> 16) as i64) as i32
    }

    #[inline]
    pub(super) fn cell(self) -> Cell {
        self.0 as Cell
    }
}

/// A move of one or two stones and its score, packed so that integer order is either "best
/// first, ties by move" ([`by_score`](Self::by_score)) or "by move, its best score first"
/// ([`by_move`](Self::by_move)): the move in 32 bits (first stone, then second, 0 for
/// none: a pair's second stone is never 0), the score's rank in the other 32.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct RankedMove(u64);

impl RankedMove {
    /// Ordered by score.
    #[inline]
    fn new(score: i32, m: Move) -> RankedMove {
        let rank = (i32::MAX as i64 - score as i64) as u64;
        let stones = m.stones();
        let bits = (stones[0] as u64) << 16 | stones.get(1).map_or(0, |&b| b as u64);
        RankedMove(rank << 32 | bits)
    }

    #[inline]
    fn by_move(self) -> RankedMove {
        RankedMove(self.0.rotate_left(32))
    }

    #[inline]
    fn by_score(self) -> RankedMove {
        self.by_move()
    }

    /// The move, in a value ordered by move.
    #[inline]
    fn move_bits(&self) -> u64 {
        self.0 >> 32
    }

    /// The move of a value ordered by score.
    #[inline]
    fn get(self) -> Move {
        let (a, b) = ((self.0 >> 16) as Cell, self.0 as Cell);
        if b == 0 {
            Move::single(a)
        } else {
            Move::pair(a, b)
        }
    }
}

/// A pair of stones packed as one integer ordered like [`Move`]s: the lower stone first.
#[inline]
fn pack_pair(a: Cell, b: Cell) -> u32 {
    (u32::from(a.min(b)) << 16) | u32::from(a.max(b))
}

/// The move of [`pack_pair`] (or of a single stone `a << 16`: a pair's second stone is
/// never 0).
#[inline]
fn unpack_move(packed: u32) -> Move {
    let (a, b) = ((packed >> 16) as Cell, packed as Cell);
    if b == 0 {
        Move::single(a)
    } else {
        Move::pair(a, b)
    }
}

/// Keeps the `want` best candidates in `best`, best first.
#[inline]
pub(super) fn keep_best(best: &mut Vec<Ranked>, want: usize, r: Ranked) {
    if best.len() == want {
        if best.last().is_none_or(|&last| r >= last) {
            return;
        }
        best.pop();
    }
    best.push(r);
    let mut i = best.len() - 1;
    while i > 0 && best[i - 1] > r {
        best.swap(i - 1, i);
        i -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn the_vector_dot_product_is_the_scalar_one() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for _ in 0..2000 {
            // Weights up to 2^22 and 24 roads a cell: sums within i32, as the schemas keep them.
            let w = ClassWeights::new(std::array::from_fn(|_| rng.random_range(-(1 << 22)..(1 << 22))));
            let counts = u128::from_le_bytes(std::array::from_fn(|_| rng.random_range(0..=24)));
            assert_eq!(w.dot(counts), w.dot_scalar(counts));
        }
    }
}
