//! The whole reachable state graph of a small level, with every state's
//! exact cost to a win: the ground truth a game's heuristic is tested
//! against (any game's, so a new game can test its own bound the same way).

use std::borrow::Borrow as _;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::arena::{Arena, Indexed, NodeIndex};
use super::ledger::Kept;
use crate::game::{Cost, Game};

/// Every state reachable from a level's start (a won state is terminal, as
/// in the solvers), the moves between them, and each one's exact cost to a
/// win.
///
/// ```
/// # use puzzle_qa_core::game::{Cost, Game, NotationError};
/// # struct Corridor;
/// # impl Game for Corridor {
/// #     type State = i32; type Key = i32; type Move = i32; type Refusal = &'static str;
/// #     fn start(&self) -> i32 { 0 }
/// #     fn key(&self, s: &i32) -> i32 { *s }
/// #     fn is_won(&self, s: &i32) -> bool { *s == 4 }
/// #     fn moves(&self, _: &i32) -> impl Iterator<Item = i32> { [-1, 1].into_iter() }
/// #     fn step(&self, s: &i32, d: i32) -> Result<(i32, Cost), &'static str> {
/// #         if (0..5).contains(&(s + d)) { Ok((s + d, 1)) } else { Err("wall") }
/// #     }
/// #     fn heuristic(&self, s: &i32) -> Option<Cost> { Some((4 - s) as Cost) }
/// #     fn format_moves(&self, m: &[i32]) -> String { format!("{m:?}") }
/// #     fn parse_moves(&self, _: &str) -> Result<Vec<i32>, NotationError> { Ok(vec![]) }
/// # }
/// // A corridor of 5 cells, walked from 0 to 4; the distance left is exact.
/// use puzzle_qa_core::search::StateGraph;
///
/// let graph = StateGraph::explore(&Corridor, 100).expect("5 states");
/// assert_eq!(graph.distance, [Some(4), Some(3), Some(2), Some(1), Some(0)]);
/// assert_eq!(graph.check_heuristic(&Corridor, |s| Corridor.heuristic(s).unwrap()), Ok(()));
/// // One more than the distance left overestimates.
/// assert!(graph.check_heuristic(&Corridor, |s| (5 - s) as Cost).is_err());
/// ```
pub struct StateGraph<G: Game> {
    /// Every reachable state, the start first, kept as the searches keep
    /// them (and told apart as they tell them apart).
    arena: Arena<G>,
    /// `(from, to, cost)` for every legal move of a state that has not won.
    pub edges: Vec<(usize, usize, Cost)>,
    /// The cheapest cost to a win; `None` when no win is reachable.
    pub distance: Vec<Option<Cost>>,
}

impl<G: Game> StateGraph<G> {
    /// Explores everything reachable from the start, or `None` if that is
    /// more than `limit` states.
    pub fn explore(game: &G, limit: usize) -> Option<Self> {
        // A small level's graph, for tests: bounded by `limit` alone.
        let mut kept = Kept::new(u64::MAX);
        let mut arena = Arena::new(game.start().borrow(), false, &mut kept);
        let mut index = NodeIndex::new(game, &arena, &mut kept);
        let mut state = game.start();
        let mut edges = Vec::new();
        let mut head = 0;
        while head < arena.len() {
            arena.state(head).clone_into(&mut state);
            if !game.is_won(state.borrow()) {
                game.successors(state.borrow(), |_, next, cost| {
                    // A move that never settles leads to no state.
                    if game.is_hung(next) {
                        return;
                    }
                    let fits = |arena: &Arena<G>| arena.fits(next);
                    let id = loop {
                        let found =
                            index.find_or_push(game, &mut arena, (next, head, 0), fits, &mut kept);
                        match found.expect("no budget to reach") {
                            Indexed::Known(id) | Indexed::New(id) => break id,
                            Indexed::Full => {
                                arena.grow(next, &mut kept).expect("no budget to reach")
                            }
                        }
                    };
                    edges.push((head, id, cost));
                });
            }
            if arena.len() > limit {
                return None;
            }
            head += 1;
        }
        let distance = distances_to_wins(game, &arena, &edges);
        Some(StateGraph {
            arena,
            edges,
            distance,
        })
    }

    /// Every reachable state, the start first; a state's place here is its
    /// number in `edges` and `distance`.
    pub fn states(&self) -> impl ExactSizeIterator<Item = &G::State> {
        self.arena.states()
    }

    /// Whether `bound` is a heuristic A* may trust on this graph: 0 on a
    /// win, never above a state's exact cost to a win (admissible), and
    /// dropping by at most a move's cost along every move (consistent),
    /// including moves between states that cannot win.
    pub fn check_heuristic(
        &self,
        game: &G,
        bound: impl Fn(&G::State) -> Cost,
    ) -> Result<(), String> {
        for (state, exact) in self.states().zip(&self.distance) {
            let h = bound(state);
            if game.is_won(state) && h != 0 {
                return Err(format!("h = {h} on the win {state:?}"));
            }
            if let Some(exact) = exact
                && h > *exact
            {
                return Err(format!(
                    "h = {h} > {exact}, the exact cost to win, at {state:?}"
                ));
            }
        }
        for &(from, to, cost) in &self.edges {
            let (from, to) = (self.arena.state(from), self.arena.state(to));
            let (before, after) = (bound(from), bound(to));
            if before > cost.saturating_add(after) {
                return Err(format!(
                    "h drops from {before} to {after} on a move of cost {cost}: {from:?} → {to:?}"
                ));
            }
        }
        Ok(())
    }
}

/// Dijkstra backwards from every won state over the reversed edges.
fn distances_to_wins<G: Game>(
    game: &G,
    states: &Arena<G>,
    edges: &[(usize, usize, Cost)],
) -> Vec<Option<Cost>> {
    let mut incoming = vec![Vec::new(); states.len()];
    for &(from, to, cost) in edges {
        incoming[to].push((from, cost));
    }
    let mut distance: Vec<Option<Cost>> = vec![None; states.len()];
    let mut frontier = BinaryHeap::new();
    for (id, state) in states.states().enumerate() {
        if game.is_won(state) {
            distance[id] = Some(0);
            frontier.push(Reverse((0, id)));
        }
    }
    while let Some(Reverse((d, id))) = frontier.pop() {
        if distance[id] != Some(d) {
            continue;
        }
        for &(from, cost) in &incoming[id] {
            let through = d + cost;
            if distance[from].is_none_or(|known| through < known) {
                distance[from] = Some(through);
                frontier.push(Reverse((through, from)));
            }
        }
    }
    distance
}
