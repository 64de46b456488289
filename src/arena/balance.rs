//! Balanced openings: an opening is kept when games played from it by judges (players other
//! than the ones a suite will measure, or the opponent playing itself) are not all won by the
//! side that moves first, nor all by the other.
//!
//! Why games and not a search's score: in Connect6 the scores of a fixed-depth search of a
//! two-turn opening swing with the parity of the depth (the hand table at depth 5 scores the
//! side to move +945 to +1,515, at depth 6 -1,304 to -2,231) and hardly differ between
//! openings: on 103 openings played against Cloudict, those the first player won every time
//! scored the same (mean +1,213 at depth 5) as those the second player won every time
//! (+1,297).
//!
//! Why each judge plays itself, not the other judges: a game between equal players is
//! decided by the opening and the colour, which is the question; a game between different
//! players is also decided by which is stronger there, and keeping the openings one of them
//! won with both colours would pick the suite by the very result it is meant to measure when
//! that player is one of the measured ones. Each judge plays one game against itself from the
//! opening; the opening is kept when the first player's share of those points is within
//! `margin` of one half. With two judges and margin 0 it is kept when they disagree, one
//! game won by the first player and one by the second: an opening both judges win as the
//! first player (or both as the second) is decided by colour for both.

use crate::arena::game::GameSettings;
use crate::arena::player::Player;
use crate::arena::records::Outcome;
use crate::registry::GameRef;

/// The judges' games from one opening.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// Points of the game's first player (Black in Connect6 and Gomoku; a win 1, a draw 1/2).
    /// After openings of an even number of turns it is also the side to move; the test is
    /// symmetric, so which side is counted does not matter.
    pub first_points: f64,
    pub games: usize,
}

impl Judged {
    /// The first player's share of the points (1/2 when no game was played).
    pub fn first_share(&self) -> f64 {
        if self.games == 0 {
            0.5
        } else {
            self.first_points / self.games as f64
        }
    }

    /// Whether the first player's share is within `margin` of one half.
    pub fn balanced(&self, margin: f64) -> bool {
        // A small tolerance so that margin 1/4 keeps a share of 3/4 computed in floats.
        (self.first_share() - 0.5).abs() <= margin + 1e-9
    }
}

/// Plays one game of each judge against itself from `opening` (the game's seed: `seed` and
/// the judge's index), and counts the first player's points.
pub fn judge_opening(
    game: GameRef,
    judges: &[Player],
    opening: &[String],
    settings: &GameSettings,
    seed: u64,
) -> Judged {
    let mut judged = Judged { first_points: 0.0, games: 0 };
    for (i, judge) in judges.iter().enumerate() {
        let record = game.play_game(judge, judge, opening, settings, seed.wrapping_mul(1_000).wrapping_add(i as u64));
        judged.games += 1;
        judged.first_points += match record.result {
            Outcome::First => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Second => 0.0,
        };
    }
    judged
}

/// Judges `candidates` on `threads` threads and returns the verdicts in the candidates' order
/// (so the result is the same on any number of threads: each game has its own seed and engine).
pub fn judge_all(
    game: GameRef,
    judges: &[Player],
    candidates: &[(u64, Vec<String>)],
    settings: &GameSettings,
    threads: usize,
) -> Vec<Judged> {
    let threads = threads.clamp(1, candidates.len().max(1));
    let mut out: Vec<Option<Judged>> = vec![None; candidates.len()];
    std::thread::scope(|scope| {
        let chunks: Vec<_> = out.chunks_mut(candidates.len().div_ceil(threads).max(1)).collect();
        let mut start = 0;
        for chunk in chunks {
            let mine = &candidates[start..start + chunk.len()];
            start += chunk.len();
            scope.spawn(move || {
                for (slot, (seed, opening)) in chunk.iter_mut().zip(mine) {
                    *slot = Some(judge_opening(game, judges, opening, settings, *seed));
                }
            });
        }
    });
    out.into_iter().map(|j| j.expect("every candidate judged")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::settings::EngineSettings;
    use crate::player::player_from;
    use crate::registry::CONNECT6;

    fn judge(spec: &str, depth: u32) -> Player {
        let engine = EngineSettings { depth: Some(depth), ..EngineSettings::default() };
        let mut p = player_from(spec, &engine, CONNECT6).unwrap();
        p.name = format!("{spec}@{depth}");
        p
    }

    #[test]
    fn an_opening_won_for_the_first_player_is_rejected() {
        // Black (to move) has four in a row on row 10 with both ends open and White's stones
        // far away: the side to move wins at once, so every judge's game is won by the first
        // player and the opening is decided by colour.
        let judges = [judge("defaults", 2), judge("defaults", 1)];
        let won: Vec<String> = "j10 a1a2 k10l10 s1s2 m10c17 s18s19".split(' ').map(String::from).collect();
        let j = judge_opening(CONNECT6, &judges, &won, &GameSettings::default(), 1);
        assert_eq!(j, Judged { first_points: 2.0, games: 2 });
        assert!(!j.balanced(0.0) && !j.balanced(0.49));
        assert!(j.balanced(0.5));
        // White to move against two open fours of Black: two blocks cannot stop both, so
        // Black, the game's first player, wins every game although White moves first after
        // this opening.
        let lost: Vec<String> =
            "j10 a1a2 k10l10 s1s2 m10j12 a19b19 k12l12 s19r19 m12c3".split(' ').map(String::from).collect();
        let j = judge_opening(CONNECT6, &judges, &lost, &GameSettings::default(), 1);
        assert_eq!(j, Judged { first_points: 2.0, games: 2 });
        assert!(!j.balanced(0.25));
    }

    #[test]
    fn judges_that_disagree_keep_the_opening() {
        let split = Judged { first_points: 1.0, games: 2 };
        assert!(split.balanced(0.0));
        let three_of_four = Judged { first_points: 3.0, games: 4 };
        assert!(!three_of_four.balanced(0.0) && three_of_four.balanced(0.25));
        assert_eq!(Judged { first_points: 0.0, games: 0 }.first_share(), 0.5);
    }

    #[test]
    fn verdicts_do_not_depend_on_threads() {
        let judges = [judge("defaults", 1), judge("defaults", 2)];
        let candidates: Vec<(u64, Vec<String>)> = [["j10", "k11k9"], ["j10", "h8h9"], ["k10", "j9l11"]]
            .iter()
            .enumerate()
            .map(|(i, o)| (i as u64, o.iter().map(|s| s.to_string()).collect()))
            .collect();
        let one = judge_all(CONNECT6, &judges, &candidates, &GameSettings::default(), 1);
        let two = judge_all(CONNECT6, &judges, &candidates, &GameSettings::default(), 2);
        assert_eq!(one, two);
    }
}
