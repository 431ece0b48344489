//! The generation loop: a population of solvable levels, mutated and
//! selected until one meets the target or the budget is spent.
//!
//! Determinism: every random choice (which parent, which mutation) is made
//! on one thread, from one generator seeded by the user's seed, before the
//! generation's candidates are solved in parallel; the solved candidates come
//! back in the order they were made and selection is sequential. So a seed
//! and a generation count give the same level whatever the thread count. A
//! time limit or Ctrl-C ends the run at a moment that is not reproducible.

use std::collections::HashSet;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::fitness::{Evaluated, Fitness, evaluate};
use super::{Candidate, Generator, Rng, Target};
use crate::game::Cost;
use crate::harness::GameChecks;

/// The default state limit of a candidate's searches: far below the
/// suite's own ([`crate::search::DEFAULT_STATE_LIMIT`]), so a candidate
/// whose space explodes costs little, and any level written passes the
/// suite's limit.
pub const DEFAULT_LIMIT: usize = 250_000;

/// Levels kept from one generation to the next.
pub(super) const POPULATION: usize = 32;
/// New candidates made per generation.
pub(super) const CHILDREN: usize = 64;
/// Random levels tried, per population slot, before giving up on filling
/// the first population with solvable ones.
const RANDOM_TRIES: usize = 200;

/// When to stop (besides meeting the target).
pub struct Budget<'a> {
    /// Stop after this many generations (reproducible).
    pub generations: Option<u64>,
    /// Stop at this time (not reproducible).
    pub deadline: Option<Instant>,
    /// Set from outside (Ctrl-C) to stop as soon as possible.
    pub stop: &'a AtomicBool,
    /// The most states one search may store; a level whose search (or an
    /// ablated copy's) would need more is dropped.
    pub limit: usize,
    /// The most memory one search may keep, in bytes: the same.
    pub memory: u64,
}

impl Budget<'_> {
    /// A candidate's search's bounds.
    fn search(&self) -> crate::search::Budget {
        crate::search::Budget {
            states: self.limit,
            bytes: self.memory,
        }
    }

    fn spent(&self, generation: u64) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
            || self.generations.is_some_and(|last| generation >= last)
    }
}

/// How the run is going, for a progress display.
#[derive(Clone, Debug)]
pub struct Progress {
    /// The generation just ranked; 0 is the random first population.
    pub generation: u64,
    /// Candidates solved so far.
    pub candidates: u64,
    /// Time since the run started.
    pub elapsed: Duration,
    /// The best par among levels that meet the target's mechanic
    /// requirements, if any does yet.
    pub best_par: Option<Cost>,
    /// The best par in the population, penalties aside.
    pub top_par: Cost,
}

/// A new best par among qualifying levels: when it happened and the par.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Milestone {
    /// The generation in which it happened.
    pub generation: u64,
    /// Seconds since the run started.
    pub seconds: f64,
    /// The new best par.
    pub par: Cost,
}

/// A finished run.
pub struct Generated {
    /// The level to keep: the best one that meets the target's mechanic
    /// requirements, or failing that the fittest one.
    pub best: Evaluated,
    /// Whether `best` meets the whole target.
    pub met: bool,
    /// Generations of mutated children made after the random first population.
    pub generations: u64,
    /// Candidates solved in the whole run, the random ones included.
    pub candidates: u64,
    /// How long the run took.
    pub elapsed: Duration,
    /// Each time the best qualifying level improved.
    pub history: Vec<Milestone>,
}

/// Runs the generator for `game` until a level meets `target` or `budget`
/// is spent, calling `observe` after every generation. `None` if not even
/// one solvable random level turned up (or the budget ran out first).
pub fn run(
    game: &GameChecks,
    generator: &dyn Generator,
    target: &Target,
    seed: u64,
    budget: &Budget,
    observe: &mut dyn FnMut(&Progress),
) -> Option<Generated> {
    let started = Instant::now();
    let mut rng = Rng::with_seed(seed);
    let mut seen = SeenTexts::default();
    let mut candidates = 0u64;
    let lowest = Fitness {
        score: i64::MIN,
        expanded: 0,
    };

    // The first population: random levels, solvable ones kept.
    let mut population: Vec<Evaluated> = Vec::new();
    let mut tries = 0;
    while population.len() < POPULATION && tries < RANDOM_TRIES * POPULATION {
        if budget.spent(0) {
            break;
        }
        let batch: Vec<Drafted> = (0..CHILDREN)
            .filter_map(|_| seen.admit(generator.random(target, &mut rng)))
            .collect();
        tries += CHILDREN;
        candidates += batch.len() as u64;
        population.extend(solve_all(game, batch, target, budget.search(), lowest));
    }
    population.truncate(POPULATION);
    if population.is_empty() {
        return None;
    }

    let mut best_shape: Option<Evaluated> = None;
    let mut history = Vec::new();
    let mut generation = 0;
    loop {
        rank(&mut population);
        let par_before = best_shape.as_ref().map(|kept| kept.par);
        keep_best_shape(&mut best_shape, &population, target);
        if let Some(kept) = &best_shape
            && par_before.is_none_or(|par| par < kept.par)
        {
            history.push(Milestone {
                generation,
                seconds: started.elapsed().as_secs_f64(),
                par: kept.par,
            });
        }
        observe(&Progress {
            generation,
            candidates,
            elapsed: started.elapsed(),
            best_par: best_shape.as_ref().map(|kept| kept.par),
            top_par: population.iter().map(|level| level.par).max().unwrap_or(0),
        });
        let met = best_shape.as_ref().is_some_and(|kept| kept.meets(target));
        if met || budget.spent(generation) {
            break;
        }
        generation += 1;

        // Children, made in order on this thread, then solved in parallel.
        let children: Vec<Drafted> = (0..CHILDREN)
            .filter_map(|_| {
                let parent = tournament(&population, &mut rng);
                let mut child = parent.candidate.mutate(target, &mut rng);
                // Now and then several changes at once, to cross a valley.
                while rng.u8(0..4) == 0 {
                    child = child.mutate(target, &mut rng);
                }
                seen.admit(child)
            })
            .collect();
        candidates += children.len() as u64;
        let bar = worth_ablating(&population, best_shape.as_ref());
        // Children go first so that, on equal fitness, the new level wins
        // (the stable sort keeps them ahead): the population drifts across
        // plateaus instead of freezing on them.
        let mut next = solve_all(game, children, target, budget.search(), bar);
        next.append(&mut population);
        population = next;
        rank(&mut population);
        population.truncate(POPULATION);
    }

    let elapsed = started.elapsed();
    let (best, met) = match best_shape {
        Some(kept) => {
            let met = kept.meets(target);
            (kept, met)
        }
        None => (population.swap_remove(0), false),
    };
    Some(Generated {
        best,
        met,
        generations: generation,
        candidates,
        elapsed,
        history,
    })
}

/// Solves `batch` in parallel, keeping the solvable candidates in order.
fn solve_all(
    game: &GameChecks,
    batch: Vec<Drafted>,
    target: &Target,
    bounds: crate::search::Budget,
    bar: Fitness,
) -> Vec<Evaluated> {
    batch
        .into_par_iter()
        .map(|(candidate, text)| evaluate(game, candidate, text, target, bounds, bar))
        .collect::<Vec<_>>()
        .into_iter()
        .flatten()
        .collect()
}

/// Best first; a stable sort, so earlier entries win ties.
fn rank(population: &mut [Evaluated]) {
    population.sort_by_key(|level| std::cmp::Reverse(level.fitness));
}

/// The better of two random members.
fn tournament<'a>(population: &'a [Evaluated], rng: &mut Rng) -> &'a Evaluated {
    let a = &population[rng.usize(..population.len())];
    let b = &population[rng.usize(..population.len())];
    if b.fitness > a.fitness { b } else { a }
}

/// The fitness below which a new candidate is not worth ablating: it could
/// neither enter the population nor beat the best qualifying level.
fn worth_ablating(population: &[Evaluated], best_shape: Option<&Evaluated>) -> Fitness {
    let Some(worst) = population.last().filter(|_| population.len() >= POPULATION) else {
        return Fitness {
            score: i64::MIN,
            expanded: 0,
        };
    };
    let beats_best = best_shape.map_or(
        Fitness {
            score: i64::MIN,
            expanded: 0,
        },
        |kept| Fitness {
            score: i64::from(kept.par),
            expanded: kept.expanded + 1,
        },
    );
    worst.fitness.min(beats_best)
}

/// Replaces `kept` by the population's best level that meets the target's
/// mechanic requirements, if that is better (by par, then effort).
fn keep_best_shape(kept: &mut Option<Evaluated>, population: &[Evaluated], target: &Target) {
    let rank = |level: &Evaluated| (level.par, level.expanded);
    let Some(candidate) = population
        .iter()
        .filter(|level| level.meets_shape(target))
        .max_by_key(|level| rank(level))
    else {
        return;
    };
    if kept.as_ref().is_none_or(|old| rank(old) < rank(candidate)) {
        *kept = Some(candidate.clone());
    }
}

/// A new candidate and its level file text (rendered once, for both the
/// check below and the loader).
type Drafted = (Box<dyn Candidate>, String);

/// The levels already made, by a hash of their text, so no level is solved
/// twice. Fixed-seed hashing keeps the run deterministic.
#[derive(Default)]
struct SeenTexts(HashSet<u64>);

impl SeenTexts {
    /// The candidate with its text, unless a level with that text was
    /// made before.
    fn admit(&mut self, candidate: Box<dyn Candidate>) -> Option<Drafted> {
        let text = candidate.level_text(&[]);
        let hash = rustc_hash::FxBuildHasher.hash_one(&text);
        self.0.insert(hash).then_some((candidate, text))
    }
}
