// The rules of Hug Maze (docs/games/hugmaze.md, "Rules of play"), written the
// way the Hug Maze article writes them: a state is plain data, and the whole
// rulebook is one pure function, `move(state, who, dir)`, that returns a new
// state or null when the move is refused. Nothing here is ever mutated.
//
// Cells are indices into the row-major grid: cell = row * width + column.
// Gates are derived from positions, never stored, so two states with the
// same positions really are the same state.

/** Static tiles, one per cell of the board. */
export const FLOOR = 0;
export const WALL = 1;
export const HEART = 2;
export const HOLE = 3;
export const CAT = 4;
export const PLATE = 5;
export const GATE = 6;
export type Tile = 0 | 1 | 2 | 3 | 4 | 5 | 6;

export type Who = 'bubu' | 'dudu';
export type Dir = 'U' | 'D' | 'L' | 'R';
export type Kind = 'block' | 'jar' | 'cushion';

/** The order moves are tried in: Bubu's before Dudu's, each U, D, L, R. */
export const BEARS: readonly Who[] = ['bubu', 'dudu'];
export const DIRECTIONS: readonly Dir[] = ['U', 'D', 'L', 'R'];
export const KINDS: readonly Kind[] = ['block', 'jar', 'cushion'];

const DIR_INDEX: Readonly<Record<Dir, number>> = { U: 0, D: 1, L: 2, R: 3 };
const DROW = [-1, 1, 0, 0];
const DCOL = [0, 0, -1, 1];

/**
 * The characters of a state key: printable ASCII without `"` and `\`, so a
 * key is as short in JSON as it is in memory. 92 of them.
 */
export const KEY_ALPHABET = (() => {
  let s = '';
  for (let c = 0x21; c <= 0x7e; c++) if (c !== 0x22 && c !== 0x5c) s += String.fromCharCode(c);
  return s;
})();
const KEY_BASE = KEY_ALPHABET.length;
const KEY_VALUE = (() => {
  const v = new Int16Array(128).fill(-1);
  for (let i = 0; i < KEY_ALPHABET.length; i++) v[KEY_ALPHABET.charCodeAt(i)] = i;
  return v;
})();

/** The static part of a level: walls, holes, cats, plates, gates, hearts. */
export interface Board {
  readonly width: number;
  readonly height: number;
  /** One Tile per cell. */
  readonly tiles: Uint8Array;
  /** A plate's or gate's letter, 0 for `a` to 25 for `z`; 0 elsewhere. */
  readonly letters: Uint8Array;
  /** next[cell * 4 + dir]: the neighbouring cell that way, or -1 off the grid. */
  readonly next: Int32Array;
  /** presses[cell]: the bit (1 << letter) of a plate, 0 for any other cell. */
  readonly presses: Int32Array;
  /** Characters per cell in a state key. */
  readonly keyWidth: number;
  /** keyCodes[cell]: that cell's characters in a state key. */
  readonly keyCodes: readonly string[];
  /**
   * The same characters as bytes (they are ASCII): keyBytes[cell * keyWidth + i]
   * is the i-th of keyCodes[cell], for writeStateKey.
   */
  readonly keyBytes: Uint8Array;
}

export function makeBoard(width: number, height: number, tiles: Uint8Array, letters: Uint8Array): Board {
  const cells = width * height;
  const next = new Int32Array(cells * 4);
  const presses = new Int32Array(cells);
  for (let cell = 0; cell < cells; cell++) {
    const row = Math.floor(cell / width);
    const col = cell % width;
    for (let d = 0; d < 4; d++) {
      const r = row + DROW[d]!;
      const c = col + DCOL[d]!;
      next[cell * 4 + d] = r < 0 || r >= height || c < 0 || c >= width ? -1 : r * width + c;
    }
    if (tiles[cell] === PLATE) presses[cell] = 1 << letters[cell]!;
  }
  let keyWidth = 1;
  while (KEY_BASE ** keyWidth < cells) keyWidth++;
  const keyCodes: string[] = new Array(cells);
  for (let cell = 0; cell < cells; cell++) {
    let code = '';
    for (let i = 0, v = cell; i < keyWidth; i++, v = Math.floor(v / KEY_BASE)) code = KEY_ALPHABET[v % KEY_BASE] + code;
    keyCodes[cell] = code;
  }
  const keyBytes = new Uint8Array(cells * keyWidth);
  for (let cell = 0; cell < cells; cell++) {
    for (let i = 0; i < keyWidth; i++) keyBytes[cell * keyWidth + i] = keyCodes[cell]!.charCodeAt(i);
  }
  return { width, height, tiles, letters, next, presses, keyWidth, keyCodes, keyBytes };
}

/**
 * A position: the bears' cells and the objects' cells, each kind kept in
 * ascending cell order, so two identical objects swapped are the same state.
 */
export interface MazeState {
  readonly board: Board;
  readonly bubu: number;
  readonly dudu: number;
  readonly blocks: readonly number[];
  readonly jars: readonly number[];
  readonly cushions: readonly number[];
}

/** Why a move is refused, the first failing check of the rulebook's list. */
export const REFUSED_WON = 1;
export const REFUSED_OFF_GRID = 2;
export const REFUSED_WALL = 3;
export const REFUSED_CAT = 4;
export const REFUSED_MOUSE_HOLE = 5;
export const REFUSED_GATE_SHUT = 6;
export const REFUSED_BEAR = 7;
export const REFUSED_TOO_HEAVY = 8;
export const REFUSED_PUSH_BLOCKED = 9;
export type Refusal = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

const NOBODY = 0;
const BUBU = 1;
const DUDU = 2;

/** Both bears on the same heart. */
export function isWon(s: MazeState): boolean {
  return s.bubu === s.dudu && s.board.tiles[s.bubu] === HEART;
}

/**
 * Whether the gate cell `gate` is open: some bear or object is on a plate of
 * its letter, or occupies the gate cell itself. `lifted` is a bear taken off
 * the grid and `ignored` the cell of an object taken off (-1 for none).
 */
function gateOpen(s: MazeState, gate: number, lifted: number, ignored: number): boolean {
  const presses = s.board.presses;
  const bit = 1 << s.board.letters[gate]!;
  let c = s.bubu;
  if (lifted !== BUBU && (c === gate || (presses[c]! & bit) !== 0)) return true;
  c = s.dudu;
  if (lifted !== DUDU && (c === gate || (presses[c]! & bit) !== 0)) return true;
  return holds(s.blocks, gate, bit, presses, ignored) || holds(s.jars, gate, bit, presses, ignored) || holds(s.cushions, gate, bit, presses, ignored);
}

/** Whether an object of `list` (the one at `ignored` aside) is in `gate` or on a plate of its letter. */
function holds(list: readonly number[], gate: number, bit: number, presses: Int32Array, ignored: number): boolean {
  for (let i = 0; i < list.length; i++) {
    const c = list[i]!;
    if (c !== ignored && (c === gate || (presses[c]! & bit) !== 0)) return true;
  }
  return false;
}

/** Whether the object at `cell` (if any) is there, `ignored` excepted. */
function objectAt(s: MazeState, cell: number, ignored: number): boolean {
  if (cell === ignored) return false;
  return s.blocks.includes(cell) || s.jars.includes(cell) || s.cushions.includes(cell);
}

/**
 * Whether `cell` accepts a pushed object: inside the grid, floor, a plate or
 * an open gate, and empty of bears and objects. Walls, cats, mouse holes,
 * hearts and shut gates never accept one.
 */
function accepts(s: MazeState, cell: number, lifted: number, ignored: number): boolean {
  if (cell < 0) return false;
  const t = s.board.tiles[cell];
  if (t !== FLOOR && t !== PLATE && (t !== GATE || !gateOpen(s, cell, lifted, ignored))) return false;
  if (lifted !== BUBU && s.bubu === cell) return false;
  if (lifted !== DUDU && s.dudu === cell) return false;
  return !objectAt(s, cell, ignored);
}

/** `list` with `from` replaced by `to`, kept in ascending order. */
function moved(list: readonly number[], from: number, to: number): number[] {
  const out = list.slice();
  let i = out.indexOf(from);
  out[i] = to;
  while (i > 0 && out[i - 1]! > to) {
    out[i] = out[i - 1]!;
    out[--i] = to;
  }
  while (i < out.length - 1 && out[i + 1]! < to) {
    out[i] = out[i + 1]!;
    out[++i] = to;
  }
  return out;
}

/**
 * One move, checked in the rulebook's order: the new state, or the first
 * check that refuses it. A refused move changes nothing.
 */
export function attempt(s: MazeState, who: Who, dir: Dir): MazeState | Refusal {
  if (isWon(s)) return REFUSED_WON;
  const board = s.board;
  const d = DIR_INDEX[dir];
  const bear = who === 'bubu' ? BUBU : DUDU;
  const me = bear === BUBU ? s.bubu : s.dudu;
  const other = bear === BUBU ? s.dudu : s.bubu;
  // 1. On the grid, not a wall or a cat.
  const target = board.next[me * 4 + d]!;
  if (target < 0) return REFUSED_OFF_GRID;
  const tile = board.tiles[target];
  if (tile === WALL) return REFUSED_WALL;
  if (tile === CAT) return REFUSED_CAT;
  // 2. Dudu may not enter a mouse hole.
  if (tile === HOLE && bear === DUDU) return REFUSED_MOUSE_HOLE;
  // 3. A gate must be open, counting the moving bear where it is now.
  if (tile === GATE && !gateOpen(s, target, NOBODY, -1)) return REFUSED_GATE_SHUT;
  // 4. Bears only share a heart.
  if (other === target && tile !== HEART) return REFUSED_BEAR;
  // 5. An object on the target is pushed, judged with the pushing bear lifted off.
  let { blocks, jars, cushions } = s;
  const kind: Kind | null = blocks.includes(target)
    ? 'block'
    : jars.includes(target)
      ? 'jar'
      : cushions.includes(target)
        ? 'cushion'
        : null;
  if (kind !== null) {
    if (kind !== 'cushion' && bear !== DUDU) return REFUSED_TOO_HEAVY;
    // The cell beyond is tested while the object is still in place.
    let to = board.next[target * 4 + d]!;
    if (!accepts(s, to, bear, -1)) return REFUSED_PUSH_BLOCKED;
    if (kind === 'cushion') {
      // From the second cell on, the sliding cushion itself is ignored too.
      for (let n = board.next[to * 4 + d]!; accepts(s, n, bear, target); n = board.next[n * 4 + d]!) to = n;
      cushions = moved(cushions, target, to);
    } else if (kind === 'jar') {
      jars = moved(jars, target, to);
    } else {
      blocks = moved(blocks, target, to);
    }
  }
  // 6. The bear steps onto the target.
  return bear === BUBU
    ? { board, bubu: target, dudu: s.dudu, blocks, jars, cushions }
    : { board, bubu: s.bubu, dudu: target, blocks, jars, cushions };
}

/** The article's `move`: the new state, or null when the move is refused. */
export function move(s: MazeState, who: Who, dir: Dir): MazeState | null {
  const r = attempt(s, who, dir);
  return typeof r === 'number' ? null : r;
}

function at(board: Board, cell: number): string {
  return `(row ${Math.floor(cell / board.width)}, column ${cell % board.width})`;
}

const NAMES: Readonly<Record<Who, string>> = { bubu: 'Bubu', dudu: 'Dudu' };
const OBJECT_NAMES: Readonly<Record<Kind, string>> = { block: 'block', jar: 'honey jar', cushion: 'cushion' };

/**
 * A refusal in words, with its cell as 0-based (row, column), worded as the
 * built-in engine's replay words it.
 */
export function refusalMessage(s: MazeState, who: Who, dir: Dir, why: Refusal): string {
  const board = s.board;
  const me = who === 'bubu' ? s.bubu : s.dudu;
  const target = board.next[me * 4 + DIR_INDEX[dir]]!;
  const name = NAMES[who];
  const other = NAMES[who === 'bubu' ? 'dudu' : 'bubu'];
  const kind: Kind = s.blocks.includes(target) ? 'block' : s.jars.includes(target) ? 'jar' : 'cushion';
  switch (why) {
    case REFUSED_WON:
      return 'the level is already won; no move after the win';
    case REFUSED_OFF_GRID:
      return `${name} would leave the grid`;
    case REFUSED_WALL:
      return `${name} walks into the wall at ${at(board, target)}`;
    case REFUSED_CAT:
      return `${name} cannot pass the sleeping cat at ${at(board, target)}`;
    case REFUSED_MOUSE_HOLE:
      return `${name} does not fit through the mouse hole at ${at(board, target)}`;
    case REFUSED_GATE_SHUT:
      return `the gate at ${at(board, target)} is closed in front of ${name}`;
    case REFUSED_BEAR:
      return `${name} bumps into ${other} at ${at(board, target)} (bears share only the heart)`;
    case REFUSED_TOO_HEAVY:
      return `${name} is too small to push the ${OBJECT_NAMES[kind]} at ${at(board, target)}`;
    case REFUSED_PUSH_BLOCKED:
      return `${name} cannot push the ${OBJECT_NAMES[kind]} at ${at(board, target)}: the cell beyond is not free`;
  }
}

/** Every legal move from `s`, in the order tried: Bubu's U D L R, then Dudu's. */
export function successors(s: MazeState): { who: Who; dir: Dir; state: MazeState }[] {
  const out: { who: Who; dir: Dir; state: MazeState }[] = [];
  for (const who of BEARS) {
    for (const dir of DIRECTIONS) {
      const next = move(s, who, dir);
      if (next !== null) out.push({ who, dir, state: next });
    }
  }
  return out;
}

/**
 * The canonical key of a state, the article's `stateKey` made compact: each
 * cell as `keyWidth` characters, Bubu, Dudu, then blocks, jars and cushions,
 * each kind sorted by cell. The level fixes how many of each kind there are,
 * so no separators are needed.
 */
export function stateKey(s: MazeState): string {
  const codes = s.board.keyCodes;
  let k = codes[s.bubu]! + codes[s.dudu]!;
  for (let i = 0; i < s.blocks.length; i++) k += codes[s.blocks[i]!]!;
  for (let i = 0; i < s.jars.length; i++) k += codes[s.jars[i]!]!;
  for (let i = 0; i < s.cushions.length; i++) k += codes[s.cushions[i]!]!;
  return k;
}

/** The length of every key of the level `s` belongs to: one cell's characters for each bear and object. */
export function keyLength(s: MazeState): number {
  return (2 + s.blocks.length + s.jars.length + s.cushions.length) * s.board.keyWidth;
}

/**
 * stateKey's characters written as bytes into `out` from `offset`, with no
 * string made on the way (the adapter writes thousands of keys per reply
 * straight into its reply buffer). Returns the offset after the key. `out`
 * must have room for keyLength(s) bytes.
 */
export function writeStateKey(s: MazeState, out: Uint8Array, offset: number): number {
  const { keyBytes, keyWidth } = s.board;
  let o = putCell(keyBytes, keyWidth, s.bubu, out, offset);
  o = putCell(keyBytes, keyWidth, s.dudu, out, o);
  for (let i = 0; i < s.blocks.length; i++) o = putCell(keyBytes, keyWidth, s.blocks[i]!, out, o);
  for (let i = 0; i < s.jars.length; i++) o = putCell(keyBytes, keyWidth, s.jars[i]!, out, o);
  for (let i = 0; i < s.cushions.length; i++) o = putCell(keyBytes, keyWidth, s.cushions[i]!, out, o);
  return o;
}

/**
 * One cell's key bytes into `out` at `o`; the offset after them. A plain
 * function, not a closure, so no context is allocated per key; one and two
 * characters a cell (every grid up to 8,464 cells) are written without a
 * loop, which for so few bytes is markedly faster.
 */
function putCell(keyBytes: Uint8Array, w: number, cell: number, out: Uint8Array, o: number): number {
  const i = cell * w;
  out[o] = keyBytes[i]!;
  if (w === 1) return o + 1;
  out[o + 1] = keyBytes[i + 1]!;
  if (w === 2) return o + 2;
  for (let j = 2; j < w; j++) out[o + j] = keyBytes[i + j]!;
  return o + w;
}

/**
 * The state a key stands for, in the level whose start state is `start`
 * (which fixes the board and the number of objects of each kind). Throws on
 * a key that is not one of that level's.
 */
export function stateFromKey(start: MazeState, key: string): MazeState {
  if (typeof key !== 'string' || key.length !== keyLength(start)) {
    throw new Error(`not a state of this level: ${JSON.stringify(key)} (a state has ${keyLength(start)} characters)`);
  }
  return stateFromKeyIn(start, key, 0);
}

/**
 * stateFromKey of the key that starts at `from` in `text` and runs
 * keyLength(start) characters (which `text` must have): the adapter reads
 * thousands of keys per request straight from the request's line, without
 * a string made for each. Throws as stateFromKey does, at the first fault in
 * reading order (a kind's order is checked once the kind is read).
 */
export function stateFromKeyIn(start: MazeState, text: string, from: number): MazeState {
  const board = start.board;
  const w = board.keyWidth;
  const cells = board.width * board.height;
  // The cells in the key's order, at `pos`: Bubu, Dudu, then each kind's objects.
  let pos = from;
  const bubu = readCell(text, pos, w, cells);
  if (bubu < 0) throw badKey(start, text, from, bubu);
  pos += w;
  const dudu = readCell(text, pos, w, cells);
  if (dudu < 0) throw badKey(start, text, from, dudu);
  pos += w;
  const blocks = readKind(start, text, from, pos, start.blocks.length);
  pos += start.blocks.length * w;
  const jars = readKind(start, text, from, pos, start.jars.length);
  pos += start.jars.length * w;
  const cushions = readKind(start, text, from, pos, start.cushions.length);
  return { board, bubu, dudu, blocks, jars, cushions };
}

/** The `n` cells of one kind in the key at `from`, read at `pos`; checked to be in ascending order. */
function readKind(start: MazeState, text: string, from: number, pos: number, n: number): number[] {
  if (n === 0) return NO_OBJECTS;
  const w = start.board.keyWidth;
  const cells = start.board.width * start.board.height;
  const list: number[] = [];
  for (let i = 0; i < n; i++, pos += w) {
    const c = readCell(text, pos, w, cells);
    if (c < 0) throw badKey(start, text, from, c);
    list.push(c);
  }
  for (let i = 1; i < n; i++) if (list[i - 1]! >= list[i]!) throw badKey(start, text, from, OUT_OF_ORDER);
  return list;
}

/**
 * The list of a kind the level has none of: one empty array shared by every
 * state stateFromKeyIn makes, since a state's lists are never changed
 * (move() copies a list to change it).
 */
const NO_OBJECTS: number[] = [];

/** What can be wrong with a key's cells. */
const BAD_CHARACTER = -1;
const BEYOND_GRID = -2;
const OUT_OF_ORDER = -3;

/** The cell written as the `w` key characters at `pos` of `text`, or BAD_CHARACTER or BEYOND_GRID. */
function readCell(text: string, pos: number, w: number, cells: number): number {
  let v = 0;
  for (let i = 0; i < w; i++) {
    const code = text.charCodeAt(pos + i);
    const digit = code < 128 ? KEY_VALUE[code]! : -1;
    if (digit < 0) return BAD_CHARACTER;
    v = v * KEY_BASE + digit;
  }
  return v >= cells ? BEYOND_GRID : v;
}

/** The error for the key at `from` of `text`, naming the key and what is wrong with it. */
function badKey(start: MazeState, text: string, from: number, why: number): Error {
  const key = JSON.stringify(text.slice(from, from + keyLength(start)));
  const what = why === BEYOND_GRID ? ' (a cell beyond the grid)' : why === OUT_OF_ORDER ? ' (objects out of order)' : '';
  return new Error(`not a state of this level: ${key}${what}`);
}
