//! One game between two players: a pure function of (players, opening, settings, seed), so
//! that games can run on any thread in any order and a run is reproducible. A game with an
//! outside engine is as reproducible as that engine.

use std::time::Duration;

use rand::{Rng, SeedableRng};

use crate::arena::clock::TimeControl;
use crate::arena::outside::{Forfeit, Session, TurnTime};
use crate::arena::player::Player;
use crate::arena::records::{GameRecord, Outcome, Reason};
use crate::core::game::{GameMove, Position, Side, Status};
use crate::core::limits::MAX_TIME_MS;
use crate::dispatch::{HandOut, InOrder, LongestClassFirst};
use crate::report::progress::Progress;
use crate::search::{Engine, Searchable, MATE_BOUND};
use crate::workers::{play_handed_out, BatchTimes};

/// How games are refereed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GameSettings {
    /// A game still undecided after this many turns (opening included) is a draw (`movecap`).
    /// 0 means no cap: play until a line or a full board.
    pub max_turns: usize,
    /// A game clock (`"60+1"`: base and increment in seconds); a player out of time loses
    /// (`timeout`). None: each move has its player's own limits only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<TimeControl>,
    /// Resign adjudication: the game ends (`resign`) once both players' searches have judged
    /// the same side lost for this many turns each in a row. 0: never. Outside engines give no
    /// scores, so games with one are never adjudicated this way.
    #[serde(skip_serializing_if = "is_zero")]
    pub resign_turns: u32,
    /// The score (of the search, for the side to move, in its evaluation's units) at or beyond
    /// which a side counts as lost. None: only a proven loss counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resign_score: Option<i32>,
    /// Outside engines: how much later than its time for the move (its `time_ms`, or its clock)
    /// an engine may answer before it loses on time.
    #[serde(skip_serializing_if = "is_default_margin")]
    pub time_margin_ms: u64,
    /// Outside engines: the longest wait for any answer when the move has no time limit (at
    /// fixed depth), and for the answers that are not moves (greeting, acknowledgements).
    #[serde(skip_serializing_if = "is_default_hang")]
    pub hang_ms: u64,
}

/// Defaults of the outside engines' timing.
pub const DEFAULT_TIME_MARGIN_MS: u64 = 100;
pub const DEFAULT_HANG_MS: u64 = 60_000;
/// The most turns of resign adjudication.
pub const MAX_RESIGN_TURNS: u32 = 1000;

fn is_zero(v: &u32) -> bool {
    *v == 0
}

fn is_default_margin(v: &u64) -> bool {
    *v == DEFAULT_TIME_MARGIN_MS
}

fn is_default_hang(v: &u64) -> bool {
    *v == DEFAULT_HANG_MS
}

impl Default for GameSettings {
    fn default() -> Self {
        GameSettings {
            max_turns: 120,
            clock: None,
            resign_turns: 0,
            resign_score: None,
            time_margin_ms: DEFAULT_TIME_MARGIN_MS,
            hang_ms: DEFAULT_HANG_MS,
        }
    }
}

impl GameSettings {
    /// Checks the ranges the types do not; the error names the key as `[section] key`.
    pub fn check(&self, section: &str) -> Result<(), String> {
        if self.resign_turns > MAX_RESIGN_TURNS {
            return Err(format!("[{section}] resign_turns = {}: at most {MAX_RESIGN_TURNS}", self.resign_turns));
        }
        if let Some(s) = self.resign_score {
            if s <= 0 {
                return Err(format!("[{section}] resign_score = {s}: a score above 0"));
            }
        }
        if self.time_margin_ms > MAX_TIME_MS {
            return Err(format!("[{section}] time_margin_ms = {}: at most {MAX_TIME_MS}", self.time_margin_ms));
        }
        if !(1..=MAX_TIME_MS).contains(&self.hang_ms) {
            return Err(format!("[{section}] hang_ms = {}: between 1 and {MAX_TIME_MS}", self.hang_ms));
        }
        Ok(())
    }

    fn hang(&self) -> Duration {
        Duration::from_millis(self.hang_ms)
    }
}

/// Who makes a side's moves: an engine of this process, or an outside engine's session.
enum Seat<G: Searchable> {
    Inside(Box<Engine<G>>),
    Outside(Box<Session>),
}

/// Plays one game of `G` from `opening` (record moves from the start). The players' engines
/// are built for this game and dropped after it, so nothing carries over between games; an
/// outside engine's process goes back to its pool.
pub fn play_game<G: Searchable>(
    first: &Player,
    second: &Player,
    opening: &[String],
    settings: &GameSettings,
    seed: u64,
) -> GameRecord {
    let game = G::default();
    let players = [first, second];
    let mut record = GameRecord {
        first_engine: Some(described(first, settings)),
        second_engine: Some(described(second, settings)),
        ..GameRecord::start(G::NAME, &first.name, &second.name, opening, seed)
    };
    let mut pos = match game.replay(opening) {
        Ok(p) => p,
        Err(e) => {
            // Openings are checked when a suite is built; a bad one is a caller's bug, and
            // the record says so rather than the thread panicking.
            return refused(record, &format!("bad opening: {e}"));
        }
    };
    // Commands check openings against the outside engines' protocols before any game: this
    // is the same caller's bug, recorded the same way.
    if let Some(e) = players.iter().find_map(|p| p.outside.as_ref()?.protocol().starts_from(opening).err()) {
        return refused(record, &e);
    }
    let seeds = [seed, seed ^ 0x5851_F42D_4C95_7F2D];
    let mut seats = Vec::with_capacity(2);
    for (i, player) in players.iter().enumerate() {
        match seat::<G>(player, Side::BOTH[i], seeds[i], settings) {
            Ok(s) => seats.push(s),
            Err(f) => return forfeited(record, Side::BOTH[i], &f),
        }
    }
    // Dice games draw from a stream of the game's seed; the others never ask.
    let mut dice = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0xD1CE);
    let mut roll = None;
    let mut turns = opening.len();
    // Each player's time left on the game clock, if there is one.
    let mut left_ms = [settings.clock.map_or(0, |tc| tc.base_ms); 2];
    let mut resign = ResignWatch::default();
    loop {
        match pos.status() {
            Status::Won { winner, reason } => {
                record.result = Outcome::win_of(winner);
                record.reason = Reason::rule(reason);
                break;
            }
            Status::Draw { reason } => {
                record.reason = Reason::rule(reason);
                break;
            }
            Status::Ongoing => {}
        }
        if let Some(loser) = resign.verdict(settings.resign_turns) {
            record.result = Outcome::win_of(loser.other());
            record.reason = Reason::Resign;
            let turns = settings.resign_turns;
            record
                .moves
                .push(format!("# both searches judged the {} player lost for {turns} turn(s) each", loser.name()));
            break;
        }
        if settings.max_turns > 0 && turns >= settings.max_turns {
            record.reason = Reason::Movecap;
            break;
        }
        if let Some(n) = pos.chance() {
            let outcome = dice.random_range(0..n.max(1));
            pos.resolve_chance(outcome);
            roll = Some(outcome);
            continue;
        }
        let mover = pos.side_to_move();
        let side = mover.index();
        let mut limits = players[side].limits();
        let budget = settings.clock.map(|tc| tc.budget(left_ms[side]));
        if let Some(tc) = settings.clock {
            let (soft, hard) = tc.move_times(left_ms[side]);
            limits.time_ms = Some(limits.time_ms.map_or(hard, |t| t.min(hard)));
            limits.soft_ms = Some(soft.min(limits.time_ms.unwrap_or(soft)));
        }
        let (best, ms) = match &mut seats[side] {
            Seat::Inside(engine) => {
                let result = engine.search(&mut pos, &limits);
                resign.saw(mover, Some(result.score), settings.resign_score.unwrap_or(MATE_BOUND));
                // The time by the search's own clock: the wall clock's, or the positions it
                // counted (`clock_nps`), which its game clock is charged too.
                (Ok(result.best), result.elapsed.as_millis() as u64)
            }
            Seat::Outside(session) => {
                resign.saw(mover, None, 0);
                let time = outside_time(players[side], settings, budget, left_ms[side]);
                match session.think(&record.moves, roll, &time) {
                    Ok(reply) => (Err(reply.text), reply.ms),
                    Err(f) => return forfeited(record, mover, &f),
                }
            }
        };
        if side == 0 {
            record.first_ms += ms;
        } else {
            record.second_ms += ms;
        }
        if let Some(tc) = settings.clock {
            // An outside engine's reply came before its clock ran out (with the margin), or
            // the session has already forfeited it.
            if ms > left_ms[side] && best.is_ok() {
                record.result = Outcome::win_of(mover.other());
                record.reason = Reason::Timeout;
                record.moves.push(format!("# out of time: {ms} ms used with {} ms left", left_ms[side]));
                break;
            }
            left_ms[side] = left_ms[side].saturating_sub(ms) + tc.increment_ms;
        }
        let played = match best {
            // The engine's move, as its game writes it.
            Ok(m) => {
                let text = game.format_move(&pos, m);
                let legal = if m.is_none() { Err("no move".to_string()) } else { game.play_checked(&mut pos, m) };
                legal.map(|()| text).map_err(|why| format!("# illegal move {m:?}: {why}"))
            }
            // An outside engine's move, read as the game reads record moves.
            Err(text) => game
                .parse_move(&pos, &text)
                .and_then(|m| game.play_checked(&mut pos, m))
                .map(|()| text.clone())
                .map_err(|why| format!("# illegal move {text}: {why}")),
        };
        match played {
            Ok(text) => record.moves.push(text),
            Err(note) => {
                record.result = Outcome::win_of(mover.other());
                record.reason = Reason::Illegal;
                record.moves.push(note);
                break;
            }
        }
        roll = None;
        turns += 1;
    }
    record
}

/// The seat of a player: an engine of its own for this game, or a session of its outside
/// engine (which may fail to start: the game is then lost).
fn seat<G: Searchable>(player: &Player, side: Side, seed: u64, settings: &GameSettings) -> Result<Seat<G>, Forfeit> {
    match &player.outside {
        Some(o) => {
            Session::start(o, player.weights.values(), side, settings.hang()).map(|s| Seat::Outside(Box::new(s)))
        }
        None => {
            let mut engine = Engine::<G>::new(player.engine.clone(), &player.weights);
            engine.new_game(seed);
            Ok(Seat::Inside(Box::new(engine)))
        }
    }
}

/// What the referee tells an outside engine about time and how long it waits: its time per
/// move (its `time_ms`) and its clock bound the move, plus the margin; with neither it waits
/// the hang time.
fn outside_time(player: &Player, settings: &GameSettings, budget: Option<u64>, left_ms: u64) -> TurnTime {
    let own = player.limits().time_ms;
    let left = settings.clock.map(|_| left_ms);
    let hard = match (own, left) {
        (Some(t), Some(l)) => Some(t.min(l)),
        (t, l) => t.or(l),
    };
    let wait = hard.map_or(settings.hang_ms, |h| h + settings.time_margin_ms);
    let budget_ms = match (own, budget) {
        (Some(t), Some(b)) => Some(t.min(b)),
        (t, b) => t.or(b),
    };
    TurnTime { budget_ms, left_ms: left, wait: Duration::from_millis(wait) }
}

/// A game that cannot start (the caller's bug): aborted, left out of the score.
fn refused(mut record: GameRecord, why: &str) -> GameRecord {
    record.reason = Reason::Aborted;
    record.moves.push(format!("# {why}"));
    record
}

/// A game lost by `loser`'s outside engine, or aborted by the referee (no result then).
fn forfeited(mut record: GameRecord, loser: Side, f: &Forfeit) -> GameRecord {
    record.result = if f.reason.is_scored() { Outcome::win_of(loser.other()) } else { Outcome::Draw };
    record.reason = f.reason.clone();
    record.moves.push(format!("# {}", f.note));
    record
}

/// The searches' running verdict for resign adjudication: which side the last searches, in a
/// row, judged lost, and how many did.
#[derive(Default)]
struct ResignWatch {
    loser: Option<Side>,
    searches: u32,
}

impl ResignWatch {
    /// Notes the score of `mover`'s search (for `mover`; `None` when it has none, as an
    /// outside engine), a side counting as lost at `threshold`.
    fn saw(&mut self, mover: Side, score: Option<i32>, threshold: i32) {
        let lost = match score {
            Some(s) if s <= -threshold => Some(mover),
            Some(s) if s >= threshold => Some(mover.other()),
            _ => None,
        };
        match lost {
            Some(l) if self.loser == Some(l) => self.searches += 1,
            Some(l) => (self.loser, self.searches) = (Some(l), 1),
            None => (self.loser, self.searches) = (None, 0),
        }
    }

    /// The side to resign, once `turns` searches of each side in a row agree.
    fn verdict(&self, turns: u32) -> Option<Side> {
        (turns > 0 && self.searches >= 2 * turns).then_some(self.loser).flatten()
    }
}

/// A player's search, evaluation and limits, and the game clock if there is one.
fn described(player: &Player, settings: &GameSettings) -> String {
    player.describe_under(settings.clock)
}

/// Plays games. The real one plays them with engines; tests use a deterministic mock so that
/// scheduling, statistics and the GA run in milliseconds.
pub trait Referee: Sync {
    fn play(&self, first: &Player, second: &Player, opening: &[String], seed: u64) -> GameRecord;

    /// The game clock of its games, if any (for the lines that say who plays whom).
    fn clock(&self) -> Option<crate::arena::clock::TimeControl> {
        None
    }
}

/// One game to play: who, from which opening, with which seed.
#[derive(Clone, Copy, Debug)]
pub struct GameJob<'a> {
    pub first: &'a Player,
    pub second: &'a Player,
    pub opening: &'a [String],
    pub opening_index: usize,
    pub seed: u64,
}

/// Plays every job in parallel on the current rayon pool and returns the records in job
/// order, whatever order the games finish in. Games with outside engines are taken in an
/// order that reuses their processes ([`batch`]).
pub fn play_games(referee: &dyn Referee, jobs: &[GameJob], progress: &Progress) -> Vec<GameRecord> {
    play_games_with(referee, jobs, progress, &|_, _| {})
}

/// As [`play_games`], handing each game to `on_done` with its job's index the moment it
/// ends (on the thread that played it, in whatever order the games end), so that a command
/// can write it at once and a Ctrl-C loses no finished game.
pub fn play_games_with(
    referee: &dyn Referee,
    jobs: &[GameJob],
    progress: &Progress,
    on_done: &(dyn Fn(usize, &GameRecord) + Sync),
) -> Vec<GameRecord> {
    play_games_ordered(referee, jobs, &[], progress, on_done).0
}

/// [`play_games`] with each game's and thread's times (none for a batch with outside
/// engines, which [`batch`] plays in an order of its own). Evotune's own games are handed to
/// the threads by list scheduling ([`workers`](crate::workers)): with `classes` (a
/// class key per job: games alike in length share one) the first game of each class first,
/// then the classes whose games took longest so far ([`LongestClassFirst`]); without, in job
/// order. The results do not depend on it.
pub fn play_games_timed(
    referee: &dyn Referee,
    jobs: &[GameJob],
    classes: &[usize],
    progress: &Progress,
) -> (Vec<GameRecord>, BatchTimes) {
    play_games_ordered(referee, jobs, classes, progress, &|_, _| {})
}

/// [`play_games_timed`], handing each game to `on_done` as it ends.
fn play_games_ordered(
    referee: &dyn Referee,
    jobs: &[GameJob],
    classes: &[usize],
    progress: &Progress,
    on_done: &(dyn Fn(usize, &GameRecord) + Sync),
) -> (Vec<GameRecord>, BatchTimes) {
    if batch::has_outside(jobs) {
        return (batch::play_reusing(referee, jobs, progress, on_done), BatchTimes::default());
    }
    assert!(classes.is_empty() || classes.len() == jobs.len(), "a class for every job");
    let mut hand_out: Box<dyn HandOut + Send> = if classes.is_empty() {
        Box::new(InOrder::in_turn(jobs.len()))
    } else {
        Box::new(LongestClassFirst::new(classes))
    };
    play_handed_out(jobs.len(), hand_out.as_mut(), |i| {
        let job = &jobs[i];
        let mut record = referee.play(job.first, job.second, job.opening, job.seed);
        record.opening = Some(job.opening_index);
        on_done(i, &record);
        progress.inc(1);
        record
    })
}

mod batch;
#[cfg(test)]
mod tests;
