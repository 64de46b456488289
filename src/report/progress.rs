//! Progress of long work: an indicatif bar on a terminal, plain log lines otherwise (CI,
//! `nohup`, a file), so that an overnight log stays readable. Everything goes to stderr;
//! stdout is kept for results.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How often a plain log line is written when stderr is not a terminal.
const LOG_EVERY: Duration = Duration::from_secs(15);

/// A counter of finished units (games, generations) that can be advanced from any thread.
pub struct Progress {
    bar: Option<ProgressBar>,
    label: String,
    unit: &'static str,
    total: u64,
    /// Log mode: a line when the count reaches the total (off for work that is usually too
    /// quick to report, see [`Progress::background`]).
    final_line: bool,
    state: Mutex<LogState>,
}

struct LogState {
    done: u64,
    start: Instant,
    last_log: Instant,
}

/// Where progress goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressMode {
    /// A bar on a terminal, log lines otherwise.
    Auto,
    /// Log lines only.
    Lines,
    /// Nothing (tests, `--quiet`).
    Hidden,
}

impl Progress {
    pub fn new(label: &str, total: u64, unit: &'static str, mode: ProgressMode) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let bar = match mode {
            ProgressMode::Auto if terminal => {
                let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
                let style = ProgressStyle::with_template(
                    "{prefix} [{bar:30.cyan/blue}] {pos}/{len} {msg} ({per_sec}, ETA {eta})",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ");
                bar.set_style(style);
                bar.set_prefix(label.to_string());
                Some(bar)
            }
            _ => None,
        };
        let now = Instant::now();
        let hidden = mode == ProgressMode::Hidden;
        Progress {
            bar,
            label: if hidden { String::new() } else { label.to_string() },
            unit,
            total,
            final_line: true,
            state: Mutex::new(LogState { done: 0, start: now, last_log: now }),
        }
    }

    /// Progress of preparatory work that is usually over in a blink (an opening suite): a
    /// bar on a terminal, cleared when done; otherwise a log line only if it takes long.
    pub fn background(label: &str, total: u64, unit: &'static str) -> Progress {
        Progress { final_line: false, ..Progress::new(label, total, unit, ProgressMode::Auto) }
    }

    fn hidden(&self) -> bool {
        self.bar.is_none() && self.label.is_empty()
    }

    /// Marks `n` more units done.
    pub fn inc(&self, n: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(n);
            return;
        }
        let Ok(mut s) = self.state.lock() else { return };
        s.done += n;
        if !self.hidden() && (s.last_log.elapsed() >= LOG_EVERY || (self.final_line && s.done == self.total)) {
            s.last_log = Instant::now();
            let secs = s.start.elapsed().as_secs_f64().max(1e-9);
            let rate = s.done as f64 / secs;
            let eta = if rate > 0.0 { (self.total.saturating_sub(s.done)) as f64 / rate } else { 0.0 };
            eprintln!(
                "{}: {}/{} {} ({:.2}/s, ETA {})",
                self.label,
                s.done,
                self.total,
                self.unit,
                rate,
                format_duration(Duration::from_secs_f64(eta))
            );
        }
    }

    /// A short status shown beside the bar (ignored in log mode).
    pub fn set_message(&self, msg: String) {
        if let Some(bar) = &self.bar {
            bar.set_message(msg);
        }
    }

    /// A line of output that does not break the bar.
    pub fn println(&self, line: &str) {
        match &self.bar {
            // A finished bar no longer draws, and neither would its log lines.
            Some(bar) if bar.is_finished() => eprintln!("{line}"),
            Some(bar) => bar.println(line),
            None if !self.hidden() => eprintln!("{line}"),
            None => {}
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// `1h02m`, `3m05s`, `12s`.
pub fn format_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{:.1}s", d.as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_well() {
        assert_eq!(format_duration(Duration::from_secs(3725)), "1h02m");
        assert_eq!(format_duration(Duration::from_secs(185)), "3m05s");
        assert_eq!(format_duration(Duration::from_millis(12_300)), "12.3s");
    }

    #[test]
    fn hidden_progress_counts_silently_from_many_threads() {
        let p = Progress::new("x", 100, "games", ProgressMode::Hidden);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| (0..25).for_each(|_| p.inc(1)));
            }
        });
        assert_eq!(p.state.lock().unwrap().done, 100);
    }
}
