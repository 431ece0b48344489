//! A game process's stderr, read by a thread of its own that keeps the
//! last lines for a fault's message. Stderr is the game's own (the
//! protocol is on stdin and stdout), so nothing else is read from it.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader};
use std::process::ChildStderr;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Lines kept for a fault's message.
const LINES: usize = 10;

/// The reader of a process's stderr, and the lines it keeps.
pub(crate) struct Stderr {
    kept: Arc<Mutex<VecDeque<String>>>,
    /// `None` once joined.
    reader: Option<JoinHandle<()>>,
    /// Disconnected when the reader is done, so that the end can be waited
    /// for with a bound (a join has none).
    done: Receiver<()>,
}

impl Stderr {
    /// Starts reading `stderr` to its end.
    pub(crate) fn read(stderr: ChildStderr) -> Stderr {
        let kept = Arc::new(Mutex::new(VecDeque::with_capacity(LINES)));
        let keeping = Arc::clone(&kept);
        let (reading, done) = mpsc::channel::<()>();
        let reader = std::thread::spawn(move || {
            let _reading = reading;
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { return };
                if let Ok(mut kept) = keeping.lock() {
                    if kept.len() == LINES {
                        kept.pop_front();
                    }
                    kept.push_back(line);
                }
            }
        });
        Stderr {
            kept,
            reader: Some(reader),
            done,
        }
    }

    /// The last lines of a process that has ended. Its stderr then ends
    /// too, and the reader is joined, so that every line it wrote is in.
    /// A process it started may still hold the pipe open: after `within`,
    /// the lines read so far.
    pub(crate) fn last_lines(&mut self, within: Duration) -> Vec<String> {
        if self.done.recv_timeout(within) == Err(RecvTimeoutError::Disconnected)
            && let Some(reader) = self.reader.take()
        {
            let _ = reader.join();
        }
        self.kept
            .lock()
            .map(|kept| kept.iter().cloned().collect())
            .unwrap_or_default()
    }
}
