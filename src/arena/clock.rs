//! A game clock, as match runners offer it (`--tc 60+1`): each player has `base` for the whole
//! game and gains `increment` after each of its moves; a player whose time runs out before its
//! move is made loses the game (`timeout`). The engine is told how long it may think for each
//! move ([`TimeControl::budget`]); what it uses is taken off its clock.

use std::fmt;
use std::str::FromStr;

/// Base time and increment per move, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct TimeControl {
    pub base_ms: u64,
    pub increment_ms: u64,
}

/// Moves the budget plans for: a share of the time left goes to each move as if this many
/// were still to come. Connect6 games last about 20 turns a side and are decided early, so
/// the first moves deserve their share.
const MOVES_TO_GO: u64 = 15;
/// Time kept back from every budget for the move to reach the referee (process start-up of a
/// search, thread scheduling on a loaded machine).
const SAFETY_MS: u64 = 5;

/// How many times its share a move may take when its search needs it (the best move keeps
/// changing), within a third of the time left.
const HARD_SHARES: u64 = 3;

impl TimeControl {
    /// The time the side to move should think, given what is left on its clock: the left
    /// time shared over [`MOVES_TO_GO`] moves plus most of the increment, never more than
    /// half of what is left, and at least 1 ms.
    pub fn budget(&self, left_ms: u64) -> u64 {
        let share = left_ms / MOVES_TO_GO + self.increment_ms * 3 / 4;
        share.min(left_ms / 2).saturating_sub(SAFETY_MS).max(1)
    }

    /// The move's soft target ([`budget`](Self::budget)) and its hard bound: a few shares,
    /// never more than a third of what is left (and never less than the target).
    pub fn move_times(&self, left_ms: u64) -> (u64, u64) {
        let soft = self.budget(left_ms);
        let hard = (soft * HARD_SHARES).min((left_ms / 3).saturating_sub(SAFETY_MS));
        (soft, hard.max(soft))
    }
}

impl FromStr for TimeControl {
    type Err = String;

    /// `BASE+INC` in seconds (`60+1`, `0.5+0.05`), or `BASE` alone (no increment).
    fn from_str(text: &str) -> Result<TimeControl, String> {
        let bad = || format!("`{text}` is not a time control: expected BASE+INC in seconds, like `60+1` or `0.5+0.05`");
        let (base, inc) = text.trim().split_once('+').unwrap_or((text.trim(), "0"));
        let ms = |s: &str| -> Result<u64, String> {
            let secs: f64 = s.trim().parse().map_err(|_| bad())?;
            if !secs.is_finite() || !(0.0..=86_400.0).contains(&secs) {
                return Err(format!("`{text}`: each part must be between 0 and 86400 seconds"));
            }
            Ok((secs * 1000.0).round() as u64)
        };
        let tc = TimeControl { base_ms: ms(base)?, increment_ms: ms(inc)? };
        if tc.base_ms == 0 && tc.increment_ms == 0 {
            return Err(format!("`{text}`: a clock needs some time (base or increment above 0)"));
        }
        Ok(tc)
    }
}

impl TryFrom<String> for TimeControl {
    type Error = String;

    fn try_from(text: String) -> Result<TimeControl, String> {
        text.parse()
    }
}

impl From<TimeControl> for String {
    fn from(tc: TimeControl) -> String {
        tc.to_string()
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let secs = |ms: u64| {
            let s = format!("{:.3}", ms as f64 / 1000.0);
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        };
        write!(f, "{}+{}", secs(self.base_ms), secs(self.increment_ms))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_time_controls() {
        let tc: TimeControl = "60+1".parse().unwrap();
        assert_eq!(tc, TimeControl { base_ms: 60_000, increment_ms: 1000 });
        assert_eq!(tc.to_string(), "60+1");
        assert_eq!("0.5+0.05".parse::<TimeControl>().unwrap().to_string(), "0.5+0.05");
        assert_eq!("10".parse::<TimeControl>().unwrap(), TimeControl { base_ms: 10_000, increment_ms: 0 });
        for bad in ["", "a+1", "60+", "-1+1", "0+0", "1e9+1"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert!("x".parse::<TimeControl>().unwrap_err().contains("like `60+1`"));
    }

    #[test]
    fn a_move_may_take_a_few_shares_but_never_a_third_of_the_clock() {
        let tc = TimeControl { base_ms: 60_000, increment_ms: 1000 };
        let (soft, hard) = tc.move_times(60_000);
        assert_eq!((soft, hard), (tc.budget(60_000), 3 * tc.budget(60_000)));
        let (soft, hard) = tc.move_times(3_000);
        assert!(soft <= hard && hard <= 1_000, "{soft} {hard}");
        for left in [0, 1, 10, 100, 1000, 10_000, 100_000] {
            let (soft, hard) = tc.move_times(left);
            assert!(soft >= 1 && soft <= hard && hard <= left.max(1), "{left}: {soft} {hard}");
        }
    }

    #[test]
    fn budgets_share_the_time_left_and_never_spend_it_all() {
        let tc = TimeControl { base_ms: 60_000, increment_ms: 1000 };
        assert_eq!(tc.budget(60_000), 60_000 / 15 + 750 - SAFETY_MS);
        // Little left: at most half of it.
        assert_eq!(tc.budget(1000), 500 - SAFETY_MS);
        assert_eq!(tc.budget(0), 1);
        for left in [1, 10, 100, 1000, 10_000, 100_000] {
            assert!(tc.budget(left) <= left.max(1));
        }
    }
}
