//! Threat-space search for forced wins by continuous threats: in Connect6 by continuous
//! double threats (VCDT), the method that decides most games between strong programs (NCTU6,
//! Cloudict); in Gomoku by continuous fours (VCF), the same search with one-stone turns.
//!
//! The attacker only plays moves that leave threats needing as many stones to stop as the
//! defender places a turn (Connect6: double threats; Gomoku: fours), so the defender's every
//! stone is forced, and the defender's answers are exactly the sets of cells that touch every
//! threat road — a complete, small list. The attacker wins when a move leaves threats that
//! one turn cannot stop. When a block makes a counter-threat (or the search starts facing
//! one), the attacker must block it, and goes on only with blocks whose stones threaten
//! again: a block with a free stone that makes a double threat is the commonest way a
//! Connect6 attack turns round. A win found is a proof; a failure proves nothing.

use crate::games::connect::board::{Board, Colour};
use crate::games::connect::game::ConnectPosition;
use crate::games::connect::movegen::{Move, Situation, MAX_P};
use crate::games::connect::search::ConnectGen;
use crate::search::Clock;

/// Attacking moves tried per attacker node, best first.
const ATTACKS: usize = 12;

impl ConnectGen {
    /// A move of the side to move that wins by continuous double threats within `depth`
    /// attacking moves, looking at no more than `budget` positions (counted on `clock`), and
    /// the number of attacking moves of the win found (the shortest). Deterministic.
    pub fn vcdt<P: ConnectPosition>(
        &mut self,
        clock: &mut Clock,
        pos: &mut P,
        depth: u32,
        budget: u64,
    ) -> Option<(Move, u32)> {
        let limit = clock.nodes.saturating_add(budget).min(clock.node_limit);
        let mut found = Move::NONE;
        // Cleared so that a search that stops before listing its attacks reads as none.
        self.vcdt_scratch[0].clear();
        // Iterative deepening: the shortest win is found first, and shallow failures are cheap.
        for d in 1..=depth {
            if self.attack(clock, pos, d, limit, &mut found, 0) {
                return Some((found, d));
            }
            // No attacking move at all (the root's list is kept in the first scratch slot):
            // deeper iterations would find none either.
            if clock.nodes >= limit || clock.stopped || self.vcdt_scratch[0].is_empty() {
                break;
            }
        }
        None
    }

    /// The attacker (side to move) wins within `depth` attacking moves; `found` gets the
    /// first move at the root.
    fn attack<P: ConnectPosition>(
        &mut self,
        clock: &mut Clock,
        pos: &mut P,
        depth: u32,
        limit: u64,
        found: &mut Move,
        ply: usize,
    ) -> bool {
        if vcdt_tick(clock, limit) {
            return false;
        }
        let board = pos.board();
        let me = board.to_move();
        if board.threat_count(me) > 0 {
            // A threat road left after the defender's block: complete it.
            let mut moves = Vec::new();
            self.movegen.generate(board, &mut moves);
            *found = moves[0];
            return true;
        }
        if board.is_full() {
            return false;
        }
        // Deeper plies than the scratch holds share its last list (and allocate their own).
        let slot = ply.min(self.vcdt_scratch.len() - 1);
        let mut attacks = std::mem::take(&mut self.vcdt_scratch[slot]);
        // Threats the defender needs its whole turn for (Connect6: two stones; Gomoku: one).
        let forcing = board.rules().p as usize;
        let turn = board.turn_size();
        if board.threat_count(me.other()) > 0 {
            // The defender's block made threats of its own: the attacker must block them,
            // and goes on only with blocks that threaten again.
            self.counter_attacks(pos, forcing, &mut attacks);
        } else if depth == 1 && ply > 0 && turn == forcing {
            // The last attacking move of this iteration, below the root: only whether a move
            // leaves threats one turn cannot stop matters, not the ranked list (the root
            // keeps its list, which says whether deeper iterations have an attack at all).
            // That is the horizon's check, which stops at the first such move and skips the
            // pairs that cannot lift p + 1 threats; `found` is not read below the root.
            self.vcdt_scratch[slot] = attacks;
            return self.movegen.wins_next_turn(board);
        } else {
            self.movegen.threat_moves(board, forcing, &mut attacks);
        }
        let mut win = false;
        if let Some(&(need, m)) = attacks.first() {
            if need > turn {
                *found = m;
                win = true;
            }
        }
        if !win && depth > 1 {
            for &(_, m) in attacks.iter().take(ATTACKS) {
                let placed = pos.play(m);
                let holds = self.defend(clock, pos, depth - 1, limit, ply + 1);
                pos.undo(placed);
                if holds {
                    *found = m;
                    win = true;
                    break;
                }
                if clock.nodes >= limit || clock.stopped {
                    break;
                }
            }
        }
        self.vcdt_scratch[slot] = attacks;
        win
    }

    /// The moves of the side to move that block every threat road of its opponent and leave
    /// threats of its own needing at least `forcing` stones to stop, most needed first. A
    /// block of fewer stones than the turn is completed by a stone on a road one short of a
    /// threat (the only stones that can add one).
    fn counter_attacks<P: ConnectPosition>(&mut self, pos: &mut P, forcing: usize, out: &mut Vec<(usize, Move)>) {
        out.clear();
        let board = pos.board();
        let me = board.to_move();
        let turn = board.turn_size().min(board.rules().cells() - board.stone_count());
        let mut blocks = std::mem::take(&mut self.blocks);
        self.threats.collect(board, me.other());
        self.threats.blocking_sets(turn, &mut blocks);
        let mut free = Vec::new();
        for &block in &blocks {
            let stones = block.stones();
            for &c in stones {
                pos.place(c);
            }
            if stones.len() == turn {
                let need = self.blocks_against(pos.board(), me);
                if need >= forcing {
                    out.push((need, block));
                }
            } else if stones.len() + 1 == turn {
                let board = pos.board();
                free.clear();
                free.extend(board.near_threat_roads(me, 1).flat_map(|r| board.empty_cells_of_road(r)));
                free.sort_unstable();
                free.dedup();
                for &c in &free {
                    pos.place(c);
                    let need = self.blocks_against(pos.board(), me);
                    pos.unplace();
                    if need >= forcing {
                        let mut all = [c; MAX_P];
                        all[..stones.len()].copy_from_slice(stones);
                        out.push((need, Move::from_stones(&all[..turn])));
                    }
                }
            }
            for _ in stones {
                pos.unplace();
            }
        }
        self.blocks = blocks;
        out.sort_unstable_by_key(|&(need, m)| (std::cmp::Reverse(need), m));
        out.dedup();
    }

    /// The stones the opponent of `attacker` needs to touch every threat road of `attacker`,
    /// counted up to one more than a turn.
    fn blocks_against(&mut self, board: &Board, attacker: Colour) -> usize {
        self.threats.collect(board, attacker);
        self.threats.blocks_needed(board.rules().p as usize)
    }

    /// Every block of the defender (side to move) still loses to the attacker.
    fn defend<P: ConnectPosition>(
        &mut self,
        clock: &mut Clock,
        pos: &mut P,
        depth: u32,
        limit: u64,
        ply: usize,
    ) -> bool {
        if vcdt_tick(clock, limit) {
            return false;
        }
        let mut blocks = Vec::new();
        match self.movegen.generate(pos.board(), &mut blocks) {
            Situation::Lost => return true,
            Situation::Defend => {}
            // A win of the defender's own, or a quiet position (the threat was not real).
            _ => return false,
        }
        let mut ignored = Move::NONE;
        for &b in &blocks {
            let placed = pos.play(b);
            let lost = self.attack(clock, pos, depth, limit, &mut ignored, ply + 1);
            pos.undo(placed);
            if !lost {
                return false;
            }
        }
        true
    }
}

fn vcdt_tick(clock: &mut Clock, limit: u64) -> bool {
    if clock.nodes >= limit {
        return true;
    }
    clock.tick()
}

#[cfg(test)]
mod tests {
    use crate::core::settings::EngineSettings;
    use crate::games::connect::eval::CONNECT6_ROADS;
    use crate::games::connect::game::make_move;
    use crate::games::connect::movegen::ThreatSet;
    use crate::games::connect::notation::board_from_record_moves;
    use crate::games::connect::search::ConnectGen;
    use crate::games::connect::{Colour, Connect6, Rules};
    use crate::search::{Clock, Engine};

    fn engine() -> Engine<Connect6> {
        Engine::new(EngineSettings::default(), &CONNECT6_ROADS.defaults())
    }

    /// The threat-space search of a default engine: its generator and a fresh clock.
    struct Vcdt(ConnectGen, Clock);

    impl Vcdt {
        fn new() -> Vcdt {
            Vcdt(
                ConnectGen::new(Rules::CONNECT6, &EngineSettings::default(), &CONNECT6_ROADS.defaults()),
                Clock::unlimited(),
            )
        }

        fn vcdt(
            &mut self,
            b: &mut crate::games::connect::Board,
            depth: u32,
            budget: u64,
        ) -> Option<(crate::games::connect::movegen::Move, u32)> {
            self.0.vcdt(&mut self.1, b, depth, budget)
        }
    }

    #[test]
    fn two_open_threes_win_in_one_attack() {
        // Black: open threes c4 d4 e4 and c10 d10 e10; White's stones are scattered in
        // column s. f4 f10 (or any pair extending both) makes two open fours: four stones to
        // stop, so White is lost.
        let moves = ["d4", "s19s17", "c4e4", "s15s13", "c10d10", "s11s9", "e10a19", "s7s5"];
        let mut b = board_from_record_moves(Rules::CONNECT6, &moves).unwrap();
        assert_eq!(b.to_move(), Colour::Black);
        let mut e = Vcdt::new();
        let (m, _) = e.vcdt(&mut b, 1, 100_000).expect("a forced win");
        make_move(&mut b, m);
        let mut t = ThreatSet::default();
        t.collect(&b, Colour::Black);
        assert!(t.blocks_needed(2) > 2, "{m:?} leaves a blockable position");
    }

    /// Every win the threat search claims on positions from the tactical fixture is confirmed
    /// by a full-width PVS search of the position after it.
    #[test]
    fn claimed_wins_are_real() {
        let text = std::fs::read_to_string("tests/fixtures/connect6-tactics.jsonl").unwrap();
        let (mut claimed, mut counter) = (0, 0);
        for line in text.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let moves: Vec<String> =
                v["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect();
            let mut b = board_from_record_moves(Rules::CONNECT6, &moves).unwrap();
            // A side with a threat road wins at once: nothing to prove. Positions where the
            // side to move must block are kept: its win is a block that threatens again.
            if b.threat_count(b.to_move()) > 0 {
                continue;
            }
            let mut e = Vcdt::new();
            let blocking = b.threat_count(b.to_move().other()) > 0;
            if let Some((m, _)) = e.vcdt(&mut b, 3, 20_000) {
                claimed += 1;
                counter += blocking as usize;
                make_move(&mut b, m);
                let mut check = engine();
                check.new_game(0);
                let r = check.search(&mut b, &crate::core::limits::Limits::depth(5));
                assert!(r.score < -crate::search::MATE_BOUND, "{moves:?} + {m:?}: PVS says {}", r.score);
            }
        }
        assert!(claimed >= 10, "only {claimed} wins found");
        assert!(counter >= 1, "no win found by a block that threatens again");
    }

    /// From a game against Cloudict: White's `l10k11` made a threat, so Black must block. A
    /// block whose free stone makes a double threat starts a forced win (the move Cloudict
    /// played, `n11n8`, is one), which a search that gives up on the attacker's blocks missed.
    #[test]
    fn a_block_that_threatens_again_starts_a_win() {
        let moves = ["k9", "n7m8", "l9n9", "m7m9", "m10k8", "o7p7", "k7q7", "l10k11"];
        let mut b = board_from_record_moves(Rules::CONNECT6, &moves).unwrap();
        let black = b.to_move();
        assert_eq!(black, Colour::Black);
        assert!(b.threat_count(Colour::White) > 0, "White has a threat to block");
        let mut e = Vcdt::new();
        let (m, attacks) = e.vcdt(&mut b, 10, 100_000).expect("a forced win");
        assert!(attacks > 1, "not a win in one: {attacks}");
        make_move(&mut b, m);
        assert_eq!(b.threat_count(Colour::White), 0, "{m:?} leaves a White threat unblocked");
        let mut t = ThreatSet::default();
        t.collect(&b, black);
        assert_eq!(t.blocks_needed(2), 2, "{m:?} does not force White's whole turn");
    }

    #[test]
    fn no_win_is_claimed_in_a_quiet_opening() {
        let mut b = board_from_record_moves(Rules::CONNECT6, &["j10", "k11k9", "h8l12"]).unwrap();
        let mut e = Vcdt::new();
        assert_eq!(e.vcdt(&mut b, 4, 50_000), None);
    }
}
