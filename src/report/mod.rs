//! Reports of runs and experiments: the per-generation history CSV, plots (PNG and SVG),
//! progress on the terminal (mirrored into a file for watchers) and JSON for scripts.

pub mod history;
pub mod json;
pub mod plots;
pub mod progress;
pub mod run_report;
pub mod scaling;
pub mod table;
pub mod trace;
