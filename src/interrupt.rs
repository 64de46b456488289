//! Ctrl-C (SIGINT), SIGTERM and SIGHUP, for every command: one handler for the process
//! (installed by `main`), which hands each signal to the hook of the command running, if it
//! set one (`evolve` and `spsa` stop after the work in flight and save), and otherwise kills
//! the outside engines and exits with [`EXIT_INTERRUPTED`].
//!
//! Outside engines run in process groups of their own, so a signal sent to evotune (or
//! Ctrl-C at its terminal) does not reach them: every way out of the process goes through
//! [`exit`], which kills their groups first, so that an engine that ignores the end of its
//! input does not outlive evotune.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::arena::outside::process::kill_all;

/// The exit status of a command stopped by a signal (128 + SIGINT, as shells report Ctrl-C).
pub const EXIT_INTERRUPTED: i32 = 130;

/// Signals received so far.
static RECEIVED: AtomicUsize = AtomicUsize::new(0);

type Hook = Box<dyn Fn(usize) + Send>;

/// What the command running does on a signal, given the number of signals so far (1 for
/// the first).
static HOOK: Mutex<Option<Hook>> = Mutex::new(None);

/// Installs the process's handler of SIGINT, SIGTERM and SIGHUP. Called once, by `main`;
/// without it (in tests) signals keep their default action.
pub fn install() {
    let _ = ctrlc::set_handler(|| {
        let n = RECEIVED.fetch_add(1, Ordering::SeqCst) + 1;
        let hook = HOOK.lock().unwrap_or_else(|e| e.into_inner());
        match hook.as_ref() {
            Some(h) => h(n),
            None => {
                eprintln!("\ninterrupted");
                exit(EXIT_INTERRUPTED)
            }
        }
    });
}

/// Sets what a signal does while the command runs (replacing any earlier hook). The hook
/// runs on the handler's thread; to stop at once it calls [`exit`].
pub fn on_signal(hook: impl Fn(usize) + Send + 'static) {
    *HOOK.lock().unwrap_or_else(|e| e.into_inner()) = Some(Box::new(hook));
}

/// Ends the process with `code` after killing every outside engine still running
/// (`std::process::exit` runs no destructors, so the pools would not end them).
pub fn exit(code: i32) -> ! {
    kill_all();
    std::process::exit(code)
}
