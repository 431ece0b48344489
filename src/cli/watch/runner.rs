//! The run loop: check every level once, then, for each batch of file
//! changes, the levels it affects. A change that comes while a check runs
//! cancels it: each level checks the generation before each of its checks
//! and stops when a newer one began, and the levels it did not finish are
//! checked in the next run with the new ones. A check already under way
//! (one search, one ablation) runs to its end, within its state limit, and
//! a result that a newer change made out of date is dropped.

use std::collections::BTreeSet;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use puzzle_qa_core::_cli_support::harness::{LevelEntry, Settings, Suite};
use puzzle_qa_core::harness::Subject;

use super::affects::Memory;
use super::board::Board;
use super::project::Part;
use super::table;

/// What the loop hears about.
pub enum Message {
    /// Files changed (a debounced batch, in path order).
    Changed(Vec<PathBuf>),
    /// A run ended.
    Ended(Ended),
}

/// How a run ended.
pub struct Ended {
    /// The levels checked whose results stand, in card order.
    checked: Vec<Arc<Subject>>,
    /// The levels a newer change stopped before they were checked.
    left: Vec<String>,
    took: Duration,
}

pub struct Loop {
    pub board: Arc<Board>,
    pub parts: Vec<Part>,
    memory: Memory,
    /// The newest generation: bumped by each change that calls for a check.
    generation: Arc<AtomicU64>,
    send: Sender<Message>,
    /// The levels due for a check that no run has taken yet.
    due: BTreeSet<String>,
    running: bool,
}

impl Loop {
    /// The loop of `parts`, every level of which is on the board (due for
    /// its first check) when it returns: the page lists them all from its
    /// first request.
    pub fn new(board: Arc<Board>, parts: Vec<Part>, send: Sender<Message>) -> Self {
        let mut this = Loop {
            board,
            parts,
            memory: Memory::default(),
            generation: Arc::new(AtomicU64::new(1)),
            send,
            due: BTreeSet::new(),
            running: false,
        };
        let entries = this.entries();
        let only: Vec<LevelEntry> = entries.iter().map(|(entry, _)| entry.clone()).collect();
        this.memory.remember(&only);
        let (all, _) = this.board.set_entries(entries, 1);
        this.due.extend(all);
        this
    }

    /// Every level of every part, as the files hold them now.
    fn entries(&self) -> Vec<(LevelEntry, Arc<Settings>)> {
        self.parts
            .iter()
            .flat_map(|part| {
                part.entries()
                    .into_iter()
                    .map(|entry| (entry, Arc::clone(&part.settings)))
            })
            .collect()
    }

    /// Checks every level, then what each change affects, until the
    /// channel closes.
    pub fn run(mut self, receive: Receiver<Message>) {
        let count = self.due.len();
        say(&format!(
            "checking {count} level{}…",
            if count == 1 { "" } else { "s" }
        ));
        self.start();
        while let Ok(message) = receive.recv() {
            match message {
                Message::Changed(paths) => self.changed(&paths),
                Message::Ended(ended) => self.ended(ended),
            }
        }
    }

    fn changed(&mut self, paths: &[PathBuf]) {
        let next = self.generation.load(Ordering::SeqCst) + 1;
        let entries = self.entries();
        let only: Vec<LevelEntry> = entries.iter().map(|(entry, _)| entry.clone()).collect();
        let (added, removed) = self.board.set_entries(entries, next);
        self.memory.remember(&only);
        let roots: Vec<PathBuf> = self
            .parts
            .iter()
            .map(|part| part.settings.root.clone())
            .collect();
        let affected = self.memory.affected(paths, &only, &roots);
        for note in &affected.notes {
            say(&format!("note: {note}"));
            self.board.notice(note);
        }
        let rebuild: Vec<String> = affected.rebuild.into_iter().collect();
        self.board.need_rebuild(&rebuild);
        for id in &removed {
            self.due.remove(id);
        }
        let mut wanted: BTreeSet<String> = affected.levels;
        wanted.extend(added);
        if !removed.is_empty() {
            say(&format!("gone: {}", removed.join(", ")));
        }
        if wanted.is_empty() {
            return;
        }
        // A newer generation: a run under way stops before its next check.
        self.generation.store(next, Ordering::SeqCst);
        let wanted: Vec<String> = wanted.into_iter().collect();
        self.board.want(&wanted, next);
        // Files gone again by now (an editor's or `sed -i`'s temporary
        // file, renamed over the real one) are not worth naming.
        let shown: Vec<String> = paths
            .iter()
            .filter(|path| path.exists())
            .map(|path| {
                roots
                    .iter()
                    .find_map(|root| path.strip_prefix(root).ok())
                    .unwrap_or(path)
                    .display()
                    .to_string()
            })
            .collect();
        say(&format!(
            "\nchanged: {} ({} level{} to check)",
            shown.join(", "),
            wanted.len(),
            if wanted.len() == 1 { "" } else { "s" }
        ));
        self.due.extend(wanted);
        if !self.running {
            self.start();
        }
    }

    fn ended(&mut self, ended: Ended) {
        self.running = false;
        if !ended.checked.is_empty() {
            print!("{}", table::rows(&ended.checked));
        }
        say(&table::summary(
            &ended.checked,
            ended.left.len(),
            ended.took,
            &self.board,
        ));
        self.due.extend(ended.left);
        if self.due.is_empty() {
            self.board.tell_run(0);
        } else {
            self.start();
        }
    }

    /// Starts a run of the due levels, on a thread of its own (the checks
    /// on rayon's), which sends [`Message::Ended`] when it ends.
    fn start(&mut self) {
        let due = std::mem::take(&mut self.due);
        let generation = self.generation.load(Ordering::SeqCst);
        // One suite per project, its levels in card order, so that the
        // levels of one file share its reading.
        let mut suites: Vec<(Arc<Settings>, Vec<LevelEntry>)> = Vec::new();
        for (entry, settings) in self.board.entries() {
            if !due.contains(&entry.id()) {
                continue;
            }
            match suites.iter_mut().find(|(s, _)| Arc::ptr_eq(s, &settings)) {
                Some((_, entries)) => entries.push(entry),
                None => suites.push((settings, vec![entry])),
            }
        }
        let suites: Vec<Suite> = suites
            .into_iter()
            .map(|(settings, entries)| Suite::of(Settings::clone(&settings), entries))
            .collect();
        let count = suites.iter().map(|suite| suite.subjects().len()).sum();
        if count == 0 {
            return;
        }
        self.running = true;
        self.board.tell_run(count);
        let (board, current, send) = (
            Arc::clone(&self.board),
            Arc::clone(&self.generation),
            self.send.clone(),
        );
        std::thread::spawn(move || {
            let began = Instant::now();
            let work: Vec<(&Suite, &Arc<Subject>)> = suites
                .iter()
                .flat_map(|suite| suite.subjects().iter().map(move |s| (suite, s)))
                .collect();
            let left = Mutex::new(Vec::new());
            let checked: Vec<Option<Arc<Subject>>> = work
                .par_iter()
                .map(|(suite, subject)| {
                    let entry = subject.entry();
                    for check in entry.game.checks {
                        if current.load(Ordering::SeqCst) != generation {
                            left.lock().unwrap().push(entry.id());
                            return None;
                        }
                        let trial = entry.trial(check.name());
                        suite.check(|name| name == trial);
                    }
                    board
                        .finish(Arc::clone(subject), generation)
                        .then(|| Arc::clone(subject))
                })
                .collect();
            let _ = send.send(Message::Ended(Ended {
                checked: checked.into_iter().flatten().collect(),
                left: left.into_inner().unwrap_or_default(),
                took: began.elapsed(),
            }));
        });
    }
}

/// A line for the terminal, written at once (stdout may be a pipe).
fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}
