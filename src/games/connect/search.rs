//! The Connect games' hooks into the generic search: exact tactics at every node (a side with
//! a threat road wins at once, a side facing threats it cannot block in one turn loses), the
//! double-threat moves where two turns remain, the threat-space search at the root, and the
//! playout policy of UCT.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::core::game::Evaluate;
use crate::core::game::Game;
use crate::core::settings::EngineSettings;
use crate::core::weights::Weights;
use crate::games::connect::board::{Board, Cell, Rules};
use crate::games::connect::eval::{self, Evaluator};
use crate::games::connect::game::{side_of, Connect6, ConnectGame, ConnectPosition};
use crate::games::connect::movegen::{Move, MoveGen, MoveGenConfig, MoveScoring, Situation, ThreatSet};
use crate::games::gomoku::extensions::Extensions;
use crate::games::gomoku::movegen::CellRank;
use crate::search::mcts::{for_first, win_probability};
use crate::search::{Clock, Exact, Playouts, Root, Searchable, Tactics, TreeGame, TreeSearch, MATE, MAX_PLY};

/// Double-threat moves added to a node's moves, at most.
pub const THREAT_MOVES: usize = 8;
/// Turns a playout plays before the evaluation scores it. Short playouts that end in a static
/// score are both cheaper and less noisy than long games of a near-random policy (see the
/// module documentation of `search::mcts` for the measurement).
pub const PLAYOUT_TURNS: u32 = 4;
/// Candidate cells a playout stone is chosen from (the best of them by the generator's cheap
/// cell score): enough to find the urgent cells often, few enough to keep playouts varied.
pub const PLAYOUT_SAMPLES: u32 = 6;

/// A Connect player's move generator and the working memory of its threat-space search and
/// playouts.
#[derive(Clone, Debug)]
pub struct ConnectGen {
    pub movegen: MoveGen,
    /// Attack lists of the threat-space search, by ply.
    pub(crate) vcdt_scratch: Vec<Vec<(usize, Move)>>,
    pub(crate) threats: ThreatSet,
    pub(crate) blocks: Vec<Move>,
    /// `[engine] horizon_wins`: quiet horizon nodes look for a winning threat move (and
    /// Gomoku's cells players claim the wins their classes prove, at every node).
    pub(crate) horizon_wins: bool,
    /// Gomoku's `cells` evaluation: quiet moves chosen and ordered by the position's cell
    /// patterns, this many at a node (0: the generator's own order).
    pub cell_order: usize,
    /// Gomoku's `cell-pairs` evaluation: the kept cell patterns count the level pairs too.
    pub cell_pairs: bool,
    /// Gomoku: whether the evaluation reads the 6-cell windows (the positions searched keep
    /// them only then).
    pub reads_windows: bool,
    /// Gomoku's `cells` move order: the rank of a cell (its table's `order_*` weights).
    pub cell_rank: CellRank,
    /// Gomoku's players that keep cell patterns: plies of the quiescence search by fours past
    /// the horizon (0: the horizon is scored statically).
    pub quiescence_plies: usize,
    /// Gomoku: which nodes' moves cost the search no turn (see [`Extensions`]).
    pub extensions: Extensions,
    /// The `cells` move order's rankings, kept between nodes so that a node allocates none:
    /// forced answers by rank, and quiet cells by rank.
    pub(crate) ranked_moves: Vec<(i32, Move)>,
    pub(crate) ranked_cells: Vec<(i32, Cell)>,
}

impl ConnectGen {
    /// The generator of a player with these settings and weights (its `move_*` weights).
    pub fn new(rules: Rules, settings: &EngineSettings, weights: &Weights) -> ConnectGen {
        let board = Board::new(rules);
        let config = MoveGenConfig { singles: settings.singles, seconds: settings.seconds, width: settings.width }
            .resolved(rules);
        ConnectGen {
            movegen: MoveGen::with_scoring(config, MoveScoring::from_weights(weights, rules.k as usize), &board)
                .with_stone_scorer(eval::stone_scorer(weights)),
            vcdt_scratch: vec![Vec::new(); 32],
            threats: ThreatSet::default(),
            blocks: Vec::new(),
            horizon_wins: settings.horizon_wins,
            cell_order: 0,
            cell_pairs: false,
            reads_windows: true,
            cell_rank: CellRank::default(),
            quiescence_plies: 0,
            extensions: Extensions::None,
            ranked_moves: Vec::new(),
            ranked_cells: Vec::new(),
        }
    }

    /// See [`TreeGame::node_entry`].
    #[inline]
    pub fn node_entry<P: ConnectPosition>(
        &mut self,
        eval: &impl Evaluate<P>,
        pos: &P,
        depth: i32,
        ply: usize,
    ) -> Result<(), i32> {
        let board = pos.board();
        if board.winner().is_some() {
            // The previous move completed a line: the side to move has lost.
            return Err(-(MATE - ply as i32));
        }
        // A side with a threat road wins at once; a side facing threats it cannot block in one
        // turn loses; otherwise the horizon scores the position statically, threats included
        // (the opponent's roads of k-2 and k-1 are what the `opp` weights price). Searching
        // blocks beyond the horizon was tried and explodes: every block with a free stone can
        // make a counter-threat, and chains of them grow exponentially; deep forcing lines are
        // the threat-space search's job.
        match self.movegen.situation(board) {
            Situation::Win => Err(MATE - (ply as i32 + 1)),
            Situation::Lost => Err(-(MATE - (ply as i32 + 2))),
            Situation::Full => Err(0),
            // A quiet horizon where the side to move can leave more threats than one turn
            // blocks: neither side has a threat road, so the opponent cannot win first and
            // the win two turns on is exact, where the static score only guesses at it.
            Situation::Quiet if depth <= 0 && self.horizon_wins && self.movegen.wins_next_turn(board) => {
                Err(MATE - (ply as i32 + 3))
            }
            _ if depth <= 0 || ply >= MAX_PLY => Err(eval.evaluate(pos)),
            _ => Ok(()),
        }
    }

    /// Where at least two turns remain, moves making double threats are added: one making
    /// three threats wins, and the child's node entry sees it.
    #[inline]
    pub fn generate(&mut self, board: &Board, depth: i32, out: &mut Vec<Move>) {
        if depth >= 2 {
            self.movegen.generate_with_threats(board, THREAT_MOVES, out);
        } else {
            self.movegen.generate(board, out);
        }
    }

    /// See [`TreeGame::generate_stage`]: the generator's first stage (see
    /// [`MoveGen::first_stage`]), then everything [`generate`](Self::generate) lists.
    #[inline]
    pub fn generate_stage(&mut self, board: &Board, depth: i32, stage: usize, out: &mut Vec<Move>) -> bool {
        if stage == 0 && self.movegen.first_stage(board, out) {
            return true;
        }
        self.generate(board, depth, out);
        false
    }

    /// See [`TreeGame::root`].
    pub fn root(&mut self, board: &Board, out: &mut Vec<Move>) -> Root {
        match self.movegen.generate_with_threats(board, THREAT_MOVES, out) {
            Situation::Win => Root::Decided(MATE - 1),
            Situation::Lost => Root::Decided(-(MATE - 2)),
            Situation::Full => Root::Decided(0),
            Situation::Defend | Situation::Quiet => Root::Open,
        }
    }

    /// See [`Playouts::exact`].
    pub fn exact(&mut self, board: &Board) -> Option<Exact> {
        match self.movegen.situation(board) {
            Situation::Win => Some(Exact::Win(1)),
            Situation::Lost => Some(Exact::Loss(2)),
            Situation::Full => Some(Exact::Draw),
            Situation::Defend | Situation::Quiet => None,
        }
    }

    /// Plays both sides from the position for up to [`PLAYOUT_TURNS`] turns and returns
    /// Black's reward. The policy is the generator's priorities made cheap (one full
    /// generation costs about as much as a whole playout: 9 µs against 7 µs, measured
    /// mid-game): a side with a threat road wins and the game ends there; a side facing
    /// threats plays a random one of the minimal blocking sets, or loses when none exists;
    /// every other stone is the best, by the generator's `score_cell`, of [`PLAYOUT_SAMPLES`]
    /// random empty cells near random stones. At the cap the evaluation scores the position
    /// through `win_probability`.
    pub fn playout<P: ConnectPosition>(&mut self, eval: &impl Evaluate<P>, pos: &mut P, rng: &mut ChaCha8Rng) -> f64 {
        let start = pos.board().stone_count();
        let cells = pos.board().rules().cells();
        let mut outcome = None;
        for _ in 0..PLAYOUT_TURNS {
            let board = pos.board();
            let me = board.to_move();
            if board.threat_count(me) > 0 {
                outcome = Some(for_first(1.0, side_of(me)));
                break;
            }
            if board.is_full() {
                outcome = Some(0.5);
                break;
            }
            let mut left = board.stones_left_in_turn().min(cells - board.stone_count());
            if board.threat_count(me.other()) > 0 {
                self.threats.collect(board, me.other());
                self.threats.blocking_sets(left, &mut self.blocks);
                if self.blocks.is_empty() {
                    outcome = Some(for_first(0.0, side_of(me)));
                    break;
                }
                let block = self.blocks[rng.random_range(0..self.blocks.len())];
                for &c in block.stones() {
                    pos.place(c);
                    left -= 1;
                }
            }
            while left > 0 && !pos.board().is_full() {
                let c = self.playout_stone(pos.board(), rng);
                pos.place(c);
                left -= 1;
            }
            // A side without a threat road cannot make a line in one turn.
            debug_assert!(pos.board().winner().is_none());
        }
        let first = outcome.unwrap_or_else(|| {
            let p = win_probability(eval.evaluate(pos));
            for_first(p, side_of(pos.board().to_move()))
        });
        while pos.board().stone_count() > start {
            pos.unplace();
        }
        first
    }

    /// A quiet playout stone: the best-scoring of a few random empty cells near random stones.
    fn playout_stone(&mut self, board: &Board, rng: &mut ChaCha8Rng) -> Cell {
        let me = board.to_move();
        let stones = board.history();
        let geo = board.geometry();
        let mut best: Option<(i32, Cell)> = None;
        let mut found = 0;
        // Rejections happen where the neighbourhoods are crowded; bound the tries and fall
        // back to a scan so that a playout always finds a cell.
        for _ in 0..PLAYOUT_SAMPLES * 4 {
            if found == PLAYOUT_SAMPLES || stones.is_empty() {
                break;
            }
            let s = stones[rng.random_range(0..stones.len())];
            let near = &geo.near_cells[s as usize];
            let c = near[rng.random_range(0..near.len())];
            if !board.is_empty_cell(c) {
                continue;
            }
            found += 1;
            let score = self.movegen.score_cell(board, me, c);
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, c));
            }
        }
        if let Some((_, c)) = best {
            return c;
        }
        let cells = board.rules().cells() as Cell;
        let mut empty = (0..cells).filter(|&c| board.is_empty_cell(c));
        let first = empty.next().expect("a playout stone is only asked for on a board with an empty cell");
        std::iter::once(first).chain(empty).find(|&c| board.has_stone_near(c)).unwrap_or(first)
    }
}

/// A table move fits when its stones are free and make a whole turn (or the rest of the
/// board).
#[inline]
pub fn playable(board: &Board, m: Move) -> bool {
    m.stones().len() == board.turn_size().min(board.rules().cells() - board.stone_count())
        && m.stones().iter().all(|&c| board.is_empty_cell(c))
}

/// The threat-space search's win at the root, with its score: the win needs `attacks` of
/// the mover's turns, the last one completing the line.
pub fn prove_win<P: ConnectPosition>(
    gen: &mut ConnectGen,
    clock: &mut Clock,
    pos: &mut P,
    settings: &EngineSettings,
) -> Option<(Move, i32)> {
    gen.vcdt(clock, pos, settings.vcdt_depth, settings.vcdt_nodes)
        .map(|(m, attacks)| (m, MATE - (2 * attacks as i32 + 1)))
}

/// The Connect games' threat-space search as the tree searches' tactics: Connect6's
/// continuous double threats, Gomoku's continuous fours.
pub struct ThreatSpace;

impl<G: TreeGame<Gen = ConnectGen>> Tactics<G> for ThreatSpace
where
    G::Position: ConnectPosition,
{
    fn prove_win(
        gen: &mut ConnectGen,
        clock: &mut Clock,
        pos: &mut G::Position,
        settings: &EngineSettings,
    ) -> Option<(Move, i32)> {
        prove_win(gen, clock, pos, settings)
    }

    fn has_proven_win(
        gen: &mut ConnectGen,
        clock: &mut Clock,
        pos: &mut G::Position,
        settings: &EngineSettings,
    ) -> bool {
        gen.vcdt(clock, pos, settings.vcdt_depth, settings.vcdt_nodes).is_some()
    }
}

impl Searchable for Connect6 {
    type Eval = Evaluator;
    type Searcher = TreeSearch<Connect6, ThreatSpace>;

    fn evaluator(&self, eval: &str, weights: &Weights) -> Evaluator {
        assert_eq!(weights.schema().game, Self::NAME, "a table of another game");
        Evaluator::new(eval, weights)
    }

    /// A threat road on the board (one the side to move completes this turn, or one of the
    /// opponent's it must block) decides the position by what the search finds after the six
    /// or the block, not by the shapes: such positions are left out of `fit-eval`'s labels.
    fn quiet_for_static(&self, pos: &Board) -> bool {
        let me = pos.to_move();
        pos.threat_count(me) == 0 && pos.threat_count(me.other()) == 0
    }
}

impl TreeGame for Connect6 {
    type Gen = ConnectGen;

    fn generator(&self, settings: &EngineSettings, weights: &Weights) -> ConnectGen {
        ConnectGen::new(Self::RULES, settings, weights)
    }

    fn history_size(&self) -> usize {
        Self::RULES.cells()
    }

    #[inline]
    fn node_entry(gen: &mut ConnectGen, eval: &Evaluator, pos: &Board, depth: i32, ply: usize) -> Result<(), i32> {
        gen.node_entry(eval, pos, depth, ply)
    }

    #[inline]
    fn generate(gen: &mut ConnectGen, pos: &Board, depth: i32, out: &mut Vec<Move>) {
        gen.generate(pos, depth, out)
    }

    #[inline]
    fn generate_stage(gen: &mut ConnectGen, pos: &Board, depth: i32, stage: usize, out: &mut Vec<Move>) -> bool {
        gen.generate_stage(pos, depth, stage, out)
    }

    fn root(gen: &mut ConnectGen, pos: &Board, out: &mut Vec<Move>) -> Root {
        gen.root(pos, out)
    }

    #[inline]
    fn playable(pos: &Board, m: Move) -> bool {
        playable(pos, m)
    }

    #[inline]
    fn killer_playable(pos: &Board, m: Move) -> bool {
        // In a quiet position any free pair is a real move; under threat only blocks are, and
        // the generator knows them.
        pos.threat_count(pos.to_move().other()) == 0 && playable(pos, m)
    }

    fn replayable(pos: &Board, m: Move) -> bool {
        m.stones().iter().all(|&c| pos.is_empty_cell(c))
    }
}

impl Playouts for Connect6 {
    fn exact(gen: &mut ConnectGen, pos: &Board) -> Option<Exact> {
        gen.exact(pos)
    }

    fn playout(gen: &mut ConnectGen, eval: &Evaluator, pos: &mut Board, rng: &mut ChaCha8Rng) -> f64 {
        gen.playout(eval, pos, rng)
    }
}

#[cfg(test)]
mod tests {
    use crate::core::limits::Limits;
    use crate::core::settings::EngineSettings;
    use crate::games::connect::eval::CONNECT6_ROADS;
    use crate::games::connect::game::make_move;
    use crate::games::connect::movegen::{MoveGen, MoveGenConfig};
    use crate::games::connect::notation::board_from_record_moves;
    use crate::games::connect::{Board, Colour, Connect6, Rules};
    use crate::search::{Engine, SearchResult, MATE_BOUND};

    fn search(board: &Board, horizon_wins: bool, depth: u32) -> SearchResult<crate::games::connect::movegen::Move> {
        let settings = EngineSettings { vcdt_depth: 0, horizon_wins, ..EngineSettings::default() };
        let mut engine = Engine::<Connect6>::new(settings, &CONNECT6_ROADS.defaults());
        engine.new_game(0);
        engine.search(&mut board.clone(), &Limits::depth(depth))
    }

    /// White to move against three open black threes (rows 4, 10 and 16; White's stones are
    /// scattered and make nothing): two white stones spoil two of them at most, and Black's
    /// next turn makes an open four and a four, three blocks. At depth 1 that win is beyond
    /// the horizon's static score; `horizon_wins` scores it exact, as a depth-3 search does.
    #[test]
    fn the_horizon_sees_a_win_two_turns_on() {
        let moves = ["d4", "a19s19", "c4e4", "a1s1", "c10d10", "j19j1", "e10d16", "s10j13", "c16e16"];
        let board = board_from_record_moves(Rules::CONNECT6, &moves).unwrap();
        assert_eq!(board.to_move(), Colour::White);
        assert!(search(&board, true, 1).score < -MATE_BOUND);
        assert!(search(&board, false, 1).score > -MATE_BOUND, "the static score does not see it");
        assert!(search(&board, false, 3).score < -MATE_BOUND, "the loss is real");
    }

    /// With two open threes against it White can spoil both: at depth 1 `horizon_wins` rejects
    /// every move that leaves Black a win two turns on.
    #[test]
    fn the_horizon_steers_to_a_defence() {
        let moves = ["d4", "a19s19", "c4e4", "a1s1", "c10d10", "j19j1", "e10s10"];
        let board = board_from_record_moves(Rules::CONNECT6, &moves).unwrap();
        assert_eq!(board.to_move(), Colour::White);
        let r = search(&board, true, 1);
        assert!(r.score > -MATE_BOUND, "White is not lost: {}", r.score);
        let mut b = board.clone();
        make_move(&mut b, r.best);
        assert!(!MoveGen::new(MoveGenConfig::default(), &b).wins_next_turn(&b), "{:?} leaves Black a win", r.best);
    }
}
