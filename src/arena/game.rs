//! One game between two players: a pure function of (players, opening, settings, seed), so
//! that games can run on any thread in any order and a run is reproducible.

use std::time::Instant;

use rayon::prelude::*;

use crate::arena::records::{GameRecord, Outcome, Reason};
use crate::game::connect::movegen::Move;
use crate::game::connect::notation::{board_from_record_moves, move_to_record, play_move};
use crate::game::connect::{Board, Colour, Rules};
use crate::player::Player;
use crate::report::progress::Progress;
use crate::search::Engine;

/// How games are refereed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GameSettings {
    /// A game still undecided after this many turns (opening included) is a draw (`movecap`).
    /// 0 means no cap: play until a line or a full board.
    pub max_turns: usize,
}

impl Default for GameSettings {
    fn default() -> Self {
        GameSettings { max_turns: 120 }
    }
}

/// Plays one game from `opening` (record moves from the empty board). The players' engines
/// are built for this game and dropped after it, so nothing carries over between games.
pub fn play_game(black: &Player, white: &Player, opening: &[String], settings: &GameSettings, seed: u64) -> GameRecord {
    let rules = Rules::for_game(black.weights.schema().game).unwrap_or(Rules::CONNECT6);
    let mut engines = [Engine::new(black.engine, &black.weights), Engine::new(white.engine, &white.weights)];
    engines[0].new_game(seed);
    engines[1].new_game(seed ^ 0x5851_F42D_4C95_7F2D);
    let players = [black, white];
    let mut record = GameRecord {
        black_engine: Some(describe(black)),
        white_engine: Some(describe(white)),
        ..GameRecord::start(rules.game_name(), &black.name, &white.name, opening, seed)
    };
    let mut board = match board_from_record_moves(rules, opening) {
        Ok(b) => b,
        Err(e) => {
            // Openings are checked when a suite is built; a bad one is a caller's bug, and
            // the record says so rather than the thread panicking.
            record.reason = Reason::Illegal;
            record.moves.push(format!("# bad opening: {e}"));
            return record;
        }
    };
    let mut turns = opening.len();
    loop {
        if let Some(w) = board.winner() {
            record.result = outcome_of(w);
            record.reason = if rules.k == 6 { Reason::Six } else { Reason::Five };
            break;
        }
        if board.is_full() {
            record.reason = Reason::Full;
            break;
        }
        if settings.max_turns > 0 && turns >= settings.max_turns {
            record.reason = Reason::Movecap;
            break;
        }
        let side = board.to_move().index();
        let start = Instant::now();
        let result = engines[side].search(&mut board, &players[side].limits);
        let ms = start.elapsed().as_millis() as u64;
        if side == 0 {
            record.black_ms += ms;
        } else {
            record.white_ms += ms;
        }
        if let Err(why) = legal(&mut board, result.best) {
            record.result = outcome_of(board.to_move().other());
            record.reason = Reason::Illegal;
            record.moves.push(format!("# illegal move {:?}: {why}", result.best));
            break;
        }
        record.moves.push(move_to_record(rules, result.best.stones()));
        turns += 1;
    }
    record
}

/// Plays games. The real one plays them with engines; tests use a deterministic mock so that
/// scheduling, statistics and the GA run in milliseconds.
pub trait Referee: Sync {
    fn play(&self, black: &Player, white: &Player, opening: &[String], seed: u64) -> GameRecord;
}

/// The real referee: [`play_game`] under fixed settings.
#[derive(Clone, Copy, Debug, Default)]
pub struct EngineReferee {
    pub settings: GameSettings,
}

impl Referee for EngineReferee {
    fn play(&self, black: &Player, white: &Player, opening: &[String], seed: u64) -> GameRecord {
        play_game(black, white, opening, &self.settings, seed)
    }
}

/// One game to play: who, from which opening, with which seed.
#[derive(Clone, Copy, Debug)]
pub struct GameJob<'a> {
    pub black: &'a Player,
    pub white: &'a Player,
    pub opening: &'a [String],
    pub opening_index: usize,
    pub seed: u64,
}

/// Plays every job in parallel on the current rayon pool and returns the records in job
/// order, whatever order the games finish in.
pub fn play_games(referee: &dyn Referee, jobs: &[GameJob], progress: &Progress) -> Vec<GameRecord> {
    jobs.par_iter()
        .map(|job| {
            let mut record = referee.play(job.black, job.white, job.opening, job.seed);
            record.opening = Some(job.opening_index);
            progress.inc(1);
            record
        })
        .collect()
}

/// Plays `m` if it is a legal move for the side to move.
fn legal(board: &mut Board, m: Move) -> Result<(), String> {
    if m.is_none() {
        return Err("no move".into());
    }
    play_move(board, m.stones())
}

fn outcome_of(c: Colour) -> Outcome {
    match c {
        Colour::Black => Outcome::Black,
        Colour::White => Outcome::White,
    }
}

fn describe(p: &Player) -> String {
    format!("{} {} {}", p.engine.search.name(), p.engine.eval.name(), p.limits.describe())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect::eval::EvalKind;
    use crate::search::{EngineConfig, Limits};

    fn player(name: &str, depth: u32) -> Player {
        let w = EvalKind::Roads.schema(Rules::CONNECT6).defaults();
        Player::new(name, w, EngineConfig { tt_mib: 1, ..EngineConfig::default() }, Limits::depth(depth))
    }

    #[test]
    fn a_game_is_legal_finished_and_deterministic() {
        let (a, b) = (player("a", 1), player("b", 2));
        let opening: Vec<String> = ["j10", "k11k9", "h8l12"].iter().map(|s| s.to_string()).collect();
        let settings = GameSettings::default();
        let r1 = play_game(&a, &b, &opening, &settings, 1);
        let r2 = play_game(&a, &b, &opening, &settings, 1);
        assert_eq!(r1.moves, r2.moves);
        assert_eq!((r1.result, r1.reason), (r2.result, r2.reason));
        let board = board_from_record_moves(Rules::CONNECT6, &r1.moves).expect("the record replays");
        match r1.reason {
            Reason::Six => assert_eq!(Some(r1.result), board.winner().map(outcome_of)),
            Reason::Movecap => assert!(r1.moves.len() >= settings.max_turns),
            other => panic!("unexpected end {other:?}"),
        }
        assert_eq!(r1.opening_moves, 3);
        assert_eq!(&r1.moves[..3], &opening[..]);
    }

    #[test]
    fn the_move_cap_draws() {
        let (a, b) = (player("a", 1), player("b", 1));
        let r = play_game(&a, &b, &["j10".to_string()], &GameSettings { max_turns: 4 }, 0);
        assert_eq!((r.result, r.reason, r.moves.len()), (Outcome::Draw, Reason::Movecap, 4));
    }
}
