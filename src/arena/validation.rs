//! Validation of a tuned table: a match against fixed opponents on openings the tuner never
//! trained on. Shared by every tuner (the GA's end of run, SPSA).
//!
//! The validation suite is generated as `evotune match` generates its own (at least as many
//! openings as pairs, `[validation] turns`, seed `[validation] opening_seed`), so the numbers
//! can be replayed with one `evotune match` command (preceded by `evotune openings` when the
//! turns are not the match's default); [`training_suite`] removes its openings
//! from the training suite, so they are out of sample.

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::arena::game::Referee;
use crate::arena::matches::{run_match, MatchConfig, MatchReport};
use crate::arena::openings::{Keys, OpeningSuite, Openings};
use crate::arena::outside::is_outside;
use crate::arena::player::Player;
use crate::arena::ArenaGame;
use crate::core::openings::OpeningConfig;
use crate::core::settings::EngineSettings;
use crate::report::progress::Progress;
use crate::stats::{Sprt, Wdl};

/// The match that measures a tuned table at the end of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ValidationConfig {
    /// Game pairs against each opponent (0: no validation).
    pub pairs: usize,
    /// Opponents: weight files or built-in tables (`defaults`, `random:SEED`).
    pub opponents: Vec<String>,
    /// Stop early by SPRT: `[elo0, elo1]` (H1: the champion is at least elo1 better).
    pub sprt: Option<[f64; 2]>,
    /// Turns per opening and the seed of the validation suite, and the match's game seed.
    pub turns: usize,
    pub opening_seed: u64,
    pub seed: u64,
}

impl Default for ValidationConfig {
    fn default() -> Self {
        ValidationConfig {
            pairs: 100,
            opponents: vec!["defaults".into()],
            sprt: None,
            turns: OpeningConfig::default().turns,
            opening_seed: 1,
            seed: 1,
        }
    }
}

impl ValidationConfig {
    /// Checks the values the types do not; errors name the key.
    pub fn check(&self) -> Result<()> {
        anyhow::ensure!(self.pairs <= 100_000, "[validation] pairs = {}: at most 100000", self.pairs);
        anyhow::ensure!(
            self.pairs == 0 || !self.opponents.is_empty(),
            "[validation] opponents = []: name at least one (e.g. \"defaults\") or set pairs = 0"
        );
        anyhow::ensure!(self.pairs == 0 || self.turns > 0, "[validation] turns = 0: openings need at least 1 turn");
        if let Some([e0, e1]) = self.sprt {
            anyhow::ensure!(
                e0.is_finite() && e1.is_finite() && e0 < e1,
                "[validation] sprt = [{e0}, {e1}]: two Elo bounds with elo0 < elo1"
            );
        }
        Ok(())
    }

    /// The first `count` openings of the validation generator (the same as `evotune match`
    /// plays first with `--opening-seed` and the default settings).
    fn openings(&self, game: &'static dyn ArenaGame, count: usize) -> Result<OpeningSuite> {
        let defaults = OpeningConfig::default();
        let openings = OpeningConfig { count: count.max(defaults.count), turns: self.turns, ..defaults };
        OpeningSuite::generate(game, &openings, self.opening_seed)
            .map_err(|e| anyhow::anyhow!("[validation]: {}", e.message(Keys::Config)))
    }

    /// The validation suite.
    pub fn suite(&self, game: &'static dyn ArenaGame) -> Result<OpeningSuite> {
        self.openings(game, self.pairs)
    }

    /// One validation match of `champion` against `opponent`.
    pub fn play(
        &self,
        referee: &dyn Referee,
        champion: &Player,
        opponent: &Player,
        suite: &OpeningSuite,
        progress: &Progress,
    ) -> Result<MatchReport> {
        let sprt = self.sprt.map(|[e0, e1]| Sprt::new(e0, e1, 0.05, 0.05)).transpose().context("[validation] sprt")?;
        let config = MatchConfig { pairs: self.pairs, seed: self.seed, sprt };
        let mut openings = Openings::fixed(suite.clone());
        run_match(
            referee,
            champion,
            opponent,
            &mut openings,
            &config,
            &Default::default(),
            progress,
            &|_, _| {},
            &mut |_| {},
        )
    }
}

/// One line of a validation result, as a run prints it.
pub fn summary_line(opponent: &str, w: &Wdl) -> String {
    let (lo, hi) = w.elo_ci95();
    format!(
        "validation vs {opponent}: {} games, W {} D {} L {}, score {:.1}%, Elo {:+.0} ({:+.0} .. {:+.0}), LOS {:.1}%",
        w.games(),
        w.wins,
        w.draws,
        w.losses,
        100.0 * w.score(),
        w.elo(),
        lo,
        hi,
        100.0 * w.los()
    )
}

impl ValidationConfig {
    /// The `evotune match` command that replays this validation of `champion` against
    /// `opponent` (a player spec) with an engine of `engine`'s settings.
    pub fn replay_command(
        &self,
        game: &str,
        engine: &EngineSettings,
        max_turns: usize,
        champion: &str,
        opponent: &str,
    ) -> String {
        // Always named: a replay must not depend on which game is the default.
        let game_flag = format!(" --game {game}");
        // `evotune match` generates openings of the default number of turns only; a suite of
        // other turns is written first by `evotune openings` with the generator settings of
        // `openings` (its `--top` default differs from the match's), then played from the file.
        let defaults = OpeningConfig::default();
        let (before, openings) = if self.turns == defaults.turns {
            (String::new(), format!("--opening-seed {}", self.opening_seed))
        } else {
            let file = "validation-openings.txt";
            let write = format!(
                "evotune openings{game_flag} --count {} --turns {} --top {} --seed {} -o {file} && ",
                self.pairs.max(defaults.count),
                self.turns,
                defaults.top,
                self.opening_seed
            );
            (write, format!("--openings {file}"))
        };
        let mut cmd = format!(
            "{before}evotune match --a {} --b {} --pairs {} --max-turns {} {openings} --seed {}",
            // An outside engine's spec holds spaces and `;`: one word for the shell.
            shlex::try_quote(champion).unwrap_or(champion.into()),
            shlex::try_quote(opponent).unwrap_or(opponent.into()),
            self.pairs,
            max_turns,
            self.seed
        );
        cmd += &game_flag;
        // The engine's settings, its options where they differ from the command line's. Only
        // evotune's own players read them: between two outside engines (a tuned engine's
        // champion against a stock build, say) only the time per move applies, the
        // referee's budget.
        let outside = |text: &str| is_outside(text) || text.split_once('=').is_some_and(|(_, t)| is_outside(t));
        if outside(champion) && outside(opponent) {
            if let Some(ms) = engine.time_ms {
                cmd += &format!(" --time-ms {ms}");
            }
        } else {
            cmd += &format!(" {}", engine.cli_args(true).join(" "));
        }
        if let Some([e0, e1]) = self.sprt {
            cmd += &format!(" --sprt {e0},{e1}");
        }
        cmd
    }
}

/// Openings of the validation generator kept out of training: at least this many, so that
/// `evotune match --pairs N` with the default openings is out of sample for N up to it.
pub const HELD_OUT: usize = 2000;

/// A training suite without the validation generator's first [`HELD_OUT`] openings (or
/// `[validation] pairs`, if more), when there is a validation.
pub fn training_suite(mut suite: OpeningSuite, validation: &ValidationConfig) -> Result<OpeningSuite> {
    if validation.pairs > 0 {
        let held_out = validation.openings(suite.game, validation.pairs.max(HELD_OUT))?;
        suite.remove_all_of(&held_out);
        anyhow::ensure!(
            !suite.is_empty(),
            "[openings]: every training opening is one the validation match may play; generate them \
             differently (e.g. [openings] top = 24, radius = 4) or set [validation] pairs = 0"
        );
    }
    Ok(suite)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replay(turns: usize) -> String {
        let v = ValidationConfig { pairs: 500, opening_seed: 7, turns, ..ValidationConfig::default() };
        v.replay_command("einstein", &EngineSettings::default(), 200, "c.toml", "defaults")
    }

    #[test]
    fn the_replay_plays_the_validation_openings() {
        // The match's own generator makes openings of the default turns ...
        let cmd = replay(OpeningConfig::default().turns);
        assert!(
            cmd.starts_with("evotune match --a c.toml --b defaults --pairs 500 ") && cmd.contains(" --opening-seed 7 ")
        );
        assert!(cmd.contains(" --game einstein"), "{cmd}");
        // ... any other turns are written by `evotune openings` as the validation made them.
        let cmd = replay(2);
        assert!(
            cmd.starts_with(
                "evotune openings --game einstein --count 500 --turns 2 --top 16 --seed 7 -o validation-openings.txt && \
                 evotune match --a c.toml "
            ),
            "{cmd}"
        );
        assert!(cmd.contains(" --openings validation-openings.txt ") && !cmd.contains("--opening-seed"), "{cmd}");
    }

    #[test]
    fn a_replay_between_outside_engines_carries_no_flags_of_evotunes_engine() {
        let v = ValidationConfig { pairs: 200, ..ValidationConfig::default() };
        let engine = EngineSettings { depth: Some(3), tt_mib: 4, ..EngineSettings::default() };
        let tuned = "cmd:/opt/engine --weights results/run/champion.txt";
        let cmd = v.replay_command("connect6", &engine, 200, tuned, "stock=cmd:/opt/engine");
        assert!(!cmd.contains("--depth") && !cmd.contains("--tt-mib") && !cmd.contains("--search"), "{cmd}");
        assert!(cmd.contains("--a 'cmd:/opt/engine --weights results/run/champion.txt'"), "{cmd}");
        let timed = EngineSettings { time_ms: Some(250), ..engine.clone() };
        let cmd = v.replay_command("connect6", &timed, 200, tuned, "cmd:/opt/engine");
        assert!(cmd.ends_with(" --game connect6 --time-ms 250"), "{cmd}");
        // Against evotune's own engine (a table of the engine's parameters is one), its
        // settings are the opponent's.
        let cmd = v.replay_command("connect6", &engine, 200, tuned, "weights/table.toml");
        assert!(cmd.contains(" --depth 3") && cmd.contains("--tt-mib 4"), "{cmd}");
    }
}
