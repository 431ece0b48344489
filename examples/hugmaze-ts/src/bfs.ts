// A plain breadth-first search over the same `move()`, with string keys, as
// the Hug Maze article writes it: each visited key is stored with the key it
// came from and the move that got there, and the path is rebuilt by walking
// back from the winning state. This is the baseline the harness's search
// (which calls the same rules through the adapter) is measured against.

import type { Move } from './notation';
import { BEARS, DIRECTIONS, MazeState, isWon, move, stateKey } from './rules';

export interface SolveResult {
  readonly status: 'solved' | 'unsolvable' | 'limit';
  /** The fewest moves that win; null unless solved. */
  readonly par: number | null;
  /** States taken off the queue and tried with every move. */
  readonly expanded: number;
  /** States in the visited set when the search stopped. */
  readonly stored: number;
  /** A winning path of `par` moves; null unless solved. */
  readonly path: Move[] | null;
}

/** The most states one search keeps by default, as the rulebook's `limit`. */
export const DEFAULT_LIMIT = 2_000_000;

interface Seen {
  readonly prev: string | null;
  readonly step: Move | null;
}

const ORDER: readonly Move[] = BEARS.flatMap((who) => DIRECTIONS.map((dir) => ({ who, dir })));

function rebuildPath(seen: Map<string, Seen>, k: string): Move[] {
  const path: Move[] = [];
  for (let e = seen.get(k)!; e.step !== null; e = seen.get(e.prev!)!) path.push(e.step);
  return path.reverse();
}

/** Breadth-first search from `start`; it stops at the first winning state generated. */
export function solve(start: MazeState, limit: number = DEFAULT_LIMIT): SolveResult {
  const startKey = stateKey(start);
  const seen = new Map<string, Seen>([[startKey, { prev: null, step: null }]]);
  if (isWon(start)) return { status: 'solved', par: 0, expanded: 0, stored: 1, path: [] };
  let layer: MazeState[] = [start];
  let keys: string[] = [startKey];
  let expanded = 0;
  for (let depth = 1; layer.length > 0; depth++) {
    const next: MazeState[] = [];
    const nextKeys: string[] = [];
    for (let i = 0; i < layer.length; i++) {
      const s = layer[i]!;
      const ks = keys[i]!;
      expanded++;
      for (const step of ORDER) {
        const r = move(s, step.who, step.dir);
        if (r === null) continue;
        const k = stateKey(r);
        if (seen.has(k)) continue;
        seen.set(k, { prev: ks, step });
        if (isWon(r)) return { status: 'solved', par: depth, expanded, stored: seen.size, path: rebuildPath(seen, k) };
        if (seen.size > limit) return { status: 'limit', par: null, expanded, stored: seen.size, path: null };
        next.push(r);
        nextKeys.push(k);
      }
    }
    layer = next;
    keys = nextKeys;
  }
  return { status: 'unsolvable', par: null, expanded, stored: seen.size, path: null };
}
