//! A game as the tuner, the arena's callers and the commands see it ([`AnyGame`]), and the
//! adapter ([`Registered`]) that makes one of a game folder's [`Descriptor`]s it.
//!
//! Behind a [`GameRef`] every game is compiled on its own: playing a game, searching a
//! position or speaking a protocol calls the game's monomorphised engine.

use std::io::{BufRead, Write};

use anyhow::{bail, Result};

use crate::arena::game::{play_game, GameSettings, Referee};
use crate::arena::player::Player;
use crate::arena::records::{GameRecord, Outcome, Reason};
use crate::arena::{ArenaGame, OpeningError};
use crate::core::game::{Evaluate, Evaluation, GameMove, Position, Side, Status};
use crate::core::limits::Limits;
use crate::core::openings::{OpeningBoard, OpeningConfig, OpeningMaker};
use crate::core::weights::{Schema, Weights};
use crate::games::connect::sgf::SgfGame;
use crate::games::{BuiltIn, Descriptor, ProtocolOptions};
use crate::search::{Engine, MoveRank, Searchable, Searcher};

/// What one search of a position found, in record notation.
#[derive(Clone, Debug, PartialEq)]
pub struct Searched {
    pub best: String,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: std::time::Duration,
    pub pv: Vec<String>,
    /// Turns to a forced win (positive) or loss (negative).
    pub mate_in: Option<i32>,
}

/// A game as the tuner, the arena and the commands see it: everything they need, without
/// knowing its types.
pub trait AnyGame: ArenaGame {
    /// Its evaluations, the default first.
    fn evaluations(&self) -> &'static [Evaluation];

    /// Plays one game (see [`play_game`]).
    fn play_game(
        &self,
        first: &Player,
        second: &Player,
        opening: &[String],
        settings: &GameSettings,
        seed: u64,
    ) -> GameRecord;

    /// Searches each position given by its moves (record notation) with one engine of
    /// `player`'s settings, which starts a new game (seed: the position's index) before each.
    /// An error names the position and says what is wrong with its moves (illegal, the game
    /// over, a turn half played); nothing is searched then.
    /// The time of the searches alone is returned beside them: the new games' table clearing
    /// is left out, since play clears the tables once a game and not once a move.
    fn search_positions(
        &self,
        player: &Player,
        positions: &[Vec<String>],
        limits: &Limits,
    ) -> Result<(Vec<Searched>, std::time::Duration), String>;

    /// The positions `evotune bench` searches.
    fn bench_positions(&self) -> &'static [&'static str];

    /// The game's built-in GA config (`evotune evolve --game NAME` without `--config`).
    fn quick_config(&self) -> BuiltIn;

    /// The best weight table shipped for the game ([`Descriptor::best_weights`]).
    fn best_weights(&self) -> Option<BuiltIn>;

    /// Whether the game's protocol keeps its own clock ([`Descriptor::protocol_keeps_time`]).
    fn protocol_keeps_time(&self) -> bool;

    /// Speaks the game's engine protocol for `player` until the input ends.
    fn play_protocol(
        &self,
        player: &Player,
        options: &ProtocolOptions,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
        err: &mut dyn Write,
    ) -> std::io::Result<()>;

    /// A static evaluation of the position after `moves` by `player`'s table, for the side
    /// to move.
    fn evaluate_moves(&self, player: &Player, moves: &[String]) -> Result<i32, String>;

    /// Where `player`'s move generator puts each sample's move (record notation) in the list
    /// of moves it makes for the sample's position (given by the moves before it), as the
    /// search's root and interior nodes make it. One generator serves every sample, so a
    /// call costs one generation a sample. An error names the sample (from 1) and says what
    /// is wrong with its moves.
    fn move_ranks(&self, player: &Player, samples: &[MoveSample]) -> Result<Vec<MoveRank>, String>;

    /// Whether the position after `moves` (record notation) is one a static evaluation
    /// judges fairly: the game goes on, a turn starts, no dice wait to be rolled and no
    /// tactics are pending ([`Searchable::quiet_for_static`]). An error says what is wrong
    /// with the moves.
    fn quiet_for_static(&self, moves: &[String]) -> Result<bool, String>;

    /// The positions after each of `positions` (record notation), replayed once and readied
    /// for evaluation `eval`, to be scored statically by many tables. An error names the
    /// position (from 1) and what is wrong with its moves.
    fn static_positions(&self, eval: &str, positions: &[Vec<String>]) -> Result<Box<dyn StaticPositions>, String>;
}

/// Positions kept replayed, scored by one table after another (`fit-eval`).
pub trait StaticPositions: Send + Sync {
    fn len(&self) -> usize;

    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The static evaluation of each position, for its side to move, by `weights` (a table
    /// of the game) read as the evaluation the positions were readied for. Scored in
    /// parallel; each score depends on its position and the table alone.
    fn scores(&self, weights: &Weights) -> Vec<i32>;
}

/// Positions of one game for [`StaticPositions`].
struct Replayed<G: Searchable> {
    game: G,
    eval: String,
    positions: Vec<G::Position>,
}

/// Positions scored by one evaluator (made once a chunk, since making one may cost more than
/// a score).
const SCORE_CHUNK: usize = 256;

impl<G: Searchable> StaticPositions for Replayed<G> {
    fn len(&self) -> usize {
        self.positions.len()
    }

    fn scores(&self, weights: &Weights) -> Vec<i32> {
        use rayon::prelude::*;
        let mut out = vec![0; self.positions.len()];
        out.par_chunks_mut(SCORE_CHUNK).zip(self.positions.par_chunks(SCORE_CHUNK)).for_each(|(out, positions)| {
            let evaluator = self.game.evaluator(&self.eval, weights);
            for (o, pos) in out.iter_mut().zip(positions) {
                *o = evaluator.evaluate(pos);
            }
        });
        out
    }
}

/// A move played in a position: the moves before it and the move, in record notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveSample {
    pub before: Vec<String>,
    pub played: String,
}

/// A game of the registry.
pub type GameRef = &'static dyn AnyGame;

impl dyn AnyGame {
    /// The evaluation of this name, or an error listing the game's evaluations.
    pub fn evaluation(&self, name: &str) -> Result<&'static Evaluation> {
        match self.evaluations().iter().find(|e| e.name == name) {
            Some(e) => Ok(e),
            None => bail!(
                "{} has no evaluation `{name}`; its evaluations are: {}",
                self.name(),
                self.evaluations().iter().map(|e| e.name).collect::<Vec<_>>().join(", ")
            ),
        }
    }

    /// The default evaluation (the first).
    pub fn default_evaluation(&self) -> &'static Evaluation {
        &self.evaluations()[0]
    }

    /// The schema of the evaluation `name`, or of the default one.
    pub fn schema(&self, eval: Option<&str>) -> Result<&'static Schema> {
        Ok(match eval {
            Some(name) => self.evaluation(name)?.schema,
            None => self.default_evaluation().schema,
        })
    }

    /// The game as the arena sees it.
    pub fn arena(&'static self) -> &'static dyn ArenaGame {
        self
    }
}

/// The adapter that makes a [`Descriptor`] game a [`AnyGame`].
pub struct Registered<G>(pub G);

impl<G: Descriptor> OpeningBoard for Registered<G> {
    fn board_size(&self) -> (usize, usize) {
        self.0.board_size()
    }

    fn stones_in_turns(&self, turns: usize) -> usize {
        self.0.stones_in_turns(turns)
    }
}

impl<G: Descriptor> ArenaGame for Registered<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn title(&self) -> &'static str {
        G::TITLE
    }

    fn opening_key(&self, moves: &[String]) -> Result<Vec<u32>, OpeningError> {
        let pos = self.0.replay(moves).map_err(OpeningError::Illegal)?;
        if pos.status().is_over() {
            return Err(OpeningError::Decided);
        }
        // An opening may end where the dice are to be rolled: games roll them first.
        if !self.0.at_move_boundary(&pos) && pos.chance().is_none() {
            return Err(OpeningError::MidTurn);
        }
        Ok(self.0.symmetric_key(&pos))
    }

    fn opening_maker(&self, config: &OpeningConfig) -> Box<dyn OpeningMaker> {
        self.0.opening_maker(config)
    }

    fn check_record(&self, record: &GameRecord) -> Result<(), String> {
        let mut pos = self.0.start();
        let moves = record.moves.iter().filter(|m| !m.starts_with('#'));
        for (i, text) in moves.enumerate() {
            if pos.status().is_over() {
                return Err(format!("move {} `{text}` comes after the end of the game", i + 1));
            }
            let played = self.0.parse_move(&pos, text).and_then(|m| self.0.play_checked(&mut pos, m));
            played.map_err(|e| format!("move {} `{text}`: {e}", i + 1))?;
        }
        let (result, reason) = (record.result, &record.reason);
        let (made, fits) = match pos.status() {
            Status::Won { winner, reason: r } => (
                format!("won by the {} player ({r})", winner.name()),
                *reason == Reason::rule(r) && result == Outcome::win_of(winner),
            ),
            Status::Draw { reason: r } => {
                (format!("drawn ({r})"), *reason == Reason::rule(r) && result == Outcome::Draw)
            }
            Status::Ongoing => (
                "undecided".to_string(),
                match reason {
                    Reason::Rule(_) => false,
                    Reason::Movecap | Reason::Aborted => result == Outcome::Draw,
                    Reason::Illegal | Reason::Timeout | Reason::Crash | Reason::Resign => result != Outcome::Draw,
                    Reason::Adjudicated => true,
                },
            ),
        };
        if fits {
            return Ok(());
        }
        let said = match result {
            Outcome::First => "won by the first player",
            Outcome::Second => "won by the second player",
            Outcome::Draw => "a draw",
        };
        Err(format!("its moves leave the game {made}, but the record says {said} ({})", reason.as_str()))
    }

    fn sgf(&self) -> Option<SgfGame> {
        self.0.sgf()
    }

    fn movers(&self, moves: &[String]) -> Vec<Side> {
        let mut pos = self.0.start();
        let mut sides = Vec::with_capacity(moves.len());
        for text in moves {
            sides.push(pos.side_to_move());
            let played = self.0.parse_move(&pos, text).and_then(|m| self.0.play_checked(&mut pos, m));
            if played.is_err() {
                // The rest cannot be replayed: alternate from here.
                let last = pos.side_to_move();
                let rest = moves.len() - sides.len();
                sides.extend((0..rest).map(|i| if i % 2 == 0 { last.other() } else { last }));
                break;
            }
        }
        sides
    }
}

impl<G: Descriptor> AnyGame for Registered<G> {
    fn evaluations(&self) -> &'static [Evaluation] {
        self.0.evaluations()
    }

    fn play_game(
        &self,
        first: &Player,
        second: &Player,
        opening: &[String],
        settings: &GameSettings,
        seed: u64,
    ) -> GameRecord {
        play_game::<G>(first, second, opening, settings, seed)
    }

    fn search_positions(
        &self,
        player: &Player,
        positions: &[Vec<String>],
        limits: &Limits,
    ) -> Result<(Vec<Searched>, std::time::Duration), String> {
        let mut boards = Vec::with_capacity(positions.len());
        for (i, moves) in positions.iter().enumerate() {
            let at = |e: String| if positions.len() == 1 { e } else { format!("position {}: {e}", i + 1) };
            let pos = self.0.replay(moves).map_err(at)?;
            match pos.status() {
                Status::Won { winner, reason } => {
                    return Err(at(format!(
                        "the game is already over (the {} player has won: {reason})",
                        winner.name()
                    )))
                }
                Status::Draw { reason } => return Err(at(format!("the game is already over (a draw: {reason})"))),
                Status::Ongoing => {}
            }
            if pos.chance().is_some() {
                return Err(at(
                    "the position waits for a roll of the dice: end the moves with the roll (like r4)".into()
                ));
            }
            if !self.0.at_move_boundary(&pos) {
                return Err(at("the last move is incomplete".into()));
            }
            boards.push(pos);
        }
        let mut engine = Engine::<G>::new(player.engine.clone(), &player.weights);
        let mut out = Vec::with_capacity(boards.len());
        let mut searching = std::time::Duration::ZERO;
        for (i, pos) in boards.iter_mut().enumerate() {
            engine.new_game(i as u64);
            let r = engine.search(pos, limits);
            searching += r.elapsed;
            let best = if r.best.is_none() { String::new() } else { self.0.format_move(pos, r.best) };
            let mut line = Vec::new();
            let mut undo = Vec::new();
            for &m in &r.pv {
                if m.is_none() || pos.status().is_over() || !<G::Searcher as Searcher<G>>::replayable(pos, m) {
                    break;
                }
                line.push(self.0.format_move(pos, m));
                undo.push(pos.play(m));
            }
            while let Some(u) = undo.pop() {
                pos.undo(u);
            }
            out.push(Searched {
                best,
                score: r.score,
                depth: r.depth,
                nodes: r.nodes,
                elapsed: r.elapsed,
                pv: line,
                mate_in: r.mate_in(),
            });
        }
        Ok((out, searching))
    }

    fn bench_positions(&self) -> &'static [&'static str] {
        self.0.bench_positions()
    }

    fn quick_config(&self) -> BuiltIn {
        self.0.quick_config()
    }

    fn best_weights(&self) -> Option<BuiltIn> {
        self.0.best_weights()
    }

    fn protocol_keeps_time(&self) -> bool {
        self.0.protocol_keeps_time()
    }

    fn play_protocol(
        &self,
        player: &Player,
        options: &ProtocolOptions,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
        err: &mut dyn Write,
    ) -> std::io::Result<()> {
        let mut engine = Engine::<G>::new(player.engine.clone(), &player.weights);
        self.0.play_protocol(&mut engine, options, input, out, err)
    }

    fn evaluate_moves(&self, player: &Player, moves: &[String]) -> Result<i32, String> {
        let pos = self.0.replay(moves)?;
        let engine = Engine::<G>::new(player.engine.clone(), &player.weights);
        Ok(engine.evaluate(&pos))
    }

    fn move_ranks(&self, player: &Player, samples: &[MoveSample]) -> Result<Vec<MoveRank>, String> {
        let mut positions = Vec::with_capacity(samples.len());
        for (i, sample) in samples.iter().enumerate() {
            let at = |e: String| format!("sample {}: {e}", i + 1);
            let pos = self.0.replay(&sample.before).map_err(at)?;
            let played = self.0.parse_move(&pos, &sample.played).map_err(at)?;
            positions.push((pos, played));
        }
        let mut engine = Engine::<G>::new(player.engine.clone(), &player.weights);
        engine.root_ranks(&positions).ok_or_else(|| format!("{}'s search orders no list of moves to fit", G::TITLE))
    }

    fn quiet_for_static(&self, moves: &[String]) -> Result<bool, String> {
        let pos = self.0.replay(moves)?;
        Ok(!pos.status().is_over()
            && pos.chance().is_none()
            && self.0.at_move_boundary(&pos)
            && self.0.quiet_for_static(&pos))
    }

    fn static_positions(&self, eval: &str, positions: &[Vec<String>]) -> Result<Box<dyn StaticPositions>, String> {
        if !self.0.evaluations().iter().any(|e| e.name == eval) {
            return Err(format!("{} has no evaluation `{eval}`", G::TITLE));
        }
        let mut replayed = Vec::with_capacity(positions.len());
        for (i, moves) in positions.iter().enumerate() {
            let mut pos = self.0.replay(moves).map_err(|e| format!("position {}: {e}", i + 1))?;
            self.0.prepare_static(eval, &mut pos);
            replayed.push(pos);
        }
        Ok(Box::new(Replayed { game: self.0, eval: eval.to_string(), positions: replayed }))
    }
}

/// The referee of real games: each game played by its engines under fixed settings.
#[derive(Clone, Copy)]
pub struct EngineReferee {
    pub game: GameRef,
    pub settings: GameSettings,
}

impl Referee for EngineReferee {
    fn play(&self, first: &Player, second: &Player, opening: &[String], seed: u64) -> GameRecord {
        self.game.play_game(first, second, opening, &self.settings, seed)
    }

    fn clock(&self) -> Option<crate::arena::clock::TimeControl> {
        self.settings.clock
    }
}
