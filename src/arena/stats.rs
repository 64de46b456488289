//! Match and tournament statistics: logistic Elo, confidence intervals, likelihood of
//! superiority, the pentanomial model of game pairs, the SPRT, and Bradley–Terry ratings.
//!
//! Engine authors compare these numbers with cutechess-cli, fastchess, fishtest, OpenBench and
//! BayesElo/Ordo, so every quantity follows a published formula, named in its doc comment. The
//! functions are pure: counts in, numbers out, nothing printed.
//!
//! Conventions shared by the whole module:
//! - "score" is the expected points per game of the first player, a win = 1, a draw = ½;
//! - "Elo" is logistic Elo, `score = 1 / (1 + 10^(-elo/400))`;
//! - 95% intervals use z = Φ⁻¹(0.975) ≈ 1.95996 (cutechess-cli and fastchess use an
//!   approximation of Φ⁻¹, so their printed error bars may differ from ours by about 0.2%);
//! - a score of exactly 0 or 1 has an Elo of -∞ or +∞ (not clamped), which Rust prints as
//!   `-inf` / `inf`; no function here returns NaN for any counts.
//!
//! ```
//! use evotune::arena::stats::{Pentanomial, Sprt, Wdl, GameScore::*};
//!
//! let wdl = Wdl::new(60, 20, 40);
//! assert!((wdl.score() - 0.5833).abs() < 1e-4);
//! assert!((wdl.los() - 0.977).abs() < 1e-3);
//!
//! let pairs = Pentanomial::from_pairs([(Win, Draw), (Loss, Win), (Draw, Draw)]);
//! assert_eq!(pairs.0, [0, 0, 2, 1, 0]);
//!
//! let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).expect("valid SPRT parameters");
//! let llr = sprt.llr_pentanomial(&pairs);
//! assert_eq!(sprt.verdict(llr), None); // three pairs decide nothing
//! ```

use statrs::function::erf::erf;

/// Φ⁻¹(0.975): the half-width of a two-sided 95% normal interval in standard deviations.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Ratings of a tournament are clipped to ±`RATING_CAP` Elo around the pool mean; a clipped
/// rating is only a bound and gets an infinite error bar.
pub const RATING_CAP: f64 = 1200.0;

/// Virtual draws added to every played pairing of a group of players whose maximum-likelihood
/// ratings would be infinite (someone won or lost everything against the rest). The same idea
/// as BayesElo's prior; one draw keeps a 100–0 result at about 920 Elo instead of infinity.
const PRIOR_DRAWS: f64 = 1.0;

/// fishtest's regularisation: an empty outcome class counts as 1e-3 observations, so that a
/// sample with a single outcome (say, all wins) still has a positive variance and the SPRT
/// can stop on it instead of running forever.
const LLR_EMPTY_CLASS: f64 = 1e-3;

/// Elo per natural-log unit of the Bradley–Terry strength: 400 / ln 10.
const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// The logistic Elo difference whose expected score is `score`: -400·log10(1/s − 1).
///
/// Returns -∞ for `score <= 0` and +∞ for `score >= 1` (no clamping; the caller decides how
/// to show a perfect result). NaN in, NaN out.
///
/// ```
/// use evotune::arena::stats::elo_from_score;
/// assert!((elo_from_score(0.75) - 190.849).abs() < 1e-3);
/// assert_eq!(elo_from_score(1.0), f64::INFINITY);
/// ```
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        // s / (1 − s) rather than 1/s − 1: the same number, one rounding fewer near s = 1.
        400.0 * (score / (1.0 - score)).log10()
    }
}

/// The expected score of a player `elo` logistic Elo stronger: 1 / (1 + 10^(-elo/400)).
/// ±∞ gives 1 or 0.
///
/// ```
/// use evotune::arena::stats::score_from_elo;
/// assert_eq!(score_from_elo(0.0), 0.5);
/// ```
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

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

/// Per-game score of each pentanomial class: pair score / 2.
const PAIR_VALUES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Count, mean and (population) variance of a sample given as counts per value.
#[derive(Clone, Copy, Debug)]
struct Sample {
    n: f64,
    mean: f64,
    var: f64,
}

impl Sample {
    fn of<const K: usize>(counts: [f64; K], values: [f64; K]) -> Sample {
        let n: f64 = counts.iter().sum();
        if n <= 0.0 {
            return Sample { n: 0.0, mean: 0.5, var: 0.0 };
        }
        let mean = counts.iter().zip(values).map(|(c, v)| c * v).sum::<f64>() / n;
        let var = counts.iter().zip(values).map(|(c, v)| c * (v - mean) * (v - mean)).sum::<f64>() / n;
        // Rounding can leave a mean a hair outside [0, 1] or a variance a hair below 0.
        Sample { n, mean: mean.clamp(0.0, 1.0), var: var.max(0.0) }
    }

    fn elo_ci95(&self) -> (f64, f64) {
        if self.n <= 0.0 {
            return (f64::NEG_INFINITY, f64::INFINITY);
        }
        let half = Z95 * (self.var / self.n).sqrt();
        (elo_from_score(self.mean - half), elo_from_score(self.mean + half))
    }
}

fn half_width((lo, hi): (f64, f64)) -> f64 {
    if lo.is_finite() && hi.is_finite() {
        (hi - lo) / 2.0
    } else {
        f64::INFINITY
    }
}

/// Which hypothesis an SPRT accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Hypothesis {
    /// The Elo difference is at most `elo0`.
    H0,
    /// The Elo difference is at least `elo1`.
    H1,
}

/// Why SPRT parameters were refused.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum SprtError {
    #[error("SPRT error rates must lie strictly between 0 and 1 (got alpha = {alpha}, beta = {beta})")]
    ErrorRate { alpha: f64, beta: f64 },
    #[error("SPRT needs finite Elo bounds with elo0 < elo1 (got elo0 = {elo0}, elo1 = {elo1}), e.g. --sprt 0,5")]
    EloBounds { elo0: f64, elo1: f64 },
}

/// A sequential probability ratio test of H0: Elo = `elo0` against H1: Elo = `elo1` (logistic
/// Elo), with false-positive rate `alpha` and false-negative rate `beta`.
///
/// Build it with [`Sprt::new`], which checks the parameters; the methods never panic, but on
/// unchecked parameters their numbers mean nothing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl Sprt {
    /// Checks 0 < alpha, beta < 1 and finite elo0 < elo1.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        let rate_ok = |x: f64| x > 0.0 && x < 1.0;
        if !rate_ok(alpha) || !rate_ok(beta) {
            return Err(SprtError::ErrorRate { alpha, beta });
        }
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(SprtError::EloBounds { elo0, elo1 });
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }

    /// Wald's stopping bounds on the log-likelihood ratio: (ln(β/(1−α)), ln((1−β)/α)),
    /// ±2.944 for α = β = 0.05.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// Log-likelihood ratio of H1 over H0 from game pairs (the model fishtest, OpenBench and
    /// fastchess use by default). See [`Sprt::llr_trinomial`] for the formula; here the sample is
    /// one value per pair, pair score / 2.
    pub fn llr_pentanomial(&self, pairs: &Pentanomial) -> f64 {
        self.gsprt_llr(pairs.0, PAIR_VALUES)
    }

    /// Log-likelihood ratio of H1 over H0 from single games.
    ///
    /// Michel Van den Bergh's generalized SPRT for logistic Elo bounds, in the normal
    /// approximation that fishtest, OpenBench and fastchess use: with s0, s1 the expected scores
    /// of elo0, elo1 and x̄, σ² the mean and variance of the per-sample score over N samples,
    /// LLR ≈ N·(s1 − s0)·(2x̄ − s0 − s1) / (2σ²).
    ///
    /// As fishtest does, an outcome class never observed counts as 1e-3 observations, so that
    /// a one-sided sample (say, all wins) has a positive variance and still reaches a verdict.
    /// No games gives 0.
    pub fn llr_trinomial(&self, wdl: &Wdl) -> f64 {
        self.gsprt_llr([wdl.losses, wdl.draws, wdl.wins], [0.0, 0.5, 1.0])
    }

    fn gsprt_llr<const K: usize>(&self, counts: [u64; K], values: [f64; K]) -> f64 {
        if counts.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let regularised = counts.map(|c| if c == 0 { LLR_EMPTY_CLASS } else { c as f64 });
        let sample = Sample::of(regularised, values);
        if sample.var <= 0.0 {
            // Cannot happen after regularisation with distinct values; kept so that no input
            // can divide by zero.
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        sample.n * (s1 - s0) * (2.0 * sample.mean - s0 - s1) / (2.0 * sample.var)
    }

    /// H1 once `llr` reaches the upper bound, H0 once it reaches the lower, `None` to go on
    /// playing (also for a NaN `llr`).
    pub fn verdict(&self, llr: f64) -> Option<Hypothesis> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Hypothesis::H1)
        } else if llr <= lower {
            Some(Hypothesis::H0)
        } else {
            None
        }
    }
}

/// One player's tournament rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Logistic Elo relative to the mean of the player's group (see [`ratings`]).
    pub elo: f64,
    /// Half-width of the 95% interval of `elo`; infinite for a player without games or whose
    /// rating was clipped at ±[`RATING_CAP`].
    pub error95: f64,
}

/// Why [`ratings`] refused its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RatingsError {
    #[error("result names player {index} but the tournament has {n_players} players")]
    PlayerOutOfRange { index: usize, n_players: usize },
    #[error("result pairs player {index} with itself")]
    SelfPairing { index: usize },
}

/// Ratings of a tournament by a maximum-likelihood Bradley–Terry fit (the model of BayesElo
/// without its draw and advantage parameters, and of Ordo): P(i beats j) = γi / (γi + γj), a
/// draw counted as half a win for each side, elo = 400·log10 γ.
///
/// `results` holds `(i, j, wdl)` with `wdl` counted from player i's side; a pairing may appear
/// several times, in either order. The fit is the MM iteration of Hunter (2004, "MM algorithms
/// for generalized Bradley–Terry models").
///
/// - **Anchor**: ratings have mean 0 over each group of players connected by games (groups that
///   never met cannot be compared; a single tournament is one group). With two players the
///   difference of their ratings is exactly [`elo_from_score`] of their score, i.e.
///   [`Wdl::elo`] (unless one of them scored everything, see below); there each rating's
///   error bar is half that of the difference.
/// - **Error bars**: 1.96 standard deviations from the inverse of the observed Fisher
///   information (minus the Hessian of the log-likelihood in natural-log strengths), taken as
///   the pseudo-inverse that fixes the group mean: (I + 11ᵀ/m)⁻¹ − 11ᵀ/m. They measure a
///   rating against the group mean, so the error of a difference between two players is not
///   the sum of their error bars. Being binomial, they ignore that draws lower the variance, so
///   with draws they are wider than the trinomial bars of [`Wdl::elo_ci95`].
/// - **Perfect scores**: when a player, or a set of players, won or lost every game against the
///   rest of its group, the maximum-likelihood ratings are infinite. Only for such a group, one
///   virtual draw is added to every pairing that was played (a BayesElo-like prior), and then
///   every rating is clipped to ±[`RATING_CAP`] (1200) with an infinite error bar when clipped
///   (the mean is 0 before clipping). A 100–0 result then reads about ±460 per player.
/// - Players who played no game get 0 ± ∞.
pub fn ratings(n_players: usize, results: &[(usize, usize, Wdl)]) -> Result<Vec<Rating>, RatingsError> {
    let mut table = Table::new(n_players);
    for &(i, j, wdl) in results {
        for index in [i, j] {
            if index >= n_players {
                return Err(RatingsError::PlayerOutOfRange { index, n_players });
            }
        }
        if i == j {
            return Err(RatingsError::SelfPairing { index: i });
        }
        table.add(i, j, &wdl);
    }

    let mut out = vec![Rating { elo: 0.0, error95: f64::INFINITY }; n_players];
    for group in table.groups() {
        if group.len() < 2 {
            continue;
        }
        let mut sub = table.restrict(&group);
        if !sub.strongly_connected() {
            sub.add_prior_draws(PRIOR_DRAWS);
        }
        let theta = sub.fit();
        let variances = sub.rating_variances(&theta);
        for (k, &player) in group.iter().enumerate() {
            let elo = ELO_PER_NAT * theta[k];
            let error95 = Z95 * ELO_PER_NAT * variances[k].sqrt();
            out[player] = if elo.abs() > RATING_CAP {
                Rating { elo: RATING_CAP.copysign(elo), error95: f64::INFINITY }
            } else {
                Rating { elo, error95: if error95.is_nan() { f64::INFINITY } else { error95 } }
            };
        }
    }
    Ok(out)
}

/// Points and games between every two players, dense because tournaments are small.
struct Table {
    n: usize,
    /// `points[i * n + j]`: points player i scored against player j.
    points: Vec<f64>,
    /// `games[i * n + j]`: games between i and j (symmetric).
    games: Vec<f64>,
}

impl Table {
    fn new(n: usize) -> Table {
        Table { n, points: vec![0.0; n * n], games: vec![0.0; n * n] }
    }

    fn add(&mut self, i: usize, j: usize, wdl: &Wdl) {
        let n = self.n;
        let games = wdl.wins as f64 + wdl.draws as f64 + wdl.losses as f64;
        self.points[i * n + j] += wdl.points();
        self.points[j * n + i] += wdl.reversed().points();
        self.games[i * n + j] += games;
        self.games[j * n + i] += games;
    }

    /// Connected components of the "played a game" graph, each sorted.
    fn groups(&self) -> Vec<Vec<usize>> {
        let n = self.n;
        let mut assigned = vec![false; n];
        let mut groups = Vec::new();
        for start in 0..n {
            if assigned[start] {
                continue;
            }
            let seen = reachable(n, start, |i, j| self.games[i * n + j] > 0.0);
            let group: Vec<usize> = (0..n).filter(|&j| seen[j]).collect();
            for &j in &group {
                assigned[j] = true;
            }
            groups.push(group);
        }
        groups
    }

    fn restrict(&self, players: &[usize]) -> Table {
        let mut sub = Table::new(players.len());
        for (a, &i) in players.iter().enumerate() {
            for (b, &j) in players.iter().enumerate() {
                sub.points[a * sub.n + b] = self.points[i * self.n + j];
                sub.games[a * sub.n + b] = self.games[i * self.n + j];
            }
        }
        sub
    }

    /// Hunter's condition for a finite maximum-likelihood estimate: in every split of the
    /// players into two sides, each side scored some points against the other; equivalently
    /// the graph "i scored against j" is strongly connected.
    fn strongly_connected(&self) -> bool {
        let n = self.n;
        let all = |seen: Vec<bool>| seen.into_iter().all(|s| s);
        n == 0
            || (all(reachable(n, 0, |i, j| self.points[i * n + j] > 0.0))
                && all(reachable(n, 0, |i, j| self.points[j * n + i] > 0.0)))
    }

    fn add_prior_draws(&mut self, draws: f64) {
        let n = self.n;
        for i in 0..n {
            for j in 0..n {
                if i != j && self.games[i * n + j] > 0.0 {
                    self.points[i * n + j] += draws / 2.0;
                    self.games[i * n + j] += draws;
                }
            }
        }
    }

    /// Maximum-likelihood log-strengths θ (γ = e^θ) with mean 0, by Hunter's cyclic MM update
    /// γi ← Wi / Σj nij / (γi + γj). Each update increases the likelihood, and the caller has
    /// made the maximum finite, so this converges; the iteration cap only bounds the time.
    fn fit(&self) -> Vec<f64> {
        const MAX_ITERATIONS: usize = 100_000;
        const TOLERANCE: f64 = 1e-10;
        let n = self.n;
        let wins: Vec<f64> = (0..n).map(|i| self.points[i * n..(i + 1) * n].iter().sum()).collect();
        let mut gamma = vec![1.0f64; n];
        for _ in 0..MAX_ITERATIONS {
            let mut change = 0.0f64;
            for i in 0..n {
                let denom: f64 = (0..n)
                    .filter(|&j| j != i && self.games[i * n + j] > 0.0)
                    .map(|j| self.games[i * n + j] / (gamma[i] + gamma[j]))
                    .sum();
                let updated = wins[i] / denom;
                if updated > 0.0 && updated.is_finite() {
                    change = change.max((updated / gamma[i]).ln().abs());
                    gamma[i] = updated;
                }
            }
            // The likelihood only sees ratios; rescaling to geometric mean 1 keeps γ in range.
            let log_mean = gamma.iter().map(|g| g.ln()).sum::<f64>() / n as f64;
            let scale = (-log_mean).exp();
            gamma.iter_mut().for_each(|g| *g *= scale);
            if change < TOLERANCE {
                break;
            }
        }
        gamma.iter().map(|g| g.ln()).collect()
    }

    /// Variances of θ about its mean from the pseudo-inverse of the observed information.
    fn rating_variances(&self, theta: &[f64]) -> Vec<f64> {
        let n = self.n;
        let centre = 1.0 / n as f64;
        // Information of the Bradley–Terry likelihood in θ: a graph Laplacian with weights
        // nij·πij·πji, πij = γi / (γi + γj). Adding 11ᵀ/n fills its null space (a common shift
        // of all θ) and makes it positive definite.
        let mut a = vec![centre; n * n];
        for i in 0..n {
            for j in 0..n {
                let g = self.games[i * n + j];
                if i != j && g > 0.0 {
                    let p = 1.0 / (1.0 + (theta[j] - theta[i]).exp());
                    let w = g * p * (1.0 - p);
                    a[i * n + j] -= w;
                    a[i * n + i] += w;
                }
            }
        }
        match inverse_diagonal_spd(&mut a, n) {
            Some(diag) => diag.into_iter().map(|d| (d - centre).max(0.0)).collect(),
            None => vec![f64::INFINITY; n],
        }
    }
}

/// Which of players 0..n can be reached from `start` along the edges `edge(i, j)`.
fn reachable(n: usize, start: usize, edge: impl Fn(usize, usize) -> bool) -> Vec<bool> {
    let mut seen = vec![false; n];
    seen[start] = true;
    let mut stack = vec![start];
    while let Some(i) = stack.pop() {
        for (j, s) in seen.iter_mut().enumerate() {
            if !*s && edge(i, j) {
                *s = true;
                stack.push(j);
            }
        }
    }
    seen
}

/// Diagonal of the inverse of a symmetric positive definite matrix (row-major, overwritten),
/// by Cholesky: A = LLᵀ, so (A⁻¹)ii = Σk ((L⁻¹)ki)². `None` if A is not numerically positive
/// definite.
fn inverse_diagonal_spd(a: &mut [f64], n: usize) -> Option<Vec<f64>> {
    // In place: the lower triangle becomes L.
    for j in 0..n {
        let mut d = a[j * n + j];
        for k in 0..j {
            d -= a[j * n + k] * a[j * n + k];
        }
        if d.is_nan() || d <= 0.0 {
            return None;
        }
        let d = d.sqrt();
        a[j * n + j] = d;
        for i in j + 1..n {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= a[i * n + k] * a[j * n + k];
            }
            a[i * n + j] = s / d;
        }
    }
    // Column c of L⁻¹ by forward substitution of L x = e_c; it is zero above row c.
    let mut diag = vec![0.0; n];
    let mut x = vec![0.0; n];
    for c in 0..n {
        x[c] = 1.0 / a[c * n + c];
        diag[c] += x[c] * x[c];
        for i in c + 1..n {
            let s: f64 = (c..i).map(|k| a[i * n + k] * x[k]).sum();
            x[i] = -s / a[i * n + i];
            diag[c] += x[i] * x[i];
        }
    }
    // diag[c] now holds Σi ((L⁻¹)ic)², the squared norm of column c of L⁻¹, which is
    // ((L⁻¹)ᵀL⁻¹)cc = (A⁻¹)cc.
    Some(diag)
}

#[cfg(test)]
mod tests {
    use super::GameScore::*;
    use super::*;
    use proptest::prelude::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn z95_is_the_normal_quantile() {
        use statrs::distribution::{ContinuousCDF, Normal};
        assert!(close(Normal::standard().inverse_cdf(0.975), Z95, 1e-9));
    }

    #[test]
    fn logistic_elo_known_values() {
        // -400·log10(1/0.75 − 1) = 400·log10 3 = 190.8485.
        assert!(close(elo_from_score(0.75), 190.8485, 1e-4));
        assert!(close(elo_from_score(0.25), -190.8485, 1e-4));
        assert_eq!(score_from_elo(0.0), 0.5);
        assert_eq!(elo_from_score(0.5), 0.0);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(score_from_elo(f64::INFINITY), 1.0);
        assert_eq!(score_from_elo(f64::NEG_INFINITY), 0.0);
        for elo in [-800.0, -35.5, 0.1, 400.0] {
            assert!(close(elo_from_score(score_from_elo(elo)), elo, 1e-9));
        }
    }

    #[test]
    fn wdl_elo_and_interval_by_hand() {
        // W=30, D=40, L=30 over n=100: s = 0.5, σ² = 0.3·0.25 + 0.4·0 + 0.3·0.25 = 0.15,
        // σ/√n = 0.0387298, half-width 1.959964·0.0387298 = 0.0759091, so the score interval is
        // [0.4240909, 0.5759091] and in Elo ±400·log10(0.5759091/0.4240909) = ±53.158.
        let wdl = Wdl::new(30, 40, 30);
        assert_eq!(wdl.games(), 100);
        assert_eq!(wdl.score(), 0.5);
        assert_eq!(wdl.elo(), 0.0);
        assert!(close(wdl.draw_ratio(), 0.4, 1e-12));
        let (lo, hi) = wdl.elo_ci95();
        assert!(close(hi, 53.158, 1e-3) && close(lo, -53.158, 1e-3), "{lo} {hi}");
        assert!(close(wdl.elo_error95(), 53.158, 1e-3));
    }

    #[test]
    fn wdl_matches_published_cutechess_style_numbers() {
        // fastchess's Elo tests (cutechess-cli's formula), printed to two decimals: (W, L, D) ->
        // Elo, error. Elo must agree to the rounding; the error within 0.3%, because those
        // programs use an approximate Φ⁻¹ (their 1.957 against our 1.95996).
        for (w, l, d, elo, err) in
            [(0, 36, 14, -315.34, 95.43), (859, 772, 1329, 10.21, 9.28), (1164, 1267, 3049, -6.53, 6.12)]
        {
            let wdl = Wdl::new(w, d, l);
            assert!(close(wdl.elo(), elo, 0.01), "{wdl:?}: {}", wdl.elo());
            assert!(close(wdl.elo_error95() / err, 1.0, 0.003), "{wdl:?}: {}", wdl.elo_error95());
        }
    }

    #[test]
    fn perfect_and_empty_results() {
        let all_wins = Wdl::new(10, 0, 0);
        assert_eq!(all_wins.elo(), f64::INFINITY);
        assert_eq!(all_wins.elo_ci95(), (f64::INFINITY, f64::INFINITY));
        assert_eq!(all_wins.elo_error95(), f64::INFINITY);
        let none = Wdl::default();
        assert_eq!((none.score(), none.elo(), none.los(), none.draw_ratio()), (0.5, 0.0, 0.5, 0.0));
        assert_eq!(none.elo_ci95(), (f64::NEG_INFINITY, f64::INFINITY));
        let all_draws = Wdl::new(0, 7, 0);
        assert_eq!((all_draws.elo(), all_draws.elo_error95()), (0.0, 0.0));
    }

    #[test]
    fn los_known_values() {
        assert_eq!(Wdl::new(40, 100, 40).los(), 0.5);
        // Φ(20/√100) = Φ(2) = 0.97725.
        assert!(close(Wdl::new(60, 0, 40).los(), 0.97725, 1e-5));
        assert!(close(Wdl::new(40, 0, 60).los(), 1.0 - 0.97725, 1e-5));
    }

    #[test]
    fn pentanomial_counts_and_elo() {
        let p = Pentanomial::from_pairs([(Win, Loss), (Draw, Draw), (Loss, Win), (Win, Draw), (Loss, Loss)]);
        assert_eq!(p.0, [1, 0, 3, 1, 0]);
        assert_eq!(p.pairs(), 5);
        assert_eq!(p.reversed().0, [0, 1, 3, 0, 1]);
        // Every pair scoring 1: score ½, Elo 0, and zero spread.
        let even = Pentanomial([0, 0, 12, 0, 0]);
        assert_eq!((even.score(), even.elo(), even.elo_error95()), (0.5, 0.0, 0.0));
        // [1, 2, 4, 2, 1] by hand: mean 0.5, σ² = (2·0.25 + 4·0.0625)/10 = 0.075, half-width of
        // the score interval 1.959964·√(0.0075) = 0.169738, Elo ±400·log10(0.669738/0.330262).
        let p = Pentanomial([1, 2, 4, 2, 1]);
        let expect = 400.0 * (0.669738f64 / 0.330262).log10();
        assert!(close(p.elo_error95(), expect, 0.01), "{} {expect}", p.elo_error95());
        assert_eq!(Pentanomial::default().elo_ci95(), (f64::NEG_INFINITY, f64::INFINITY));
    }

    #[test]
    fn sprt_bounds() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).expect("valid");
        let (lo, hi) = sprt.bounds();
        assert!(close(lo, -2.944, 1e-3) && close(hi, 2.944, 1e-3));
        assert_eq!(sprt.verdict(3.0), Some(Hypothesis::H1));
        assert_eq!(sprt.verdict(-3.0), Some(Hypothesis::H0));
        assert_eq!(sprt.verdict(0.0), None);
        assert_eq!(sprt.verdict(f64::NAN), None);
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, f64::NAN, 0.05, 0.05).is_err());
    }

    #[test]
    fn sprt_matches_published_fastchess_numbers() {
        // fastchess's SPRT tests with the logistic model, printed to two decimals, so the
        // tolerance is the rounding, 0.005. Trinomial: (W, L, D); pentanomial: fastchess lists
        // (LL, LD, WL, DD, WD, WW), and WL and DD both score one point per pair.
        let t = |w, l, d, e0, e1| Sprt::new(e0, e1, 0.05, 0.05).expect("valid").llr_trinomial(&Wdl::new(w, d, l));
        assert!(close(t(21404, 21184, 40708, 0.5, 2.5), -1.57, 0.005));
        assert!(close(t(57433, 57030, 106593, 0.0, 2.0), -2.59, 0.005));
        let p = |c, e0, e1| Sprt::new(e0, e1, 0.05, 0.05).expect("valid").llr_pentanomial(&Pentanomial(c));
        assert!(close(p([223, 9863, 20279 + 1000, 10037, 246], 0.5, 2.5), -3.07, 0.005));
        assert!(close(p([871, 26175, 55003 + 980, 26678, 821], 0.0, 2.0), -4.98, 0.005));
    }

    /// The exact generalized log-likelihood ratio, computed differently from the normal
    /// approximation: for each hypothesis the multinomial maximum-likelihood distribution with
    /// mean s is p_i = p̂_i / (1 + λ(a_i − s)), λ the root of Σ p̂_i (a_i − s)/(1 + λ(a_i − s)),
    /// found here by bisection; LLR = N Σ p̂_i ln(p1_i / p0_i).
    fn exact_llr(counts: &[f64], values: &[f64], elo0: f64, elo1: f64) -> f64 {
        let n: f64 = counts.iter().sum();
        let freq: Vec<f64> = counts.iter().map(|c| c / n).collect();
        let lambda = |s: f64| {
            let f = |x: f64| freq.iter().zip(values).map(|(p, a)| p * (a - s) / (1.0 + x * (a - s))).sum::<f64>();
            let (vmin, vmax) = (values[0], values[values.len() - 1]);
            let (mut lo, mut hi) = (-1.0 / (vmax - s) * (1.0 - 1e-12), 1.0 / (s - vmin) * (1.0 - 1e-12));
            for _ in 0..200 {
                let mid = 0.5 * (lo + hi);
                if f(mid) > 0.0 {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            0.5 * (lo + hi)
        };
        let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
        let (l0, l1) = (lambda(s0), lambda(s1));
        n * freq.iter().zip(values).map(|(p, a)| p * ((1.0 + l0 * (a - s0)) / (1.0 + l1 * (a - s1))).ln()).sum::<f64>()
    }

    #[test]
    fn sprt_approximation_agrees_with_exact_glr() {
        // Near-even results with narrow bounds, where the normal approximation is tight: its
        // error is of third order in the score differences; 1e-3 in LLR leaves a wide margin
        // over the ~5e-4 seen on these cases.
        let cases: [([u64; 5], f64, f64); 3] = [
            ([50, 300, 700, 320, 60], 0.0, 5.0),
            ([223, 9863, 21279, 10037, 246], 0.5, 2.5),
            ([871, 26175, 55983, 26678, 821], 0.0, 2.0),
        ];
        for (counts, e0, e1) in cases {
            let approx = Sprt::new(e0, e1, 0.05, 0.05).expect("valid").llr_pentanomial(&Pentanomial(counts));
            let exact = exact_llr(&counts.map(|c| c as f64), &PAIR_VALUES, e0, e1);
            assert!(close(approx, exact, 1e-3), "{counts:?}: {approx} vs {exact}");
        }
        let wdl = Wdl::new(4307, 8620, 4063);
        let approx = Sprt::new(0.0, 3.0, 0.05, 0.05).expect("valid").llr_trinomial(&wdl);
        let exact = exact_llr(&[4063.0, 8620.0, 4307.0], &[0.0, 0.5, 1.0], 0.0, 3.0);
        assert!(close(approx, exact, 1e-3), "{approx} vs {exact}");
    }

    #[test]
    fn llr_sign_and_growth() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).expect("valid");
        // A 20 Elo edge (score ≈ 0.5288) favours H1; a 10 Elo deficit favours H0.
        let mut last = 0.0;
        for k in [1, 10, 100] {
            let llr = sprt.llr_trinomial(&Wdl::new(300 * k, 400 * k, 277 * k));
            assert!(llr > last, "{k}: {llr}");
            last = llr;
            assert!(sprt.llr_pentanomial(&Pentanomial([10 * k, 60 * k, 100 * k, 70 * k, 14 * k])) > 0.0);
            assert!(sprt.llr_trinomial(&Wdl::new(280 * k, 400 * k, 300 * k)) < 0.0);
        }
        assert_eq!(sprt.verdict(last), Some(Hypothesis::H1));
    }

    #[test]
    fn llr_degenerate_samples() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).expect("valid");
        assert_eq!(sprt.llr_trinomial(&Wdl::default()), 0.0);
        assert_eq!(sprt.llr_pentanomial(&Pentanomial::default()), 0.0);
        // One-sided samples have no spread; regularisation must still give a verdict.
        assert_eq!(sprt.verdict(sprt.llr_trinomial(&Wdl::new(50, 0, 0))), Some(Hypothesis::H1));
        assert_eq!(sprt.verdict(sprt.llr_trinomial(&Wdl::new(0, 0, 50))), Some(Hypothesis::H0));
        assert_eq!(sprt.verdict(sprt.llr_pentanomial(&Pentanomial([0, 0, 0, 0, 30]))), Some(Hypothesis::H1));
        // All pairs even: the evidence points below elo0 = 0 < elo1, so toward H0.
        assert!(sprt.llr_pentanomial(&Pentanomial([0, 0, 100, 0, 0])) < 0.0);
    }

    fn rated(n: usize, results: &[(usize, usize, Wdl)]) -> Vec<Rating> {
        ratings(n, results).expect("valid tournament")
    }

    #[test]
    fn ratings_of_a_balanced_cycle_are_zero() {
        let r = rated(3, &[(0, 1, Wdl::new(7, 3, 2)), (1, 2, Wdl::new(7, 3, 2)), (2, 0, Wdl::new(7, 3, 2))]);
        for x in &r {
            assert!(x.elo.abs() < 1e-6, "{r:?}");
            assert!(x.error95.is_finite() && x.error95 > 0.0);
        }
        assert!(close(r[0].error95, r[1].error95, 1e-6) && close(r[1].error95, r[2].error95, 1e-6));
    }

    #[test]
    fn two_players_agree_with_elo_from_score() {
        for wdl in [Wdl::new(30, 10, 20), Wdl::new(99, 0, 1), Wdl::new(3, 50, 1)] {
            let r = rated(2, &[(1, 0, wdl)]);
            assert!(close(r[1].elo - r[0].elo, wdl.elo(), 1e-6), "{wdl:?}: {r:?}");
            assert!(close(r[0].elo + r[1].elo, 0.0, 1e-9));
            // Binomial information n·s(1−s) for the difference; each rating carries half of it.
            let n = wdl.games() as f64;
            let s = wdl.score();
            let expect = Z95 * ELO_PER_NAT / (n * s * (1.0 - s)).sqrt() / 2.0;
            assert!(close(r[0].error95, expect, 1e-6 * expect), "{} {expect}", r[0].error95);
        }
        // The order of the pairing and of repeated entries does not matter.
        let a = rated(2, &[(0, 1, Wdl::new(5, 2, 3)), (1, 0, Wdl::new(1, 0, 4))]);
        let b = rated(2, &[(0, 1, Wdl::new(9, 2, 4))]);
        assert!(close(a[0].elo, b[0].elo, 1e-9));
    }

    #[test]
    fn ratings_recover_known_strengths() {
        // Expected-score counts from known ratings (mean 0), 20 000 games per pairing, so the
        // only error is rounding the counts: a few hundredths of an Elo.
        let truth = [-300.0, -120.0, 0.0, 170.0, 250.0];
        let mut results = Vec::new();
        for i in 0..truth.len() {
            for j in i + 1..truth.len() {
                let n = 20_000u64;
                let wins = (n as f64 * score_from_elo(truth[i] - truth[j])).round() as u64;
                results.push((i, j, Wdl::new(wins, 0, n - wins)));
            }
        }
        let r = rated(truth.len(), &results);
        for (got, want) in r.iter().zip(truth) {
            assert!(close(got.elo, want, 0.5), "{r:?}");
            assert!(got.error95 < 10.0);
        }
    }

    #[test]
    fn perfect_scores_are_capped_not_infinite() {
        // Player 0 won everything; 1 and 2 split; the MLE of player 0 is infinite.
        let r = rated(3, &[(0, 1, Wdl::new(100, 0, 0)), (0, 2, Wdl::new(100, 0, 0)), (1, 2, Wdl::new(5, 2, 5))]);
        assert!(r.iter().all(|x| x.elo.is_finite() && !x.error95.is_nan()), "{r:?}");
        assert!(r[0].elo > 500.0 && r[0].elo <= RATING_CAP);
        assert!(close(r[1].elo, r[2].elo, 1e-6));
        // A huge perfect score hits the cap.
        let r = rated(2, &[(0, 1, Wdl::new(10_000_000, 0, 0))]);
        assert_eq!((r[0].elo, r[1].elo), (RATING_CAP, -RATING_CAP));
        assert_eq!(r[0].error95, f64::INFINITY);
        // A group that beat another group every time, with a real order inside each group.
        let r = rated(
            4,
            &[
                (0, 1, Wdl::new(6, 0, 4)),
                (2, 3, Wdl::new(6, 0, 4)),
                (0, 2, Wdl::new(10, 0, 0)),
                (0, 3, Wdl::new(10, 0, 0)),
                (1, 2, Wdl::new(10, 0, 0)),
                (1, 3, Wdl::new(10, 0, 0)),
            ],
        );
        assert!(r[0].elo > r[1].elo && r[1].elo > r[2].elo && r[2].elo > r[3].elo, "{r:?}");
    }

    #[test]
    fn ratings_of_players_without_games_and_of_separate_groups() {
        let r = rated(5, &[(0, 1, Wdl::new(6, 0, 4)), (3, 4, Wdl::new(2, 0, 8))]);
        assert_eq!(r[2], Rating { elo: 0.0, error95: f64::INFINITY });
        assert!(close(r[0].elo + r[1].elo, 0.0, 1e-9) && close(r[3].elo + r[4].elo, 0.0, 1e-9));
        assert!(close(r[0].elo - r[1].elo, Wdl::new(6, 0, 4).elo(), 1e-6));
        assert!(rated(0, &[]).is_empty());
    }

    #[test]
    fn ratings_reject_bad_indices() {
        assert_eq!(
            ratings(2, &[(0, 2, Wdl::new(1, 0, 0))]),
            Err(RatingsError::PlayerOutOfRange { index: 2, n_players: 2 })
        );
        assert_eq!(ratings(2, &[(1, 1, Wdl::new(1, 0, 0))]), Err(RatingsError::SelfPairing { index: 1 }));
    }

    fn wdl_strategy() -> impl Strategy<Value = Wdl> {
        (0u64..1_000_000_000, 0u64..1_000_000_000, 0u64..1_000_000_000).prop_map(|(w, d, l)| Wdl::new(w, d, l))
    }

    fn small_wdl() -> impl Strategy<Value = Wdl> {
        (0u64..50, 0u64..50, 0u64..50).prop_map(|(w, d, l)| Wdl::new(w, d, l))
    }

    proptest! {
        #[test]
        fn wdl_numbers_are_never_nan(wdl in wdl_strategy(), e0 in -50.0f64..50.0, width in 0.5f64..50.0) {
            let (lo, hi) = wdl.elo_ci95();
            prop_assert!(!wdl.score().is_nan() && !wdl.elo().is_nan());
            prop_assert!(!lo.is_nan() && !hi.is_nan() && lo <= hi);
            prop_assert!(!wdl.elo_error95().is_nan());
            prop_assert!((0.0..=1.0).contains(&wdl.los()));
            prop_assert!((0.0..=1.0).contains(&wdl.draw_ratio()));
            let sprt = Sprt::new(e0, e0 + width, 0.05, 0.05).expect("valid");
            prop_assert!(sprt.llr_trinomial(&wdl).is_finite());
        }

        #[test]
        fn pentanomial_numbers_are_never_nan(
            counts in proptest::array::uniform5(0u64..1_000_000_000),
            e0 in -50.0f64..50.0,
            width in 0.5f64..50.0,
        ) {
            let p = Pentanomial(counts);
            let (lo, hi) = p.elo_ci95();
            prop_assert!(!p.elo().is_nan() && !lo.is_nan() && !hi.is_nan() && lo <= hi);
            prop_assert!(!p.elo_error95().is_nan());
            let sprt = Sprt::new(e0, e0 + width, 0.05, 0.05).expect("valid");
            prop_assert!(sprt.llr_pentanomial(&p).is_finite());
        }

        #[test]
        fn ratings_are_never_nan(
            n in 1usize..6,
            games in proptest::collection::vec((0usize..6, 0usize..6, small_wdl()), 0..15),
        ) {
            let results: Vec<_> = games.into_iter().filter(|&(i, j, _)| i < n && j < n && i != j).collect();
            let r = rated(n, &results);
            prop_assert_eq!(r.len(), n);
            let mean = r.iter().map(|x| x.elo).sum::<f64>() / n as f64;
            for x in &r {
                prop_assert!(x.elo.is_finite() && x.elo.abs() <= RATING_CAP);
                prop_assert!(!x.error95.is_nan() && x.error95 >= 0.0);
            }
            prop_assert!(mean.abs() <= RATING_CAP);
        }
    }
}
