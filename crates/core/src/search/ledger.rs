//! The bytes a search keeps, against its budget and against the machine.
//!
//! Each search counts what its own buffers take (`Kept`): capacities,
//! asked for before a buffer grows, so the figure, and where a search
//! stops, depend on the level and the budget alone. Then, so that searches
//! running at once (levels, and a level's ablated copies, on rayon's
//! threads) do not add up past the machine, one ledger per process grants
//! the room: a search keeps up to [`SHARE`] without asking; past that, it
//! asks once for all it may ever keep (its budget, or the machine's room if
//! smaller) and waits until that fits beside the searches already granted.
//!
//! Why this cannot deadlock: a search waits only before its one grant, and
//! holds at most its share while it waits; a search that has its grant never
//! waits again, so it finishes and frees its room. And if no search holds a
//! grant, the next one asking gets one at once. Waiting only delays a
//! search, so no verdict depends on it.
//!
//! The machine's room is told by the front ends (`harness/env.rs` reads the
//! available memory, a cgroup limit and the address-space limit): until then
//! nothing waits, and a search is bounded by its budget and by what the
//! allocator refuses.

use std::sync::{Condvar, Mutex, MutexGuard};

use super::budget::{Bound, Size};

/// What a search keeps without asking the ledger: small searches (nearly
/// every level of a suite) never wait or take a lock past their start.
pub const SHARE: u64 = 64 << 20;

/// The memory the searches of this process may take all together, and
/// where that figure comes from (for messages).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Machine {
    /// Bytes for searches.
    pub bytes: u64,
    /// What bounds it, in words: `"the memory available (MemAvailable)"`.
    pub what: String,
}

struct State {
    machine: Option<Machine>,
    /// Searches running.
    running: usize,
    /// Searches holding a grant, and the bytes granted to them.
    granted: usize,
    reserved: u64,
}

/// The searches of a process and the room granted to them. There is one,
/// [`LEDGER`]; tests make their own.
pub(crate) struct Ledger {
    state: Mutex<State>,
    /// Rung whenever a grant is given back.
    freed: Condvar,
}

/// The process's ledger.
static LEDGER: Ledger = Ledger::new();

impl Ledger {
    const fn new() -> Self {
        Ledger {
            state: Mutex::new(State {
                machine: None,
                running: 0,
                granted: 0,
                reserved: 0,
            }),
            freed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic in a search (a game's bug) must not stop every other one.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Tells the ledger how much memory this process's searches may take all
/// together (`None`: unknown, nothing waits). The front ends call it once,
/// at start, from what `harness/env.rs` reads.
pub fn share_machine(machine: Option<Machine>) {
    LEDGER.lock().machine = machine;
}

/// The machine's room as the ledger knows it.
pub fn machine() -> Option<Machine> {
    LEDGER.lock().machine.clone()
}

/// What one search keeps: its buffers' bytes, its peak, and its grant.
pub(crate) struct Kept {
    ledger: &'static Ledger,
    bytes: u64,
    peak: u64,
    budget: u64,
    /// The most it may keep, once granted (`None`: not granted yet, or no
    /// machine known); and why that is less than the budget, if it is.
    grant: Option<Grant>,
}

struct Grant {
    /// Bytes reserved in the ledger (0 when no machine is known).
    reserved: u64,
    /// The most the search may keep.
    cap: u64,
    /// Why `cap` is below the budget, if it is.
    short: Option<String>,
}

impl Kept {
    /// A search's count, under a budget of `budget` bytes.
    pub(crate) fn new(budget: u64) -> Self {
        Kept::in_ledger(budget, &LEDGER)
    }

    /// A search's count in `ledger`.
    fn in_ledger(budget: u64, ledger: &'static Ledger) -> Self {
        ledger.lock().running += 1;
        Kept {
            ledger,
            bytes: 0,
            peak: 0,
            budget,
            grant: None,
        }
    }

    /// The most bytes the search has kept at once.
    pub(crate) fn peak(&self) -> u64 {
        self.peak
    }

    /// How big a buffer now of `old` bytes may become, between `need` and
    /// `want` bytes (`both`: the old buffer is held until the new one is
    /// filled): as big as `want` if that fits, else as big as fits, else
    /// the bound it would pass. Nothing is counted until [`Kept::set`].
    pub(crate) fn allow(
        &mut self,
        old: u64,
        want: u64,
        need: u64,
        both: bool,
    ) -> Result<u64, Bound> {
        let others = self.bytes - old + if both { old } else { 0 };
        if others.saturating_add(need) > self.budget {
            return Err(Bound::Memory);
        }
        let want = want.max(need).min(self.budget - others);
        if others + want > SHARE {
            self.ask();
        }
        let Some(grant) = &self.grant else {
            return Ok(want);
        };
        if others + need > grant.cap {
            return Err(Bound::Machine(grant.short.clone().unwrap_or_else(|| {
                "the machine's room for searches is full".to_string()
            })));
        }
        Ok(want.min(grant.cap - others))
    }

    /// Counts a buffer of `old` bytes as now `new` bytes (`both`: both were
    /// held for a moment).
    pub(crate) fn set(&mut self, old: u64, new: u64, both: bool) {
        let during = self.bytes + if both { new } else { new.saturating_sub(old) };
        self.bytes = self.bytes - old + new;
        self.peak = self.peak.max(during).max(self.bytes);
    }

    /// The bound of an allocation of `bytes` that the allocator refused.
    pub(crate) fn refused(&self, bytes: u64) -> Bound {
        Bound::Machine(format!(
            "the machine refused {} more, with {} kept (a limit such as `ulimit -v` or `ulimit \
             -d`, a container's, or the system's overcommit policy)",
            Size(bytes),
            Size(self.bytes)
        ))
    }

    /// Takes the search's grant: all it may ever keep, once it fits beside
    /// the other grants (waiting until it does), or at once when no other
    /// search holds one.
    fn ask(&mut self) {
        if self.grant.is_some() {
            return;
        }
        let mut state = self.ledger.lock();
        let Some(machine) = state.machine.clone() else {
            self.grant = Some(Grant {
                reserved: 0,
                cap: self.budget,
                short: None,
            });
            return;
        };
        let reserved = self.budget.min(machine.bytes);
        loop {
            // The searches without a grant may each keep up to a share.
            let small = (state.running - state.granted - 1) as u64 * SHARE;
            if state.granted == 0 || state.reserved + reserved + small <= machine.bytes {
                break;
            }
            state = self
                .ledger
                .freed
                .wait(state)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
        state.granted += 1;
        state.reserved += reserved;
        self.grant = Some(Grant {
            reserved,
            cap: reserved,
            short: (reserved < self.budget).then(|| {
                format!(
                    "the machine has {} for searches ({}), less than the budget of {}",
                    Size(machine.bytes),
                    machine.what,
                    Size(self.budget)
                )
            }),
        });
    }
}

impl Drop for Kept {
    fn drop(&mut self) {
        let mut state = self.ledger.lock();
        state.running -= 1;
        if let Some(grant) = &self.grant
            && grant.reserved > 0
        {
            state.granted -= 1;
            state.reserved -= grant.reserved;
            self.ledger.freed.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::thread;
    use std::time::Duration;

    use super::*;

    /// A ledger of its own, for a machine of `bytes`.
    fn machine_of(bytes: u64) -> &'static Ledger {
        let ledger: &'static Ledger = Box::leak(Box::new(Ledger::new()));
        ledger.lock().machine = Some(Machine {
            bytes,
            what: "a test's machine".to_string(),
        });
        ledger
    }

    #[test]
    fn a_big_search_waits_until_the_room_granted_to_another_is_given_back() {
        // Room for one search of 200 MiB, and for small ones beside it.
        let ledger = machine_of(300 << 20);
        let mut first = Kept::in_ledger(200 << 20, ledger);
        assert_eq!(first.allow(0, 100 << 20, 100 << 20, false), Ok(100 << 20));
        first.set(0, 100 << 20, false);
        let (told, heard) = mpsc::channel();
        let second = thread::spawn(move || {
            let mut second = Kept::in_ledger(200 << 20, ledger);
            // Small: no grant needed, no wait.
            assert_eq!(second.allow(0, 1 << 20, 1 << 20, false), Ok(1 << 20));
            second.set(0, 1 << 20, false);
            told.send("small").unwrap();
            // Past its share, it needs a grant of 200 MiB, which does not
            // fit beside the first's.
            let grown = second.allow(1 << 20, 100 << 20, 100 << 20, false);
            told.send("grown").unwrap();
            grown
        });
        assert_eq!(heard.recv().unwrap(), "small");
        assert!(
            heard.recv_timeout(Duration::from_millis(300)).is_err(),
            "the second search waits while the first holds its grant"
        );
        drop(first);
        assert_eq!(heard.recv().unwrap(), "grown");
        // Waiting changed nothing of what it was allowed.
        assert_eq!(second.join().unwrap(), Ok(100 << 20));
        let state = ledger.lock();
        assert_eq!((state.running, state.granted, state.reserved), (0, 0, 0));
    }

    #[test]
    fn a_budget_bigger_than_the_machine_stops_at_the_machine_and_says_why() {
        let ledger = machine_of(100 << 20);
        let mut kept = Kept::in_ledger(1 << 30, ledger);
        assert_eq!(kept.allow(0, 80 << 20, 80 << 20, false), Ok(80 << 20));
        kept.set(0, 80 << 20, false);
        // Doubling is cut to the machine's room; past it, a machine bound.
        assert_eq!(
            kept.allow(80 << 20, 160 << 20, 81 << 20, false),
            Ok(100 << 20)
        );
        let Err(Bound::Machine(why)) = kept.allow(80 << 20, 240 << 20, 120 << 20, false) else {
            panic!("a machine bound");
        };
        assert!(
            why.contains("the machine has 100 MiB for searches (a test's machine)"),
            "{why}"
        );
    }

    #[test]
    fn a_buffer_grows_to_what_fits_and_no_further() {
        let mut kept = Kept::new(1000);
        assert_eq!(kept.allow(0, 300, 10, false), Ok(300));
        kept.set(0, 300, false);
        assert_eq!(kept.allow(300, 600, 301, false), Ok(600));
        kept.set(300, 600, false);
        // Doubling would pass the budget: as much as fits instead.
        assert_eq!(kept.allow(600, 1200, 601, false), Ok(1000));
        kept.set(600, 1000, false);
        assert_eq!(kept.allow(1000, 2000, 1001, false), Err(Bound::Memory));
        assert_eq!(kept.peak(), 1000);
        // A buffer that holds its old copy while it grows needs both.
        let mut kept = Kept::new(1000);
        kept.set(0, 400, false);
        assert_eq!(kept.allow(400, 800, 500, true), Ok(600));
        assert_eq!(kept.allow(400, 800, 700, true), Err(Bound::Memory));
        kept.set(400, 600, true);
        assert_eq!(kept.peak(), 1000);
    }
}
