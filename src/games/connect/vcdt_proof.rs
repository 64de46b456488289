//! A threat-space win kept as a proof, so that one search can refute many of the defender's
//! moves: the check for quiet moves asks, for each of the opponent's replies, whether every
//! answer loses to the threat-space search, and most answers do not touch the attack at all.
//!
//! The proof is the tree the search found: at each of the attacker's turns the move it
//! played (or how it won there), at each of the defender's turns every block the generator
//! lists, each with the attacker's proof after it. Its **relevance zone** is every cell the
//! proof placed a stone on and every empty cell of the windows it read: the attacker's
//! threat roads at each defender turn (the blocks are the sets of cells touching them all),
//! the road the attacker completes at the end, and, where the last attack was found by the
//! horizon's check (`wins_next_turn`), the attacker's roads one or two stones short of a
//! threat, from which that check builds its moves.
//!
//! A defender's answer whose stones all lie outside the zone, and that makes no threat of the
//! defender's own, cannot change what the proof read. The zone alone is not what makes the
//! reuse sound, though: the proof was found with the first answer's stones on the board, and
//! another answer leaves those cells empty and fills others, and a stone of the other answer
//! can join a block of the defender's deep in the proof to make a threat the proof never met.
//! So the proof is **replayed** on the other answer's own position: the attacker's recorded
//! moves are played, at each defender turn the blocks are listed afresh and each must be one
//! the proof answers, and every end is checked as the search checks it (a threat road to
//! complete, or no block of `p` stones). A replay that goes through is a threat-space proof
//! of that very position, as sound as a search's; one that does not proves nothing, and the
//! answer is searched as before. The zone only says which answers are worth replaying.

use crate::games::connect::board::{Board, Cell};
use crate::games::connect::game::ConnectPosition;
use crate::games::connect::movegen::{Move, Situation};
use crate::games::connect::search::ConnectGen;
use crate::search::Clock;

/// One turn of a proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ProofStep {
    /// The attacker has a threat road: it completes it.
    Complete,
    /// The attacker has a move leaving more threats than a turn blocks (the horizon's check
    /// found it; it is found again in a replay).
    WinsNextTurn,
    /// The attacker plays the move; the defender's turn after it is step `then`.
    Attack { m: Move, then: u32 },
    /// The defender faces threats no turn blocks.
    Unblockable,
    /// The defender's blocks, `count` edges from `first` in the proof's edges: each block with
    /// the attacker's step after it.
    Blocks { first: u32, count: u32 },
}

/// A threat-space win as a tree of turns (children before their parents), and its zone.
#[derive(Clone, Debug, Default)]
pub struct ThreatProof {
    pub(crate) steps: Vec<ProofStep>,
    pub(crate) edges: Vec<(Move, u32)>,
    /// The attacker's first turn.
    root: u32,
    /// The cells the proof depends on, one bit a cell.
    zone: Vec<u64>,
}

impl ThreatProof {
    /// Forgets everything: a new search starts.
    pub(crate) fn clear(&mut self) {
        self.steps.clear();
        self.edges.clear();
        self.root = 0;
        self.zone.clear();
    }

    /// Where the steps and edges end: the mark a failed attempt truncates back to.
    pub(crate) fn mark(&self) -> (usize, usize) {
        (self.steps.len(), self.edges.len())
    }

    pub(crate) fn truncate(&mut self, (steps, edges): (usize, usize)) {
        self.steps.truncate(steps);
        self.edges.truncate(edges);
    }

    /// Adds a step and returns its index.
    pub(crate) fn push(&mut self, step: ProofStep) -> u32 {
        self.steps.push(step);
        (self.steps.len() - 1) as u32
    }

    /// The index of the last step pushed (the step a successful search below just made).
    pub(crate) fn last(&self) -> u32 {
        debug_assert!(!self.steps.is_empty());
        (self.steps.len() - 1) as u32
    }

    /// Adds the defender's turn with these blocks and the attacker's step after each.
    pub(crate) fn push_blocks(&mut self, blocks: &[(Move, u32)]) -> u32 {
        let first = self.edges.len() as u32;
        self.edges.extend_from_slice(blocks);
        self.push(ProofStep::Blocks { first, count: blocks.len() as u32 })
    }

    /// The search found a win: its last step is the root.
    pub(crate) fn finish(&mut self) {
        self.root = self.last();
    }

    /// Turns in the proof.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Whether a cell is in the zone (computed by [`ConnectGen::mark_zone`]).
    pub fn in_zone(&self, c: Cell) -> bool {
        let (word, bit) = (c as usize / 64, c as usize % 64);
        self.zone.get(word).is_some_and(|w| w & (1 << bit) != 0)
    }

    /// Whether none of the move's stones is in the zone.
    pub fn avoids(&self, m: Move) -> bool {
        m.stones().iter().all(|&c| !self.in_zone(c))
    }

    fn add_to_zone(&mut self, c: Cell) {
        let (word, bit) = (c as usize / 64, c as usize % 64);
        self.zone[word] |= 1 << bit;
    }
}

impl ThreatProof {
    /// Marks the zone of the proof, walking it on the position it was found in (the attacker
    /// to move).
    pub fn mark_zone<P: ConnectPosition>(&mut self, pos: &mut P) {
        self.zone.clear();
        self.zone.resize(pos.board().rules().cells().div_ceil(64), 0);
        if !self.is_empty() {
            zone_of_attack(pos, self, self.root);
        }
    }
}

impl ConnectGen {
    /// Whether the proof holds in this position (the attacker to move): a replay of it, as
    /// described in the module documentation. Each turn replayed counts as a position on
    /// `clock`, up to `limit` positions in all; a replay stopped there proves nothing.
    pub fn replays<P: ConnectPosition>(
        &mut self,
        clock: &mut Clock,
        pos: &mut P,
        proof: &ThreatProof,
        limit: u64,
    ) -> bool {
        if proof.is_empty() {
            return false;
        }
        let limit = clock.nodes.saturating_add(limit).min(clock.node_limit);
        self.replay_attack(clock, pos, proof, proof.root, limit)
    }

    fn replay_attack<P: ConnectPosition>(
        &mut self,
        clock: &mut Clock,
        pos: &mut P,
        proof: &ThreatProof,
        step: u32,
        limit: u64,
    ) -> bool {
        if clock.nodes >= limit || clock.tick() {
            return false;
        }
        let board = pos.board();
        let me = board.to_move();
        // A threat road of the attacker's wins whatever the proof planned here.
        if board.threat_count(me) > 0 {
            return true;
        }
        if board.is_full() {
            return false;
        }
        match proof.steps[step as usize] {
            ProofStep::Complete => false,
            // As the search asks it: only where the defender has no threat to block.
            ProofStep::WinsNextTurn => {
                board.threat_count(me.other()) == 0
                    && board.turn_size() == board.rules().p as usize
                    && self.movegen.wins_next_turn(board)
            }
            ProofStep::Attack { m, then } => {
                if !playable_here(board, m) {
                    return false;
                }
                let placed = pos.play(m);
                let holds = self.replay_defence(clock, pos, proof, then, limit);
                pos.undo(placed);
                holds
            }
            ProofStep::Unblockable | ProofStep::Blocks { .. } => false,
        }
    }

    fn replay_defence<P: ConnectPosition>(
        &mut self,
        clock: &mut Clock,
        pos: &mut P,
        proof: &ThreatProof,
        step: u32,
        limit: u64,
    ) -> bool {
        if clock.nodes >= limit || clock.tick() {
            return false;
        }
        let mut blocks = Vec::new();
        match self.movegen.generate(pos.board(), &mut blocks) {
            Situation::Lost => return true,
            Situation::Defend => {}
            // The defender wins first, or the attacker's threats are gone.
            _ => return false,
        }
        let ProofStep::Blocks { first, count } = proof.steps[step as usize] else {
            return false;
        };
        let answered = &proof.edges[first as usize..(first + count) as usize];
        for &b in &blocks {
            let Some(&(_, next)) = answered.iter().find(|(m, _)| *m == b) else {
                // A block the proof never met.
                return false;
            };
            let placed = pos.play(b);
            let lost = self.replay_attack(clock, pos, proof, next, limit);
            pos.undo(placed);
            if !lost {
                return false;
            }
        }
        true
    }
}

/// The move's stones are empty cells and make a whole turn.
fn playable_here(board: &Board, m: Move) -> bool {
    !m.is_none()
        && m.stones().len() == board.turn_size().min(board.rules().cells() - board.stone_count())
        && m.stones().iter().all(|&c| board.is_empty_cell(c))
}

/// Adds the zone of the attacker's step (the attacker to move in `pos`).
fn zone_of_attack<P: ConnectPosition>(pos: &mut P, proof: &mut ThreatProof, step: u32) {
    let board = pos.board();
    let me = board.to_move();
    let cells: Vec<Cell> = match proof.steps[step as usize] {
        ProofStep::Complete => board.threat_roads(me).flat_map(|r| board.empty_cells_of_road(r)).collect(),
        ProofStep::WinsNextTurn => (1..=2)
            .flat_map(|need| board.near_threat_roads(me, need))
            .chain(board.threat_roads(me.other()))
            .flat_map(|r| board.empty_cells_of_road(r))
            .collect(),
        ProofStep::Attack { m, then } => {
            // The defender's threats the attack had to block are read too.
            let mut cells: Vec<Cell> =
                board.threat_roads(me.other()).flat_map(|r| board.empty_cells_of_road(r)).collect();
            cells.extend_from_slice(m.stones());
            if m.stones().iter().all(|&c| board.is_empty_cell(c)) {
                let placed = pos.play(m);
                zone_of_defence(pos, proof, then);
                pos.undo(placed);
            }
            cells
        }
        ProofStep::Unblockable | ProofStep::Blocks { .. } => Vec::new(),
    };
    for c in cells {
        proof.add_to_zone(c);
    }
}

/// Adds the zone of the defender's step (the defender to move in `pos`): the attacker's
/// threat roads, the blocks, and what follows each.
fn zone_of_defence<P: ConnectPosition>(pos: &mut P, proof: &mut ThreatProof, step: u32) {
    let board = pos.board();
    let attacker = board.to_move().other();
    let cells: Vec<Cell> = board.threat_roads(attacker).flat_map(|r| board.empty_cells_of_road(r)).collect();
    for c in cells {
        proof.add_to_zone(c);
    }
    if let ProofStep::Blocks { first, count } = proof.steps[step as usize] {
        for i in first..first + count {
            let (b, next) = proof.edges[i as usize];
            for &c in b.stones() {
                proof.add_to_zone(c);
            }
            if b.stones().iter().all(|&c| pos.board().is_empty_cell(c)) {
                let placed = pos.play(b);
                zone_of_attack(pos, proof, next);
                pos.undo(placed);
            }
        }
    }
}
