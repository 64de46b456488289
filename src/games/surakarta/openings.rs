//! Surakarta's openings: a few moves from the start, each drawn at random among all legal
//! moves (`random`) or among the `top` best by a one-move look with the default evaluation
//! (`played`). An opening that ends the game or leaves the side to move a capture is rejected
//! as a threat; one whose default evaluation is more than `balance` from even (say, a piece
//! already lost) as unbalanced. Openings that are mirror images count once.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::core::game::GameMove;
use crate::core::openings::{Attempt, OpeningConfig, OpeningMaker, OpeningMethod};
use crate::games::surakarta::board::{Board, Move};
use crate::games::surakarta::eval::{FeatureEval, SURAKARTA_FEATURES};
use crate::games::surakarta::notation::move_text;
use crate::games::surakarta::symmetric_key;

/// The opening maker of one setting.
pub struct SurakartaOpenings {
    config: OpeningConfig,
    eval: FeatureEval,
}

impl SurakartaOpenings {
    pub fn new(config: &OpeningConfig) -> SurakartaOpenings {
        SurakartaOpenings { config: *config, eval: FeatureEval::new(&SURAKARTA_FEATURES.defaults()) }
    }

    /// One of the `top` moves best for the mover after a one-move look (ties: generator order).
    fn played_move(&self, board: &mut Board, moves: &[Move], rng: &mut ChaCha8Rng) -> Move {
        let mut scored: Vec<(i32, Move)> = moves
            .iter()
            .map(|&m| {
                let u = board.play(m);
                let s = -self.eval.score(board);
                board.undo(u);
                (s, m)
            })
            .collect();
        scored.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        scored[rng.random_range(0..scored.len().min(self.config.top.max(1)))].1
    }
}

impl OpeningMaker for SurakartaOpenings {
    fn attempt(&mut self, rng: &mut ChaCha8Rng) -> Attempt {
        let mut board = Board::start();
        let mut texts = Vec::with_capacity(self.config.turns);
        let mut moves = Vec::new();
        for _ in 0..self.config.turns {
            board.legal_moves(&mut moves);
            if moves.is_empty() {
                return Attempt::Threat;
            }
            let m = match self.config.method {
                OpeningMethod::Random => moves[rng.random_range(0..moves.len())],
                OpeningMethod::Played => self.played_move(&mut board, &moves, rng),
            };
            texts.push(move_text(m.from(), m.to(), m.is_capture()));
            board.play(m);
        }
        board.legal_moves(&mut moves);
        if moves.is_empty() || moves.first().is_some_and(|m| !m.is_none() && m.is_capture()) {
            return Attempt::Threat;
        }
        let v = self.eval.score(&board).abs();
        if v > self.config.balance {
            return Attempt::Unbalanced(v);
        }
        Attempt::Made { key: symmetric_key(&board), moves: texts }
    }
}
