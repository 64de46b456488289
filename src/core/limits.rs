//! Search limits: when a search stops, and the ranges every front end (command line, GA and
//! SPSA configs) accepts for them.

/// The ranges of the search settings, shared by the command line and GA configs so that both
/// refuse the same values: past these a game takes hours per move or memory runs out.
pub const MAX_DEPTH: u32 = 60;
pub const MAX_NODES: u64 = 1_000_000_000;
/// One hour per move.
pub const MAX_TIME_MS: u64 = 3_600_000;
/// Per engine; a game has two and every thread plays a game.
pub const MAX_TT_MIB: usize = 4096;
/// Moves kept per node by the move generator (`--width`, `[engine] width`).
pub const MAX_WIDTH: usize = 400;

/// When a search stops. Any combination; the first limit reached stops it. A search limited
/// only by depth or nodes is deterministic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// Iterative deepening stops after this depth (in turns). For MCTS, a budget of
    /// [`mcts::PLAYOUTS_PER_DEPTH`] playouts per unit of depth.
    pub depth: Option<u32>,
    /// Nodes (PVS / alpha-beta) or playouts (MCTS).
    pub nodes: Option<u64>,
    /// Wall-clock milliseconds per move: the search never takes longer. Alone (a fixed time
    /// per move, which no later move can use) the search uses it all.
    pub time_ms: Option<u64>,
    /// Under a game clock, where time saved is kept for later moves: the time the move should
    /// take. Iterative deepening starts no new iteration past it, or past more of it when
    /// the best move has just changed and less when it has stayed put (see
    /// `search::pvs`); `time_ms` still bounds the move. Set by the arena and the engine
    /// protocols from the clock, never by configs.
    #[serde(skip)]
    pub soft_ms: Option<u64>,
}

impl Limits {
    pub fn depth(d: u32) -> Limits {
        Limits { depth: Some(d), ..Limits::default() }
    }

    pub fn nodes(n: u64) -> Limits {
        Limits { nodes: Some(n), ..Limits::default() }
    }

    pub fn time_ms(t: u64) -> Limits {
        Limits { time_ms: Some(t), ..Limits::default() }
    }

    pub fn is_unlimited(&self) -> bool {
        self.depth.is_none() && self.nodes.is_none() && self.time_ms.is_none()
    }

    /// A short description such as `depth 4` or `time 1000ms`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes {n}"));
        }
        if let Some(t) = self.time_ms {
            parts.push(format!("time {t}ms"));
        }
        if parts.is_empty() {
            "unlimited".into()
        } else {
            parts.join(", ")
        }
    }
}
