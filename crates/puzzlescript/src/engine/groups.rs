//! Rule groups: applied in order, with their loops, at every match or at
//! one chosen at random.

use super::Engine;
use super::matching::{Match, Matches};
use crate::bits;
use crate::compile::{Group, Rule};

impl Engine<'_> {
    /// Applies the groups in order, skipping those `banned` (rigid groups
    /// a turn is being retried without). After a loop's last group, play
    /// goes back to its first while the loop changes something.
    pub(super) fn apply_rules(
        &mut self,
        groups: &[Group],
        loop_point: &[Option<usize>],
        banned: Option<&[bool]>,
    ) {
        let mut propagated = false;
        let mut loops = 0;
        let mut g = 0;
        // The board's masks change only where a group is applied: read
        // once, and again after each, rather than for every group asked.
        let mut map = self.map_words();
        // While nothing has propagated (so no loop point sends the groups
        // back) and no group is banned, the groups the masks rule out in a
        // game of one word of each a cell are passed over in a loop of
        // their own, at a few instructions each.
        let plain = self.game.single_word && banned.is_none();
        while g < groups.len() {
            // Whether the masks are known to hold what group `g` needs.
            let passed = plain && !propagated;
            if passed {
                while let Some(group) = groups.get(g)
                    && (group.need[0] & !map[0] != 0 || group.need[1] & !map[1] != 0)
                {
                    g += 1;
                }
                if g == groups.len() {
                    break;
                }
            }
            let group = &groups[g];
            if !banned.is_some_and(|b| b.get(g).copied().unwrap_or(false))
                && (passed || self.holds(map, group.need, &group.objects, &group.moves))
                // Kept apart from `holds`, as with rules below: folded into
                // it, the search took 0.46% more instructions (callgrind).
                && self.s.board.holders.hold_all(group.need[0])
                // A group none of whose rules may match changes nothing:
                // told before any of applying it is set up.
                && let Some(first) = self.first_candidate(group, map)
            {
                propagated = self.apply_group(group, first) || propagated;
                map = self.map_words();
            }
            if propagated && let Some(Some(back)) = loop_point.get(g) {
                g = *back;
                propagated = false;
                loops += 1;
                if loops > 200 {
                    break;
                }
                continue;
            }
            g += 1;
        }
    }

    /// The first of `group`'s rules that may match on the board as it is
    /// ([`Engine::may_apply`]), or `None`: then none matches. Every rule
    /// of a random group may.
    #[inline]
    fn first_candidate(&mut self, group: &Group, map: [u32; 2]) -> Option<usize> {
        if group.random {
            return Some(0);
        }
        if !self.game.single_word {
            return group
                .rules
                .iter()
                .position(|rule| self.may_apply(rule, map));
        }
        // `may_apply`, its masks read from the group's needs. (Through
        // `may_apply` itself, which asks the game's word count a rule, the
        // searches took 1.1% and 1.7% more instructions, callgrind.)
        group
            .needs
            .iter()
            .zip(&group.rules)
            .position(|(need, rule)| {
                need[0] & !map[0] == 0
                    && need[1] & !map[1] == 0
                    && self.s.board.holders.hold_all(need[0])
                    && self.sifts(rule)
            })
    }

    /// Whether `rule` may match on the board as it is: the board's masks,
    /// whose first words are `map`, hold what it needs, the objects it
    /// needs are still there, and its sieve lets it through. Most rules
    /// fail here, before any row is matched.
    #[inline(always)]
    fn may_apply(&mut self, rule: &Rule, map: [u32; 2]) -> bool {
        self.holds(map, rule.need, &rule.objects, &rule.moves)
            && self.s.board.holders.hold_all(rule.need[0])
            && self.sifts(rule)
    }

    /// Applies a group whose rule `first` may match and whose rules before
    /// it do not ([`Engine::first_candidate`]); true if it changed
    /// anything. (Kept out of the loop over the groups, which passes most
    /// of them over.)
    #[inline(never)]
    fn apply_group(&mut self, group: &Group, first: usize) -> bool {
        if group.random {
            return self.apply_random_group(group);
        }
        // The group's passes repeat until one changes nothing; after the
        // first, a rule's rows are rescanned only around the cells changed
        // since it last scanned them (see `Engine::rescan`).
        self.s.scratch.changes.start(self.s.board.len());
        let mut changed = false;
        let mut again = true;
        let mut loops = 0;
        let mut map = self.map_words();
        // The first pass starts at `first`, already known to may match.
        let mut skip = first;
        while again && loops < 200 {
            loops += 1;
            again = false;
            for (r, rule) in group.rules.iter().enumerate().skip(skip) {
                // Only a rule that changed the board has widened its masks.
                if (r == skip && loops == 1 || self.may_apply(rule, map))
                    && self.try_apply(rule, group.rigid_index)
                {
                    again = true;
                    map = self.map_words();
                }
            }
            skip = 0;
            changed |= again;
        }
        self.s.scratch.changes.stop();
        changed
    }

    /// Applies one match of one rule of a random group, drawn from all of
    /// them.
    fn apply_random_group(&mut self, group: &Group) -> bool {
        // Random groups are rare: their tuples are simply listed.
        let mut all: Vec<(usize, Vec<Match>)> = Vec::new();
        let mut found = Matches::default();
        for (r, rule) in group.rules.iter().enumerate() {
            if self.find_matches(rule, &mut found, None) {
                let rows: Vec<Vec<Match>> = (0..found.ends.len())
                    .map(|k| found.row(k).to_vec())
                    .collect();
                for tuple in tuples(&rows) {
                    all.push((r, tuple));
                }
            }
        }
        if all.is_empty() {
            return false;
        }
        let pick = self.s.rng.below(all.len());
        let (r, tuple) = &all[pick.min(all.len() - 1)];
        let rule = &group.rules[*r];
        let modified = self.apply_at(rule, tuple, false, group.rigid_index);
        self.note_fired(rule, modified);
        self.queue_commands(rule);
        modified
    }

    /// The first words of the board's masks of objects and of movements:
    /// all of them in a single-word game.
    #[inline(always)]
    fn map_words(&self) -> [u32; 2] {
        self.s.board.first_of_maps()
    }

    /// Whether the board's masks, whose first words are `map`, hold all of
    /// `objects` and `moves`, whose first words are `need`: what a group or
    /// a rule needs somewhere on the board (most fail here).
    #[inline(always)]
    fn holds(&self, map: [u32; 2], need: [u32; 2], objects: &[u32], moves: &[u32]) -> bool {
        if self.game.single_word {
            return need[0] & !map[0] == 0 && need[1] & !map[1] == 0;
        }
        let b = &self.s.board;
        bits::within(objects, b.map_objects()) && bits::within(moves, b.map_moves())
    }

    /// Applies a rule of a group being applied at every match, one whose
    /// needs the board's masks hold.
    fn try_apply(&mut self, rule: &Rule, rigid_index: u32) -> bool {
        // A plain row's matches that would write nothing are passed over
        // (`dormant.rs`); the rule counts as matched all the same.
        if self.passes_dormant(rule) {
            let Some(result) = self.apply_waking(rule) else {
                return false;
            };
            self.note_fired(rule, result);
            self.queue_commands(rule);
            return result;
        }
        let mut found = std::mem::take(&mut self.s.scratch.matches);
        // Rows matched by bits keep nothing between passes.
        let matched = if self.rules_by_bits(rule) {
            self.find_matches_by_bits(rule, &mut found)
        } else {
            let mut kept = std::mem::take(&mut self.s.scratch.kept);
            let matched = self.find_matches(rule, &mut found, Some(&mut kept));
            self.s.scratch.kept = kept;
            matched
        };
        if !matched {
            self.s.scratch.matches = found;
            return false;
        }
        let mut result = false;
        if rule.has_replacements {
            let rows = found.ends.len();
            if rows == 1 {
                // One row: its matches, in order, are the combinations of
                // one match per row, each after the first checked again
                // if one of its cells has changed since the scan (a match
                // depends on its cells alone).
                // Only a match with a cell changed since: the changes are
                // known cell by cell (a row with ellipses is checked anyway).
                let scanned = self.s.scratch.changes.now();
                let span = (rule.ellipses[0] == 0).then(|| rule.rows[0].len());
                let d = self.delta(rule.direction);
                // The common shape (a row without ellipses, no rigid body,
                // a word of each a cell) is written in place: a rule that
                // floods the board matches mostly where it writes nothing.
                let plain = self.writes_in_place(rule);
                for m in &found.all {
                    let changes = &self.s.scratch.changes;
                    let check = changes.now() != scanned
                        && span.is_none_or(|len| changes.covered(m.start, len, d, scanned));
                    result |= if plain {
                        self.apply_row_single(&rule.rows[0], m.start, d, check)
                    } else {
                        self.apply_at(rule, std::slice::from_ref(m), check, rigid_index)
                    };
                }
            } else {
                result = self.apply_combinations(rule, &found, rigid_index);
            }
        }
        self.s.scratch.matches = found;
        self.note_fired(rule, result);
        self.queue_commands(rule);
        result
    }

    /// Whether `rule`'s matches are checked and written in place
    /// ([`Engine::apply_row_single`]): a game of one word of each a cell,
    /// no rigid body, no ellipsis.
    #[inline]
    fn writes_in_place(&self, rule: &Rule) -> bool {
        self.game.single_word && !rule.rigid && rule.ellipses.iter().all(|&e| e == 0)
    }

    /// Applies a rule of several rows at every combination of one match
    /// per row, the first row varying fastest, as upstream lists them.
    fn apply_combinations(&mut self, rule: &Rule, found: &Matches, rigid_index: u32) -> bool {
        let rows = found.ends.len();
        let mut result = false;
        let mut at = std::mem::take(&mut self.s.scratch.odometer);
        at.clear();
        at.resize(rows, 0);
        // The first tuple, each row's first match; then only the rows whose
        // match the odometer moves are written again.
        let mut tuple = std::mem::take(&mut self.s.scratch.tuple);
        tuple.clear();
        // Pushed one by one: a few rows, where `extend` over a mapped range
        // took some 80 instructions.
        for r in 0..rows {
            tuple.push(found.row(r)[0]);
        }
        // A tuple is checked again only if a cell has changed since the
        // scan (as for one row).
        let scanned = self.s.scratch.changes.now();
        // The common shape, written in place as for one row.
        let plain = self.writes_in_place(rule);
        let d = self.delta(rule.direction);
        'tuples: loop {
            let check = self.s.scratch.changes.now() != scanned;
            result |= if plain {
                self.apply_rows_single(rule, &tuple, d, check)
            } else {
                self.apply_at(rule, &tuple, check, rigid_index)
            };
            let mut r = 0;
            loop {
                if r == rows {
                    break 'tuples;
                }
                let row = found.row(r);
                at[r] += 1;
                if let Some(&next) = row.get(at[r]) {
                    tuple[r] = next;
                    break;
                }
                at[r] = 0;
                tuple[r] = row[0];
                r += 1;
            }
        }
        self.s.scratch.odometer = at;
        self.s.scratch.tuple = tuple;
        result
    }

    /// Records that `rule` matched, if it changed something or has
    /// commands to queue (a match that does neither leaves play as it was).
    #[inline]
    fn note_fired(&mut self, rule: &Rule, modified: bool) {
        if !self.s.fired.is_empty()
            && (modified || !rule.commands.is_empty())
            && let Some(fired) = self.s.fired.get_mut(rule.line)
        {
            *fired = true;
        }
    }
}

/// Every combination of one match per row, the first row varying fastest.
fn tuples(rows: &[Vec<Match>]) -> Vec<Vec<Match>> {
    let mut out: Vec<Vec<Match>> = vec![Vec::new()];
    for row in rows {
        let mut next = Vec::with_capacity(out.len() * row.len());
        for m in row {
            for t in &out {
                let mut t = t.clone();
                t.push(*m);
                next.push(t);
            }
        }
        out = next;
    }
    out
}
