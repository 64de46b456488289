//! One game between two players: a pure function of (players, opening, settings, seed), so
//! that games can run on any thread in any order and a run is reproducible.

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rayon::prelude::*;

use crate::arena::clock::TimeControl;
use crate::arena::player::Player;
use crate::arena::records::{GameRecord, Outcome, Reason};
use crate::core::game::{GameMove, Position, Side, Status};
use crate::report::progress::Progress;
use crate::search::{Engine, Searchable};

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
}

impl Default for GameSettings {
    fn default() -> Self {
        GameSettings { max_turns: 120, clock: None }
    }
}

/// Plays one game of `G` from `opening` (record moves from the start). The players' engines
/// are built for this game and dropped after it, so nothing carries over between games.
pub fn play_game<G: Searchable>(
    first: &Player,
    second: &Player,
    opening: &[String],
    settings: &GameSettings,
    seed: u64,
) -> GameRecord {
    let game = G::default();
    let mut engines = [
        Engine::<G>::new(first.engine.clone(), &first.weights),
        Engine::<G>::new(second.engine.clone(), &second.weights),
    ];
    engines[0].new_game(seed);
    engines[1].new_game(seed ^ 0x5851_F42D_4C95_7F2D);
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
            record.reason = Reason::Illegal;
            record.moves.push(format!("# bad opening: {e}"));
            return record;
        }
    };
    // Dice games draw from a stream of the game's seed; the others never ask.
    let mut dice = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0xD1CE);
    let mut turns = opening.len();
    // Each player's time left on the game clock, if there is one.
    let mut left_ms = [settings.clock.map_or(0, |tc| tc.base_ms); 2];
    loop {
        match pos.status() {
            Status::Won { winner, reason } => {
                record.result = outcome_of(winner);
                record.reason = Reason::rule(reason);
                break;
            }
            Status::Draw { reason } => {
                record.reason = Reason::rule(reason);
                break;
            }
            Status::Ongoing => {}
        }
        if settings.max_turns > 0 && turns >= settings.max_turns {
            record.reason = Reason::Movecap;
            break;
        }
        if let Some(n) = pos.chance() {
            pos.resolve_chance(dice.random_range(0..n.max(1)));
            continue;
        }
        let side = pos.side_to_move().index();
        let mut limits = players[side].limits();
        if let Some(tc) = settings.clock {
            let budget = tc.budget(left_ms[side]);
            limits.time_ms = Some(limits.time_ms.map_or(budget, |t| t.min(budget)));
        }
        let start = Instant::now();
        let result = engines[side].search(&mut pos, &limits);
        let ms = start.elapsed().as_millis() as u64;
        if side == 0 {
            record.first_ms += ms;
        } else {
            record.second_ms += ms;
        }
        if let Some(tc) = settings.clock {
            if ms > left_ms[side] {
                record.result = outcome_of(pos.side_to_move().other());
                record.reason = Reason::Timeout;
                record.moves.push(format!("# out of time: {ms} ms used with {} ms left", left_ms[side]));
                break;
            }
            left_ms[side] = left_ms[side] - ms + tc.increment_ms;
        }
        let text = game.format_move(&pos, result.best);
        let legal =
            if result.best.is_none() { Err("no move".to_string()) } else { game.play_checked(&mut pos, result.best) };
        if let Err(why) = legal {
            record.result = outcome_of(pos.side_to_move().other());
            record.reason = Reason::Illegal;
            record.moves.push(format!("# illegal move {:?}: {why}", result.best));
            break;
        }
        record.moves.push(text);
        turns += 1;
    }
    record
}

/// A player's search, evaluation and limits, and the game clock if there is one.
fn described(player: &Player, settings: &GameSettings) -> String {
    match settings.clock {
        Some(tc) => format!("{}, clock {tc}", player.describe()),
        None => player.describe(),
    }
}

/// Plays games. The real one plays them with engines; tests use a deterministic mock so that
/// scheduling, statistics and the GA run in milliseconds.
pub trait Referee: Sync {
    fn play(&self, first: &Player, second: &Player, opening: &[String], seed: u64) -> GameRecord;
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
/// order, whatever order the games finish in.
pub fn play_games(referee: &dyn Referee, jobs: &[GameJob], progress: &Progress) -> Vec<GameRecord> {
    jobs.par_iter()
        .map(|job| {
            let mut record = referee.play(job.first, job.second, job.opening, job.seed);
            record.opening = Some(job.opening_index);
            progress.inc(1);
            record
        })
        .collect()
}

fn outcome_of(s: Side) -> Outcome {
    match s {
        Side::First => Outcome::First,
        Side::Second => Outcome::Second,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::limits::Limits;
    use crate::core::settings::EngineSettings;
    use crate::games::connect::eval::CONNECT6_ROADS;
    use crate::games::connect::notation::board_from_record_moves;
    use crate::games::connect::{Colour, Connect6, Rules};

    fn player(name: &str, depth: u32) -> Player {
        let w = CONNECT6_ROADS.defaults();
        Player::new(name, w, EngineSettings { tt_mib: 1, ..EngineSettings::default() }, Limits::depth(depth))
    }

    #[test]
    fn a_player_out_of_time_loses_and_a_clock_with_time_left_changes_nothing() {
        let opening: Vec<String> = ["j10", "k11k9", "h8l12"].iter().map(|s| s.to_string()).collect();
        // No time at all: the first search that takes a millisecond (the search looks at the
        // clock only every 1024 nodes; a forced answer can take less) loses on time.
        let none = GameSettings { clock: Some(TimeControl { base_ms: 0, increment_ms: 0 }), ..GameSettings::default() };
        let r = play_game::<Connect6>(&player("a", 60), &player("b", 60), &opening, &none, 1);
        let played = r.moves.len() - 1;
        let loser_is_black = played.is_multiple_of(2);
        let winner = if loser_is_black { Outcome::Second } else { Outcome::First };
        assert_eq!((r.result, &r.reason), (winner, &Reason::Timeout), "{:?}", r.moves);
        assert!(r.moves.last().unwrap().starts_with("# out of time"), "{:?}", r.moves);
        assert!(r.first_engine.as_deref().unwrap().ends_with("clock 0+0"), "{:?}", r.first_engine);
        // An hour a side at fixed depth: the same game as without a clock.
        let hour = GameSettings { clock: "3600+0".parse().ok(), ..GameSettings::default() };
        let (a, b) = (player("a", 1), player("b", 2));
        let timed = play_game::<Connect6>(&a, &b, &opening, &hour, 1);
        let untimed = play_game::<Connect6>(&a, &b, &opening, &GameSettings::default(), 1);
        assert_eq!((timed.moves, timed.reason), (untimed.moves, untimed.reason));
    }

    #[test]
    fn a_game_is_legal_finished_and_deterministic() {
        let (a, b) = (player("a", 1), player("b", 2));
        let opening: Vec<String> = ["j10", "k11k9", "h8l12"].iter().map(|s| s.to_string()).collect();
        let settings = GameSettings::default();
        let r1 = play_game::<Connect6>(&a, &b, &opening, &settings, 1);
        let r2 = play_game::<Connect6>(&a, &b, &opening, &settings, 1);
        assert_eq!(r1.moves, r2.moves);
        assert_eq!((r1.result, &r1.reason), (r2.result, &r2.reason));
        let board = board_from_record_moves(Rules::CONNECT6, &r1.moves).expect("the record replays");
        let side = |c: Colour| if c == Colour::Black { Side::First } else { Side::Second };
        match &r1.reason {
            Reason::Rule(w) if w == "six" => assert_eq!(Some(r1.result), board.winner().map(|c| outcome_of(side(c)))),
            Reason::Movecap => assert!(r1.moves.len() >= settings.max_turns),
            other => panic!("unexpected end {other:?}"),
        }
        assert_eq!(r1.opening_moves, 3);
        assert_eq!(&r1.moves[..3], &opening[..]);
    }

    #[test]
    fn the_move_cap_draws() {
        let (a, b) = (player("a", 1), player("b", 1));
        let r = play_game::<Connect6>(&a, &b, &["j10".to_string()], &GameSettings { max_turns: 4, clock: None }, 0);
        assert_eq!((r.result, r.reason, r.moves.len()), (Outcome::Draw, Reason::Movecap, 4));
    }
}
