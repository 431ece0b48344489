//! Tables derived once per level from its grid, so that the rules and the
//! heuristic never re-read the grid in the search's inner loop: each cell's
//! neighbours, and each bear's distance to the nearest heart.

use std::collections::VecDeque;

use super::level::{Level, Tile};
use super::rules::{Bear, Dir, NOWHERE};
use puzzle_qa_core::game::{Cost, HOPELESS};

impl Level {
    /// Fills the derived fields (`steps`, `heart_distance`) from the grid.
    /// Called by the parser and by every ablation, which changes the grid.
    pub(crate) fn derive_tables(mut self) -> Level {
        let cells = self.width * self.height;
        self.steps = (0..cells as u16)
            .map(|cell| Dir::ALL.map(|dir| self.neighbour_on_grid(cell, dir).unwrap_or(NOWHERE)))
            .collect();
        self.heart_distance = Bear::BOTH.map(|bear| self.distances_to_hearts(bear));
        self
    }

    fn neighbour_on_grid(&self, cell: u16, dir: Dir) -> Option<u16> {
        let (row, col) = self.row_col(cell);
        let (row, col) = match dir {
            Dir::U => (row.checked_sub(1)?, col),
            Dir::D => (row + 1, col),
            Dir::L => (row, col.checked_sub(1)?),
            Dir::R => (row, col + 1),
        };
        (row < self.height && col < self.width).then(|| (row * self.width + col) as u16)
    }

    /// Breadth-first from every heart at once over the cells `bear` could
    /// ever stand on: not walls or cats, mouse holes for Bubu only; gates
    /// count as open and objects as absent. Steps are symmetric, so the
    /// distance from a heart is the distance to it.
    fn distances_to_hearts(&self, bear: Bear) -> Vec<u16> {
        let walkable = |cell: u16| match self.tiles[cell as usize] {
            Tile::Wall | Tile::Cat => false,
            Tile::Hole => bear == Bear::Bubu,
            Tile::Floor | Tile::Heart | Tile::Plate(_) | Tile::Gate(_) => true,
        };
        let mut distance = vec![NOWHERE; self.tiles.len()];
        let mut queue = VecDeque::new();
        for (cell, tile) in self.tiles.iter().enumerate() {
            if *tile == Tile::Heart {
                distance[cell] = 0;
                queue.push_back(cell as u16);
            }
        }
        while let Some(cell) = queue.pop_front() {
            for next in self.steps[cell as usize] {
                if next != NOWHERE && distance[next as usize] == NOWHERE && walkable(next) {
                    distance[next as usize] = distance[cell as usize] + 1;
                    queue.push_back(next);
                }
            }
        }
        distance
    }

    /// A lower bound on the moves still needed to win from a state whose
    /// bears stand on `bears`: the sum of each bear's distance to its
    /// nearest heart on the relaxed grid (gates open, objects gone, mouse
    /// holes open to Bubu only).
    ///
    /// Admissible: a move moves one bear one cell, and every cell a bear can
    /// really enter is walkable on the relaxed grid, so a bear needs at least
    /// its relaxed distance in moves to stand on a heart, and a win needs both
    /// bears on one. Consistent: a move changes one bear's distance by at most
    /// one, and costs one. The bound ignores which heart: both bears on the
    /// same heart can only cost more than each on its nearest.
    pub(crate) fn lower_bound(&self, [bubu, dudu]: [u16; 2]) -> Cost {
        let to_heart = |bear: Bear, cell: u16| self.heart_distance[bear as usize][cell as usize];
        match (to_heart(Bear::Bubu, bubu), to_heart(Bear::Dudu, dudu)) {
            (NOWHERE, _) | (_, NOWHERE) => HOPELESS,
            (b, d) => Cost::from(b) + Cost::from(d),
        }
    }
}
