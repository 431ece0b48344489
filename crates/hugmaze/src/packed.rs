//! The search's view of a Hug Maze level: the state packed into one
//! integer.
//!
//! The rules work on the readable [`State`] (two bear cells, up to
//! [`MAX_OBJECTS`] object cells). A search stores hundreds of thousands of
//! states, so [`Packed`] stores each as a `u32`, `u64` or `u128`: the two bear
//! cells, then the object cells in slot order (already sorted within each
//! kind), each in as many bits as the grid's cell count needs. The packed
//! state is its own key, so hashing it is one multiplication, and equal
//! packings are equal states.
//!
//! The game's loader picks the narrowest word the level fits in (the article's
//! 12 × 12 example with two jars needs 4 × 8 = 32 bits) and falls back to
//! the readable state, which [`Level`] plays directly, for a level too big
//! for 128 bits. Every width plays by the same rules (`Level::apply`); the tests
//! hold the packed and the readable games to the same pars and state counts.

use std::fmt::Debug;
use std::hash::Hash;

use super::level::{Level, MAX_OBJECTS};
use super::rules::{Bear, Move, NOWHERE, Refusal, State, Step};
use puzzle_qa_core::game::{Ablation, Cost, Draw, Extras, Game, Mechanics, NotationError};
use puzzle_qa_core::picture::Scene;

/// An unsigned integer a packed state fits in.
pub trait Word: Copy + Eq + Hash + Debug + Send + Sync + 'static {
    /// How many bits the word holds.
    const BITS: u32;
    /// The word with no bit set, to pack fields into.
    const ZERO: Self;
    /// `self` with `value` written at bit `shift` (the bits there are zero).
    fn put(self, shift: u32, value: u16) -> Self;
    /// The `mask`-wide field at bit `shift`.
    fn get(self, shift: u32, mask: u16) -> u16;
    /// `self` with the `mask`-wide field at bit `shift` zeroed.
    fn clear(self, shift: u32, mask: u16) -> Self;
}

macro_rules! word {
    ($($int:ty),*) => {$(
        impl Word for $int {
            const BITS: u32 = <$int>::BITS;
            const ZERO: Self = 0;
            #[inline]
            fn put(self, shift: u32, value: u16) -> Self {
                self | (value as $int) << shift
            }
            #[inline]
            fn get(self, shift: u32, mask: u16) -> u16 {
                (self >> shift) as u16 & mask
            }
            #[inline]
            fn clear(self, shift: u32, mask: u16) -> Self {
                self & !((mask as $int) << shift)
            }
        }
    )*};
}

word!(u32, u64, u128);

/// A level whose states are packed into `W`.
#[derive(Debug)]
pub struct Packed<W> {
    level: Level,
    /// Bits per cell number.
    bits: u32,
    /// `bits` ones.
    mask: u16,
    word: std::marker::PhantomData<W>,
}

/// The bits one cell number takes in a level of `cells` cells.
fn bits_per_cell(cells: usize) -> u32 {
    (usize::BITS - cells.saturating_sub(1).leading_zeros()).max(1)
}

impl<W: Word> Packed<W> {
    /// Whether the states of `level` fit in `W`.
    pub fn fits(level: &Level) -> bool {
        let fields = 2 + level.kinds.len() as u32;
        fields * bits_per_cell(level.tiles.len()) <= W::BITS
    }

    /// The level with packed states. Panics unless [`Packed::fits`].
    pub fn new(level: Level) -> Packed<W> {
        assert!(Self::fits(&level), "the level's states do not fit the word");
        let bits = bits_per_cell(level.tiles.len());
        Packed {
            level,
            bits,
            mask: ((1u32 << bits) - 1) as u16,
            word: std::marker::PhantomData,
        }
    }

    fn pack(&self, state: &State) -> W {
        let mut word = W::ZERO
            .put(0, state.bears[0])
            .put(self.bits, state.bears[1]);
        let mut shift = 2 * self.bits;
        for &cell in &state.objects[..self.level.kinds.len()] {
            word = word.put(shift, cell);
            shift += self.bits;
        }
        word
    }

    fn bear(&self, word: W, bear: Bear) -> u16 {
        word.get(bear as u32 * self.bits, self.mask)
    }

    fn unpack(&self, word: W) -> State {
        let mut state = State {
            bears: Bear::BOTH.map(|bear| self.bear(word, bear)),
            objects: [NOWHERE; MAX_OBJECTS],
        };
        let mut shift = 2 * self.bits;
        for cell in &mut state.objects[..self.level.kinds.len()] {
            *cell = word.get(shift, self.mask);
            shift += self.bits;
        }
        state
    }
}

impl<W: Word> Game for Packed<W> {
    type State = W;
    type Key = W;
    type Move = Move;
    type Refusal = Refusal;

    fn start(&self) -> W {
        self.pack(&self.level.start)
    }

    fn key(&self, state: &W) -> W {
        *state
    }

    fn is_won(&self, state: &W) -> bool {
        self.level
            .won_by(self.bear(*state, Bear::Bubu), self.bear(*state, Bear::Dudu))
    }

    fn moves(&self, _: &W) -> impl Iterator<Item = Move> {
        Move::ALL.into_iter()
    }

    fn step(&self, state: &W, mv: Move) -> Result<(W, Cost), Refusal> {
        let (next, cost) = self.level.step(&self.unpack(*state), mv)?;
        Ok((self.pack(&next), cost))
    }

    /// The same moves as [`Game::step`] makes, with the state unpacked once
    /// rather than once per move, and a walk packed by rewriting one field.
    fn successors(&self, word: &W, mut visit: impl FnMut(Move, &W, Cost)) {
        let state = self.unpack(*word);
        for mv in Move::ALL {
            match self.level.play(&state, mv) {
                Ok(Step::Walk(target)) => {
                    let shift = mv.bear as u32 * self.bits;
                    visit(mv, &word.clear(shift, self.mask).put(shift, target), 1);
                }
                Ok(Step::Push(next)) => visit(mv, &self.pack(&next), 1),
                Err(_) => {}
            }
        }
    }

    fn heuristic(&self, state: &W) -> Option<Cost> {
        Some(
            self.level
                .lower_bound([Bear::Bubu, Bear::Dudu].map(|b| self.bear(*state, b))),
        )
    }

    fn format_moves(&self, moves: &[Move]) -> String {
        self.level.format_moves(moves)
    }

    fn parse_moves(&self, text: &str) -> Result<Vec<Move>, NotationError> {
        self.level.parse_moves(text)
    }

    fn level_text(&self) -> Option<String> {
        self.level.level_text()
    }

    const EXTRAS: Extras<Self> = Extras::NONE.mechanics().draw();
}

impl<W: Word> Draw for Packed<W> {
    fn scene(&self, state: &W) -> Scene {
        self.level.scene(&self.unpack(*state))
    }
}

impl<W: Word> Mechanics for Packed<W> {
    fn mechanics(&self) -> Vec<Ablation> {
        self.level.mechanics()
    }

    fn pieces(&self) -> Vec<Ablation> {
        self.level.pieces()
    }

    /// An ablation keeps the grid's size and never adds an object, so the
    /// ablated copy fits the same word.
    fn ablate(&self, ablation: &Ablation) -> Packed<W> {
        Packed {
            level: self.level.ablate(ablation),
            bits: self.bits,
            mask: self.mask,
            word: std::marker::PhantomData,
        }
    }
}
