//! Where each object is: per object, a bit per cell, kept for games of one
//! word of objects a cell (up to 32 objects) and up to date through every
//! write, so that a rule row whose first cell needs an object, the players
//! and the win conditions are found from the cells that hold an object
//! rather than by reading every cell.

/// The cells that hold each object.
#[derive(Clone, Debug, Default)]
pub(super) struct Holders {
    /// `words` words an object (bit `i % 64` of word `i / 64`: cell `i`);
    /// empty when the game has more than one word of objects a cell.
    bits: Vec<u64>,
    words: usize,
    /// The objects there are (a mask may name more: no cell holds those).
    known: u32,
    /// The objects some cell has lost since the board's masks were last
    /// computed ([`Holders::hold_all`]).
    lost: u32,
    /// Whether `bits` tells the board as it is (a write that replaces the
    /// whole board clears this; the next turn's masks bring them up to date).
    valid: bool,
}

impl Holders {
    /// For a board of `cells` cells and a game of `objects` objects;
    /// kept only if `kept`.
    pub(super) fn new(kept: bool, objects: usize, cells: usize) -> Holders {
        let words = cells.div_ceil(64);
        Holders {
            bits: if kept {
                vec![0; objects * words]
            } else {
                Vec::new()
            },
            words,
            known: if objects >= 32 {
                u32::MAX
            } else {
                (1 << objects) - 1
            },
            valid: false,
            lost: 0,
        }
    }

    /// Whether they tell the board as it is: only then may they be read.
    #[inline(always)]
    pub(super) fn valid(&self) -> bool {
        self.valid
    }

    /// Every object's cells (`words` words an object, object `id` from
    /// word `id * words`), if they tell the board as it is.
    #[inline]
    pub(super) fn all(&self) -> Option<&[u64]> {
        (self.valid && !self.bits.is_empty()).then_some(&self.bits[..])
    }

    /// The board was replaced as a whole.
    #[inline]
    pub(super) fn invalidate(&mut self) {
        self.valid = false;
    }

    /// Words an object.
    #[inline(always)]
    pub(super) fn words(&self) -> usize {
        self.words
    }

    /// Word `k` of the cells holding object `id`.
    #[inline(always)]
    pub(super) fn word(&self, id: usize, k: usize) -> u64 {
        self.bits[id * self.words + k]
    }

    /// The cells holding object `id`, `words` words (`id` among the
    /// objects there are).
    #[inline(always)]
    pub(super) fn object(&self, id: usize) -> &[u64] {
        &self.bits[id * self.words..(id + 1) * self.words]
    }

    /// Every object's cells as arrays of `W` words, `W` being
    /// [`Holders::words`]: object `id` is element `id`.
    #[inline(always)]
    pub(super) fn by_object<const W: usize>(&self) -> &[[u64; W]] {
        debug_assert_eq!(W, self.words);
        self.bits.as_chunks::<W>().0
    }

    /// The objects there are.
    #[inline(always)]
    pub(super) fn known(&self) -> u32 {
        self.known
    }

    /// Word `k` of the cells holding every object of `mask` (`all`) or
    /// one of them, where no cell holds an object outside `there` (only
    /// those are looked up: [`Holders::known`] at most); `mask` must not
    /// be empty.
    #[inline(always)]
    pub(super) fn cells_with(&self, mask: u32, all: bool, k: usize, there: u32) -> u64 {
        let there = there & self.known;
        if all && mask & !there != 0 {
            return 0;
        }
        let mut ids = mask & there;
        let mut cells = if all { u64::MAX } else { 0 };
        while ids != 0 {
            let id = ids.trailing_zeros() as usize;
            ids &= ids - 1;
            if all {
                cells &= self.word(id, k);
            } else {
                cells |= self.word(id, k);
            }
        }
        cells
    }

    /// Whether every object of `mask` that the board's masks name is still
    /// somewhere on the board, as far as they tell (true when they are not
    /// up to date). The masks are only ever widened within a turn, so they
    /// go on naming an object that a rule has since removed; only the
    /// objects some cell has lost since [`Holders::settle`] are looked up.
    #[inline(always)]
    pub(super) fn hold_all(&self, mask: u32) -> bool {
        let lost = mask & self.lost;
        if lost == 0 || !self.valid {
            return true;
        }
        let mut ids = lost;
        while ids != 0 {
            let id = ids.trailing_zeros() as usize;
            ids &= ids - 1;
            if self.object(id).iter().all(|&w| w == 0) {
                return false;
            }
        }
        true
    }

    /// The board's masks were just computed from its cells: no object
    /// has been lost since.
    #[inline(always)]
    pub(super) fn settle(&mut self) {
        self.lost = 0;
    }

    /// Read again from a board of one word a cell.
    pub(super) fn rebuild(&mut self, objects: &[u32]) {
        if self.bits.is_empty() {
            return;
        }
        self.bits.fill(0);
        for (i, &cell) in objects.iter().enumerate() {
            let mut ids = cell & self.known;
            while ids != 0 {
                let id = ids.trailing_zeros() as usize;
                ids &= ids - 1;
                self.bits[id * self.words + i / 64] |= 1 << (i % 64);
            }
        }
        self.valid = true;
    }

    /// Cell `i`'s word went from `old` to `new`.
    #[inline(always)]
    pub(super) fn change(&mut self, i: usize, old: u32, new: u32) {
        if !self.valid {
            return;
        }
        self.lost |= old & !new;
        let mut ids = (old ^ new) & self.known;
        while ids != 0 {
            let id = ids.trailing_zeros() as usize;
            ids &= ids - 1;
            self.bits[id * self.words + i / 64] ^= 1 << (i % 64);
        }
    }

    /// Copies them to `into`, to be put back by [`Holders::load`].
    pub(super) fn save(&self, into: &mut Vec<u64>) {
        into.clone_from(&self.bits);
    }

    /// Puts back what [`Holders::save`] kept for the board as it is now.
    pub(super) fn load(&mut self, saved: &[u64]) {
        if self.bits.is_empty() {
            return;
        }
        self.bits.copy_from_slice(saved);
        self.valid = true;
    }

    /// The board went from `old` to `new` (as long): the holders follow,
    /// cell by cell where they differ, if they are kept up to date. Boards
    /// a solver puts in place one after another differ in a few cells,
    /// so this is far cheaper than reading every cell again.
    pub(super) fn follow(&mut self, old: &[u32], new: &[u32]) {
        if !self.valid {
            return;
        }
        debug_assert_eq!(old.len(), new.len());
        // Eight cells compared at once: most blocks are the same.
        let ((old_blocks, old_rest), (new_blocks, new_rest)) =
            (old.as_chunks::<8>(), new.as_chunks::<8>());
        for (k, (o, n)) in old_blocks.iter().zip(new_blocks).enumerate() {
            if o != n {
                for j in 0..8 {
                    self.change(8 * k + j, o[j], n[j]);
                }
            }
        }
        let base = 8 * old_blocks.len();
        for (j, (&o, &n)) in old_rest.iter().zip(new_rest).enumerate() {
            self.change(base + j, o, n);
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::Holders;
    use crate::compile::LevelData;
    use crate::engine::{Engine, Input, Mode};

    /// The fixture games, and the example games where `PUZZLESCRIPT_GAMES`
    /// names their folder.
    pub(crate) fn games() -> Vec<String> {
        let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/puzzlescript");
        let mut dirs = vec![std::path::PathBuf::from(fixtures)];
        dirs.extend(std::env::var_os("PUZZLESCRIPT_GAMES").map(Into::into));
        let mut texts = Vec::new();
        for dir in dirs {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            paths.sort();
            for path in paths
                .iter()
                .filter(|p| p.extension().is_some_and(|x| x == "txt"))
            {
                texts.extend(std::fs::read_to_string(path).ok());
            }
        }
        texts
    }

    /// The next number of a xorshift stream: the random walks' inputs.
    pub(crate) fn next(rng: &mut u64) -> u64 {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        *rng
    }

    /// One input of a random walk, drawn from `rng`.
    pub(crate) fn random_input(rng: &mut u64) -> Input {
        [
            Input::Up,
            Input::Down,
            Input::Left,
            Input::Right,
            Input::Action,
        ][(next(rng) % 5) as usize]
    }

    /// Plays `input` as turn `turn` of a walk that restarts the level when
    /// it is won or every `restart_every` turns, with its again turns.
    pub(crate) fn walk(engine: &mut Engine, input: Input, turn: usize, restart_every: usize) {
        if engine.won() || turn % restart_every == restart_every - 1 {
            engine.set_board(|_, _| {});
            engine.restart();
        }
        engine.input(Some(input));
        for _ in 0..100 {
            if !engine.againing() {
                break;
            }
            engine.again();
        }
    }

    /// Every level of every game played from one stream of random inputs
    /// by two engines, one finding rule rows, players and wins from the
    /// holders, the other reading every cell (its holders never kept):
    /// after every turn the same level, the same win.
    #[test]
    fn holders_find_what_reading_every_cell_finds() {
        let (mut levels, mut used) = (0, 0);
        for text in games() {
            let Ok((game, _)) = crate::load(&text) else {
                continue;
            };
            for (index, level) in game.levels().iter().enumerate() {
                if !matches!(level, LevelData::Grid(_)) {
                    continue;
                }
                let (Some(mut kept), Some(mut read)) = (
                    Engine::load(&game, index, "holders", Mode::Solver),
                    Engine::load(&game, index, "holders", Mode::Solver),
                ) else {
                    continue;
                };
                read.s.board.holders = Holders::new(false, 0, 0);
                levels += 1;
                let mut rng = 0x9e37_79b9_7f4a_7c15u64 ^ index as u64;
                for turn in 0..200 {
                    let input = random_input(&mut rng);
                    for engine in [&mut kept, &mut read] {
                        walk(engine, input, turn, 50);
                    }
                    used += usize::from(kept.s.board.holders.valid());
                    assert_eq!(
                        kept.level_string(),
                        read.level_string(),
                        "level {index}, turn {turn}"
                    );
                    assert_eq!(kept.won(), read.won(), "level {index}, turn {turn}");
                }
            }
        }
        assert!(levels > 10, "{levels} levels played");
        assert!(used > 1000, "the holders were read after {used} turns only");
    }
}
