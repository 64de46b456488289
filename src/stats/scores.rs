//! Game results and their Elo: one game's score, win/draw/loss counts, and the pentanomial
//! counts of game pairs, with intervals and the likelihood of superiority.

use statrs::function::erf::erf;

use super::elo::elo_from_score;
use super::sample::{half_width, Sample, PAIR_VALUES};

/// The result of one game for the player whose statistics are being kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameScore {
    Loss,
    Draw,
    Win,
}

impl GameScore {
    /// Points in half-points: 0, 1 or 2.
    pub fn half_points(self) -> usize {
        match self {
            GameScore::Loss => 0,
            GameScore::Draw => 1,
            GameScore::Win => 2,
        }
    }

    /// The same game seen by the opponent.
    pub fn reversed(self) -> GameScore {
        match self {
            GameScore::Loss => GameScore::Win,
            GameScore::Draw => GameScore::Draw,
            GameScore::Win => GameScore::Loss,
        }
    }
}

/// Win / draw / loss counts of one player against another (the trinomial model: every game an
/// independent sample).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn new(wins: u64, draws: u64, losses: u64) -> Self {
        Wdl { wins, draws, losses }
    }

    /// Counts the results of a list of games.
    pub fn from_games(games: impl IntoIterator<Item = GameScore>) -> Self {
        let mut wdl = Wdl::default();
        for g in games {
            wdl.add(g);
        }
        wdl
    }

    /// Adds one game.
    pub fn add(&mut self, game: GameScore) {
        match game {
            GameScore::Loss => self.losses += 1,
            GameScore::Draw => self.draws += 1,
            GameScore::Win => self.wins += 1,
        }
    }

    /// The same counts from the opponent's side.
    pub fn reversed(&self) -> Wdl {
        Wdl { wins: self.losses, draws: self.draws, losses: self.wins }
    }

    /// Number of games (saturating, so absurd counts cannot overflow).
    pub fn games(&self) -> u64 {
        self.wins.saturating_add(self.draws).saturating_add(self.losses)
    }

    /// Points: wins + draws / 2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Points per game; 0.5 (no evidence either way) when no game was played.
    pub fn score(&self) -> f64 {
        self.sample().mean
    }

    /// Share of drawn games; 0 when no game was played.
    pub fn draw_ratio(&self) -> f64 {
        let n = self.wins as f64 + self.draws as f64 + self.losses as f64;
        if n > 0.0 {
            self.draws as f64 / n
        } else {
            0.0
        }
    }

    /// Logistic Elo difference of the score (±∞ for a perfect score, 0 with no games).
    pub fn elo(&self) -> f64 {
        elo_from_score(self.score())
    }

    /// 95% confidence interval of the Elo difference, as cutechess-cli computes it: the
    /// per-game score has the trinomial variance σ² = w(1−s)² + d(½−s)² + l(0−s)² (w, d, l the
    /// observed frequencies), the score interval is s ± 1.96·σ/√n, and each end is converted to
    /// Elo. Ends beyond a score of 0 or 1 are -∞ / +∞; no games gives (-∞, +∞).
    pub fn elo_ci95(&self) -> (f64, f64) {
        self.sample().elo_ci95()
    }

    /// Half the width of [`Wdl::elo_ci95`]: the "±" that cutechess-cli and fastchess print.
    /// Infinite when either end is.
    pub fn elo_error95(&self) -> f64 {
        half_width(self.elo_ci95())
    }

    /// Likelihood of superiority, cutechess-cli's formula: Φ((W−L)/√(W+L)), that is
    /// ½·(1 + erf((W−L)/√(2(W+L)))). Draws carry no information here. 0.5 when W + L = 0.
    pub fn los(&self) -> f64 {
        let decisive = self.wins as f64 + self.losses as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        let diff = self.wins as f64 - self.losses as f64;
        0.5 * (1.0 + erf(diff / (2.0 * decisive).sqrt()))
    }

    fn sample(&self) -> Sample {
        Sample::of([self.losses as f64, self.draws as f64, self.wins as f64], [0.0, 0.5, 1.0])
    }
}

impl std::ops::Add for Wdl {
    type Output = Wdl;

    /// The counts of both (saturating).
    fn add(self, other: Wdl) -> Wdl {
        Wdl {
            wins: self.wins.saturating_add(other.wins),
            draws: self.draws.saturating_add(other.draws),
            losses: self.losses.saturating_add(other.losses),
        }
    }
}

impl std::ops::AddAssign for Wdl {
    fn add_assign(&mut self, other: Wdl) {
        *self = *self + other;
    }
}

/// Counts of game-pair scores 0, ½, 1, 1½ and 2, in that order, where a pair is the two games
/// of one opening with colours swapped (the pentanomial model of fishtest and fastchess, which
/// cancels most of the opening's bias and so gives tighter, more honest error bars than
/// treating the games as independent).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Counts a list of pairs, each the results of the two games of one opening.
    pub fn from_pairs(pairs: impl IntoIterator<Item = (GameScore, GameScore)>) -> Self {
        let mut p = Pentanomial::default();
        for (a, b) in pairs {
            p.add_pair(a, b);
        }
        p
    }

    /// Adds one pair.
    pub fn add_pair(&mut self, first: GameScore, second: GameScore) {
        self.0[first.half_points() + second.half_points()] += 1;
    }

    /// The same counts from the opponent's side.
    pub fn reversed(&self) -> Pentanomial {
        let mut r = self.0;
        r.reverse();
        Pentanomial(r)
    }

    /// Number of pairs (saturating).
    pub fn pairs(&self) -> u64 {
        self.0.iter().fold(0u64, |acc, &c| acc.saturating_add(c))
    }

    /// Points per game; 0.5 when no pair was played.
    pub fn score(&self) -> f64 {
        self.sample().mean
    }

    /// Logistic Elo difference of the score.
    pub fn elo(&self) -> f64 {
        elo_from_score(self.score())
    }

    /// 95% confidence interval of the Elo difference under the pentanomial model (fastchess's
    /// and fishtest's): the sample is one value per pair, pair score / 2, with its observed
    /// variance σ²; the score interval is s ± 1.96·σ/√pairs, each end converted to Elo.
    pub fn elo_ci95(&self) -> (f64, f64) {
        self.sample().elo_ci95()
    }

    /// Half the width of [`Pentanomial::elo_ci95`], the printed "±"; infinite when either end is.
    pub fn elo_error95(&self) -> f64 {
        half_width(self.elo_ci95())
    }

    fn sample(&self) -> Sample {
        Sample::of(self.0.map(|c| c as f64), PAIR_VALUES)
    }
}
