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
        self.clock.start(limits, start, 0);
        self.searches += 1;
        let seed = stream_seed(self.rng_seed, self.searches);
        let mut result =
            search::search(&mut self.searcher, &self.eval, pos, &self.settings, limits, &mut self.clock, seed);
        result.elapsed = start.elapsed();
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
