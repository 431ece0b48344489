//! Search nodes kept in one vector; parents are `u32` indices into it, so a
//! path is rebuilt by walking parent links back to the start.

use crate::game::Game;

pub(crate) struct Arena<G: Game> {
    states: Vec<G::State>,
    /// `links[i]` = (parent of node i, move that led to it); `None` for the start.
    links: Vec<Option<(u32, G::Move)>>,
}

impl<G: Game> Arena<G> {
    pub fn new(start: G::State) -> Self {
        Arena {
            states: vec![start],
            links: vec![None],
        }
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    pub fn state(&self, node: usize) -> &G::State {
        &self.states[node]
    }

    pub fn push(&mut self, state: G::State, parent: usize, mv: G::Move) -> usize {
        self.states.push(state);
        self.links.push(Some((parent as u32, mv)));
        self.states.len() - 1
    }

    /// Re-parents a node (best-first search found a cheaper way to it).
    pub fn relink(&mut self, node: usize, state: G::State, parent: usize, mv: G::Move) {
        self.states[node] = state;
        self.links[node] = Some((parent as u32, mv));
    }

    /// The moves from the start to `node`, in play order.
    pub fn path_to(&self, node: usize) -> Vec<G::Move> {
        let mut path = Vec::new();
        let mut at = node;
        while let Some((parent, mv)) = self.links[at] {
            path.push(mv);
            at = parent as usize;
        }
        path.reverse();
        path
    }
}
