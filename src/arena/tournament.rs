//! Round-robin tournaments: every player meets every other in `pairs` game pairs (one opening,
//! colours swapped), all games in one parallel batch, scored as Li Guo 2007 scores its
//! experiment (+1 a win, −1 a loss, 0 a draw) and rated by Bradley–Terry Elo.
//!
//! Pair k of pairing p starts from opening p·pairs + k of the suite (wrapping around), so the
//! tournament spreads over as many openings as it has game pairs rather than resting on a
//! few: with one pair per pairing, as in Li Guo 2007, a shared opening would make the whole
//! table one opening's verdict. Colours are swapped inside every pair, so no player gets the
//! better side of an opening. Each game's seed is derived from (seed, pairing, pair), never from
//! the thread or the finishing order, so a tournament of deterministic engines gives the same
//! tables on any number of threads.

use std::time::{Duration, Instant};

use anyhow::{ensure, Result};

use crate::arena::game::{play_games_with, GameJob, Referee};
use crate::arena::matches::{aborted_note, pair_scores};
use crate::arena::openings::OpeningSuite;
use crate::arena::player::Player;
use crate::arena::records::GameRecord;
use crate::stats::{ratings, Pentanomial, Rating, Wdl};

use crate::core::rng::derive_seed;
use crate::report::json::{document, number, wdl};
use crate::report::progress::{Progress, ProgressMode};
use crate::report::table::{elo, percent, signed, Table};
use serde_json::{json, Value};

/// How a tournament is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TournamentConfig {
    /// Game pairs per pairing.
    pub pairs: usize,
    pub seed: u64,
}

/// The pairings of a single round robin of `n` players: (0,1), (0,2), ..., (n−2,n−1).
pub fn pairings(n: usize) -> Vec<(usize, usize)> {
    (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).collect()
}

/// One scheduled game, players given by their index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheduled {
    /// Index into [`pairings`].
    pub pairing: usize,
    /// Pair within the pairing.
    pub pair: usize,
    pub first: usize,
    pub second: usize,
    /// Index into the opening suite.
    pub opening: usize,
    pub seed: u64,
}

/// Every game of the tournament in schedule order: pairing by pairing, pair by pair, the
/// pairing's first player with Black first, then the same opening and seed with colours
/// swapped.
pub fn schedule(n_players: usize, suite_len: usize, config: &TournamentConfig) -> Vec<Scheduled> {
    let mut games = Vec::new();
    for (p, (i, j)) in pairings(n_players).into_iter().enumerate() {
        for k in 0..config.pairs {
            let opening = (p * config.pairs + k) % suite_len.max(1);
            let seed = derive_seed(&[config.seed, p as u64, k as u64]);
            games.push(Scheduled { pairing: p, pair: k, first: i, second: j, opening, seed });
            games.push(Scheduled { pairing: p, pair: k, first: j, second: i, opening, seed });
        }
    }
    games
}

/// The results of one pairing, from its first player's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairingResult {
    pub a: usize,
    pub b: usize,
    pub wdl: Wdl,
    pub penta: Pentanomial,
    /// A's results with Black (first to move) and with White.
    pub a_first: Wdl,
    pub a_second: Wdl,
    /// Games the referee aborted: left out of the numbers above.
    pub aborted: u64,
}

/// A finished round robin.
#[derive(Clone, Debug, Default)]
pub struct TournamentReport {
    pub players: Vec<String>,
    pub pairs: usize,
    /// One entry per pairing, in [`pairings`] order.
    pub results: Vec<PairingResult>,
    pub elapsed: Duration,
}

/// One line of the standings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Standing {
    pub player: usize,
    /// +1 per win, −1 per loss.
    pub score: i64,
    pub wdl: Wdl,
    pub rating: Rating,
}

impl TournamentReport {
    /// Scores the records of a tournament played in [`schedule`] order.
    pub fn from_records(players: Vec<String>, pairs: usize, records: &[GameRecord]) -> Result<TournamentReport> {
        let n_pairings = pairings(players.len()).len();
        ensure!(
            records.len() == 2 * pairs * n_pairings,
            "{} game records for {} pairings of {} pairs",
            records.len(),
            n_pairings,
            pairs
        );
        Ok(TournamentReport::of_pairs(
            players,
            pairs,
            records.chunks(2).enumerate().map(|(k, two)| (k, &two[0], &two[1])),
        ))
    }

    /// The standings of the whole pairs among `games` (each with its index in [`schedule`]
    /// order, in any order and with gaps): what an interrupted tournament has decided so far.
    /// A game whose partner is missing is left out.
    pub fn so_far(players: Vec<String>, pairs: usize, games: &[(usize, GameRecord)]) -> TournamentReport {
        let by_index: std::collections::BTreeMap<usize, &GameRecord> = games.iter().map(|(k, g)| (*k, g)).collect();
        let whole = by_index
            .iter()
            .filter(|(k, _)| *k % 2 == 0)
            .filter_map(|(k, first)| by_index.get(&(k + 1)).map(|second| (k / 2, *first, *second)));
        TournamentReport::of_pairs(players, pairs, whole)
    }

    /// Scores game pairs, each given by its index among the tournament's pairs.
    fn of_pairs<'a>(
        players: Vec<String>,
        pairs: usize,
        games: impl Iterator<Item = (usize, &'a GameRecord, &'a GameRecord)>,
    ) -> TournamentReport {
        let mut results: Vec<PairingResult> =
            pairings(players.len()).iter().map(|&(a, b)| PairingResult { a, b, ..PairingResult::default() }).collect();
        for (k, one, other) in games {
            let r = &mut results[k / pairs];
            let [first, second] = pair_scores(one, other);
            if let Some(f) = first {
                r.a_first.add(f);
                r.wdl.add(f);
            }
            if let Some(s) = second {
                r.a_second.add(s);
                r.wdl.add(s);
            }
            match (first, second) {
                (Some(f), Some(s)) => r.penta.add_pair(f, s),
                _ => r.aborted += u64::from(first.is_none()) + u64::from(second.is_none()),
            }
        }
        TournamentReport { players, pairs, results, elapsed: Duration::ZERO }
    }

    /// Games played and scored.
    pub fn games(&self) -> u64 {
        self.results.iter().map(|r| r.wdl.games()).sum()
    }

    /// Games the referee aborted, left out of every score.
    pub fn aborted(&self) -> u64 {
        self.results.iter().map(|r| r.aborted).sum()
    }

    /// Games won by the first player (Black), by the second (White), and drawn, whoever
    /// played them: a strong first- or second-move advantage shows here.
    pub fn colour_results(&self) -> (u64, u64, u64) {
        let (mut black, mut white, mut draws) = (0, 0, 0);
        for r in &self.results {
            black += r.a_first.wins + r.a_second.losses;
            white += r.a_first.losses + r.a_second.wins;
            draws += r.wdl.draws;
        }
        (black, white, draws)
    }

    /// Player i's results against j, from i's side; `None` for i == j or unknown players.
    pub fn head_to_head(&self, i: usize, j: usize) -> Option<Wdl> {
        self.results.iter().find_map(|r| match (r.a, r.b) {
            (a, b) if (a, b) == (i, j) => Some(r.wdl),
            (a, b) if (a, b) == (j, i) => Some(r.wdl.reversed()),
            _ => None,
        })
    }

    /// Player i's results against everyone.
    pub fn wdl(&self, i: usize) -> Wdl {
        let mut t = Wdl::default();
        for j in 0..self.players.len() {
            if let Some(w) = self.head_to_head(i, j) {
                t.wins += w.wins;
                t.draws += w.draws;
                t.losses += w.losses;
            }
        }
        t
    }

    /// The paper's score: wins minus losses.
    pub fn score(&self, i: usize) -> i64 {
        let w = self.wdl(i);
        w.wins as i64 - w.losses as i64
    }

    /// Bradley–Terry ratings of every player, mean 0.
    pub fn ratings(&self) -> Vec<Rating> {
        let results: Vec<(usize, usize, Wdl)> = self.results.iter().map(|r| (r.a, r.b, r.wdl)).collect();
        // Indices come from `pairings`, so the only errors `ratings` knows cannot happen.
        ratings(self.players.len(), &results)
            .unwrap_or_else(|_| vec![Rating { elo: 0.0, error95: f64::INFINITY }; self.players.len()])
    }

    /// Players by score, ties by rating, then by entry order.
    pub fn standings(&self) -> Vec<Standing> {
        let ratings = self.ratings();
        let mut s: Vec<Standing> = (0..self.players.len())
            .map(|i| Standing { player: i, score: self.score(i), wdl: self.wdl(i), rating: ratings[i] })
            .collect();
        s.sort_by(|x, y| {
            y.score.cmp(&x.score).then(y.rating.elo.total_cmp(&x.rating.elo)).then(x.player.cmp(&y.player))
        });
        s
    }

    /// The cross table in the paper's style: rows and columns in standings order, each cell the
    /// row player's score against the column player (+1 a win, −1 a loss), then the total.
    pub fn score_table(&self) -> Table {
        let order = self.standings();
        let numbers: Vec<String> = (1..=order.len()).map(|k| k.to_string()).collect();
        let mut header = vec!["#", "player"];
        header.extend(numbers.iter().map(String::as_str));
        header.extend(["score", "games"]);
        let mut t =
            Table::new(format!("Scores: +1 win, -1 loss, 0 draw; {} game pair(s) per pairing", self.pairs), &header);
        t.set_align(1, crate::report::table::Align::Left);
        for (rank, s) in order.iter().enumerate() {
            let mut row = vec![(rank + 1).to_string(), self.players[s.player].clone()];
            for other in &order {
                row.push(match self.head_to_head(s.player, other.player) {
                    Some(w) => signed(w.wins as i64 - w.losses as i64),
                    None => "x".into(),
                });
            }
            row.push(signed(s.score));
            row.push(s.wdl.games().to_string());
            t.row(row);
        }
        let (black, white, draws) = self.colour_results();
        let g = self.games() as f64;
        t.note(format!(
            "Columns are opponents by rank; x is the player itself. First player (Black) won {}, second (White) {}, drawn {}.",
            percent(black as f64, g),
            percent(white as f64, g),
            percent(draws as f64, g)
        ));
        t
    }

    /// The document of `tournament --json` (docs/json.md): the standings (by score, then
    /// rating) and every pairing from its first player's side.
    pub fn json_document(&self) -> Value {
        let report = self;
        let mut m = document("tournament");
        let standings: Vec<Value> = report
            .standings()
            .iter()
            .enumerate()
            .map(|(rank, s)| {
                json!({
                    "rank": rank + 1,
                    "player": report.players[s.player],
                    "score": s.score,
                    "result": wdl(&s.wdl),
                    "elo": number(s.rating.elo),
                    "elo_error95": number(s.rating.error95),
                })
            })
            .collect();
        let pairings: Vec<Value> = report
            .results
            .iter()
            .map(|r| {
                json!({
                    "a": report.players[r.a],
                    "b": report.players[r.b],
                    "result": wdl(&r.wdl),
                    "pentanomial": r.penta.0,
                    "a_first": wdl(&r.a_first),
                    "a_second": wdl(&r.a_second),
                })
            })
            .collect();
        m.insert("players".into(), json!(report.players));
        m.insert("pairs".into(), json!(report.pairs));
        m.insert("games".into(), json!(report.games()));
        m.insert("standings".into(), Value::Array(standings));
        m.insert("pairings".into(), Value::Array(pairings));
        m.insert("seconds".into(), json!(report.elapsed.as_secs_f64()));
        Value::Object(m)
    }

    /// Bradley–Terry Elo (mean 0) with 95% error bars, games, W/D/L and score, by rating.
    pub fn rating_table(&self) -> Table {
        let mut order = self.standings();
        order.sort_by(|x, y| y.rating.elo.total_cmp(&x.rating.elo).then(x.player.cmp(&y.player)));
        let mut t = Table::new(
            "Ratings (Bradley-Terry, mean 0)",
            &["#", "player", "Elo", "+/- 95%", "games", "W", "D", "L", "score %"],
        );
        t.set_align(1, crate::report::table::Align::Left);
        for (rank, s) in order.iter().enumerate() {
            let w = s.wdl;
            t.row(vec![
                (rank + 1).to_string(),
                self.players[s.player].clone(),
                elo(s.rating.elo),
                elo(s.rating.error95),
                w.games().to_string(),
                w.wins.to_string(),
                w.draws.to_string(),
                w.losses.to_string(),
                percent(w.points(), w.games() as f64),
            ]);
        }
        t.note(format!(
            "{} games in {:.1}s. Error bars are against the pool mean; inf marks a rating with no upper or lower bound (a perfect score).",
            self.games(),
            self.elapsed.as_secs_f64()
        ));
        if let Some(note) = aborted_note(self.aborted()) {
            t.note(format!("{note}."));
        }
        t
    }
}

/// Plays a round robin of `players` on the current rayon pool, handing each game to `on_game`
/// with its index in [`schedule`] order the moment it ends. Returns the report and every
/// game's record in schedule order.
pub fn run_tournament(
    referee: &dyn Referee,
    players: &[Player],
    suite: &OpeningSuite,
    config: &TournamentConfig,
    progress: &Progress,
    on_game: &(dyn Fn(usize, &GameRecord) + Sync),
) -> Result<(TournamentReport, Vec<GameRecord>)> {
    ensure!(players.len() >= 2, "a tournament needs at least two players (got {})", players.len());
    ensure!(!suite.is_empty(), "a tournament needs at least one opening");
    ensure!(config.pairs >= 1, "a tournament needs at least one game pair per pairing");
    let start = Instant::now();
    let plan = schedule(players.len(), suite.len(), config);
    let jobs: Vec<GameJob> = plan
        .iter()
        .map(|g| GameJob {
            first: &players[g.first],
            second: &players[g.second],
            opening: suite.get(g.opening),
            opening_index: g.opening,
            seed: g.seed,
        })
        .collect();
    let records = play_games_with(referee, &jobs, progress, on_game);
    let names = players.iter().map(|p| p.name.clone()).collect();
    let mut report = TournamentReport::from_records(names, config.pairs, &records)?;
    report.elapsed = start.elapsed();
    Ok((report, records))
}

/// Plays a round robin on the current rayon pool with a progress bar, after a line saying
/// what will be played; hands each game as it ends, with its index in schedule order, to
/// `on_game` (which writes the records and other files the caller opened before). The front
/// end of `tournament` and the reproductions.
pub fn play_tournament(
    referee: &dyn Referee,
    players: &[Player],
    suite: &OpeningSuite,
    config: &TournamentConfig,
    mode: ProgressMode,
    on_game: &(dyn Fn(usize, &GameRecord) + Sync),
) -> Result<TournamentReport> {
    let n_pairings = pairings(players.len()).len();
    let games = 2 * config.pairs * n_pairings;
    if mode != ProgressMode::Hidden {
        eprintln!(
            "round robin of {} players: {} pairings x {} pair(s) = {} games from {} openings on {} threads",
            players.len(),
            n_pairings,
            config.pairs,
            games,
            (n_pairings * config.pairs).min(suite.len()),
            rayon::current_num_threads()
        );
        for p in players {
            eprintln!("  {}: {}", p.name, p.describe_under(referee.clock()));
        }
    }
    let progress = Progress::new("games", games as u64, "games", mode);
    let (report, _) = run_tournament(referee, players, suite, config, &progress, on_game)?;
    progress.finish();
    Ok(report)
}

#[cfg(test)]
mod tests;
