//! Matches between two players: paired openings with colours swapped, played in parallel in
//! fixed-size batches, with W/D/L, Elo, LOS, pentanomial pair counts and an optional SPRT that
//! stops the match early.
//!
//! Batches have a fixed size (not the thread count) and are scored in pair order, so a match
//! stops after the same pair and gives the same numbers on 1 thread or 32.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use anyhow::Result;

use crate::arena::game::{play_games_with, GameJob, Referee};
use crate::arena::openings::Openings;
use crate::arena::player::Player;
use crate::arena::records::{GameRecord, Outcome};
use crate::core::rng::derive_seed;
use crate::report::json::{document, elo, number, wdl};
use crate::report::progress::{Progress, ProgressMode};
use crate::report::run_report::ValidationRow;
use crate::stats::{GameScore, Hypothesis, Pentanomial, Sprt, Wdl};
use serde_json::{json, Value};

/// Pairs scored between two SPRT checks and progress reports.
pub const BATCH_PAIRS: usize = 8;

/// How a match is played.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Game pairs (each opening twice, colours swapped).
    pub pairs: usize,
    pub seed: u64,
    pub sprt: Option<Sprt>,
}

/// A match's outcome, all from A's point of view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchReport {
    pub a: String,
    pub b: String,
    pub wdl: Wdl,
    pub penta: Pentanomial,
    /// A's results with Black (moving first) and with White.
    pub a_first: Wdl,
    pub a_second: Wdl,
    /// Games won by the first player (Black), by the second, and drawn, whoever played them.
    pub first_wins: u64,
    pub second_wins: u64,
    pub draws: u64,
    pub llr: Option<f64>,
    pub verdict: Option<Hypothesis>,
    pub elapsed: Duration,
    /// Distinct openings the games started from.
    pub openings: usize,
    /// Games the referee aborted (reason `aborted`): left out of every number above.
    pub aborted: u64,
}

/// The scores of a pair of games for A (A first in the first game), each `None` when the
/// referee aborted that game: scores count games and pentanomials count pairs, so an aborted
/// game is left out of the first and its pair out of the second.
pub fn pair_scores(a_first: &GameRecord, a_second: &GameRecord) -> [Option<GameScore>; 2] {
    [
        a_first.is_scored().then(|| score_for(a_first.result, true)),
        a_second.is_scored().then(|| score_for(a_second.result, false)),
    ]
}

/// What a summary says of aborted games, if there were any.
pub fn aborted_note(aborted: u64) -> Option<String> {
    (aborted > 0).then(|| {
        format!(
            "{aborted} game(s) aborted by the referee (an outside engine's exchange failed outside a move; \
             reason `aborted` in the records): left out of the score"
        )
    })
}

impl MatchReport {
    /// The match as a run's report shows it (opponent: player B), with the command that
    /// replays it.
    pub fn validation_row(&self, replay: String) -> ValidationRow {
        ValidationRow { opponent: self.b.clone(), wdl: self.wdl, pairs: self.penta, verdict: self.verdict, replay }
    }

    fn add_pair(&mut self, a_first: &GameRecord, a_second: &GameRecord) {
        let [first, second] = pair_scores(a_first, a_second);
        if let Some(f) = first {
            self.a_first.add(f);
            self.wdl.add(f);
        }
        if let Some(s) = second {
            self.a_second.add(s);
            self.wdl.add(s);
        }
        if let (Some(f), Some(s)) = (first, second) {
            self.penta.add_pair(f, s);
        }
        for r in [a_first, a_second] {
            match r.result {
                _ if !r.is_scored() => self.aborted += 1,
                Outcome::First => self.first_wins += 1,
                Outcome::Second => self.second_wins += 1,
                Outcome::Draw => self.draws += 1,
            }
        }
    }

    /// The report as text, in the style of cutechess-cli / fastchess.
    /// The match as JSON, from A's side (docs/json.md); `sprt` as it was played.
    pub fn to_json(&self, sprt: Option<&Sprt>) -> Value {
        let report = self;
        let p = report.penta.0;
        let sprt = match (sprt, report.llr) {
            (Some(s), Some(llr)) => {
                let (lower, upper) = s.bounds();
                json!({
                    "elo0": s.elo0,
                    "elo1": s.elo1,
                    "alpha": s.alpha,
                    "beta": s.beta,
                    "llr": number(llr),
                    "lower": lower,
                    "upper": upper,
                    "verdict": match report.verdict {
                        Some(Hypothesis::H0) => json!("H0"),
                        Some(Hypothesis::H1) => json!("H1"),
                        None => Value::Null,
                    },
                })
            }
            _ => Value::Null,
        };
        json!({
            "a": report.a,
            "b": report.b,
            "games": report.wdl.games(),
            "openings": report.openings,
            "result": wdl(&report.wdl),
            "elo": elo(report.wdl.elo(), report.wdl.elo_ci95()),
            "los": number(report.wdl.los()),
            "draw_ratio": number(report.wdl.draw_ratio()),
            "pentanomial": [p[0], p[1], p[2], p[3], p[4]],
            "pair_elo": elo(report.penta.elo(), report.penta.elo_ci95()),
            "a_first": wdl(&report.a_first),
            "a_second": wdl(&report.a_second),
            "first_player_wins": report.first_wins,
            "second_player_wins": report.second_wins,
            "draws": report.draws,
            "sprt": sprt,
            "seconds": report.elapsed.as_secs_f64(),
        })
    }

    /// The document of `match --json`.
    pub fn json_document(&self, sprt: Option<&Sprt>) -> Value {
        let mut m = document("match");
        if let Value::Object(fields) = self.to_json(sprt) {
            m.extend(fields);
        }
        Value::Object(m)
    }

    pub fn summary(&self, sprt: Option<&Sprt>) -> String {
        let g = self.wdl.games();
        let (lo, hi) = self.wdl.elo_ci95();
        let p = self.penta.0;
        let mut s = format!(
            "{} vs {}: {} games, W {} D {} L {} (score {:.1}%)\n",
            self.a,
            self.b,
            g,
            self.wdl.wins,
            self.wdl.draws,
            self.wdl.losses,
            100.0 * self.wdl.score()
        );
        s += &format!(
            "Elo {} +/- {} (95% CI {} .. {}), LOS {:.1}%, draw ratio {:.1}%\n",
            fmt_elo(self.wdl.elo()),
            fmt_elo(self.wdl.elo_error95()),
            fmt_elo(lo),
            fmt_elo(hi),
            100.0 * self.wdl.los(),
            100.0 * self.wdl.draw_ratio()
        );
        s += &format!(
            "pentanomial [0, 0.5, 1, 1.5, 2] = [{}, {}, {}, {}, {}], pair Elo {} +/- {}\n",
            p[0],
            p[1],
            p[2],
            p[3],
            p[4],
            fmt_elo(self.penta.elo()),
            fmt_elo(self.penta.elo_error95())
        );
        s += &format!(
            "{} as first player: W {} D {} L {} ({:.1}% wins); as second: W {} D {} L {} ({:.1}% wins)\n",
            self.a,
            self.a_first.wins,
            self.a_first.draws,
            self.a_first.losses,
            pct(self.a_first.wins, self.a_first.games()),
            self.a_second.wins,
            self.a_second.draws,
            self.a_second.losses,
            pct(self.a_second.wins, self.a_second.games()),
        );
        s += &format!(
            "first player won {:.1}%, second {:.1}%, drawn {:.1}%\n",
            pct(self.first_wins, g),
            pct(self.second_wins, g),
            pct(self.draws, g)
        );
        if let Some(note) = aborted_note(self.aborted) {
            s += &format!("{note}\n");
        }
        if let (Some(sprt), Some(llr)) = (sprt, self.llr) {
            let (lower, upper) = sprt.bounds();
            let verdict = match self.verdict {
                Some(Hypothesis::H0) => format!("H0 accepted (not better than {} Elo)", sprt.elo0),
                Some(Hypothesis::H1) => format!("H1 accepted (better by at least {} Elo)", sprt.elo1),
                None => "no verdict yet".into(),
            };
            s += &format!(
                "SPRT [{}, {}] alpha {} beta {}: LLR {:.2} ({:.2}, {:.2}) {}\n",
                sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta, llr, lower, upper, verdict
            );
        }
        s
    }
}

fn pct(n: u64, of: u64) -> f64 {
    if of == 0 {
        0.0
    } else {
        100.0 * n as f64 / of as f64
    }
}

fn fmt_elo(e: f64) -> String {
    if e.is_finite() {
        format!("{e:.1}")
    } else if e > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

/// The game's score for A, who played Black when `a_first`.
pub fn score_for(result: Outcome, a_first: bool) -> GameScore {
    match (result, a_first) {
        (Outcome::Draw, _) => GameScore::Draw,
        (Outcome::First, true) | (Outcome::Second, false) => GameScore::Win,
        _ => GameScore::Loss,
    }
}

/// The pairs of a match already played (a resumed match's, from its records), by pair
/// index: the game A played first, then the one B played first.
pub type PlayedPairs = BTreeMap<usize, [GameRecord; 2]>;

/// The complete pairs among the records of the match `config` describes between players
/// named `a` and `b`: a game belongs to pair i when it carries pair i's seed, and a pair is
/// complete with one game of each colour (a lone game, whose partner was in flight when
/// the match stopped, is left out: it is played again). Records are given with their line
/// numbers; an error names the line that is not a game of this match.
pub fn played_pairs(
    records: &[(usize, GameRecord)],
    game: &str,
    a: &str,
    b: &str,
    config: &MatchConfig,
) -> Result<PlayedPairs, String> {
    let seeds: HashMap<u64, usize> = (0..config.pairs).map(|i| (derive_seed(&[config.seed, i as u64]), i)).collect();
    let mut halves: BTreeMap<usize, [Option<GameRecord>; 2]> = BTreeMap::new();
    for (line, r) in records {
        if r.game != game {
            return Err(format!("line {line}: a game of {}, not {game}", r.game));
        }
        let colour = match (r.first.as_str(), r.second.as_str()) {
            (f, s) if f == a && s == b => 0,
            (f, s) if f == b && s == a => 1,
            (f, s) => return Err(format!("line {line}: a game of {f} vs {s}, not of {a} vs {b}")),
        };
        let Some(&i) = r.seed.and_then(|s| seeds.get(&s)) else {
            return Err(format!(
                "line {line}: not one of this match's {} pairs (another --seed, or fewer --pairs than the match that \
                 wrote it?)",
                config.pairs
            ));
        };
        halves.entry(i).or_default()[colour].get_or_insert_with(|| r.clone());
    }
    Ok(halves.into_iter().filter_map(|(i, [x, y])| Some((i, [x?, y?]))).collect())
}

/// The standings of a match from the pairs played so far (a Ctrl-C's, a resumed match's
/// start): every number of [`MatchReport`], the SPRT's LLR too.
pub fn standings(a: &str, b: &str, played: &PlayedPairs, sprt: Option<&Sprt>) -> MatchReport {
    let mut report = MatchReport { a: a.into(), b: b.into(), ..MatchReport::default() };
    for [x, y] in played.values() {
        report.add_pair(x, y);
    }
    report.openings = played.values().filter_map(|[x, _]| x.opening).collect::<std::collections::HashSet<_>>().len();
    if let Some(sprt) = sprt {
        let llr = sprt.llr_pentanomial(&report.penta);
        report.llr = Some(llr);
        report.verdict = sprt.verdict(llr);
    }
    report
}

/// Plays a match. `played` holds the pairs already played (a resumed match's): they are
/// scored in their place and not played again, so that the match stops where an
/// uninterrupted one would and ends with its numbers. `on_game` sees every game played here
/// the moment it ends, with its index in the order the games are scheduled (0, 1, ...:
/// pairs in order, A first then B first; played pairs are skipped); `on_batch` sees the
/// report after every batch (to print SPRT progress).
#[allow(clippy::too_many_arguments)]
pub fn run_match(
    referee: &dyn Referee,
    a: &Player,
    b: &Player,
    openings: &mut Openings,
    config: &MatchConfig,
    played: &PlayedPairs,
    progress: &Progress,
    on_game: &(dyn Fn(usize, &GameRecord) + Sync),
    on_batch: &mut dyn FnMut(&MatchReport),
) -> Result<MatchReport> {
    let start = Instant::now();
    let mut report = MatchReport { a: a.name.clone(), b: b.name.clone(), ..MatchReport::default() };
    let mut pair = 0;
    let mut scheduled = 0;
    while pair < config.pairs && report.verdict.is_none() {
        let end = (pair + BATCH_PAIRS).min(config.pairs);
        let ran_out = openings.ensure(end).map_err(|e| anyhow::anyhow!("openings: {e}"))?;
        if let Some(n) = ran_out {
            progress.println(&format!(
                "note: the opening generator's settings hold {n} distinct openings; pairs {} on replay them",
                n + 1
            ));
        }
        let suite = openings.suite();
        report.openings = report.openings.max(end.min(suite.len()));
        let to_play: Vec<usize> = (pair..end).filter(|i| !played.contains_key(i)).collect();
        progress.inc(2 * (end - pair - to_play.len()) as u64);
        let jobs: Vec<GameJob> = to_play
            .iter()
            .flat_map(|&i| {
                let opening = suite.get(i);
                let index = i % suite.len();
                let seed = derive_seed(&[config.seed, i as u64]);
                [
                    GameJob { first: a, second: b, opening, opening_index: index, seed },
                    GameJob { first: b, second: a, opening, opening_index: index, seed },
                ]
            })
            .collect();
        let first = scheduled;
        let records = play_games_with(referee, &jobs, progress, &|k, r| on_game(first + k, r));
        scheduled += jobs.len();
        let mut new = records.chunks(2);
        for i in pair..end {
            match played.get(&i) {
                Some([x, y]) => report.add_pair(x, y),
                None => {
                    let two = new.next().expect("a record pair for every pair played");
                    report.add_pair(&two[0], &two[1]);
                }
            }
        }
        if let Some(sprt) = &config.sprt {
            let llr = sprt.llr_pentanomial(&report.penta);
            report.llr = Some(llr);
            report.verdict = sprt.verdict(llr);
        }
        report.elapsed = start.elapsed();
        on_batch(&report);
        pair = end;
    }
    Ok(report)
}

/// Plays a match on the current rayon pool with a progress bar: the line that says who plays
/// whom, then the games. `live` prints the running W/D/L after every batch (for SPRT runs).
/// The front end of `match`, `selfplay` and the reproductions.
#[allow(clippy::too_many_arguments)]
pub fn play_match(
    referee: &dyn Referee,
    a: &Player,
    b: &Player,
    openings: &mut Openings,
    config: &MatchConfig,
    played: &PlayedPairs,
    mode: ProgressMode,
    live: bool,
    on_game: &(dyn Fn(usize, &GameRecord) + Sync),
) -> Result<MatchReport> {
    let described = openings.describe(config.pairs).map_err(|e| anyhow::anyhow!("openings: {e}"))?;
    if mode != ProgressMode::Hidden {
        eprintln!(
            "{} ({}) vs {} ({}): {} games from {} on {} threads",
            a.name,
            a.describe_under(referee.clock()),
            b.name,
            b.describe_under(referee.clock()),
            2 * config.pairs,
            described,
            rayon::current_num_threads()
        );
    }
    // An SPRT stops at its verdict, usually long before the pairs run out: its progress is
    // the LLR's way to a bound, not an ETA to the cap.
    let progress = match &config.sprt {
        Some(_) => Progress::capped("games", 2 * config.pairs as u64, "games", mode),
        None => Progress::new("games", 2 * config.pairs as u64, "games", mode),
    };
    let report = run_match(referee, a, b, openings, config, played, &progress, on_game, &mut |r| {
        let w = &r.wdl;
        let mut msg = format!("W {} D {} L {} Elo {:.0}", w.wins, w.draws, w.losses, w.elo());
        if let (Some(sprt), Some(llr)) = (&config.sprt, r.llr) {
            msg += &format!(", {}", sprt.progress(llr));
        }
        if live {
            progress.println(&msg);
        }
        progress.set_message(msg);
    })?;
    progress.finish();
    Ok(report)
}

#[cfg(test)]
mod tests;
