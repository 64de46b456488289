//! EinStein würfelt nicht ("Einstein does not play dice"): 5x5, six numbered cubes a side in
//! opposite corner triangles, a die picks which cube moves ([`board`] has the rules, [`notation`]
//! the record format). The game has chance: a game is a pure function of the players, the
//! setups and the seed of its dice, and paired games share their dice.
//!
//! The engine's searches know the die ([`search`]): UCT with chance nodes and playouts to the
//! end, random (`plain`) or pruned by the dynamic hybrid evaluation (`hybrid`, [`eval`], after
//! Song Yingjian et al. 2022), and an expectimax over the same evaluation.
//!
//! ```
//! use evotune::core::game::{Game, Position, Status};
//! use evotune::games::einstein::Einstein;
//! // Red's cube 5 walks b4-c3-d2 (taking blue's cube 2) and reaches the corner e1.
//! let pos = Einstein.replay(&["123456", "654321", "5:b4c3", "1:e3d3", "5:c3d2", "1:d3c3", "5:d2e1"]).unwrap();
//! assert!(matches!(pos.status(), Status::Won { reason: "corner", .. }));
//! ```

pub mod board;
pub mod engine;
pub mod eval;
pub mod expectimax;
pub mod notation;
pub mod openings;
pub mod playouts;
pub mod protocol;
pub mod search;

use std::io::{BufRead, Write};

use crate::core::game::{Evaluation, Game, GameMove, Position, Side, Status};
use crate::core::openings::{OpeningConfig, OpeningMaker};
use crate::core::weights::Weights;
use crate::games::{BuiltIn, Descriptor, ProtocolOptions};
use crate::search::{Engine, Searchable};
use board::{Board, Move, Phase, SIDE, SQUARES};
use eval::{HybridEval, EINSTEIN_HYBRID};

/// EinStein würfelt nicht.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Einstein;

/// EinStein's evaluations: the hybrid evaluation, and `plain`, which reads the same table
/// but plays random playouts (the paper's plain MCTS; its expectimax uses the table).
pub static EINSTEIN_EVALUATIONS: [Evaluation; 10] = [
    Evaluation {
        name: "hybrid",
        schema: &EINSTEIN_HYBRID,
        doc: "dynamic hybrid evaluation: distance values, selection probabilities, attack and threat (10 weights)",
        tunable: true,
    },
    Evaluation {
        name: "plain",
        schema: &EINSTEIN_HYBRID,
        doc: "plain MCTS: random playouts (the table only scores expectimax leaves)",
        tunable: false,
    },
    Evaluation {
        name: "tree",
        schema: &EINSTEIN_HYBRID,
        doc: "MCTS whose tree nodes keep only the steps the hybrid evaluation does not prune; random playouts",
        tunable: true,
    },
    Evaluation {
        name: "paper",
        schema: &EINSTEIN_HYBRID,
        doc: "the paper's Monte Carlo: --nodes playouts per root step the evaluation keeps, pruned playouts",
        tunable: true,
    },
    Evaluation {
        name: "paper-plain",
        schema: &EINSTEIN_HYBRID,
        doc: "the paper's plain Monte Carlo: --nodes random playouts per root step",
        tunable: false,
    },
    Evaluation {
        name: "paper-root",
        schema: &EINSTEIN_HYBRID,
        doc: "the paper's Monte Carlo pruning the root steps only: --nodes random playouts per root step kept",
        tunable: true,
    },
    Evaluation {
        name: "guard",
        schema: &EINSTEIN_HYBRID,
        doc: "MCTS with the evaluation in the tree only (as tree) and cheap playouts: take a win, take an enemy cube \
              about to win, take no own cube",
        tunable: true,
    },
    Evaluation {
        name: "paper-guard",
        schema: &EINSTEIN_HYBRID,
        doc: "the paper's Monte Carlo with the evaluation at the root only (--nodes playouts per root step it keeps) and \
              guard's cheap playouts",
        tunable: true,
    },
    Evaluation {
        name: "lean",
        schema: &EINSTEIN_HYBRID,
        doc: "MCTS with hybrid's pruned playouts scored without the capture-risk term, by table lookups (about the \
              cost of random playouts)",
        tunable: true,
    },
    Evaluation {
        name: "paper-lean",
        schema: &EINSTEIN_HYBRID,
        doc: "the paper's Monte Carlo: --nodes playouts per root step the evaluation keeps, lean's playouts",
        tunable: true,
    },
];

impl Game for Einstein {
    type Position = Board;
    const NAME: &'static str = "einstein";
    const TITLE: &'static str = "EinStein würfelt nicht";

    fn start(&self) -> Board {
        Board::start()
    }

    fn legal_moves(&self, pos: &Board, out: &mut Vec<Move>) {
        pos.legal_moves(out)
    }

    fn parse_move(&self, _pos: &Board, text: &str) -> Result<Move, String> {
        notation::parse_move(text)
    }

    fn format_move(&self, _pos: &Board, m: Move) -> String {
        notation::move_text(m)
    }

    /// A step played on a position waiting for its roll brings its roll with it (records
    /// write the roll with each step): the roll is made, then the step.
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
        let me = pos.to_move().name();
        if m.is_roll() {
            return match pos.phase() {
                Phase::Roll => {
                    pos.play(m);
                    Ok(())
                }
                _ => Err("the die is not to be rolled now".into()),
            };
        }
        let mut rolled = false;
        match (pos.phase(), m.is_setup()) {
            (Phase::Setup, false) => return Err(format!("the {me} player must place its cubes first, like `351624`")),
            (Phase::Roll | Phase::Move(_), true) => return Err("the cubes are already placed".into()),
            (Phase::Roll, false) => {
                pos.roll(m.die());
                rolled = true;
            }
            (Phase::Move(die), false) if die != m.die() => {
                return Err(format!("the roll is {die}, not {}", m.die()));
            }
            _ => {}
        }
        if pos.is_legal(m) {
            pos.play(m);
            return Ok(());
        }
        let Phase::Move(die) = pos.phase() else { unreachable!("a step's roll is made above") };
        let mut legal = Vec::new();
        pos.steps_for(die, &mut legal);
        if rolled {
            // A refused move changes nothing, its roll included.
            pos.unroll();
        }
        let texts: Vec<String> = legal.iter().map(|&l| notation::move_text(l)).collect();
        Err(format!(
            "{} is not a move of the {me} player on a roll of {die}; the moves are {}",
            notation::move_text(m),
            texts.join(" ")
        ))
    }

    /// A player is to move: a setup, or a step after the roll. (A position waiting for its
    /// roll is between turns too, but no one can search it; openings may end there.)
    fn at_move_boundary(&self, pos: &Board) -> bool {
        !pos.status().is_over() && pos.phase() != Phase::Roll
    }

    fn evaluations(&self) -> &'static [Evaluation] {
        &EINSTEIN_EVALUATIONS
    }
}

impl Searchable for Einstein {
    type Eval = HybridEval;
    type Searcher = engine::ChanceSearch;

    fn evaluator(&self, eval: &str, weights: &Weights) -> HybridEval {
        assert_eq!(weights.schema().game, Self::NAME, "a table of another game");
        assert!(EINSTEIN_EVALUATIONS.iter().any(|e| e.name == eval), "not an EinStein evaluation: {eval}");
        HybridEval::new(weights)
    }
}

/// The key of a position up to the board's symmetry (the reflection in the main diagonal,
/// which maps each triangle, corner and direction set onto itself): the smaller of the two
/// cell lists, then the side to move and the phase.
pub fn symmetric_key(board: &Board) -> Vec<u32> {
    let transpose = |sq: usize| (sq % SIDE) * SIDE + sq / SIDE;
    let code = |f: &dyn Fn(usize) -> usize| -> Vec<u32> {
        let mut v: Vec<u32> = (0..SQUARES)
            .map(|sq| match board.at(f(sq)) {
                None => 0,
                Some((Side::First, k)) => k as u32,
                Some((Side::Second, k)) => 6 + k as u32,
            })
            .collect();
        v.push(board.to_move().index() as u32);
        v.push(match board.phase() {
            Phase::Setup => 0,
            Phase::Roll => 7,
            Phase::Move(d) => d as u32,
        });
        v
    };
    code(&|sq| sq).min(code(&transpose))
}

/// Positions `evotune bench --game einstein` searches: setups, some steps of self-play games
/// (MCTS at 500 playouts), and the roll of the side to move.
pub const EINSTEIN_BENCH: &[&str] = &[
    "423651 341265 r6",
    "365241 356142 5:a4b4 5:d1c1 6:b5c5 r4",
    "146235 526413 4:b5c4 1:d2c3 5:a3b2 5:e1d1 r6",
    "352614 354216 3:a5b5 4:e2e3 3:b5c5 6:d1d2 2:a4a3 5:d2c3 r3",
    "136425 314265 2:b4b3 4:e2d3 5:a3b3 5:e3d3 6:a4b3 1:d1c1 4:c5d4 6:d2d3 3:b5c4 r4",
    "235416 145362 1:b4c4 2:e3d4 2:a5b5 1:e1e2 1:c4d3 1:e2d2 2:b5c5 4:d1c1 2:c5d4 2:d2c3 5:a4b3 3:c3b4 r2",
];

impl Descriptor for Einstein {
    fn board_size(&self) -> (usize, usize) {
        (SIDE, SIDE)
    }

    /// One cube moves a turn (the two setups count as a turn each).
    fn stones_in_turns(&self, turns: usize) -> usize {
        turns
    }

    fn symmetric_key(&self, pos: &Board) -> Vec<u32> {
        symmetric_key(pos)
    }

    fn opening_maker(&self, config: &OpeningConfig) -> Box<dyn OpeningMaker> {
        Box::new(openings::EinsteinOpenings::new(config))
    }

    fn bench_positions(&self) -> &'static [&'static str] {
        EINSTEIN_BENCH
    }

    fn quick_config(&self) -> BuiltIn {
        BuiltIn { path: "configs/einstein-quick.toml", text: include_str!("../../../configs/einstein-quick.toml") }
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
