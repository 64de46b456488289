//! What the arena's tests share: a referee that decides a game by the players' first
//! weights (no engine plays), players that differ only there, and two openings.

use crate::arena::game::Referee;
use crate::arena::openings::OpeningSuite;
use crate::arena::player::Player;
use crate::arena::records::{GameRecord, Outcome, Reason};
use crate::arena::ArenaGame;
use crate::core::limits::Limits;
use crate::core::settings::EngineSettings;
use crate::core::weights::Weights;
use crate::games::connect::eval::CONNECT6_ROADS;
use crate::registry::CONNECT6;

/// The player with the larger first weight wins; equal weights give `ties(seed)`.
pub struct FirstWeightWins {
    pub ties: fn(u64) -> Outcome,
}

impl Referee for FirstWeightWins {
    fn play(&self, first: &Player, second: &Player, opening: &[String], seed: u64) -> GameRecord {
        let (x, y) = (first.weights.values()[0], second.weights.values()[0]);
        let result = match x.cmp(&y) {
            std::cmp::Ordering::Greater => Outcome::First,
            std::cmp::Ordering::Less => Outcome::Second,
            std::cmp::Ordering::Equal => (self.ties)(seed),
        };
        GameRecord {
            result,
            reason: Reason::Adjudicated,
            ..GameRecord::start(CONNECT6.name(), &first.name, &second.name, opening, seed)
        }
    }
}

/// A Connect6 player of the default table with `first` as its first weight.
pub fn player(name: &str, first: i32) -> Player {
    let schema = &CONNECT6_ROADS;
    let mut v = schema.defaults().values().to_vec();
    v[0] = first;
    Player::new(name, Weights::from_values(schema, v).unwrap(), EngineSettings::default(), Limits::depth(1))
}

/// Two one-stone Connect6 openings.
pub fn two_openings() -> OpeningSuite {
    OpeningSuite { game: CONNECT6, openings: vec![vec!["j10".into()], vec!["k10".into()]] }
}
