// Hug Maze level files (docs/games/hugmaze.md, "Level files"): headers,
// comments and blank lines, then the grid, then nothing but blank lines.
// Errors stop the load and name their 1-based line and column; warnings let
// the level load. Ablation (the rulebook's "Ablation" table) edits the loaded
// level, never the text.

import {
  CAT,
  FLOOR,
  GATE,
  HEART,
  HOLE,
  Kind,
  MazeState,
  PLATE,
  WALL,
  makeBoard,
} from './rules';

/** A problem with a level file, at a 1-based line and column. */
export interface Diagnostic {
  readonly message: string;
  readonly line: number;
  readonly column: number;
}

/** A level that does not load. */
export class LevelError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
    this.name = 'LevelError';
  }
}

export interface Level {
  /** Header keys and values, each key where it first appears; a repeated key keeps its last value. */
  readonly headers: ReadonlyMap<string, string>;
  readonly width: number;
  readonly height: number;
  /** The 1-based line of the grid's first row (0 for a level made by ablation). */
  readonly gridLine: number;
  /** The start state; it carries the board (the static tiles). */
  readonly start: MazeState;
  readonly warnings: readonly Diagnostic[];
}

export const KNOWN_HEADERS: readonly string[] = ['name', 'hint', 'author'];

/** At most this many cells, since positions fit in 16 bits. */
export const MAX_CELLS = 65534;
/** At most this many movable objects (blocks, jars and cushions together). */
export const MAX_OBJECTS = 16;

const PLATE_LETTERS = 'aefgiklnopqrstuvwyz';
const WORD = /^[A-Za-z][A-Za-z0-9_-]*$/;

function isBlank(line: string): boolean {
  return /^[ \t]*$/.test(line);
}

function isComment(line: string): boolean {
  return /^[ \t]*;/.test(line);
}

/** The number of characters (code points) in `s`. */
function width(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** A header line's key and value, or null when the line is not a header. */
function header(line: string): { key: string; value: string; column: number } | null {
  const colon = line.indexOf(':');
  if (colon < 0) return null;
  const before = line.slice(0, colon);
  const key = before.trim();
  if (!WORD.test(key)) return null;
  const lead = before.length - before.trimStart().length;
  return { key, value: line.slice(colon + 1).trim(), column: width(line.slice(0, lead)) + 1 };
}

function describe(ch: string): string {
  if (ch === ' ') return 'unknown character ` ` (a space)';
  if (ch === '\t') return 'unknown character `\\t` (a tab)';
  return `unknown character \`${ch}\``;
}

/** The offset of the first byte that is not UTF-8, or -1 when all of them are. */
function firstBadByte(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const x = b[i]!;
    if (x < 0x80) {
      i++;
      continue;
    }
    let n: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (x >= 0xc2 && x <= 0xdf) n = 1;
    else if (x >= 0xe0 && x <= 0xef) {
      n = 2;
      if (x === 0xe0) lo = 0xa0;
      if (x === 0xed) hi = 0x9f;
    } else if (x >= 0xf0 && x <= 0xf4) {
      n = 3;
      if (x === 0xf0) lo = 0x90;
      if (x === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= n; k++) {
      const y = b[i + k];
      if (y === undefined || y < (k === 1 ? lo : 0x80) || y > (k === 1 ? hi : 0xbf)) return i;
    }
    i += n + 1;
  }
  return -1;
}

/**
 * Decodes a level file's bytes: UTF-8, or a LevelError at the first byte
 * that is not.
 */
export function decodeLevelBytes(bytes: Uint8Array): string {
  const bad = firstBadByte(bytes);
  if (bad < 0) return new TextDecoder('utf-8').decode(bytes);
  const lines = new TextDecoder('utf-8').decode(bytes.subarray(0, bad)).split('\n');
  const line = lines.length;
  const column = width(lines[lines.length - 1]!.replace(/^\uFEFF/, '')) + 1;
  throw new LevelError(`not a text file: invalid UTF-8 at byte ${bad} (line ${line}, column ${column})`, line, column);
}

interface Piece {
  readonly kind: Kind;
  readonly cell: number;
}

/** Reads a level file's text, or throws a LevelError. */
export function parseLevel(text: string): Level {
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const warnings: Diagnostic[] = [];
  const headers = new Map<string, string>();

  // 1. Headers, comments and blank lines, in any mix.
  let i = 0;
  let lastNonBlank = -1;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (isBlank(line)) continue;
    lastNonBlank = i;
    if (isComment(line)) continue;
    const h = header(line);
    if (h === null) break;
    if (headers.has(h.key)) {
      warnings.push({ message: `a second \`${h.key}:\` header; the last one counts`, line: i + 1, column: h.column });
    } else if (!KNOWN_HEADERS.includes(h.key)) {
      warnings.push({
        message: `unknown header \`${h.key}\`; kept, but no check reads it`,
        line: i + 1,
        column: h.column,
      });
    }
    headers.set(h.key, h.value);
  }
  if (i >= lines.length) {
    // No grid: point just past the last header or comment.
    throw new LevelError('the level has no grid', lastNonBlank + 2, 1);
  }

  // 2. The grid: adjacent non-blank lines, trailing spaces and tabs dropped.
  const gridLine = i + 1;
  const rows: string[][] = [];
  let cols = 0;
  for (; i < lines.length && !isBlank(lines[i]!); i++) {
    const row = Array.from(lines[i]!.replace(/[ \t]+$/, ''));
    if (rows.length === 0) {
      cols = row.length;
    } else if (row.length !== cols) {
      throw new LevelError(
        `ragged row: ${row.length} cells, but the first row (line ${gridLine}) has ${cols}`,
        i + 1,
        Math.min(row.length, cols) + 1,
      );
    }
    rows.push(row);
    const cells = rows.length * cols;
    if (cells > MAX_CELLS) {
      throw new LevelError(
        `the grid is too large for the engine: ${cells} cells by this line, at most ${MAX_CELLS}`,
        i + 1,
        1,
      );
    }
  }

  // 3. Nothing more than blank lines.
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (!isBlank(line)) {
      const lead = line.length - line.replace(/^[ \t]+/, '').length;
      throw new LevelError('text after the grid', i + 1, lead + 1);
    }
  }

  // 4. The cells, in reading order.
  const height = rows.length;
  const cells = height * cols;
  const tiles = new Uint8Array(cells);
  const letters = new Uint8Array(cells);
  let bubu = -1;
  let dudu = -1;
  let hearts = 0;
  const objects: Piece[] = [];
  for (let r = 0; r < height; r++) {
    const row = rows[r]!;
    for (let c = 0; c < cols; c++) {
      const ch = row[c]!;
      const cell = r * cols + c;
      const line = gridLine + r;
      let kind: Kind | null = null;
      switch (ch) {
        case '#':
          tiles[cell] = WALL;
          break;
        case '.':
          tiles[cell] = FLOOR;
          break;
        case 'B':
          if (bubu >= 0) {
            throw new LevelError('a second `B`: a level has exactly one Bubu', line, c + 1);
          }
          bubu = cell;
          break;
        case 'D':
          if (dudu >= 0) {
            throw new LevelError('a second `D`: a level has exactly one Dudu', line, c + 1);
          }
          dudu = cell;
          break;
        case 'H':
          tiles[cell] = HEART;
          hearts++;
          break;
        case 'm':
          tiles[cell] = HOLE;
          break;
        case 'c':
          tiles[cell] = CAT;
          break;
        case 'X':
          kind = 'block';
          break;
        case 'J':
          kind = 'jar';
          break;
        case 'C':
          kind = 'cushion';
          break;
        default:
          if (PLATE_LETTERS.includes(ch)) {
            tiles[cell] = PLATE;
            letters[cell] = ch.charCodeAt(0) - 0x61;
          } else if (PLATE_LETTERS.toUpperCase().includes(ch)) {
            tiles[cell] = GATE;
            letters[cell] = ch.charCodeAt(0) - 0x41;
          } else {
            throw new LevelError(describe(ch), line, c + 1);
          }
      }
      if (kind !== null) {
        if (objects.length === MAX_OBJECTS) {
          throw new LevelError(
            `too many movable objects for the engine: at most ${MAX_OBJECTS} blocks, jars and cushions together`,
            line,
            c + 1,
          );
        }
        objects.push({ kind, cell });
      }
    }
  }
  if (bubu < 0) throw new LevelError('the level has no Bubu `B`', gridLine, 1);
  if (dudu < 0) throw new LevelError('the level has no Dudu `D`', gridLine, 1);
  if (hearts === 0) throw new LevelError('the level has no heart `H`', gridLine, 1);

  // 5. Gates and plates: a gate needs a plate; a plate with no gate is a warning.
  const plateLetters = new Set<number>();
  const gateLetters = new Set<number>();
  for (let cell = 0; cell < cells; cell++) {
    if (tiles[cell] === PLATE) plateLetters.add(letters[cell]!);
    if (tiles[cell] === GATE) gateLetters.add(letters[cell]!);
  }
  for (let cell = 0; cell < cells; cell++) {
    if (tiles[cell] === GATE && !plateLetters.has(letters[cell]!)) {
      const g = String.fromCharCode(0x41 + letters[cell]!);
      throw new LevelError(
        `gate \`${g}\` has no plate \`${g.toLowerCase()}\`: it could never open`,
        gridLine + Math.floor(cell / cols),
        (cell % cols) + 1,
      );
    }
  }
  for (let cell = 0; cell < cells; cell++) {
    if (tiles[cell] === PLATE && !gateLetters.has(letters[cell]!)) {
      const p = String.fromCharCode(0x61 + letters[cell]!);
      warnings.push({
        message: `plate \`${p}\` opens nothing: there is no gate \`${p.toUpperCase()}\``,
        line: gridLine + Math.floor(cell / cols),
        column: (cell % cols) + 1,
      });
    }
  }

  const board = makeBoard(cols, height, tiles, letters);
  const of = (k: Kind): number[] => objects.filter((o) => o.kind === k).map((o) => o.cell);
  const start: MazeState = { board, bubu, dudu, blocks: of('block'), jars: of('jar'), cushions: of('cushion') };
  return { headers, width: cols, height, gridLine, start, warnings };
}

// --- Ablation ---------------------------------------------------------------

export type MechanicName = 'mouse-hole' | 'block' | 'jar' | 'cushion' | 'plate' | 'gate' | 'cat';
export type Replacement = 'wall' | 'floor';

/** The rulebook's Ablation table, in its order. */
export const MECHANICS: readonly { readonly name: MechanicName; readonly replacement: Replacement }[] = [
  { name: 'mouse-hole', replacement: 'wall' },
  { name: 'block', replacement: 'wall' },
  { name: 'jar', replacement: 'wall' },
  { name: 'cushion', replacement: 'wall' },
  { name: 'plate', replacement: 'floor' },
  { name: 'gate', replacement: 'floor' },
  { name: 'cat', replacement: 'floor' },
];

const TILE_OF: Partial<Record<MechanicName, number>> = { 'mouse-hole': HOLE, plate: PLATE, gate: GATE, cat: CAT };
const KIND_OF: Partial<Record<MechanicName, Kind>> = { block: 'block', jar: 'jar', cushion: 'cushion' };

function objectsOf(s: MazeState, kind: Kind): readonly number[] {
  return kind === 'block' ? s.blocks : kind === 'jar' ? s.jars : s.cushions;
}

/** The cells of a mechanic's pieces, in reading order. */
function cellsOf(level: Level, name: MechanicName): number[] {
  const kind = KIND_OF[name];
  if (kind !== undefined) return objectsOf(level.start, kind).slice();
  const tile = TILE_OF[name]!;
  const tiles = level.start.board.tiles;
  const out: number[] = [];
  for (let cell = 0; cell < tiles.length; cell++) if (tiles[cell] === tile) out.push(cell);
  return out;
}

export interface MechanicInfo {
  readonly name: MechanicName;
  readonly replacement: Replacement;
}

export interface PieceInfo {
  readonly name: MechanicName;
  /** [row, column], 0-based. */
  readonly at: readonly [number, number];
  readonly replacement: Replacement;
}

/** The mechanics the level has, in the table's order. */
export function mechanics(level: Level): MechanicInfo[] {
  return MECHANICS.filter((m) => cellsOf(level, m.name).length > 0).map((m) => ({ ...m }));
}

/** Single pieces (`ablate --objects`): by mechanic, then in reading order. */
export function pieces(level: Level): PieceInfo[] {
  const out: PieceInfo[] = [];
  for (const m of MECHANICS) {
    for (const cell of cellsOf(level, m.name)) {
      out.push({ name: m.name, at: [Math.floor(cell / level.width), cell % level.width], replacement: m.replacement });
    }
  }
  return out;
}

/** Why an ablation cannot be done. */
export class AblationError extends Error {}

/**
 * A copy of the level without a mechanic, or, with `at` ([row, column]),
 * without that one piece of it: the piece's cell gets the mechanic's
 * replacement (an object leaves a wall where it starts). The level given is
 * left as it was.
 */
export function ablate(level: Level, name: string, at?: readonly [number, number]): Level {
  const mechanic = MECHANICS.find((m) => m.name === name);
  if (mechanic === undefined) {
    throw new AblationError(`unknown mechanic \`${name}\`: Hug Maze's are ${MECHANICS.map((m) => m.name).join(', ')}`);
  }
  let cells = cellsOf(level, mechanic.name);
  if (cells.length === 0) throw new AblationError(`the level has no ${name}`);
  if (at !== undefined) {
    const [row, col] = at;
    const cell = row * level.width + col;
    if (!Number.isInteger(row) || !Number.isInteger(col) || row < 0 || col < 0 || col >= level.width || !cells.includes(cell)) {
      throw new AblationError(`the level has no ${name} at [${row}, ${col}]`);
    }
    cells = [cell];
  }
  const old = level.start.board;
  const tiles = old.tiles.slice();
  const letters = old.letters.slice();
  const replacement = mechanic.replacement === 'wall' ? WALL : FLOOR;
  for (const cell of cells) {
    tiles[cell] = replacement;
    letters[cell] = 0;
  }
  const board = makeBoard(old.width, old.height, tiles, letters);
  const kind = KIND_OF[mechanic.name];
  const keep = (k: Kind): number[] => objectsOf(level.start, k).filter((c) => k !== kind || !cells.includes(c));
  const start: MazeState = {
    board,
    bubu: level.start.bubu,
    dudu: level.start.dudu,
    blocks: keep('block'),
    jars: keep('jar'),
    cushions: keep('cushion'),
  };
  return { headers: level.headers, width: level.width, height: level.height, gridLine: level.gridLine, start, warnings: [] };
}

// --- Pictures ---------------------------------------------------------------

/** A state as rows of the level file's own characters (Dudu drawn over Bubu on a shared heart). */
export function drawState(s: MazeState): string[] {
  const b = s.board;
  const chars: string[] = [];
  for (let cell = 0; cell < b.tiles.length; cell++) {
    const t = b.tiles[cell];
    const l = b.letters[cell]!;
    chars.push(
      t === WALL
        ? '#'
        : t === HEART
          ? 'H'
          : t === HOLE
            ? 'm'
            : t === CAT
              ? 'c'
              : t === PLATE
                ? String.fromCharCode(0x61 + l)
                : t === GATE
                  ? String.fromCharCode(0x41 + l)
                  : '.',
    );
  }
  for (const c of s.blocks) chars[c] = 'X';
  for (const c of s.jars) chars[c] = 'J';
  for (const c of s.cushions) chars[c] = 'C';
  chars[s.bubu] = 'B';
  chars[s.dudu] = 'D';
  const rows: string[] = [];
  for (let r = 0; r < b.height; r++) rows.push(chars.slice(r * b.width, (r + 1) * b.width).join(''));
  return rows;
}
