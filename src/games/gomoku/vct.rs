//! Victory by continuous threats (VCT) for Gomoku: the threat-space search with threes as
//! well as fours.
//!
//! The root's search by continuous fours (VCF, `connect::vcdt`) only plays moves the defender
//! must answer on one cell. Most wins between strong players start earlier, with an open
//! three: a move after which the attacker has a move that leaves a live four (or two fours),
//! which one stone no longer stops. The defender then has a short, exact list of answers:
//! the cells of those winning moves and the other empty cells of the windows they would lift
//! to four (the list the tree's generator answers threes with, `movegen`), or a four of its
//! own, which the attacker must block before going on, and which may turn the attack round.
//! Every answer is tried, so a win found is a proof (within the rules of freestyle Gomoku);
//! a failure proves nothing.

use crate::games::connect::board::{Board, Cell, Colour};
use crate::games::connect::game::ConnectPosition;
use crate::games::connect::movegen::{Move, Situation};
use crate::games::connect::search::ConnectGen;
use crate::search::Clock;

mod known;
use known::Known;

/// Three-making moves tried per attacker node, best first by the generator's cheap score
/// (fours are all tried).
const THREES: usize = 8;

/// A move of the side to move that wins by continuous fours and threes within `depth`
/// attacking moves, visiting no more than `budget` positions (counted on `clock`), and the
/// number of attacking moves of the win found (the shortest). Deterministic.
pub fn vct<P: ConnectPosition>(
    gen: &mut ConnectGen,
    clock: &mut Clock,
    pos: &mut P,
    depth: u32,
    budget: u64,
) -> Option<(Move, u32)> {
    search_by_threats(gen, clock, pos, depth, budget, Known::for_positions(budget))
}

/// [`vct`] with the table `known` (the tests hold the table's verdicts against
/// `Known::none()`, the search as it was before the table).
fn search_by_threats<P: ConnectPosition>(
    gen: &mut ConnectGen,
    clock: &mut Clock,
    pos: &mut P,
    depth: u32,
    budget: u64,
    known: Known,
) -> Option<(Move, u32)> {
    let limit = clock.nodes.saturating_add(budget).min(clock.node_limit);
    let mut search = Vct { gen, clock, limit, known };
    for d in 1..=depth {
        let mut found = Move::NONE;
        if search.attack(pos, d, Some(&mut found)) {
            return Some((found, d));
        }
        if search.out_of_budget() {
            break;
        }
    }
    None
}

struct Vct<'a> {
    gen: &'a mut ConnectGen,
    clock: &'a mut Clock,
    limit: u64,
    /// Verdicts of the positions visited, kept across the deepening iterations.
    known: Known,
}

impl Vct<'_> {
    fn out_of_budget(&self) -> bool {
        self.clock.nodes >= self.limit || self.clock.stopped
    }

    /// Counts a position; true when the search must stop.
    fn tick(&mut self) -> bool {
        self.clock.nodes >= self.limit || self.clock.tick()
    }

    /// The attacker (side to move) wins within `depth` attacking moves; `found` gets the
    /// move that starts the win.
    fn attack<P: ConnectPosition>(&mut self, pos: &mut P, depth: u32, found: Option<&mut Move>) -> bool {
        if self.tick() {
            return false;
        }
        // The root needs its winning move, which the table does not keep.
        if found.is_some() {
            return self.search_attack(pos, depth, found);
        }
        let key = pos.board().hash();
        if let Some(won) = self.known.verdict(key, depth) {
            return won;
        }
        let won = self.search_attack(pos, depth, None);
        self.remember(key, depth, won);
        won
    }

    /// Records a verdict unless the budget cut the search that reached it short.
    fn remember(&mut self, key: u64, depth: u32, won: bool) {
        if won || !self.out_of_budget() {
            self.known.record(key, depth, won);
        }
    }

    /// [`attack`](Self::attack) searched.
    fn search_attack<P: ConnectPosition>(&mut self, pos: &mut P, depth: u32, found: Option<&mut Move>) -> bool {
        let board = pos.board();
        let me = board.to_move();
        let mut moves = Vec::new();
        match self.gen.movegen.generate(board, &mut moves) {
            Situation::Win => {
                if let Some(f) = found {
                    *f = moves[0];
                }
                return true;
            }
            Situation::Lost | Situation::Full => return false,
            Situation::Defend => {
                // The defender's four: the block is forced, and the attack goes on only if the
                // block itself threatens (the defender is to move again after it).
                return self.any_wins(pos, &moves, depth, found);
            }
            Situation::Quiet => {}
        }
        if depth == 0 {
            return false;
        }
        let attacks = self.attacks(pos, me);
        self.any_wins(pos, &attacks, depth - 1, found)
    }

    /// Whether one of the attacker's `moves`, in order, wins against every defence within
    /// `depth` further attacking moves; `found` gets the first that does.
    fn any_wins<P: ConnectPosition>(
        &mut self,
        pos: &mut P,
        moves: &[Move],
        depth: u32,
        found: Option<&mut Move>,
    ) -> bool {
        for &m in moves {
            let placed = pos.play(m);
            let wins = self.defend(pos, depth);
            pos.undo(placed);
            if wins {
                if let Some(f) = found {
                    *f = m;
                }
                return true;
            }
            if self.out_of_budget() {
                return false;
            }
        }
        false
    }

    /// The attacker's forcing moves in a quiet position: its fours (a winning one, making a
    /// live four or two fours, alone), then up to [`THREES`] moves that make a three.
    fn attacks<P: ConnectPosition>(&mut self, pos: &mut P, me: Colour) -> Vec<Move> {
        let mut fours = Vec::new();
        self.gen.movegen.threat_moves_for(pos.board(), me, 1, &mut fours);
        if let Some(&(need, m)) = fours.first() {
            if need >= 2 {
                return vec![m];
            }
        }
        let mut out: Vec<Move> = fours.iter().map(|&(_, m)| m).collect();
        // A three adds a stone to a window of five holding two of the attacker's stones and
        // none of the defender's.
        let board = pos.board();
        let mut cells: Vec<Cell> = board.near_threat_roads(me, 2).flat_map(|r| board.empty_cells_of_road(r)).collect();
        cells.sort_unstable();
        cells.dedup();
        cells.retain(|&c| !out.iter().any(|m| m.contains(c)));
        let mut scored: Vec<(i32, Cell)> =
            cells.into_iter().map(|c| (self.gen.movegen.score_cell(board, me, c), c)).collect();
        scored.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        let mut wins = Vec::new();
        let mut threes = 0;
        for (_, c) in scored {
            if threes == THREES {
                break;
            }
            pos.place(c);
            // A three: no four yet, but a move that one stone cannot stop.
            if pos.board().threat_count(me) == 0 {
                self.gen.movegen.threat_moves_for(pos.board(), me, 2, &mut wins);
                if !wins.is_empty() {
                    out.push(Move::single(c));
                    threes += 1;
                }
            }
            pos.unplace();
        }
        out
    }

    /// Every answer of the defender (side to move) to the attacker's threat still loses.
    fn defend<P: ConnectPosition>(&mut self, pos: &mut P, depth: u32) -> bool {
        if self.tick() {
            return false;
        }
        let key = pos.board().hash();
        if let Some(won) = self.known.verdict(key, depth) {
            return won;
        }
        let won = self.search_defend(pos, depth);
        self.remember(key, depth, won);
        won
    }

    /// [`defend`](Self::defend) searched.
    fn search_defend<P: ConnectPosition>(&mut self, pos: &mut P, depth: u32) -> bool {
        let board = pos.board();
        let me = board.to_move();
        let attacker = me.other();
        let mut moves = Vec::new();
        let answers = match self.gen.movegen.generate(board, &mut moves) {
            Situation::Lost => return true,
            // A five of the defender's own, or a full board.
            Situation::Win | Situation::Full => return false,
            // The attacker's four: the block is the only answer.
            Situation::Defend => moves,
            Situation::Quiet => {
                let mut theirs = Vec::new();
                self.gen.movegen.threat_moves_for(board, attacker, 2, &mut theirs);
                if theirs.is_empty() {
                    // The attacker's move threatened nothing: the defender is free.
                    return false;
                }
                three_answers(self.gen, board, &theirs)
            }
        };
        for m in answers {
            let placed = pos.play(m);
            let wins = self.attack(pos, depth, None);
            pos.undo(placed);
            if !wins {
                return false;
            }
        }
        true
    }
}

/// The defender's answers to the attacker's threes (`theirs`: the attacker's moves that one
/// stone would no longer stop): each such move's cell, the other empty cells of the windows
/// it would lift to four, and the defender's own fours. A stone anywhere else leaves one of
/// those moves as strong as it was.
fn three_answers(gen: &mut ConnectGen, board: &Board, theirs: &[(usize, Move)]) -> Vec<Move> {
    let me = board.to_move();
    let them = me.other();
    let level = board.rules().threat_level();
    let geo = board.geometry();
    let mut cells: Vec<Cell> = Vec::new();
    for &(_, m) in theirs {
        for &c in m.stones() {
            cells.push(c);
            for &r in geo.roads_through(c) {
                let n = board.road_counts(r as usize);
                if n[me.index()] == 0 && n[them.index()] as usize + 1 == level {
                    cells.extend(board.empty_cells_of_road(r as usize).filter(|&e| e != c));
                }
            }
        }
    }
    let mut fours = Vec::new();
    gen.movegen.threat_moves_for(board, me, 1, &mut fours);
    cells.extend(fours.iter().flat_map(|(_, m)| m.stones().iter().copied()));
    cells.sort_unstable();
    cells.dedup();
    cells.into_iter().map(Move::single).collect()
}

#[cfg(test)]
mod tests;
