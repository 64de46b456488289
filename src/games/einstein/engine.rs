//! EinStein's searcher: a player's evaluation and working memory behind the engine's
//! [`Searcher`], answering every search with the chance-aware searches of [`search`](super::search)
//! (UCT with chance nodes, the paper's flat Monte Carlo, expectimax) instead of the tree
//! searches, which assume a player moves at every node.

use std::time::Instant;

use crate::core::limits::Limits;
use crate::core::settings::EngineSettings;
use crate::core::weights::Weights;
use crate::games::einstein::board::{Board, Move};
use crate::games::einstein::eval::HybridEval;
use crate::games::einstein::search::{self, Variant};
use crate::games::einstein::Einstein;
use crate::search::mcts::stream_seed;
use crate::search::{Clock, MoveRank, SearchResult, Searchable, Searcher};

/// One EinStein player: its evaluation and the searches' working memory.
pub struct ChanceSearch {
    settings: EngineSettings,
    eval: HybridEval,
    searcher: search::Searcher,
    clock: Clock,
    /// The seed of the game, from which each search draws its own stream.
    rng_seed: u64,
    /// Searches since the last new game.
    searches: u64,
}

impl Searcher<Einstein> for ChanceSearch {
    fn new(settings: EngineSettings, weights: &Weights) -> Self {
        let eval = settings.eval.as_deref().unwrap_or(weights.schema().eval);
        ChanceSearch {
            eval: Einstein.evaluator(eval, weights),
            searcher: search::Searcher::new(Variant::of(settings.eval.as_deref())),
            clock: Clock::unlimited(),
            rng_seed: 0,
            searches: 0,
            settings,
        }
    }

    fn new_game(&mut self, seed: u64) {
        self.rng_seed = seed;
        self.searches = 0;
    }

    /// Each search draws its own random stream from the game seed and the number of searches
    /// since, so a search limited by nodes or depth is a pure function of its inputs.
    fn search(&mut self, pos: &mut Board, limits: &Limits) -> SearchResult<Move> {
        let start = Instant::now();
        self.clock.start(limits, start, self.settings.clock_nps);
        self.searches += 1;
        let seed = stream_seed(self.rng_seed, self.searches);
        let mut result =
            search::search(&mut self.searcher, &self.eval, pos, &self.settings, limits, &mut self.clock, seed);
        // The time by the search's clock: the wall clock's, or counted in positions.
        result.elapsed = self.clock.now().saturating_duration_since(start);
        result.nodes = self.clock.nodes;
        result
    }

    fn evaluator(&self) -> &HybridEval {
        &self.eval
    }

    fn table_bytes(&self) -> usize {
        0
    }

    fn replayable(pos: &Board, m: Move) -> bool {
        pos.is_legal(m)
    }

    fn root_ranks(&mut self, _samples: &[(Board, Move)]) -> Option<Vec<MoveRank>> {
        None
    }
}

#[cfg(test)]
mod tests {
    use crate::core::game::Position;
    use crate::core::limits::Limits;
    use crate::core::settings::{EngineSettings, SearchKind};
    use crate::games::einstein::board::{Board, Phase};
    use crate::games::einstein::eval::EINSTEIN_HYBRID;
    use crate::games::einstein::notation::parse_move;
    use crate::games::einstein::Einstein;
    use crate::search::Engine;

    /// A search of 20 ms a move on a clock counted in positions (50,000 a second: 1,000
    /// positions or playouts): `(nodes, move, elapsed)`.
    fn counted_search(kind: SearchKind) -> (u64, crate::games::einstein::board::Move, std::time::Duration) {
        let settings = EngineSettings { search: kind, clock_nps: 50_000, ..EngineSettings::default() };
        let mut engine = Engine::<Einstein>::new(settings, &EINSTEIN_HYBRID.defaults());
        engine.new_game(7);
        let mut board = Board::start();
        for text in ["351624", "246135"] {
            board.play(parse_move(text).unwrap());
        }
        assert_eq!(board.phase(), Phase::Roll);
        board.roll(4);
        let result = engine.search(&mut board, &Limits::time_ms(20));
        (result.nodes, result.best, result.elapsed)
    }

    /// EinStein's own searches count their time in positions too: a timed search is then
    /// deterministic and stops at its time's worth of positions (checked every 1,024).
    #[test]
    fn a_timed_search_on_a_counted_clock_is_deterministic() {
        for kind in [SearchKind::Pvs, SearchKind::Mcts] {
            let once = counted_search(kind);
            assert_eq!(counted_search(kind), once, "{kind:?}");
            assert!((1_000..=2_100).contains(&once.0), "{kind:?}: {once:?}");
            assert!(once.2 <= std::time::Duration::from_millis(42), "{kind:?}: {once:?}");
        }
    }
}
