//! Reports of runs and experiments: the per-generation history CSV, plots (PNG and SVG) and
//! progress on the terminal.

pub mod history;
pub mod plots;
pub mod progress;
pub mod run_report;
pub mod table;
