//! Where a generation's games are played: [`Games`], with [`LocalGames`] on this machine's
//! threads (a cluster's executor is in `crate::cluster`).

use std::sync::atomic::AtomicUsize;

use anyhow::Result;

use crate::arena::game::play_games_timed;
use crate::arena::records::GameRecord;
use crate::ga::evolve::Evolver;
use crate::ga::schedule::Schedule;
use crate::report::progress::Progress;
use crate::workers::BatchTimes;

/// Where a generation's games are played: here, on the current rayon pool ([`LocalGames`]),
/// or as shards on other machines (`crate::cluster`). Whichever plays them, the generation is
/// scheduled and concluded by the same code, so the run is the same.
pub trait Games: Sync {
    /// Plays the schedule's games and returns their records in schedule order; None when a
    /// Ctrl-C (`stop` above 0) stopped them before all were played.
    fn play(
        &self,
        evolver: &Evolver,
        schedule: &Schedule,
        progress: &Progress,
        stop: &AtomicUsize,
    ) -> Result<Option<Played>>;

    /// The generation's checkpoint is written: what was kept to play it can go.
    fn committed(&self, generation: u32) -> Result<()> {
        let _ = generation;
        Ok(())
    }

    /// Whether a first Ctrl-C stops the games in flight (true: they are elsewhere, and
    /// waiting for them could take long) rather than letting the generation finish.
    fn stops_at_once(&self) -> bool {
        false
    }

    /// Whether a generation's records and checkpoint may go to disk while the next
    /// generation plays (false: the next generation's plan clears the last one's work, which
    /// must wait until its checkpoint stands).
    fn commits_in_background(&self) -> bool {
        true
    }
}

/// A generation's games as an executor played them.
pub struct Played {
    /// The records, in schedule order.
    pub records: Vec<GameRecord>,
    /// The games' and threads' times, where the executor knows them (for `trace.csv`).
    pub times: BatchTimes,
}

impl Played {
    /// Games whose times are not known (played elsewhere).
    pub fn untimed(records: Vec<GameRecord>) -> Played {
        Played { records, times: BatchTimes::default() }
    }
}

/// The games on this machine's threads (the default executor).
pub struct LocalGames;

impl Games for LocalGames {
    fn play(
        &self,
        evolver: &Evolver,
        schedule: &Schedule,
        progress: &Progress,
        _stop: &AtomicUsize,
    ) -> Result<Option<Played>> {
        let (records, times) =
            play_games_timed(evolver.referee, &schedule.jobs(evolver.suite), &schedule.classes(), progress);
        Ok(Some(Played { records, times }))
    }
}
