//! The helper threads of a search on several threads, started once with the searcher and kept
//! for its life: a helper thread owns its helper's searcher and waits for work.
//!
//! A search hands its helpers work four times a move (the root's two refutation checks, the
//! main search, the threat-space check after it). Starting a thread for each cost the main
//! thread the thread's creation and its exit every time, and on a busy machine the new
//! thread's wait for a core: the main thread, done with a small check, then waited for a
//! helper that had not started yet. A parked thread is woken instead, and work a helper has
//! not started can be taken back ([`Helper::finish`]).

use std::any::Any;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

/// Work for a helper's searcher, returning what the main thread collects.
type Job<S, R> = Box<dyn FnOnce(&mut S) -> R + Send>;

/// Where a helper's work stands.
enum Slot<S, R> {
    /// Nothing to do.
    Idle,
    /// Handed over, not started yet.
    Posted(Job<S, R>),
    Running,
    /// Done; the main thread has not collected it yet.
    Done(R),
    /// The job panicked (the payload, for the main thread to raise again); the thread ended.
    Panicked(Box<dyn Any + Send>),
    /// The thread ended after a panic: no more work runs.
    Dead,
    /// The searcher is gone: the thread ends.
    Quit,
}

struct Shared<S, R> {
    slot: Mutex<Slot<S, R>>,
    changed: Condvar,
}

impl<S, R> Shared<S, R> {
    /// The slot (never held while a job runs, so never poisoned by one).
    fn lock(&self) -> MutexGuard<'_, Slot<S, R>> {
        self.slot.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// One helper thread and its searcher.
pub(super) struct Helper<S, R> {
    shared: Arc<Shared<S, R>>,
    thread: Option<JoinHandle<()>>,
    /// The searcher's stop signal, raised when the helper is dropped.
    stop: Arc<AtomicBool>,
}

impl<S: Send + 'static, R: Send + 'static> Helper<S, R> {
    /// Starts a thread that owns `searcher` and runs the work handed to it; `stop` is the
    /// searcher's stop signal (work in flight ends soon after it is raised).
    pub(super) fn start(mut searcher: S, stop: Arc<AtomicBool>) -> Helper<S, R> {
        let shared = Arc::new(Shared { slot: Mutex::new(Slot::Idle), changed: Condvar::new() });
        let theirs = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("search helper".into())
            .spawn(move || loop {
                let job = {
                    let mut slot = theirs.lock();
                    loop {
                        match std::mem::replace(&mut *slot, Slot::Idle) {
                            Slot::Posted(job) => {
                                *slot = Slot::Running;
                                break job;
                            }
                            Slot::Quit => return,
                            other => *slot = other,
                        }
                        slot = theirs.changed.wait(slot).unwrap_or_else(|poisoned| poisoned.into_inner());
                    }
                };
                // A panic in the search is raised again on the main thread, as a scoped
                // thread's would be; the searcher may be half-way through a change, so the
                // thread ends.
                let done = std::panic::catch_unwind(AssertUnwindSafe(|| job(&mut searcher)));
                let mut slot = theirs.lock();
                if let Slot::Quit = *slot {
                    return;
                }
                let panicked = done.is_err();
                *slot = done.map_or_else(Slot::Panicked, Slot::Done);
                theirs.changed.notify_all();
                if panicked {
                    return;
                }
            })
            .expect("the system refused a thread for a search helper");
        Helper { shared, thread: Some(thread), stop }
    }

    /// Hands the helper work; it must have none (the last was collected by
    /// [`finish`](Self::finish)). A helper whose thread ended after a panic takes none.
    pub(super) fn post(&self, job: impl FnOnce(&mut S) -> R + Send + 'static) {
        let mut slot = self.shared.lock();
        if let Slot::Dead = *slot {
            return;
        }
        debug_assert!(matches!(*slot, Slot::Idle), "work posted to a busy helper");
        *slot = Slot::Posted(Box::new(job));
        self.shared.changed.notify_all();
    }

    /// The result of the work posted last: waits for it unless `take_back` and the helper
    /// has not started it, in which case the work is dropped and there is no result. A panic
    /// of the job is raised again here.
    pub(super) fn finish(&self, take_back: bool) -> Option<R> {
        let mut slot = self.shared.lock();
        loop {
            match std::mem::replace(&mut *slot, Slot::Idle) {
                Slot::Done(done) => return Some(done),
                Slot::Posted(_) if take_back => return None,
                Slot::Panicked(payload) => {
                    *slot = Slot::Dead;
                    drop(slot);
                    std::panic::resume_unwind(payload);
                }
                Slot::Dead => {
                    *slot = Slot::Dead;
                    return None;
                }
                Slot::Idle | Slot::Quit => return None,
                other => *slot = other,
            }
            slot = self.shared.changed.wait(slot).unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }
}

impl<S, R> Drop for Helper<S, R> {
    /// Stops any work in flight and ends the thread, which drops its searcher before this
    /// returns: the searcher that owns the helpers drops its own table last, on its own
    /// thread, whose spare list keeps the array for the next table (src/search/tt.rs).
    fn drop(&mut self) {
        self.stop.store(true, Relaxed);
        *self.shared.lock() = Slot::Quit;
        self.shared.changed.notify_all();
        if let Some(thread) = self.thread.take() {
            // A job that panicked has already ended the thread; there is nothing to add.
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Helper;
    use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
    use std::sync::Arc;

    /// Work runs on the helper's own searcher, which keeps its state from job to job, and
    /// each result is collected once.
    #[test]
    fn a_helper_runs_its_jobs_in_turn_on_its_own_state() {
        let helper = Helper::<Vec<u32>, usize>::start(Vec::new(), Arc::default());
        for i in 0..50 {
            helper.post(move |seen: &mut Vec<u32>| {
                seen.push(i);
                seen.len()
            });
            assert_eq!(helper.finish(false), Some(i as usize + 1));
            assert_eq!(helper.finish(false), None, "collected twice");
        }
    }

    /// A job's panic is raised again by `finish`, and the helper takes no more work.
    #[test]
    fn a_panic_in_a_job_reaches_the_main_thread() {
        let helper = Helper::<(), u32>::start((), Arc::default());
        helper.post(|_| panic!("a bug in the search"));
        let raised = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| helper.finish(false)));
        let message = raised.expect_err("the panic was swallowed");
        assert_eq!(message.downcast_ref::<&str>(), Some(&"a bug in the search"));
        helper.post(|_| 1);
        assert_eq!(helper.finish(false), None);
    }

    /// Work the helper has not started can be taken back; work it has started is waited for.
    #[test]
    fn unstarted_work_is_taken_back_and_started_work_waited_for() {
        let helper = Helper::<(), u32>::start((), Arc::default());
        let (started, release) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicBool::new(false)));
        let (s, r) = (Arc::clone(&started), Arc::clone(&release));
        helper.post(move |_| {
            s.store(true, SeqCst);
            while !r.load(SeqCst) {
                std::thread::yield_now();
            }
            7
        });
        while !started.load(SeqCst) {
            std::thread::yield_now();
        }
        release.store(true, SeqCst);
        assert_eq!(helper.finish(true), Some(7), "started work is waited for");

        // A job taken back as soon as it is posted either ran (its result) or never runs.
        let ran = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&ran);
        helper.post(move |_| {
            flag.store(true, SeqCst);
            9
        });
        match helper.finish(true) {
            Some(9) => assert!(ran.load(SeqCst)),
            None => {
                helper.post(|_| 1);
                assert_eq!(helper.finish(false), Some(1));
                assert!(!ran.load(SeqCst), "taken-back work must never run");
            }
            other => panic!("{other:?}"),
        }
    }
}
