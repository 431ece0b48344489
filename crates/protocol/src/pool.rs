//! The processes of one game: started when a thread needs one and none is
//! free, up to the manifest's `processes`, and lent out one request (or a
//! few) at a time, so that parallel searches each have their own.

use std::sync::{Condvar, Mutex, MutexGuard};

use crate::child::{Child, Fault};
use crate::manifest::Manifest;

/// A game's processes.
pub(crate) struct Pool {
    pub(crate) manifest: Manifest,
    processes: Mutex<Processes>,
    freed: Condvar,
}

/// A pool's processes, counted under one lock.
#[derive(Default)]
struct Processes {
    /// The processes no thread is using.
    idle: Vec<Child>,
    /// How many are running in all, lent out or idle.
    running: usize,
}

impl Pool {
    pub(crate) fn new(manifest: Manifest) -> Pool {
        Pool {
            manifest,
            processes: Mutex::default(),
            freed: Condvar::new(),
        }
    }

    /// Runs `work` with a process of the game: an idle one, a new one, or
    /// the next one given back. A process that faults is dropped (and its
    /// place freed for a fresh one); others go back to the pool.
    pub(crate) fn with<T>(
        &self,
        work: impl FnOnce(&mut Child) -> Result<T, Fault>,
    ) -> Result<T, Fault> {
        let mut child = self.take()?;
        let result = work(&mut child);
        let mut processes = self.lock();
        if result.is_ok() {
            processes.idle.push(child);
        } else {
            processes.running -= 1;
            drop(processes);
            drop(child);
        }
        self.freed.notify_one();
        result
    }

    fn take(&self) -> Result<Child, Fault> {
        let mut processes = self.lock();
        loop {
            if let Some(child) = processes.idle.pop() {
                return Ok(child);
            }
            if processes.running < self.manifest.processes {
                processes.running += 1;
                drop(processes);
                return Child::start(&self.manifest).inspect_err(|_| {
                    self.lock().running -= 1;
                    self.freed.notify_one();
                });
            }
            processes = self
                .freed
                .wait(processes)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }

    /// The processes, locked. No request runs under the lock, so even a
    /// poisoned one holds true counts.
    fn lock(&self) -> MutexGuard<'_, Processes> {
        self.processes
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
