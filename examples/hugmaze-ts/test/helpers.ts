// Small helpers shared by the tests: levels from rows, cells from
// [row, column], and playing a move text through move().

import { Level, parseLevel } from '../src/level';
import { parseMoves } from '../src/notation';
import { MazeState, move } from '../src/rules';

/** A level from its grid rows (no headers). */
export function level(...rows: string[]): Level {
  return parseLevel(rows.join('\n') + '\n');
}

/** The cell at 0-based [row, column] of a level. */
export function cell(l: Level, row: number, col: number): number {
  return row * l.width + col;
}

/** [row, column] of a cell. */
export function rc(s: MazeState, c: number): [number, number] {
  return [Math.floor(c / s.board.width), c % s.board.width];
}

/** Plays every move; throws at the first refused one. */
export function play(start: MazeState, text: string): MazeState {
  let s = start;
  parseMoves(text).forEach((m, i) => {
    const next = move(s, m.who, m.dir);
    if (next === null) throw new Error(`move ${i} (${m.who}:${m.dir}) refused`);
    s = next;
  });
  return s;
}

/** Plays all but the last move, and returns what the last gives (null when refused). */
export function last(start: MazeState, text: string): MazeState | null {
  const tokens = text.trim().split(/\s+/);
  const before = play(start, tokens.slice(0, -1).join(' '));
  const m = parseMoves(tokens[tokens.length - 1]!)[0]!;
  return move(before, m.who, m.dir);
}

/** The start state with some pieces moved: cells given as [row, column]. */
export function placed(
  l: Level,
  where: {
    bubu?: [number, number];
    dudu?: [number, number];
    blocks?: [number, number][];
    jars?: [number, number][];
    cushions?: [number, number][];
  },
): MazeState {
  const c = (p: [number, number]): number => cell(l, p[0], p[1]);
  const sorted = (ps: [number, number][] | undefined, dflt: readonly number[]): number[] =>
    ps === undefined ? dflt.slice() : ps.map(c).sort((a, b) => a - b);
  return {
    board: l.start.board,
    bubu: where.bubu === undefined ? l.start.bubu : c(where.bubu),
    dudu: where.dudu === undefined ? l.start.dudu : c(where.dudu),
    blocks: sorted(where.blocks, l.start.blocks),
    jars: sorted(where.jars, l.start.jars),
    cushions: sorted(where.cushions, l.start.cushions),
  };
}
