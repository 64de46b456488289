//! How a game makes openings: the generator's settings, and the [`OpeningMaker`] each game
//! implements to draw one candidate opening from a random stream. Suites, their files and
//! the generator that keeps the distinct openings are the arena's (`arena::openings`).

use rand_chacha::ChaCha8Rng;

/// What the generator's settings are checked against: the board, and how many stones (or
/// pieces moved) an opening of some turns holds.
pub trait OpeningBoard {
    /// Columns and rows of the board (for the opening generator's radius).
    fn board_size(&self) -> (usize, usize);
    /// Stones (or pieces moved) in an opening of `turns` turns.
    fn stones_in_turns(&self, turns: usize) -> usize;
}

/// How a suite is generated.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OpeningConfig {
    /// Openings in the suite.
    pub count: usize,
    /// Turns of each opening (Connect6: 3 turns = Black's first stone, White's pair, Black's
    /// pair; White to move).
    pub turns: usize,
    /// Black's first stone (`played`), or every stone (`random`), goes within this
    /// (Chebyshev) distance of the centre.
    pub radius: usize,
    /// `random` openings are kept only if the road evaluation with the default weights is
    /// within this many points of even, for the side to move. (A `played` opening is made of
    /// sensible moves; its balance is measured by games instead: see docs/strength.md.)
    pub balance: i32,
    /// `played`: after a first stone near the centre, each turn is one of the `top` best moves
    /// of the move generator, drawn at random (sensible positions, as in a game); `random`:
    /// every stone uniformly at random within `radius` of the centre.
    pub method: OpeningMethod,
    /// How many of the generator's best moves a `played` opening draws from.
    pub top: usize,
}

/// How openings are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum OpeningMethod {
    Played,
    Random,
}

impl Default for OpeningConfig {
    fn default() -> Self {
        OpeningConfig { count: 64, turns: 3, radius: 3, balance: 200, method: OpeningMethod::Played, top: 16 }
    }
}

/// The most openings a suite may ask for (a match of this many pairs takes days).
pub const MAX_COUNT: usize = 100_000;
/// The most turns an opening may have; longer ones rarely stay free of threats.
pub const MAX_TURNS: usize = 30;
/// The widest `top` (the move generator's own cap on searched moves).
pub const MAX_TOP: usize = 400;

impl OpeningConfig {
    /// The largest `radius` on a board: from the centre to the nearest edge.
    pub fn max_radius(game: &dyn OpeningBoard) -> usize {
        let (w, h) = game.board_size();
        (w.min(h) - 1) / 2
    }

    /// Checks every value's range on the game's board. The error names the setting
    /// (`count`, `turns`, ...) and says what is allowed; the caller puts it in its own terms
    /// (`[openings] count`, `--count`).
    pub fn check(&self, game: &dyn OpeningBoard) -> Result<(), BadSetting> {
        let bad = |key, message| Err(BadSetting { key, message });
        let max_radius = Self::max_radius(game);
        let (width, height) = game.board_size();
        if !(1..=MAX_COUNT).contains(&self.count) {
            return bad("count", format!("{}: between 1 and {MAX_COUNT}", self.count));
        }
        if !(1..=MAX_TURNS).contains(&self.turns) {
            return bad("turns", format!("{}: between 1 and {MAX_TURNS}", self.turns));
        }
        if !(1..=max_radius).contains(&self.radius) {
            return bad(
                "radius",
                format!(
                    "{}: between 1 and {max_radius} (the distance from the centre of the {width}x{height} board to its edge)",
                    self.radius
                ),
            );
        }
        if self.balance < 0 {
            return bad("balance", format!("{}: at least 0 (points from even)", self.balance));
        }
        if !(1..=MAX_TOP).contains(&self.top) {
            return bad("top", format!("{}: between 1 and {MAX_TOP}", self.top));
        }
        let cells = (2 * self.radius + 1).pow(2);
        let stones = game.stones_in_turns(self.turns);
        if self.method == OpeningMethod::Random && stones > cells {
            return bad(
                "turns",
                format!(
                    "{}: {stones} stones do not fit in the {cells} cells within radius {} of the centre; use fewer turns or a larger radius",
                    self.turns, self.radius
                ),
            );
        }
        Ok(())
    }
}

/// A generator setting out of its range: which one (`radius`), and `value: what is allowed`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{key} = {message}")]
pub struct BadSetting {
    pub key: &'static str,
    pub message: String,
}

/// One attempt of a game's opening maker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Attempt {
    /// An opening, and its key: equal for openings equal up to the board's symmetries.
    Made { moves: Vec<String>, key: Vec<u32> },
    /// Rejected: a threat on the board.
    Threat,
    /// Rejected (`random` method): the evaluation is this far from even.
    Unbalanced(i32),
}

/// How a game makes one candidate opening from the settings and a random stream; the
/// [`OpeningGenerator`] keeps the distinct ones and the statistics.
pub trait OpeningMaker: Send {
    fn attempt(&mut self, rng: &mut ChaCha8Rng) -> Attempt;
}
