//! The processes of one game: started when a thread needs one and none is
//! free, up to the manifest's `processes`, and lent out one request (or a
//! few) at a time, so that parallel searches each have their own.

use std::collections::HashMap;
use std::sync::{Condvar, Mutex, MutexGuard};

use rustc_hash::FxHashMap;

use crate::child::{Child, Fault};
use crate::manifest::Manifest;

/// A game's processes.
pub(crate) struct Pool {
    pub(crate) manifest: Manifest,
    processes: Mutex<Processes>,
    freed: Condvar,
}

/// A game process as the pool lends it: the child, and what the game's
/// levels have left in it. Each process keeps its own, as a handle is
/// valid only in the process that gave it out.
pub(crate) struct Process {
    pub(crate) child: Child,
    /// The handle of each level this process has loaded, by recipe.
    pub(crate) handles: HashMap<u64, String>,
    /// Move names to the game's move ids, cached here to spare a lock
    /// (a reply names a move per successor).
    pub(crate) moves: FxHashMap<String, u32>,
}

/// A pool's processes, counted under one lock.
#[derive(Default)]
struct Processes {
    /// The processes no thread is using.
    idle: Vec<Process>,
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
        work: impl FnOnce(&mut Process) -> Result<T, Fault>,
    ) -> Result<T, Fault> {
        let mut process = self.take()?;
        let result = work(&mut process);
        let mut processes = self.lock();
        if result.is_ok() {
            processes.idle.push(process);
        } else {
            processes.running -= 1;
            drop(processes);
            drop(process);
        }
        self.freed.notify_one();
        result
    }

    fn take(&self) -> Result<Process, Fault> {
        let mut processes = self.lock();
        loop {
            if let Some(process) = processes.idle.pop() {
                return Ok(process);
            }
            if processes.running < self.manifest.processes {
                processes.running += 1;
                drop(processes);
                let child = Child::start(&self.manifest).inspect_err(|_| {
                    self.lock().running -= 1;
                    self.freed.notify_one();
                })?;
                return Ok(Process {
                    child,
                    handles: HashMap::new(),
                    moves: FxHashMap::default(),
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
