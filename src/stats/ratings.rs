//! Bradley–Terry ratings of a round robin, with a BayesElo-like prior where results are
//! perfect and error bars from the Fisher information.

use super::scores::Wdl;
use super::{RATING_CAP, Z95};

/// Virtual draws added to every played pairing of a group of players whose maximum-likelihood
/// ratings would be infinite (someone won or lost everything against the rest). The same idea
/// as BayesElo's prior; one draw keeps a 100–0 result at about 920 Elo instead of infinity.
const PRIOR_DRAWS: f64 = 1.0;

/// Elo per natural-log unit of the Bradley–Terry strength: 400 / ln 10.
pub(super) const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

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
