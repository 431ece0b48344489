//! The RULES section to the groups the engine plays: lines read and
//! expanded, each expanded rule compiled once, rules grouped, rigid groups
//! numbered, and the loops' points found.

use super::patterns::{self, Rule};
use super::symbols::Symbols;
use super::{coincidences, expand, rule_names, rules};
use crate::ast::Parsed;
use crate::bits;
use crate::log::Log;

/// A rule group: rules that take turns until none changes the level.
#[derive(Clone, Debug)]
pub(crate) struct Group {
    pub(crate) rules: Vec<Rule>,
    /// One match of one rule of the group is applied, chosen at random.
    pub(crate) random: bool,
    /// Its index among the rigid groups, plus one (0 when not rigid).
    pub(crate) rigid_index: u32,
    /// The objects and movements every rule of the group needs somewhere
    /// on the board: a board that lacks one matches none of them (a rule
    /// line's directions share their objects, so this rejects them at once).
    pub(crate) objects: Box<[u32]>,
    pub(crate) moves: Box<[u32]>,
    /// The first words of `objects` and `moves`, held in the group itself:
    /// all of them in a game of one word of each a cell.
    pub(crate) need: [u32; 2],
    /// Each rule's [`Rule::need`], side by side: most of a group's rules
    /// (a rule line's directions) fail on them, read without touching the
    /// rules themselves.
    pub(crate) needs: Box<[[u32; 2]]>,
}

/// A game's rules as the engine plays them, with what the rest of the
/// compile needs of them.
pub(super) struct RuleSet {
    /// The groups of rules, in order.
    pub(super) groups: Vec<Group>,
    /// The groups of late rules, in order.
    pub(super) late: Vec<Group>,
    /// The `startloop` (+1) and `endloop` (-1) lines, for [`loop_points`].
    pub(super) loops: Vec<(usize, i32)>,
    /// Each rule line, named.
    pub(super) lines: Vec<super::NamedRule>,
    /// Whether a rule draws from the random generator.
    pub(super) uses_random: bool,
    /// The rigid groups' indices among the groups.
    pub(super) rigid_groups: Vec<usize>,
    /// How many rows all rules have together (see `Rule::first_row`).
    pub(super) rows: usize,
}

/// The rules, or `None` when one cannot be made concrete (the compile
/// then stops, as upstream's does).
pub(super) fn compile(parsed: &Parsed, symbols: &Symbols, log: &mut Log) -> Option<RuleSet> {
    let mut invalid = false;
    let mut raw = Vec::new();
    let mut loops = Vec::new();
    let mut lines = Vec::new();
    for line in &parsed.rules {
        match rules::read_line(line, symbols, &parsed.sounds, &raw, &mut invalid, log) {
            Some(rules::Line::Rule(r)) => {
                lines.push(line);
                raw.push(r);
            }
            Some(rules::Line::Loop(n, b)) => loops.push((n, b)),
            None => {}
        }
    }
    coincidences::check_coincidences(symbols, &mut raw, log);
    let expanded = expand::expand(symbols, raw, &mut invalid, log);
    if invalid {
        return None;
    }
    let concrete = expand::dedupe(expanded);
    let uses_random = concrete.iter().any(|r| {
        r.random
            || r.rhs
                .iter()
                .flatten()
                .flatten()
                .any(|i| i.dir == "random" || i.dir == "randomdir")
    });
    let compiled = patterns::compile(symbols, concrete, log);
    let mut groups = grouped(compiled.iter().filter(|r| !r.late).cloned().collect(), log);
    let mut late = grouped(compiled.into_iter().filter(|r| r.late).collect(), log);
    let rigid_groups = number_rigid_groups(&mut groups, log);
    let rows = number_rows(&mut groups, &mut late);
    Some(RuleSet {
        groups,
        late,
        loops,
        lines: rule_names::name(&lines),
        uses_random,
        rigid_groups,
        rows,
    })
}

/// Rules into groups by group number (the line of the group's first rule),
/// in line order, dropping rules that can never fire.
fn grouped(rules: Vec<Rule>, log: &mut Log) -> Vec<Group> {
    let mut by_number: std::collections::BTreeMap<usize, Vec<Rule>> = Default::default();
    for r in rules {
        by_number.entry(r.group).or_default().push(r);
    }
    let mut out = Vec::new();
    for (_, mut rules) in by_number {
        patterns::drop_discarded(&mut rules, log);
        if !rules.is_empty() {
            let common = |of: fn(&Rule) -> &[u32]| -> Box<[u32]> {
                let mut all = of(&rules[0]).to_vec();
                for rule in &rules[1..] {
                    for (word, theirs) in all.iter_mut().zip(of(rule)) {
                        *word &= theirs;
                    }
                }
                all.into_boxed_slice()
            };
            let objects = common(|rule| &rule.objects);
            let moves = common(|rule| &rule.moves);
            out.push(Group {
                random: rules[0].random,
                needs: rules.iter().map(|rule| rule.need).collect(),
                rules,
                rigid_index: 0,
                need: [
                    objects.first().copied().unwrap_or(0),
                    moves.first().copied().unwrap_or(0),
                ],
                objects,
                moves,
            });
        }
    }
    out
}

/// Gives each rigid group its index (from 1, as its cells record it in a
/// layer's field, so at most 30), and lists the rigid groups.
fn number_rigid_groups(groups: &mut [Group], log: &mut Log) -> Vec<usize> {
    let mut rigid_groups = Vec::new();
    for (i, g) in groups.iter_mut().enumerate() {
        if g.rules.iter().any(|r| r.rigid) {
            rigid_groups.push(i);
            g.rigid_index = rigid_groups.len() as u32;
        }
    }
    if rigid_groups.len() > 30 {
        log.error(
            groups[rigid_groups[30]].rules[0].line,
            "There can't be more than 30 rigid groups (rule groups containing rigid members).",
        );
    }
    rigid_groups
}

/// Numbers every rule's first row among all rules' rows (late rules
/// last), and counts the rows.
fn number_rows(groups: &mut [Group], late: &mut [Group]) -> usize {
    let mut rows = 0;
    for rule in groups.iter_mut().chain(late).flat_map(|g| &mut g.rules) {
        rule.first_row = rows;
        rows += rule.rows.len();
    }
    rows
}

/// `rigid_fill[k]`: movement words with `k` in every layer's field, for
/// `k` from 0 to the number of rigid groups.
pub(super) fn rigid_fill(symbols: &Symbols, rigid_groups: usize) -> Vec<Box<[u32]>> {
    (0..=rigid_groups as u32)
        .map(|k| {
            let mut m = vec![0u32; symbols.stride_mov];
            for layer in 0..symbols.layer_count {
                bits::or_field(&mut m, k, layer);
            }
            m.into_boxed_slice()
        })
        .collect()
}

/// For each group, of the rules and of the late rules: the group a loop
/// goes back to after it, if it is a loop's last.
pub(super) fn loop_points(
    loops: &mut Vec<(usize, i32)>,
    groups: &[Group],
    late: &[Group],
    log: &mut Log,
) -> (Vec<Option<usize>>, Vec<Option<usize>>) {
    for (i, (line, kind)) in loops.iter().enumerate() {
        if i % 2 == 0 && *kind == -1 {
            log.error(*line, "Found an ENDLOOP, but I'm not in a loop?");
        } else if i % 2 == 1 && *kind == 1 {
            log.error(*line, "Found a STARTLOOP, but I'm already inside a loop? (Puzzlescript can't nest loops, FWIW).");
        }
    }
    if loops.len() % 2 == 1 {
        let line = loops[loops.len() - 1].0;
        log.error(
            line,
            "Yo I found a STARTLOOP without a corresponding ENDLOOP.",
        );
        loops.push((line, -1));
    }
    let points = |groups: &[Group], log: &mut Log| {
        let mut point = vec![None; groups.len()];
        for pair in loops.chunks(2) {
            let (start, end) = (pair[0].0, pair[1].0);
            let mut first_in_loop = None;
            for (gi, g) in groups.iter().enumerate() {
                let first = g.rules[0].line;
                let last = g.rules[g.rules.len() - 1].line;
                if (first <= start && start <= last) || (first <= end && end <= last) {
                    log.error(start, "Found a loop point in the middle of a rule. You probably don't want to do this, right?");
                }
                if end < first {
                    break;
                }
                if start <= first && first <= end {
                    let init = *first_in_loop.get_or_insert(gi);
                    if gi > 0 && point[gi - 1] == Some(init) {
                        point[gi - 1] = None;
                    }
                    point[gi] = Some(init);
                }
            }
        }
        point
    };
    let a = points(groups, log);
    let b = points(late, log);
    (a, b)
}
