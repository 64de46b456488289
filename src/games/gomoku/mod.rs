//! Freestyle Gomoku: Connect(15,15,5,1,1), Black first, one stone a turn, five or more in a
//! row wins (an overline wins too, as the Gomoku blog plays it); a full board is a draw.
//!
//! The game shares the Connect board, notation, threat roads and threat-space search (here:
//! victory by continuous fours) with Connect6, and adds its own search by threats with threes
//! ([`vct`]) at the root. Its own parts: the position keeps the 6-cell
//! windows of the Gomoku blog's evaluation incrementally ([`GomokuBoard`]), and, for the
//! `cells` evaluation only, every empty cell's line patterns ([`cells`]); the default
//! evaluation is that [`tuple6`] table (the `cells` evaluation, [`cell_eval`], prices the
//! patterns and orders moves by them), the move generator answers the opponent's threes
//! ([`movegen`]), and
//! the engine speaks Gomocup's `pbrain` protocol ([`pbrain`]).
//!
//! ```
//! use evotune::core::game::{Game, Position, Status};
//! use evotune::games::gomoku::Gomoku;
//! let pos = Gomoku.replay(&["h8", "h9", "i8", "i9", "j8", "j9", "k8", "k9", "l8"]).unwrap();
//! assert!(matches!(pos.status(), Status::Won { reason: "five", .. }));
//! ```

pub mod cell_eval;
pub mod cells;
pub mod class_wins;
pub mod extensions;
pub mod movegen;
pub mod pair_eval;
pub mod pbrain;
pub mod quiescence;
pub mod tuple6;
pub mod vct;

use std::io::{BufRead, Write};

use rand_chacha::ChaCha8Rng;

use crate::core::game::{Evaluate, Evaluation, Game, MoveOf, Position, Side, Status};
use crate::core::openings::{OpeningConfig, OpeningMaker};
use crate::core::settings::EngineSettings;
use crate::core::weights::{Schema, Weights};
use crate::games::connect::board::{Board, Cell, Rules};
use crate::games::connect::eval::{Evaluator, GOMOKU_PATTERNS, GOMOKU_ROADS};
use crate::games::connect::game::{legal_moves, parse, side_of, ConnectGame, ConnectPosition};
use crate::games::connect::movegen::Move;
use crate::games::connect::notation::{board_from_record_moves, move_to_record, play_move};
use crate::games::connect::openings::{canonical, stones_in_turns, ConnectOpenings};
use crate::games::connect::search::{self as connect_search, ConnectGen, ThreatSpace};
use crate::games::connect::sgf::SgfGame;
use crate::games::{BuiltIn, Descriptor, ProtocolOptions};
use crate::search::{
    Clock, Engine, Exact, LateMoves, Playouts, Quiescence, Root, Searchable, Tactics, TreeGame, TreeSearch, MATE,
};
use cell_eval::{CellEval, GOMOKU_CELLS};
use cells::CellPatterns;
use pair_eval::{CellPairEval, GOMOKU_CELL_PAIRS};
use tuple6::{Tuple6Eval, WindowCounts, GOMOKU_TUPLE6};

/// Freestyle Gomoku.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Gomoku;

/// A Gomoku position: the board, and kept with it the codes of the Gomoku blog's 6-cell
/// windows (which only the `tuple6` evaluations read: a search with another drops them,
/// [`GomokuBoard::drop_windows`]) and, once a search with the `cells` evaluation asks for them
/// ([`GomokuBoard::keep_cells`]), every empty cell's line patterns. Other evaluations never
/// pay for the patterns: keeping them costs about as much per stone as everything else.
#[derive(Clone, Debug)]
pub struct GomokuBoard {
    board: Board,
    windows: Option<Box<WindowCounts>>,
    cells: Option<Box<CellPatterns>>,
}

impl GomokuBoard {
    /// The empty board.
    pub fn new() -> GomokuBoard {
        GomokuBoard {
            board: Board::new(Rules::GOMOKU),
            windows: Some(Box::new(WindowCounts::new(Rules::GOMOKU))),
            cells: None,
        }
    }

    /// The position of a board.
    pub fn from_board(board: Board) -> GomokuBoard {
        assert_eq!(board.rules(), Rules::GOMOKU, "a Gomoku board");
        let windows = Some(Box::new(WindowCounts::of_board(&board)));
        GomokuBoard { board, windows, cells: None }
    }

    /// From now on keeps every empty cell's line patterns with the position (counted from the
    /// board the first time), with the level pairs if `pairs` (only `cell-pairs` reads them;
    /// patterns kept without them are counted again with them when a search asks).
    pub fn keep_cells(&mut self, pairs: bool) {
        if self.cells.as_ref().is_none_or(|p| pairs && !p.keeps_pairs()) {
            self.cells = Some(Box::new(CellPatterns::of_board(&self.board, pairs)));
        }
    }

    /// The empty cells' line patterns, if the position keeps them.
    #[inline]
    pub fn kept_cells(&self) -> Option<&CellPatterns> {
        self.cells.as_deref()
    }

    /// The empty cells' line patterns: the kept ones, or counted from the board now (a
    /// position searched with the `cells` evaluation keeps them; others pay a count).
    pub fn cells(&self) -> std::borrow::Cow<'_, CellPatterns> {
        match &self.cells {
            Some(p) => std::borrow::Cow::Borrowed(p),
            None => std::borrow::Cow::Owned(CellPatterns::of_board(&self.board, false)),
        }
    }

    /// The empty cells' line patterns with the level pairs: the kept ones if they have them
    /// (a position searched with `cell-pairs`), or counted from the board now.
    pub fn cells_with_pairs(&self) -> std::borrow::Cow<'_, CellPatterns> {
        match &self.cells {
            Some(p) if p.keeps_pairs() => std::borrow::Cow::Borrowed(p),
            _ => std::borrow::Cow::Owned(CellPatterns::of_board(&self.board, true)),
        }
    }

    /// The 6-cell windows' classes: the kept ones, or counted from the board now (a position
    /// searched with an evaluation that does not read them drops them).
    #[inline]
    pub fn windows(&self) -> std::borrow::Cow<'_, WindowCounts> {
        match &self.windows {
            Some(w) => std::borrow::Cow::Borrowed(w),
            None => std::borrow::Cow::Owned(WindowCounts::of_board(&self.board)),
        }
    }

    /// From now on keeps the 6-cell windows with the position (counted from the board if it
    /// had dropped them).
    pub fn keep_windows(&mut self) {
        if self.windows.is_none() {
            self.windows = Some(Box::new(WindowCounts::of_board(&self.board)));
        }
    }

    /// From now on the position does not keep the 6-cell windows: a search whose evaluation
    /// does not read them saves their update at every stone (a tenth of a `cell-pairs`
    /// search's time).
    pub fn drop_windows(&mut self) {
        self.windows = None;
    }

    pub fn into_board(self) -> Board {
        self.board
    }

    /// Plays a whole move with the checks of [`play_move`]; on an error nothing changes.
    pub fn play_checked(&mut self, stones: &[Cell]) -> Result<(), String> {
        let before = self.board.stone_count();
        play_move(&mut self.board, stones)?;
        for &c in &self.board.history()[before..] {
            let colour = self.board.stone(c).expect("a placed stone");
            if let Some(w) = &mut self.windows {
                w.add(c, colour);
            }
            if let Some(p) = &mut self.cells {
                p.add(c, colour);
            }
        }
        Ok(())
    }
}

impl Default for GomokuBoard {
    fn default() -> Self {
        GomokuBoard::new()
    }
}

impl ConnectPosition for GomokuBoard {
    #[inline]
    fn board(&self) -> &Board {
        &self.board
    }

    #[inline]
    fn place(&mut self, c: Cell) {
        let colour = self.board.to_move();
        self.board.play(c);
        if let Some(w) = &mut self.windows {
            w.add(c, colour);
        }
        if let Some(p) = &mut self.cells {
            p.add(c, colour);
        }
    }

    #[inline]
    fn unplace(&mut self) {
        let c = *self.board.history().last().expect("a stone to take back");
        let colour = self.board.stone(c).expect("an occupied cell");
        if let Some(w) = &mut self.windows {
            w.remove(c, colour);
        }
        if let Some(p) = &mut self.cells {
            p.remove(c, colour);
        }
        self.board.undo();
    }
}

impl Position for GomokuBoard {
    type Move = Move;
    type Undo = usize;

    #[inline]
    fn side_to_move(&self) -> Side {
        side_of(self.board.to_move())
    }

    fn status(&self) -> Status {
        self.board.status()
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.board.hash()
    }

    #[inline]
    fn play(&mut self, m: Move) -> usize {
        let mut placed = 0;
        for &c in m.stones() {
            self.place(c);
            placed += 1;
            if self.board.winner().is_some() {
                break;
            }
        }
        placed
    }

    #[inline]
    fn undo(&mut self, placed: usize) {
        for _ in 0..placed {
            self.unplace();
        }
    }
}

/// Gomoku's evaluations, the default first.
pub static GOMOKU_EVALUATIONS: [Evaluation; 6] = [
    Evaluation {
        name: "tuple6",
        schema: &GOMOKU_TUPLE6,
        doc: "the Gomoku blog's 6-cell window table (16 types), incremental",
        tunable: true,
    },
    Evaluation {
        name: "roads",
        schema: &GOMOKU_ROADS,
        doc: "road evaluation over 5-cell windows, incremental",
        tunable: true,
    },
    Evaluation { name: "patterns", schema: &GOMOKU_PATTERNS, doc: "pattern (棋型) evaluation", tunable: true },
    Evaluation {
        name: "cells",
        schema: &GOMOKU_CELLS,
        doc: "line patterns of every empty cell (Gomocup-style), incremental; moves chosen and ordered by them",
        tunable: true,
    },
    Evaluation {
        name: "cell-pairs",
        schema: &GOMOKU_CELL_PAIRS,
        doc: "the cells evaluation with a weight for every pair of a cell's two strongest lines (110) instead of 6 class weights; made for fit-eval",
        tunable: true,
    },
    Evaluation {
        name: "tuple6-cells",
        schema: &GOMOKU_TUPLE6,
        doc: "the tuple6 table's evaluation with the cells evaluation's moves (chosen and ordered by the patterns)",
        tunable: false,
    },
];

/// Whether an evaluation reads the 6-cell windows a position keeps (the others' searches
/// drop them).
pub fn reads_windows(eval: &str) -> bool {
    matches!(eval, "tuple6" | "tuple6-cells")
}

/// Whether a player with this evaluation chooses and orders its moves by the cell patterns.
pub fn orders_by_cells(eval: &str) -> bool {
    matches!(eval, "cells" | "cell-pairs" | "tuple6-cells")
}

impl ConnectGame for Gomoku {
    const RULES: Rules = Rules::GOMOKU;
    const ROADS: &'static Schema = &GOMOKU_ROADS;
}

impl Game for Gomoku {
    type Position = GomokuBoard;
    const NAME: &'static str = "gomoku";
    const TITLE: &'static str = "Gomoku";

    fn start(&self) -> GomokuBoard {
        GomokuBoard::new()
    }

    fn legal_moves(&self, pos: &GomokuBoard, out: &mut Vec<MoveOf<Self>>) {
        legal_moves(&pos.board, out)
    }

    fn parse_move(&self, _pos: &GomokuBoard, text: &str) -> Result<Move, String> {
        parse(Rules::GOMOKU, text)
    }

    fn format_move(&self, _pos: &GomokuBoard, m: Move) -> String {
        move_to_record(Rules::GOMOKU, m.stones())
    }

    fn play_checked(&self, pos: &mut GomokuBoard, m: Move) -> Result<(), String> {
        pos.play_checked(m.stones())
    }

    fn at_move_boundary(&self, pos: &GomokuBoard) -> bool {
        !pos.board.is_over()
    }

    fn evaluations(&self) -> &'static [Evaluation] {
        &GOMOKU_EVALUATIONS
    }

    fn replay<S: AsRef<str>>(&self, moves: &[S]) -> Result<GomokuBoard, String> {
        board_from_record_moves(Rules::GOMOKU, moves).map(GomokuBoard::from_board).map_err(|e| e.to_string())
    }
}

/// A Gomoku player's evaluation.
#[derive(Clone, Debug)]
pub enum GomokuEval {
    Tuple6(Tuple6Eval),
    /// Every empty cell's line patterns.
    Cells(CellEval),
    /// Every empty cell's line patterns, priced by level pairs.
    CellPairs(Box<CellPairEval>),
    /// The road and pattern evaluations of the Connect board.
    Board(Evaluator),
}

impl Evaluate<GomokuBoard> for GomokuEval {
    #[inline]
    fn evaluate(&self, pos: &GomokuBoard) -> i32 {
        match self {
            GomokuEval::Tuple6(e) => e.evaluate(pos),
            GomokuEval::Cells(e) => e.evaluate(pos),
            GomokuEval::CellPairs(e) => e.evaluate(pos),
            GomokuEval::Board(e) => e.evaluate(&pos.board),
        }
    }
}

/// Gomoku's threat-space searches as the tree search's tactics: continuous fours (the
/// Connect games' [`ThreatSpace`]) first, then continuous threats with threes ([`vct`]) within
/// their own budgets.
pub struct GomokuThreats;

/// Positions the root's search by threats may visit when the one by fours found no win.
const VCT_ROOT_NODES: u64 = 20_000;
/// Attacking moves the search by threats chains at most.
const VCT_DEPTH: u32 = 8;

impl Tactics<Gomoku> for GomokuThreats {
    fn prove_win(
        gen: &mut ConnectGen,
        clock: &mut Clock,
        pos: &mut GomokuBoard,
        settings: &EngineSettings,
    ) -> Option<(Move, i32)> {
        without_cells(pos, |pos| Self::prove_win_by_threats(gen, clock, pos, settings))
    }

    fn has_proven_win(
        gen: &mut ConnectGen,
        clock: &mut Clock,
        pos: &mut GomokuBoard,
        settings: &EngineSettings,
    ) -> bool {
        // Continuous fours only: the root's checks of every move against the opponent's
        // threats run within budgets sized for them.
        without_cells(pos, |pos| <ThreatSpace as Tactics<Gomoku>>::has_proven_win(gen, clock, pos, settings))
    }
}

/// Runs a threat search on the position without its kept cell patterns: the searches by
/// fours and threes read the board's threats only, and they leave the position as they found
/// it, so the patterns need not follow their stones (they cost about a third of a `cells`
/// player's root searches by threats, `evotune bench --game gomoku --eval cells` under
/// callgrind).
fn without_cells<R>(pos: &mut GomokuBoard, search: impl FnOnce(&mut GomokuBoard) -> R) -> R {
    let kept = pos.cells.take();
    let stones = pos.board.stone_count();
    let r = search(pos);
    debug_assert_eq!(pos.board.stone_count(), stones, "a threat search leaves the position as it was");
    pos.cells = kept;
    r
}

impl GomokuThreats {
    fn prove_win_by_threats(
        gen: &mut ConnectGen,
        clock: &mut Clock,
        pos: &mut GomokuBoard,
        settings: &EngineSettings,
    ) -> Option<(Move, i32)> {
        if let Some(win) = <ThreatSpace as Tactics<Gomoku>>::prove_win(gen, clock, pos, settings) {
            return Some(win);
        }
        if clock.stopped {
            return None;
        }
        // A win by threats takes two of the attacker's turns per three (the three, then the
        // four), one per four: scored as the longest such win of its attacking moves.
        vct::vct(gen, clock, pos, VCT_DEPTH.min(settings.vcdt_depth), VCT_ROOT_NODES)
            .map(|(m, attacks)| (m, MATE - (4 * attacks as i32 + 1)))
    }
}

impl Searchable for Gomoku {
    type Eval = GomokuEval;
    type Searcher = TreeSearch<Gomoku, GomokuThreats>;

    fn evaluator(&self, eval: &str, weights: &Weights) -> GomokuEval {
        assert_eq!(weights.schema().game, Self::NAME, "a table of another game");
        match eval {
            "tuple6" | "tuple6-cells" => GomokuEval::Tuple6(Tuple6Eval::new(weights)),
            "cells" => GomokuEval::Cells(CellEval::new(weights)),
            "cell-pairs" => GomokuEval::CellPairs(Box::new(CellPairEval::new(weights))),
            other => GomokuEval::Board(Evaluator::new(other, weights)),
        }
    }

    fn prepare_static(&self, eval: &str, pos: &mut GomokuBoard) {
        if matches!(eval, "cells" | "cell-pairs") {
            pos.keep_cells(eval == "cell-pairs");
        }
    }

    /// A four on the board is a move from a five (or a forced block): what the position is
    /// worth is what the search finds after it, not the shape.
    fn quiet_for_static(&self, pos: &GomokuBoard) -> bool {
        movegen::reducible_node(&pos.board)
    }
}

impl TreeGame for Gomoku {
    type Gen = ConnectGen;

    fn generator(&self, settings: &EngineSettings, weights: &Weights) -> ConnectGen {
        let mut gen = ConnectGen::new(Rules::GOMOKU, settings, weights);
        let eval = settings.eval.as_deref().unwrap_or(weights.schema().eval);
        if orders_by_cells(eval) {
            // As many cells as the generator's resolved singles.
            gen.cell_order = gen.movegen.config.singles.max(1);
            gen.cell_pairs = eval == "cell-pairs";
            gen.cell_rank = movegen::CellRank::from_weights(weights);
            gen.quiescence_plies = quiescence::QUIESCENCE_PLIES;
            // The blocks of fours cost no turn (docs/matches.md, "Search extensions").
            gen.extensions = extensions::Extensions::Fours;
        }
        gen.reads_windows = reads_windows(eval);
        gen
    }

    fn history_size(&self) -> usize {
        Rules::GOMOKU.cells()
    }

    #[inline]
    fn node_entry(
        gen: &mut ConnectGen,
        eval: &GomokuEval,
        pos: &GomokuBoard,
        depth: i32,
        ply: usize,
    ) -> Result<(), i32> {
        // The players that keep cell patterns know a four-three's or a double three's win
        // without searching it (with the open four the horizon already sees, at every node).
        if gen.horizon_wins && pos.board.winner().is_none() {
            if let Some(plies) = pos.kept_cells().and_then(|p| class_wins::proven_win(p, pos.board.to_move())) {
                return Err(MATE - (ply as i32 + plies));
            }
        }
        gen.node_entry(eval, pos, depth, ply)
    }

    #[inline]
    fn generate(gen: &mut ConnectGen, pos: &GomokuBoard, depth: i32, out: &mut Vec<Move>) {
        if gen.cell_order > 0 {
            movegen::generate_by_cells(gen, pos, depth, out);
        } else {
            movegen::generate(gen, &pos.board, depth, out);
        }
    }

    fn prepare(gen: &ConnectGen, pos: &mut GomokuBoard) {
        if gen.cell_order > 0 {
            pos.keep_cells(gen.cell_pairs);
        }
        if gen.reads_windows {
            pos.keep_windows();
        } else {
            pos.drop_windows();
        }
    }

    fn root(gen: &mut ConnectGen, pos: &GomokuBoard, out: &mut Vec<Move>) -> Root {
        if gen.cell_order > 0 {
            movegen::situation_root(movegen::generate_by_cells(gen, pos, i32::MAX, out))
        } else {
            movegen::root(gen, &pos.board, out)
        }
    }

    #[inline]
    fn playable(pos: &GomokuBoard, m: Move) -> bool {
        connect_search::playable(&pos.board, m)
    }

    /// Reductions growing with the depth and the move's index, and move-count pruning up to
    /// three turns from the horizon: 12.29 -> 13.05 turns reached on average at 300 ms
    /// counted at 1.4 M positions a second (20 non-mate game and bench positions), against
    /// one or two turns of reduction and pruning after 5 and 8 moves one and two turns from
    /// the horizon; in self-play at 300 ms it gained, against Rapfi it changed nothing measurable
    /// (docs/matches.md, "Reductions that grow with depth and move index").
    ///
    /// Futility margins in the 6-tuple table's units, from the gains of the quiet moves
    /// searched at 300 ms in 8 self-play games (docs/matches.md, "Futility pruning"): one turn
    /// from the horizon no quiet move of a node facing no three scored more than 91 above the
    /// node's static score (of 943,000; a quiet move gives up the side to move's own weights,
    /// so most score 200-400 below it), two turns from it 99.9% of them scored at most 340
    /// above; at 100 and 400 no pruned move of those games would have beaten alpha at one
    /// turn, 10 of 160,000 at two.
    const LATE_MOVES: LateMoves =
        LateMoves { reduce_from_depth: 3, log_divisor: 1.0, prune_after: [4, 6, 8], futility_margins: [100, 400] };

    fn reducible_node(pos: &GomokuBoard) -> bool {
        movegen::reducible_node(&pos.board)
    }

    #[inline]
    fn extension(gen: &ConnectGen, pos: &GomokuBoard) -> i32 {
        gen.extensions.of(&pos.board)
    }

    #[inline]
    fn quiesces(gen: &ConnectGen) -> bool {
        gen.quiescence_plies > 0
    }

    #[inline]
    fn horizon(
        gen: &mut ConnectGen,
        eval: &GomokuEval,
        pos: &GomokuBoard,
        ply: usize,
        qply: usize,
        out: &mut Vec<Move>,
    ) -> Quiescence {
        quiescence::horizon(gen, eval, pos, ply, qply, out)
    }

    fn horizon_attacks(gen: &mut ConnectGen, pos: &GomokuBoard, qply: usize, out: &mut Vec<Move>) {
        quiescence::attacks(gen, pos, qply, out);
    }

    #[inline]
    fn quiet_move(pos: &GomokuBoard, m: Move) -> bool {
        movegen::quiet_move(&pos.board, m)
    }

    #[inline]
    fn unthreatened_node(pos: &GomokuBoard) -> bool {
        movegen::no_three_against(&pos.board)
    }
}

impl Playouts for Gomoku {
    fn exact(gen: &mut ConnectGen, pos: &GomokuBoard) -> Option<Exact> {
        gen.exact(&pos.board)
    }

    fn playout(gen: &mut ConnectGen, eval: &GomokuEval, pos: &mut GomokuBoard, rng: &mut ChaCha8Rng) -> f64 {
        gen.playout(eval, pos, rng)
    }
}

/// Gomoku's middle-game positions searched by `bench` (record notation from the empty
/// board): from self-play games of the default engine at depth 3 from generated openings
/// (moves 12 to 16), no four on the board and no forced win found for the side to move by a
/// depth-4 search with continuous fours 6 deep (the fifth holds a win by threes, which the
/// root's search with threes finds); Black and White to move.
pub const GOMOKU_BENCH: &[&str] = &[
    "j8 i10 h10 i9 i11 g9 j10 h9 f9 k9 j9 j11 g8 k12 l13",
    "i7 g6 k5 j6 k7 j7 j8 h6 i6 i8 k6 k4",
    "i7 g6 k5 j6 k7 j7 j8 h6 i6 i8 k6 k4 l6 i9 j4",
    "k6 k7 i4 l6 j5 l7 j7 j8 m5 h10 i9 l5 l8",
    "h8 j9 f6 j8 g7 i9 h9 h10 k7 g11 f12 j10 j7 j12 j11",
    "e6 g5 g6 h6 f5 f4 e3 e4 g4 h3 h5 i4 d7 c8 i6 f3",
    "f6 f5 e7 g6 g5 d8 h7 d7 h4 i3 h6 h5",
    "j10 k8 l10 l9 j8 k9 k10 m10 i10 h10 j7 n11 o12 j9 m9",
];

impl Descriptor for Gomoku {
    fn board_size(&self) -> (usize, usize) {
        (Rules::GOMOKU.width as usize, Rules::GOMOKU.height as usize)
    }

    fn stones_in_turns(&self, turns: usize) -> usize {
        stones_in_turns(Rules::GOMOKU, turns)
    }

    fn symmetric_key(&self, pos: &GomokuBoard) -> Vec<u32> {
        canonical(&pos.board)
    }

    fn opening_maker(&self, config: &OpeningConfig) -> Box<dyn OpeningMaker> {
        Box::new(ConnectOpenings::new(Rules::GOMOKU, Self::ROADS, config))
    }

    fn bench_positions(&self) -> &'static [&'static str] {
        GOMOKU_BENCH
    }

    fn quick_config(&self) -> BuiltIn {
        BuiltIn { path: "configs/gomoku-quick.toml", text: include_str!("../../../configs/gomoku-quick.toml") }
    }

    fn sgf(&self) -> Option<SgfGame> {
        Some(SgfGame { number: SgfGame::GOMOKU_NUMBER, rules: None, board: Rules::GOMOKU })
    }

    /// The cell-pairs table fitted to Rapfi's labels: it beat the 6-tuple hand table at equal
    /// time (each side's counted clock scaled to its positions per CPU second) on two suites
    /// (docs/matches.md). The GA's default stays the 6-tuple table (`configs/gomoku-quick.toml`):
    /// cell-pairs searches fewer than half the positions a second, so its games would take
    /// twice as long.
    fn best_weights(&self) -> Option<BuiltIn> {
        Some(BuiltIn {
            path: "weights/gomoku-cell-pairs-fitted.toml",
            text: include_str!("../../../weights/gomoku-cell-pairs-fitted.toml"),
        })
    }

    /// The manager's `INFO timeout_turn` / `timeout_match` / `time_left`.
    fn protocol_keeps_time(&self) -> bool {
        true
    }

    fn play_protocol(
        &self,
        engine: &mut Engine<Self>,
        options: &ProtocolOptions,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
        err: &mut dyn Write,
    ) -> std::io::Result<()> {
        pbrain::run(engine, options, input, out, err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::game::split_moves;
    use crate::core::limits::Limits;
    use crate::search::MATE_BOUND;

    /// Black to move, no four on the board: `l8` (a four on row 8, White must answer `m8`)
    /// then `l7` (fours on column l and on the k8-n5 diagonal) wins by continuous fours, two
    /// attacks (`l7` first and `l8` second wins as well); no single stone wins at once.
    const VCF: &str = "i8 h8 j8 l11 k8 a1 m6 a15 n5 o4 l9 o15 l10 h1";

    #[test]
    fn the_threat_space_search_finds_a_win_by_continuous_fours() {
        let mut pos = Gomoku.replay(&split_moves(VCF)).unwrap();
        let b = pos.board();
        assert_eq!(b.threat_count(b.to_move()) + b.threat_count(b.to_move().other()), 0, "quiet");
        let weights = GOMOKU_TUPLE6.defaults();
        let mut gen = ConnectGen::new(Rules::GOMOKU, &EngineSettings::default(), &weights);
        let mut clock = crate::search::Clock::unlimited();
        let (m, attacks) = gen.vcdt(&mut clock, &mut pos, 4, 10_000).expect("a win by fours");
        assert_eq!(attacks, 2, "{m:?}");
        assert!(["l8", "l7"].contains(&Gomoku.format_move(&pos, m).as_str()), "{m:?}");
        // Without the threat-space search the main search sees it too (three turns of Black).
        let settings = EngineSettings { vcdt_depth: 0, ..EngineSettings::default() };
        let mut e = Engine::<Gomoku>::new(settings, &weights);
        let r = e.search(&mut pos, &Limits::depth(5));
        assert_eq!(r.mate_in(), Some(3), "score {}", r.score);
    }

    /// Futility pruning is asked only where the opponent has no three: an open three (two
    /// windows of five holding it) and a split three count as one, a three closed at one end
    /// (one window) does not, nor do the side to move's own threes.
    #[test]
    fn futility_is_asked_only_where_the_opponent_has_no_three() {
        let unthreatened = |moves: &str| {
            let pos = Gomoku.replay(&split_moves(moves)).unwrap();
            <Gomoku as TreeGame>::unthreatened_node(&pos)
        };
        // Black's open three h8 i8 j8, White to move.
        assert!(!unthreatened("h8 a1 i8 a3 j8"));
        // Black's split three h8 i8 k8, open at both ends.
        assert!(!unthreatened("h8 a1 i8 a3 k8"));
        // Closed by White at g8: only h8-l8 holds the three.
        assert!(unthreatened("h8 g8 i8 a1 j8"));
        // Black to move with its own open three: nothing threatens Black.
        assert!(unthreatened("h8 a1 i8 o1 j8 a15"));
        assert!(unthreatened("h8 a1 i8"));
    }

    /// A known answer the pruning near the horizon must keep: in the second bench position
    /// Black's `l6` wins by force, a mate in 9 turns found at depth 14 (as before futility
    /// pruning; at depth 13 the search still scores it 1235).
    #[test]
    fn futility_pruning_keeps_the_bench_positions_mate() {
        let mut pos = Gomoku.replay(&split_moves(GOMOKU_BENCH[1])).unwrap();
        let mut e = Engine::<Gomoku>::new(EngineSettings::default(), &GOMOKU_TUPLE6.defaults());
        let r = e.search(&mut pos, &Limits::depth(14));
        assert_eq!(Gomoku.format_move(&pos, r.best), "l6");
        assert_eq!(r.mate_in(), Some(9), "score {}", r.score);
    }

    /// After `l8` White's only move is the block at `m8`: every other move loses at once.
    #[test]
    fn a_four_is_blocked() {
        let mut pos = Gomoku.replay(&split_moves(&format!("{VCF} l8"))).unwrap();
        let mut e = Engine::<Gomoku>::new(EngineSettings::default(), &GOMOKU_TUPLE6.defaults());
        let r = e.search(&mut pos, &Limits::depth(3));
        assert_eq!(Gomoku.format_move(&pos, r.best), "m8");
    }

    /// The `cells` move order: the side to move's open-four cell first when it has an open
    /// three, the ends of the opponent's open three first when it has one, the one block of
    /// a four; and the search with the `cells` evaluation blocks the four and finds the win
    /// by continuous fours.
    #[test]
    fn the_cells_order_puts_wins_and_blocks_first() {
        let weights = GOMOKU_CELLS.defaults();
        let settings = EngineSettings::default();
        let mut gen = Gomoku.generator(&settings, &weights);
        assert_eq!(gen.cell_order, 12);
        let first = |gen: &mut ConnectGen, moves: &str| {
            let mut pos = Gomoku.replay(&split_moves(moves)).unwrap();
            pos.keep_cells(false);
            let mut out = Vec::new();
            movegen::generate_by_cells(gen, &pos, 4, &mut out);
            Gomoku.format_move(&pos, out[0])
        };
        assert!(["g8", "k8"].contains(&first(&mut gen, "h8 a1 i8 a15 j8 o1").as_str()));
        assert!(["g8", "k8"].contains(&first(&mut gen, "h8 a1 i8 a15 j8").as_str()));
        assert_eq!(first(&mut gen, &format!("{VCF} l8")), "m8");
        let mut e = Engine::<Gomoku>::new(EngineSettings::default(), &weights);
        let mut pos = Gomoku.replay(&split_moves(&format!("{VCF} l8"))).unwrap();
        let best = e.search(&mut pos, &Limits::depth(3)).best;
        assert_eq!(Gomoku.format_move(&pos, best), "m8");
        let mut pos = Gomoku.replay(&split_moves(VCF)).unwrap();
        let r = e.search(&mut pos, &Limits::depth(5));
        assert!(r.score > MATE_BOUND, "{r:?}");
    }

    /// `tuple6-cells` plays the 6-tuple table with the `cells` move order: the same score as
    /// `tuple6`, the moves of the cells' order, and it blocks a four.
    #[test]
    fn tuple6_cells_evaluates_by_the_table_and_moves_by_the_cells() {
        let weights = GOMOKU_TUPLE6.defaults();
        let settings = EngineSettings { eval: Some("tuple6-cells".into()), ..EngineSettings::default() };
        assert_eq!(Gomoku.generator(&settings, &weights).cell_order, 12);
        assert_eq!(Gomoku.generator(&EngineSettings::default(), &weights).cell_order, 0);
        let mut e = Engine::<Gomoku>::new(settings, &weights);
        let plain = Engine::<Gomoku>::new(EngineSettings::default(), &weights);
        let mut pos = Gomoku.replay(&split_moves(&format!("{VCF} l8"))).unwrap();
        assert_eq!(e.evaluate(&pos), plain.evaluate(&pos));
        let best = e.search(&mut pos, &Limits::depth(3)).best;
        assert!(pos.kept_cells().is_some());
        assert_eq!(Gomoku.format_move(&pos, best), "m8");
    }

    /// Only a search with the `cells` evaluation makes the position keep the patterns (and only
    /// `cell-pairs` the level pairs); the patterns then follow the moves played, and the
    /// evaluation of a position that does not keep them counts them from the board: the same
    /// score either way.
    #[test]
    fn only_the_cells_search_keeps_the_patterns() {
        let moves = split_moves("h8 i9 i8 j8 g7 h9");
        let mut pos = Gomoku.replay(&moves).unwrap();
        assert!(pos.kept_cells().is_none());
        let mut e = Engine::<Gomoku>::new(EngineSettings::default(), &GOMOKU_TUPLE6.defaults());
        e.search(&mut pos, &Limits::depth(2));
        assert!(pos.kept_cells().is_none(), "the default evaluation keeps no patterns");
        let weights = GOMOKU_CELLS.defaults();
        let mut e = Engine::<Gomoku>::new(EngineSettings::default(), &weights);
        let r = e.search(&mut pos, &Limits::depth(2));
        assert!(pos.kept_cells().is_some());
        assert!(!pos.kept_cells().unwrap().keeps_pairs(), "only cell-pairs keeps the level pairs");
        pos.play_checked(r.best.stones()).unwrap();
        let fresh = GomokuBoard::from_board(pos.board().clone());
        assert!(fresh.kept_cells().is_none());
        assert_eq!(pos.kept_cells().unwrap().snapshot(), cells::CellPatterns::recount(pos.board(), false));
        assert_eq!(e.evaluate(&pos), e.evaluate(&fresh));
        assert_ne!(e.evaluate(&pos), 0);
        // A cell-pairs search counts the pairs in, and its evaluation of the position kept
        // without them (by the cells search) counts them from the board.
        let pairs = Engine::<Gomoku>::new(EngineSettings::default(), &GOMOKU_CELL_PAIRS.defaults());
        let before = pairs.evaluate(&pos);
        assert_eq!(before, pairs.evaluate(&fresh));
        let mut pairs = pairs;
        pairs.search(&mut pos, &Limits::depth(2));
        assert!(pos.kept_cells().unwrap().keeps_pairs());
        assert_eq!(pos.kept_cells().unwrap().snapshot(), cells::CellPatterns::recount(pos.board(), true));
        assert_eq!(pairs.evaluate(&pos), before);
    }

    /// A search whose evaluation does not read the 6-cell windows (`cells`, `cell-pairs`) drops
    /// them from the position; a `tuple6` search or evaluation of that position afterwards (two
    /// players of one game share it) counts them from the board and scores as before.
    #[test]
    fn only_the_tuple6_searches_keep_the_windows() {
        let moves = split_moves("h8 i9 i8 j8 g7 h9 g9");
        let mut pos = Gomoku.replay(&moves).unwrap();
        let mut six = Engine::<Gomoku>::new(EngineSettings::default(), &GOMOKU_TUPLE6.defaults());
        let before = six.evaluate(&pos);
        let mut pairs = Engine::<Gomoku>::new(EngineSettings::default(), &GOMOKU_CELL_PAIRS.defaults());
        let r = pairs.search(&mut pos, &Limits::depth(2));
        assert!(pos.windows.is_none(), "a cell-pairs search drops the windows");
        assert_eq!(six.evaluate(&pos), before, "counted from the board when dropped");
        pos.play_checked(r.best.stones()).unwrap();
        let fresh = GomokuBoard::from_board(pos.board().clone());
        let after = six.evaluate(&fresh);
        assert_eq!(six.evaluate(&pos), after);
        let r = six.search(&mut pos, &Limits::depth(2));
        assert!(pos.windows.is_some(), "a tuple6 search keeps them again");
        assert_eq!(pos.windows().counts(), &WindowCounts::recount(pos.board()));
        pos.play_checked(r.best.stones()).unwrap();
        assert_eq!(pos.windows().counts(), &WindowCounts::recount(pos.board()));
        let six_cells = EngineSettings { eval: Some("tuple6-cells".into()), ..EngineSettings::default() };
        let mut six_cells = Engine::<Gomoku>::new(six_cells, &GOMOKU_TUPLE6.defaults());
        six_cells.search(&mut pos, &Limits::depth(2));
        assert!(pos.windows.is_some(), "tuple6-cells reads the windows too");
    }

    /// The `cells` move order's weights: their defaults are the constants the order was
    /// written with, the generator reads a table's own, tables without them (the shipped
    /// cell-pairs table was written before them) load with the defaults, and a table with
    /// some of them but not all is refused.
    #[test]
    fn the_cells_order_reads_its_weights() {
        use movegen::{CellRank, CELL_ORDER};
        let settings = EngineSettings::default();
        for schema in [&GOMOKU_CELLS, &GOMOKU_CELL_PAIRS] {
            assert_eq!(Gomoku.generator(&settings, &schema.defaults()).cell_rank, CellRank::default());
        }
        let six_cells = EngineSettings { eval: Some("tuple6-cells".into()), ..EngineSettings::default() };
        assert_eq!(Gomoku.generator(&six_cells, &GOMOKU_TUPLE6.defaults()).cell_rank, CellRank::default());
        let defaults: Vec<i32> = CELL_ORDER.iter().map(|s| s.default).collect();
        assert_eq!(defaults, [1, 2, 4, 12, 14, 50, 60, 600, 50_000, 10, 2_500, 6_000, 20_000, 100_000, 7]);
        // A table's own weights reach the generator: no blocking at all ranks a cell by the
        // side to move's lines alone.
        let mut values = GOMOKU_CELL_PAIRS.defaults().values().to_vec();
        let eighths = GOMOKU_CELL_PAIRS.index_of("order_block_eighths").unwrap();
        values[eighths] = 0;
        let own_only = Weights::from_values(&GOMOKU_CELL_PAIRS, values).unwrap();
        let mut gen = Gomoku.generator(&settings, &own_only);
        assert_ne!(gen.cell_rank, CellRank::default());
        // Black h8 i8 j8 (an open three) against white h9 i9: white to move must block, and
        // so it does by either order; black to move (after a white stone far away) with no
        // blocking weight extends its three to an open four, as with it.
        let mut pos = Gomoku.replay(&split_moves("h8 h9 i8 i9 j8 a15")).unwrap();
        pos.keep_cells(true);
        let mut out = Vec::new();
        movegen::generate_by_cells(&mut gen, &pos, 4, &mut out);
        assert!(["g8", "k8"].contains(&Gomoku.format_move(&pos, out[0]).as_str()));
        let file = include_str!("../../../weights/gomoku-cell-pairs-fitted.toml");
        assert!(!file.contains("order_b1"));
        let (shipped, _) = Weights::parse(file, "fitted", &[&GOMOKU_CELL_PAIRS]).unwrap();
        assert_eq!(Gomoku.generator(&settings, &shipped).cell_rank, CellRank::default());
        let half = file.replace("[weights]\n", "[weights]\norder_b1 = 3\n");
        let e = Weights::parse(&half, "half", &[&GOMOKU_CELL_PAIRS]).unwrap_err().to_string();
        assert!(e.contains("missing weight `order_f1`"), "{e}");
    }

    /// `best` is the shipped cell-pairs table, with its own evaluation; asked for another
    /// evaluation, `best` is that one's hand table (as before a table was shipped).
    #[test]
    fn best_is_the_fitted_cell_pairs_table() {
        let game = crate::registry::find("gomoku").unwrap();
        let (weights, meta, eval) = crate::player::load_weights("best", None, game).unwrap();
        assert_eq!(eval, "cell-pairs");
        assert_eq!(meta.name.as_deref(), Some("gomoku-cell-pairs-fitted"));
        let file = include_str!("../../../weights/gomoku-cell-pairs-fitted.toml");
        let (shipped, _) = Weights::parse(file, "fitted", &[&GOMOKU_CELL_PAIRS]).unwrap();
        assert_eq!(weights.values(), shipped.values());
        assert_ne!(weights.values(), GOMOKU_CELL_PAIRS.defaults().values());
        let (same, _, eval) = crate::player::load_weights("best", Some("cell-pairs"), game).unwrap();
        assert_eq!((same.values(), eval), (shipped.values(), "cell-pairs"));
        for asked in ["tuple6", "tuple6-cells", "cells"] {
            let (hand, _, eval) = crate::player::load_weights("best", Some(asked), game).unwrap();
            assert_eq!(eval, asked);
            assert_eq!(hand.values(), game.evaluation(asked).unwrap().schema.defaults().values());
        }
        let (hand, _, eval) = crate::player::load_weights("defaults", None, game).unwrap();
        assert_eq!((hand.values(), eval), (GOMOKU_TUPLE6.defaults().values(), "tuple6"));
    }

    #[test]
    fn bench_positions_are_quiet_middle_games() {
        let mut e = Engine::<Gomoku>::new(EngineSettings::default(), &GOMOKU_TUPLE6.defaults());
        let mut sides = [0, 0];
        for text in GOMOKU_BENCH {
            let mut pos = Gomoku.replay(&split_moves(text)).unwrap();
            let b = pos.board();
            assert_eq!(b.threat_count(b.to_move()) + b.threat_count(b.to_move().other()), 0, "{text}");
            sides[b.to_move().index()] += 1;
            e.new_game(0);
            let r = e.search(&mut pos, &Limits::depth(4));
            if *text == GOMOKU_BENCH[4] {
                // A win by threats (i10 first, mate in 7 by a depth-10 search) beyond the
                // depth-4 search and continuous fours: the root's search with threes proves it.
                assert!(r.score > MATE_BOUND && Gomoku.format_move(&pos, r.best) == "i10", "{text}: {r:?}");
                continue;
            }
            assert!(r.score.abs() < MATE_BOUND, "{text}: {r:?}");
        }
        assert!(sides[0] > 0 && sides[1] > 0);
    }
}
