//! A level's boards packed for a solver's arena: the objects play can
//! change, each in the code that suits it for the level; everything else is
//! the level's start, kept once.
//!
//! What play can change, and how, the game's rules say
//! (`Game::changing_objects`, `Game::moving_objects`,
//! `Game::appearing_objects`):
//!
//! * An object that can move is told where it is. A cell holds at most one
//!   object of a layer, so a layer's moving objects can be told in two
//!   ways: a **field**, a small number per cell (0 for none of them, or
//!   which one: 3 of them take 2 bits a cell), for objects that are many;
//!   or a **list** per object, how many there are and their cells in
//!   increasing order (a Rice code of the gaps where that is shorter), for
//!   objects that are few (a player; 150 crates on a 60 × 60 board, about
//!   7 bits a crate rather than a bit per cell). Cells where the layer
//!   holds an object that never changes (a wall, on the player's layer)
//!   are left out of both. Which objects share the field is chosen once,
//!   from the start's counts ([`Packing::new`]), the one that makes the
//!   start smallest; counts may change in play, and a list just grows.
//! * An object that can only appear or disappear where it is (a door that
//!   opens, a crate that turns into a shell, a wall a rule could clear) is
//!   told by the cells where it differs from the start, a list that is
//!   empty (one bit) while it is as it started. In the few cells where the
//!   start holds one that a rule may create (a door, shut or open), each
//!   layer's such objects are a [`Spot`] instead, a number in the board's
//!   fixed part, so that a door that opens does not lengthen the state.
//!
//! Every board packs, whatever it holds: one that breaks what the codes
//! rely on (an object thought never to change has changed, two moving
//! objects of a layer share a cell) is written instead as its differences
//! from the start, cell by cell, behind a flag bit. Which form a board
//! takes is a function of the board, so equal boards pack to equal bits and
//! a packed state stays its own key.
//!
//! A board is packed either from its cells (a scan that notes the few
//! cells that need it, then the lists sorted) or, where the engine keeps
//! each object's cells as a bitmap and the level has one word a cell,
//! from those bitmaps ([`Packing::pack_from`]): a list's cells in
//! increasing order are its bitmap's set bits. Both write the same bits.

mod stream;

use stream::{ListCode, bits_for, gamma_bits};
pub(crate) use stream::{Reader, Writer};

/// How a level's boards pack.
#[derive(Clone, Debug)]
pub(crate) struct Packing {
    /// Words a cell.
    stride: usize,
    /// The start's cells: what the differences are from.
    start: Vec<u32>,
    /// Per cell word: the bits that must be as `expect` says for the codes
    /// to apply (every object not carried, and the moving objects of a
    /// layer that an object never changing fills there), and what they
    /// must be (the start's).
    check: Vec<u32>,
    expect: Vec<u32>,
    /// Per cell word: the start without its moving objects, which a
    /// board's codes are read onto.
    base: Vec<u32>,
    /// The cells each layer with moving objects can hold them in.
    universes: Vec<Universe>,
    fields: Vec<Field>,
    /// Bits all fields take together: a board's part of fixed size.
    field_bits: usize,
    /// Where the start holds an object that can only appear or disappear
    /// (a door, shut or open), and how each layer's such objects are told
    /// there (`None`: as everywhere else, by lists of changed cells).
    sites: Option<Universe>,
    spots: Vec<Spot>,
    lists: Vec<List>,
    /// Per word: the moving objects carried as lists, the others carried
    /// as their changes, and each one's list.
    list_bits: Vec<u32>,
    flip_bits: Vec<u32>,
    /// Per word: the moving objects, in fields or lists.
    noted: Vec<u32>,
    list_of_bit: Vec<[u16; 32]>,
    /// Per cell word, where every `expect` is the start's bits under
    /// `check` (always, unless the start holds two objects of a layer):
    /// `check` and the bits carried as changes together, so that a cell
    /// needs noting exactly when `(cell ^ start) & watch` or `cell &
    /// noted` is not zero. Empty otherwise.
    watch: Vec<u32>,
    /// What packing from the engine's bitmaps of each object's cells needs
    /// ([`Packing::pack_from`]): for a level of one word a cell with
    /// `watch`, else `None`.
    held: Option<Held>,
}

/// The cells that hold each object, as the engine keeps them for a board
/// of one word a cell: `words` words an object (bit `i % 64` of word
/// `i / 64`: cell `i`), object `id` (bit `id` of a cell's word) from word
/// `id * words`, for every object the game has. A cell holds no bit
/// beyond those objects.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Holding<'a> {
    pub(crate) bits: &'a [u64],
    pub(crate) words: usize,
}

/// A list's cells are words `at..at + words` of `(bits ^ xor) & keep`
/// ([`Held`]).
#[derive(Clone, Copy, Debug)]
struct HeldList {
    at: u32,
    universe: u32,
}

/// The start as bitmaps of each object's cells, and what a board's
/// bitmaps must keep for its codes to tell it.
///
/// Why: a board's lists are its bitmaps' set bits, in increasing order,
/// and the cells a scan would note are those bits, so a board packs from
/// a few words an object rather than a test of every cell and a sort.
#[derive(Clone, Debug)]
struct Held {
    /// Words an object.
    words: usize,
    /// The start's cells holding each of the 32 objects of a word, laid
    /// out as [`Holding::bits`].
    start: Vec<u64>,
    /// Words of the bitmaps (as indices into them, increasing) where a
    /// board must hold what the start holds under a mask: every cell for
    /// an object not carried, and the cells where an object never
    /// changing fills a moving object's layer. `check` cell by cell.
    guards: Vec<(usize, u64)>,
    /// Each list ([`Packing::lists`]), as where its cells are found.
    lists: Vec<HeldList>,
    /// Laid out as [`Holding::bits`], up to the last object a list tells:
    /// a list's cells are `(bits ^ xor) & keep`. `xor` is the start's
    /// bitmap for a list of changes, else zero; `keep` is every cell, but
    /// the sites ([`Packing::sites`]) for an object a spot tells there,
    /// and none for an object no list tells.
    xor: Vec<u64>,
    keep: Vec<u64>,
    /// Words the bitmaps must have: up to the last object a list or a
    /// field tells.
    needed: usize,
}

/// The cells a layer's moving objects can be in, numbered.
#[derive(Clone, Debug)]
struct Universe {
    /// Cell to slot (`u32::MAX`: not one).
    slot_of: Vec<u32>,
    /// Slot to cell.
    cell_of: Vec<u32>,
    /// How a list of as many slots as its index is coded.
    codes: Vec<ListCode>,
}

/// A layer's moving objects of one word, coded as a number per slot.
#[derive(Clone, Debug)]
struct Field {
    word: usize,
    universe: usize,
    /// The objects, as bits of `word`.
    mask: u32,
    /// Bits a slot.
    width: u32,
    /// Where it starts among the fields.
    offset: usize,
    /// Bit of `word` to its value (from 1), and back.
    value_of_bit: [u8; 32],
    bit_of_value: Vec<u8>,
}

/// A layer's appearing objects of one word, told in each site
/// ([`Packing::sites`]) as a number: 0 while the cell holds what it held
/// at the start, else 1 and which of them it holds now (0: none).
///
/// Why: a door that opens changes two objects in its cell (the shut door
/// goes, the open one comes), and a list of changed cells grows by both,
/// so that state is longer than the start's; a level whose states vary in
/// length pays an end offset for each. Told here, a door costs a few bits
/// in every state, and every state keeps the start's length.
#[derive(Clone, Debug)]
struct Spot {
    word: usize,
    mask: u32,
    width: u32,
    /// Where it starts among the fields (after every [`Field`]).
    offset: usize,
    value_of_bit: [u8; 32],
    bit_of_value: Vec<u8>,
}

impl Spot {
    /// What a site's cell word `v` writes for this spot: 1 for none of its
    /// objects, else 1 plus the one it holds; `None` where it holds two
    /// (the codes cannot tell that cell).
    #[inline]
    fn value(&self, v: u32) -> Option<u64> {
        let x = v & self.mask;
        if x & x.wrapping_sub(1) != 0 {
            return None;
        }
        Some(match x {
            0 => 1,
            _ => 1 + u64::from(self.value_of_bit[x.trailing_zeros() as usize]),
        })
    }
}

/// The most bits the spots may take in all, per state: less than the
/// 32-bit end offset that a state longer than the start would cost each
/// stored state.
const SPOT_BITS: usize = 32;

/// One object coded as a list of cells: where it is, or where it differs
/// from the start (`flipped`), as slots of a universe (for a flipped
/// list, the universe of every cell).
#[derive(Clone, Copy, Debug)]
struct List {
    word: usize,
    bit: u32,
    universe: usize,
    flipped: bool,
}

/// A cell's words, and what packing holds them against.
#[derive(Clone, Copy)]
struct Words<'a> {
    cell: &'a [u32],
    check: &'a [u32],
    expect: &'a [u32],
    start: &'a [u32],
}

/// What packing and unpacking reuse between boards.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    pub(crate) writer: Writer,
    pub(crate) reader: Reader,
    /// The lists' entries as a scan finds them; for a counting sort, how
    /// many each list has, and the entries sorted by list.
    found: Vec<Entry>,
    counts: Vec<u32>,
    sorted: Vec<Entry>,
    /// Packing from bitmaps ([`Packing::pack_held`]): every list's cells,
    /// and one list's slots.
    cells: Vec<u64>,
    slots: Vec<u32>,
}

/// A list's entry: the list (high half) and a slot of its universe (low
/// half), so that entries sort by list, then slot.
type Entry = u64;

fn list_of(entry: Entry) -> usize {
    (entry >> 32) as usize
}

/// At most this many entries are sorted as they are; more, by a counting
/// sort by list.
const FEW_ENTRIES: usize = 32;

/// A board's form, its first bit.
const CODED: u64 = 0;
const DIFFERENCES: u64 = 1;

impl Packing {
    /// The packing of a level whose start is `start` (`stride` words a
    /// cell), where play changes only the objects of `carried` (a mask of
    /// `stride` words; a board where another changes packs all the same,
    /// as its differences), of which those of `moving` can move, and
    /// of the others those of `appearing` may be created, and whose
    /// collision layers are `layers` (masks of their objects).
    pub(crate) fn new(
        start: &[u32],
        stride: usize,
        carried: &[u32],
        moving: &[u32],
        appearing: &[u32],
        layers: &[&[u32]],
    ) -> Self {
        let cells = start.len() / stride.max(1);
        let moving: Vec<u32> = moving.iter().zip(carried).map(|(m, c)| m & c).collect();
        let mut p = Packing {
            stride,
            start: start.to_vec(),
            check: Vec::with_capacity(start.len()),
            expect: Vec::with_capacity(start.len()),
            base: Vec::with_capacity(start.len()),
            universes: Vec::new(),
            fields: Vec::new(),
            field_bits: 0,
            sites: None,
            spots: Vec::new(),
            lists: Vec::new(),
            list_bits: vec![0; stride],
            flip_bits: carried.iter().zip(&moving).map(|(c, m)| c & !m).collect(),
            list_of_bit: vec![[u16::MAX; 32]; stride],
            noted: moving.clone(),
            watch: Vec::new(),
            held: None,
        };
        for cell in start.chunks(stride) {
            for (w, &bits) in cell.iter().enumerate() {
                p.check.push(!carried[w]);
                p.expect.push(bits & !carried[w]);
                p.base.push(bits & !moving[w]);
            }
        }
        for layer in layers {
            let movers: Vec<u32> = layer.iter().zip(&moving).map(|(l, m)| l & m).collect();
            if movers.iter().all(|&m| m == 0) {
                continue;
            }
            // A cell where an object of the layer never changes holds none
            // of its moving objects: the check says so, and the layer's
            // codes leave that cell out.
            let mut universe = Universe {
                slot_of: vec![u32::MAX; cells],
                cell_of: Vec::new(),
                codes: Vec::new(),
            };
            for (c, cell) in start.chunks(stride).enumerate() {
                let settled = cell
                    .iter()
                    .zip(layer.iter())
                    .zip(carried)
                    .any(|((&bits, &l), &c)| bits & l & !c != 0);
                if settled {
                    for (w, &m) in movers.iter().enumerate() {
                        p.check[c * stride + w] |= m;
                    }
                } else {
                    universe.slot_of[c] = universe.cell_of.len() as u32;
                    universe.cell_of.push(c as u32);
                }
            }
            let u = p.universes.len();
            let slots = universe.cell_of.len();
            universe.codes = ListCode::table(slots);
            p.universes.push(universe);
            for (w, &m) in movers.iter().enumerate() {
                if m != 0 {
                    p.choose(start, w, m, u, slots);
                }
            }
        }
        p.choose_spots(start, appearing, layers);
        if p.flip_bits.iter().any(|&f| f != 0) {
            let every = p.universes.len();
            p.universes.push(Universe {
                slot_of: (0..cells as u32).collect(),
                cell_of: (0..cells as u32).collect(),
                codes: ListCode::table(cells),
            });
            for (w, &flips) in p.flip_bits.clone().iter().enumerate() {
                for bit in ones(flips) {
                    p.add_list(w, bit, every, true);
                }
            }
        }
        let exact = (0..start.len()).all(|i| p.expect[i] == start[i] & p.check[i]);
        if exact {
            p.watch = (0..start.len())
                .map(|i| p.check[i] | p.flip_bits[i % stride])
                .collect();
            if stride == 1 {
                p.held = Some(p.held());
            }
        }
        p
    }

    /// [`Held`] for a level of one word a cell whose `expect` is the
    /// start's bits under `check`.
    fn held(&self) -> Held {
        let cells = self.start.len();
        let words = cells.div_ceil(64);
        let mut start = vec![0u64; 32 * words];
        let mut guard = vec![0u64; 32 * words];
        let mut sites = vec![0u64; words];
        for (c, (&v, &check)) in self.start.iter().zip(&self.check).enumerate() {
            let (k, bit) = (c / 64, 1u64 << (c % 64));
            for id in ones(v) {
                start[id as usize * words + k] |= bit;
            }
            for id in ones(check) {
                guard[id as usize * words + k] |= bit;
            }
        }
        if let Some(s) = &self.sites {
            for &c in &s.cell_of {
                sites[c as usize / 64] |= 1 << (c % 64);
            }
        }
        let spotted = self.spots.iter().fold(0, |all, spot| all | spot.mask);
        let last = self.lists.iter().map(|list| list.bit as usize + 1).max();
        let mut xor = vec![0; last.unwrap_or(0) * words];
        let mut keep = xor.clone();
        for list in &self.lists {
            let at = list.bit as usize * words;
            for k in 0..words {
                keep[at + k] = u64::MAX;
                if list.flipped {
                    xor[at + k] = start[at + k];
                    if spotted >> list.bit & 1 == 1 {
                        keep[at + k] = !sites[k];
                    }
                }
            }
        }
        let lists = self
            .lists
            .iter()
            .map(|list| HeldList {
                at: (list.bit as usize * words) as u32,
                universe: list.universe as u32,
            })
            .collect();
        Held {
            words,
            start,
            guards: guard
                .iter()
                .enumerate()
                .filter(|&(_, &mask)| mask != 0)
                .map(|(i, &mask)| (i, mask))
                .collect(),
            lists,
            xor,
            keep,
            needed: self
                .lists
                .iter()
                .map(|list| list.bit)
                .chain(self.fields.iter().flat_map(|f| ones(f.mask)))
                .map(|id| (id as usize + 1) * words)
                .max()
                .unwrap_or(0),
        }
    }

    /// Tells the objects that may appear (`appearing`, of those that do
    /// not move) in the cells where the start holds one ([`Packing::sites`])
    /// as [`Spot`]s, if the level has such cells and the spots take at
    /// most [`SPOT_BITS`]. An object that may only disappear (a wall a
    /// rule could clear, and never does) is no reason for a site.
    fn choose_spots(&mut self, start: &[u32], appearing: &[u32], layers: &[&[u32]]) {
        let s = self.stride;
        let appearing: Vec<u32> = appearing
            .iter()
            .zip(&self.flip_bits)
            .map(|(a, f)| a & f)
            .collect();
        let sites: Vec<u32> = (0..start.len() / s)
            .filter(|&c| (0..s).any(|w| start[c * s + w] & appearing[w] != 0))
            .map(|c| c as u32)
            .collect();
        let mut spots = Vec::new();
        let mut offset = self.field_bits;
        for layer in layers {
            for (w, (&l, &a)) in layer.iter().zip(&appearing).enumerate() {
                let mask = l & a;
                if mask == 0 {
                    continue;
                }
                // Values: 0 as at the start, 1 none, 2.. each object.
                let width = bits_for(mask.count_ones() as usize + 2);
                let mut spot = Spot {
                    word: w,
                    mask,
                    width,
                    offset,
                    value_of_bit: [0; 32],
                    bit_of_value: vec![0],
                };
                for bit in ones(mask) {
                    spot.value_of_bit[bit as usize] = spot.bit_of_value.len() as u8;
                    spot.bit_of_value.push(bit as u8);
                }
                offset += sites.len() * width as usize;
                spots.push(spot);
            }
        }
        let bits = offset - self.field_bits;
        if sites.is_empty() || bits > SPOT_BITS {
            return;
        }
        let mut slot_of = vec![u32::MAX; start.len() / s];
        for (slot, &c) in sites.iter().enumerate() {
            slot_of[c as usize] = slot as u32;
        }
        self.sites = Some(Universe {
            slot_of,
            cell_of: sites,
            codes: Vec::new(),
        });
        self.spots = spots;
        self.field_bits = offset;
    }

    fn add_list(&mut self, word: usize, bit: u32, universe: usize, flipped: bool) {
        if !flipped {
            self.list_bits[word] |= 1 << bit;
        }
        self.list_of_bit[word][bit as usize] = self.lists.len() as u16;
        self.lists.push(List {
            word,
            bit,
            universe,
            flipped,
        });
    }

    /// Codes the moving objects `objects` (bits of word `w`) of a layer
    /// whose universe is `u`, of `slots` cells: a field for the most
    /// numerous at the start and a list for each other, as many in the
    /// field as makes the start smallest (none, if lists are smaller).
    fn choose(&mut self, start: &[u32], w: usize, objects: u32, u: usize, slots: usize) {
        let count = |bit: u32| {
            start
                .chunks(self.stride)
                .filter(|cell| cell[w] >> bit & 1 == 1)
                .count()
        };
        let mut by_count: Vec<(usize, u32)> = ones(objects).map(|bit| (count(bit), bit)).collect();
        by_count.sort_by_key(|&(n, bit)| (std::cmp::Reverse(n), bit));
        let list_cost = |n: usize| gamma_bits(n) + ListCode::most_bits(n, slots);
        let cost = |k: usize| {
            let field = if k == 0 {
                0
            } else {
                slots * bits_for(k + 1) as usize
            };
            field
                + by_count[k..]
                    .iter()
                    .map(|&(n, _)| list_cost(n))
                    .sum::<usize>()
        };
        let k = (0..=by_count.len())
            .min_by_key(|&k| (cost(k), k))
            .unwrap_or(0);
        if k > 0 {
            let mut field = Field {
                word: w,
                universe: u,
                mask: 0,
                width: bits_for(k + 1),
                offset: self.field_bits,
                value_of_bit: [0; 32],
                bit_of_value: vec![0],
            };
            let mut inside: Vec<u32> = by_count[..k].iter().map(|&(_, bit)| bit).collect();
            inside.sort_unstable();
            for bit in inside {
                field.mask |= 1 << bit;
                field.value_of_bit[bit as usize] = field.bit_of_value.len() as u8;
                field.bit_of_value.push(bit as u8);
            }
            self.field_bits += slots * field.width as usize;
            self.fields.push(field);
        }
        let mut outside: Vec<u32> = by_count[k..].iter().map(|&(_, bit)| bit).collect();
        outside.sort_unstable();
        for bit in outside {
            self.add_list(w, bit, u, false);
        }
    }

    /// Appends `board` packed to the writer.
    pub(crate) fn pack(&self, board: &[u32], scratch: &mut Scratch) {
        self.pack_from(board, None, scratch);
    }

    /// [`Packing::pack`], told the cells that hold each object where the
    /// caller knows them (`holding`, of `board`): the same bits, from the
    /// bitmaps where the level allows, else from the cells.
    pub(crate) fn pack_from(&self, board: &[u32], holding: Option<Holding>, scratch: &mut Scratch) {
        let begin = scratch.writer.position();
        scratch.writer.put(CODED, 1);
        let coded = match self.held_for(holding) {
            Some((held, bits)) => self.pack_held(board, bits, held, scratch),
            None => self.pack_coded(board, scratch),
        };
        if !coded {
            scratch.writer.truncate(begin);
            scratch.writer.put(DIFFERENCES, 1);
            self.pack_differences(board, &mut scratch.writer);
        }
    }

    /// Writes `board` in its codes, if they can tell it (else false, and
    /// the writer holds a part of it).
    fn pack_coded(&self, board: &[u32], scratch: &mut Scratch) -> bool {
        let base = scratch.writer.skip(self.field_bits);
        scratch.found.clear();
        let scanned = if self.stride == 1 {
            self.scan_single(board, base, scratch)
        } else {
            let s = self.stride;
            (0..board.len() / s).all(|c| {
                let words = Words {
                    cell: &board[c * s..][..s],
                    check: &self.check[c * s..][..s],
                    expect: &self.expect[c * s..][..s],
                    start: &self.start[c * s..][..s],
                };
                self.note(c, words, base, scratch)
            })
        };
        if !scanned {
            return false;
        }
        let Scratch {
            writer,
            found,
            counts,
            sorted,
            ..
        } = scratch;
        // Each list's entries, in increasing order: the entries sorted by
        // list, then slot. A few (a player and some crates) are sorted
        // where they are; many, by a counting sort by list (cells were
        // scanned in order, so each list's slots come out increasing).
        let entries: &[Entry] = if found.len() <= FEW_ENTRIES {
            found.sort_unstable();
            found
        } else {
            counts.clear();
            counts.resize(self.lists.len(), 0);
            for &entry in found.iter() {
                counts[list_of(entry)] += 1;
            }
            let mut at = 0;
            for count in counts.iter_mut() {
                (*count, at) = (at, at + *count);
            }
            sorted.resize(found.len(), 0);
            for &entry in found.iter() {
                let next = &mut counts[list_of(entry)];
                sorted[*next as usize] = entry;
                *next += 1;
            }
            sorted
        };
        // The lists in order: a run of empty ones is a count of 0 each,
        // one bit.
        let mut written = 0;
        let mut rest = entries;
        while let Some(&first) = rest.first() {
            let list = list_of(first);
            let n = rest.partition_point(|&e| list_of(e) == list);
            writer.ones((list - written) as u32);
            writer.gamma(n as u64);
            writer.positions(
                rest[..n].iter().map(|&e| e as u32),
                self.universes[self.lists[list].universe].codes[n],
            );
            written = list + 1;
            rest = &rest[n..];
        }
        writer.ones((self.lists.len() - written) as u32);
        true
    }

    /// Whether [`Packing::pack_from`] packs from `holding` rather than
    /// from the cells.
    #[cfg(test)]
    pub(crate) fn packs_from(&self, holding: Option<Holding>) -> bool {
        self.held_for(holding).is_some()
    }

    /// What [`Packing::pack_from`] packs from `holding` with, if it can:
    /// what it needs of the start, and the bitmaps themselves.
    fn held_for<'a>(&self, holding: Option<Holding<'a>>) -> Option<(&Held, &'a [u64])> {
        let (held, holding) = (self.held.as_ref()?, holding?);
        (holding.words == held.words && holding.bits.len() >= held.needed)
            .then_some((held, holding.bits))
    }

    /// [`Packing::pack_coded`] from `bits`, the cells holding each object
    /// of `board` ([`Holding`]): what a scan of every cell would note, read
    /// from the objects' bitmaps, each list's cells in increasing order as
    /// its bitmap's set bits. False where the codes cannot tell the board.
    fn pack_held(&self, board: &[u32], bits: &[u64], held: &Held, scratch: &mut Scratch) -> bool {
        let w = held.words;
        let Scratch {
            writer,
            cells,
            slots,
            ..
        } = scratch;
        // The objects no code tells are as they started (the check); a
        // guard past the bitmaps is an object the game does not have.
        for &(i, mask) in &held.guards {
            let Some(&now) = bits.get(i) else {
                break;
            };
            if (now ^ held.start[i]) & mask != 0 {
                return false;
            }
        }
        let base = writer.skip(self.field_bits);
        for f in &self.fields {
            let slot_of = &self.universes[f.universe].slot_of;
            for k in 0..w {
                let mut taken = 0u64;
                for id in ones(f.mask) {
                    let mut cells = bits[id as usize * w + k];
                    if taken & cells != 0 {
                        // Two objects of one layer: the field cannot say.
                        return false;
                    }
                    taken |= cells;
                    let value = u64::from(f.value_of_bit[id as usize]);
                    while cells != 0 {
                        let c = k * 64 + cells.trailing_zeros() as usize;
                        cells &= cells - 1;
                        let slot = slot_of[c] as usize;
                        writer.put_at(base + f.offset + slot * f.width as usize, value, f.width);
                    }
                }
            }
        }
        if let Some(sites) = &self.sites {
            // A few cells: told as the scan tells them.
            for (site, &c) in sites.cell_of.iter().enumerate() {
                let v = board[c as usize];
                let flipped = (v ^ self.start[c as usize]) & self.flip_bits[0];
                for spot in &self.spots {
                    if flipped & spot.mask == 0 {
                        continue;
                    }
                    let Some(value) = spot.value(v) else {
                        return false;
                    };
                    writer.put_at(
                        base + spot.offset + site * spot.width as usize,
                        value,
                        spot.width,
                    );
                }
            }
        }
        // Every list's cells at once, in one pass over the bitmaps (a few
        // vector instructions a word): `(now ^ xor) & keep`.
        let n = held.xor.len();
        cells.clear();
        cells.extend(
            bits[..n]
                .iter()
                .zip(&held.xor)
                .zip(&held.keep)
                .map(|((&now, &xor), &keep)| (now ^ xor) & keep),
        );
        match w {
            1 => self.write_held_lists::<1>(held, cells, slots, writer),
            2 => self.write_held_lists::<2>(held, cells, slots, writer),
            _ => self.write_held_lists::<0>(held, cells, slots, writer),
        }
        true
    }

    /// The lists of [`Packing::pack_held`], whose cells are `cells`, `W`
    /// words an object (0: any, `held.words`).
    #[inline(always)]
    fn write_held_lists<const W: usize>(
        &self,
        held: &Held,
        cells: &[u64],
        slots: &mut Vec<u32>,
        writer: &mut Writer,
    ) {
        let w = if W > 0 { W } else { held.words };
        let mut written = 0;
        for (i, list) in held.lists.iter().enumerate() {
            let at = list.at as usize;
            let words = &cells[at..at + w];
            // Most lists are empty: told by an OR of a word or two.
            if words.iter().fold(0, |any, &x| any | x) == 0 {
                continue;
            }
            let universe = &self.universes[list.universe as usize];
            slots.clear();
            for (k, &x) in words.iter().enumerate() {
                let mut x = x;
                while x != 0 {
                    slots.push(universe.slot_of[k * 64 + x.trailing_zeros() as usize]);
                    x &= x - 1;
                }
            }
            writer.ones((i - written) as u32);
            writer.gamma(slots.len() as u64);
            writer.positions(slots.iter().copied(), universe.codes[slots.len()]);
            written = i + 1;
        }
        writer.ones((self.lists.len() - written) as u32);
    }

    /// [`Packing::pack_coded`]'s scan of a board of one word a cell, the
    /// usual case, eight cells at a time: most cells hold nothing to note,
    /// and one test (which the compiler makes a few vector instructions)
    /// says so for eight.
    fn scan_single(&self, board: &[u32], base: usize, scratch: &mut Scratch) -> bool {
        if !self.watch.is_empty() {
            return self.scan_watched(board, base, scratch);
        }
        const BLOCK: usize = 8;
        let (noted, flips) = (self.noted[0], self.flip_bits[0]);
        let busy = |v: u32, check: u32, expect: u32, start: u32| {
            ((v & check) ^ expect) | (v & noted) | ((v ^ start) & flips)
        };
        let blocks = board
            .chunks(BLOCK)
            .zip(self.check.chunks(BLOCK))
            .zip(self.expect.chunks(BLOCK))
            .zip(self.start.chunks(BLOCK));
        for (b, (((v, check), expect), start)) in blocks.enumerate() {
            if let (Ok(v), Ok(check), Ok(expect), Ok(start)) = (
                <&[u32; BLOCK]>::try_from(v),
                <&[u32; BLOCK]>::try_from(check),
                <&[u32; BLOCK]>::try_from(expect),
                <&[u32; BLOCK]>::try_from(start),
            ) {
                let mut any = 0;
                for i in 0..BLOCK {
                    any |= busy(v[i], check[i], expect[i], start[i]);
                }
                if any == 0 {
                    continue;
                }
            }
            for (i, (((v, check), expect), start)) in
                v.iter().zip(check).zip(expect).zip(start).enumerate()
            {
                if busy(*v, *check, *expect, *start) != 0 {
                    let words = Words {
                        cell: std::slice::from_ref(v),
                        check: std::slice::from_ref(check),
                        expect: std::slice::from_ref(expect),
                        start: std::slice::from_ref(start),
                    };
                    if !self.note(b * BLOCK + i, words, base, scratch) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// [`Packing::scan_single`] with [`Packing::watch`]: two words a cell
    /// tell whether it needs noting, eight cells at a time (vector
    /// instructions).
    fn scan_watched(&self, board: &[u32], base: usize, scratch: &mut Scratch) -> bool {
        const BLOCK: usize = 8;
        let n = board.len();
        let (start, watch) = (&self.start[..n], &self.watch[..n]);
        let noted = self.noted[0];
        let note = |c: usize, scratch: &mut Scratch| {
            let words = Words {
                cell: &board[c..=c],
                check: &self.check[c..=c],
                expect: &self.expect[c..=c],
                start: &start[c..=c],
            };
            self.note(c, words, base, scratch)
        };
        let (cells, rest) = board.as_chunks::<BLOCK>();
        let (starts, _) = start.as_chunks::<BLOCK>();
        let (watches, _) = watch.as_chunks::<BLOCK>();
        for (b, ((v, s), w)) in cells.iter().zip(starts).zip(watches).enumerate() {
            let mut busy = [0u32; BLOCK];
            for i in 0..BLOCK {
                busy[i] = ((v[i] ^ s[i]) & w[i]) | (v[i] & noted);
            }
            if busy.iter().fold(0, |all, &x| all | x) == 0 {
                continue;
            }
            for (i, &x) in busy.iter().enumerate() {
                if x != 0 && !note(b * BLOCK + i, scratch) {
                    return false;
                }
            }
        }
        for c in n - rest.len()..n {
            let busy = ((board[c] ^ start[c]) & watch[c]) | (board[c] & noted);
            if busy != 0 && !note(c, scratch) {
                return false;
            }
        }
        true
    }

    /// Notes cell `c` (its words): its field values written (the fields
    /// start at bit `base`), its list entries found. False if the codes
    /// cannot tell it.
    #[inline(always)]
    fn note(&self, c: usize, words: Words, base: usize, scratch: &mut Scratch) -> bool {
        let Words {
            cell,
            check,
            expect,
            start,
        } = words;
        for ((&v, &check), &expect) in cell.iter().zip(check).zip(expect) {
            if v & check != expect {
                return false;
            }
        }
        for f in &self.fields {
            let x = cell[f.word] & f.mask;
            if x != 0 {
                if x & (x - 1) != 0 {
                    // Two objects of one layer: the field cannot say.
                    return false;
                }
                let slot = self.universes[f.universe].slot_of[c] as usize;
                let value = f.value_of_bit[x.trailing_zeros() as usize];
                scratch.writer.put_at(
                    base + f.offset + slot * f.width as usize,
                    u64::from(value),
                    f.width,
                );
            }
        }
        let site = self.sites.as_ref().map_or(u32::MAX, |s| s.slot_of[c]);
        let by_word = cell
            .iter()
            .zip(start)
            .zip(&self.list_bits)
            .zip(&self.flip_bits);
        for (w, (((&v, &start), &listed), &flips)) in by_word.enumerate() {
            let mut flipped = (v ^ start) & flips;
            if flipped != 0 && site != u32::MAX {
                // In a site, the appearing objects are its spots' values.
                for spot in self.spots.iter().filter(|spot| spot.word == w) {
                    if flipped & spot.mask == 0 {
                        continue;
                    }
                    flipped &= !spot.mask;
                    let Some(value) = spot.value(v) else {
                        return false;
                    };
                    scratch.writer.put_at(
                        base + spot.offset + site as usize * spot.width as usize,
                        value,
                        spot.width,
                    );
                }
            }
            let mut listed = (v & listed) | flipped;
            while listed != 0 {
                let list = self.list_of_bit[w][listed.trailing_zeros() as usize];
                let universe = &self.universes[self.lists[list as usize].universe];
                scratch
                    .found
                    .push(u64::from(list) << 32 | u64::from(universe.slot_of[c]));
                listed &= listed - 1;
            }
        }
        true
    }

    /// The most bits a board packs to whose moving objects are as many
    /// as the start's and whose other objects are as they started: what
    /// every state of a level where nothing is made or destroyed fits in,
    /// wherever its objects are.
    pub(crate) fn most_bits(&self) -> usize {
        let s = self.stride;
        let lists: usize = self
            .lists
            .iter()
            .map(|list| {
                let n = if list.flipped {
                    0
                } else {
                    self.start
                        .chunks_exact(s)
                        .filter(|cell| cell[list.word] >> list.bit & 1 == 1)
                        .count()
                };
                let universe = self.universes[list.universe].cell_of.len();
                gamma_bits(n) + ListCode::most_bits(n, universe)
            })
            .sum();
        1 + self.field_bits + lists
    }

    /// Writes `board` as the cells where it differs from the start: their
    /// count, then each one's distance from the last, and its words XOR
    /// the start's.
    fn pack_differences(&self, board: &[u32], writer: &mut Writer) {
        let s = self.stride;
        let differs = |c: usize| board[c * s..][..s] != self.start[c * s..][..s];
        let cells = self.start.len() / s;
        writer.gamma((0..cells).filter(|&c| differs(c)).count() as u64);
        let mut next = 0;
        for c in (0..cells).filter(|&c| differs(c)) {
            writer.gamma((c - next) as u64);
            for w in 0..s {
                writer.put(u64::from(board[c * s + w] ^ self.start[c * s + w]), 32);
            }
            next = c + 1;
        }
    }

    /// Reads a board [`Packing::pack`] wrote into `board`.
    pub(crate) fn unpack(&self, reader: &mut Reader, board: &mut [u32]) {
        if reader.get(1) == DIFFERENCES {
            return self.unpack_differences(reader, board);
        }
        let s = self.stride;
        board.copy_from_slice(&self.base);
        for f in &self.fields {
            for &c in &self.universes[f.universe].cell_of {
                let value = reader.get(f.width) as usize;
                if value != 0 {
                    board[c as usize * s + f.word] |= 1 << f.bit_of_value[value];
                }
            }
        }
        if let Some(sites) = &self.sites {
            for spot in &self.spots {
                for &c in &sites.cell_of {
                    let value = reader.get(spot.width) as usize;
                    if value != 0 {
                        let word = &mut board[c as usize * s + spot.word];
                        *word &= !spot.mask;
                        if value >= 2 {
                            *word |= 1 << spot.bit_of_value[value - 1];
                        }
                    }
                }
            }
        }
        let mut next = 0;
        while next < self.lists.len() {
            // Most lists are empty, a count of 0 each, one bit: a run of
            // them is skipped at once.
            next += reader.ones(self.lists.len() - next);
            let Some(list) = self.lists.get(next) else {
                break;
            };
            next += 1;
            let n = reader.gamma() as usize;
            if n == 0 {
                // Past a run of 64 or more.
                continue;
            }
            let bit = 1 << list.bit;
            let universe = &self.universes[list.universe];
            let code = universe.codes[n];
            let word = |slot: u32| universe.cell_of[slot as usize] as usize * s + list.word;
            if list.flipped {
                reader.positions(n, code, |slot| board[word(slot)] ^= bit);
            } else {
                reader.positions(n, code, |slot| board[word(slot)] |= bit);
            }
        }
    }

    fn unpack_differences(&self, reader: &mut Reader, board: &mut [u32]) {
        let s = self.stride;
        board.copy_from_slice(&self.start);
        let n = reader.gamma();
        let mut next = 0;
        for _ in 0..n {
            let c = next + reader.gamma() as usize;
            for w in 0..s {
                board[c * s + w] ^= reader.get(32) as u32;
            }
            next = c + 1;
        }
    }
}

/// The set bits of `mask`, lowest first.
fn ones(mask: u32) -> impl Iterator<Item = u32> {
    (0..32).filter(move |bit| mask >> bit & 1 == 1)
}

#[cfg(test)]
mod tests {
    use super::{Holding, Packing, Scratch};

    // One word a cell. Objects: 0 background, 1 wall, 2 player, 3 crate,
    // 4 target, 5 door (appears and disappears where it is). Layers:
    // background; target; player, wall and crate; door.
    const BACKGROUND: u32 = 1;
    const WALL: u32 = 1 << 1;
    const PLAYER: u32 = 1 << 2;
    const CRATE: u32 = 1 << 3;
    const TARGET: u32 = 1 << 4;
    const DOOR: u32 = 1 << 5;

    /// A 12 × 12 room walled round, a player, 6 crates, 3 targets and a
    /// door.
    fn room() -> Vec<u32> {
        let side = 12;
        let mut cells = vec![BACKGROUND; side * side];
        for (c, cell) in cells.iter_mut().enumerate() {
            let (x, y) = (c / side, c % side);
            if x == 0 || y == 0 || x == side - 1 || y == side - 1 {
                *cell |= WALL;
            }
        }
        cells[13] |= PLAYER;
        for c in [30, 31, 50, 77, 90, 101] {
            cells[c] |= CRATE;
        }
        for c in [40, 41, 42] {
            cells[c] |= TARGET;
        }
        cells[60] |= DOOR;
        cells
    }

    fn packing(start: &[u32]) -> Packing {
        let layers: [&[u32]; 4] = [&[BACKGROUND], &[TARGET], &[PLAYER | WALL | CRATE], &[DOOR]];
        Packing::new(
            start,
            1,
            &[PLAYER | CRATE | DOOR],
            &[PLAYER | CRATE],
            &[DOOR],
            &layers,
        )
    }

    fn pack(p: &Packing, board: &[u32]) -> Vec<u8> {
        let mut scratch = Scratch::default();
        scratch.writer.clear();
        p.pack(board, &mut scratch);
        let mut bytes = Vec::new();
        scratch.writer.bytes_into(&mut bytes, 0);
        bytes
    }

    fn unpack(p: &Packing, bytes: &[u8], cells: usize) -> Vec<u32> {
        let mut scratch = Scratch::default();
        scratch.reader.load(bytes);
        let mut board = vec![0; cells];
        p.unpack(&mut scratch.reader, &mut board);
        board
    }

    /// Boards play could reach from the room, and some it could not (a
    /// wall gone, two of a layer in one cell), from a fixed generator.
    fn boards(start: &[u32]) -> Vec<Vec<u32>> {
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng % n as u64) as usize
        };
        let mut out = vec![start.to_vec()];
        for round in 0..300 {
            let mut board = start.to_vec();
            for _ in 0..1 + round % 7 {
                let (from, to) = (next(board.len()), next(board.len()));
                let moved = [PLAYER, CRATE][next(2)];
                if board[from] & moved != 0 && board[to] & (PLAYER | WALL | CRATE) == 0 {
                    board[from] &= !moved;
                    board[to] |= moved;
                }
                if next(4) == 0 {
                    let at = next(board.len());
                    board[at] ^= DOOR;
                }
                if next(10) == 0 {
                    // A crate made from nothing, or lost.
                    let at = next(board.len());
                    board[at] ^= CRATE;
                }
                if round % 50 == 49 {
                    // What the codes cannot tell: a wall cleared, two
                    // objects of one layer in a cell.
                    let (at, what) = (next(board.len()), [WALL, CRATE | PLAYER][next(2)]);
                    board[at] ^= what;
                }
            }
            out.push(board);
        }
        // The door, in its site: gone, and back with a crate beside it;
        // and one more door elsewhere.
        let mut shut = start.to_vec();
        shut[60] &= !DOOR;
        out.push(shut.clone());
        shut[61] |= CRATE;
        out.push(shut);
        let mut two = start.to_vec();
        two[70] |= DOOR;
        out.push(two);
        out
    }

    #[test]
    fn every_board_comes_back_as_it_went_in() {
        let start = room();
        let p = packing(&start);
        for board in boards(&start) {
            assert_eq!(unpack(&p, &pack(&p, &board), start.len()), board);
        }
    }

    #[test]
    fn boards_pack_to_equal_bits_exactly_when_they_are_equal() {
        let start = room();
        let p = packing(&start);
        let all = boards(&start);
        let packed: Vec<Vec<u8>> = all.iter().map(|b| pack(&p, b)).collect();
        for (a, pa) in all.iter().zip(&packed) {
            for (b, pb) in all.iter().zip(&packed) {
                assert_eq!(a == b, pa == pb);
            }
        }
        // The same board packs the same whatever was packed before it
        // with the same scratch.
        let mut scratch = Scratch::default();
        for board in all.iter().chain(&all) {
            scratch.writer.clear();
            p.pack(board, &mut scratch);
            let mut bytes = Vec::new();
            scratch.writer.bytes_into(&mut bytes, 0);
            assert_eq!(bytes, pack(&p, board));
        }
    }

    #[test]
    fn the_watched_scan_packs_as_the_full_test_of_each_cell() {
        // The room's start holds one object a layer, so its scan reads
        // two words a cell (`watch`); without them every cell is tested in
        // full, and every board must pack to the same bits.
        let start = room();
        let watched = packing(&start);
        assert!(!watched.watch.is_empty());
        let mut full = watched.clone();
        full.watch.clear();
        for board in boards(&start) {
            assert_eq!(pack(&watched, &board), pack(&full, &board));
        }
    }

    /// `board`'s cells holding each of its 6 objects, as the engine keeps
    /// them.
    fn bitmaps(board: &[u32]) -> Vec<u64> {
        let words = board.len().div_ceil(64);
        let mut bits = vec![0; 6 * words];
        for (c, &v) in board.iter().enumerate() {
            for id in 0..6 {
                if v >> id & 1 == 1 {
                    bits[id * words + c / 64] |= 1 << (c % 64);
                }
            }
        }
        bits
    }

    /// The room, and one so full of crates that they take a field.
    fn rooms() -> Vec<Vec<u32>> {
        let mut crowded = room();
        for c in (26..118).filter(|c| c % 3 == 0) {
            if crowded[c] & (WALL | PLAYER) == 0 {
                crowded[c] |= CRATE;
            }
        }
        vec![room(), crowded]
    }

    #[test]
    fn boards_pack_from_their_bitmaps_as_from_their_cells() {
        let mut fields = 0;
        for start in rooms() {
            let p = packing(&start);
            fields += p.fields.len();
            for board in boards(&start) {
                let bits = bitmaps(&board);
                let holding = Some(Holding {
                    bits: &bits,
                    words: board.len().div_ceil(64),
                });
                assert!(p.packs_from(holding));
                let mut scratch = Scratch::default();
                scratch.writer.clear();
                p.pack_from(&board, holding, &mut scratch);
                let mut bytes = Vec::new();
                scratch.writer.bytes_into(&mut bytes, 0);
                assert_eq!(bytes, pack(&p, &board));
            }
            // Bitmaps of another board's size are not read.
            let bits = bitmaps(&start[..64]);
            assert!(!p.packs_from(Some(Holding {
                bits: &bits,
                words: 1
            })));
        }
        assert!(fields > 0, "the crowded room's crates take a field");
    }

    #[test]
    fn the_room_takes_a_few_bytes_in_its_codes_and_more_only_when_broken() {
        let start = room();
        let p = packing(&start);
        // 100 floor cells: the player and 6 crates as lists (a field of 2
        // bits a cell would take 200 bits), the door as 2 bits in its site
        // and an empty list of changes elsewhere: well under the 144 bits
        // of a bit a cell.
        let bits = p.most_bits();
        assert!(bits < 100, "{bits} bits");
        assert!(pack(&p, &start).len() * 8 <= bits.next_multiple_of(8));
        // The door goes in its site: a spot's value, the start's length.
        let mut open = start.clone();
        open[60] &= !DOOR;
        assert_eq!(pack(&p, &open).len(), pack(&p, &start).len());
        // A wall gone: its differences, behind the flag bit.
        let mut broken = start.clone();
        broken[0] &= !WALL;
        let bytes = pack(&p, &broken);
        assert_eq!(bytes[0] & 1, 1, "the differences form");
        assert_eq!(pack(&p, &start)[0] & 1, 0, "the coded form");
    }
}
