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
//! and then waits until the items other threads took are done, running
//! nothing else. A search's thread also uses the items as they are done
//! ([`Crew::share_led`]: it stores a chunk's successors while the crew
//! expands the next chunks), taking items itself whenever the one it
//! needs next is not done.
//!
//! The other threads join a search as its [`Crew`]: plain jobs
//! ([`rayon::spawn`]) that stay with the search from its first shared round
//! to its end, taking items of each round and waiting, briefly spinning,
//! for the next. A job that joined for one round only would have to be
//! woken for every round, and on a virtual machine that wake-up took a
//! tenth of a millisecond or more per round, 4% to 8% of a search. A
//! crew member waits only for its search's asker, which never waits for
//! anything but the items crew members took and finish without waiting,
//! so nothing it waits for can wait for it.
//!
//! When the pool is busy (many small levels at once), the crew's jobs wait
//! in its queues and the asking thread does every item itself; a job that
//! starts after its search ended finds the crew closed and returns.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, Thread, ThreadId};
use std::time::{Duration, Instant};

/// How long a thread spins, checking, before it parks: longer than a
/// round's store usually takes, so that a crew member is awake when the
/// next round comes.
const SPIN: Duration = Duration::from_micros(2_000);

/// The other threads of the current rayon pool that help one search, from
/// the first round it shares to the search's end (when the crew is
/// dropped).
pub(crate) struct Crew {
    /// Set on the first round that has work for another thread.
    hall: Option<Arc<Hall>>,
}

/// Where a search's asker posts rounds and its crew takes them.
struct Hall {
    /// The round posted last, if it is not finished.
    round: Mutex<Option<Arc<Round>>>,
    /// How many rounds were posted: a crew member waits for it to change.
    posted: AtomicU64,
    closed: AtomicBool,
    /// The crew members that have started, to wake from their parking.
    members: Mutex<Vec<Thread>>,
    /// The asking thread: a crew job that starts there (taken from its
    /// queue while it waited in some join of a game's own) returns at once.
    asker: ThreadId,
}

/// One round's items.
struct Round {
    work: &'static (dyn Fn(usize) + Sync),
    count: usize,
    /// The next item to claim.
    next: AtomicUsize,
    /// How many items are finished (or skipped).
    done: AtomicUsize,
    /// Per item, set once it is finished.
    finished: Box<[AtomicBool]>,
    /// The panic of the lowest item that panicked, with its number.
    panicked: Mutex<Option<(usize, Box<dyn Any + Send>)>>,
    /// The thread waiting for the items.
    asker: Thread,
}

impl Crew {
    /// A crew of nobody yet: it is called in by the first round worth
    /// sharing.
    pub(crate) fn new() -> Self {
        Crew { hall: None }
    }

    /// Runs `work(i)` for each `i` in `0..count`, on this thread and on
    /// the crew's, and returns once every item is done. A panic in an
    /// item (a game's bug, or a game process that was abandoned) is raised
    /// again here, once every other item has finished: the one of the
    /// lowest item.
    #[cfg(test)]
    pub(crate) fn share<F: Fn(usize) + Sync>(&mut self, count: usize, work: F) {
        self.share_led(count, work, |helm| helm.finish());
    }

    /// Runs `work(i)` for each `i` in `0..count`, as [`Crew::share`] does,
    /// while this thread runs `lead`: the crew takes items from the start,
    /// and `lead` waits for the items it needs through its [`Helm`],
    /// taking items itself meanwhile. Once `lead` returns, the items not
    /// yet begun are skipped, and those begun are waited for.
    ///
    /// The panic of an item is raised again here only if `lead` asked for
    /// that item (or for every item) and was told it panicked: an item
    /// that ran only because another thread was free does not change what
    /// the caller sees. A panic in `lead` is raised again once the items
    /// begun are done.
    pub(crate) fn share_led<F: Fn(usize) + Sync, R>(
        &mut self,
        count: usize,
        work: F,
        lead: impl FnOnce(&mut Helm) -> R,
    ) -> R {
        let others = rayon::current_num_threads().saturating_sub(1);
        let work: &(dyn Fn(usize) + Sync) = &work;
        // SAFETY: the `'static` is a lie told only to the crew: a member
        // calls `work` only for an item it claimed below `count`, and this
        // function does not return or unwind (so `work` outlives every
        // such call) until every item claimed is done. A member that comes
        // to the round later claims an item past `count` and leaves `work`
        // alone.
        let work: &'static (dyn Fn(usize) + Sync) = unsafe { std::mem::transmute(work) };
        let round = Arc::new(Round {
            work,
            count,
            next: AtomicUsize::new(0),
            done: AtomicUsize::new(0),
            finished: (0..count).map(|_| AtomicBool::new(false)).collect(),
            panicked: Mutex::new(None),
            asker: thread::current(),
        });
        let hall = if others > 0 && count > 1 {
            let hall = self.hall.get_or_insert_with(|| {
                let hall = Arc::new(Hall {
                    round: Mutex::new(None),
                    posted: AtomicU64::new(0),
                    closed: AtomicBool::new(false),
                    members: Mutex::new(Vec::new()),
                    asker: thread::current().id(),
                });
                for _ in 0..others {
                    let hall = Arc::clone(&hall);
                    rayon::spawn(move || hall.serve());
                }
                hall
            });
            *lock(&hall.round) = Some(Arc::clone(&round));
            hall.posted.fetch_add(1, Ordering::Release);
            hall.wake();
            Some(hall)
        } else {
            None
        };
        let mut helm = Helm {
            round: &round,
            raise: false,
        };
        let result = catch_unwind(AssertUnwindSafe(|| lead(&mut helm)));
        let raise = helm.raise;
        // The items not begun are claimed here, and skipped.
        while round.next.fetch_add(1, Ordering::Relaxed) < count {
            round.done.fetch_add(1, Ordering::AcqRel);
        }
        wait_until(|| round.done.load(Ordering::Acquire) >= count);
        if let Some(hall) = hall {
            *lock(&hall.round) = None;
        }
        let result = result.unwrap_or_else(|payload| resume_unwind(payload));
        if raise && let Some((_, payload)) = lock(&round.panicked).take() {
            resume_unwind(payload);
        }
        result
    }
}

/// What the thread that leads a round ([`Crew::share_led`]) has of it:
/// it waits for items through this, taking items itself meanwhile.
pub(crate) struct Helm<'a> {
    round: &'a Round,
    /// Set when an item asked for panicked: the lowest that did is raised
    /// again.
    raise: bool,
}

impl Helm<'_> {
    /// Waits until item `item` is done, taking items meanwhile (from the
    /// first not yet claimed): `false` if it (or an item asked for
    /// before) panicked, and the lead should stop.
    pub(crate) fn wait_for(&mut self, item: usize) -> bool {
        let round = self.round;
        while !round.finished[item].load(Ordering::Acquire) {
            if !round.take_one() {
                wait_until(|| round.finished[item].load(Ordering::Acquire));
            }
        }
        self.check(item)
    }

    /// Waits until every item is done, taking items meanwhile: `false` if
    /// any panicked.
    pub(crate) fn finish(&mut self) -> bool {
        let round = self.round;
        while round.take_one() {}
        wait_until(|| round.done.load(Ordering::Acquire) >= round.count);
        self.check(round.count)
    }

    /// Whether no item below `upto`, or `upto` itself, panicked; else
    /// marks the panic to be raised.
    fn check(&mut self, upto: usize) -> bool {
        let lowest = lock(&self.round.panicked).as_ref().map(|(item, _)| *item);
        match lowest {
            Some(item) if item <= upto => {
                self.raise = true;
                false
            }
            _ => !self.raise,
        }
    }
}

impl Drop for Crew {
    fn drop(&mut self) {
        if let Some(hall) = &self.hall {
            hall.closed.store(true, Ordering::Release);
            hall.wake();
        }
    }
}

impl Hall {
    /// A crew member's life: each round posted, until the crew closes.
    fn serve(&self) {
        if thread::current().id() == self.asker {
            return;
        }
        lock(&self.members).push(thread::current());
        let mut served = 0;
        loop {
            wait_until(|| {
                self.closed.load(Ordering::Acquire) || self.posted.load(Ordering::Acquire) != served
            });
            if self.closed.load(Ordering::Acquire) {
                return;
            }
            served = self.posted.load(Ordering::Acquire);
            let round = lock(&self.round).clone();
            if let Some(round) = round {
                round.take_items();
            }
        }
    }

    /// Wakes the crew members that parked.
    fn wake(&self) {
        for member in lock(&self.members).iter() {
            member.unpark();
        }
    }
}

impl Round {
    /// Claims and runs items until none is left.
    fn take_items(&self) {
        while self.take_one() {}
    }

    /// Claims and runs one item, if any is left.
    fn take_one(&self) -> bool {
        let item = self.next.fetch_add(1, Ordering::Relaxed);
        if item >= self.count {
            return false;
        }
        if let Err(payload) = catch_unwind(AssertUnwindSafe(|| (self.work)(item))) {
            let mut panicked = lock(&self.panicked);
            if panicked.as_ref().is_none_or(|(first, _)| item < *first) {
                *panicked = Some((item, payload));
            }
        }
        self.finished[item].store(true, Ordering::Release);
        self.done.fetch_add(1, Ordering::AcqRel);
        // The asker may be waiting for this item, or for the last.
        self.asker.unpark();
        true
    }
}

/// Spins until `ready`, for a while, then parks until it is: woken by
/// whoever makes it true (the timeout only guards against a missed
/// wake-up). The spinning yields: with more threads than cores, the
/// thread that will make it true gets the core.
fn wait_until(ready: impl Fn() -> bool) {
    let began = Instant::now();
    while !ready() {
        if began.elapsed() < SPIN {
            thread::yield_now();
        } else {
            thread::park_timeout(Duration::from_millis(10));
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Runs `work` for each of `0..count` as one round of a crew of its own
/// (what a search does each round, for the tests).
#[cfg(test)]
pub(crate) fn share<F: Fn(usize) + Sync>(count: usize, work: F) {
    Crew::new().share(count, work);
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
    fn a_crew_serves_round_after_round_and_leaves_when_dropped() {
        for threads in [2, 3, 8] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let (runs, elsewhere) = pool.install(|| {
                let asker = thread::current().id();
                let elsewhere = AtomicUsize::new(0);
                let mut crew = Crew::new();
                let mut runs = Vec::new();
                for round in 0..200 {
                    let counts: Vec<AtomicUsize> =
                        (0..round % 7 + 2).map(|_| AtomicUsize::new(0)).collect();
                    crew.share(counts.len(), |item| {
                        counts[item].fetch_add(1, Ordering::Relaxed);
                        if thread::current().id() != asker {
                            elsewhere.fetch_add(1, Ordering::Relaxed);
                        }
                        // Long enough that the crew takes a share.
                        thread::sleep(Duration::from_micros(200));
                    });
                    runs.extend(counts.iter().map(|c| c.load(Ordering::Relaxed)));
                }
                (runs, elsewhere.load(Ordering::Relaxed))
            });
            assert!(runs.iter().all(|&runs| runs == 1), "{threads} threads");
            assert!(elsewhere > 0, "the crew took no item on {threads} threads");
            // Every crew member left with its crew: the pool runs a job on
            // every thread at once again.
            let met = AtomicUsize::new(0);
            pool.broadcast(|_| {
                met.fetch_add(1, Ordering::Relaxed);
            });
            assert_eq!(met.load(Ordering::Relaxed), threads);
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
