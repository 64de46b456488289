//! The move generator: wins, forced defences, candidate stones and pairs (its threat moves
//! are in `threat_moves.rs`).

use std::sync::Arc;

use super::class_weights::ClassWeights;
use super::ranked::{keep_best, Ranked, RankedMove};
use super::view::{BoardView, CLASS_HALF, ROAD_CLASSES};
use super::{Move, MoveGenConfig, MoveScoring, Situation, StoneScorer, ThreatSet};
use crate::games::connect::board::{Board, Cell, Colour, DIRECTIONS, MAX_K};

/// A reusable generator: scratch buffers live here so that generation does not allocate.
#[derive(Clone, Debug)]
pub struct MoveGen {
    pub config: MoveGenConfig,
    /// `value[mine * (k+1) + theirs]`: what a road with these counts gives a stone of "mine".
    pub(super) value: Vec<i32>,
    /// The same by road class: what a road of each class of the view's road-class
    /// histograms gives a stone of colour c, so that a cell's score, the generator's hottest
    /// function, is one dot product.
    pub(super) by_class: [ClassWeights; 2],
    /// Ranks the candidate stones in place of the cheap road score when an evaluation lends
    /// one (see [`StoneScorer`]).
    pub(super) stone_scorer: Option<Arc<dyn StoneScorer>>,
    /// The generator's view of the board it was last asked about.
    pub(super) view: BoardView,
    pub(super) k: usize,
    pub(super) score: Vec<i32>,
    /// Every candidate cell with its score; `candidates[..sorted]` is in the generator's
    /// order (best first) and every later one is below them.
    pub(super) candidates: Vec<Ranked>,
    pub(super) sorted: usize,
    pub(super) seconds: Vec<Ranked>,
    pub(super) pairs: Vec<RankedMove>,
    pub(super) threats: ThreatSet,
    pub(super) blocks: Vec<Move>,
    pub(super) threat_scratch: Vec<(usize, Move)>,
    /// Working lists of `threat_moves_for`: roads at their empty cells, single threat
    /// cells, candidate moves and the scored ones.
    pub(super) threat_roads: Vec<(Cell, u16)>,
    pub(super) threat_singles: Vec<Cell>,
    pub(super) threat_candidates: Vec<u32>,
    pub(super) threat_scored: Vec<u128>,
    /// The roads of `threat_roads` at each cell, and how many (none between calls).
    pub(super) threat_cell_roads: Vec<([u16; 4 * MAX_K], u8)>,
    /// How many of each cell's roads in `threat_cell_roads` are one stone short (none
    /// between calls).
    pub(super) threat_ones: Vec<u8>,
    /// Where the roads two stones short start in `threat_roads`.
    pub(super) two_short_from: usize,
    /// The last move found by [`wins_next_turn`](Self::wins_next_turn) for each colour
    /// (packed, 0 for none): the horizon nodes checked one after another are mostly siblings
    /// and cousins, and a move that wins in one of them mostly wins in the next.
    pub(super) win_hint: [u32; 2],
    /// The work of the last quiet first stage at each stone count (see [`StageSave`]).
    pub(super) stage_saves: Vec<StageSave>,
}

/// What a quiet position's first stage found that its whole generation finds again: the
/// scored candidates (the sorted prefix as far as it went) and the pairs of the first
/// stones. The search asks for the whole generation only after the first stage's moves were
/// searched, and their subtrees reuse the generator's lists, so the lists are kept here, by
/// the position (its stones in order) they hold for.
#[derive(Clone, Debug, Default)]
pub(super) struct StageSave {
    history: Vec<Cell>,
    candidates: Vec<Ranked>,
    sorted: usize,
    pairs: Vec<RankedMove>,
    firsts: usize,
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
            threat_cell_roads: vec![([0; 4 * MAX_K], 0); cells],
            threat_ones: vec![0; cells],
            two_short_from: 0,
            win_hint: [0; 2],
            stage_saves: Vec::new(),
        }
    }

    /// This generator with its candidate stones ranked by `scorer` (none: by the cheap road
    /// score).
    pub fn with_stone_scorer(mut self, scorer: Option<Arc<dyn StoneScorer>>) -> MoveGen {
        self.stone_scorer = scorer;
        self
    }

    #[inline]
    pub(super) fn road_value(&self, mine: usize, theirs: usize) -> i32 {
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
    pub(super) fn cell_score(&self, me: Colour, c: Cell) -> i32 {
        self.by_class[me.index()].dot(self.view.classes(c))
    }

    /// The score that ranks a candidate stone: the stone scorer's, else the cheap one.
    #[inline]
    pub(super) fn rank_score(&self, board: &Board, me: Colour, c: Cell) -> i32 {
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
        if !self.threats.can_block_with(self.turn_stones(board)) {
            Situation::Lost
        } else {
            Situation::Defend
        }
    }

    pub(super) fn turn_stones(&self, board: &Board) -> usize {
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
        let turn = self.turn_stones(board);
        if turn == 2 && board.threat_count(me.other()) == 0 {
            if let Some(firsts) = self.restore_stage(board) {
                // The pairs of the first stones are those of the first stage: only the rest
                // are made.
                self.pair_firsts_from(board, firsts, self.config.singles);
                self.finish_pairs(out, self.config.width);
                return Situation::Quiet;
            }
        }
        self.rank_candidates(board);
        if board.threat_count(me.other()) > 0 {
            return self.defend(board, out);
        }
        if turn == 1 {
            let n = self.sort_candidates(self.config.singles.max(1));
            out.extend(self.candidates[..n].iter().map(|r| Move::single(r.cell())));
            return Situation::Quiet;
        }
        self.pairs.clear();
        self.pair_firsts(board, self.config.singles);
        self.finish_pairs(out, self.config.width);
        Situation::Quiet
    }

    /// Adds to `self.pairs` the pairs of the best `firsts` candidates (ranked) with each
    /// one's best second stones.
    pub(super) fn pair_firsts(&mut self, board: &Board, firsts: usize) {
        self.pair_firsts_from(board, 0, firsts);
    }

    /// [`pair_firsts`](Self::pair_firsts) of the candidates ranked `from` up to `to`.
    fn pair_firsts_from(&mut self, board: &Board, from: usize, to: usize) {
        let firsts = self.sort_candidates(to);
        for i in from..firsts {
            let (sa, a) = (self.candidates[i].score(), self.candidates[i].cell());
            self.best_seconds(board, a);
            for j in 0..self.seconds.len() {
                let second = self.seconds[j];
                self.pairs.push(RankedMove::new(sa + second.score(), Move::pair(a, second.cell())));
            }
        }
    }

    /// Keeps the candidates and the pairs of the first `firsts` candidates, made in a quiet
    /// position's first stage, for its whole generation (see [`StageSave`]).
    pub(super) fn save_stage(&mut self, board: &Board, firsts: usize) {
        let n = board.stone_count();
        if self.stage_saves.len() <= n {
            self.stage_saves.resize_with(n + 1, StageSave::default);
        }
        let save = &mut self.stage_saves[n];
        save.history.clear();
        save.history.extend_from_slice(board.history());
        save.candidates.clear();
        save.candidates.extend_from_slice(&self.candidates);
        save.sorted = self.sorted;
        save.pairs.clear();
        save.pairs.extend_from_slice(&self.pairs);
        save.firsts = firsts;
    }

    /// Restores what the first stage of this very position kept, if it kept anything, and
    /// returns how many first stones' pairs it holds. The candidates' scores are written back
    /// to `score`, which later generations overwrote.
    fn restore_stage(&mut self, board: &Board) -> Option<usize> {
        let save = self.stage_saves.get(board.stone_count())?;
        if save.history != board.history() {
            return None;
        }
        self.candidates.clear();
        self.candidates.extend_from_slice(&save.candidates);
        self.sorted = save.sorted;
        for r in &self.candidates {
            self.score[r.cell() as usize] = r.score();
        }
        self.pairs.clear();
        self.pairs.extend_from_slice(&save.pairs);
        Some(save.firsts)
    }

    /// Scores every candidate cell (empty, within distance 2 of a stone; the centre on an
    /// empty board; every empty cell if none is near); [`sort_candidates`] orders them.
    pub(super) fn rank_candidates(&mut self, board: &Board) {
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
    pub(super) fn sort_candidates(&mut self, n: usize) -> usize {
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
    pub(super) fn best_seconds(&mut self, board: &Board, a: Cell) {
        if let Some(scorer) = self.stone_scorer.clone() {
            return self.best_seconds_by(board, a, &*scorer);
        }
        let k = self.k;
        let want = self.config.seconds.max(1);
        let mut seconds = std::mem::take(&mut self.seconds);
        seconds.clear();
        let touched = self.touched_seconds::<false>(board, a, &mut seconds);
        // Every other candidate keeps its score, and candidates are sorted best first: the
        // first `want` of them not on a's roads are the only ones that can make the cut.
        let geo = board.geometry();
        let [ax, ay] = geo.coords(a);
        let is_touched = |c: Cell| {
            let [cx, cy] = geo.coords(c);
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

    /// Adds to `seconds` the empty cells whose score first stone `a` changes (those on a
    /// road through `a` that `a` makes worth more or less), scored as if `a` were on the
    /// board; returns which cells of a's lines they are, by direction and offset from `a`
    /// (k - 1 + t). With `FRESH` every cell is scored from the view; without, a cell near a
    /// stone takes its score from the last [`rank_candidates`](Self::rank_candidates).
    pub(super) fn touched_seconds<const FRESH: bool>(
        &self,
        board: &Board,
        a: Cell,
        seconds: &mut Vec<Ranked>,
    ) -> [[bool; 2 * MAX_K - 1]; 4] {
        let me_colour = board.to_move();
        let me = me_colour.index();
        let k = self.k;
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
                let base = if !FRESH && self.view.is_near_stone(c) {
                    self.score[c as usize]
                } else {
                    self.cell_score(me_colour, c)
                };
                seconds.push(Ranked::new(base + sum, c));
            }
        }
        touched
    }

    /// [`best_seconds`](Self::best_seconds) by the stone scorer: the cells of `a`'s lines
    /// within the scorer's reach are scored again with `a` on the board.
    pub(super) fn best_seconds_by(&mut self, board: &Board, a: Cell, scorer: &dyn StoneScorer) {
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

    /// Adds to `seconds` the best candidates other than `a` whose score `a` leaves as it is
    /// (candidates are sorted best first, so only the first `want` of them can make the cut),
    /// then keeps the best `want` of all, best first. The cells of `seconds` are distinct.
    pub(super) fn add_untouched(
        &mut self,
        seconds: &mut Vec<Ranked>,
        a: Cell,
        want: usize,
        is_touched: impl Fn(Cell) -> bool,
    ) {
        let mut untouched = 0;
        let mut i = 0;
        while untouched < want && i < self.sort_candidates(i + 1) {
            let r = self.candidates[i];
            if r.cell() != a && !is_touched(r.cell()) {
                seconds.push(r);
                untouched += 1;
            }
            i += 1;
        }
        best_few(seconds, want);
    }

    /// Sorts `self.pairs` best first, drops duplicate spellings and keeps `width` of them.
    pub(super) fn finish_pairs(&mut self, out: &mut Vec<Move>, width: usize) {
        // A pair is reached from at most two of its stones, so the best `width` distinct
        // pairs are among the best `2 * width` entries: each pair above the last one kept
        // has at most two entries above it. Only those are sorted; a pair met again later
        // in the order is a lower-scored spelling of one already taken.
        let pairs = &mut self.pairs;
        let top = width.saturating_mul(2).min(pairs.len());
        if top < pairs.len() {
            pairs.select_nth_unstable(top);
        }
        let pairs = &mut pairs[..top];
        pairs.sort_unstable();
        let first = out.len();
        for p in pairs.iter() {
            if out.len() - first == width {
                break;
            }
            let m = p.get();
            if !out[first..].contains(&m) {
                out.push(m);
            }
        }
    }

    /// Moves that touch every threat road of the opponent, or `Lost` when none can.
    pub(super) fn defend(&mut self, board: &Board, out: &mut Vec<Move>) -> Situation {
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
    pub(super) fn best_try(&mut self, board: &Board, turn: usize) -> Move {
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

/// Keeps the best `n` of `cells`, best first: for a few, one pass that inserts a cell only
/// when it beats the last of the best so far (most do not); for more, one selection of the
/// few dozen cells rather than an insertion per cell. The cells are distinct, so the best
/// `n` are the same either way.
pub(super) fn best_few(cells: &mut Vec<Ranked>, n: usize) {
    /// The most cells kept by the pass.
    const FEW: usize = 4;
    if cells.len() > n && n <= FEW {
        if n == 0 {
            cells.clear();
            return;
        }
        // Above every real entry (a score's rank takes 32 bits above the cell's 16).
        let mut best = [Ranked::WORST; FEW];
        for &r in cells.iter() {
            if r < best[n - 1] {
                let mut i = n - 1;
                while i > 0 && best[i - 1] > r {
                    best[i] = best[i - 1];
                    i -= 1;
                }
                best[i] = r;
            }
        }
        cells.clear();
        cells.extend_from_slice(&best[..n]);
        return;
    }
    if cells.len() > n {
        cells.select_nth_unstable(n - 1);
        cells.truncate(n);
    }
    cells.sort_unstable();
}
