//! Every level watch knows, as a card: its latest check, whether a check of
//! it is due or under way, and whether a rebuild is needed. The run loop
//! writes it, the page's server reads it, and each change of a card is
//! told to the pages that listen (server-sent events).

use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, MutexGuard};

use serde::Serialize;
use serde::ser::SerializeMap as _;

use puzzle_qa_core::_cli_support::harness::{LevelEntry, Settings, Verdict};
use puzzle_qa_core::harness::Subject;
use puzzle_qa_core::search::Status;

/// One level.
pub struct Card {
    pub entry: LevelEntry,
    /// The settings it is checked with (its project's).
    pub settings: Arc<Settings>,
    /// Its latest finished check.
    pub subject: Option<Arc<Subject>>,
    /// A check of it is due or under way.
    pub running: bool,
    /// The generation of the latest change that asked for a check of it:
    /// a check of an older generation is out of date before it ends.
    pub wanted: u64,
    /// How many checks of it have finished since watch started.
    pub checked: u64,
    /// Its game's Rust code changed since this puzzle-qa was built.
    pub rebuild: bool,
}

/// The cards, and who listens to their changes.
#[derive(Default)]
pub struct Board {
    cards: Mutex<Vec<Card>>,
    listeners: Mutex<Vec<Sender<String>>>,
    notices: Mutex<Vec<String>>,
}

impl Board {
    pub fn cards(&self) -> MutexGuard<'_, Vec<Card>> {
        self.cards
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Makes the cards those of `entries` (every level there is now, each
    /// with its settings), in their order: a level already known keeps its
    /// card; a new one is due for a check at `generation`. Returns the
    /// names of the new levels and of those that are gone.
    pub fn set_entries(
        &self,
        entries: Vec<(LevelEntry, Arc<Settings>)>,
        generation: u64,
    ) -> (Vec<String>, Vec<String>) {
        let mut cards = self.cards();
        let mut old: Vec<Card> = std::mem::take(&mut *cards);
        let mut added = Vec::new();
        for (entry, settings) in entries {
            let id = entry.id();
            match old.iter().position(|card| card.entry.id() == id) {
                Some(at) => {
                    let mut card = old.swap_remove(at);
                    card.entry = entry;
                    card.settings = settings;
                    cards.push(card);
                }
                None => {
                    added.push(id);
                    cards.push(Card {
                        entry,
                        settings,
                        subject: None,
                        running: true,
                        wanted: generation,
                        checked: 0,
                        rebuild: false,
                    });
                }
            }
        }
        let removed: Vec<String> = old.iter().map(|card| card.entry.id()).collect();
        drop(cards);
        for id in &removed {
            self.tell("removed", &serde_json::json!({ "name": id }).to_string());
        }
        for id in &added {
            self.tell_level(id);
        }
        (added, removed)
    }

    /// Every level's entry and settings, in card order.
    pub fn entries(&self) -> Vec<(LevelEntry, Arc<Settings>)> {
        self.cards()
            .iter()
            .map(|card| (card.entry.clone(), Arc::clone(&card.settings)))
            .collect()
    }

    /// Marks the levels `ids` due for a check at `generation`.
    pub fn want(&self, ids: &[String], generation: u64) {
        for card in self.cards().iter_mut() {
            if ids.contains(&card.entry.id()) {
                card.running = true;
                card.wanted = generation;
            }
        }
        for id in ids {
            self.tell_level(id);
        }
    }

    /// Marks the levels `ids` as needing a rebuild.
    pub fn need_rebuild(&self, ids: &[String]) {
        for card in self.cards().iter_mut() {
            if ids.contains(&card.entry.id()) {
                card.rebuild = true;
            }
        }
        for id in ids {
            self.tell_level(id);
        }
    }

    /// Records a finished check of generation `generation`; whether it was
    /// the one wanted (a check begun before the level changed again is
    /// dropped: another is on its way).
    pub fn finish(&self, subject: Arc<Subject>, generation: u64) -> bool {
        let id = subject.entry().id();
        {
            let mut cards = self.cards();
            let Some(card) = cards.iter_mut().find(|card| card.entry.id() == id) else {
                return false;
            };
            if card.wanted > generation {
                return false;
            }
            card.subject = Some(subject);
            card.running = false;
            card.checked += 1;
        }
        self.tell_level(&id);
        true
    }

    /// Every card as the API shows it, in order: a JSON array.
    pub fn views(&self) -> String {
        let views: Vec<String> = self.cards().iter().map(view).collect();
        format!("[{}]", views.join(","))
    }

    /// The card of the level named `name`, as JSON.
    pub fn view(&self, name: &str) -> Option<String> {
        self.cards()
            .iter()
            .find(|card| card.entry.id() == name)
            .map(view)
    }

    /// The level named `name` (among the known levels, never a path): its
    /// entry, settings and latest check.
    pub fn find(&self, name: &str) -> Option<(LevelEntry, Arc<Settings>, Option<Arc<Subject>>)> {
        self.cards()
            .iter()
            .find(|card| card.entry.id() == name)
            .map(|card| {
                (
                    card.entry.clone(),
                    Arc::clone(&card.settings),
                    card.subject.clone(),
                )
            })
    }

    /// Says `text` to the terminal's reader and to the pages.
    pub fn notice(&self, text: &str) {
        let mut notices = self.notices.lock().unwrap_or_else(|p| p.into_inner());
        if !notices.iter().any(|known| known == text) {
            notices.push(text.to_string());
        }
        drop(notices);
        self.tell("notice", &serde_json::json!({ "text": text }).to_string());
    }

    /// What has been noticed so far.
    pub fn notices(&self) -> Vec<String> {
        self.notices
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// A page starts listening: each event as the lines of a server-sent
    /// event.
    pub fn listen(&self) -> Receiver<String> {
        let (send, receive) = mpsc::channel();
        self.listeners
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(send);
        receive
    }

    /// Tells every listening page that a check started or ended.
    pub fn tell_run(&self, running: usize) {
        self.tell(
            "run",
            &serde_json::json!({ "running": running }).to_string(),
        );
    }

    /// Tells every listening page the level's card as it is now.
    pub fn tell_level(&self, id: &str) {
        if let Some(view) = self.view(id) {
            self.tell("level", &view);
        }
    }

    fn tell(&self, event: &str, data: &str) {
        let frame = format!("event: {event}\ndata: {data}\n\n");
        self.listeners
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .retain(|listener| listener.send(frame.clone()).is_ok());
    }
}

/// `passed`, `stale`, `failed`, `running` or `limit`: how the level stands.
pub fn status(card: &Card) -> &'static str {
    if card.running {
        return "running";
    }
    let Some(subject) = &card.subject else {
        return "running";
    };
    status_of(subject)
}

/// How a checked level stands: `limit` when its search stopped at its state
/// limit, else its worst verdict.
pub fn status_of(subject: &Subject) -> &'static str {
    if subject
        .solution_if_solved()
        .is_some_and(|solution| solution.status == Status::Limit)
    {
        return "limit";
    }
    let verdicts: Vec<&Verdict> = subject.verdicts().map(|(_, verdict)| verdict).collect();
    if verdicts.iter().any(|v| matches!(v, Verdict::Failed { .. })) {
        "failed"
    } else if verdicts.iter().any(|v| matches!(v, Verdict::Stale { .. })) {
        "stale"
    } else {
        "passed"
    }
}

/// One card in the API's words (docs/watch.md lists the fields).
#[derive(Serialize)]
struct View<'a> {
    name: String,
    game: &'static str,
    file: &'a str,
    level: Option<usize>,
    expectation: &'a str,
    status: &'static str,
    new: bool,
    par: Option<u32>,
    declared_par: Option<u32>,
    states: Option<u64>,
    ms: Option<f64>,
    checks: Checks<'a>,
    pending: bool,
    rebuild: bool,
    checked: u64,
}

fn view(card: &Card) -> String {
    let entry = &card.entry;
    let subject = card.subject.as_deref();
    let solution = subject.and_then(Subject::solution_if_solved);
    let expectations = subject.and_then(|subject| subject.expectations().ok());
    let view = View {
        name: entry.id(),
        game: entry.game.name,
        file: &entry.shown_level,
        level: entry.member,
        expectation: &entry.shown_expectation,
        status: status(card),
        new: expectations.is_some_and(|expectations| !expectations.exists()),
        par: solution.and_then(|solution| solution.par),
        declared_par: expectations.and_then(|expectations| expectations.value::<u32>("par")),
        states: solution.map(|solution| solution.stats.stored),
        ms: solution.map(|solution| solution.stats.milliseconds()),
        checks: Checks(subject),
        // A file of several levels has one pending file: it is this
        // level's only when this level has something to accept.
        pending: status(card) == "stale"
            && subject.is_some_and(|subject| subject.pending_file().is_some()),
        rebuild: card.rebuild,
        checked: card.checked,
    };
    serde_json::to_string(&view).expect("plain data serializes")
}

/// `{"<check>": "ok" | "stale" | "failed"}`, in the game's order.
struct Checks<'a>(Option<&'a Subject>);

impl Serialize for Checks<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let verdicts: Vec<(&str, &Verdict)> =
            self.0.map(|s| s.verdicts().collect()).unwrap_or_default();
        let mut map = serializer.serialize_map(Some(verdicts.len()))?;
        for (name, verdict) in verdicts {
            map.serialize_entry(name, verdict.name())?;
        }
        map.end()
    }
}
