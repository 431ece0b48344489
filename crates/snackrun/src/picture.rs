//! How a Snack Run state is drawn (`puzzle_qa_core::picture`): tiles by kind, the
//! two bears where they stand (on the goal once home), and each motion's
//! arc through the cells it touches.

use super::course::{Course, Move};
use super::level::{Bear, Tile};
use super::physics::End;
use puzzle_qa_core::game::Draw;
use puzzle_qa_core::picture::{Look, Piece, Scene};

impl Draw for Course {
    fn scene(&self, state: &[u16; 2]) -> Scene {
        let level = &self.level;
        let mut cells = Vec::with_capacity(level.width * level.height);
        for row in 0..level.height {
            for col in 0..level.width {
                cells.push(match level.tile((row, col)) {
                    Tile::Air => Look::new("air", "#bfe3f2", '.'),
                    Tile::Ground => Look::new("ground", "#6d4c41", '#'),
                    Tile::OneWay => Look::new("one-way platform", "#a1887f", '-'),
                    Tile::Spring => Look::new("spring", "#66bb6a", '^'),
                    Tile::Spikes => Look::new("spikes", "#e53935", '*'),
                    Tile::Snack => Look::new("snack", "#fdd835", 'o'),
                    Tile::Goal => Look::new("goal", "#ab47bc", 'G'),
                });
            }
        }
        let goal = level.cells(Tile::Goal).first().copied();
        let pieces = Bear::BOTH
            .into_iter()
            .filter_map(|bear| {
                let at = self
                    .spot(state[bear as usize])
                    .or(goal.filter(|_| self.is_home(state[bear as usize])))?;
                Some(Piece {
                    name: if bear == Bear::Bubu { "Bubu" } else { "Dudu" }.into(),
                    fill: if bear == Bear::Bubu {
                        "#ffe082"
                    } else {
                        "#8d6e63"
                    }
                    .into(),
                    glyph: bear.letter(),
                    cells: vec![at],
                    actor: true,
                    sprite: Vec::new(),
                })
            })
            .collect();
        Scene {
            width: level.width,
            height: level.height,
            cells,
            pieces,
            links: Vec::new(),
        }
    }

    fn trail(&self, state: &[u16; 2], mv: Move) -> Vec<(usize, usize)> {
        let touched = self.arc(state[mv.bear as usize], mv.to);
        // The picture draws from the start cell to the end cell itself.
        let inner = touched.len().saturating_sub(1);
        touched.into_iter().take(inner).skip(1).collect()
    }
}

impl Course {
    /// The cells the motion `to` touches from spot number `from`, start and
    /// end included.
    fn arc(&self, from: u16, to: End) -> Vec<(usize, usize)> {
        let Some(spot) = self.spot(from) else {
            return Vec::new();
        };
        self.graph.edges[&spot]
            .iter()
            .find(|motion| motion.end == to)
            .map(|motion| motion.touched.clone())
            .unwrap_or_default()
    }
}
