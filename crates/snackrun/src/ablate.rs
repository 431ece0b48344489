//! Snack Run's mechanics, as ablation takes them out
//! (`docs/games/snackrun.md`, "Ablation"): `spring` makes every `^` ground,
//! `one-way` makes every `-` air. Comparing a level's reach before and
//! after shows which snacks and goals depend on the mechanic.
//!
//! An ablated level is not checked again: a bear whose start stood on a
//! removed platform may now fall to its death, and then reaches nothing.

use super::level::{Level, Tile};

/// A mechanic that ablation can take out of a Snack Run level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mechanic {
    /// Springs: without them every `^` becomes ground.
    Spring,
    /// One-way platforms: without them every `-` becomes air.
    OneWay,
}

impl Mechanic {
    /// Every mechanic, in the order they are reported.
    pub const ALL: [Mechanic; 2] = [Mechanic::Spring, Mechanic::OneWay];

    /// The mechanic's name in expectation files and reports.
    pub fn name(self) -> &'static str {
        match self {
            Mechanic::Spring => "spring",
            Mechanic::OneWay => "one-way",
        }
    }

    /// The mechanic called `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Mechanic> {
        Mechanic::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The tile the mechanic lives in.
    pub fn tile(self) -> Tile {
        self.replacement().0
    }

    /// What the mechanic's tiles become without it, in words.
    pub fn replacement_name(self) -> &'static str {
        match self {
            Mechanic::Spring => "ground",
            Mechanic::OneWay => "air",
        }
    }

    /// The tile the mechanic lives in, and what it becomes without it.
    fn replacement(self) -> (Tile, Tile) {
        match self {
            Mechanic::Spring => (Tile::Spring, Tile::Ground),
            Mechanic::OneWay => (Tile::OneWay, Tile::Air),
        }
    }
}

impl Level {
    /// A copy of the level without `mechanic`.
    pub fn ablate(&self, mechanic: Mechanic) -> Level {
        let (from, to) = mechanic.replacement();
        let mut level = self.clone();
        for tile in &mut level.tiles {
            if *tile == from {
                *tile = to;
            }
        }
        level
    }
}
