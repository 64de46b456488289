//! Surakarta: 6x6 points joined by two circuits of corner arcs ([`geometry`]); twelve pieces a
//! side on its two back rows. A move steps one piece to an empty neighbouring point (8
//! directions) or captures: the piece flies along a circuit over empty points (its own start
//! point counts as empty), through at least one corner arc, and lands on the first piece it
//! meets, which must be the opponent's. Captures are optional. The game ends when a side has
//! no pieces; or, decided by pieces left (more wins, equal draws), when a position comes back,
//! after 50 moves without a capture, or when the side to move cannot move ([`board`]).
//!
//! The engine searches with the shared PVS / alpha-beta / UCT; captures are generated and
//! searched first (history orders within captures and within steps). Its evaluation is a
//! weight table of material, mobility, attacks per circuit and placement ([`eval`]). It speaks
//! a small line protocol ([`protocol`]).
//!
//! ```
//! use evotune::core::game::{Game, Position, Status};
//! use evotune::games::surakarta::Surakarta;
//! let pos = Surakarta.replay(&["b2-b3", "e5-e4", "b3-b2", "e4-e5"]).unwrap();
//! assert!(matches!(pos.status(), Status::Draw { reason: "repetition" }));
//! ```

pub mod board;
pub mod eval;
pub mod geometry;
pub mod notation;
pub mod openings;
pub mod protocol;

use std::io::{BufRead, Write};

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::core::game::{Evaluate, Evaluation, Game, GameMove, Side, Status};
use crate::core::openings::{OpeningConfig, OpeningMaker};
use crate::core::settings::EngineSettings;
use crate::core::weights::Weights;
use crate::games::{BuiltIn, Descriptor, ProtocolOptions};
use crate::search::mcts::{for_first, win_probability};
use crate::search::{Engine, Exact, Playouts, Root, Searchable, TreeGame, TreeSearch, MATE, MAX_PLY};
use board::{Board, Move};
use eval::{FeatureEval, SURAKARTA_FEATURES};
use geometry::{CELLS, SIDE};

/// Surakarta.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Surakarta;

/// Surakarta's evaluations.
pub static SURAKARTA_EVALUATIONS: [Evaluation; 1] = [Evaluation {
    name: "features",
    schema: &SURAKARTA_FEATURES,
    doc: "material, mobility, attacks per circuit and placement (15 weights)",
    tunable: true,
}];

impl Game for Surakarta {
    type Position = Board;
    const NAME: &'static str = "surakarta";
    const TITLE: &'static str = "Surakarta";

    fn start(&self) -> Board {
        Board::start()
    }

    fn legal_moves(&self, pos: &Board, out: &mut Vec<Move>) {
        pos.legal_moves(out)
    }

    /// The capture flag is read from the board: a move onto a piece is a capture.
    fn parse_move(&self, pos: &Board, text: &str) -> Result<Move, String> {
        let (from, to) = notation::parse_points(text)?;
        Ok(if pos.at(to).is_some() { Move::capture(from, to) } else { Move::step(from, to) })
    }

    fn format_move(&self, _pos: &Board, m: Move) -> String {
        if m.is_none() {
            return "none".into();
        }
        notation::move_text(m.from(), m.to(), m.is_capture())
    }

    fn play_checked(&self, pos: &mut Board, m: Move) -> Result<(), String> {
        match pos.status() {
            Status::Ongoing => {}
            Status::Won { winner, reason } => {
                return Err(format!("the game is over: the {} player has won ({reason})", winner.name()))
            }
            Status::Draw { reason } => return Err(format!("the game is over: a draw ({reason})")),
        }
        if m.is_none() {
            return Err("no move given".into());
        }
        if pos.is_pseudo_legal(m) {
            pos.play(m);
            return Ok(());
        }
        let (from, to) = (notation::point_name(m.from()), notation::point_name(m.to()));
        let me = pos.to_move();
        Err(match pos.at(m.from()) {
            None => format!("{from} is empty; the {} player is to move", me.name()),
            Some(s) if s != me => format!("{from} holds a piece of the {} player, who is not to move", s.name()),
            Some(_) if pos.at(m.to()) == Some(me) => format!("{to} holds one of the mover's own pieces"),
            Some(_) if m.is_capture() => format!(
                "{from} cannot capture on {to}: a capture flies along a circuit over empty points, through at \
                 least one corner arc, to the first piece it meets"
            ),
            Some(_) => format!("{from} to {to} is not a step: a step goes to one of the 8 neighbouring points"),
        })
    }

    fn at_move_boundary(&self, pos: &Board) -> bool {
        !pos.status().is_over()
    }

    fn evaluations(&self) -> &'static [Evaluation] {
        &SURAKARTA_EVALUATIONS
    }
}

/// The key of a position up to its mirror image (columns reversed), which the circuits share:
/// the smaller of the two lists of (owner, point), then the side to move.
pub fn symmetric_key(board: &Board) -> Vec<u32> {
    let mirror = |c: usize| (c / SIDE) * SIDE + (SIDE - 1 - c % SIDE);
    let code = |f: &dyn Fn(usize) -> usize| -> Vec<u32> {
        let mut v: Vec<u32> = (0..CELLS)
            .map(|c| match board.at(f(c)) {
                None => 0,
                Some(Side::First) => 1,
                Some(Side::Second) => 2,
            })
            .collect();
        v.push(board.to_move().index() as u32);
        v
    };
    code(&|c| c).min(code(&mirror))
}

/// The search's working memory.
#[derive(Debug, Default)]
pub struct SurakartaGen {
    moves: Vec<Move>,
}

/// Plies a UCT playout plays before the evaluation judges.
const PLAYOUT_PLIES: usize = 12;

impl Searchable for Surakarta {
    type Eval = FeatureEval;
    type Searcher = TreeSearch<Surakarta>;

    fn evaluator(&self, eval: &str, weights: &Weights) -> FeatureEval {
        assert_eq!(weights.schema().game, Self::NAME, "a table of another game");
        assert_eq!(eval, "features", "Surakarta's only evaluation");
        FeatureEval::new(weights)
    }
}

impl TreeGame for Surakarta {
    type Gen = SurakartaGen;

    fn generator(&self, _settings: &EngineSettings, _weights: &Weights) -> SurakartaGen {
        SurakartaGen::default()
    }

    fn history_size(&self) -> usize {
        CELLS * CELLS
    }

    /// The end rules score exactly (a win at ply n is `MATE - n`); the horizon statically.
    #[inline]
    fn node_entry(_gen: &mut SurakartaGen, eval: &FeatureEval, pos: &Board, depth: i32, ply: usize) -> Result<(), i32> {
        match pos.status() {
            Status::Won { winner, .. } if winner == pos.to_move() => Err(MATE - ply as i32),
            Status::Won { .. } => Err(-(MATE - ply as i32)),
            Status::Draw { .. } => Err(0),
            Status::Ongoing if depth <= 0 || ply >= MAX_PLY => Err(eval.evaluate(pos)),
            Status::Ongoing => Ok(()),
        }
    }

    #[inline]
    fn generate(_gen: &mut SurakartaGen, pos: &Board, _depth: i32, out: &mut Vec<Move>) {
        pos.pseudo_moves(out);
    }

    fn root(_gen: &mut SurakartaGen, pos: &Board, out: &mut Vec<Move>) -> Root {
        pos.legal_moves(out);
        if out.is_empty() {
            Root::Decided(0)
        } else {
            Root::Open
        }
    }

    #[inline]
    fn playable(pos: &Board, m: Move) -> bool {
        pos.is_pseudo_legal(m)
    }
}

impl Playouts for Surakarta {
    fn exact(_gen: &mut SurakartaGen, pos: &Board) -> Option<Exact> {
        match pos.status() {
            Status::Ongoing => None,
            Status::Won { winner, .. } if winner == pos.to_move() => Some(Exact::Win(0)),
            Status::Won { .. } => Some(Exact::Loss(0)),
            Status::Draw { .. } => Some(Exact::Draw),
        }
    }

    /// A few plies of a greedy random policy (a capture when there is one, else a random
    /// move), then the evaluation's win probability; the game's end when it comes first.
    fn playout(gen: &mut SurakartaGen, eval: &FeatureEval, pos: &mut Board, rng: &mut ChaCha8Rng) -> f64 {
        let mut undo = Vec::with_capacity(PLAYOUT_PLIES);
        let mut result = None;
        for _ in 0..PLAYOUT_PLIES {
            match pos.status() {
                Status::Ongoing => {}
                Status::Won { winner, .. } => {
                    result = Some(for_first(1.0, winner));
                    break;
                }
                Status::Draw { .. } => {
                    result = Some(0.5);
                    break;
                }
            }
            pos.pseudo_moves(&mut gen.moves);
            let captures = gen.moves.iter().take_while(|m| m.is_capture()).count();
            let pick = if captures > 0 { rng.random_range(0..captures) } else { rng.random_range(0..gen.moves.len()) };
            undo.push(pos.play(gen.moves[pick]));
        }
        let first = result.unwrap_or_else(|| for_first(win_probability(eval.evaluate(pos)), pos.to_move()));
        while let Some(u) = undo.pop() {
            pos.undo(u);
        }
        first
    }
}

/// Positions `evotune bench` searches (record moves from the start): the first 8 to 14 moves
/// of self-play games of the default engine at depth 3 after 4 seeded random moves; both
/// sides to move, most with captures available.
pub const SURAKARTA_BENCH: &[&str] = &[
    "a2-b3 d5-d4 d2-e3 d6-d5 f2-f3 d5-c4 e1-d2 b5-b4",
    "a2-b3 d5-d4 d2-e3 d6-d5 f2-f3 d5-c4 e1-d2 b5-b4 e3-f4 f5-e4 e2xe4 d4xf4",
    "f2-e3 c5-b4 e2-d3 c6-c5 e1-e2 c5-c4 e3-f3 f5-e4 c2-b3 b4-c3 e2xe4",
    "e2-e3 d5-d4 a2-b3 d4-c4 c2-d3 c6-d5 b1-c2 c5-d4 b3-c3 c4xc3",
    "b2-c3 b5-b4 e2-e3 a5-a4 c2-d3 b6-b5 c1-b2 b4-c4 c3xc4",
    "d2-d3 b5-c4 f2-e3 a5-b4 e1-d2 b6-b5 e3-f3 b4-a4 a2-b3 b5xb3 c1xb3 c5xb3 b2-a3 d5-d4",
    "e2-d3 e5-e4 a2-a3 e4-e3 d1xe3 d6-e5 d2-c3 d5-d4 b2-b3 d4xd3 e1-d2 d3-d4 f2-e2",
];

impl Descriptor for Surakarta {
    fn board_size(&self) -> (usize, usize) {
        (SIDE, SIDE)
    }

    /// One piece moves a turn.
    fn stones_in_turns(&self, turns: usize) -> usize {
        turns
    }

    fn symmetric_key(&self, pos: &Board) -> Vec<u32> {
        symmetric_key(pos)
    }

    fn opening_maker(&self, config: &OpeningConfig) -> Box<dyn OpeningMaker> {
        Box::new(openings::SurakartaOpenings::new(config))
    }

    fn bench_positions(&self) -> &'static [&'static str] {
        SURAKARTA_BENCH
    }

    fn quick_config(&self) -> BuiltIn {
        BuiltIn { path: "configs/surakarta-quick.toml", text: include_str!("../../../configs/surakarta-quick.toml") }
    }

    fn play_protocol(
        &self,
        engine: &mut Engine<Self>,
        options: &ProtocolOptions,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
        err: &mut dyn Write,
    ) -> std::io::Result<()> {
        crate::games::line_protocol::run(engine, options, input, out, err)
    }
}
