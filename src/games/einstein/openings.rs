//! EinStein's openings: both setups drawn at random (each of the 720 orders of a side's cubes
//! equally likely), then `turns - 2` steps, each on a random roll and drawn at random among the
//! roll's steps. The method (`played`, `random`) makes no difference: the setups are the
//! opening, and a setup has no "sensible" choice a one-move look could rank. Openings equal up
//! to the board's symmetry count once; one that ends the game is rejected.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::core::game::Position;
use crate::core::openings::{Attempt, OpeningConfig, OpeningMaker};
use crate::games::einstein::board::{Board, Move, Phase, SETUPS};
use crate::games::einstein::notation::move_text;
use crate::games::einstein::symmetric_key;

/// The opening maker of one setting.
pub struct EinsteinOpenings {
    turns: usize,
}

impl EinsteinOpenings {
    pub fn new(config: &OpeningConfig) -> EinsteinOpenings {
        EinsteinOpenings { turns: config.turns }
    }
}

impl OpeningMaker for EinsteinOpenings {
    fn attempt(&mut self, rng: &mut ChaCha8Rng) -> Attempt {
        let mut board = Board::start();
        let mut texts = Vec::new();
        for _ in 0..2 {
            let m = Move::setup(rng.random_range(0..SETUPS));
            texts.push(move_text(m));
            board.play(m);
        }
        let mut moves = Vec::new();
        for _ in 2..self.turns.max(2) {
            if board.status().is_over() {
                return Attempt::Threat;
            }
            board.roll(rng.random_range(1..=6));
            let Phase::Move(die) = board.phase() else { unreachable!("just rolled") };
            moves.clear();
            board.steps_for(die, &mut moves);
            let m = moves[rng.random_range(0..moves.len())];
            texts.push(move_text(m));
            board.play(m);
        }
        if board.status().is_over() {
            return Attempt::Threat;
        }
        Attempt::Made { key: symmetric_key(&board), moves: texts }
    }
}
