//! Watching runs: a run's results folder read back from its files ([`run_files`]) and shown
//! as a web page ([`page`]): `report.html`, written after every generation, and the pages of
//! `evotune serve`. The files are the source of truth; a run does not know who watches.

pub mod page;
pub mod run_files;
