//! Reports of runs and experiments: the per-generation history CSV and plots (PNG and SVG).

pub mod history;
pub mod plots;
