//! Threat moves: the moves that leave threats the opponent must answer with at least so
//! many stones (the generator's part of threat-space search), and whether the side to move
//! wins next turn.

use super::generator::MoveGen;
use super::ranked::{pack_pair, unpack_move};
use super::threats::{blocks_needed_from, gaps_after, NO_CELL};
use super::{Move, Situation, MAX_P};
use crate::games::connect::board::{Board, Cell, Colour, MAX_K};

impl MoveGen {
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
    /// one, and at least one of them short by one stone (see `threat_candidates`). The
    /// candidates are measured as they are found, in no particular order: the answer does
    /// not depend on it, and half the calls find a win among the first few.
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
        let min_blocks = opponent_turn + 1;
        // The last winning move first, measured from the board alone: when it still wins, the
        // index and the candidates are not needed (the answer does not depend on which
        // winning move is found).
        let hint = self.win_hint[me.index()];
        let (a, b) = ((hint >> 16) as Cell, hint as Cell);
        if b != 0
            && board.is_empty_cell(a)
            && board.is_empty_cell(b)
            && self.turn_stones(board) == 2
            && self.pair_blocks(board, me, a, b, min_blocks) >= min_blocks
        {
            return true;
        }
        let turn = self.index_threat_roads(board, me, min_blocks);
        let wins = self.find_threat_candidate(min_blocks, turn, |gen, packed| {
            let wins = gen.blocks_after(board, me, turn, packed, min_blocks) >= min_blocks;
            if wins {
                gen.win_hint[me.index()] = packed;
            }
            wins
        });
        self.clear_threat_index();
        wins
    }

    /// [`blocks_after`](Self::blocks_after) of the pair (a, b) of empty cells for `me` in a
    /// two-stone turn, measured from the board's road counts without the index: the roads the
    /// pair lifts to threats are those through a or b without an enemy stone that the
    /// stones in them bring to k - p.
    pub(super) fn pair_blocks(&mut self, board: &Board, me: Colour, a: Cell, b: Cell, min_blocks: usize) -> usize {
        let geo = board.geometry();
        let level = board.rules().threat_level();
        let (both_lo, both_hi) = if geo.share_a_road(a, b) { geo.roads_holding_both(a, b) } else { (1, 0) };
        let mut lifted = [0u16; 8 * MAX_K];
        let mut n = 0;
        let mut groups = [0u8; 8];
        for (i, s) in [a, b].into_iter().enumerate() {
            for &r in geo.roads_through(s) {
                let counts = board.road_counts(r as usize);
                if counts[me.other().index()] != 0 {
                    continue;
                }
                let in_other = (both_lo..=both_hi).contains(&r);
                if i == 1 && in_other {
                    continue;
                }
                if counts[me.index()] as usize + 1 + usize::from(in_other) >= level {
                    lifted[n] = r;
                    n += 1;
                    groups[(i * 4 + geo.road_direction[r as usize] as usize) % 8] += 1;
                }
            }
        }
        self.measure_lifted(board, &lifted[..n], &groups, &[a, b], min_blocks, 2)
    }

    /// Lists in `threat_candidates` (packed, sorted) the moves of `me` that may leave
    /// threats needing `min_blocks` stones, indexes the roads they can lift by cell (see
    /// [`index_threat_roads`](Self::index_threat_roads)), and returns the stones of `me`'s
    /// turn. Pair the call with [`clear_threat_index`](Self::clear_threat_index).
    pub(super) fn threat_candidates(&mut self, board: &Board, me: Colour, min_blocks: usize) -> usize {
        let turn = self.index_threat_roads(board, me, min_blocks);
        let mut moves = std::mem::take(&mut self.threat_candidates);
        moves.clear();
        self.find_threat_candidate(min_blocks, turn, |_, packed| {
            moves.push(packed);
            false
        });
        moves.sort_unstable();
        moves.dedup();
        self.threat_candidates = moves;
        turn
    }

    /// Indexes by cell the roads a turn of `me` can make threats of, and returns the stones
    /// of that turn. A stone can only make a threat in a road it lifts to k - p stones: the
    /// move's stones come from roads holding k - p - 1 (one stone is enough: their cells are
    /// the *singles*) or, for two-stone turns, both from one road holding k - p - 2. Each
    /// cell's roads are listed with those one stone short first, and `threat_ones` counts
    /// them. With `min_blocks` above 2, a road two stones short is listed only when one of
    /// its cells is a single (see `find_threat_candidate_in`: such moves have a single among
    /// their stones, and a road two stones short lifts a threat only with both stones in it).
    /// Pair the call with [`clear_threat_index`](Self::clear_threat_index).
    pub(super) fn index_threat_roads(&mut self, board: &Board, me: Colour, min_blocks: usize) -> usize {
        let turn = if me == board.to_move() { self.turn_stones(board) } else { board.rules().p as usize };
        let level = board.rules().threat_level();
        // The roads a turn can make threats of, listed at each of their empty cells: a move's
        // threats are among the roads listed at its stones.
        let mut at_cells = std::mem::take(&mut self.threat_roads);
        at_cells.clear();
        let mut singles = std::mem::take(&mut self.threat_singles);
        singles.clear();
        // Roads one stone short: each of their empty cells makes a threat alone.
        for r in board.near_threat_roads(me, 1) {
            for c in board.empty_cells_of_road(r) {
                at_cells.push((c, r as u16));
                if self.threat_ones[c as usize] == 0 {
                    singles.push(c);
                }
                self.threat_ones[c as usize] += 1;
            }
        }
        // Roads two stones short: a pair of their empty cells makes a threat.
        self.two_short_from = at_cells.len();
        if turn == 2 && level > 2 && min_blocks > 2 {
            // Only the roads through a single, found from the singles' roads (fewer than the
            // roads two short on most boards), each from the first single on it.
            let geo = board.geometry();
            let two_short = ((level - 2) as u8) << (4 * me.index());
            for &s in &singles {
                for &r in geo.roads_through(s) {
                    if board.road_state(r as usize) != two_short {
                        continue;
                    }
                    let cells = geo.road(r as usize);
                    if cells.iter().find(|&&c| self.threat_ones[c as usize] > 0) != Some(&s) {
                        continue;
                    }
                    at_cells.extend(cells.iter().filter(|&&c| board.is_empty_cell(c)).map(|&c| (c, r)));
                }
            }
        } else if turn == 2 && level > 2 {
            for r in board.near_threat_roads(me, 2) {
                at_cells.extend(board.empty_cells_of_road(r).map(|c| (c, r as u16)));
            }
        }
        // Each cell's roads, for `blocks_after` (a road is listed once at each of its cells,
        // and a cell is in at most 4 * k roads).
        for &(c, r) in &at_cells {
            let (roads, n) = &mut self.threat_cell_roads[c as usize];
            roads[*n as usize] = r;
            *n += 1;
        }
        singles.sort_unstable();
        self.threat_roads = at_cells;
        self.threat_singles = singles;
        turn
    }

    /// Calls `found` on the moves (packed, in no order; a move may come twice) that may leave
    /// threats needing `min_blocks` stones, by the index
    /// [`index_threat_roads`](Self::index_threat_roads) built, until it returns true; returns
    /// whether it did. A move is passed over when it cannot lift `min_blocks` roads: stone a
    /// lifts the roads one stone short listed at it (n1(a)), and a road two stones short only
    /// with both stones in it, so a pair lifts at most n1(a) + n1(b) + min(n2(a), n2(b)).
    pub(super) fn find_threat_candidate(
        &mut self,
        min_blocks: usize,
        turn: usize,
        mut found: impl FnMut(&mut MoveGen, u32) -> bool,
    ) -> bool {
        let at_cells = std::mem::take(&mut self.threat_roads);
        let singles = std::mem::take(&mut self.threat_singles);
        let stop = self.find_threat_candidate_in(&at_cells, &singles, min_blocks, turn, &mut found);
        self.threat_roads = at_cells;
        self.threat_singles = singles;
        stop
    }

    fn find_threat_candidate_in(
        &mut self,
        at_cells: &[(Cell, u16)],
        singles: &[Cell],
        min_blocks: usize,
        turn: usize,
        found: &mut impl FnMut(&mut MoveGen, u32) -> bool,
    ) -> bool {
        // The most roads a move can lift (see above).
        let lifts = |gen: &MoveGen, a: Cell, b: Option<Cell>| {
            let ones = |c: Cell| gen.threat_ones[c as usize] as usize;
            let twos = |c: Cell| gen.threat_cell_roads[c as usize].1 as usize - ones(c);
            match b {
                None => ones(a),
                Some(b) => ones(a) + ones(b) + twos(a).min(twos(b)),
            }
        };
        if turn == 1 {
            for &a in singles {
                if lifts(self, a, None) >= min_blocks && found(self, (a as u32) << 16) {
                    return true;
                }
            }
            return false;
        }
        // Pairs of singles.
        for (i, &a) in singles.iter().enumerate() {
            for &b in &singles[i + 1..] {
                if lifts(self, a, Some(b)) >= min_blocks && found(self, pack_pair(a, b)) {
                    return true;
                }
            }
        }
        // Pairs of a road two stones short with at most one single (two singles came above).
        // Threats made only of such roads all hold both stones, so they lie on the stones'
        // line, and two blocks stop them all (the nearest empty cell on either side of the
        // stones is in every one of them that has empty cells on that side): a move needing
        // three blocks therefore has a stone that lifts a road one stone short, and other
        // pairs are not tried then.
        let mut from = self.two_short_from;
        while from < at_cells.len() {
            let road = at_cells[from].1;
            let to = from + at_cells[from..].iter().take_while(|&&(_, r)| r == road).count();
            for (i, &(a, _)) in at_cells[from..to].iter().enumerate() {
                for &(b, _) in &at_cells[from + i + 1..to] {
                    let singles =
                        usize::from(self.threat_ones[a as usize] > 0) + usize::from(self.threat_ones[b as usize] > 0);
                    if singles < 2
                        && (min_blocks <= 2 || singles == 1)
                        && lifts(self, a, Some(b)) >= min_blocks
                        && found(self, pack_pair(a, b))
                    {
                        return true;
                    }
                }
            }
            from = to;
        }
        false
    }

    /// The stones needed to block every threat the packed move of `me` leaves (measured
    /// exactly from `min_blocks` up to `turn.max(2)`, more reported as one more), or a number
    /// below `min_blocks` when fewer stones stop them (0 when it leaves fewer threats than
    /// `min_blocks`, or threats that so few stones stop on the face of it). Reads the index
    /// [`threat_candidates`](Self::threat_candidates) built.
    pub(super) fn blocks_after(
        &mut self,
        board: &Board,
        me: Colour,
        turn: usize,
        packed: u32,
        min_blocks: usize,
    ) -> usize {
        let level = board.rules().threat_level();
        let m = unpack_move(packed);
        let stones = m.stones();
        // The roads the move lifts to k - p stones: a road holding both stones is listed at
        // both and counted once, with both.
        let cell_roads = &self.threat_cell_roads;
        let roads_at = |c: Cell| {
            let (roads, n) = &cell_roads[c as usize];
            &roads[..*n as usize]
        };
        let listed: [&[u16]; 2] = [roads_at(stones[0]), stones.get(1).map_or(&[], |&b| roads_at(b))];
        // Fewer threats than `min_blocks` can be stopped with fewer stones (one each).
        if listed[0].len() + listed[1].len() < min_blocks {
            return 0;
        }
        // The threat roads are counted before their empty cells are listed: most moves
        // leave too few.
        let mut lifted = [0u16; 8 * MAX_K];
        let mut n = 0;
        // The threats by stone and direction: those through the first stone, then those
        // through the second only.
        let mut groups = [0u8; 8];
        let direction = &board.geometry().road_direction;
        // Only stones on one line, close enough, have roads in common: those numbered
        // `both_lo..=both_hi` (see `Geometry::roads_holding_both`).
        let geo = board.geometry();
        let (both_lo, both_hi) = if stones.len() == 2 && geo.share_a_road(stones[0], stones[1]) {
            geo.roads_holding_both(stones[0], stones[1])
        } else {
            (1, 0)
        };
        for (i, roads) in listed.iter().enumerate() {
            for &r in roads.iter() {
                // A listed road holding both stones is listed at both (it lifts with both).
                let in_other = (both_lo..=both_hi).contains(&r);
                if i == 1 && in_other {
                    continue;
                }
                let hits = 1 + usize::from(in_other);
                if board.road_counts(r as usize)[me.index()] as usize + hits >= level {
                    lifted[n] = r;
                    n += 1;
                    groups[(i * 4 + direction[r as usize] as usize) % 8] += 1;
                }
            }
        }
        self.measure_lifted(board, &lifted[..n], &groups, stones, min_blocks, turn)
    }

    /// The end of [`blocks_after`](Self::blocks_after): the stones needed to block the
    /// `lifted` roads after `stones`, grouped by stone and direction in `groups`.
    fn measure_lifted(
        &mut self,
        board: &Board,
        lifted: &[u16],
        groups: &[u8; 8],
        stones: &[Cell],
        min_blocks: usize,
        turn: usize,
    ) -> usize {
        if lifted.len() < min_blocks {
            return 0;
        }
        // The threats through one stone in one direction lie on one line, and the nearest
        // empty cell on either side of the stone is in every one of them with an empty cell
        // on that side (it lies between that cell and the stone, and the cells between are
        // stones): two stones stop a group, one stone a group of one threat. Stopping all
        // groups so takes fewer than 3 stones in most moves that lift 3 threats or more
        // (most of them lie on one line), which spares listing their cells; fewer blocks
        // than that are measured below (up to 2 stones may be asked for exactly).
        if min_blocks > 2 && groups.iter().map(|&g| g.min(2) as usize).sum::<usize>() < min_blocks {
            return 0;
        }
        // The threats' empty cells, on the stack (at most 8 * MAX_K roads: the roads through
        // two stones).
        let (a, b) = (stones[0], stones.get(1).copied().unwrap_or(NO_CELL));
        let mut gaps = [[NO_CELL; MAX_P]; 8 * MAX_K];
        for (g, &r) in gaps.iter_mut().zip(lifted) {
            *g = gaps_after(board, r as usize, a, b);
        }
        // Counts below `min_blocks` are all "too few": only the budgets from min_blocks - 1
        // up are tried.
        blocks_needed_from(&gaps[..lifted.len()], min_blocks.saturating_sub(1), turn.max(2))
    }

    /// Empties the cell index [`threat_candidates`](Self::threat_candidates) built.
    pub(super) fn clear_threat_index(&mut self) {
        for &(c, _) in &self.threat_roads {
            self.threat_cell_roads[c as usize].1 = 0;
            self.threat_ones[c as usize] = 0;
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
}
