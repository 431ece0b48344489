//! Work shared out among rayon's threads by a thread that never runs
//! anything else while it waits: how a breadth-first search expands a
//! round of its frontier on every core.
//!
//! Why not `rayon::join` or a parallel iterator: a thread that waits in a
//! join runs other jobs of its pool meanwhile (work stealing), and one of
//! them may be the start of another level's search. That search may then
//! wait for the memory ledger ([`super::ledger`]) to give it room that the
//! search below it on the same thread's stack holds, and that search cannot
//! go on, or give its room back, until the one above it returns: a
//! deadlock. Here the thread that asked takes items itself, one at a time,
//! and then parks until the items other threads took are done; the other
//! threads join in through plain jobs ([`rayon::spawn`]) that take items
//! until none is left. An item is a chunk of a search's frontier, which
//! never waits on the ledger, so a search never sits on top of another on
//! one thread's stack, and nothing it waits for can wait for it.
//!
//! When the pool is busy (many small levels at once), the jobs wait in its
//! queues and the asking thread does every item itself; a job that starts
//! after its items are done finds none left and returns.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, Thread};
use std::time::Duration;

/// Runs `work(i)` for each `i` in `0..count`, on this thread and on as
/// many of the current rayon pool's other threads as are free, and
/// returns once every item is done. A panic in an item (a game's bug, or a
/// game process that was abandoned) is raised again here, once every
/// other item has finished: the one of the lowest item.
pub(crate) fn share<F: Fn(usize) + Sync>(count: usize, work: F) {
    let helpers = rayon::current_num_threads().min(count).saturating_sub(1);
    if helpers == 0 {
        (0..count).for_each(work);
        return;
    }
    let work: &(dyn Fn(usize) + Sync) = &work;
    // SAFETY: the `'static` is a lie told only to `rayon::spawn`: a helper
    // calls `work` only for an item it claimed below `count`, and this
    // function does not return (so `work` outlives every such call) until
    // all `count` items are done. A helper that starts later claims an
    // item past `count` and returns without touching `work`.
    let work: &'static (dyn Fn(usize) + Sync) = unsafe { std::mem::transmute(work) };
    let shared = Arc::new(Shared {
        work,
        count,
        next: AtomicUsize::new(0),
        done: AtomicUsize::new(0),
        panicked: Mutex::new(None),
        asker: thread::current(),
    });
    for _ in 0..helpers {
        let shared = Arc::clone(&shared);
        rayon::spawn(move || shared.take_items());
    }
    shared.take_items();
    while shared.done.load(Ordering::Acquire) < count {
        // Woken by the helper that finishes the last item; the timeout
        // only guards against a missed wake-up.
        thread::park_timeout(Duration::from_millis(10));
    }
    let panicked = shared
        .panicked
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .take();
    if let Some((_, payload)) = panicked {
        resume_unwind(payload);
    }
}

/// What the asking thread and its helpers share.
struct Shared {
    work: &'static (dyn Fn(usize) + Sync),
    count: usize,
    /// The next item to claim.
    next: AtomicUsize,
    /// How many items are finished.
    done: AtomicUsize,
    /// The panic of the lowest item that panicked, with its number.
    panicked: Mutex<Option<(usize, Box<dyn Any + Send>)>>,
    /// The thread waiting for the items.
    asker: Thread,
}

impl Shared {
    /// Claims and runs items until none is left.
    fn take_items(&self) {
        loop {
            let item = self.next.fetch_add(1, Ordering::Relaxed);
            if item >= self.count {
                return;
            }
            if let Err(payload) = catch_unwind(AssertUnwindSafe(|| (self.work)(item))) {
                let mut panicked = self
                    .panicked
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                if panicked.as_ref().is_none_or(|(first, _)| item < *first) {
                    *panicked = Some((item, payload));
                }
            }
            if self.done.fetch_add(1, Ordering::AcqRel) + 1 == self.count {
                self.asker.unpark();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::sync::mpsc;

    use super::*;

    thread_local! {
        /// Set while this thread waits in `share` for other threads' items.
        static SHARING: Cell<bool> = const { Cell::new(false) };
    }

    #[test]
    fn every_item_runs_once_on_any_number_of_threads() {
        for threads in [1, 2, 3, 8, 64] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let runs: Vec<AtomicUsize> = (0..100).map(|_| AtomicUsize::new(0)).collect();
            pool.install(|| {
                share(runs.len(), |item| {
                    runs[item].fetch_add(1, Ordering::Relaxed);
                })
            });
            assert!(runs.iter().all(|runs| runs.load(Ordering::Relaxed) == 1));
        }
    }

    #[test]
    fn a_panic_in_an_item_is_raised_by_the_asker_after_every_item_is_done() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap();
        let done = AtomicUsize::new(0);
        let caught = pool.install(|| {
            catch_unwind(AssertUnwindSafe(|| {
                share(40, |item| {
                    if item % 10 == 3 {
                        panic!("item {item}");
                    }
                    done.fetch_add(1, Ordering::Relaxed);
                })
            }))
        });
        let payload = caught.expect_err("the panic comes back");
        assert_eq!(payload.downcast_ref::<String>().unwrap(), "item 3");
        assert_eq!(done.load(Ordering::Relaxed), 36);
    }

    /// What keeps the deadlock this module exists to prevent away: a
    /// thread that waits in `share` runs no other job of its pool (such
    /// as the start of another search, which could wait for memory that
    /// the search below it holds). Jobs queued while the items run note if
    /// they ever run on the asking thread while it is inside `share`. With
    /// a parallel iterator in place of `share`, the asker takes them from
    /// its own queue between items, and this test fails.
    #[test]
    fn a_thread_waiting_for_its_items_runs_no_other_job() {
        let (told, heard) = mpsc::channel();
        thread::spawn(move || {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(2)
                .build()
                .unwrap();
            let stolen = AtomicUsize::new(0);
            for _ in 0..10 {
                pool.install(|| {
                    rayon::scope(|scope| {
                        let stolen = &stolen;
                        SHARING.set(true);
                        share(16, |item| {
                            // Jobs queued while the items run (on the
                            // queue of whichever thread runs item 0).
                            if item == 0 {
                                for _ in 0..40 {
                                    scope.spawn(move |_| {
                                        if SHARING.get() {
                                            stolen.fetch_add(1, Ordering::Relaxed);
                                        }
                                        thread::sleep(Duration::from_millis(1));
                                    });
                                }
                            }
                            thread::sleep(Duration::from_millis(3));
                        });
                        SHARING.set(false);
                    })
                });
            }
            told.send(stolen.load(Ordering::Relaxed)).unwrap();
        });
        let stolen = heard
            .recv_timeout(Duration::from_secs(120))
            .expect("every round of items came back");
        assert_eq!(stolen, 0, "jobs ran on a thread waiting in `share`");
    }
}
