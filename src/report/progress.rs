//! Progress of long work: an indicatif bar on a terminal, plain log lines otherwise (CI,
//! `nohup`, a file), so that an overnight log stays readable. Everything goes to stderr;
//! stdout is kept for results.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use serde::{Deserialize, Serialize};

/// How often a plain log line is written when stderr is not a terminal.
const LOG_EVERY: Duration = Duration::from_secs(15);

/// The work in flight as [`Progress::mirrored`] writes it (a run's `progress.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InFlight {
    /// What is being played (`gen 3/10`, `play-off`, `validation vs defaults`).
    pub task: String,
    pub done: u64,
    pub total: u64,
    /// What is counted (`games`).
    pub unit: String,
    /// Seconds since the Unix epoch when the task started, and of this count.
    pub started: u64,
    pub updated: u64,
}

/// Seconds since the Unix epoch.
pub fn now_secs() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// A counter of finished units (games, generations) that can be advanced from any thread.
pub struct Progress {
    bar: Option<ProgressBar>,
    label: String,
    /// The label even when hidden (the mirror file names the work).
    task: String,
    unit: &'static str,
    total: u64,
    /// Log mode: a line when the count reaches the total (off for work that is usually too
    /// quick to report, see [`Progress::background`]).
    final_line: bool,
    /// The total is a cap the work usually stops before ([`Progress::capped`]).
    capped: bool,
    /// The status message, which a capped progress's log lines carry.
    message: Mutex<String>,
    state: Mutex<LogState>,
    /// A file that mirrors the count for other processes (`progress.json` of a run, which
    /// `evotune serve` shows), rewritten at most every [`MIRROR_EVERY`] and at the end.
    mirror: Option<std::path::PathBuf>,
}

struct LogState {
    done: u64,
    start: Instant,
    last_log: Instant,
    last_mirror: Option<Instant>,
    started_epoch: u64,
}

/// How often the mirror file is rewritten while work goes on.
const MIRROR_EVERY: Duration = Duration::from_secs(2);

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
        Progress::styled(
            label,
            total,
            unit,
            mode,
            "{prefix} [{bar:30.cyan/blue}] {pos}/{len} {msg} ({rate}, ETA {eta})",
        )
    }

    /// Progress of work that usually stops well before its total, which is only a cap (an
    /// SPRT match stops at a verdict): no ETA to the cap, which would mislead (hours for a
    /// test that ends in minutes); the status message ([`Progress::set_message`]) says how
    /// far the work is from its end.
    pub fn capped(label: &str, cap: u64, unit: &'static str, mode: ProgressMode) -> Progress {
        let mut p = Progress::styled(label, cap, unit, mode, "{prefix} {pos} of at most {len} {msg} ({rate})");
        p.capped = true;
        p
    }

    fn styled(label: &str, total: u64, unit: &'static str, mode: ProgressMode, template: &str) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let bar = match mode {
            ProgressMode::Auto if terminal => {
                let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
                let style = ProgressStyle::with_template(template)
                    .map(|style| {
                        style.with_key("rate", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                            let _ = w.write_str(&format_rate(state.per_sec()));
                        })
                    })
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
            task: label.to_string(),
            unit,
            total,
            final_line: true,
            capped: false,
            message: Mutex::new(String::new()),
            state: Mutex::new(LogState {
                done: 0,
                start: now,
                last_log: now,
                last_mirror: None,
                started_epoch: now_secs(),
            }),
            mirror: None,
        }
    }

    /// Mirrors the count into `path` as JSON ([`InFlight`]), replaced whole (not synced) now, every couple of seconds and when the count reaches the total. A failed
    /// write is ignored: the mirror is for watchers, and the work must not stop for it.
    pub fn mirrored(mut self, path: std::path::PathBuf) -> Progress {
        self.mirror = Some(path);
        if let Ok(mut s) = self.state.lock() {
            self.write_mirror(&mut s);
        }
        self
    }

    fn write_mirror(&self, s: &mut LogState) {
        let Some(path) = &self.mirror else { return };
        s.last_mirror = Some(Instant::now());
        let f = InFlight {
            task: self.task.clone(),
            done: s.done,
            total: self.total,
            unit: self.unit.to_string(),
            started: s.started_epoch,
            updated: now_secs(),
        };
        if let Ok(text) = serde_json::to_string(&f) {
            // For watchers only: replaced whole, never waited for on the disk.
            let _ = crate::fsutil::replace(path, text.as_bytes());
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
        let Ok(mut s) = self.state.lock() else { return };
        s.done += n;
        if self.mirror.is_some() && (s.done == self.total || s.last_mirror.is_none_or(|t| t.elapsed() >= MIRROR_EVERY))
        {
            self.write_mirror(&mut s);
        }
        if let Some(bar) = &self.bar {
            bar.inc(n);
            return;
        }
        if !self.hidden() && (s.last_log.elapsed() >= LOG_EVERY || (self.final_line && s.done == self.total)) {
            s.last_log = Instant::now();
            let secs = s.start.elapsed().as_secs_f64().max(1e-9);
            let rate = s.done as f64 / secs;
            if self.capped {
                let message = self.message.lock().map(|m| m.clone()).unwrap_or_default();
                let message = if message.is_empty() { String::new() } else { format!(", {message}") };
                eprintln!(
                    "{}: {} of at most {} {} ({}){message}",
                    self.label,
                    s.done,
                    self.total,
                    self.unit,
                    format_rate(rate)
                );
                return;
            }
            let eta = if rate > 0.0 { (self.total.saturating_sub(s.done)) as f64 / rate } else { 0.0 };
            eprintln!(
                "{}: {}/{} {} ({}, ETA {})",
                self.label,
                s.done,
                self.total,
                self.unit,
                format_rate(rate),
                format_duration(Duration::from_secs_f64(eta))
            );
        }
    }

    /// A short status shown beside the bar (in log mode, only a capped progress's lines carry
    /// it).
    pub fn set_message(&self, msg: String) {
        if let Some(bar) = &self.bar {
            bar.set_message(msg);
        } else if self.capped {
            if let Ok(mut m) = self.message.lock() {
                *m = msg;
            }
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

/// A rate per second as people read it: `161,334/s` (whole units, grouped by thousands) from
/// 100 a second up, `12.5/s` and `0.35/s` below, where the fraction is the information.
pub fn format_rate(per_sec: f64) -> String {
    if !per_sec.is_finite() || per_sec < 0.0 {
        return "-/s".into();
    }
    if per_sec >= 100.0 {
        format!("{}/s", group_thousands(per_sec as u64))
    } else if per_sec >= 10.0 {
        format!("{per_sec:.1}/s")
    } else {
        format!("{per_sec:.2}/s")
    }
}

/// `161334` as `161,334`.
pub fn group_thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
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
    fn rates_read_well() {
        assert_eq!(format_rate(161_334.656_2), "161,334/s");
        assert_eq!(format_rate(1_234_567.0), "1,234,567/s");
        assert_eq!(format_rate(100.4), "100/s");
        assert_eq!(format_rate(12.34), "12.3/s");
        assert_eq!(format_rate(0.354), "0.35/s");
        assert_eq!(format_rate(f64::INFINITY), "-/s");
        assert_eq!(group_thousands(999), "999");
        assert_eq!(group_thousands(1000), "1,000");
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
