// stateKey: canonical (identical objects are interchangeable), short, free of
// characters JSON escapes, and read back by stateFromKey.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseLevel } from '../src/level';
import { parseMoves } from '../src/notation';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeLevelBytes } from '../src/level';
import {
  KEY_ALPHABET,
  MazeState,
  keyLength,
  move,
  stateFromKey,
  stateFromKeyIn,
  stateKey,
  successors,
  writeStateKey,
} from '../src/rules';
import { level, placed } from './helpers';

const ARTICLE = [
  '############',
  '#B..#...D..#',
  '#...#......#',
  '#...#.J..J.#',
  '#...#......#',
  '#...P......#',
  '#...#..p.q.#',
  '#####Q######',
  '#..........#',
  '#.....H....#',
  '#..........#',
  '############',
];

const LEVELS = join(__dirname, '..', '..', '..', '..', 'levels', 'hugmaze');

/** Every state reachable from `start`, or the first `limit` found. */
function reachable(start: MazeState, limit = Infinity): MazeState[] {
  const seen = new Map([[stateKey(start), start]]);
  const queue = [start];
  while (queue.length > 0 && seen.size < limit) {
    for (const { state } of successors(queue.pop()!)) {
      const k = stateKey(state);
      if (!seen.has(k)) {
        seen.set(k, state);
        queue.push(state);
      }
    }
  }
  return [...seen.values()];
}

function plain(s: MazeState): unknown {
  return { bubu: s.bubu, dudu: s.dudu, blocks: s.blocks, jars: s.jars, cushions: s.cushions };
}

describe('stateKey', () => {
  it('is the same for two jars swapped: objects of a kind are kept in cell order', () => {
    const l = level(
      '.....', //
      '.J.J.',
      '.....',
      '.D...',
      'B...H',
    );
    // Dudu moves the right jar down, the left jar into the right one's
    // place, and the right jar round into the left one's: the jars have
    // traded places.
    const moves = [
      'D:R D:U D:U D:U D:R D:D',
      'D:U D:L D:L D:L D:D D:R D:R',
      'D:D D:D D:R D:R D:U D:L D:L',
      'D:D D:L D:U',
    ].join(' ');
    let s = l.start;
    for (const m of parseMoves(moves)) {
      s = move(s, m.who, m.dir)!;
      assert.ok(s.jars.every((c, i) => i === 0 || s.jars[i - 1]! < c), 'jars in cell order');
    }
    assert.deepEqual(s.jars, l.start.jars);
    assert.equal(stateKey(s), stateKey(placed(l, { dudu: [2, 1] })));
  });
  it('tells apart the bears, and the kinds', () => {
    const l = level('BXJC.', 'D...H');
    const k = stateKey(l.start);
    const bearsSwapped = { ...l.start, bubu: l.start.dudu, dudu: l.start.bubu };
    assert.notEqual(stateKey(bearsSwapped), k);
    const kindsSwapped = { ...l.start, blocks: l.start.jars, jars: l.start.blocks };
    assert.notEqual(stateKey(kindsSwapped), k);
  });
  it('is short: one character a cell up to 92 cells, two up to 8,464, three beyond', () => {
    assert.equal(KEY_ALPHABET.length, 92);
    assert.ok(!KEY_ALPHABET.includes('"') && !KEY_ALPHABET.includes('\\'));
    assert.ok([...KEY_ALPHABET].every((c) => c > ' ' && c <= '~'));
    const small = level('BXJC.', 'D...H');
    assert.equal(stateKey(small.start).length, 5);
    const article = parseLevel(ARTICLE.join('\n'));
    assert.equal(article.start.board.keyWidth, 2);
    assert.equal(stateKey(article.start).length, 8);
    const rows = Array.from({ length: 100 }, () => '.'.repeat(100));
    rows[99] = '.'.repeat(96) + 'BJHD';
    const huge = parseLevel(rows.join('\n'));
    assert.equal(huge.start.board.keyWidth, 3);
    assert.equal(stateKey(huge.start).length, 9);
    assert.deepEqual(plain(stateFromKey(huge.start, stateKey(huge.start))), plain(huge.start));
  });
  it('is read back by stateFromKey, for every reachable state of a level', () => {
    const l = level('BC.pP.', 'DJ.X.H', '......');
    const all = reachable(l.start);
    assert.ok(all.length > 100);
    for (const s of all) assert.deepEqual(plain(stateFromKey(l.start, stateKey(s))), plain(s));
  });
  it('turns away what is not a key of the level', () => {
    const l = level('BXJC.', 'D...H');
    const k = stateKey(l.start);
    assert.throws(() => stateFromKey(l.start, k + '!'), /not a state of this level/);
    assert.throws(() => stateFromKey(l.start, k.slice(1)), /not a state of this level/);
    assert.throws(() => stateFromKey(l.start, '"' + k.slice(1)), /not a state of this level/);
    assert.throws(() => stateFromKey(l.start, '~' + k.slice(1)), /beyond the grid/);
    const two = level('BJJ..', 'D...H');
    const kk = stateKey(two.start);
    assert.throws(() => stateFromKey(two.start, kk.slice(0, 2) + kk[3] + kk[2]), /out of order/);
  });
});

describe('writeStateKey', () => {
  /** The key's bytes as writeStateKey writes them between two guard bytes, checked to stop where it says. */
  function written(s: MazeState): string {
    const n = keyLength(s);
    const out = new Uint8Array(n + 2).fill(0xff);
    assert.equal(writeStateKey(s, out, 1), 1 + n, 'returns the offset after the key');
    assert.equal(out[0], 0xff, 'nothing before the offset');
    assert.equal(out[n + 1], 0xff, 'nothing after the key');
    return String.fromCharCode(...out.subarray(1, n + 1));
  }
  it("writes exactly stateKey's characters, with one, two and three characters a cell", () => {
    const small = level('BC.pP.', 'DJ.X.H', '......');
    assert.equal(small.start.board.keyWidth, 1);
    const all = reachable(small.start);
    assert.ok(all.length > 100);
    for (const s of all) assert.equal(written(s), stateKey(s));
    const article = parseLevel(ARTICLE.join('\n'));
    assert.equal(article.start.board.keyWidth, 2);
    for (const s of reachable(article.start, 20_000)) assert.equal(written(s), stateKey(s));
    const rows = Array.from({ length: 100 }, () => '.'.repeat(100));
    rows[0] = 'C.X' + '.'.repeat(97);
    rows[99] = '.'.repeat(96) + 'BJHD';
    const huge = parseLevel(rows.join('\n'));
    assert.equal(huge.start.board.keyWidth, 3);
    for (const s of reachable(huge.start, 5_000)) assert.equal(written(s), stateKey(s));
  });
  it("writes exactly stateKey's characters on every level of levels/hugmaze", { skip: existsSync(LEVELS) ? false : `no ${LEVELS}` }, () => {
    const files = readdirSync(LEVELS).filter((f) => f.endsWith('.txt'));
    assert.ok(files.length >= 17);
    for (const f of files) {
      const l = parseLevel(decodeLevelBytes(readFileSync(join(LEVELS, f))));
      for (const s of reachable(l.start, 3_000)) assert.equal(written(s), stateKey(s), f);
    }
  });
});

/** stateFromKey as it was written before stateFromKeyIn: the reference its answers and errors are held to. */
function stateFromKeyBefore(start: MazeState, key: string): MazeState {
  const board = start.board;
  const w = board.keyWidth;
  const base = KEY_ALPHABET.length;
  const counts = [start.blocks.length, start.jars.length, start.cushions.length];
  const expected = (2 + counts[0]! + counts[1]! + counts[2]!) * w;
  if (typeof key !== 'string' || key.length !== expected) {
    throw new Error(`not a state of this level: ${JSON.stringify(key)} (a state has ${expected} characters)`);
  }
  const cells = board.width * board.height;
  let pos = 0;
  const cell = (): number => {
    let v = 0;
    for (let i = 0; i < w; i++) {
      const digit = KEY_ALPHABET.indexOf(key[pos++]!);
      if (digit < 0) throw new Error(`not a state of this level: ${JSON.stringify(key)}`);
      v = v * base + digit;
    }
    if (v >= cells) throw new Error(`not a state of this level: ${JSON.stringify(key)} (a cell beyond the grid)`);
    return v;
  };
  const bubu = cell();
  const dudu = cell();
  const lists: number[][] = counts.map((n) => {
    const list: number[] = [];
    for (let i = 0; i < n; i++) list.push(cell());
    for (let i = 1; i < n; i++) {
      if (list[i - 1]! >= list[i]!) throw new Error(`not a state of this level: ${JSON.stringify(key)} (objects out of order)`);
    }
    return list;
  });
  return { board, bubu, dudu, blocks: lists[0]!, jars: lists[1]!, cushions: lists[2]! };
}

/** What a reader of keys makes of `key`: the state, plainly, or its error's message. */
function outcome(read: (key: string) => MazeState, key: string): unknown {
  try {
    return plain(read(key));
  } catch (e) {
    return (e as Error).message;
  }
}

describe('stateFromKeyIn', () => {
  it('reads a key from the middle of a text, as stateFromKey reads it alone', () => {
    const l = level('BC.pP.', 'DJ.X.H', '......');
    for (const s of reachable(l.start)) {
      const k = stateKey(s);
      assert.deepEqual(plain(stateFromKeyIn(l.start, `["x","${k}","y"]`, 6)), plain(s));
    }
  });
  it('gives every answer and every error stateFromKey gave before it, on keys good and bad', () => {
    const levels = [
      level('BC.pP.', 'DJ.X.H', '......'), // one character a cell, one object of each kind
      level('BJJ..', 'D...H'), // two jars, to be put out of order
      parseLevel(ARTICLE.join('\n')), // two characters a cell
    ];
    const odd = ['"', '\\', ' ', '~', '!', '\u00e9', '\u20ac', KEY_ALPHABET[KEY_ALPHABET.length - 1]!];
    let bad = 0;
    for (const l of levels) {
      for (const s of reachable(l.start, 300)) {
        const k = stateKey(s);
        const keys = [k, k.slice(1), k + '!', k.split('').reverse().join('')];
        for (let i = 0; i < k.length; i++) {
          for (const c of odd) keys.push(k.slice(0, i) + c + k.slice(i + 1));
          if (i + 1 < k.length) keys.push(k.slice(0, i) + k[i + 1] + k[i] + k.slice(i + 2));
        }
        for (const key of keys) {
          const before = outcome((x) => stateFromKeyBefore(l.start, x), key);
          assert.deepEqual(outcome((x) => stateFromKey(l.start, x), key), before, key);
          if (typeof before === 'string') bad++;
          else if (key.length === keyLength(l.start)) assert.deepEqual(outcome((x) => stateFromKeyIn(l.start, `[${x}]`, 1), key), before);
        }
      }
    }
    assert.ok(bad > 1000, `${bad} bad keys`);
  });
});
