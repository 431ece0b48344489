//! The processes of one game: started when a thread needs one and none is
//! free, up to the manifest's `processes`, and lent out one request (or a
//! few) at a time, so that parallel searches each have their own.

use std::sync::{Condvar, Mutex};

use crate::child::{Child, Fault};
use crate::manifest::Manifest;

/// A game's processes.
pub(crate) struct Pool {
    pub(crate) manifest: Manifest,
    /// Idle processes, and how many are running in all (lent out or idle).
    idle: Mutex<(Vec<Child>, usize)>,
    freed: Condvar,
}

impl Pool {
    pub(crate) fn new(manifest: Manifest) -> Pool {
        Pool {
            manifest,
            idle: Mutex::new((Vec::new(), 0)),
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
        let mut idle = self
            .idle
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if result.is_ok() {
            idle.0.push(child);
        } else {
            idle.1 -= 1;
            drop(idle);
            drop(child);
        }
        self.freed.notify_one();
        result
    }

    fn take(&self) -> Result<Child, Fault> {
        let mut idle = self
            .idle
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        loop {
            if let Some(child) = idle.0.pop() {
                return Ok(child);
            }
            if idle.1 < self.manifest.processes {
                idle.1 += 1;
                drop(idle);
                return Child::start(&self.manifest).inspect_err(|_| {
                    let mut idle = self
                        .idle
                        .lock()
                        .unwrap_or_else(|poisoned| poisoned.into_inner());
                    idle.1 -= 1;
                    self.freed.notify_one();
                });
            }
            idle = self
                .freed
                .wait(idle)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }
}
