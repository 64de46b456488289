//! The error of a run that Ctrl-C stopped after saving its work.

/// What a run returns when Ctrl-C stopped it after its work was saved; `main` exits with
/// [`EXIT_INTERRUPTED`](crate::tuner::executor::EXIT_INTERRUPTED) and prints nothing more (the
/// command has said how to go on).
#[derive(Debug, thiserror::Error)]
#[error("interrupted")]
pub struct Interrupted;
