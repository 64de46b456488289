//! Reports of runs and experiments: the per-generation history CSV and plots.

pub mod history;
